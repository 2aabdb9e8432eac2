//! The loader: each kind of diagnostic, mods, the content manifest.

use riffle_content::{Loader, Severity, load_deck_file, load_game};

use crate::common::{Fixture, expect_line};

#[test]
fn valid_fixture_loads_without_diagnostics() {
    let f = Fixture::mini();
    let load = f.load();
    assert!(load.diagnostics.is_empty(), "{:#?}", f.lines(&load));
    let content = load.content.as_ref().unwrap();
    let ids: Vec<&str> = content.cards.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["MC1-001", "MC1-002", "MC1-003", "MC1-004", "MCP-001"]);
    let scripts: Vec<String> = content
        .ruleset
        .scripts
        .iter()
        .map(|s| s.name.rsplit('/').next().unwrap().to_string())
        .collect();
    assert_eq!(scripts, ["util.lua", "rules.lua"], "helpers first");
    let deckhand = &content.cards[1];
    assert_eq!(deckhand.fields["cost"], 1);
    assert_eq!(deckhand.keywords[1].parts(), ("repair", 2));
    assert!(
        deckhand
            .script
            .as_ref()
            .unwrap()
            .name
            .ends_with("core/MC1-002.lua")
    );
    assert!(
        content.cards[2]
            .script
            .as_ref()
            .unwrap()
            .name
            .ends_with("scripts/broadside.lua")
    );
    assert!(content.cards[3].script.is_none(), "keywords-only card");
    assert_eq!(load.sets.len(), 2);
    assert_eq!(load.cards.len(), 5);
    assert_eq!(load.scenarios.len(), 1);
    let deck = load.deck("starter").unwrap();
    assert_eq!(deck.list.sections["main"]["MC1-002"], 4);
    let game = load.into_result().unwrap();
    assert_eq!(game.content.cards.len(), 5);
}

#[test]
fn manifest_hashes_every_file_in_order() {
    let a = Fixture::mini();
    let b = Fixture::mini();
    let (la, lb) = (a.load(), b.load());
    let m = &la.manifest;
    assert_eq!(m.game, "mini");
    assert_eq!(m.sets.len(), 2);
    assert_eq!(
        (m.sets[0].id.as_str(), m.sets[0].version.as_str()),
        ("MC1", "1.0")
    );
    let paths: Vec<&str> = m.files.iter().map(|f| f.path.as_str()).collect();
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(paths, sorted);
    for expected in [
        "scripts/mini/game.yaml",
        "scripts/mini/rules.lua",
        "scripts/lib/util.lua",
        "schema/mini/card.schema.json",
        "cardsets/mini/core/set.yaml",
        "cardsets/mini/core/MC1-002.lua",
        "cardsets/mini/core/scripts/broadside.lua",
        "cardsets/mini/decks/starter.yaml",
    ] {
        assert!(paths.contains(&expected), "{expected} not in {paths:?}");
    }
    assert!(!paths.iter().any(|p| p.ends_with(".test.yaml")));
    assert_eq!(
        m.hash, lb.manifest.hash,
        "independent of where the folder is"
    );
    assert_eq!(m.hash.len(), 64);

    b.write("cardsets/mini/core/MC1-002.lua", "return {}\n");
    assert_ne!(b.load().manifest.hash, m.hash);
}

#[test]
fn yaml_syntax_error_has_saphyr_position() {
    let f = Fixture::mini();
    f.write(
        "cardsets/mini/core/MC1-004.yaml",
        "id: MC1-004\ncategory: unit\nname: {en: Lookout\ncost: 2\n",
    );
    let load = f.load();
    let lines = f.lines(&load);
    let l = expect_line(
        &lines,
        &["cardsets/mini/core/MC1-004.yaml:4:", "YAML syntax error"],
    );
    assert!(l.ends_with("(card MC1-004)"), "{l}");
    // The deck naming the broken card is not also told that the card is missing.
    assert_eq!(lines.len(), 1, "{lines:#?}");
}

