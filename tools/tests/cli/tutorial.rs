//! docs/tutorial-mod.md, followed step by step: its file blocks are written and its
//! commands run in order, each output checked against the page, so the page stays true.
//!
//! A block ```` ```lua file=PATH ```` is a file to write (again: replaced). A ```` ```console ````
//! block holds `$ riffle ...` commands, each followed by lines its output must contain (`...`
//! stands for any text within a line); `console exit=N` expects exit code N (default 0).
//! `../my-mod` is the mod folder next to the clone: here, a fresh temporary folder.

use super::{riffle, stderr, stdout};
use crate::common::{Fixture, repo};

enum Step {
    File {
        path: String,
        text: String,
    },
    Command {
        line: String,
        expect: Vec<String>,
        exit: i32,
    },
}

fn steps(page: &str) -> Vec<Step> {
    let mut out = Vec::new();
    let mut lines = page.lines();
    while let Some(l) = lines.next() {
        let Some(info) = l.strip_prefix("```") else {
            continue;
        };
        let body: Vec<&str> = lines
            .by_ref()
            .take_while(|l| !l.starts_with("```"))
            .collect();
        let mut words = info.split_whitespace();
        let lang = words.next().unwrap_or("");
        let attr = |name: &str| {
            info.split_whitespace()
                .find_map(|w| w.strip_prefix(&format!("{name}=")).map(str::to_string))
        };
        if let Some(path) = attr("file") {
            out.push(Step::File {
                path,
                text: body.iter().map(|l| format!("{l}\n")).collect(),
            });
        } else if lang == "console" {
            let exit = attr("exit").map_or(0, |e| e.parse().expect("exit=N"));
            for l in body {
                match l.strip_prefix("$ ") {
                    Some(cmd) => out.push(Step::Command {
                        line: cmd.to_string(),
                        expect: Vec::new(),
                        exit,
                    }),
                    None => match out.last_mut() {
                        Some(Step::Command { expect, .. }) => expect.push(l.to_string()),
                        _ => panic!("output before any command: {l}"),
                    },
                }
            }
        }
    }
    out
}

/// Whether one line of `output` holds the pieces of `expected` in order.
fn shows(output: &str, expected: &str) -> bool {
    output.lines().any(|line| {
        let mut rest = line;
        expected.split("...").all(|piece| {
            let piece = piece.trim();
            match rest.find(piece) {
                Some(i) => {
                    rest = &rest[i + piece.len()..];
                    true
                }
                None => false,
            }
        })
    })
}

#[test]
fn the_mod_tutorial_works_as_written() {
    let page = std::fs::read_to_string(repo().join("docs/tutorial-mod.md")).unwrap();
    let tmp = Fixture::empty();
    let mod_dir = tmp.dir.join("my-mod");
    let mod_path = mod_dir.to_str().unwrap().to_string();
    let here = |s: &str| s.replace("../my-mod", &mod_path);
    let steps = steps(&page);
    let commands = steps
        .iter()
        .filter(|s| matches!(s, Step::Command { .. }))
        .count();
    assert!(
        commands >= 6,
        "the tutorial runs its commands: found {commands}"
    );
    for step in steps {
        match step {
            Step::File { path, text } => {
                assert!(path.starts_with("../my-mod/"), "{path}: inside the mod");
                let p = std::path::PathBuf::from(here(&path));
                std::fs::create_dir_all(p.parent().unwrap()).unwrap();
                std::fs::write(p, text).unwrap();
            }
            Step::Command { line, expect, exit } => {
                let line = here(&line);
                let mut words = line.split_whitespace();
                assert_eq!(words.next(), Some("riffle"), "{line}");
                let args: Vec<&str> = words.collect();
                let out = riffle(&repo(), &args);
                let text = format!("{}{}", stdout(&out), stderr(&out));
                assert_eq!(out.status.code(), Some(exit), "{line}:\n{text}");
                for e in expect {
                    assert!(
                        shows(&text, &here(&e)),
                        "{line}: expected `{e}` in:\n{text}"
                    );
                }
            }
        }
    }
}
