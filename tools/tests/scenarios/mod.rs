//! `riffle test` on hostile or careless scenario files: schema errors at their line and
//! column, scenarios that assert nothing, player numbers and counts out of range. None may
//! panic or stop the run; each is a failure of its own scenario.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::Fixture;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs `riffle test FILE` on `scenarios` (YAML list items) over the One Piece content.
fn run(scenarios: &str) -> (Fixture, Output) {
    let f = Fixture::empty();
    f.write(
        "s.test.yaml",
        &format!(
            "game: onepiece\n\
             defaults:\n  \
               players:\n    \
                 1: {{leader: RF01-001, deck: [\"RF01-008 x10\"], life: [\"RF01-008 x4\"]}}\n    \
                 2: {{leader: RF01-002, deck: [\"RF01-015 x10\"], life: [\"RF01-015 x5\"]}}\n\
             scenarios:\n{scenarios}"
        ),
    );
    let repo = repo();
    let out = Command::new(env!("CARGO_BIN_EXE_riffle"))
        .args(["test", "--root", repo.to_str().unwrap(), "s.test.yaml"])
        .current_dir(&f.dir)
        .output()
        .expect("run riffle test");
    (f, out)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A scenario that passes: player 1 concedes, player 2 wins.
const FINE: &str = "  - name: fine\n    steps: [{concede: 1}]\n    expect: {winner: 2}\n";

#[track_caller]
fn assert_ran(out: &Output, passed: usize, failed: usize) {
    let text = stdout(out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(
        text.lines().last(),
        Some(format!("{passed} passed, {failed} failed").as_str()),
        "{text}{stderr}"
    );
    assert_eq!(out.status.code(), Some(if failed > 0 { 1 } else { 0 }));
}

#[test]
fn misspelt_keys_are_errors_at_their_line_and_column() {
    let (_f, out) = run(&format!(
        "  - name: misspelt\n    stepz: [{{concede: 1}}]\n    expct: {{winner: 2}}\n{FINE}"
    ));
    assert_ran(&out, 1, 1);
    let text = stdout(&out);
    assert!(
        text.contains(
            "s.test.yaml:8:5: /scenarios/0/stepz: unknown field `stepz`: did you mean `steps`?"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "s.test.yaml:9:5: /scenarios/0/expct: unknown field `expct`: did you mean `expect`?"
        ),
        "{text}"
    );
}

#[test]
fn misspelt_keys_deep_inside_are_found_too() {
    let (_f, out) = run(
        "  - name: deep\n    players:\n      1: {hand: [{card: RF01-008, cuont: 2}]}\n    \
         steps: [{chose: pass}]\n    expect: {zones: {1: {hand: {cuont: 2}}}}\n",
    );
    assert_ran(&out, 0, 1);
    let text = stdout(&out);
    for want in [
        "s.test.yaml:9:35: /scenarios/0/players/1/hand/0/cuont: unknown field `cuont`: did you mean `count`?",
        "s.test.yaml:10:14: /scenarios/0/steps/0/chose: unknown field `chose`: did you mean `choose`?",
        "/scenarios/0/expect/zones/1/hand/cuont: unknown field `cuont`: did you mean `count`?",
    ] {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }
}

#[test]
fn an_error_outside_the_scenarios_fails_the_file() {
    let f = Fixture::empty();
    f.write(
        "s.test.yaml",
        "game: onepiece\ndefualts: {seed: 1}\nscenarios: []\n",
    );
    let repo = repo();
    let out = Command::new(env!("CARGO_BIN_EXE_riffle"))
        .args(["test", "--root", repo.to_str().unwrap(), "s.test.yaml"])
        .current_dir(&f.dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "s.test.yaml:2:1: /defualts: unknown field `defualts`: did you mean `defaults`?"
        ),
        "{err}"
    );
}

#[test]
fn a_scenario_that_asserts_nothing_fails() {
    let (_f, out) = run(&format!(
        "  - name: silent\n    steps: [{{concede: 1}}]\n  \
         - name: empty\n    steps: [{{concede: 1}}]\n    expect: {{events: [], errors: []}}\n{FINE}"
    ));
    assert_ran(&out, 1, 2);
    let text = stdout(&out);
    assert!(
        text.contains("s.test.yaml:7:5: this scenario asserts nothing"),
        "{text}"
    );
    assert!(
        text.contains("s.test.yaml:9:5: this scenario asserts nothing"),
        "{text}"
    );
}

#[test]
fn a_scenario_to_be_written_fails_with_its_text_and_still_runs() {
    let (_f, out) = run(&format!(
        "  - name: later\n    todo: \"check the leader\"\n  \
         - name: half\n    todo: \"finish it\"\n    steps: [{{choose: nothing like this}}]\n  \
         - name: marked\n    todo: \"done?\"\n    steps: [{{concede: 1}}]\n    expect: {{winner: 2}}\n{FINE}"
    ));
    // Only the scenario without `todo:` passes, however complete the others look.
    assert_ran(&out, 1, 3);
    let text = stdout(&out);
    for want in [
        "s.test.yaml:8:11: to be written (remove `todo:` once it is): check the leader",
        "s.test.yaml:10:11: to be written (remove `todo:` once it is): finish it",
        "s.test.yaml:13:11: to be written (remove `todo:` once it is): done?",
    ] {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }
    // Its steps still ran: the one that cannot be answered says so.
    assert!(
        text.lines()
            .any(|l| l.contains("s.test.yaml:11:") && l.contains("step 1:")),
        "{text}"
    );
}

#[test]
fn concede_out_of_range_fails_that_scenario_and_the_run_goes_on() {
    let (_f, out) = run(&format!(
        "  - name: zero\n    steps: [{{concede: 0}}]\n    expect: {{winner: 2}}\n{FINE}\
         \x20 - name: three\n    steps: [{{concede: 3}}]\n    expect: {{winner: 2}}\n{FINE}\
         \x20 - name: huge\n    steps: [{{concede: 99999999999}}]\n    expect: {{winner: 2}}\n{FINE}"
    ));
    assert_ran(&out, 3, 3);
    let text = stdout(&out);
    assert!(
        text.contains(
            "s.test.yaml:8:23: /scenarios/0/steps/0/concede: 0 is less than the minimum of 1"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "s.test.yaml:14:23: step 1: concede: no player 3: this game has players 1 to 2"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "s.test.yaml:20:23: step 1: concede: no player 99999999999: this game has players 1 to 2"
        ),
        "{text}"
    );
}

#[test]
fn other_player_numbers_are_checked_against_the_game() {
    let (_f, out) = run(&format!(
        "  - name: start player\n    start: {{turn: 3, player: 5, phase: main}}\n    expect: {{winner: none}}\n\
         \x20 - name: deciding player\n    steps: [{{choose: pass, player: 7}}]\n    expect: {{winner: none}}\n\
         \x20 - name: seat key\n    players: {{9: {{hand: [RF01-008]}}}}\n    expect: {{winner: none}}\n\
         \x20 - name: expectations\n    expect: {{zones: {{4: {{hand: 0}}}}, cards: [{{player: 4, zone: hand, card: RF01-008}}], values: {{4: {{x: 1}}}}}}\n\
         {FINE}"
    ));
    assert_ran(&out, 1, 4);
    let text = stdout(&out);
    for want in [
        "setup: player: no player 5: this scenario has players 1 to 2",
        "step 1: player: no player 7: this game has players 1 to 2",
        "setup: no player '9': players are numbered 1 to 2 in this game",
        "zones: no player '4': this game has players 1 to 2",
        "cards: no player 4: this game has players 1 to 2",
        "values: no player 4",
    ] {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }
}

#[test]
fn huge_card_counts_are_rejected_before_anything_is_made() {
    let (_f, out) = run(&format!(
        "  - name: line\n    players: {{1: {{hand: [\"RF01-008 x99999999\"]}}}}\n    expect: {{winner: none}}\n\
         \x20 - name: map\n    players: {{1: {{hand: [{{card: RF01-008, count: 99999999}}]}}}}\n    expect: {{winner: none}}\n\
         \x20 - name: zone\n    players: {{1: {{hand: [\"RF01-008 x600\", \"RF01-008 x600\"]}}}}\n    expect: {{winner: none}}\n\
         \x20 - name: attached\n    players: {{1: {{hand: [{{card: RF01-008, count: 40, attach: [\"RF01-008 x40\"]}}]}}}}\n    expect: {{winner: none}}\n\
         \x20 - name: expected\n    expect: {{zones: {{1: {{hand: [\"RF01-008 x99999999999\"]}}}}}}\n\
         \x20 - name: deck\n    validate_deck: {{main: [\"RF01-008 x99999999\"]}}\n    expect: {{deck_errors: []}}\n\
         {FINE}"
    ));
    assert_ran(&out, 1, 6);
    let text = stdout(&out);
    for want in [
        "s.test.yaml:8:26: setup: 'RF01-008 x99999999': a line holds 1 to 1000 cards",
        "/scenarios/1/players/1/hand/0/count: 99999999 is greater than the maximum of 1000",
        "s.test.yaml:14:43: setup: zone hand of player 1 would hold more than 1000 cards",
        "s.test.yaml:17:63: setup: zone hand of player 1 would hold more than 1000 cards",
        "s.test.yaml:20:21: zones.1.hand: 'RF01-008 x99999999999': a line holds 1 to 1000 cards",
        "validate_deck: 'RF01-008 x99999999': a line holds 1 to 1000 cards",
    ] {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }
}

#[test]
fn every_repository_scenario_fits_the_format_types() {
    // The schema is generated from `riffle::scenario::format`; the types must also read
    // every real file, so that schema and types cannot drift apart.
    let mut files = Vec::new();
    for dir in ["scripts", "cardsets"] {
        riffle::scenario::walk(&repo().join(dir), &mut files);
    }
    assert!(files.len() > 100, "{}", files.len());
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let doc = riffle_content::yaml::parse(&text).unwrap();
        if let Err(e) =
            serde_path_to_error::deserialize::<_, riffle::scenario::format::ScenarioFile>(doc.value)
        {
            panic!("{}: {} at {}", path.display(), e.inner(), e.path());
        }
    }
}