#[test]
fn a_card_with_broken_yaml_still_has_its_script_checked() {
    let f = Fixture::mini();
    f.write("cardsets/mini/core/MC1-002.yaml", "id: MC1-002\nname: [\n");
    f.write("cardsets/mini/core/MC1-002.lua", "return {\n  x = ,\n}\n");
    let lines = f.lines(&f.load());
    expect_line(
        &lines,
        &["MC1-002.yaml:", "YAML syntax error", "(card MC1-002)"],
    );
    expect_line(
        &lines,
        &["MC1-002.lua:2:1: Lua syntax error", "(card MC1-002)"],
    );
    assert_eq!(
        lines.len(),
        2,
        "no 'unused script' warning, no deck error: {lines:#?}"
    );
}

#[test]
fn schema_violations_point_at_the_value() {
    let f = Fixture::mini();
    f.write(
        "cardsets/mini/core/MC1-004.yaml",
        "id: MC1-004\ncategory: unit\nname:\n  en: Lookout\ncost: -1\npower: \"3000\"\nrange: 2\n",
    );
    let lines = f.lines(&f.load());
    assert_eq!(
        expect_line(&lines, &["/cost"]),
        "cardsets/mini/core/MC1-004.yaml:5:7: /cost: -1 is less than the minimum of 0 (card MC1-004)"
    );
    expect_line(
        &lines,
        &["MC1-004.yaml:6:8: /power: expected integer, found text \"3000\""],
    );
    expect_line(&lines, &["MC1-004.yaml:7:1: /range: unknown field `range`"]);
    assert_eq!(lines.len(), 3, "{lines:#?}");
}

#[test]
fn per_category_requirements_and_printed_name() {
    let f = Fixture::mini();
    f.write(
        "cardsets/mini/core/MC1-004.yaml",
        "id: MC1-004\ncategory: unit\nname: {ja: 見張り}\npower: 1\n",
    );
    f.write(
        "cardsets/mini/core/MC1-001.yaml",
        "id: MC1-001\ncategory: leader\nname: {en: Captain}\npower: 5000\ncost: 1\n",
    );
    let lines = f.lines(&f.load());
    expect_line(
        &lines,
        &["MC1-004.yaml:1:1: missing required field `cost` on a `unit` card"],
    );
    // The mini game is printed in English (the default `names.printed`).
    expect_line(
        &lines,
        &[
            "MC1-004.yaml:3:7: /name: it has no `en` name (only ja): this game's cards are \
             named for the rules in `en` (the ruleset's `names.printed`); add \
             `en: <the printed name>` under `name` (card MC1-004)",
        ],
    );
    expect_line(
        &lines,
        &["MC1-001.yaml:5:1: /cost: `cost` is not allowed on a `leader` card"],
    );
}

/// The mini game printed in Thai: every card with a Thai name, MC1-004 with nothing else.
pub(crate) fn thai_mini() -> Fixture {
    let f = Fixture::mini();
    let game = std::fs::read_to_string(f.path("scripts/mini/game.yaml")).unwrap();
    f.write(
        "scripts/mini/game.yaml",
        &game.replace(
            "categories:",
            "names: {printed: th}\nlog: {values: {power: [leader]}}\ncategories:",
        ),
    );
    for (card, from, to) in [
        ("core/MC1-001", "  en: Captain", "  th: กัปตัน\n  en: Captain"),
        (
            "core/MC1-002",
            "{en: Deckhand}",
            "{th: กะลาสี, en: Deckhand}",
        ),
        (
            "core/MC1-003",
            "{en: Broadside}",
            "{th: ยิงกราด, en: Broadside}",
        ),
        ("core/MC1-004", "{en: Lookout}", "{th: ยามระวัง}"),
        (
            "promo/MCP-001",
            "{en: Promo Gunner}",
            "{en: Promo Gunner, th: มือปืน}",
        ),
    ] {
        let rel = format!("cardsets/mini/{card}.yaml");
        let text = std::fs::read_to_string(f.path(&rel)).unwrap();
        assert!(text.contains(from), "{rel}");
        f.write(&rel, &text.replace(from, to));
    }
    f
}

