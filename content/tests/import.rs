//! Importing the public datasets' layouts (made-up cards in `fixtures/datasets/`) into
//! content that validates, merging languages and printings; importing again keeps what
//! people changed; bad input is refused at its file and line with nothing written.

use std::path::{Path, PathBuf};

use riffle_content::import::{self, ChangeKind, Dataset, LOCK_FILE};
use riffle_content::{LoadOptions, LoadedGame, Loader};
use serde_json::{Value, json};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/datasets")
        .join(name)
}

fn ruleset(game: &str) -> LoadedGame {
    Loader::new(vec![root()])
        .load_valid(game, LoadOptions::default())
        .unwrap()
}

/// Reads a dataset and marks its cards, as `riffle import` does.
fn read(game: &str, path: &Path, into: &Path) -> Dataset {
    let base = ruleset(game);
    let m = &base.content.ruleset.manifest;
    let mut data = match game {
        "onepiece" => import::punk_records::read(path, &m.names.printed),
        _ => import::gcg_api::read(path, m),
    }
    .unwrap_or_else(|e| panic!("{e:#?}"));
    let dir = import::game_dir(into, game);
    import::prepare(&mut data, m, &base.card_fields, |id, set| {
        dir.join(set).join(format!("{id}.lua")).is_file()
    });
    data
}

fn import_into(game: &str, path: &Path, into: &Path) -> import::Applied {
    let data = read(game, path, into);
    import::apply(&data, into).unwrap_or_else(|e| panic!("{e:#?}"))
}

/// The imported content, loaded over the repository's as a mod, with no error.
fn load_over(game: &str, into: &Path) -> LoadedGame {
    Loader::new(vec![root(), into.to_path_buf()])
        .load_valid(game, LoadOptions { records: true })
        .unwrap_or_else(|e| panic!("{e}"))
}

