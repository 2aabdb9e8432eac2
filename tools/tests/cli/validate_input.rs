//! `riffle validate` on hostile input: FIFOs, control characters in messages, huge numbers
//! of diagnostics, absurd deck counts. No hang, one line per diagnostic, nothing lost.

use std::collections::HashSet;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use super::{has_position, stderr, stdout};
use crate::common::{Fixture, mkfifo};

/// Runs riffle in `dir`, failing (instead of hanging the test run) past a minute.
fn riffle_within_a_minute(dir: &Path, args: &[&str]) -> Output {
    riffle_within(dir, args, Duration::from_secs(60))
}

/// Runs riffle in `dir`, failing past `limit`: a hang guard, not a timing check.
fn riffle_within(dir: &Path, args: &[&str], limit: Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_riffle"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run riffle");
    // Drain both pipes while waiting: a child writing more than a pipe holds would block.
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let out = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            panic!("riffle {args:?} still running after {limit:?}: it hangs");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Output {
        status,
        stdout: out.join().expect("stdout"),
        stderr: err.join().expect("stderr"),
    }
}

#[cfg(unix)]
#[test]
fn fifos_named_like_content_are_skipped_with_a_warning() {
    let f = Fixture::mini();
    mkfifo(&f.path("cardsets/mini/core/x.yaml"));
    mkfifo(&f.path("cardsets/mini/decks/y.yaml"));
    mkfifo(&f.path("cardsets/mini/core/z.test.yaml"));
    let out = riffle_within_a_minute(&f.dir, &["validate"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let text = stdout(&out);
    for file in ["core/x.yaml", "decks/y.yaml"] {
        assert!(
            text.contains(&format!(
                "cardsets/mini/{file}:1:1: warning: skipped: not a regular file"
            )),
            "{text}"
        );
    }
    // riffle test names a FIFO scenario file, skips it, and goes on.
    let out = riffle_within_a_minute(&f.dir, &["test", "cardsets/mini/core/z.test.yaml"]);
    assert!(
        stderr(&out).contains("z.test.yaml:1:1: warning: skipped: not a regular file"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn control_characters_are_escaped_in_text_and_kept_in_json() {
    let f = Fixture::mini();
    // A script whose load error carries a newline, an escape sequence and a bidi override.
    f.write(
        "cardsets/mini/core/MC1-002.lua",
        "error(\"bad\\nline two \\27[31mred \\u{202e}x\")\n",
    );
    let out = riffle_within_a_minute(&f.dir, &["validate"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{202e}'),
        "{text:?}"
    );
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "{text:?}");
    assert!(has_position(lines[0]), "{text:?}");
    assert!(
        lines[0].contains(r"bad\nline two \u{1b}[31mred \u{202e}x (card MC1-002)"),
        "{text:?}"
    );

    let out = riffle_within_a_minute(&f.dir, &["validate", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    let message = v[0]["message"].as_str().unwrap();
    assert!(
        message.contains("bad\nline two \u{1b}[31mred \u{202e}x"),
        "{message:?}"
    );
}

#[test]
fn a_hundred_thousand_diagnostics_are_counted_and_the_first_200_shown() {
    // No timing here (timings vary with the machine): the scale itself must work, and
    // once the checks were quadratic in the number of diagnostics.
    let f = Fixture::mini();
    let card = std::fs::read_to_string(f.path("cardsets/mini/core/MC1-003.yaml")).unwrap();
    let n = 100_000;
    let mut text = card.clone();
    for i in 0..n {
        text.push_str(&format!("zz{i}: 1\n"));
    }
    f.write("cardsets/mini/core/MC1-003.yaml", &text);
    // A generous guard: a debug build on a loaded machine is slow, but not quadratic.
    let out = riffle_within(&f.dir, &["validate"], Duration::from_secs(600));
    assert_eq!(out.status.code(), Some(1));
    let first = card.lines().count() + 1;
    let mut seen = HashSet::new();
    let mut rest = None;
    for line in stdout(&out).lines() {
        let Some(at) = line.strip_prefix("cardsets/mini/core/MC1-003.yaml:") else {
            continue;
        };
        if line.contains("more problems in this file") {
            rest = Some(line.to_string());
            continue;
        }
        let (l, _) = at.split_once(':').unwrap();
        let i = l.parse::<usize>().unwrap() - first;
        assert!(
            line.contains(&format!("/zz{i}: unknown field `zz{i}`")),
            "{line}"
        );
        assert!(seen.insert(i), "reported twice: {line}");
    }
    // Issue #27 item 11: the first 200, each at its line, then one line for the rest.
    assert_eq!(seen, (0..200).collect::<HashSet<_>>());
    let rest = rest.expect("a line for the rest");
    assert!(
        rest.contains("and 99,800 more problems in this file (99800 of them errors)"),
        "{rest}"
    );
    // Every one is counted.
    assert!(
        stderr(&out).contains(&format!("{n} errors")),
        "{}",
        stderr(&out)
    );
}

#[test]
fn absurd_deck_counts_are_errors_at_their_line() {
    let f = Fixture::mini();
    f.write(
        "cardsets/mini/decks/starter.yaml",
        "game: mini\nname: {en: Starter}\nsections:\n  leader: {MC1-001: 1}\n  main:\n    MC1-002: 99999999\n    MC1-003: 600\n    MC1-004: 600\n",
    );
    let out = riffle_within_a_minute(&f.dir, &["validate"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains("cardsets/mini/decks/starter.yaml:6:14: /sections/main/MC1-002: 99999999 is greater than the maximum of 1000"),
        "{text}"
    );
    assert!(
        text.contains("cardsets/mini/decks/starter.yaml:5:3: /sections/main: section `main` holds 100001199 cards: a section holds at most 1000"),
        "{text}"
    );
}

/// Issue #27 item 11: a file with thousands of problems shows the first 200 and one line for
/// the rest, with their count.
#[test]
fn a_file_with_thousands_of_problems_shows_200_and_counts_the_rest() {
    let f = Fixture::mini();
    let set = "cardsets/mini/core/set.yaml";
    let mut text = std::fs::read_to_string(f.path(set)).unwrap();
    for i in 0..5000 {
        text.push_str(&format!("unknown_{i}: 1\n"));
    }
    f.write(set, &text);
    let out = riffle_within_a_minute(&f.dir, &["validate"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let shown = stdout(&out);
    let lines: Vec<&str> = shown.lines().filter(|l| l.contains("set.yaml")).collect();
    assert_eq!(lines.len(), 201, "{}", &shown[..2000.min(shown.len())]);
    assert!(
        lines[200].contains(
            "and 4,800 more problems in this file (4800 of them errors); the first 200 are shown"
        ),
        "{}",
        lines[200]
    );
}

/// Issue #27 item 12: a FIFO named in a set's `scripts:` is said to be one, not "not found".
#[cfg(unix)]
#[test]
fn a_fifo_named_as_a_sets_script_is_not_called_missing() {
    let f = Fixture::mini();
    mkfifo(&f.path("cardsets/mini/core/lib.lua"));
    let set = f.path("cardsets/mini/core/set.yaml");
    let text = std::fs::read_to_string(&set).unwrap() + "scripts: [lib.lua]\n";
    f.write("cardsets/mini/core/set.yaml", &text);
    let out = riffle_within_a_minute(&f.dir, &["validate"]);
    let shown = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{shown}");
    assert!(
        shown.contains(
            "/scripts/0: script `lib.lua` is not a regular file (a folder, FIFO, socket or device)"
        ),
        "{shown}"
    );
    assert!(!shown.contains("not found"), "{shown}");
}

/// Issue #27 item 12: a mod's ruleset Lua beside no game.yaml is not ignored without a word.
#[test]
fn a_mods_ruleset_lua_without_game_yaml_is_warned_about() {
    let f = Fixture::mini();
    let m = Fixture::empty();
    m.write("scripts/mini/extra.lua", "-- more rules\n");
    let out = riffle_within_a_minute(&f.dir, &["validate", "--mod", m.dir.to_str().unwrap()]);
    let shown = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{shown}{}", stderr(&out));
    assert!(
        shown.contains("scripts/mini/extra.lua:1:1: warning: ignored: the mini ruleset is")
            && shown.contains("only the files its `scripts:` lists are read"),
        "{shown}"
    );
}

/// Issue #27 item 12: a game's card schema that is a FIFO is an error saying so, not passed
/// over (the cards then got only the common checks, without a word).
#[cfg(unix)]
#[test]
fn a_card_schema_that_is_a_fifo_is_an_error() {
    let f = Fixture::mini();
    let schema = f.path("schema/mini/card.schema.json");
    std::fs::remove_file(&schema).unwrap();
    mkfifo(&schema);
    let out = riffle_within_a_minute(&f.dir, &["validate"]);
    let shown = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{shown}");
    assert!(
        shown.contains("schema/mini/card.schema.json:1:1: not a regular file (a folder, FIFO, socket or device)"),
        "{shown}"
    );
}

/// Issue #27 item 5: a content file or scenario that is a link to a file outside the search
/// paths is refused, and nothing of the file it leads to is printed.
#[cfg(unix)]
#[test]
fn links_out_of_the_search_paths_are_refused_without_quoting_them() {
    let f = Fixture::mini();
    let outside = Fixture::empty();
    outside.write(
        "secret.txt",
        "root:x:0:0:the secret line\nanother secret line\n",
    );
    let secret = outside.path("secret.txt");
    for rel in [
        "cardsets/mini/core/MC1-009.yaml",
        "cardsets/mini/core/MC1-009.test.yaml",
    ] {
        std::os::unix::fs::symlink(&secret, f.path(rel)).unwrap();
    }
    // A link inside the search path is fine.
    std::os::unix::fs::symlink(
        f.path("cardsets/mini/core/MC1-001.yaml"),
        f.path("cardsets/mini/core/link.txt"),
    )
    .unwrap();
    for args in [vec!["validate"], vec!["test"]] {
        let out = riffle_within_a_minute(&f.dir, &args);
        let all = format!("{}{}", stdout(&out), stderr(&out));
        assert_eq!(out.status.code(), Some(1), "{args:?}: {all}");
        assert!(
            all.contains("a symbolic link to a file outside the search paths: not read"),
            "{args:?}: {all}"
        );
        assert!(!all.contains("secret"), "{args:?} quoted the file: {all}");
    }
}