#[test]
fn a_game_printed_in_thai_takes_cards_named_only_in_thai() {
    let f = thai_mini();
    let load = f.load();
    assert!(load.diagnostics.is_empty(), "{:#?}", f.lines(&load));
    let game = load.into_result().unwrap();
    assert_eq!(game.content.ruleset.manifest.names.printed, "th");
    let lookout = game
        .content
        .cards
        .iter()
        .find(|c| c.id == "MC1-004")
        .unwrap();
    assert_eq!(
        lookout.name,
        [("th".to_string(), "ยามระวัง".to_string())].into()
    );
    riffle_core::Engine::new(&game.content).expect("the engine takes it");
}

#[test]
fn a_card_without_the_printed_language_is_an_error_at_its_name() {
    let f = thai_mini();
    f.write(
        "cardsets/mini/core/MC1-005.yaml",
        "id: MC1-005\ncategory: unit\nname:\n  en: Stowaway\n  ja: 密航者\ncost: 1\npower: 1000\n",
    );
    f.write(
        "cardsets/mini/core/MC1-006.yaml",
        "id: MC1-006\ncategory: unit\nname: {th: \"\", en: Ghost}\ncost: 1\npower: 1000\n",
    );
    f.write(
        "cardsets/mini/core/MC1-007.yaml",
        "id: MC1-007\ncategory: unit\nname: {}\ncost: 1\npower: 1000\n",
    );
    let load = f.load();
    let lines = f.lines(&load);
    assert_eq!(
        lines,
        [
            "cardsets/mini/core/MC1-005.yaml:4:3: /name: it has no `th` name (only en, ja): \
             this game's cards are named for the rules in `th` (the ruleset's \
             `names.printed`); add `th: <the printed name>` under `name` (card MC1-005)",
            "cardsets/mini/core/MC1-006.yaml:3:7: /name: its `th` name is blank: this game's \
             cards are named for the rules in `th` (the ruleset's `names.printed`); add \
             `th: <the printed name>` under `name` (card MC1-006)",
            "cardsets/mini/core/MC1-007.yaml:3:7: /name: a card needs a name: add its printed \
             name, like `en: ...` (the language of game.yaml `names.printed`) (card MC1-007)",
        ],
    );
    assert!(load.into_result().is_err());
}

#[test]
fn the_printed_language_is_a_language_tag() {
    let f = Fixture::mini();
    let game = std::fs::read_to_string(f.path("scripts/mini/game.yaml")).unwrap();
    f.write(
        "scripts/mini/game.yaml",
        &game.replace("categories:", "names: {printed: Thai}\ncategories:"),
    );
    let lines = f.lines(&f.load());
    expect_line(
        &lines,
        &[
            "game.yaml:12:18: /names/printed: \"Thai\" is not a language tag: use `en`, `ja`, `th`, `zh-Hant`...",
        ],
    );
}

#[test]
fn duplicate_ids_name_both_places() {
    let f = Fixture::mini();
    f.write(
        "cardsets/mini/promo/MCP-002.yaml",
        "id: MC1-002\ncategory: unit\nname: {en: Copy}\ncost: 1\npower: 1\n",
    );
    let load = f.load();
    let d = load
        .diagnostics
        .iter()
        .find(|d| d.message.contains("duplicate card id"))
        .unwrap();
    let line = f.line(d);
    assert!(
        line.starts_with("cardsets/mini/promo/MCP-002.yaml:1:5: /id: duplicate card id `MC1-002`: also defined at "),
        "{line}"
    );
    assert!(
        line.contains("cardsets/mini/core/MC1-002.yaml:1:5"),
        "{line}"
    );
    assert_eq!(d.related.len(), 1);
    assert!(
        d.related[0]
            .path
            .ends_with("cardsets/mini/core/MC1-002.yaml")
    );
    // The first definition stays.
    let cards = &load.content.as_ref().unwrap().cards;
    assert_eq!(cards.iter().filter(|c| c.id == "MC1-002").count(), 1);
    assert_eq!(
        cards.iter().find(|c| c.id == "MC1-002").unwrap().name["en"],
        "Deckhand"
    );
}

