//! The editor support (`editor/<game>.d.luau`, the settings) is what the code generates, and
//! the definitions do not drift from the script API: `ctx`'s methods and fields are the
//! prelude's, the card handle's are card.rs's, the globals are those a card really sees.

use std::collections::BTreeSet;

use riffle::luau_types::{PRELUDE, kernel, probe, source, stale};
use riffle::reference::games_with_rulesets;

use crate::common::{Fixture, game_content, repo};

const REGENERATE: &str = "cargo run -p riffle -- editor --write";

#[test]
fn editor_files_are_fresh() {
    let root = repo();
    let games = games_with_rulesets(&root);
    let stale = stale(&root, &games).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<String> = stale.iter().map(|p| p.display().to_string()).collect();
    assert!(
        stale.is_empty(),
        "{} out of date with the script API: run `{REGENERATE}`",
        names.join(", ")
    );
}

/// The lines of `text` from `start` up to the first line that is exactly `end`.
fn block<'a>(text: &'a str, start: &str, end: &str) -> Vec<&'a str> {
    text.lines()
        .skip_while(|l| *l != start)
        .skip(1)
        .take_while(|l| *l != end)
        .collect()
}

/// Names of `name: type` / `function name(` members of a declared block.
fn members(lines: &[&str]) -> (BTreeSet<String>, BTreeSet<String>) {
    let (mut fields, mut methods) = (BTreeSet::new(), BTreeSet::new());
    for l in lines.iter().map(|l| l.trim()) {
        if l.starts_with("--") {
            continue;
        }
        if let Some(rest) = l.strip_prefix("function ") {
            methods.insert(rest.split('(').next().unwrap().to_string());
        } else if let Some((name, _)) = l.split_once(':') {
            fields.insert(name.to_string());
        }
    }
    (fields, methods)
}

#[test]
fn ctx_in_the_definitions_is_the_preludes() {
    let api = source::ctx_api(PRELUDE).unwrap();
    // A sanity floor: the parse found the prelude's shape, not a few stray names.
    for m in ["move", "choose", "cards", "modify", "with"] {
        assert!(api.methods.contains_key(m), "{m}: {:?}", api.methods.keys());
    }
    let prelude_fields: BTreeSet<String> = api.getters.union(&api.fields).cloned().collect();
    let typed: BTreeSet<String> = kernel::CTX_FIELDS.iter().map(|f| f.0.to_string()).collect();
    assert_eq!(
        typed, prelude_fields,
        "kernel::CTX_FIELDS should list the prelude's getters and make_ctx fields"
    );
    for (m, _) in kernel::CTX_RETURNS {
        assert!(
            api.methods.contains_key(*m),
            "CTX_RETURNS names '{m}', which the prelude lacks"
        );
    }
    let methods: BTreeSet<String> = api.methods.keys().cloned().collect();
    for game in games_with_rulesets(&repo()) {
        let text = std::fs::read_to_string(repo().join(format!("editor/{game}.d.luau"))).unwrap();
        let (fields, declared) = members(&block(&text, "declare class Ctx", "end"));
        assert_eq!(declared, methods, "{game}: ctx methods; run `{REGENERATE}`");
        for f in &prelude_fields {
            assert!(
                fields.contains(f),
                "{game}: ctx.{f} missing; run `{REGENERATE}`"
            );
        }
    }
}

/// The string literals of `text` between `from` and the next `until`.
fn quoted_between(text: &str, from: &str, until: &str) -> BTreeSet<String> {
    let start = text
        .find(from)
        .unwrap_or_else(|| panic!("card.rs has no `{from}`"));
    let rest = &text[start + from.len()..];
    let rest = &rest[..rest.find(until).unwrap()];
    rest.split('"')
        .skip(1)
        .step_by(2)
        .map(String::from)
        .collect()
}

#[test]
fn the_card_handle_is_card_rs() {
    let card_rs = std::fs::read_to_string(repo().join("core/src/script/card.rs")).unwrap();
    let methods = quoted_between(&card_rs, "const METHODS", "];");
    let ours: BTreeSet<String> = kernel::CARD_METHODS
        .iter()
        .map(|m| m.0.to_string())
        .collect();
    assert_eq!(
        ours, methods,
        "kernel::CARD_METHODS against card.rs METHODS"
    );
    // The fields are the names of card.rs `FIELDS` (what `resolve` finds before the
    // characteristics).
    let arms = quoted_between(&card_rs, "const FIELDS", "];");
    assert!(arms.len() > 10, "{arms:?}");
    let ours: BTreeSet<String> = kernel::CARD_FIELDS
        .iter()
        .map(|f| f.0.to_string())
        .collect();
    assert_eq!(ours, arms, "kernel::CARD_FIELDS against card.rs `FIELDS`");
}

