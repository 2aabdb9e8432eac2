//! `riffle lint` and `riffle coverage` on a mod in a temporary folder: each lint finding at
//! its place, the cards that must not be reported, the drawn form for people, and coverage
//! figures.

use std::process::{Command, Output};

use super::{riffle, stderr, stdout};
use crate::common::{Fixture, repo};
use riffle::render::visible;

const DEFAULTS: &str = "defaults:\n  seed: 1\n  start: {turn: 3, player: 1, phase: main}\n  game_values: {first_player: 1}\n  players:\n    1: {leader: RF01-001, deck: [\"RF01-008 x10\"], life: [\"RF01-008 x4\"], cost: [\"RF01-DON x2\"]}\n    2: {leader: RF01-002, deck: [\"RF01-015 x10\"], life: [\"RF01-015 x5\"]}\n";

/// A One Piece character; `extra` is more YAML lines (`text:`, `keywords:`).
fn card(id: &str, extra: &str) -> String {
    format!(
        "id: {id}\ncategory: character\nname: {{en: \"Deckhand {id}\"}}\n{extra}colors: [red]\ncost: 1\npower: 2000\nattributes: [slash]\ntypes: [\"Cinder Flag Pirates\"]\nrarity: C\n"
    )
}

const DRAW_TWO: &str = "return card {\n  -- [On Play] Draw 2 cards.\n  on_play { operate = function(ctx) draw(ctx, 2) end },\n}\n";

/// A scenario that plays `id` (with `others` in hand too) and expects `expect` of player 1.
fn scenario(id: &str, others: &str, expect: &str) -> String {
    format!(
        "{DEFAULTS}scenarios:\n  - name: \"{id} is played\"\n    cards: [{id}]\n    players:\n      1: {{hand: [{id}{others}]}}\n    steps:\n      - choose: {{kind: play, card: {id}}}\n    expect:\n      zones: {{1: {expect}}}\n"
    )
}

const SET_DIR: &str = "cardsets/onepiece/lx";

/// One card for each finding, and cards that must pass.
fn mod_with_findings() -> Fixture {
    let m = Fixture::empty();
    let w = |rel: &str, text: &str| {
        m.write(&format!("{SET_DIR}/{rel}"), text);
    };
    w(
        "set.yaml",
        "game: onepiece\nid: LX\nname: {en: Lint fixtures}\nversion: \"1.0\"\n",
    );
    // Abilities without text: a script, no `text:`.
    w("LX-001.yaml", &card("LX-001", ""));
    w("LX-001.lua", DRAW_TWO);
    w(
        "LX-001.test.yaml",
        &scenario("LX-001", "", "{character: [LX-001], hand: 2}"),
    );
    // Text without abilities: neither script nor keywords.
    w(
        "LX-002.yaml",
        &card("LX-002", "text: {en: \"[On Play] Draw 2 cards.\"}\n"),
    );
    // A keyword the text gives and the data lacks.
    w(
        "LX-003.yaml",
        &card(
            "LX-003",
            "text: {en: \"[Blocker] (After your opponent declares an attack, you may rest this card.)\"}\n",
        ),
    );
    // A scripted card no scenario names.
    w(
        "LX-004.yaml",
        &card("LX-004", "text: {en: \"[On Play] Draw 2 cards.\"}\n"),
    );
    w("LX-004.lua", DRAW_TWO);
    // Fine: a vanilla card, a keyword card, a script that grants a keyword it names.
    w("LX-005.yaml", &card("LX-005", ""));
    w(
        "LX-006.yaml",
        &card(
            "LX-006",
            "text: {en: \"[Rush] (This card can attack on the turn in which it is played.)\"}\nkeywords: [rush]\n",
        ),
    );
    w(
        "LX-007.yaml",
        &card(
            "LX-007",
            "text: {en: \"[DON!! x1] This Character gains [Rush].\"}\n",
        ),
    );
    w(
        "LX-007.lua",
        "return card {\n  -- [DON!! x1] This Character gains [Rush].\n  permanent { don = 1, modify = { gains(\"rush\") } },\n}\n",
    );
    w(
        "LX-007.test.yaml",
        &scenario("LX-007", "", "{character: [LX-007]}"),
    );
    // Unused files; a note is not content and is fine.
    w("stray.lua", "return card {}\n");
    w("old/LX-009.yaml", &card("LX-009", ""));
    w("README.md", "Notes for the set.\n");
    m
}