fn card_yaml(into: &Path, game: &str, set: &str, id: &str) -> Value {
    let path = import::game_dir(into, game)
        .join(set)
        .join(format!("{id}.yaml"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    riffle_content::yaml::parse(&text).unwrap().value
}

#[test]
fn one_piece_cards_merge_every_language_and_printing() {
    let tmp = tempfile::tempdir().unwrap();
    let into = tmp.path();
    let data = read("onepiece", &fixture("punk-records"), into);
    // The Japanese-only promotion has no English name for the rules: left out, and told.
    assert!(data.cards.iter().all(|c| c.id != "P-900"));
    assert!(
        data.notes.iter().any(|n| n.contains("P-900")),
        "{:?}",
        data.notes
    );
    let applied = import::apply(&data, into).unwrap();
    assert!(applied.first);
    let game = load_over("onepiece", into);

    let leader = card_yaml(into, "onepiece", "OP01", "OP01-001");
    assert_eq!(
        leader["name"],
        json!({"en": "Captain Testa", "ja": "キャプテン・テスタ", "th": "Captain Testa"})
    );
    assert_eq!(
        leader["life"], 5,
        "OP 2-9: a Leader's life is printed as its cost"
    );
    assert!(leader.get("cost").is_none());
    assert_eq!(
        leader["text"]["ja"],
        "【自分のターン中】自分のキャラすべてを、パワー+1000。"
    );
    assert_eq!(leader["needs_script"], true);

    // A parallel and a promotion reprint are printings of one card; "(Parallel)" is the
    // printing's mark, not the card's name.
    let pete = card_yaml(into, "onepiece", "OP01", "OP01-002");
    assert!(pete.get("needs_script").is_none() && pete.get("text").is_none());
    let codes: Vec<&str> = pete["printings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["OP01-002", "OP01-002_p1", "OP01-002_p2"]);
    assert_eq!(pete["printings"][1]["alternate"], true);
    assert_eq!(pete["printings"][2]["product"], "Promotion card");
    assert_eq!(pete["name"]["th"], "Plain Pete");

    // Keywords the text gives become data; a keyword-only card needs no script.
    let walda = card_yaml(into, "onepiece", "OP01", "OP01-003");
    assert_eq!(walda["keywords"], json!(["blocker"]));
    assert!(walda.get("needs_script").is_none());
    // A [Trigger] is an ability's text too (x-ability-text): the Event needs a script; its
    // cost, written null by the dataset, is 0.
    let splash = card_yaml(into, "onepiece", "OP01", "OP01-004");
    assert_eq!(splash["trigger"]["en"], "[Trigger] Draw 1 card.");
    assert_eq!(splash["cost"], 0);
    assert_eq!(splash["needs_script"], true);
    // HTML entities decoded; the promotion set takes its pack's title.
    let polly = card_yaml(into, "onepiece", "P", "P-001");
    assert_eq!(polly["name"]["en"], "Promo & Polly");
    assert_eq!(polly["types"], json!(["Navy & Friends"]));
    assert_eq!(polly["power"], 0);
    let set = game.sets.iter().find(|s| s.id == "OP01").unwrap();
    assert_eq!(set.name.get("en").map(String::as_str), Some("TEST WAVES"));
    assert_eq!(
        set.name.get("ja").map(String::as_str),
        Some("ブースターパック TEST WAVES")
    );
    assert_eq!(set.version, "2026-07-17");

    let mut marked = game.needs_script.clone();
    marked.retain(|id| id.starts_with("OP01") || id.starts_with("P-"));
    assert_eq!(marked, ["OP01-001", "OP01-004"]);
}

#[test]
fn gundam_cards_keep_keywords_tokens_links_and_rulings() {
    let tmp = tempfile::tempdir().unwrap();
    let into = tmp.path();
    import_into("gundam", &fixture("gcg-api/data/cards.ndjson"), into);
    let game = load_over("gundam", into);
    let wall = card_yaml(into, "gundam", "TS01", "TS01-001");
    // The dataset's ASCII <Blocker> is written as the cards print it.
    assert!(
        wall["text"]["en"]
            .as_str()
            .unwrap()
            .starts_with("〈Blocker〉 (Rest")
    );
    assert_eq!(wall["keywords"], json!(["blocker"]));
    assert!(wall.get("needs_script").is_none());
    assert_eq!(wall["rulings"][0]["id"], "Q901");
    assert_eq!(wall["rulings"][0]["date"], "2025-07-11");
    let runner = card_yaml(into, "gundam", "TS01", "TS01-002");
    assert_eq!(
        runner["link"],
        json!({"pilots": ["Test Pilot"], "traits": ["Test Force"]})
    );
    assert_eq!(runner["terrain"], json!(["space"]));
    assert_eq!(runner["printings"][1]["set"], "TSP");
    let order = card_yaml(into, "gundam", "TS01", "TS01-004");
    assert_eq!(order["pilot"], json!({"name": {"en": "Order Pilot"}}));
    assert!(
        order["text"]["en"]
            .as_str()
            .unwrap()
            .contains("〈Repair 2〉")
    );
    assert_eq!(order["needs_script"], true);
    // [Suppression] in square brackets too; a Base's AP written null is 0.
    let dock = card_yaml(into, "gundam", "TS01", "TS01-005");
    assert_eq!(dock["keywords"], json!(["suppression"]));
    assert_eq!(dock["ap"], 0);
    let drone = card_yaml(into, "gundam", "T", "T-001");
    assert_eq!(
        (drone["token"].clone(), drone["lv"].clone()),
        (json!(true), json!(0))
    );
    assert!(drone.get("colors").is_none());
    let resource = card_yaml(into, "gundam", "R", "R-001");
    assert!(resource.get("needs_script").is_none(), "reminder text only");
    let pilot = card_yaml(into, "gundam", "TS01", "TS01-003");
    assert_eq!(pilot["colors"], json!(["purple"]));
    let tsp = game.sets.iter().find(|s| s.id == "TSP").unwrap();
    assert_eq!(
        tsp.name.get("en").map(String::as_str),
        Some("Test Promotion")
    );
    assert_eq!(game.records["TS01-001"].rulings.len(), 1);
}

#[test]
fn importing_again_changes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let into = tmp.path();
    import_into("onepiece", &fixture("punk-records"), into);
    let snapshot = tree(into);
    let again = import_into("onepiece", &fixture("punk-records"), into);
    assert!(!again.first);
    assert!(again.written.is_empty(), "{:?}", again.written);
    assert!(again.changes.is_empty(), "{:?}", again.changes);
    assert_eq!(tree(into), snapshot);
}

/// Every file under `dir` with its bytes and modification time.
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>, std::time::SystemTime)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                let m = std::fs::metadata(&p).unwrap().modified().unwrap();
                out.push((p.clone(), std::fs::read(&p).unwrap(), m));
            }
        }
    }
    out.sort();
    out
}