#[test]
fn every_global_a_card_sees_is_declared_and_no_other() {
    let root = repo();
    for game in games_with_rulesets(&root) {
        let (content, _) = game_content(std::slice::from_ref(&root), &game);
        let seen: BTreeSet<String> = probe::globals(&content)
            .unwrap()
            .into_keys()
            .filter(|g| !kernel::LUAU_STANDARD.contains(&g.as_str()))
            .collect();
        assert!(seen.contains("card"), "{game}: {seen:?}");
        let text = std::fs::read_to_string(root.join(format!("editor/{game}.d.luau"))).unwrap();
        let declared: BTreeSet<String> = text
            .lines()
            .filter_map(|l| l.strip_prefix("declare "))
            .filter(|l| !l.starts_with("class "))
            .map(|l| {
                let l = l.strip_prefix("function ").unwrap_or(l);
                l.split(['(', ':']).next().unwrap().to_string()
            })
            .collect();
        assert_eq!(declared, seen, "{game}: run `{REGENERATE}`");
    }
}

#[test]
fn a_ruleset_function_gets_its_parameters_and_doc() {
    let d = source::declared(&[(
        "x.lua",
        "--- Draws n cards.\n--- Twice.\nfunction draw(ctx, n) end\n\
         local function hidden() end\n\
         T = {}\nfunction T.f(a, ...) end\nT.g = function(ctx) return ctx:with({ battle = 1 }) end\n\
         function on_play(a) end\n",
    )])
    .unwrap();
    let draw = &d.functions["draw"];
    assert_eq!(draw.params, ["ctx", "n"]);
    assert_eq!(draw.doc, ["Draws n cards.", "Twice."]);
    assert!(!d.functions.contains_key("hidden"));
    assert_eq!(d.fields["T.f"].params, ["a", "..."]);
    assert_eq!(d.fields["T.g"].params, ["ctx"]);
    assert!(d.values.contains_key("T"));
    assert!(d.ctx_fields.contains("battle"), "{:?}", d.ctx_fields);
}

#[test]
fn riffle_editor_prints_checks_and_writes() {
    let f = Fixture::mini();
    let riffle = |args: &[&str]| f.riffle(args);
    let printed = riffle(&["editor", "--game", "mini"]);
    assert!(printed.status.success(), "{printed:?}");
    let text = String::from_utf8_lossy(&printed.stdout).into_owned();
    assert!(text.contains("declare class Ctx"), "{text}");
    assert!(
        text.contains("    function move(self, cards: any, zone: any, opts: any): any"),
        "{text}"
    );
    assert!(
        text.contains("declare function setup(ctx: Ctx): ...any"),
        "a parameter named ctx is a Ctx: {text}"
    );
    let check = riffle(&["editor", "--check"]);
    assert_eq!(check.status.code(), Some(1), "none written yet: {check:?}");
    assert!(
        String::from_utf8_lossy(&check.stderr).contains(REGENERATE),
        "it says what fixes it: {check:?}"
    );
    let write = riffle(&["editor", "--write"]);
    assert!(write.status.success(), "{write:?}");
    assert_eq!(
        std::fs::read_to_string(f.path("editor/mini.d.luau")).unwrap(),
        text
    );
    let settings = std::fs::read_to_string(f.path(".vscode/settings.json")).unwrap();
    assert!(
        settings.contains("\"riffle\": \"editor/mini.d.luau\""),
        "{settings}"
    );
    assert!(f.path("editor/mini.code-workspace").is_file());
    let again = riffle(&["editor", "--check"]);
    assert!(again.status.success(), "{again:?}");
    f.write("editor/mini.d.luau", "-- edited by hand\n");
    let edited = riffle(&["editor", "--check"]);
    assert_eq!(edited.status.code(), Some(1), "{edited:?}");
    assert!(
        String::from_utf8_lossy(&edited.stdout).contains("editor/mini.d.luau: out of date"),
        "{edited:?}"
    );
}
