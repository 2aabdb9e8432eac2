//! The JSON Schemas: generated ones are fresh; hand-written ones compile and say what the
//! rules say.

use std::path::{Path, PathBuf};

use riffle_content::schema::{
    FileKind, Schemas, generated_schemas, render, schema_id, stale_schemas,
};
use riffle_content::yaml;

fn schema_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("schema")
}

#[test]
fn schemas_are_fresh() {
    let stale = stale_schemas(&schema_dir());
    assert!(
        stale.is_empty(),
        "schema/{} out of date with the Rust types: run `cargo run -p riffle -- schema --write`",
        stale.join(", schema/")
    );
}

#[test]
fn protocol_schemas_are_fresh() {
    let stale = riffle_host::schema::stale_protocol_schemas(&schema_dir().join("protocol"));
    assert!(
        stale.is_empty(),
        "schema/protocol/{} out of date with the host's messages: run `cargo run -p riffle -- schema --write`",
        stale.join(", schema/protocol/")
    );
}

#[test]
fn generated_schemas_are_stable_and_identified() {
    for (name, v) in generated_schemas() {
        assert_eq!(v["$id"], schema_id(name));
        assert_eq!(v["$schema"], "https://json-schema.org/draft/2020-12/schema");
        let text = render(&v);
        assert!(text.ends_with("}\n"));
        assert_eq!(
            text,
            render(
                &generated_schemas()
                    .into_iter()
                    .find(|(n, _)| *n == name)
                    .unwrap()
                    .1
            )
        );
    }
}

fn onepiece() -> (Schemas, riffle_content::schema::GameCardSchema) {
    let schemas = Schemas::new().unwrap();
    let text = std::fs::read_to_string(schema_dir().join("onepiece/card.schema.json")).unwrap();
    let game = schemas
        .compile_game_card_schema(serde_json::from_str(&text).unwrap())
        .unwrap();
    (schemas, game)
}

fn errors(card: &str) -> Vec<String> {
    let (schemas, game) = onepiece();
    let doc = yaml::parse(card).unwrap();
    schemas
        .check(FileKind::Card, Some(&game), &doc)
        .into_iter()
        .map(|e| format!("{}:{}: {}: {}", e.pos.line, e.pos.col, e.pointer, e.message))
        .collect()
}

#[test]
fn onepiece_schema_accepts_each_category() {
    for card in [
        "id: L\ncategory: leader\nname: {en: Luffy}\ncolors: [red]\npower: 5000\nlife: 5\nattributes: [strike]\ntypes: [Straw Hat Crew]",
        "id: C\ncategory: character\nname: {en: Zoro}\ncolors: [green]\ncost: 3\npower: 5000\ncounter: 1000\nattributes: [slash]\nkeywords: [rush]\nrarity: SR",
        "id: E\ncategory: event\nname: {en: Gum-Gum}\ncolors: [red, green]\ncost: 1\ntrigger: {en: Draw 1 card.}\ndeck_limit: 1",
        "id: S\ncategory: stage\nname: {en: Sunny}\ncolors: [blue]\ncost: 2\nprintings: [{code: S-P1, rarity: P}]",
        "id: D\ncategory: don\nname: {en: DON!!}",
        "id: D2\ncategory: don\nname: {en: DON!!}\ncolors: []",
    ] {
        assert_eq!(errors(card), Vec::<String>::new(), "{card}");
    }
}

#[test]
fn onepiece_schema_rejects_what_the_rules_forbid() {
    let e = errors("id: L\ncategory: leader\nname: {en: L}\ncolors: [red]\npower: 5000\ncost: 1");
    assert!(
        e.iter()
            .any(|m| m.contains("/life") || m.contains("`life`")),
        "{e:?}"
    );
    assert!(
        e.iter()
            .any(|m| m.contains("`cost` is not allowed on a `leader` card")),
        "{e:?}"
    );

    let e = errors(
        "id: E\ncategory: event\nname: {en: E}\ncolors: [red]\ncost: 1\npower: 1000\ncounter: 1000",
    );
    assert_eq!(e.len(), 2, "{e:?}");

    let e = errors(
        "id: C\ncategory: character\nname: {en: C}\ncolors: [red, blue, green]\ncost: -1\npower: 1\nlife: 1",
    );
    assert!(
        e.iter()
            .any(|m| m.starts_with("4:9: /colors: has more than 2")),
        "{e:?}"
    );
    assert!(
        e.iter()
            .any(|m| m.starts_with("5:7: /cost: -1 is less than the minimum of 0")),
        "{e:?}"
    );
    assert!(
        e.iter().any(|m| m.contains("`life` is not allowed")),
        "{e:?}"
    );

    let e = errors(
        "id: C\ncategory: character\nname: {en: C}\ncolors: [rde]\ncost: 1\npower: 1\nattributes: [slahs]\ncolour: red",
    );
    assert!(e.iter().any(|m| m.contains("did you mean `red`")), "{e:?}");
    assert!(
        e.iter().any(|m| m.contains("did you mean `slash`")),
        "{e:?}"
    );
    assert!(
        e.iter()
            .any(|m| m.starts_with("8:1: /colour: unknown field `colour`: did you mean `colors`?")),
        "{e:?}"
    );

    let e = errors("id: C\ncategory: character\nname: {en: C}\ncolors: []\ncost: 1\npower: 1");
    assert!(
        e.iter().any(|m| m.contains("/colors: needs at least 1")),
        "{e:?}"
    );

    let e = errors("id: X\ncategory: villain\nname: {en: X, EN: Y}");
    assert!(e.iter().any(|m| m.contains("/category")), "{e:?}");
    assert!(
        e.iter().any(|m| m.contains("`EN` is not a language tag")),
        "{e:?}"
    );
}

#[test]
fn every_schema_file_compiles() {
    let schemas = Schemas::new().unwrap();
    for entry in std::fs::read_dir(schema_dir()).unwrap() {
        let game_dir = entry.unwrap().path();
        let file = game_dir.join("card.schema.json");
        if game_dir.is_dir() && file.is_file() {
            let v = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
            if let Err(e) = schemas.compile_game_card_schema(v) {
                panic!("{}: {e}", file.display());
            }
        }
    }
}

#[test]
fn game_schemas_are_never_fetched_from_the_network() {
    let schemas = Schemas::new().unwrap();
    for bad in [
        serde_json::json!({"$id": "https://example.invalid/riffle/schema/x/card.schema.json",
                           "$ref": "https://example.com/elsewhere.json"}),
        serde_json::json!({"$id": "https://example.invalid/riffle/schema/x/card.schema.json",
                           "$schema": "https://example.com/my-meta-schema"}),
        serde_json::json!({"type": "object"}),
        serde_json::json!({"$id": "https://example.invalid/riffle/schema/x/card.schema.json",
                           "type": 12}),
    ] {
        let started = std::time::Instant::now();
        assert!(
            schemas.compile_game_card_schema(bad.clone()).is_err(),
            "{bad}"
        );
        assert!(started.elapsed().as_secs() < 5);
    }
}
