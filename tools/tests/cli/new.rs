//! `riffle new set` and `riffle new card`, run as a designer would: in a mod folder, for every
//! category of every game, the files validate at once and each scenario fails, saying that it
//! is to be written; existing files are never replaced.

use std::path::{Path, PathBuf};

use super::{riffle, stderr, stdout};
use crate::common::{Fixture, repo};
use riffle::scaffold::header;
use riffle_content::load_game;

const GAMES: [&str; 3] = ["onepiece", "gundam", "summoner-master"];

fn categories(game: &str) -> Vec<String> {
    let load = load_game(&[repo()], game);
    load.content
        .expect("the game loads")
        .ruleset
        .manifest
        .categories
}

fn run_ok(args: &[&str]) -> String {
    let out = riffle(&repo(), args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "riffle {}:\n{}{}",
        args.join(" "),
        stdout(&out),
        stderr(&out)
    );
    stdout(&out)
}

/// The schema a scaffolded file's header leads to, from the file's own folder.
fn header_target(file: &Path) -> PathBuf {
    let text = std::fs::read_to_string(file).unwrap();
    let first = text.lines().next().unwrap();
    let rel = first
        .strip_prefix(header::PREFIX)
        .unwrap_or_else(|| panic!("{}: no schema header: {first}", file.display()));
    file.parent().unwrap().join(rel).canonicalize().unwrap()
}

#[test]
fn every_category_of_every_game_validates_at_once_and_its_scenario_waits_to_be_written() {
    let tmp = Fixture::empty();
    let m = tmp.dir.join("my-mod");
    let ms = m.to_str().unwrap();
    let mut cards = 0;
    for game in GAMES {
        let out = run_ok(&[
            "new",
            "set",
            game,
            "Zq9",
            "--into",
            ms,
            "--name",
            "Scaffolded",
        ]);
        let set = m.join(format!("cardsets/{game}/zq9"));
        assert!(
            out.contains(&format!("created {ms}/cardsets/{game}/zq9/set.yaml")),
            "{out}"
        );
        // Item 17 of issue #26: a mod's headers name the copies it carries, not the checkout.
        assert_eq!(
            header_target(&set.join("set.yaml")),
            m.join("editor/schema/set.schema.json")
                .canonicalize()
                .unwrap()
        );
        let set_yaml = std::fs::read_to_string(set.join("set.yaml")).unwrap();
        assert!(set_yaml.contains("\nid: ZQ9\n"), "{set_yaml}");
        for (i, category) in categories(game).iter().enumerate() {
            let id = format!("ZQ9-{:03}", i + 1);
            let out = run_ok(&[
                "new",
                "card",
                set.to_str().unwrap(),
                &id,
                "--category",
                category,
            ]);
            let yaml = set.join(format!("{id}.yaml"));
            assert!(
                out.contains(&format!("created {}", yaml.display())),
                "{out}"
            );
            assert_eq!(
                header_target(&yaml),
                m.join(format!("editor/schema/{game}.card.schema.json"))
                    .canonicalize()
                    .unwrap(),
                "{id}"
            );
            assert_eq!(
                header_target(&set.join(format!("{id}.test.yaml"))),
                m.join("editor/schema/scenario.schema.json")
                    .canonicalize()
                    .unwrap()
            );
            let text = std::fs::read_to_string(&yaml).unwrap();
            assert!(
                text.contains(&format!("\ncategory: {category}\n")),
                "{text}"
            );
            cards += 1;
        }
    }
    // Valid at once: no error, no warning.
    let cardsets = m.join("cardsets");
    let out = riffle(
        &repo(),
        &["validate", "--mod", ms, cardsets.to_str().unwrap()],
    );
    let all = format!("{}{}", stdout(&out), stderr(&out));
    assert_eq!(out.status.code(), Some(0), "{all}");
    assert!(
        all.contains(&format!(
            "validated 3 games, 3 sets, {cards} cards, 0 decks: no errors"
        )),
        "{all}"
    );
    assert!(!all.contains("warning"), "{all}");
    // Every new scenario runs and fails, saying what to do: none passes unwritten.
    let out = riffle(&repo(), &["test", "--mod", ms]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert!(
        text.ends_with(&format!("0 passed, {cards} failed\n")),
        "{text}"
    );
    let told = text
        .lines()
        .filter(|l| {
            l.contains("to be written (remove `todo:` once it is): check what ZQ9-")
                && l.contains("docs/scenarios.md")
        })
        .count();
    assert_eq!(told, cards, "{text}");
    headers_stay_inside_when_the_mod_moves(&m, &tmp.dir.join("moved/elsewhere/shared-mod"));
}

/// Moves the mod folder `m` to `to`: every YAML file's header still leads to a schema inside
/// the mod, every schema it carries finds the files it refers to there, and each copy is the
/// repository's schema (the game card schema: its editor copy, references made siblings).
fn headers_stay_inside_when_the_mod_moves(m: &Path, to: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::rename(m, to).unwrap();
    let root = to.canonicalize().unwrap();
    let mut checked = 0;
    for (rel, _) in listing(to) {
        let file = to.join(&rel);
        if rel.extension().is_some_and(|e| e == "yaml") {
            let target = header_target(&file);
            assert!(
                target.starts_with(&root),
                "{}: {}",
                rel.display(),
                target.display()
            );
            checked += 1;
        }
        if rel.extension().is_some_and(|e| e == "json") {
            let v: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
            let mut refs = Vec::new();
            file_refs(&v, &mut refs);
            for r in refs {
                let target = file.parent().unwrap().join(&r);
                assert!(
                    target.is_file(),
                    "{}: $ref {r} leads nowhere",
                    rel.display()
                );
            }
            let name = rel.file_name().unwrap().to_str().unwrap();
            let original = match name.strip_suffix(".card.schema.json") {
                Some(_) => repo().join("editor/schema").join(name),
                None => repo().join("schema").join(name),
            };
            let original: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(original).unwrap()).unwrap();
            assert_eq!(v.get("properties"), original.get("properties"), "{name}");
        }
    }
    assert!(checked > 3, "{checked}");
}