#[test]
fn deck_errors_point_at_keys() {
    let f = Fixture::mini();
    f.write(
        "cardsets/mini/decks/starter.yaml",
        "game: mini\nname: {en: Starter}\nsections:\n  leader: {MC1-001: 1}\n  mian:\n    MC1-002: 4\n  main:\n    MC1-0002: 4\n",
    );
    let lines = f.lines(&f.load());
    assert_eq!(
        expect_line(&lines, &["mian"]),
        "cardsets/mini/decks/starter.yaml:5:3: /sections/mian: unknown deck section `mian`: did you mean `main`?"
    );
    assert_eq!(
        expect_line(&lines, &["MC1-0002"]),
        "cardsets/mini/decks/starter.yaml:8:5: /sections/main/MC1-0002: no card `MC1-0002` in this game: did you mean `MC1-002`? (card MC1-0002)"
    );
}

#[test]
fn keywords_and_categories_come_from_the_ruleset() {
    let f = Fixture::mini();
    f.write(
        "cardsets/mini/core/MC1-004.yaml",
        "id: MC1-004\ncategory: unti\nname: {en: Lookout}\ncost: 1\npower: 1\nkeywords: [bloker, repair, {rush: 1}, flying, 7]\n",
    );
    let lines = f.lines(&f.load());
    expect_line(
        &lines,
        &["2:11: /category: unknown category `unti`: did you mean `unit`?"],
    );
    expect_line(
        &lines,
        &["6:12: /keywords/0: unknown keyword `bloker`: did you mean `blocker`?"],
    );
    expect_line(&lines, &["6:20: /keywords/1: `repair` needs a number"]);
    expect_line(&lines, &["6:28: /keywords/2: `rush` takes no number"]);
    expect_line(
        &lines,
        &["/keywords/3: unknown keyword `flying` (the ruleset declares: blocker, rush, repair)"],
    );
    expect_line(&lines, &["/keywords/4: 7 is not a keyword"]);
}

#[test]
fn lua_syntax_errors_have_lines() {
    let f = Fixture::mini();
    f.write("cardsets/mini/core/MC1-002.lua", "return {\n  x = ,\n}\n");
    f.write("scripts/mini/rules.lua", "function setup(ctx)\n\nend end\n");
    f.write("scripts/lib/util.lua", "local = 1\n");
    let lines = f.lines(&f.load());
    let l = expect_line(
        &lines,
        &["cardsets/mini/core/MC1-002.lua:2:1: Lua syntax error:"],
    );
    assert!(l.ends_with("(card MC1-002)"), "{l}");
    expect_line(&lines, &["scripts/mini/rules.lua:3:1: Lua syntax error:"]);
    expect_line(&lines, &["scripts/lib/util.lua:1:1: Lua syntax error:"]);
}

#[test]
fn missing_scripts_are_reported_where_they_are_named() {
    let f = Fixture::mini();
    f.write(
        "scripts/mini/game.yaml",
        &std::fs::read_to_string(f.path("scripts/mini/game.yaml"))
            .unwrap()
            .replace("  - rules.lua", "  - rules.lua\n  - extra.lua"),
    );
    f.remove("cardsets/mini/core/scripts/broadside.lua");
    let lines = f.lines(&f.load());
    expect_line(
        &lines,
        &[
            "scripts/mini/game.yaml:",
            ": /scripts/1: script `extra.lua` not found",
        ],
    );
    expect_line(
        &lines,
        &[
            "cardsets/mini/core/MC1-003.yaml:6:9: /script: script `scripts/broadside.lua` not found",
            "(card MC1-003)",
        ],
    );
}

