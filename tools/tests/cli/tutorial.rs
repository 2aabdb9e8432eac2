//! docs/tutorial-mod.md, followed step by step: its file blocks are written and its
//! commands run in order, each output checked against the page, so the page stays true.
//!
//! A block ```` ```lua file=PATH ```` is a file to write (again: replaced); ```` ```yaml
//! written=PATH ```` is what `riffle new` wrote there, compared line by line (`...` within a
//! line stands for any text, a line `...` for any lines). A ```` ```console ```` block holds
//! `$ riffle ...` commands (arguments in double quotes may hold spaces) and `$ rm PATH`, each
//! followed by lines its output must contain; `console exit=N` expects exit code N (default
//! 0). `../my-mod` is the mod folder next to the clone (`riffle/`): here, a fresh temporary
//! folder. Its schema headers lead to the copies the mod carries (`editor/schema/`); a path
//! `../../../../riffle/` on the page would lead from it to the repository.

use std::path::Path;

use super::{riffle, stderr, stdout};
use crate::common::{Fixture, repo};
use riffle::scaffold::header;

enum Step {
    File {
        path: String,
        text: String,
    },
    Written {
        path: String,
        lines: Vec<String>,
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
        if let Some(path) = attr("written") {
            out.push(Step::Written {
                path,
                lines: body.iter().map(|l| l.to_string()).collect(),
            });
        } else if let Some(path) = attr("file") {
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

/// Whether `line` is `pattern`, where `...` in the pattern stands for any text.
fn matches(line: &str, pattern: &str) -> bool {
    let pieces: Vec<&str> = pattern.split("...").collect();
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if pieces.len() == 1 {
        return line == pattern;
    }
    if !line.starts_with(first) || line.len() < first.len() + last.len() || !line.ends_with(last) {
        return false;
    }
    let mut rest = &line[first.len()..line.len() - last.len()];
    pieces[1..pieces.len() - 1]
        .iter()
        .all(|piece| match rest.find(piece) {
            Some(i) => {
                rest = &rest[i + piece.len()..];
                true
            }
            None => false,
        })
}

/// Whether the file's `lines` are what the page shows (a page line `...`: any lines).
fn written_as(lines: &[&str], page: &[String]) -> bool {
    match page.split_first() {
        None => lines.is_empty(),
        Some((p, rest)) if p == "..." => (0..=lines.len()).any(|k| written_as(&lines[k..], rest)),
        Some((p, rest)) => {
            lines.first().is_some_and(|l| matches(l, p)) && written_as(&lines[1..], rest)
        }
    }
}

/// A command line's words; double quotes group words with spaces.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word: Option<String> = None;
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                word.get_or_insert_with(String::new);
            }
            c if c.is_whitespace() && !quoted => out.extend(word.take()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    assert!(!quoted, "unclosed quote in {line}");
    out.extend(word);
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
    // The page's clone is `riffle/` beside `my-mod/`; this one is wherever the tests run.
    let schema = header::header_line(&mod_dir.join("cardsets/game/set/file.yaml"), &repo(), "x");
    let clone = schema
        .strip_prefix(header::PREFIX)
        .unwrap()
        .strip_suffix("/x")
        .unwrap();
    let here = |s: &str| {
        s.replace("../../../../riffle", clone)
            .replace("../my-mod", &mod_path)
    };
    let steps = steps(&page);
    let commands = steps
        .iter()
        .filter(|s| matches!(s, Step::Command { .. }))
        .count();
    assert!(
        commands >= 6,
        "the tutorial runs its commands: found {commands}"
    );
    let written = steps
        .iter()
        .filter(|s| matches!(s, Step::Written { .. }))
        .count();
    assert!(
        written >= 3 && page.contains("$ riffle new set ") && page.contains("$ riffle new card "),
        "the tutorial starts from `riffle new` and shows what it wrote: {written} files shown"
    );
    for step in steps {
        match step {
            Step::File { path, text } => {
                assert!(path.starts_with("../my-mod/"), "{path}: inside the mod");
                let p = std::path::PathBuf::from(here(&path));
                std::fs::create_dir_all(p.parent().unwrap()).unwrap();
                std::fs::write(p, text).unwrap();
            }
            Step::Written { path, lines } => {
                let p = std::path::PathBuf::from(here(&path));
                let text = std::fs::read_to_string(&p)
                    .unwrap_or_else(|e| panic!("{path}: riffle did not write it: {e}"));
                let page: Vec<String> = lines.iter().map(|l| here(l)).collect();
                let got: Vec<&str> = text.lines().collect();
                assert!(
                    written_as(&got, &page),
                    "{path}: riffle wrote\n{text}\nthe page shows\n{}",
                    page.join("\n")
                );
            }
            Step::Command { line, expect, exit } => {
                let line = here(&line);
                let words = words(&line);
                if words[0] == "rm" {
                    assert_eq!(words.len(), 2, "{line}");
                    let p = Path::new(&words[1]);
                    assert!(p.starts_with(&mod_dir), "{line}: inside the mod");
                    std::fs::remove_file(p).unwrap_or_else(|e| panic!("{line}: {e}"));
                    continue;
                }
                assert_eq!(words[0], "riffle", "{line}");
                let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
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