/// A copy of a fixture dataset to change.
fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.path().is_dir() {
            copy(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), dest).unwrap();
        }
    }
}

fn edit_json(path: &Path, f: impl FnOnce(&mut Value)) {
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    f(&mut v);
    std::fs::write(path, serde_json::to_string(&v).unwrap()).unwrap();
}

#[test]
fn importing_again_takes_errata_and_new_printings_and_keeps_what_people_wrote() {
    let tmp = tempfile::tempdir().unwrap();
    let (src, into) = (tmp.path().join("src"), tmp.path().join("mod"));
    copy(&fixture("punk-records"), &src);
    import_into("onepiece", &src, &into);
    let dir = import::game_dir(&into, "onepiece").join("OP01");

    // A person gives Plain Pete another power, and writes Captain Testa's script.
    let pete_path = dir.join("OP01-002.yaml");
    let edited = std::fs::read_to_string(&pete_path)
        .unwrap()
        .replace("power: 3000", "power: 3500")
        .replace("id: OP01-002", "# balanced for our league\nid: OP01-002");
    std::fs::write(&pete_path, &edited).unwrap();
    let script = "return card {\n  -- [Your Turn] All of your Characters gain +1000 power.\n}\n";
    std::fs::write(dir.join("OP01-001.lua"), script).unwrap();

    // The dataset: an erratum on Wall Walda's power, a new printing of Walda, and a change
    // to Pete's power too.
    edit_json(&src.join("english/data/569101.json"), |v| {
        for c in v.as_array_mut().unwrap() {
            if c["id"] == "OP01-003" {
                c["power"] = json!(5000);
            }
            if c["id"].as_str().unwrap().starts_with("OP01-002") {
                c["power"] = json!(2000);
            }
        }
        let mut alt = v[3].clone();
        alt["id"] = json!("OP01-003_p1");
        v.as_array_mut().unwrap().push(alt);
    });
    let again = import_into("onepiece", &src, &into);
    let kinds = |k: ChangeKind| -> Vec<&str> {
        again
            .changes
            .iter()
            .filter(|c| c.kind == k)
            .map(|c| c.id.as_str())
            .collect()
    };
    assert_eq!(
        kinds(ChangeKind::Errata),
        ["OP01-003"],
        "{:#?}",
        again.changes
    );
    assert_eq!(kinds(ChangeKind::NewPrinting), ["OP01-003"]);
    assert_eq!(kinds(ChangeKind::KeptYours), ["OP01-002"]);
    let walda = card_yaml(&into, "onepiece", "OP01", "OP01-003");
    assert_eq!(walda["power"], 5000);
    assert_eq!(walda["printings"][1]["code"], "OP01-003_p1");
    // Pete is as the person left it: their power, their comment, their layout.
    assert_eq!(std::fs::read_to_string(&pete_path).unwrap(), edited);
    // The script is theirs, untouched, and the card no longer needs one.
    assert_eq!(
        std::fs::read_to_string(dir.join("OP01-001.lua")).unwrap(),
        script
    );
    let testa = card_yaml(&into, "onepiece", "OP01", "OP01-001");
    assert!(testa.get("needs_script").is_none(), "{testa}");
    load_over("onepiece", &into);

    // A card file a person deleted stays deleted.
    std::fs::remove_file(dir.join("OP01-004.yaml")).unwrap();
    let third = import_into("onepiece", &src, &into);
    assert!(
        third
            .changes
            .iter()
            .any(|c| c.kind == ChangeKind::LeftDeleted && c.id == "OP01-004")
    );
    assert!(!dir.join("OP01-004.yaml").exists());
}

/// Runs the reader on a broken copy of a fixture: the problems, as `path:line:col: message`.
fn refused(game: &str, make: impl FnOnce(&Path) -> PathBuf) -> Vec<String> {
    let tmp = tempfile::tempdir().unwrap();
    let path = make(tmp.path());
    let base = ruleset(game);
    let m = &base.content.ruleset.manifest;
    let r = match game {
        "onepiece" => import::punk_records::read(&path, &m.names.printed),
        _ => import::gcg_api::read(&path, m),
    };
    r.expect_err("bad input was read")
        .iter()
        .map(|d| d.to_string())
        .collect()
}