#[test]
fn missing_set_yaml_and_unreadable_files() {
    let f = Fixture::mini();
    f.remove("cardsets/mini/promo/set.yaml");
    f.write_bytes(
        "cardsets/mini/core/MC1-009.yaml",
        b"id: MC1-009\nname: {en: \xff\xfe}\n",
    );
    #[cfg(unix)]
    std::os::unix::fs::symlink(f.path("nowhere"), f.path("cardsets/mini/core/MC1-010.yaml"))
        .unwrap();
    let load = f.load();
    let lines = f.lines(&load);
    expect_line(
        &lines,
        &["cardsets/mini/promo/set.yaml:1:1: missing set.yaml"],
    );
    expect_line(
        &lines,
        &["cardsets/mini/core/MC1-009.yaml:2:12: the file is not UTF-8 text"],
    );
    #[cfg(unix)]
    expect_line(
        &lines,
        &["cardsets/mini/core/MC1-010.yaml:1:1: cannot read the file"],
    );
    // The promo card is still checked and loaded.
    assert!(
        load.content
            .unwrap()
            .cards
            .iter()
            .any(|c| c.id == "MCP-001")
    );
}

#[test]
fn set_and_deck_must_belong_to_their_game() {
    let f = Fixture::mini();
    f.write(
        "cardsets/mini/promo/set.yaml",
        "game: maxi\nid: MC1\nname: {en: P}\nversion: \"1\"\n",
    );
    f.write(
        "cardsets/mini/decks/other.yaml",
        "game: maxi\nname: {en: O}\nsections: {}\n",
    );
    let lines = f.lines(&f.load());
    expect_line(
        &lines,
        &["promo/set.yaml:1:7: /game: `game: maxi` does not match"],
    );
    expect_line(&lines, &["promo/set.yaml:2:5: /id: duplicate set id `MC1`"]);
    expect_line(
        &lines,
        &["decks/other.yaml:1:7: /game: `game: maxi` does not match"],
    );
}

#[test]
fn printings_are_unique_and_name_known_sets() {
    let f = Fixture::mini();
    f.write(
        "cardsets/mini/promo/MCP-001.yaml",
        "id: MCP-001\ncategory: unit\nname: {en: G}\ncost: 3\npower: 4000\nprintings:\n  - {code: MC1-001}\n  - {code: MCP-001, set: MPC}\n",
    );
    let lines = f.lines(&f.load());
    expect_line(
        &lines,
        &["MCP-001.yaml:7:12: printing code `MC1-001` is used twice: also at"],
    );
    expect_line(
        &lines,
        &["MCP-001.yaml:8:26: printing `MCP-001` names unknown set `MPC`: did you mean `MCP`?"],
    );
}

#[test]
fn warnings_for_unused_scripts_and_yml_files() {
    let f = Fixture::mini();
    f.write("cardsets/mini/core/MC1-099.lua", "return {}\n");
    f.write("cardsets/mini/core/MC1-098.yml", "id: x\n");
    let load = f.load();
    assert!(!load.has_errors());
    let lines = f.lines(&load);
    expect_line(
        &lines,
        &["core/MC1-099.lua:1:1: warning: no card uses this script"],
    );
    expect_line(
        &lines,
        &["core/MC1-098.yml:1:1: warning: ignored: content files end in `.yaml`"],
    );
    assert!(load.into_result().is_ok(), "warnings do not fail loading");
}

#[test]
fn missing_ruleset_still_checks_cards() {
    let f = Fixture::mini();
    f.remove("scripts/mini");
    f.write(
        "cardsets/mini/core/MC1-004.yaml",
        "id: MC1-004\ncategory: unit\nname: {en: L}\ncost: x\npower: 1\n",
    );
    let load = f.load();
    let lines = f.lines(&load);
    expect_line(
        &lines,
        &["scripts/mini/game.yaml:1:1: no ruleset for game `mini`"],
    );
    expect_line(&lines, &["MC1-004.yaml:4:7: /cost: expected integer"]);
    assert!(load.content.is_none());
    assert!(load.into_result().is_err());
}

