//! The `riffle` binary, run as a user would.

use std::path::Path;
use std::process::{Command, Output};

use crate::common::{Fixture, fixture_dir};

mod bench;
mod database;
mod files;
mod human;
mod lint;
mod modder;
mod mutants;
mod new;
mod options;
mod play;
mod progress;
mod readable;
mod replay;
mod sim;
mod table;
mod tutorial;
mod unread_fields;
mod validate_input;
mod watch;

fn riffle(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_riffle"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run riffle")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `path:line:col: ` at the start of a line.
fn has_position(line: &str) -> bool {
    let mut parts = line.splitn(4, ':');
    let (Some(path), Some(l), Some(c), Some(rest)) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    !path.is_empty()
        && l.parse::<u32>().is_ok_and(|n| n >= 1)
        && c.parse::<u32>().is_ok_and(|n| n >= 1)
        && rest.starts_with(' ')
}

#[test]
fn broken_fixture_fails_with_positions() {
    let out = riffle(&fixture_dir("broken"), &["validate"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 10, "{text}");
    for l in &lines {
        assert!(has_position(l), "no path:line:col: in {l:?}");
    }
    for expected in [
        "cardsets/mini/core/MC1-002.yaml:4:7: /cost: -1 is less than the minimum of 0 (card MC1-002)",
        "cardsets/mini/core/MC1-002.yaml:7:12: /keywords/0: unknown keyword `bloker`: did you mean `blocker`? (card MC1-002)",
        "cardsets/mini/core/MC1-004.yaml:4:1: /cots: unknown field `cots`: did you mean `cost`? (card MC1-004)",
        "cardsets/mini/nosetyaml/set.yaml:1:1: missing set.yaml",
        "cardsets/mini/decks/starter.yaml:5:3: /sections/mian: unknown deck section `mian`: did you mean `main`?",
        "cardsets/mini/core/MC1-002.lua:4:1: Lua syntax error",
        "cardsets/mini/promo/MCP-002.yaml:4:5: YAML syntax error",
        "cardsets/mini/promo/MCP-001.yaml:1:5: /id: duplicate card id `MC1-001`: also defined at cardsets/mini/core/MC1-001.yaml:1:5",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(expected)),
            "missing {expected:?} in\n{text}"
        );
    }
    let err = stderr(&out);
    assert!(
        err.contains("validated 1 game, 3 sets, 7 cards, 1 deck: "),
        "{err}"
    );
    assert!(err.contains(&format!("{} errors", lines.len())), "{err}");
}