/// Scenarios at player 1's Main Phase with Kettle Mags (RF01-008) in hand and DON!! to pay.
fn at_main(name: &str, request: &str) -> String {
    format!(
        "  - name: {name}\n    start: {{turn: 3, player: 1, phase: main}}\n    \
         players: {{1: {{hand: [RF01-008], cost: [RF01-DON x3]}}}}\n    \
         expect: {{request: {{player: 1, {request}}}}}\n"
    )
}

#[test]
fn a_not_options_entry_no_option_could_match_fails_instead_of_passing() {
    let scenarios = [
        // No option of One Piece is labelled so (the ruleset says "play", "activate"...).
        at_main("renamed verb", "not_options: [\"utilize Kettle Mags\"]"),
        // No card is named so.
        at_main("misspelt name", "not_options: [\"play Kettle Magz\"]"),
        at_main("unknown kind", "not_options: [{kind: utilize}]"),
        at_main("unknown card", "not_options: [{card: RF99-999}]"),
        // By card: robust to a renamed label, and it can fail.
        at_main(
            "offered by card",
            "not_options: [{kind: play, card: RF01-008}]",
        ),
        at_main(
            "absent by card",
            "not_options: [{card: RF01-015}], options: [{kind: play, card: RF01-008}]",
        ),
        // A label that could be offered, and is not: passes.
        at_main(
            "absent by label",
            "not_options: [\"play Sapling Nim\", \"block with\"]",
        ),
    ];
    let (_f, out) = run(&scenarios.concat());
    assert_ran(&out, 2, 5);
    let text = stdout(&out);
    for want in [
        "\"utilize Kettle Mags\" can be no option's label in this game, so this check cannot fail",
        "\"play Kettle Magz\" can be no option's label in this game",
        "names a kind no option of this game has",
        "no card `RF99-999` in the content",
        "did not expect {\"card\":\"RF01-008\",\"kind\":\"play\"}",
    ] {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }
}