/// The `$ref`s of `v` that name another file.
fn file_refs(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                match x.as_str() {
                    Some(r) if k == "$ref" && !r.starts_with('#') => out.push(r.to_string()),
                    _ => file_refs(x, out),
                }
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| file_refs(x, out)),
        _ => {}
    }
}

#[test]
fn a_category_whose_every_card_has_a_script_gets_one_and_script_asks_for_one() {
    let tmp = Fixture::empty();
    let m = tmp.dir.join("m");
    let ms = m.to_str().unwrap();
    run_ok(&["new", "set", "onepiece", "QX", "--into", ms]);
    let set = m.join("cardsets/onepiece/qx");
    let sets = set.to_str().unwrap();
    // Every One Piece Event of the repository has a script: a new one gets one too.
    let out = run_ok(&["new", "card", sets, "QX-001", "--category", "event"]);
    assert!(
        out.contains("QX-001.lua (every event of the game has a script"),
        "{out}"
    );
    // Characters do not all have one: only with --script.
    run_ok(&["new", "card", sets, "QX-002", "--category", "character"]);
    assert!(!set.join("QX-002.lua").exists());
    run_ok(&[
        "new",
        "card",
        sets,
        "QX-003",
        "--category",
        "character",
        "--name",
        "Gull Scout",
        "--script",
    ]);
    let lua = std::fs::read_to_string(set.join("QX-003.lua")).unwrap();
    assert!(lua.starts_with("-- QX-003 Gull Scout\n"), "{lua}");
    // The example is a Character of the guide, commented out; the card itself is empty.
    assert!(lua.contains("from docs/scripting.md:\n"), "{lua}");
    assert!(lua.contains("(character)"), "{lua}");
    assert!(lua.contains("--   return card {\n"), "{lua}");
    assert!(lua.ends_with("\nreturn card {\n}\n"), "{lua}");
    let out = riffle(&repo(), &["validate", "--mod", ms, ms]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

#[test]
fn nothing_is_replaced_and_bad_names_are_refused_with_the_reason() {
    let tmp = Fixture::empty();
    let m = tmp.dir.join("m");
    let ms = m.to_str().unwrap();
    run_ok(&["new", "set", "onepiece", "QY", "--into", ms]);
    let set = m.join("cardsets/onepiece/qy");
    let sets = set.to_str().unwrap();
    let refused = |args: &[&str], says: &[&str]| {
        let before = listing(&m);
        let out = riffle(&repo(), args);
        let err = stderr(&out);
        assert_eq!(
            out.status.code(),
            Some(2),
            "riffle {}: {err}",
            args.join(" ")
        );
        assert_eq!(err.lines().count(), 1, "{err}");
        for s in says {
            assert!(
                err.contains(s),
                "riffle {}: expected `{s}` in {err}",
                args.join(" ")
            );
        }
        assert_eq!(
            listing(&m),
            before,
            "riffle {}: wrote something",
            args.join(" ")
        );
    };
    // The set again: same code, in the mod or in the repository.
    refused(
        &["new", "set", "onepiece", "qy", "--into", ms],
        &["already has a set QY"],
    );
    refused(
        &["new", "set", "onepiece", "RF01", "--into", ms],
        &["already has a set RF01", "cardsets/onepiece/rf01"],
    );
    refused(
        &["new", "set", "onepeice", "QZ", "--into", ms],
        &["did you mean `onepiece`?"],
    );
    refused(
        &["new", "set", "onepiece", "Q-Z", "--into", ms],
        &["letters and digits"],
    );
    // A card: wrong set code, bad category, an id the repository has.
    refused(
        &["new", "card", sets, "QZ-001", "--category", "character"],
        &["a card of set QY is `QY-` then letters and digits"],
    );
    refused(
        &["new", "card", sets, "QY-00/1", "--category", "character"],
        &["`QY-` then letters and digits"],
    );
    refused(
        &["new", "card", sets, "QY-001", "--category", "charcter"],
        &["did you mean `character`?", "categories: leader, character"],
    );
    // One of the files exists: nothing is written, not even the others.
    std::fs::write(set.join("QY-001.test.yaml"), "mine\n").unwrap();
    refused(
        &["new", "card", sets, "QY-001", "--category", "character"],
        &["QY-001.test.yaml already exists", "nothing written"],
    );
    assert_eq!(
        std::fs::read_to_string(set.join("QY-001.test.yaml")).unwrap(),
        "mine\n"
    );
    std::fs::remove_file(set.join("QY-001.test.yaml")).unwrap();
    run_ok(&["new", "card", sets, "QY-001", "--category", "character"]);
    refused(
        &["new", "card", sets, "QY-001", "--category", "leader"],
        &["QY-001 is already a card of onepiece"],
    );
    // Not a set folder.
    refused(
        &["new", "card", ms, "QY-002", "--category", "character"],
        &["set.yaml", "riffle new set"],
    );
}

/// Every file under `dir` with its text, sorted.
fn listing(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let text = std::fs::read_to_string(&p).unwrap_or_default();
                out.push((p, text));
            }
        }
    }
    out.sort();
    out
}