#[test]
fn valid_fixture_passes_with_a_summary() {
    let out = riffle(&fixture_dir("mini"), &["validate", "--stats"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert_eq!(stdout(&out), "");
    let err = stderr(&out);
    assert!(
        err.contains("validated 1 game, 2 sets, 5 cards, 1 deck: no errors"),
        "{err}"
    );
    assert!(err.contains("card scripts: 2 of 5 cards have one"), "{err}");
    assert!(err.contains("median"), "{err}");
}

#[test]
fn paths_narrow_what_is_reported() {
    let dir = fixture_dir("broken");
    let out = riffle(&dir, &["validate", "cardsets/mini/decks"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(!text.is_empty());
    assert!(
        text.lines().all(|l| l.starts_with("cardsets/mini/decks/")),
        "{text}"
    );
    assert!(stderr(&out).contains("validated 1 game, 0 sets, 0 cards, 1 deck"));

    let out = riffle(&dir, &["validate", "cardsets/mini/promo"]);
    let text = stdout(&out);
    // The duplicate id names a card outside the folder, but it is reported here.
    assert!(text.contains("duplicate card id"), "{text}");
    assert!(
        text.lines().all(|l| l.starts_with("cardsets/mini/promo/")),
        "{text}"
    );

    let out = riffle(&dir, &["validate", "cardsets/mini/core/MC1-003.yaml"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stderr(&out).contains("1 card"), "{}", stderr(&out));

    let out = riffle(&dir, &["validate", "scripts/mini"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

#[test]
fn finds_the_root_from_a_subfolder_and_prints_paths_from_there() {
    let dir = fixture_dir("broken").join("cardsets/mini/core");
    let out = riffle(&dir, &["validate", "MC1-002.yaml"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.lines()
            .any(|l| l.starts_with("../../../cardsets/mini/core/MC1-002.yaml:4:7: /cost")),
        "{text}"
    );
}

#[test]
fn json_format() {
    let out = riffle(&fixture_dir("broken"), &["validate", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON array");
    let arr = v.as_array().unwrap();
    assert!(!arr.is_empty());
    let first = &arr[0];
    for key in [
        "path", "line", "col", "pointer", "card", "message", "severity",
    ] {
        assert!(first.get(key).is_some(), "{key} missing in {first}");
    }
}

#[test]
fn usage_errors_exit_2_with_one_line() {
    let out = riffle(&fixture_dir("mini"), &["validate", "no/such/thing"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("no/such/thing"), "{err}");

    let out = riffle(&fixture_dir("mini"), &["validate", "--format", "yaml"]);
    assert_eq!(out.status.code(), Some(2));

    let empty = Fixture::empty();
    let out = riffle(&empty.dir, &["validate"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--root"), "{}", stderr(&out));

    let out = riffle(
        &fixture_dir("mini"),
        &["validate", "schema/mini/card.schema.json", "--root", "."],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn mods_from_the_command_line() {
    let m = Fixture::empty();
    m.write(
        "cardsets/mini/extra/set.yaml",
        "game: mini\nid: EX\nname: {en: Extra}\nversion: \"1\"\noverrides: [MC1-004]\n",
    );
    m.write(
        "cardsets/mini/extra/MC1-004.yaml",
        "id: MC1-004\ncategory: unit\nname: {en: Lookout+}\ncost: 2\npower: 4000\n",
    );
    let dir = fixture_dir("mini");
    let out = riffle(&dir, &["validate", "--mod", m.dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("note: /id: overrides card `MC1-004`"),
        "{}",
        stdout(&out)
    );
    assert!(stderr(&out).contains("3 sets, 6 cards"), "{}", stderr(&out));
}

#[test]
fn schema_check_passes_on_the_repository() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    if !repo.join("scripts").is_dir() || !repo.join("cardsets").is_dir() {
        return;
    }
    let out = riffle(&repo, &["schema"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
}

#[test]
fn validate_runs_scripts_and_deck_rules() {
    // A misspelt name in a card script is found at load, with the file, line and card.
    let f = Fixture::mini();
    f.write(
        "cardsets/mini/core/MC1-002.lua",
        "-- Deckhand\nreturn {\n  {\n    kind = trigered_kind(),\n  },\n}\n",
    );
    // The ruleset's deck check runs on every deck; its problem points at the card's line.
    f.write(
        "scripts/mini/rules.lua",
        "function setup(ctx) end\nfunction main_actions(ctx) return {} end\n\
         function activate(ctx, ability, args) return true end\n\
         function validate_deck(deck)\n  if deck.main['MC1-003'] > 3 then\n    \
         return {'at most 3 copies of MC1-003'}\n  end\n  return {}\nend\n",
    );
    let out = riffle(&f.dir, &["validate"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert!(
        text.lines().any(|l| l
            .starts_with("cardsets/mini/core/MC1-002.lua:4:1: unknown name 'trigered_kind'")
            && l.ends_with("(card MC1-002)")),
        "{text}"
    );
    // Deck rules run only once every script loads: fix the script and look again.
    f.write("cardsets/mini/core/MC1-002.lua", "return {}\n");
    let out = riffle(&f.dir, &["validate"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert_eq!(
        text.trim_end(),
        "cardsets/mini/decks/starter.yaml:7:5: deck starter: at most 3 copies of MC1-003"
    );
}

#[test]
fn validate_refuses_shared_state_and_built_in_names_in_scripts() {
    let f = Fixture::mini();
    // A ruleset file that takes a built-in name, said once though the names are published
    // twice (after each file, then after all).
    f.write(
        "scripts/mini/rules.lua",
        "string = {}\nfunction setup(ctx) end\nfunction main_actions(ctx) return {} end\n\
         function activate(ctx, ability, args) return true end\n\
         function validate_deck(deck) return {} end\n",
    );
    // A card that would carry a count from one game into the next.
    f.write(
        "cardsets/mini/core/MC1-002.lua",
        "local seen = 0\nreturn { { kind = 'activated', timings = {'main'},\n  \
         operate = function(ctx) seen = seen + 1 end } }\n",
    );
    let out = riffle(&f.dir, &["validate"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    let builtin: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("built-in name"))
        .collect();
    assert_eq!(builtin.len(), 1, "{text}");
    assert!(builtin[0].starts_with("scripts/mini/rules.lua:1:1: defines the global 'string'"));
    // Cards load once the ruleset does.
    f.write(
        "scripts/mini/rules.lua",
        "function setup(ctx) end\nfunction main_actions(ctx) return {} end\n\
         function activate(ctx, ability, args) return true end\n\
         function validate_deck(deck) return {} end\n",
    );
    let out = riffle(&f.dir, &["validate"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert!(
        text.lines().any(|l| l.starts_with(
            "cardsets/mini/core/MC1-002.lua:3:1: `seen` (the local of line 1) is assigned inside a function"
        ) && l.ends_with("(card MC1-002)")),
        "{text}"
    );
}
