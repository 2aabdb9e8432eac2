//! `riffle play`: the forms other tools rely on (issue #2, item 8).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common::Fixture;

pub(super) fn repo() -> PathBuf {
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
fn one_games_json_reports_the_time_it_took() {
    let s = summary(&["--seed", "7"]);
    assert_eq!(s["games"], 1, "{s}");
    let secs = s["seconds"].as_f64().expect("seconds");
    assert!(secs > 0.0 && secs.is_finite(), "{s}");
    // The rates follow from the same time: one game in `secs`, its decisions in `secs`.
    let gps = s["games_per_second"].as_f64().unwrap();
    assert!((gps * secs - 1.0).abs() < 1e-6, "{s}");
    let dps = s["decisions_per_second"].as_f64().unwrap();
    let decisions = s["decisions"].as_f64().unwrap();
    assert!(decisions > 0.0, "{s}");
    assert!((dps * secs - decisions).abs() < 1e-6 * decisions, "{s}");
}

#[test]
fn one_game_prints_a_readable_log_ending_with_the_result() {
    let out = play(&["--game", "onepiece", "--seed", "7"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let log = text(&out.stdout);
    let lines: Vec<&str> = log.lines().collect();
    // It opens with the decks and what is on the table: the Leaders, with their power.
    assert!(
        lines[0].starts_with("P1 plays ") && lines[0].contains("leader 1, main 50"),
        "{log}"
    );
    assert!(lines[1].starts_with("P2 plays "), "{log}");
    assert!(
        lines[2].starts_with("P1: ") && lines[2].contains("leader "),
        "{log}"
    );
    assert!(lines[2].contains(" (power 5000)"), "{log}");
    assert!(log.contains("turn 1: P"), "{log}");
    // Every move says where the card went, by name (game.yaml's zones, the move's reason).
    let moved = |reason: &str| lines.iter().any(|l| l.ends_with(&format!(" ({reason})")));
    for reason in ["draw", "setup", "play", "counter", "damage"] {
        assert!(moved(reason), "no move for {reason}: {log}");
    }
    assert!(
        lines
            .iter()
            .any(|l| l.contains(": P1 hand -> P1 character (play)")
                || l.contains(": P2 hand -> P2 character (play)")),
        "{log}"
    );
    // Life as it changes, power changes, and each battle's result (game.yaml's `log`).
    assert!(lines.iter().any(|l| l.trim() == "P1 life 0 -> 5"), "{log}");
    assert!(lines.iter().any(|l| l.contains(" life 5 -> 4")), "{log}");
    assert!(
        lines.iter().any(|l| l.contains(" power 5000 -> 6000")),
        "{log}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.trim_start().starts_with("battle: ") && l.ends_with(": 1 damage")),
        "{log}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.ends_with("'s Leader takes 1 damage")),
        "{log}"
    );
    // Card ids appear only where names collide (none in the repository's cards).
    assert!(!log.contains("RF01-"), "{log}");
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

/// `--agents greedy,mcts:N` (docs/agents.md): seeded, so the same seed plays the same game.
#[test]
fn searching_agents_play_the_same_game_for_the_same_seed() {
    let args = ["--games", "2", "--seed", "4", "--agents", "greedy,mcts:3"];
    let a = summary(&args);
    assert_eq!(a["log_hash"], summary(&args)["log_hash"]);
    assert_eq!(a["script_errors"], 0, "{a}");
    let random = summary(&["--games", "2", "--seed", "4"]);
    assert_ne!(a["log_hash"], random["log_hash"]);
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

/// Every `player` in a value (a seat, counted from 1) and every card and zone it names.
fn walk(v: &serde_json::Value, players: u64, found: &mut (usize, usize)) {
    use serde_json::Value;
    match v {
        Value::Object(o) => {
            if let Some(p) = o.get("player") {
                let p = p.as_u64().unwrap_or_else(|| panic!("player {p} in {v}"));
                assert!((1..=players).contains(&p), "a seat counted from 1: {v}");
            }
            if o.contains_key("object") {
                assert!(
                    o["id"].is_string() && o["name"].is_string(),
                    "a card named: {v}"
                );
                found.0 += 1;
            }
            if o.contains_key("zone") {
                assert!(o["zone"].is_string(), "a zone by name: {v}");
                found.1 += 1;
            }
            for x in o.values() {
                walk(x, players, found);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| walk(x, players, found)),
        _ => {}
    }
}

/// The log file reads without the engine (issue #26 item 13): a versioned header with the
/// game's hash and result, cards with their id and name, zones by name and owner, and
/// players counted from 1, in a four-seat game too.
#[test]
fn the_log_file_names_cards_zones_and_players_from_1() {
    let f = Fixture::empty();
    let path = f.path("game.jsonl");
    let out = play(&[
        "--game",
        "gundam",
        "--players",
        "4",
        "--option",
        "mode=team",
        "--seed",
        "5",
        "--json",
        "--log",
        path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let log = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<serde_json::Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let header = &lines[0];
    assert_eq!(
        (&header["kind"], &header["format"], &header["version"]),
        (&"header".into(), &"riffle-log".into(), &2.into())
    );
    assert_eq!(
        (&header["game"], &header["seed"], &header["players"]),
        (&"gundam".into(), &5.into(), &4.into())
    );
    // The kernel's log hash, the one the readable log ends with: the file's format does not
    // change it.
    let told = play(&[
        "--game",
        "gundam",
        "--players",
        "4",
        "--option",
        "mode=team",
        "--seed",
        "5",
    ]);
    let hash = header["log_hash"].as_str().unwrap();
    assert!(
        text(&told.stdout)
            .trim_end()
            .ends_with(&format!("(log hash {})", &hash[..16])),
        "{hash}"
    );
    // Its winners are the seats the readable log names, counted from 1 the same way.
    let winners: Vec<String> = header["result"]["winners"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.to_string())
        .collect();
    assert!(
        text(&told.stdout).contains(&format!("(players {}) wins", winners.join(", "))),
        "{header}"
    );
    let mut found = (0, 0);
    for l in &lines {
        walk(l, 4, &mut found);
    }
    assert!(
        found.0 > 100 && found.1 > 100,
        "cards and zones named: {found:?}"
    );
    let moved = lines
        .iter()
        .find(|l| l["name"] == "moved" && l["reason"] == "draw")
        .expect("a draw");
    assert_eq!(moved["to"]["zone"], "hand", "{moved}");
    let decision = lines
        .iter()
        .find(|l| l["kind"] == "decision")
        .expect("a decision");
    assert!(
        decision["options"].is_array() && decision["chosen"].is_array(),
        "{decision}"
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
        (
            vec!["--agents", "mcts:0,greedy"],
            "give mcts:N playouts or mcts:Nms milliseconds an answer",
        ),
        (vec!["--game", "nosuchgame"], "nosuchgame"),
        (vec!["--seed", "minus-one"], "--seed"),
        (vec!["--seed", "18446744073709551616"], "--seed"),
        (vec!["--games", "0"], "0: give a number of games, 1 or more"),
        (
            vec!["--games", "-1"],
            "-1: give a number of games, 1 or more",
        ),
        (
            vec!["--deck", "cardsets"],
            "--deck cardsets: a folder; give a deck list file",
        ),
        (
            vec!["--option", "mode"],
            "--option mode: give NAME=VALUE (e.g. --option mode=team for Gundam",
        ),
        (
            vec!["--games", "18446744073709551615"],
            "--games: at most 1000000 per run",
        ),
        (vec!["--games", "99999999999999999999"], "--games"),
        (
            vec!["--agents", "random"],
            "--agents: give one agent per seat, 2 for 2 seats (got 1)",
        ),
        (
            vec!["--agents", "random,first,random"],
            "--agents: give one agent per seat, 2 for 2 seats (got 3)",
        ),
        (vec!["--agents", ","], "unknown agent ''"),
        (
            vec!["--agents", "human,random", "--json"],
            "--json: not with a human agent",
        ),
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

#[test]
fn seeds_wrap_past_the_largest() {
    // Game k plays seed + k, wrapping: u64::MAX then 0. No overflow panic in debug builds.
    let max = "18446744073709551615";
    let two = summary(&["--seed", max, "--games", "2"]);
    assert_eq!(two["games"], 2, "{two}");
    let first = summary(&["--seed", max]);
    let second = summary(&["--seed", "0"]);
    let sum = first["decisions"].as_u64().unwrap() + second["decisions"].as_u64().unwrap();
    assert_eq!(
        two["decisions"].as_u64(),
        Some(sum),
        "{two}\n{first}\n{second}"
    );
    // Below the wrap it is plain addition, as it always was.
    let three = summary(&["--seed", "5", "--games", "3"]);
    let singles: u64 = ["5", "6", "7"]
        .iter()
        .map(|s| summary(&["--seed", s])["decisions"].as_u64().unwrap())
        .sum();
    assert_eq!(three["decisions"].as_u64(), Some(singles), "{three}");
}

/// `riffle play --game mini` with both seats on the fixture's deck, in a fixture folder.
pub(super) fn mini_play(f: &Fixture, args: &[&str]) -> Output {
    let deck = "cardsets/mini/decks/starter.yaml";
    Command::new(env!("CARGO_BIN_EXE_riffle"))
        .args(["play", "--game", "mini", "--deck", deck, "--deck", deck])
        .args(args)
        .current_dir(&f.dir)
        .env_remove("CI")
        .output()
        .expect("run riffle play")
}

/// The mini game with a ruleset whose `setup` is `body`.
pub(super) fn mini_with_setup(body: &str) -> Fixture {
    let f = Fixture::mini();
    f.write(
        "scripts/mini/rules.lua",
        &format!(
            "function setup(ctx)\n{body}\nend\nfunction main_actions(ctx) return {{}} end\n\
             function activate(ctx, ability, args) return true end\n\
             function validate_deck(deck) return {{}} end\n"
        ),
    );
    f
}

#[test]
fn script_errors_are_counted_named_and_exit_1() {
    // Some games fail in setup, some do not (the game's own seeded random).
    let f = mini_with_setup("  if ctx:random(2) == 1 then error('setup fails on purpose') end");
    let out = mini_play(&f, &["--games", "8", "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    // Not a terminal: no progress bar, nothing at all on stderr.
    assert_eq!(text(&out.stderr), "");
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let (errors, games) = (
        s["script_errors"].as_u64().unwrap(),
        s["games_with_script_errors"].as_u64().unwrap(),
    );
    assert!(games > 0 && games < 8, "some games fail, not all: {s}");
    assert_eq!(errors, games, "one error per failing game: {s}");
    let named = s["script_error_games"].as_array().unwrap();
    assert_eq!(named.len() as u64, games.min(5), "{s}");
    let bad_seed = named[0]["seed"].as_u64().unwrap();
    assert!(
        named[0]["first"]
            .as_str()
            .unwrap()
            .contains("rules.lua:2: setup fails on purpose"),
        "{s}"
    );

    // The text summary says the same in words.
    let out = mini_play(&f, &["--games", "8"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "");
    let summary = text(&out.stdout);
    let lines: Vec<&str> = summary.lines().collect();
    assert!(lines[0].starts_with("8 games: "), "{summary}");
    assert!(
        lines[0].contains(&format!(", script errors {errors}, ")),
        "{summary}"
    );
    let games_word = if games == 1 { "game" } else { "games" };
    assert!(
        lines[1].starts_with(&format!(
            "script errors: {errors} in {games} {games_word} ("
        )),
        "{summary}"
    );
    assert!(
        lines[1].contains(&format!(
            "first: seed {bad_seed}: setup at scripts/mini/rules.lua:2: setup fails on purpose)"
        )),
        "{summary}"
    );

    // One game alone: the error is in the log, on stderr, and the exit code is 1.
    let out = mini_play(&f, &["--seed", &bad_seed.to_string()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("script error: setup at scripts/mini/rules.lua:2: setup fails"),
        "{}",
        text(&out.stdout)
    );
    let err = text(&out.stderr);
    assert!(
        err.starts_with("script error: setup at scripts/mini/rules.lua:2: setup fails on purpose"),
        "{err}"
    );
    // A seed that is not named plays clean and exits 0.
    let named: Vec<u64> = named.iter().map(|g| g["seed"].as_u64().unwrap()).collect();
    if games <= 5 {
        let clean = (1..=8).find(|s| !named.contains(s)).unwrap();
        let out = mini_play(&f, &["--seed", &clean.to_string()]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert_eq!(text(&out.stderr), "");
    }
}

#[test]
fn a_game_stopped_at_the_decision_cap_is_unfinished_and_exit_1() {
    // A setup that asks forever: the game never ends by itself.
    let f = mini_with_setup("  while true do ctx:choose_number(1, 0, 1, 'spin') end");
    let out = mini_play(&f, &["--agents", "first,first"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let screen = text(&out.stdout);
    assert!(
        screen
            .lines()
            .last()
            .unwrap()
            .starts_with("unfinished after 0 turns, 200001 decisions"),
        "{screen}"
    );
    assert_eq!(
        text(&out.stderr),
        "unfinished: stopped at the cap of 200000 decisions\n"
    );
}

#[cfg(unix)]
#[test]
fn a_progress_bar_only_on_a_terminal() {
    // `script` gives the command a terminal; without it there is nothing to check.
    let bin = env!("CARGO_BIN_EXE_riffle");
    let cmd = format!("{bin} play --game onepiece --games 3 --seed 4");
    let Ok(out) = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .current_dir(repo())
        .env_remove("CI")
        .stdin(Stdio::null())
        .output()
    else {
        eprintln!("no `script` command: progress bar on a terminal not checked");
        return;
    };
    let screen = text(&out.stdout);
    assert!(screen.contains("/3 games"), "{screen:?}");
    assert!(screen.contains("3 games: wins "), "{screen:?}");
    // The same run into pipes: the summary alone.
    let out = play(&["--game", "onepiece", "--games", "3", "--seed", "4"]);
    assert_eq!(text(&out.stderr), "");
    assert!(!text(&out.stdout).contains("/3 games"));
}

#[test]
fn a_summoner_master_game_reads_in_thai_with_the_rulesets_words_and_the_players_mp() {
    // game.yaml `log.languages.th` and `log.players` (docs/content.md, "The readable log").
    let game = |lang: Option<&str>| {
        let mut args = vec!["--game", "summoner-master", "--seed", "7"];
        args.extend(lang.map(|l| ["--lang", l]).into_iter().flatten());
        let out = play(&args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let en = game(None);
    let th = game(Some("th"));
    // The same game: as many lines, the same result.
    assert_eq!(en.lines().count(), th.lines().count());
    assert_eq!(en.lines().last(), th.lines().last());
    // English: the events' own lines, zone names, the player's Mp as it changes.
    assert!(en.contains(" casts "), "{en}");
    assert!(en.contains(" -> P1 seal_shrine (") || en.contains(" -> P2 seal_shrine ("));
    assert!(en.lines().any(|l| l.starts_with("    P1 mp ")), "{en}");
    // Thai: the translated event lines, zones, reasons, prompts, values and card names in
    // the options chosen.
    assert!(th.contains(" ร่าย "), "{th}");
    assert!(!th.contains(" casts "), "{th}");
    assert!(
        th.contains("Shrine (Seal)") && !th.contains("seal_shrine"),
        "{th}"
    );
    assert!(th.lines().any(|l| l.starts_with("    P1 Mp ")), "{th}");
    assert!(th.contains("(ร่าย)") && !th.contains("(cast)"), "{th}");
    assert!(
        th.contains(" Main Step: ") && !th.contains(" main: "),
        "{th}"
    );
    let en_cast = en
        .lines()
        .find(|l| l.contains(" main: cast "))
        .expect("a cast");
    // The verb in Thai too (`log.languages.th.options`).
    let th_cast = th
        .lines()
        .find(|l| l.contains(" Main Step: ร่าย "))
        .expect("a cast");
    assert_ne!(
        en_cast.split(" cast ").nth(1),
        th_cast.split(" ร่าย ").nth(1),
        "the card's name is in Thai: {th_cast}"
    );
}

/// The readable log (issue #26 item 12): a player leaving a game that goes on is one line,
/// not one per card; teams are announced at the start; effects ending alike on one card are
/// counted on one line.
#[test]
fn the_readable_log_tells_leaving_players_teams_and_expiries_in_one_line() {
    let out = play(&[
        "--game",
        "gundam",
        "--players",
        "4",
        "--mode",
        "battle-royal",
        "--seed",
        "3",
    ]);
    let log = text(&out.stdout);
    let out_lines: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("is out of the game"))
        .collect();
    assert!(!out_lines.is_empty(), "somebody leaves this game: {log}");
    for l in &out_lines {
        let l = l.trim();
        assert!(
            l.starts_with('P')
                && l.contains("(defeat): ")
                && l.ends_with("cards of theirs leave the game"),
            "{l}"
        );
    }
    assert!(
        !log.contains("ceased to exist (defeat)"),
        "one line per card again"
    );
    let out = play(&[
        "--game",
        "gundam",
        "--players",
        "4",
        "--mode",
        "team",
        "--seed",
        "3",
    ]);
    assert!(
        text(&out.stdout)
            .lines()
            .any(|l| l == "teams: P1+P3 vs P2+P4")
    );
    let out = play(&["--game", "onepiece", "--seed", "7"]);
    let log = text(&out.stdout);
    assert!(
        log.contains(" effects on its power ended (end_of_battle)"),
        "{log}"
    );
    let lines: Vec<&str> = log.lines().collect();
    for w in lines.windows(2) {
        assert!(
            !(w[0] == w[1] && w[0].contains("an effect on its")),
            "not counted: {}",
            w[0]
        );
    }
}

/// Issue #27 item 12 (the other usage messages are in `bad_input_is_one_line_and_exit_2`):
/// spaces after the commas of --agents, and a --filter that tests nothing.
#[test]
fn agents_with_spaces_work_and_a_filter_matching_nothing_fails() {
    // Spaces after the commas of --agents are not part of the names.
    let out = play(&["--agents", "random, first", "--games", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // A filter that matches no scenario tested nothing: not a success.
    let out = Command::new(env!("CARGO_BIN_EXE_riffle"))
        .args(["test", "--filter", "no scenario is named like this"])
        .current_dir(repo())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("no scenario's name contains it"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn profile_lua_writes_where_the_games_scripts_spent_their_time() {
    let dir = Fixture::empty();
    let file = dir.dir.join("profile.txt");
    let plain = summary(&["--games", "3", "--seed", "5"]);
    let profiled = summary(&[
        "--games",
        "3",
        "--seed",
        "5",
        "--profile-lua",
        file.to_str().unwrap(),
    ]);
    // Sampling watches the games; it changes none of them.
    assert_eq!(profiled["log_hash"], plain["log_hash"]);
    let report = std::fs::read_to_string(&file).expect("the profile is written");
    let samples: u64 = report
        .strip_prefix("Lua profile: ")
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no sample count: {report}"));
    assert!(samples > 0, "{report}");
    // Functions by where they start, paths from the repository: the Main Phase's options are
    // listed by the ruleset's Lua in every turn of every game.
    let functions: Vec<&str> = report
        .lines()
        .skip_while(|l| !l.starts_with("Functions"))
        .skip(2)
        .take_while(|l| !l.is_empty())
        .collect();
    assert!(!functions.is_empty(), "{report}");
    for l in &functions {
        let cols: Vec<&str> = l.split_whitespace().collect();
        let pct = |s: &str| s.trim_end_matches('%').parse::<f64>().unwrap();
        assert!(
            pct(cols[0]) >= pct(cols[1]) && pct(cols[0]) <= 100.0,
            "on the stack at least as long as running: {l}"
        );
    }
    assert!(
        functions
            .iter()
            .any(|l| l.contains(" scripts/onepiece/") && l.contains(".lua:")),
        "{report}"
    );
    assert!(
        report.contains("\nLines, most time running first:"),
        "{report}"
    );
}
