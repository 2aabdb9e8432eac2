//! The card database export of the repository's three games: it round-trips through JSON
//! and SQLite, says what the engine says, is the same bytes every time, keeps its ids, and
//! matches its published schema.

use std::path::{Path, PathBuf};
use std::rc::Rc;

use riffle_content::database::{self, CardDatabase, json, sqlite};
use riffle_content::{LoadOptions, LoadedGame, Loader};
use riffle_core::{Engine, Options};

const GAMES: [&str; 3] = ["gundam", "onepiece", "summoner-master"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn load(game: &str) -> LoadedGame {
    Loader::new(vec![root()])
        .load_valid(game, LoadOptions { records: true })
        .unwrap_or_else(|e| panic!("{e}"))
}

fn export(game: &str) -> (LoadedGame, Rc<Engine>, CardDatabase) {
    let loaded = load(game);
    let engine = Engine::new(&loaded.content).unwrap_or_else(|es| panic!("{}", es[0]));
    let db = database::build_with(&loaded, &engine).unwrap();
    (loaded, engine, db)
}

#[test]
fn the_export_round_trips_through_json_and_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    for game in GAMES {
        let (_, _, db) = export(game);
        let back = json::from_slice(&json::to_bytes(&db)).unwrap();
        assert_eq!(back, db, "{game}: JSON");
        let path = dir.path().join(format!("{game}.sqlite"));
        std::fs::write(&path, sqlite::to_bytes(&db).unwrap()).unwrap();
        let back = sqlite::read(&path).unwrap();
        assert_eq!(back, db, "{game}: SQLite");
        assert_eq!(sqlite::format_version(&path).unwrap(), Some(1));
    }
}

#[test]
fn the_export_says_what_the_engine_says() {
    for game in GAMES {
        let (loaded, engine, db) = export(game);
        let ids: Vec<&str> = engine.card_ids().collect();
        assert_eq!(ids.len(), db.cards.len(), "{game}: every card, once");
        for id in ids {
            let def = engine.card_def(id).unwrap();
            let c = db.card(id).unwrap_or_else(|| panic!("{game}: no {id}"));
            assert_eq!(c.category, def.category);
            assert_eq!(c.name.len(), def.name.len(), "{id}");
            for (lang, name) in &def.name {
                assert_eq!(c.name.get(lang), Some(name), "{id} {lang}");
            }
            for (field, v) in &def.fields {
                assert_eq!(c.fields.get(field), Some(v), "{id} {field}");
            }
            assert_eq!(c.fields.len(), def.fields.len(), "{id}");
            let kws: Vec<(String, i64)> = def
                .keywords
                .iter()
                .map(|k| (k.parts().0.to_string(), k.parts().1))
                .collect();
            let exported: Vec<(String, i64)> = c
                .keywords
                .iter()
                .map(|k| (k.name.clone(), k.value.unwrap_or(0)))
                .collect();
            assert_eq!(exported, kws, "{id}");
            let legality = engine.card_legality(id, &Options::new()).unwrap().unwrap();
            let l = c.legality.as_ref().unwrap();
            assert_eq!(
                (l.copies, l.by.as_str(), l.banned),
                (legality.copies, legality.by.as_str(), legality.banned),
                "{id}"
            );
            assert!(!c.printings.is_empty(), "{id}: every card has a printing");
            assert_eq!(c.set, loaded.records[id].set);
        }
        assert_eq!(db.content_hash, loaded.manifest.hash);
        assert_eq!(db.game.id, game);
        let in_sets: u32 = db.sets.iter().map(|s| s.cards).sum();
        assert_eq!(
            in_sets as usize,
            db.cards.len(),
            "{game}: every card is in a set"
        );
    }
}

#[test]
fn deck_limits_and_playability_are_told_per_game() {
    let (_, _, op) = export("onepiece");
    let leader = op.card("RF01-001").unwrap();
    assert_eq!(leader.legality.as_ref().unwrap().copies, Some(1));
    let vanilla = op.card("RF01-061").unwrap();
    assert_eq!(vanilla.playability, "vanilla");
    assert_eq!(vanilla.legality.as_ref().unwrap().copies, Some(4));
    assert!(op.cards.iter().any(|c| c.playability == "scripted"));
    assert!(op.cards.iter().any(|c| c.playability == "keywords"));
    // SM 620.5: the banned card, counted by name.
    let (_, _, sm) = export("summoner-master");
    let banned = sm.card("SM03-017").unwrap().legality.clone().unwrap();
    assert!(banned.banned, "{banned:?}");
    assert_eq!(banned.by, "name");
    assert!(sm.languages.contains(&"th".to_string()));
    // OP zones and keywords come with what they mean.
    let life = op.names.zones.iter().find(|z| z.name == "life").unwrap();
    assert!(life.doc.starts_with("OP 3-10"), "{}", life.doc);
    let blocker = op
        .names
        .keywords
        .iter()
        .find(|k| k.name == "blocker")
        .unwrap();
    assert_eq!(
        blocker.text.get("en").map(String::as_str),
        Some("[Blocker]")
    );
}