/// Every content file of the repository's `cardsets/` starts with the schema header `riffle
/// new` writes, pointing at its kind's schema, so that an editor checks it as it is typed.
#[test]
fn every_content_file_of_the_repository_names_its_schema() {
    let root = repo();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for (path, text) in listing(&root.join("cardsets")) {
        let rel = path.strip_prefix(&root).unwrap();
        if header::schema_for(rel).is_none() {
            continue;
        }
        checked += 1;
        if let Err(e) = header::check(&root, rel, &text) {
            wrong.push(e);
        }
    }
    assert!(checked > 700, "only {checked} content files found");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // And the check notices a wrong one.
    let rel = Path::new("cardsets/gundam/gx01/GX01-001.yaml");
    let e = header::check(
        &root,
        rel,
        "# yaml-language-server: $schema=../../../editor/schema/onepiece.card.schema.json\nid: GX01-001\n",
    )
    .unwrap_err();
    assert!(
        e.contains("names ../../../editor/schema/onepiece.card.schema.json, not editor/schema/gundam.card.schema.json")
            && e.contains("make the first line `# yaml-language-server: $schema=../../../editor/schema/gundam.card.schema.json`"),
        "{e}"
    );
    let e = header::check(&root, rel, "id: GX01-001\n").unwrap_err();
    assert!(
        e.starts_with(
            "cardsets/gundam/gx01/GX01-001.yaml:1:1: its first line is not a schema header"
        ),
        "{e}"
    );
}

/// Issue #27 item 6: a set id that could climb out of the set folder (`../`, absolute) is
/// refused by `riffle new card` (which names the card's files after it) and by `validate`.
#[test]
fn a_set_id_that_climbs_out_is_refused_and_nothing_is_written() {
    let tmp = Fixture::empty();
    let m = tmp.dir.join("my-mod");
    let set = m.join("cardsets/onepiece/zz");
    std::fs::create_dir_all(&set).unwrap();
    for bad in ["../../../escape", "/tmp/escape", "ZZ/../../x"] {
        std::fs::write(
            set.join("set.yaml"),
            format!("game: onepiece\nid: \"{bad}\"\nname: {{en: Z}}\nversion: \"1\"\n"),
        )
        .unwrap();
        let card = format!("{bad}-001");
        let out = riffle(
            &repo(),
            &[
                "new",
                "card",
                set.to_str().unwrap(),
                &card,
                "--category",
                "character",
            ],
        );
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", stdout(&out));
        assert!(
            stderr(&out).contains("is not a set id"),
            "{bad}: {}",
            stderr(&out)
        );
        let files: Vec<_> = listing(&tmp.dir).into_iter().map(|(p, _)| p).collect();
        assert_eq!(files, [set.join("set.yaml")], "{bad}");
        let out = riffle(&repo(), &["validate", "--mod", m.to_str().unwrap()]);
        let all = format!("{}{}", stdout(&out), stderr(&out));
        assert_eq!(out.status.code(), Some(1), "{bad}: {all}");
        assert!(
            all.contains("set.yaml") && all.contains("/id"),
            "{bad}: {all}"
        );
    }
}