#[test]
fn ruleset_schema_and_consistency() {
    let f = Fixture::mini();
    let text = std::fs::read_to_string(f.path("scripts/mini/game.yaml")).unwrap();
    f.write(
        "scripts/mini/game.yaml",
        &text
            .replace("game: mini", "game: mni")
            .replace(
                "categories: [leader, unit, spell]",
                "categories: [leader, unit, spell, unit]",
            )
            .replace("{name: main, zone: deck}", "{name: main, zone: dek}")
            .replace(
                "players: {min: 2, max: 2}",
                "players: {min: 2, max: 2}\nplayer: 3",
            ),
    );
    let lines = f.lines(&f.load());
    expect_line(
        &lines,
        &[
            "game.yaml:",
            "/player: unknown field `player`: did you mean `players`?",
        ],
    );
    // The manifest does not deserialize with an unknown field, so consistency checks wait;
    // fix that and the rest shows.
    f.write(
        "scripts/mini/game.yaml",
        &text
            .replace("game: mini", "game: mni")
            .replace(
                "categories: [leader, unit, spell]",
                "categories: [leader, unit, spell, unit]",
            )
            .replace("{name: main, zone: deck}", "{name: main, zone: dek}"),
    );
    let lines = f.lines(&f.load());
    expect_line(
        &lines,
        &["game.yaml:2:7: /game: `game: mni` does not match its folder"],
    );
    expect_line(&lines, &["/categories/3: `unit` is declared twice"]);
    expect_line(
        &lines,
        &["/deck/sections/1/zone: unknown zone `dek`: did you mean `deck`?"],
    );
}

#[test]
fn game_card_schema_is_optional_and_checked() {
    let f = Fixture::mini();
    f.write(
        "schema/mini/card.schema.json",
        "{\n  \"type\": \"object\",\n  oops\n}\n",
    );
    let lines = f.lines(&f.load());
    expect_line(&lines, &["schema/mini/card.schema.json:3:3: invalid JSON"]);

    f.remove("schema/mini/card.schema.json");
    f.write(
        "cardsets/mini/core/MC1-004.yaml",
        "id: MC1-004\ncategory: unit\nname: {en: L}\nanything: [1, 2]\n",
    );
    let load = f.load();
    assert!(load.diagnostics.is_empty(), "{:#?}", f.lines(&load));
}

#[test]
fn mods_override_only_when_declared() {
    let base = Fixture::mini();
    let m = Fixture::empty();
    m.write(
        "cardsets/mini/mymod/set.yaml",
        "game: mini\nid: MOD\nname: {en: My mod}\nversion: \"0.1\"\noverrides: [MC1-002, MC1-777]\n",
    );
    m.write(
        "cardsets/mini/mymod/MC1-002.yaml",
        "id: MC1-002\ncategory: unit\nname: {en: Better Deckhand}\ncost: 1\npower: 3000\n",
    );
    m.write(
        "cardsets/mini/mymod/MC1-003.yaml",
        "id: MC1-003\ncategory: spell\nname: {en: Sneaky}\ncost: 0\n",
    );
    let load = load_game(&[base.dir.clone(), m.dir.clone()], "mini");
    let override_note = load
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Info)
        .expect("an info note for the override");
    assert!(
        override_note
            .message
            .starts_with("overrides card `MC1-002` of "),
        "{override_note}"
    );
    assert!(override_note.path.starts_with(&m.dir));
    let errors: Vec<_> = load.errors().map(|d| d.to_string()).collect();
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(
        errors[0].contains("duplicate card id `MC1-003`"),
        "{errors:?}"
    );
    assert!(
        errors[0].contains("list it in this set's `overrides`"),
        "{errors:?}"
    );
    let warning = load
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Warning)
        .unwrap();
    assert!(warning.message.contains("`MC1-777`"), "{warning}");
    let cards = &load.content.as_ref().unwrap().cards;
    let deckhand = cards.iter().find(|c| c.id == "MC1-002").unwrap();
    assert_eq!(deckhand.name["en"], "Better Deckhand");
    assert!(
        deckhand.script.is_none(),
        "the override brings its own (no) script"
    );
    assert_eq!(load.manifest.sets.len(), 3);
    assert!(
        load.manifest
            .files
            .iter()
            .any(|f| f.path == "cardsets/mini/mymod/set.yaml")
    );
}