fn pretty_pack(dir: &Path, f: impl FnOnce(&mut Value)) -> PathBuf {
    let src = dir.join("src");
    copy(&fixture("punk-records"), &src);
    let file = src.join("english/data/569101.json");
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    f(&mut v);
    std::fs::write(&file, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    src
}

#[test]
fn bad_input_is_refused_at_its_file_and_line() {
    // Malformed JSON: where it breaks.
    let e = refused("onepiece", |d| {
        let src = d.join("src");
        copy(&fixture("punk-records"), &src);
        std::fs::write(
            src.join("english/data/569101.json"),
            "[\n  {\"id\": \"OP01-001\",\n  oops\n]",
        )
        .unwrap();
        src
    });
    assert!(
        e.iter()
            .any(|l| l.contains("569101.json:3:3:") && l.contains("not a list of cards")),
        "{e:#?}"
    );
    // A missing field: the card's line, the field named.
    let e = refused("onepiece", |d| {
        pretty_pack(d, |v| {
            v[1].as_object_mut().unwrap().remove("category");
        })
    });
    assert!(
        e.iter()
            .any(|l| l.contains("569101.json:") && l.contains("missing field `category`")),
        "{e:#?}"
    );
    // An unknown category: the card's line, what is allowed.
    let e = refused("onepiece", |d| {
        pretty_pack(d, |v| v[3]["category"] = json!("Wizard"))
    });
    let line = e
        .iter()
        .find(|l| l.contains("unknown category \"Wizard\""))
        .unwrap_or_else(|| panic!("{e:#?}"));
    assert!(line.contains("569101.json:"), "{line}");
    // The same id twice with other data: both places.
    let e = refused("onepiece", |d| {
        pretty_pack(d, |v| {
            let mut twin = v[1].clone();
            twin["power"] = json!(9000);
            v.as_array_mut().unwrap().push(twin);
        })
    });
    assert!(
        e.iter()
            .any(|l| l.contains("duplicate card id OP01-002: also at")),
        "{e:#?}"
    );
    // A file far too large is refused before it is read.
    let e = refused("onepiece", |d| {
        let src = d.join("src");
        copy(&fixture("punk-records"), &src);
        let f = std::fs::File::create(src.join("english/data/569999.json")).unwrap();
        f.set_len(import::MAX_FILE_BYTES + 1).unwrap();
        src
    });
    assert!(
        e.iter()
            .any(|l| l.contains("569999.json:1:1:") && l.contains("larger than the 64 MiB")),
        "{e:#?}"
    );
    // Gundam: a broken line, an unknown card type, a duplicate printing.
    let e = refused("gundam", |d| {
        let data = d.join("data");
        copy(&fixture("gcg-api/data"), &data);
        let file = data.join("cards.ndjson");
        let mut text = std::fs::read_to_string(&file).unwrap();
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        text.push_str("{\"product_id\": \"TS01-009\"\n");
        text.push_str(
            &lines[0]
                .replace("\"UNIT\"", "\"SPACESHIP\"")
                .replace("TS01-001", "TS01-010"),
        );
        text.push('\n');
        text.push_str(&lines[2].replace("Test Runner", "Another Runner"));
        text.push('\n');
        std::fs::write(&file, text).unwrap();
        file
    });
    assert!(
        e.iter()
            .any(|l| l.contains("cards.ndjson:10:25: a card printing: EOF")),
        "{e:#?}"
    );
    assert!(
        e.iter()
            .any(|l| l.contains("cards.ndjson:11:1: TS01-010: unknown card type \"SPACESHIP\"")),
        "{e:#?}"
    );
    assert!(
        e.iter().any(
            |l| l.contains("cards.ndjson:12:1: duplicate printing id TS01-002: also at line 3")
        ),
        "{e:#?}"
    );
}

#[test]
fn nothing_is_written_when_the_input_is_bad() {
    // The CLI reads everything first; a refused read leaves no folder behind.
    let tmp = tempfile::tempdir().unwrap();
    let into = tmp.path().join("mod");
    let e = refused("onepiece", |d| {
        pretty_pack(d, |v| v[0]["colors"] = json!(["Plaid"]))
    });
    assert!(
        e.iter().any(|l| l.contains("unknown color \"Plaid\"")),
        "{e:#?}"
    );
    assert!(!into.exists());
}

#[test]
fn the_record_of_the_last_import_is_kept_beside_the_cards() {
    let tmp = tempfile::tempdir().unwrap();
    import_into("gundam", &fixture("gcg-api/data/cards.ndjson"), tmp.path());
    let lock = import::game_dir(tmp.path(), "gundam").join(LOCK_FILE);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(lock).unwrap()).unwrap();
    assert_eq!(v["source"], "gcg-api");
    assert_eq!(v["version"], "test-1");
    assert!(v["cards"]["TS01-001"]["fields"]["printings"].is_array());
}

