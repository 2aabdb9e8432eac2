//! Each game's reference of names (`docs/reference/<game>.md`) is what the code generates.

use std::process::Command;

use riffle::reference::{games_with_rulesets, stale_references};

use crate::common::{Fixture, repo};

#[test]
fn references_are_fresh() {
    let root = repo();
    let games = games_with_rulesets(&root);
    assert!(games.contains(&"onepiece".to_string()), "{games:?}");
    let stale = stale_references(&root, &games).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<String> = stale.iter().map(|p| p.display().to_string()).collect();
    assert!(
        stale.is_empty(),
        "{} out of date with game.yaml or the kernel's tables: run `cargo run -p riffle -- docs --write`",
        names.join(", ")
    );
}

#[test]
fn riffle_docs_prints_checks_and_writes_a_reference() {
    let f = Fixture::mini();
    let riffle = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_riffle"))
            .args(args)
            .args(["--root", f.dir.to_str().unwrap()])
            .output()
            .expect("run riffle docs")
    };
    let printed = riffle(&["docs", "--game", "mini"]);
    assert!(printed.status.success(), "{printed:?}");
    let text = String::from_utf8_lossy(&printed.stdout).into_owned();
    assert!(
        text.starts_with("# Mini: names for scripts and scenarios\n"),
        "{text}"
    );
    assert!(text.contains("| `played` | "), "its event: {text}");
    assert!(
        text.contains("| `repair` | Repair N. |"),
        "its keywords: {text}"
    );
    let check = riffle(&["docs", "--check"]);
    assert_eq!(check.status.code(), Some(1), "none written yet: {check:?}");
    assert!(
        String::from_utf8_lossy(&check.stderr).contains("cargo run -p riffle -- docs --write"),
        "it says what fixes it: {check:?}"
    );
    let write = riffle(&["docs", "--write"]);
    assert!(write.status.success(), "{write:?}");
    let written = std::fs::read_to_string(f.path("docs/reference/mini.md")).unwrap();
    assert_eq!(written, text);
    assert_eq!(riffle(&["docs", "--check"]).status.code(), Some(0));
    let unknown = riffle(&["docs", "--game", "nope"]);
    assert_eq!(unknown.status.code(), Some(2), "{unknown:?}");
}