fn lint(m: &Fixture, extra: &[&str]) -> Output {
    let dir = m.dir.to_str().unwrap();
    let mut args = vec!["lint", "--mod", dir];
    args.extend_from_slice(extra);
    riffle(&repo(), &args)
}

#[test]
fn every_finding_is_reported_at_its_place_with_the_card_and_a_hint() {
    let m = mod_with_findings();
    let out = lint(&m, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    let at = |rel: &str| m.path(&format!("{SET_DIR}/{rel}")).display().to_string();
    let expected = [
        format!(
            "{}:1:5: the card has no rules text, but its script {} gives it abilities (card LX-001); write what it does in `text:`",
            at("LX-001.yaml"),
            at("LX-001.lua")
        ),
        format!(
            "{}:4:12: the card's text says more than its keywords, but no script or data does it (card LX-002); write a script (LX-002.lua",
            at("LX-002.yaml")
        ),
        format!(
            "{}:4:13: the text gives the keyword `blocker` ([Blocker]), but `keywords` does not list it (card LX-003); list `blocker` in `keywords:`",
            at("LX-003.yaml")
        ),
        format!(
            "{}:1:5: warning: no scenario names this scripted card (its script: {}) (card LX-004); write {}/LX-004.test.yaml",
            at("LX-004.yaml"),
            at("LX-004.lua"),
            m.path(SET_DIR).display()
        ),
        format!(
            "{}:1:1: warning: no card, set, deck or scenario uses this file; the loader reads cards only directly in a set folder",
            at("old/LX-009.yaml")
        ),
        format!(
            "{}:1:1: warning: no card, set, deck or scenario uses this file; a card uses `<its id>.lua`",
            at("stray.lua")
        ),
    ];
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), expected.len(), "{text}");
    for (line, want) in lines.iter().zip(&expected) {
        assert!(line.starts_with(want.as_str()), "{line:?}\nwanted {want:?}");
    }
    assert!(
        stderr(&out).contains("lint: 7 card(s): 3 error(s), 3 warning(s)"),
        "{}",
        stderr(&out)
    );
    // The JSON names each check.
    let out = lint(&m, &["--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let codes: Vec<(&str, &str)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["card"].as_str().unwrap_or("-"),
                d["code"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        codes,
        [
            ("LX-001", "abilities-without-text"),
            ("LX-002", "text-without-abilities"),
            ("LX-003", "keyword-not-in-data"),
            ("LX-004", "no-scenario"),
            ("-", "unused-file"),
            ("-", "unused-file"),
        ]
    );
    assert!(v[0]["hint"].as_str().unwrap().contains("`text:`"), "{v}");
}

#[test]
fn a_keyword_given_with_another_number_is_reported_and_clean_content_passes() {
    let m = Fixture::empty();
    m.write(
        "cardsets/gundam/lg/set.yaml",
        "game: gundam\nid: LG\nname: {en: Lint fixtures}\nversion: \"1.0\"\n",
    );
    m.write(
        "cardsets/gundam/lg/LG-001.yaml",
        "id: LG-001\ncategory: unit\nname: {en: \"Patch Frame\", th: \"แพตช์เฟรม\"}\ntext: {en: \"〈Blocker〉 〈Repair 2〉\", th: \"〈บล็อกเกอร์〉 〈รีแพร์ 1〉\"}\nkeywords: [blocker, {repair: 1}]\ncolors: [white]\nlv: 1\ncost: 1\nap: 1\nhp: 2\ntraits: [\"Concord\"]\nterrain: [space]\nrarity: C\n",
    );
    let out = lint(&m, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    let card = m.path("cardsets/gundam/lg/LG-001.yaml");
    assert_eq!(
        text.lines().collect::<Vec<_>>(),
        [format!(
            "{}:4:23: the text gives 〈Repair 2〉, but `keywords` has `{{repair: 1}}` (card LG-001); list `{{repair: 2}}` in `keywords:`; if the text only names the keyword (a script grants it), start the line with something else",
            card.display()
        )],
        "{text}"
    );
    // Fixed, the mod is clean: exit 0, nothing on stdout.
    m.write(
        "cardsets/gundam/lg/LG-001.yaml",
        &std::fs::read_to_string(&card)
            .unwrap()
            .replace("Repair 2", "Repair 1"),
    );
    let out = lint(&m, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(stdout(&out), "");
    assert!(
        stderr(&out).contains("lint: 1 card(s): no problems"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn color_always_draws_the_source_line_and_a_caret_and_no_color_keeps_the_plain_lines() {
    let m = mod_with_findings();
    let card = m.path(&format!("{SET_DIR}/LX-003.yaml"));
    let card = card.to_str().unwrap();
    let out = lint(&m, &["--color", "always", card]);
    let drawn = stdout(&out);
    assert!(drawn.contains("\u{1b}["), "in colour: {drawn:?}");
    let seen = visible(&drawn);
    let lines: Vec<&str> = seen.lines().collect();
    assert!(
        lines[0].starts_with("error[keyword-not-in-data]: the text gives the keyword `blocker`"),
        "{seen}"
    );
    assert!(seen.contains(&format!("{card}:4:13")), "{seen}");
    let source = lines
        .iter()
        .position(|l| l.ends_with("text: {en: \"[Blocker] (After your opponent declares an attack, you may rest this card.)\"}"))
        .unwrap_or_else(|| panic!("no source line in\n{seen}"));
    // The caret is under `[Blocker]`, column 13 of the line.
    let text_at = lines[source].find("text: ").unwrap();
    let caret = lines[source + 1];
    assert_eq!(caret.find('^'), Some(text_at + 12), "{seen}");
    assert_eq!(caret.matches('^').count(), "[Blocker]".len(), "{seen}");
    assert!(
        seen.contains("help: list `blocker` in `keywords:`"),
        "{seen}"
    );

    // NO_COLOR (or a pipe) gives the plain lines, as tools parse them.
    let out = Command::new(env!("CARGO_BIN_EXE_riffle"))
        .args(["lint", "--mod", m.dir.to_str().unwrap(), card])
        .env("NO_COLOR", "1")
        .current_dir(repo())
        .output()
        .expect("run riffle");
    assert_eq!(
        stdout(&out),
        format!(
            "{card}:4:13: the text gives the keyword `blocker` ([Blocker]), but `keywords` does not list it (card LX-003); list `blocker` in `keywords:`; if the text only names the keyword (a script grants it), start the line with something else\n"
        )
    );
}

#[test]
fn validate_draws_its_diagnostics_with_color_always() {
    let m = Fixture::empty();
    m.write(
        "cardsets/onepiece/lv/set.yaml",
        "game: onepiece\nid: LV\nname: {en: Lint fixtures}\nversion: \"1.0\"\n",
    );
    m.write(
        "cardsets/onepiece/lv/LV-001.yaml",
        &card("LV-001", "").replace("cost: 1", "cost: -1"),
    );
    let dir = m.dir.to_str().unwrap();
    let out = riffle(
        &repo(),
        &["validate", "--mod", dir, "--color", "always", dir],
    );
    assert_eq!(out.status.code(), Some(1));
    let seen = visible(&stdout(&out));
    let lines: Vec<&str> = seen.lines().collect();
    let source = lines
        .iter()
        .position(|l| l.ends_with("| cost: -1"))
        .unwrap_or_else(|| panic!("no source line in\n{seen}"));
    let col = lines[source].find("cost: -1").unwrap() + "cost: ".len();
    assert_eq!(lines[source + 1].find('^'), Some(col), "{seen}");
    // Piped without --color: the plain line, as before.
    let out = riffle(&repo(), &["validate", "--mod", dir, dir]);
    assert!(
        stdout(&out).starts_with(&format!(
            "{}:5:7: /cost: -1 is less than the minimum of 0 (card LV-001)",
            m.path("cardsets/onepiece/lv/LV-001.yaml").display()
        )),
        "{}",
        stdout(&out)
    );
}

#[test]
fn coverage_counts_cards_scripted_tested_and_caught_per_set() {
    let m = Fixture::empty();
    let dir = "cardsets/onepiece/cv";
    m.write(
        &format!("{dir}/set.yaml"),
        "game: onepiece\nid: CV\nname: {en: Coverage fixtures}\nversion: \"1.0\"\n",
    );
    let text = "text: {en: \"[On Play] Draw 2 cards.\"}\n";
    for id in ["CV-001", "CV-002", "CV-003"] {
        m.write(&format!("{dir}/{id}.yaml"), &card(id, text));
        m.write(&format!("{dir}/{id}.lua"), DRAW_TWO);
    }
    for id in ["CV-004", "CV-005"] {
        m.write(&format!("{dir}/{id}.yaml"), &card(id, ""));
    }
    // CV-001's scenario counts the hand (an emptied script is caught) and names CV-004;
    // CV-002's does not count it; CV-003's is still to be written (`todo:`: it tests
    // nothing); CV-005 has none.
    m.write(
        &format!("{dir}/CV-001.test.yaml"),
        &scenario("CV-001", ", CV-004", "{character: [CV-001], hand: 3}"),
    );
    m.write(
        &format!("{dir}/CV-003.test.yaml"),
        &format!(
            "{DEFAULTS}scenarios:\n  - name: later\n    cards: [CV-003]\n    todo: \"play it\"\n"
        ),
    );
    m.write(
        &format!("{dir}/CV-002.test.yaml"),
        &scenario("CV-002", "", "{character: [CV-002]}"),
    );
    let d = m.dir.to_str().unwrap();
    let out = riffle(&repo(), &["coverage", "--mod", d, "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    // CV-004 and CV-005 have no text: vanilla, so every card plays as it is.
    let figures = serde_json::json!({"cards": 5, "playable": 5, "vanilla": 2, "keywords": 0,
        "needs_script": 0, "scripted": 3, "tested": 3, "caught": 1});
    assert_eq!(v["sets"].as_array().map(Vec::len), Some(1), "{v}");
    let set = &v["sets"][0];
    assert_eq!(
        (&set["game"], &set["set"]),
        (&"onepiece".into(), &"CV".into())
    );
    for k in figures.as_object().unwrap().keys() {
        let k = k.as_str();
        assert_eq!(set[k], figures[k], "{k} in {v}");
        assert_eq!(v["total"][k], figures[k], "{k} in {v}");
    }
    // Required caught: CV-002 and CV-003 are named, each with why.
    let out = riffle(&repo(), &["coverage", "--mod", d, "--require-caught"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    let named: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("is not caught"))
        .collect();
    assert_eq!(named.len(), 2, "{err}");
    assert!(
        named[0].contains(
            "CV-002.lua:1:1: card CV-002 is not caught: its scenarios pass with its script emptied"
        ),
        "{err}"
    );
    assert!(
        named[1].contains("CV-003.lua:1:1: card CV-003 is not caught: no scenario names it"),
        "{err}"
    );
    let out = riffle(&repo(), &["coverage", "--mod", d]);
    let table = stdout(&out);
    let rows: Vec<Vec<&str>> = table
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        rows[0],
        [
            "game", "set", "cards", "playable", "needs", "script", "scripted", "tested", "caught"
        ]
    );
    assert_eq!(
        rows[1],
        [
            "onepiece", "CV", "5", "5", "(100%)", "0", "3", "3", "(60%)", "1", "(33%)"
        ],
        "{table}"
    );
    assert_eq!(
        rows[2],
        [
            "total", "5", "5", "(100%)", "0", "3", "3", "(60%)", "1", "(33%)"
        ],
        "{table}"
    );
}

/// Issue #27 item 12: a card script that does not load is not "no problems".
#[test]
fn a_script_that_does_not_load_is_not_no_problems() {
    let f = crate::common::Fixture::mini();
    f.write("cardsets/mini/core/MC1-002.lua", "error(\"boom\")\n");
    let out = f.riffle(&["lint"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("scripts do not load") && err.contains("boom (card MC1-002)"),
        "{err}"
    );
    assert!(!err.contains("no problems"), "{err}");
}
