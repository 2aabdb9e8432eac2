//! `riffle validate` on what a modder writes that nothing reads: an ability field its
//! constructor ignores (a limit's `shared` beside `limit`, `affects` on a triggered ability,
//! `condition` on a replacement) and a misspelt keyword in a script's string. Each game's
//! cards in a mod, validated over the repository.

use super::{riffle, stdout};
use crate::common::{Fixture, repo};

/// A mod with one set per game, its cards `(id, yaml copied from, script)`.
fn a_mod(cards: &[(&str, &str, &str, &str)]) -> Fixture {
    let m = Fixture::empty();
    for (game, id, printed, script) in cards {
        let set = &id[..2];
        m.write(
            &format!("cardsets/{game}/{set}/set.yaml"),
            &format!("game: {game}\nid: {set}\nname: {{en: \"Traps\"}}\nversion: \"1.0\"\n"),
        );
        let yaml = std::fs::read_to_string(repo().join(printed)).unwrap();
        let from = printed
            .rsplit('/')
            .next()
            .unwrap()
            .trim_end_matches(".yaml");
        m.write(
            &format!("cardsets/{game}/{set}/{id}.yaml"),
            &yaml.replace(from, id),
        );
        m.write(&format!("cardsets/{game}/{set}/{id}.lua"), script);
    }
    m
}

/// `riffle validate --mod M`'s diagnostics, paths relative to the mod.
fn validate(m: &Fixture) -> (Option<i32>, Vec<String>) {
    let out = riffle(&repo(), &["validate", "--mod", m.dir.to_str().unwrap()]);
    let prefix = format!("{}/", m.dir.display());
    let lines = stdout(&out)
        .lines()
        .map(|l| l.replace(&prefix, ""))
        .filter(|l| l.starts_with("cardsets/"))
        .collect();
    (out.status.code(), lines)
}

#[test]
fn a_field_its_constructor_does_not_read_is_an_error_naming_it_and_where_it_belongs() {
    let m = a_mod(&[
        (
            "summoner-master",
            "ZS-001",
            "cardsets/summoner-master/sm02/SM02-005.yaml",
            "-- ZS-001 Trap\nreturn card {\n  when_attacks { whose = \"mine\", limit = { 1, \"turn\" }, shared = true,\n    operate = function(ctx, a) give_at(ctx, a.subject, 1, \"subturn\") end },\n}\n",
        ),
        (
            "gundam",
            "ZG-001",
            "cardsets/gundam/gx01/GX01-014.yaml",
            "-- ZG-001 Trap\nreturn card {\n  on_deploy { affects = function(ctx, c) return true end,\n    operate = function(ctx) draw(ctx, 1) end },\n}\n",
        ),
        (
            "onepiece",
            "ZO-001",
            "cardsets/onepiece/rf01/RF01-008.yaml",
            "-- ZO-001 Trap\nreturn card {\n  replacement { replaces = \"move\", condition = function(ctx) return true end,\n    applies = function(ctx, op) return false end, replace = function(ctx, op) return op end },\n}\n",
        ),
        (
            "onepiece",
            "ZO-002",
            "cardsets/onepiece/rf01/RF01-008.yaml",
            "-- ZO-002 Trap\nreturn card {\n  on_play { opertae = function(ctx) draw(ctx, 1) end },\n}\n",
        ),
    ]);
    let (code, lines) = validate(&m);
    assert_eq!(code, Some(1), "{lines:#?}");
    let has = |path: &str, fragments: &[&str]| {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(path) && fragments.iter().all(|f| l.contains(f))),
            "no line at {path} with {fragments:?}: {lines:#?}"
        );
    };
    has(
        "cardsets/summoner-master/ZS/ZS-001.lua:3:",
        &["`shared`", "inside `limit`", "ZS-001"],
    );
    has(
        "cardsets/gundam/ZG/ZG-001.lua:3:",
        &["on_deploy does not read `affects`", "ZG-001"],
    );
    has(
        "cardsets/onepiece/ZO/ZO-001.lua:3:",
        &[
            "replacement does not read `condition`",
            "`applies(ctx, op)`",
        ],
    );
    has(
        "cardsets/onepiece/ZO/ZO-002.lua:3:",
        &["on_play does not read `opertae`", "did you mean `operate`?"],
    );
}

#[test]
fn a_misspelt_keyword_in_a_scripts_string_is_an_error_at_the_string() {
    let m = a_mod(&[
        (
            "onepiece",
            "ZO-003",
            "cardsets/onepiece/rf01/RF01-008.yaml",
            "-- ZO-003 Trap\nreturn card {\n  on_play { operate = function(ctx)\n    grant(ctx, ctx.source, \"rsuh\", \"turn\")\n  end },\n}\n",
        ),
        (
            "gundam",
            "ZG-002",
            "cardsets/gundam/gx01/GX01-014.yaml",
            "-- ZG-002 Trap\nreturn card {\n  on_deploy { operate = function(ctx)\n    grant(ctx, this_unit(ctx), \"blokcer\", \"turn\")\n  end },\n}\n",
        ),
        (
            "summoner-master",
            "ZS-002",
            "cardsets/summoner-master/sm02/SM02-005.yaml",
            "-- ZS-002 Trap\nreturn card {\n  when_attacks { whose = \"mine\",\n    operate = function(ctx, a) grant(ctx, a.subject, \"cannot_atack\", \"subturn\") end },\n}\n",
        ),
    ]);
    let (code, lines) = validate(&m);
    assert_eq!(code, Some(1), "{lines:#?}");
    let has = |at: &str, fragments: &[&str]| {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(at) && fragments.iter().all(|f| l.contains(f))),
            "no line at {at} with {fragments:?}: {lines:#?}"
        );
    };
    has(
        "cardsets/onepiece/ZO/ZO-003.lua:4:28:",
        &["'rsuh' is not a keyword", "did you mean 'rush'?", "ZO-003"],
    );
    has(
        "cardsets/gundam/ZG/ZG-002.lua:4:32:",
        &["'blokcer'", "did you mean 'blocker'?"],
    );
    has(
        "cardsets/summoner-master/ZS/ZS-002.lua:4:",
        &["'cannot_atack'", "did you mean 'cannot_attack'?"],
    );
    // The repository's own cards have none of these.
    let out = riffle(&repo(), &["validate"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}
