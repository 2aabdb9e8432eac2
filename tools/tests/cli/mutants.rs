//! `riffle test --mutants`: cards broken on purpose, run against the scenarios that name them.
//! A mod in a temporary folder holds three "Draw 2 cards" characters: MT-001 with a scenario
//! that counts the hand, MT-002 with one that only sees it played, MT-003 with none.

use super::{riffle, stderr, stdout};
use crate::common::{Fixture, fixture_dir, repo};

const SET: &str = "game: onepiece\nid: MT\nname: {en: Mutant fixtures}\nversion: \"1.0\"\n";

fn card(id: &str) -> String {
    format!(
        "id: {id}\ncategory: character\nname: {{en: \"Deckhand {id}\"}}\ntext: {{en: \"[On Play] Draw 2 cards.\"}}\ncolors: [red]\ncost: 1\npower: 2000\nattributes: [slash]\ntypes: [\"Cinder Flag Pirates\"]\nrarity: C\n"
    )
}

/// The script: its 2 on line 5, column 47; numbers in a comment and a string are not code.
fn script(id: &str) -> String {
    format!(
        "-- {id} Deckhand (2000 in a comment is not code)\nlocal label = \"draw 3\"\nreturn card {{\n  -- [On Play] Draw 2 cards.\n  on_play {{ operate = function(ctx) draw(ctx, 2) end }},\n}}\n"
    )
}

const DEFAULTS: &str = "defaults:\n  seed: 1\n  start: {turn: 3, player: 1, phase: main}\n  game_values: {first_player: 1}\n  players:\n    1: {leader: RF01-001, deck: [\"RF01-008 x10\"], life: [\"RF01-008 x4\"], cost: [\"RF01-DON x2\"]}\n    2: {leader: RF01-002, deck: [\"RF01-015 x10\"], life: [\"RF01-015 x5\"]}\n";

/// A scenario that plays `id` and expects `expect`.
fn scenario(id: &str, expect: &str) -> String {
    format!(
        "{DEFAULTS}scenarios:\n  - name: \"{id} is played\"\n    cards: [{id}]\n    players:\n      1: {{hand: [{id}]}}\n    steps:\n      - choose: {{kind: play, card: {id}}}\n    expect:\n      zones: {{1: {expect}}}\n"
    )
}

/// MT-001 (its scenario counts the hand), MT-002 (its scenario does not), MT-003 (none).
pub(super) fn mod_with_three_cards() -> Fixture {
    let m = Fixture::empty();
    let dir = "cardsets/onepiece/mt";
    m.write(&format!("{dir}/set.yaml"), SET);
    for id in ["MT-001", "MT-002", "MT-003"] {
        m.write(&format!("{dir}/{id}.yaml"), &card(id));
        m.write(&format!("{dir}/{id}.lua"), &script(id));
    }
    m.write(
        &format!("{dir}/MT-001.test.yaml"),
        &scenario("MT-001", "{character: [MT-001], hand: 2, deck: 8}"),
    );
    m.write(
        &format!("{dir}/MT-002.test.yaml"),
        &scenario("MT-002", "{character: [MT-002]}"),
    );
    m
}

fn run(m: &Fixture, extra: &[&str]) -> std::process::Output {
    let dir = m.dir.to_str().unwrap();
    let mut args = vec!["test", "--mod", dir];
    args.extend_from_slice(extra);
    riffle(&repo(), &args)
}

