//! `riffle import`, `riffle export`, and what they mean for `validate`, `coverage` and
//! `play`, run as a user would on the made-up datasets of `content/tests/fixtures/datasets`.

use std::path::{Path, PathBuf};

use super::{riffle, stderr, stdout};
use crate::common::repo;

fn dataset(name: &str) -> PathBuf {
    repo().join("content/tests/fixtures/datasets").join(name)
}

fn import(into: &Path) -> std::process::Output {
    let from = dataset("punk-records");
    riffle(
        &repo(),
        &[
            "import",
            "--game",
            "onepiece",
            "--from",
            "punk-records",
            from.to_str().unwrap(),
            "--into",
            into.to_str().unwrap(),
        ],
    )
}

#[test]
fn an_import_validates_reports_and_imports_again_as_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let into = tmp.path().join("real");
    let out = import(&into);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("5 cards in 2 sets"), "{text}");
    assert!(
        text.contains("play as they are: 3 (no text, or keywords only); need a script: 2"),
        "{text}"
    );
    assert!(text.contains("P-900"), "the card left out is named: {text}");
    assert!(text.contains("first import here"), "{text}");
    let v = riffle(&repo(), &["validate", "--mod", into.to_str().unwrap()]);
    assert!(v.status.success(), "{}{}", stdout(&v), stderr(&v));
    let again = import(&into);
    assert!(again.status.success());
    assert!(
        stdout(&again).contains("nothing changed"),
        "{}",
        stdout(&again)
    );
    assert!(
        stdout(&again).contains("wrote 0 files"),
        "{}",
        stdout(&again)
    );
}

#[test]
fn coverage_counts_what_plays_and_what_needs_a_script() {
    let tmp = tempfile::tempdir().unwrap();
    let into = tmp.path().join("real");
    assert!(import(&into).status.success());
    let out = riffle(
        &repo(),
        &[
            "coverage",
            "--mod",
            into.to_str().unwrap(),
            "--format",
            "json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let op01 = v["sets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["set"] == "OP01")
        .unwrap();
    // Pete is vanilla, Walda keyword-only; Testa (Leader) and Splash need scripts.
    assert_eq!(
        (
            &op01["cards"],
            &op01["vanilla"],
            &op01["keywords"],
            &op01["needs_script"],
            &op01["playable"]
        ),
        (&4.into(), &1.into(), &1.into(), &2.into(), &2.into())
    );
    assert_eq!(v["total"]["needs_script"], 2, "{v}");
}

#[test]
fn a_deck_holding_a_card_that_needs_a_script_is_refused_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let into = tmp.path().join("real");
    assert!(import(&into).status.success());
    // Legal by the rules (red, 50 cards, 4 copies at most), but Test Splash has no script.
    let deck = tmp.path().join("splash.yaml");
    let mut main = String::new();
    for id in [
        "RF01-007", "RF01-008", "RF01-009", "RF01-010", "RF01-011", "RF01-012", "RF01-013",
        "RF01-014", "RF01-055", "RF01-056", "RF01-057", "RF01-058",
    ] {
        main.push_str(&format!("    {id}: 4\n"));
    }
    main.push_str("    OP01-004: 2\n");
    std::fs::write(
        &deck,
        format!(
            "game: onepiece\nname: {{en: Splash}}\nsections:\n  leader: {{RF01-001: 1}}\n  main:\n{main}  don: {{RF01-DON: 10}}\n"
        ),
    )
    .unwrap();
    let d = deck.to_str().unwrap();
    let out = riffle(
        &repo(),
        &[
            "play",
            "--game",
            "onepiece",
            "--mod",
            into.to_str().unwrap(),
            "--deck",
            d,
            "--deck",
            d,
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(
        err.contains("deck 1 holds OP01-004 (Test Splash), deck 2 holds OP01-004 (Test Splash)"),
        "{err}"
    );
    assert!(err.contains("needs a script"), "{err}");
}

#[test]
fn the_wrong_dataset_for_a_game_is_a_usage_error() {
    let tmp = tempfile::tempdir().unwrap();
    let from = dataset("gcg-api/data/cards.ndjson");
    let out = riffle(
        &repo(),
        &[
            "import",
            "--game",
            "onepiece",
            "--from",
            "gcg-api",
            from.to_str().unwrap(),
            "--into",
            tmp.path().to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--from gcg-api holds gundam cards, not onepiece"),
        "{}",
        stderr(&out)
    );
    let out = riffle(
        &repo(),
        &[
            "import",
            "--game",
            "onepiece",
            "--from",
            "tcgplayer",
            "x",
            "--into",
            tmp.path().to_str().unwrap(),
        ],
    );
    assert!(
        stderr(&out)
            .contains("unknown dataset (datasets: punk-records for onepiece, gcg-api for gundam)"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn bad_input_writes_nothing_and_says_where() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let file = data.join("cards.ndjson");
    std::fs::write(&file, "{\"product_id\": \"X-1\",\n").unwrap();
    let into = tmp.path().join("out");
    let out = riffle(
        &repo(),
        &[
            "import",
            "--game",
            "gundam",
            "--from",
            "gcg-api",
            file.to_str().unwrap(),
            "--into",
            into.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("cards.ndjson:1:"), "{err}");
    assert!(err.contains("nothing was written"), "{err}");
    assert!(!into.exists());
}

#[test]
fn the_export_of_an_import_round_trips_and_has_its_checksum() {
    let tmp = tempfile::tempdir().unwrap();
    let into = tmp.path().join("real");
    assert!(import(&into).status.success());
    for format in ["json", "sqlite"] {
        let path = tmp.path().join(format!("cards.{format}"));
        let out = riffle(
            &repo(),
            &[
                "export",
                "--game",
                "onepiece",
                "--mod",
                into.to_str().unwrap(),
                "--format",
                format,
                "-o",
                path.to_str().unwrap(),
            ],
        );
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(
            stdout(&out).contains("languages en, ja, th"),
            "{}",
            stdout(&out)
        );
        let db = match format {
            "json" => {
                riffle_content::database::json::from_slice(&std::fs::read(&path).unwrap()).unwrap()
            }
            _ => riffle_content::database::sqlite::read(&path).unwrap(),
        };
        let testa = db.card("OP01-001").unwrap();
        assert_eq!(testa.playability, "needs_script");
        assert_eq!(
            testa.name.get("ja").map(String::as_str),
            Some("キャプテン・テスタ")
        );
        let pete = db.card("OP01-002").unwrap();
        assert_eq!(pete.printings.len(), 3);
        let sum = std::fs::read_to_string(format!("{}.sha256", path.display())).unwrap();
        assert!(sum.ends_with(&format!("  cards.{format}\n")), "{sum}");
    }
    // A destination that cannot be written fails before anything is read.
    let out = riffle(
        &repo(),
        &[
            "export",
            "--game",
            "onepiece",
            "--format",
            "json",
            "-o",
            "/nonexistent/cards.json",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no folder /nonexistent"),
        "{}",
        stderr(&out)
    );
}