#[test]
fn exporting_twice_gives_the_same_bytes() {
    for game in GAMES {
        let (_, _, a) = export(game);
        let (_, _, b) = export(game);
        assert_eq!(json::to_bytes(&a), json::to_bytes(&b), "{game}: JSON");
        assert_eq!(
            sqlite::to_bytes(&a).unwrap(),
            sqlite::to_bytes(&b).unwrap(),
            "{game}: SQLite"
        );
    }
}

#[test]
fn the_files_and_their_checksums_are_written_whole() {
    let dir = tempfile::tempdir().unwrap();
    let (_, _, db) = export("gundam");
    let path = dir.path().join("gundam.json");
    let sum = database::write(&db, database::Format::Json, &path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(
        std::fs::read_to_string(&sum).unwrap(),
        database::sha256_line(&bytes, "gundam.json")
    );
    // sha256sum's own format: 64 hex digits, two spaces, the file name.
    let line = std::fs::read_to_string(&sum).unwrap();
    assert_eq!(line.len(), 64 + 2 + "gundam.json".len() + 1, "{line}");
    // A destination that is a folder is refused before anything is written.
    let folder = dir.path().join("taken");
    std::fs::create_dir(&folder).unwrap();
    assert!(database::write(&db, database::Format::Json, &folder).is_err());
    assert!(!dir.path().join("taken.sha256").exists());
}

#[test]
fn the_json_export_matches_its_published_schema() {
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("schema/card-database.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::options().build(&schema).unwrap();
    for game in GAMES {
        let (_, _, db) = export(game);
        let v: serde_json::Value = serde_json::from_slice(&json::to_bytes(&db)).unwrap();
        let errors: Vec<String> = validator.iter_errors(&v).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{game}: {errors:#?}");
    }
}

#[test]
fn a_database_of_another_format_or_version_is_refused() {
    let (_, _, db) = export("gundam");
    let mut v: serde_json::Value = serde_json::from_slice(&json::to_bytes(&db)).unwrap();
    v["format_version"] = 2.into();
    let err = json::from_slice(&serde_json::to_vec(&v).unwrap()).unwrap_err();
    assert!(err.contains("reads version 1"), "{err}");
    v["format"] = "something else".into();
    let err = json::from_slice(&serde_json::to_vec(&v).unwrap()).unwrap_err();
    assert!(err.contains("not a Riffle card database"), "{err}");
}

/// The ids a client keeps (sets, cards, printings) must not change under it: a change here
/// is a change to every client's saved decks and collections. After a deliberate change (a
/// new card, a renamed set), rewrite the file with `RIFFLE_BLESS=1 cargo test -p
/// riffle-content --test database` and say why in the commit.
#[test]
fn ids_are_stable() {
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/database-ids.txt");
    let mut now = String::new();
    for game in GAMES {
        let (_, _, db) = export(game);
        for id in db.ids() {
            now.push_str(&format!("{game} {id}\n"));
        }
    }
    if std::env::var_os("RIFFLE_BLESS").is_some() {
        std::fs::write(&golden, &now).unwrap();
        return;
    }
    let before = std::fs::read_to_string(&golden).unwrap_or_default();
    let old: Vec<&str> = before.lines().collect();
    let new: Vec<&str> = now.lines().collect();
    let gone: Vec<&&str> = old.iter().filter(|l| !new.contains(l)).collect();
    let added: Vec<&&str> = new.iter().filter(|l| !old.contains(l)).collect();
    assert!(
        gone.is_empty() && added.is_empty(),
        "ids changed: gone {gone:?}, new {added:?}; if deliberate, run with RIFFLE_BLESS=1 and say why in the commit"
    );
    assert_eq!(before, now, "same ids, in another order");
}
