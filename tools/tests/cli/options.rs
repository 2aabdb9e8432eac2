//! Game options from the command line (`riffle play --option name=value`) and from scenario
//! files (`options:`), and matches (`--match`, scenario `match:`), on the mini game given
//! options and teams: `level` (1..3, default 1; from level 3 its deck rule refuses every
//! deck) and `format` (`alone`, or `teams`: seats 1 and 3 against 2 and 4).

use std::process::{Command, Output};

use super::play::{mini_play, text};
use crate::common::Fixture;

/// The mini game for up to four players with the options `level` and `format`. Its setup
/// ends the game at once when `decide` is set: player 1 wins (for their team).
fn mini_with_options(decide: bool) -> Fixture {
    let f = Fixture::mini();
    let yaml = std::fs::read_to_string(f.path("scripts/mini/game.yaml")).unwrap();
    let yaml = yaml.replace("players: {min: 2, max: 2}", "players: {min: 2, max: 4}")
        + "options:\n  \
           - {name: level, min: 1, max: 3, default: 1, doc: \"How strict the deck rule is.\"}\n  \
           - {name: format, values: [alone, teams], default: alone}\n";
    let yaml = yaml.replace(
        "hooks: {activate: activate, validate_deck: validate_deck}",
        "hooks: {activate: activate, validate_deck: validate_deck, teams: teams}",
    );
    f.write("scripts/mini/game.yaml", &yaml);
    let end = if decide {
        "ctx:end_game({ 1 }, \"decided\")"
    } else {
        ""
    };
    f.write(
        "scripts/mini/rules.lua",
        &format!(
            "function setup(ctx) {end} end\n\
             function main_actions(ctx) return {{}} end\n\
             function activate(ctx, ability, args) return true end\n\
             function teams(options, n)\n  \
               if options.format == 'teams' then return {{ {{1, 3}}, {{2, 4}} }} end\n  \
               local out = {{}}\n  for p = 1, n do out[p] = {{ p }} end\n  return out\n\
             end\n\
             function validate_deck(deck, options)\n  \
               if options.level >= 3 then return {{ 'level ' .. options.level .. ': too strict for any deck' }} end\n  \
               return {{}}\n\
             end\n"
        ),
    );
    f
}