#[test]
fn an_import_writes_only_inside_its_folder() {
    // A record edited to name a file outside the folder is refused before anything is written.
    let tmp = tempfile::tempdir().unwrap();
    let into = tmp.path().join("mod");
    import_into("gundam", &fixture("gcg-api/data/cards.ndjson"), &into);
    let lock = import::game_dir(&into, "gundam").join(LOCK_FILE);
    let text = std::fs::read_to_string(&lock).unwrap();
    std::fs::write(
        &lock,
        text.replace("\"TS01/TS01-001.yaml\"", "\"../../../evil.yaml\""),
    )
    .unwrap();
    std::fs::remove_file(import::game_dir(&into, "gundam").join("TS01/TS01-002.yaml")).unwrap();
    let data = read("gundam", &fixture("gcg-api/data/cards.ndjson"), &into);
    let err = import::apply(&data, &into).unwrap_err();
    assert!(
        err[0]
            .to_string()
            .contains("names \"../../../evil.yaml\" for TS01-001"),
        "{err:?}"
    );
    assert!(!tmp.path().join("evil.yaml").exists());

    // A set folder that is a link to elsewhere is refused, and nothing lands there.
    let into = tmp.path().join("linked");
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::create_dir_all(import::game_dir(&into, "gundam")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, import::game_dir(&into, "gundam").join("TS01")).unwrap();
    let data = read("gundam", &fixture("gcg-api/data/cards.ndjson"), &into);
    let err = import::apply(&data, &into).unwrap_err();
    assert!(
        err.iter()
            .any(|d| d.to_string().contains("a symbolic link")),
        "{err:?}"
    );
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);

    // A dataset's set code or pack label that is not a plain code never names a folder.
    let e = refused("gundam", |d| {
        let data = d.join("data");
        copy(&fixture("gcg-api/data"), &data);
        let file = data.join("cards.ndjson");
        let text = std::fs::read_to_string(&file).unwrap();
        std::fs::write(
            &file,
            text.replacen("\"set_code\": \"TSP\"", "\"set_code\": \"../TSP\"", 1),
        )
        .unwrap();
        file
    });
    assert!(
        e.iter()
            .any(|l| l.contains("set code \"../TSP\" is not a set code")),
        "{e:#?}"
    );
    let tmp2 = tempfile::tempdir().unwrap();
    let src = tmp2.path().join("src");
    copy(&fixture("punk-records"), &src);
    edit_json(&src.join("english/packs.json"), |v| {
        v["569901"]["title_parts"]["label"] = json!("../../PX-01");
    });
    let data = read("onepiece", &src, &tmp2.path().join("mod"));
    assert!(
        data.sets.iter().all(|s| import::is_safe_id(&s.id)),
        "{:?}",
        data.sets
    );
}

#[test]
fn a_folder_holds_one_dataset() {
    let tmp = tempfile::tempdir().unwrap();
    import_into("gundam", &fixture("gcg-api/data/cards.ndjson"), tmp.path());
    // The same folder's record is of gcg-api: punk-records' cards go elsewhere.
    let lock = import::game_dir(tmp.path(), "gundam").join(LOCK_FILE);
    let moved = import::game_dir(tmp.path(), "onepiece").join(LOCK_FILE);
    std::fs::create_dir_all(moved.parent().unwrap()).unwrap();
    std::fs::copy(&lock, &moved).unwrap();
    let data = read("onepiece", &fixture("punk-records"), tmp.path());
    let err = import::apply(&data, tmp.path()).unwrap_err();
    assert!(
        err[0]
            .to_string()
            .contains("holds an import of gcg-api (gundam"),
        "{err:?}"
    );
}