#[test]
fn external_deck_file() {
    let f = Fixture::mini();
    let load = f.load();
    let content = load.content.unwrap();
    f.write(
        "elsewhere/deck.yaml",
        "game: mini\nname: {en: D}\nsections:\n  main: {MC1-002: 2, nope: 1}\n",
    );
    let err = load_deck_file(&f.path("elsewhere/deck.yaml"), &content).unwrap_err();
    assert_eq!(err.len(), 1);
    assert!(err[0].message.contains("no card `nope`"), "{err:?}");
    f.write(
        "elsewhere/ok.yaml",
        "game: mini\nname: {en: D}\nsections:\n  main: {MC1-002: 2}\n",
    );
    let deck = load_deck_file(&f.path("elsewhere/ok.yaml"), &content).unwrap();
    assert_eq!(deck.id, "ok");
}

#[test]
fn games_are_discovered() {
    let f = Fixture::mini();
    let loader = Loader::new(vec![f.dir.clone()]);
    assert_eq!(loader.games(), ["mini"]);
}

#[test]
fn garbage_files_never_panic() {
    let f = Fixture::mini();
    let samples: Vec<Vec<u8>> = vec![
        b"".to_vec(),
        b"\0\0\0".to_vec(),
        b"- just\n- a list\n".to_vec(),
        b"42".to_vec(),
        b"id: [1, 2]\ncategory: {a: b}\nname: 3\nkeywords: {x: y}\nprintings: 7\nscript: [a]\n"
            .to_vec(),
        b"id: X\ncategory: unit\nname: {en: A}\nkeywords: [{}, {a: 1, b: 2}, [], null]\n".to_vec(),
        b"id: X\ncategory: unit\nname: {en: A}\nscript: /etc/passwd\n".to_vec(),
        b"id: X\ncategory: unit\nname: {en: A}\nscript: ../../../../../x.lua\n".to_vec(),
        b"? [a]\n: b\n".to_vec(),
        b"a: &x [*x]\n".to_vec(),
        b"{{{{{{{{{{".to_vec(),
        format!("{}x{}", "[".repeat(300), "]".repeat(300)).into_bytes(),
        vec![0xff; 64],
    ];
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    let alphabet = b"idcategorynamekeywords:[]{}-,&*!? \n\t0123456789\"'#|>";
    let mut samples = samples;
    for _ in 0..60 {
        let mut s = b"id: MC1-004\n".to_vec();
        for _ in 0..(x % 80) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            s.push(alphabet[(x % alphabet.len() as u64) as usize]);
        }
        samples.push(s);
    }
    for (i, bytes) in samples.iter().enumerate() {
        f.write_bytes("cardsets/mini/core/MC1-004.yaml", bytes);
        f.write_bytes("cardsets/mini/decks/starter.yaml", bytes);
        f.write_bytes("cardsets/mini/promo/set.yaml", bytes);
        if i % 3 == 0 {
            f.write_bytes("scripts/mini/game.yaml", bytes);
        }
        let load = f.load();
        assert!(load.has_errors() || bytes.is_empty(), "sample {i} accepted");
        for d in &load.diagnostics {
            assert!(d.line >= 1 && d.col >= 1, "{d}");
        }
    }
}