#[test]
fn play_takes_options_and_refuses_bad_ones_in_one_line() {
    let f = mini_with_options(false);
    for (args, says) in [
        (vec!["--option", "level"], "--option level: give NAME=VALUE"),
        (vec!["--option", "=2"], "--option =2: the name is missing"),
        (
            vec!["--option", "level=1", "--option", "level=2"],
            "--option level: given twice",
        ),
        (
            vec!["--option", "colour=red"],
            "--option: unknown option 'colour' (declared: level, format)",
        ),
        (
            vec!["--option", "level=9"],
            "--option: option 'level': '9' is not allowed (an integer from 1 to 3)",
        ),
        (
            vec!["--option", "format=duel"],
            "option 'format': 'duel' is not allowed (one of alone, teams)",
        ),
        // Two teams of two need four players: the ruleset's teams say so.
        (
            vec!["--option", "format=teams"],
            "teams: team 1: no player 3",
        ),
        // The deck rule sees the options.
        (
            vec!["--option", "level=3"],
            "deck 1 is not legal: level 3: too strict for any deck",
        ),
    ] {
        let out = mini_play(&f, &args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: one line, got {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let out = mini_play(&f, &["--option", "level=2", "--games", "2", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn a_team_win_is_shown_by_team() {
    let f = mini_with_options(true);
    let deck = "cardsets/mini/decks/starter.yaml";
    let play = |extra: &[&str]| -> Output {
        Command::new(env!("CARGO_BIN_EXE_riffle"))
            .args(["play", "--game", "mini"])
            .args([
                "--deck", deck, "--deck", deck, "--deck", deck, "--deck", deck,
            ])
            .args([
                "--agents",
                "first,first,first,first",
                "--option",
                "format=teams",
            ])
            .args(extra)
            .current_dir(&f.dir)
            .env_remove("CI")
            .output()
            .expect("run riffle play")
    };
    let out = play(&[]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("team 1 (players 1, 3) wins (decided)"),
        "{stdout}{}",
        text(&out.stderr)
    );
    let out = play(&["--games", "3", "--json"]);
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["wins"], serde_json::json!([3, 0, 3, 0]), "{s}");
    assert_eq!(s["team_wins"], serde_json::json!([3, 0]), "{s}");
    assert_eq!(s["teams"], serde_json::json!([[1, 3], [2, 4]]), "{s}");
    assert_eq!(s["draws"], 0, "{s}");
    let out = play(&["--games", "3"]);
    assert!(
        text(&out.stdout).contains("team wins: team 1 (players 1, 3) 3, team 2 (players 2, 4) 0"),
        "{}",
        text(&out.stdout)
    );
}

/// What `riffle test FILE` prints in the fixture.
fn riffle_test(f: &Fixture, file: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_riffle"))
        .args(["test", file])
        .current_dir(&f.dir)
        .output()
        .expect("run riffle test");
    text(&out.stdout)
}

#[test]
fn scenarios_set_options() {
    let f = mini_with_options(true);
    f.write(
        "cardsets/mini/core/options.test.yaml",
        "game: mini\n\
         scenarios:\n  \
           - name: the deck rule sees the level\n    \
             options: {level: 3}\n    \
             validate_deck: {leader: [MC1-001], main: [\"MC1-002 x4\"]}\n    \
             expect: {deck_errors: [\"level 3: too strict\"]}\n  \
           - name: the default level\n    \
             validate_deck: {leader: [MC1-001], main: [\"MC1-002 x4\"]}\n    \
             expect: {deck_errors: []}\n  \
           - name: teams from an option win together\n    \
             options: {format: teams}\n    \
             start: setup\n    \
             players:\n      \
               1: {leader: MC1-001, deck: [MC1-002]}\n      \
               2: {leader: MC1-001, deck: [MC1-002]}\n      \
               3: {leader: MC1-001, deck: [MC1-002]}\n      \
               4: {leader: MC1-001, deck: [MC1-002]}\n    \
             expect: {winner: \"1,3\", reason: decided}\n  \
           - name: a value the option does not allow\n    \
             options: {level: 7}\n    \
             players: {1: {hand: [MC1-002]}}\n    \
             expect: {over: true}\n",
    );
    let stdout = riffle_test(&f, "cardsets/mini/core/options.test.yaml");
    assert_eq!(
        stdout.lines().last(),
        Some("3 passed, 1 failed"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "options.test.yaml:20:14: setup: option 'level': '7' is not allowed (an integer from 1 to 3)"
        ),
        "{stdout}"
    );
}

/// The mini game whose setup ends each game at once, won by the first seat that did not
/// win the game before it in the match (seat 1 in a match's first game).
fn mini_loser_wins_next() -> Fixture {
    let f = Fixture::mini();
    f.write(
        "scripts/mini/rules.lua",
        "function setup(ctx)\n  \
           local last = ctx:match().previous[#ctx:match().previous]\n  \
           local winner = 1\n  \
           if last ~= nil and last.winners[1] == 1 then winner = 2 end\n  \
           ctx:end_game({ winner }, 'game ' .. ctx:match().game)\n\
         end\n\
         function main_actions(ctx) return {} end\n\
         function activate(ctx, ability, args) return true end\n\
         function validate_deck(deck) return {} end\n",
    );
    f
}

#[test]
fn the_games_of_a_match_see_the_results_before_them() {
    let f = mini_loser_wins_next();
    let wins = |extra: &[&str]| -> serde_json::Value {
        let mut args = vec!["--games", "4", "--json"];
        args.extend_from_slice(extra);
        let out = mini_play(&f, &args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        s["wins"].clone()
    };
    // Separate games each start a match: seat 1 wins them all.
    assert_eq!(wins(&[]), serde_json::json!([4, 0]));
    // One match: the winner alternates, as each setup reads the game before.
    assert_eq!(wins(&["--match"]), serde_json::json!([2, 2]));
}

#[test]
fn scenarios_give_the_earlier_games_of_a_match() {
    let f = mini_loser_wins_next();
    f.write(
        "cardsets/mini/core/match.test.yaml",
        "game: mini\n\
         scenarios:\n  \
           - name: the second game of a match\n    \
             match: {previous: [{winners: [1], reason: decided}]}\n    \
             start: setup\n    \
             players:\n      \
               1: {leader: MC1-001, deck: [MC1-002]}\n      \
               2: {leader: MC1-001, deck: [MC1-002]}\n    \
             expect: {winner: \"2\", reason: game 2}\n  \
           - name: a winner the game does not seat\n    \
             match: {previous: [{winners: [3]}]}\n    \
             players: {1: {hand: [MC1-002]}}\n    \
             expect: {over: true}\n",
    );
    let stdout = riffle_test(&f, "cardsets/mini/core/match.test.yaml");
    assert_eq!(
        stdout.lines().last(),
        Some("1 passed, 1 failed"),
        "{stdout}"
    );
    assert!(
        stdout.contains("match.test.yaml:11:35: setup: winners: no player 3"),
        "the bad winner is pointed at: {stdout}"
    );
    assert!(
        stdout.contains("winners: no player 3: this scenario has players 1 to 2"),
        "{stdout}"
    );
}
