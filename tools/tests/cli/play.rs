//! `riffle play`: the forms other tools rely on (issue #2, item 8).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common::Fixture;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

pub(super) fn play(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_riffle"))
        .arg("play")
        .args(args)
        .current_dir(repo())
        .output()
        .expect("run riffle play")
}

pub(super) fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn summary(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["--game", "onepiece", "--json"];
    all.extend_from_slice(args);
    let out = play(&all);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("--json prints JSON")
}

#[test]
fn one_game_prints_a_readable_log_ending_with_the_result() {
    let out = play(&["--game", "onepiece", "--seed", "7"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let log = text(&out.stdout);
    assert!(log.contains("turn 1: player "), "{log}");
    let last = log.lines().last().unwrap_or("");
    assert!(
        (last.starts_with("player ") && last.contains(" wins ")) || last.starts_with("draw"),
        "{last}"
    );
    assert!(
        last.contains(" turns, ") && last.contains("log hash "),
        "{last}"
    );
}

#[test]
fn a_summary_of_k_games_is_the_same_for_the_same_seed() {
    let a = summary(&["--games", "4", "--seed", "11"]);
    let b = summary(&["--games", "4", "--seed", "11", "--agents", "random,random"]);
    let c = summary(&["--games", "4", "--seed", "12"]);
    assert_eq!(a["games"], 4);
    let wins: u64 = a["wins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_u64().unwrap())
        .sum();
    let rest = a["draws"].as_u64().unwrap() + a["unfinished"].as_u64().unwrap();
    assert_eq!(wins + rest, 4, "{a}");
    assert!(a["mean_turns"].as_f64().unwrap() > 1.0, "{a}");
    assert!(a["games_per_second"].as_f64().unwrap() > 0.0, "{a}");
    assert_eq!(a["script_errors"], 0, "{a}");
    assert_eq!(a["log_hash"], b["log_hash"], "same seeds, same logs");
    assert_ne!(a["log_hash"], c["log_hash"], "other seeds, other logs");
    // The text form carries the same hash.
    let out = play(&["--game", "onepiece", "--games", "4", "--seed", "11"]);
    let line = text(&out.stdout);
    assert!(line.starts_with("4 games: wins "), "{line}");
    assert!(
        line.trim_end().ends_with(a["log_hash"].as_str().unwrap()),
        "{line}"
    );
}

#[test]
fn log_writes_one_json_event_per_line() {
    let f = Fixture::empty();
    let path = f.path("game.jsonl");
    let out = play(&[
        "--game",
        "onepiece",
        "--seed",
        "3",
        "--log",
        path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let log = std::fs::read_to_string(&path).expect("the log file");
    assert!(log.lines().count() > 50, "{log}");
    for l in log.lines() {
        serde_json::from_str::<serde_json::Value>(l).expect("each line is JSON");
    }
    assert!(
        !f.path("game.tmp").exists(),
        "no temporary file is left behind"
    );
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let f = Fixture::empty();
    // Five copies of one card (OP 5-1-2-3 allows four).
    f.write(
        "five.yaml",
        "game: onepiece\nname: {en: Five}\nsections:\n  leader: {RF01-001: 1}\n  \
         main: {RF01-008: 5, RF01-009: 4, RF01-010: 4, RF01-011: 4, RF01-012: 4, RF01-013: 4, \
         RF01-014: 4, RF01-015: 4, RF01-016: 4, RF01-017: 4, RF01-018: 4, RF01-019: 4, RF01-020: 1}\n  \
         don: {RF01-DON: 10}\n",
    );
    let five = f.path("five.yaml");
    let five = five.to_str().unwrap();
    let good = "cardsets/onepiece/decks/black-ledger.yaml";
    for (args, says) in [
        (vec!["--deck", "nope.yaml", "--deck", good], "nope.yaml"),
        (
            vec!["--deck", five, "--deck", good],
            "at most 4 copies of RF01-008",
        ),
        (
            vec!["--deck", good],
            "--deck: give one deck per seat, 2-2 for onepiece (got 1)",
        ),
        (vec!["--deck", "Cargo.toml", "--deck", good], "Cargo.toml"),
        (vec!["--agents", "random,bogus"], "unknown agent 'bogus'"),
        (vec!["--game", "nosuchgame"], "nosuchgame"),
        (vec!["--seed", "minus-one"], "--seed"),
    ] {
        let out = play(&args); // --game defaults to onepiece
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: one line, got {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn a_human_sees_their_view_and_numbered_choices() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_riffle"))
        .args([
            "play",
            "--game",
            "onepiece",
            "--agents",
            "human,random",
            "--seed",
            "2",
        ])
        .current_dir(repo())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run riffle play");
    // Two answers, then end of input: the rest is the first legal option each time.
    child.stdin.take().unwrap().write_all(b"2\n1\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let screen = text(&out.stdout);
    assert!(screen.contains("player 1 to decide"), "{screen}");
    assert!(screen.contains("  1. "), "numbered choices: {screen}");
    assert!(screen.contains("choose 1..1"), "{screen}");
    // The human's own hand shows names; the opponent's hand and the decks only counts.
    let own = screen
        .lines()
        .find(|l| l.starts_with("P1 hand ("))
        .expect("own hand");
    assert!(own.contains("): "), "{own}");
    for l in screen
        .lines()
        .filter(|l| l.starts_with("P2 hand (") || l.contains(" deck ("))
    {
        assert!(!l.contains(':'), "hidden cards shown: {l}");
    }
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_riffle"))
        .args(["play", "--game", "onepiece", "--games", "1", "--seed", "7"])
        .current_dir(repo())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run riffle play");
    drop(child.stdout.take()); // the reader goes away at once, like `| head -0`
    let out = child.wait_with_output().unwrap();
    assert!(
        !text(&out.stderr).contains("panicked"),
        "{}",
        text(&out.stderr)
    );
}