#[test]
fn not_options_on_a_number_request_is_an_error() {
    // Second Wind (RF03-039) asks how many DON!! to set active: a number, not a choice.
    let (_f, out) = run(
        "  - name: number\n    start: {turn: 3, player: 1, phase: main}\n    \
         players: {1: {hand: [RF03-039], cost: [{card: RF01-DON, count: 2, orientation: rested}]}}\n    \
         steps: [{choose: {kind: play, card: RF03-039}}]\n    \
         expect: {request: {player: 1, not_options: [\"play\"]}}\n",
    );
    assert_ran(&out, 0, 1);
    assert!(
        stdout(&out).contains("request.not_options: the request asks for a number, not a choice"),
        "{}",
        stdout(&out)
    );
}

/// Issue #27 item 12: a scenario's failure says the result as people count seats, never in
/// Rust's debug form.
#[test]
fn a_finished_game_is_told_with_seats_from_1_not_debug_text() {
    let (_f, out) = run(
        "  - name: over\n    steps: [{concede: 1}, {choose: pass}]\n    expect: {winner: 2}\n\
         \x20 - name: request\n    steps: [{concede: 2}]\n    expect: {request: {player: 1}}\n\
         \x20 - name: not over\n    expect: {over: true}\n",
    );
    assert_ran(&out, 0, 3);
    let text = stdout(&out);
    for want in [
        "the game is not asking anything (the game is over: player 2 won (concession))",
        "but nothing is asked (the game is over: player 1 won (concession))",
        "over: expected true, got false (the game is not over)",
    ] {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }
    assert!(
        !text.contains("Some(") && !text.contains("GameResult"),
        "{text}"
    );
}

