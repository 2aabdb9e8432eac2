//! `riffle play --record` and `riffle replay` (issue #28 item 5): a recorded game plays again
//! step by step; a replay whose content changed says where it parts and which files changed,
//! and still shows what it can.

use std::process::{Command, Output};

use super::play::{repo, text};
use crate::common::Fixture;

fn riffle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_riffle"))
        .args(args)
        .current_dir(repo())
        .output()
        .expect("run riffle")
}

fn ok(out: &Output) -> String {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

#[test]
fn a_recorded_game_of_every_game_and_mode_plays_again_the_same() {
    let dir = Fixture::empty();
    for (i, args) in [
        &["--game", "onepiece", "--seed", "3"][..],
        &["--game", "gundam", "--seed", "3"],
        &[
            "--game",
            "gundam",
            "--players",
            "4",
            "--mode",
            "team",
            "--seed",
            "5",
        ],
        &[
            "--game",
            "summoner-master",
            "--seed",
            "3",
            "--option",
            "level=beginner",
        ],
    ]
    .into_iter()
    .enumerate()
    {
        let file = dir.path(&format!("{i}.replay"));
        let file = file.to_str().unwrap();
        let mut all = vec!["play", "--record", file];
        all.extend_from_slice(args);
        let played = ok(&riffle(&all));
        let hash = played
            .rsplit("(log hash ")
            .next()
            .unwrap()
            .trim_end_matches(")\n");
        let again = ok(&riffle(&["replay", file]));
        let steps = played
            .rsplit(" decisions")
            .nth(1)
            .unwrap()
            .rsplit(", ")
            .next()
            .unwrap();
        assert!(
            again.contains(&format!("all {steps} steps agree with the recording: "))
                && again.contains(&format!("(log hash {hash})")),
            "{args:?}: {played}\n{again}"
        );
    }
}

#[test]
fn a_seat_sees_its_own_hand_at_a_step_and_not_the_others() {
    let dir = Fixture::empty();
    let file = dir.path("g.replay");
    let file = file.to_str().unwrap();
    ok(&riffle(&[
        "play", "--game", "onepiece", "--seed", "7", "--record", file,
    ]));
    let p1 = ok(&riffle(&["replay", file, "--seat", "1", "--step", "4"]));
    let p2 = ok(&riffle(&["replay", file, "--seat", "2", "--step", "4"]));
    assert!(p1.contains("-- what P1 sees after step 4 --"), "{p1}");
    assert!(p1.contains("steps 1 to 4 agree with the recording"), "{p1}");
    // Each seat's hand is named on its own board only; the other's is counted.
    let hand = |out: &str, p: u8| {
        out.lines()
            .find(|l| l.starts_with(&format!("P{p} hand (")))
            .unwrap_or_else(|| panic!("no P{p} hand: {out}"))
            .to_string()
    };
    assert!(hand(&p1, 1).contains("): "), "{p1}");
    assert_eq!(hand(&p1, 2), "P2 hand (5)", "{p1}");
    assert!(hand(&p2, 2).contains("): "), "{p2}");
    assert_eq!(hand(&p2, 1), "P1 hand (5)", "{p2}");
    // Bad arguments say what there is.
    let out = riffle(&["replay", file, "--seat", "3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--seat 3: this game has seats 1 to 2"));
}

/// A card changed after the recording: the replay says at which step the game parts, which
/// file changed, and still shows the steps before it.
#[test]
fn a_replay_whose_card_changed_says_where_and_why() {
    let m = Fixture::empty();
    let rf02 = repo().join("cardsets/onepiece/rf02");
    m.write(
        "cardsets/onepiece/ov/set.yaml",
        "game: onepiece\nid: OV\nname: {en: Overrides}\nversion: \"1.0\"\noverrides: [RF02-034]\n",
    );
    let card = std::fs::read_to_string(rf02.join("RF02-034.yaml")).unwrap();
    m.write("cardsets/onepiece/ov/RF02-034.yaml", &card);
    m.write(
        "cardsets/onepiece/ov/RF02-034.lua",
        &std::fs::read_to_string(rf02.join("RF02-034.lua")).unwrap(),
    );
    let file = m.path("g.replay");
    let (file, modded) = (file.to_str().unwrap(), m.path(""));
    let modded = modded.to_str().unwrap();
    ok(&riffle(&[
        "play", "--game", "onepiece", "--seed", "7", "--mod", modded, "--record", file,
    ]));
    ok(&riffle(&["replay", file, "--mod", modded]));
    // The leader's power goes from 5000 to 9000: the battles go otherwise.
    m.write(
        "cardsets/onepiece/ov/RF02-034.yaml",
        &card.replace("power: 5000", "power: 9000"),
    );
    let out = riffle(&["replay", file, "--mod", modded]);
    let said = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{said}{}", text(&out.stderr));
    assert!(said.contains(" parts from the recording: "), "{said}");
    assert!(
        said.contains("the content changed since it was recorded (1 file):\n  changed: cardsets/onepiece/ov/RF02-034.yaml\n"),
        "{said}"
    );
    // What came before the change still shows.
    let out = riffle(&[
        "replay", file, "--mod", modded, "--seat", "1", "--step", "2",
    ]);
    assert!(
        text(&out.stdout).contains("-- what P1 sees after step "),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_broken_replay_file_is_refused_with_its_line() {
    let dir = Fixture::empty();
    let file = dir.path("g.replay");
    let file = file.to_str().unwrap();
    ok(&riffle(&[
        "play", "--game", "gundam", "--seed", "2", "--record", file,
    ]));
    let good = std::fs::read_to_string(file).unwrap();
    // A step's line cut in half.
    let mut lines: Vec<&str> = good.lines().collect();
    let cut = &lines[3][..lines[3].len() / 2].to_string();
    lines[3] = cut;
    std::fs::write(file, lines.join("\n")).unwrap();
    let out = riffle(&["replay", file]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains(&format!("{file}:4: ")),
        "{}",
        text(&out.stderr)
    );
    // A newer format.
    std::fs::write(file, good.replacen("\"version\":1", "\"version\":99", 1)).unwrap();
    let out = riffle(&["replay", file]);
    assert!(
        text(&out.stderr)
            .contains(":1: a version 99 replay; this riffle reads version 1 and older"),
        "{}",
        text(&out.stderr)
    );
    // Not a replay at all.
    std::fs::write(file, "{\"kind\":\"step\"}\n").unwrap();
    let out = riffle(&["replay", file]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains(&format!("{file}:1: ")),
        "{}",
        text(&out.stderr)
    );
    // --record with more than one game, or with --watch.
    let out = riffle(&["play", "--game", "gundam", "--games", "2", "--record", file]);
    assert!(text(&out.stderr).contains("--record: one game at a time"));
}