#[test]
fn a_sets_shared_lua_is_read_in_order_and_serves_its_own_cards() {
    let base = Fixture::mini();
    let m = Fixture::empty();
    m.write(
        "cardsets/mini/mymod/set.yaml",
        "game: mini\nid: MOD\nname: {en: My mod}\nversion: \"0.1\"\nscripts: [names.lua, lib/helpers.lua]\n",
    )
    .write("cardsets/mini/mymod/names.lua", "MOD = {}\n")
    .write("cardsets/mini/mymod/lib/helpers.lua", "function MOD.twice(n) return 2 * n end\n")
    .write(
        "cardsets/mini/mymod/MOD-001.yaml",
        "id: MOD-001\ncategory: spell\nname: {en: Helped}\ncost: 0\n",
    )
    .write("cardsets/mini/mymod/MOD-001.lua", "local n = MOD.twice(1)\nreturn {}\n");
    let load = load_game(&[base.dir.clone(), m.dir.clone()], "mini");
    let lines: Vec<String> = load.diagnostics.iter().map(|d| m.line(d)).collect();
    assert!(
        lines.is_empty(),
        "names.lua is the set's, not an unused card script: {lines:#?}"
    );
    let content = load.content.as_ref().unwrap();
    let lib = content
        .libraries
        .iter()
        .find(|l| l.name == "MOD")
        .expect("the set's library");
    let names: Vec<&str> = lib.scripts.iter().map(|s| s.name.as_str()).collect();
    assert!(
        names[0].ends_with("cardsets/mini/mymod/names.lua"),
        "{names:?}"
    );
    assert!(
        names[1].ends_with("cardsets/mini/mymod/lib/helpers.lua"),
        "{names:?}"
    );
    assert_eq!(lib.cards, vec!["MOD-001".to_string()]);
    assert!(
        load.manifest
            .files
            .iter()
            .any(|f| f.path == "cardsets/mini/mymod/lib/helpers.lua"),
        "the shared Lua is part of the content hash"
    );
    riffle_core::Engine::new(content).expect("the card uses its set's helper");

    // A base card does not see the mod's names.
    base.write(
        "cardsets/mini/core/MC1-099.lua",
        "local n = MOD.twice(1)\nreturn {}\n",
    )
    .write(
        "cardsets/mini/core/MC1-099.yaml",
        "id: MC1-099\ncategory: unit\nname: {en: Outsider}\ncost: 1\npower: 1000\n",
    );
    let load = load_game(&[base.dir.clone(), m.dir.clone()], "mini");
    let Err(errors) = riffle_core::Engine::new(load.content.as_ref().unwrap()) else {
        panic!("a card outside the set used its helper")
    };
    let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert!(
        text.iter()
            .any(|t| t.contains("MC1-099.lua") && t.contains("unknown name 'MOD'")),
        "{text:#?}"
    );
}

#[test]
fn a_sets_scripts_are_checked_where_they_are_listed() {
    let f = Fixture::mini();
    f.write(
        "cardsets/mini/core/set.yaml",
        "game: mini\nid: MC1\nname: {en: Core}\nversion: \"1.0\"\nscripts:\n  - missing.lua\n  - ../../../../outside.lua\n  - notes.txt\n  - broken.lua\n",
    )
    .write("cardsets/mini/core/notes.txt", "")
    .write("cardsets/mini/core/broken.lua", "function (\n");
    let lines = f.lines(&f.load());
    let at = |line: u32, text: &str| {
        assert!(
            lines.iter().any(|l| {
                l.starts_with(&format!("cardsets/mini/core/set.yaml:{line}:")) && l.contains(text)
            }),
            "line {line}, `{text}`: {lines:#?}"
        )
    };
    at(6, "script `missing.lua` not found");
    at(
        7,
        "must be a path relative to the set's folder, inside the search path",
    );
    at(8, "is not a Lua file");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("cardsets/mini/core/broken.lua:") && l.contains("syntax")),
        "{lines:#?}"
    );
}