#[test]
fn surviving_mutants_and_cards_without_scenarios_are_reported_and_caught_ones_are_not() {
    let m = mod_with_three_cards();
    let out = run(&m, &["--mutants"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let script = m.path("cardsets/onepiece/mt/MT-002.lua");
    let script = script.to_str().unwrap();
    assert_eq!(
        lines,
        [
            format!("{script}:1:1: MT-002: emptied script survived (1 scenario still passes)"),
            format!("{script}:5:47: MT-002: 2 -> 3 survived (1 scenario still passes)"),
            format!(
                "{}:1:1: MT-003: no scenario names this card",
                m.path("cardsets/onepiece/mt/MT-003.lua").display()
            ),
            "3 cards, 4 mutants: 2 caught, 2 survived, 0 equivalent, 1 card without scenarios"
                .into(),
        ],
        "{text}"
    );
    // The 2000 of the comment and the 3 of the string are not changed: they would survive
    // (nothing reads them) and be listed above.
}

#[test]
fn a_card_whose_scenarios_check_its_effect_passes_and_verbose_says_what_caught_it() {
    let m = mod_with_three_cards();
    let lua = m.path("cardsets/onepiece/mt/MT-001.lua");
    let out = run(&m, &["--mutants", "-v", lua.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.ends_with(
            "1 card, 2 mutants: 2 caught, 0 survived, 0 equivalent, 0 cards without scenarios\n"
        ),
        "{text}"
    );
    // Each caught mutant names the scenario that failed, and how.
    assert!(
        text.contains("MT-001.lua:1:1: MT-001: emptied script caught by ")
            && text.contains("MT-001.lua:5:47: MT-001: 2 -> 3 caught by ")
            && text.contains("MT-001.test.yaml:9:5 MT-001 is played")
            && text.contains("player 1 deck: expected 8 cards, got 10")
            && text.contains("player 1 deck: expected 8 cards, got 7"),
        "{text}"
    );
    assert!(
        !text.contains("MT-002") && !text.contains("MT-003"),
        "{text}"
    );
}

#[test]
fn a_scenario_in_another_file_that_names_the_card_in_its_defaults_catches_it() {
    let m = mod_with_three_cards();
    // A rules-style file: MT-002 only in `defaults:`, its effect counted.
    m.write(
        "cardsets/onepiece/mt/draws.test.yaml",
        &format!(
            "{}    1: {{leader: RF01-001, deck: [\"RF01-008 x10\"], life: [\"RF01-008 x4\"], cost: [\"RF01-DON x2\"], hand: [MT-002]}}\n    2: {{leader: RF01-002, deck: [\"RF01-015 x10\"], life: [\"RF01-015 x5\"]}}\nscenarios:\n  - name: \"a Deckhand draws two\"\n    steps:\n      - choose: {{kind: play}}\n    expect:\n      zones: {{1: {{hand: 2}}}}\n",
            DEFAULTS.split("    1:").next().unwrap()
        ),
    );
    let out = run(&m, &["--mutants", "-v"]);
    let text = stdout(&out);
    assert!(
        text.contains("MT-002: emptied script caught by ")
            && text.contains("draws.test.yaml:9:5 a Deckhand draws two"),
        "{text}"
    );
    assert!(
        text.ends_with(
            "3 cards, 4 mutants: 4 caught, 0 survived, 0 equivalent, 1 card without scenarios\n"
        ),
        "{text}"
    );
    // MT-003 has still no scenario: exit 1.
    assert_eq!(out.status.code(), Some(1), "{text}");
}

#[test]
fn mutants_empty_makes_only_the_emptied_script() {
    let m = mod_with_three_cards();
    let out = run(&m, &["--mutants=empty"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("MT-002: emptied script survived"), "{text}");
    assert!(!text.contains("2 -> 3"), "{text}");
    assert!(
        text.ends_with(
            "3 cards, 2 mutants: 1 caught, 1 survived, 0 equivalent, 1 card without scenarios\n"
        ),
        "{text}"
    );
}

#[test]
fn a_mods_override_is_tested_by_the_bases_scenarios_that_name_it() {
    let m = Fixture::empty();
    let rf02 = repo().join("cardsets/onepiece/rf02");
    m.write(
        "cardsets/onepiece/ov/set.yaml",
        "game: onepiece\nid: OV\nname: {en: Overrides}\nversion: \"1.0\"\noverrides: [RF02-023]\n",
    );
    for f in ["RF02-023.yaml", "RF02-023.lua"] {
        let text = std::fs::read_to_string(rf02.join(f)).unwrap();
        m.write(&format!("cardsets/onepiece/ov/{f}"), &text);
    }
    let out = run(&m, &["--mutants=empty", "-v"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(
        text.contains("ov/RF02-023.lua:1:1: RF02-023: emptied script caught by cardsets/onepiece/rf02/RF02-023.test.yaml:"),
        "{text}"
    );
    assert!(
        text.ends_with(
            "1 card, 1 mutant: 1 caught, 0 survived, 0 equivalent, 0 cards without scenarios\n"
        ),
        "{text}"
    );
}

#[test]
fn filter_keeps_the_scenarios_whose_name_contains_it() {
    let m = mod_with_three_cards();
    let out = run(&m, &["--mutants=empty", "--filter", "MT-001"]);
    let text = stdout(&out);
    // MT-002's only scenario is filtered out: the card is left without scenarios, and says why.
    assert!(
        text.contains("MT-002: no scenario whose name contains \"MT-001\" names this card"),
        "{text}"
    );
    assert!(
        text.ends_with(
            "3 cards, 1 mutant: 1 caught, 0 survived, 0 equivalent, 2 cards without scenarios\n"
        ),
        "{text}"
    );
    assert_eq!(out.status.code(), Some(1), "{text}");
}

#[test]
fn scenarios_that_fail_unmutated_stop_the_run() {
    let m = mod_with_three_cards();
    m.write(
        "cardsets/onepiece/mt/MT-002.test.yaml",
        &scenario("MT-002", "{character: [MT-002], hand: 5}"),
    );
    let lua = m.path("cardsets/onepiece/mt/MT-002.lua");
    let out = run(&m, &["--mutants", lua.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("FAIL ") && text.contains("MT-002 is played") && text.contains("hand"),
        "{text}"
    );
    assert!(
        text.ends_with(
            "0 cards, 0 mutants: 0 caught, 0 survived, 0 equivalent, 0 cards without scenarios\n"
        ),
        "{text}"
    );
    assert!(
        stderr(&out).contains("1 scenario(s) fail without any mutant"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn bad_paths_and_kinds_are_usage_errors() {
    let m = mod_with_three_cards();
    let out = run(&m, &["--mutants=numbers"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("numbers"), "{}", stderr(&out));
    let out = run(&m, &["--mutants", "no/such/card.lua"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no/such/card.lua: no such file or folder"),
        "{}",
        stderr(&out)
    );
    // A path with no scripted card: a warning, and nothing tested.
    let out = run(
        &m,
        &[
            "--mutants",
            m.path("cardsets/onepiece/mt/set.yaml").to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("warning: no card with a script here"),
        "{}",
        stderr(&out)
    );
    assert!(
        stdout(&out).starts_with("0 cards, 0 mutants"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn the_modder_fixtures_cards_are_all_caught() {
    let m = fixture_dir("modder");
    let out = riffle(
        &repo(),
        &["test", "--mutants", "--mod", m.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(
        text.starts_with("12 cards, ")
            && text.ends_with(" survived, 0 equivalent, 0 cards without scenarios\n"),
        "{text}"
    );
    assert!(text.contains(" 0 survived"), "{text}");
}

/// MT-002's scenario sees a card drawn but not how many: its script emptied is caught, its
/// `2 -> 3` survives.
fn mod_where_mt_002_draws_some() -> Fixture {
    let m = mod_with_three_cards();
    m.write(
        "cardsets/onepiece/mt/MT-002.test.yaml",
        &scenario(
            "MT-002",
            "{character: [MT-002], hand: {contains: [RF01-008]}}",
        ),
    );
    m
}

/// `line` of `id`'s script ends with `comment`.
fn with_comment(id: &str, line: usize, comment: &str) -> String {
    script(id)
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i + 1 == line {
                format!("{l} {comment}\n")
            } else {
                format!("{l}\n")
            }
        })
        .collect()
}

#[test]
fn a_number_marked_equivalent_on_its_line_is_listed_with_the_reason_and_passes() {
    let m = mod_where_mt_002_draws_some();
    let lua = m.path("cardsets/onepiece/mt/MT-002.lua");
    let lua = lua.to_str().unwrap();
    let out = run(&m, &["--mutants", lua]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stdout(&out).contains(&format!("{lua}:5:47: MT-002: 2 -> 3 survived")),
        "{}",
        stdout(&out)
    );
    m.write(
        "cardsets/onepiece/mt/MT-002.lua",
        &with_comment(
            "MT-002",
            5,
            "-- mutant: equivalent, no scenario counts the cards drawn",
        ),
    );
    let out = run(&m, &["--mutants", lua]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let text = stdout(&out);
    assert_eq!(
        text.lines().collect::<Vec<_>>(),
        [
            format!("{lua}:5:47: MT-002: 2 -> 3 equivalent: no scenario counts the cards drawn"),
            "1 card, 2 mutants: 1 caught, 0 survived, 1 equivalent, 0 cards without scenarios"
                .into(),
        ],
        "{text}"
    );
    // `--mutants=empty` changes no number: the mark is not looked at.
    let out = run(&m, &["--mutants=empty", lua]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

#[test]
fn a_mark_on_a_caught_number_on_a_line_without_one_or_without_a_reason_is_stale() {
    let m = mod_where_mt_002_draws_some();
    let lua = m.path("cardsets/onepiece/mt/MT-001.lua");
    let lua = lua.to_str().unwrap();
    // Line 2 holds a string, line 4 a comment, line 5 the 2 its scenario catches.
    let text = with_comment("MT-001", 2, "-- mutant: equivalent,");
    let text: String = text
        .replace(
            "-- [On Play] Draw 2 cards.",
            "-- mutant: equivalent, the next line's 2",
        )
        .replace(
            "draw(ctx, 2) end },",
            "draw(ctx, 2) end }, -- mutant: equivalent, so I thought",
        );
    m.write("cardsets/onepiece/mt/MT-001.lua", &text);
    let out = run(&m, &["--mutants", lua]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(
        lines[0].starts_with(&format!(
            "{lua}:2:24: MT-001: a mutant mark needs its reason: "
        )),
        "{text}"
    );
    assert!(
        lines[1].starts_with(&format!(
            "{lua}:4:3: MT-001: this mutant mark is on a line with no number"
        )),
        "{text}"
    );
    assert!(
        lines[2].starts_with(&format!("{lua}:5:47: MT-001: 2 -> 3 caught by "))
            && lines[2].contains("MT-001.test.yaml:9:5 MT-001 is played")
            && lines[2].ends_with("remove the stale `-- mutant: equivalent` mark"),
        "{text}"
    );
    assert_eq!(
        lines[3],
        "1 card, 2 mutants: 2 caught, 0 survived, 0 equivalent, 0 cards without scenarios, 3 stale mutant marks",
        "{text}"
    );
}