/// Issue #27 item 9: a position saved at the table (the scenario `position_scenario` writes)
/// loads back in every game and mode, with its seats and options, and passes as saved.
#[test]
fn a_saved_position_loads_back_in_every_game_and_mode() {
    use riffle::play::{Agent, RandomAgent};
    use riffle_core::{Engine, Game, GameConfig, OptionValue, Options, Rng};
    /// Game, seats, and the option that sets its mode.
    type Mode = (&'static str, usize, Option<(&'static str, &'static str)>);
    let modes: [Mode; 6] = [
        ("onepiece", 2, None),
        ("gundam", 2, None),
        ("gundam", 3, Some(("mode", "battle-royal"))),
        ("gundam", 4, Some(("mode", "battle-royal"))),
        ("gundam", 4, Some(("mode", "team"))),
        ("summoner-master", 2, None),
    ];
    for (game, n, option) in modes {
        let (content, decks) = crate::common::game_content(&[repo()], game);
        let engine = Engine::new(&content).unwrap_or_else(|e| panic!("{e:?}"));
        let options: Options = option
            .map(|(k, v)| (k.to_string(), OptionValue::Name(v.to_string())))
            .into_iter()
            .collect();
        let config = GameConfig {
            seed: 3,
            decks: (0..n).map(|k| decks[k % decks.len()].clone()).collect(),
            keep_log: false,
        };
        let mut g = Game::with_options(engine.clone(), config, &options).expect("the game starts");
        // Random play into turn 3, still going.
        let mut agent = RandomAgent(Rng::new(7));
        while g.turn() < 3 && g.result().is_none() {
            let req = g.request().expect("a request").clone();
            let r = agent.respond(&g, &req).unwrap();
            g.respond(req.player(), r).unwrap();
        }
        assert!(
            g.result().is_none(),
            "{game} {n} {option:?}: over before turn 3"
        );
        let text = riffle::scenario::export::position_scenario(&g, game, "saved", 3);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("saved.test.yaml");
        std::fs::write(&path, &text).unwrap();
        let file = riffle::scenario::File::read(&path)
            .unwrap_or_else(|e| panic!("{game} {n} {option:?}: {e:?}\n{text}"));
        let loaded = file
            .position(&engine, 0)
            .unwrap_or_else(|e| panic!("{game} {n} {option:?}: not loaded: {e}\n{text}"));
        assert_eq!(loaded.players(), g.players(), "{game} {option:?}");
        assert_eq!(
            loaded.teams(),
            g.teams(),
            "{game} {option:?}: the mode is kept"
        );
        for o in file.run(&engine, None) {
            assert!(
                o.passed(),
                "{game} {n} {option:?}: {:?}\n{text}",
                o.failures
            );
        }
    }
}
