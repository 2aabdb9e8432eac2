//! A load on several threads is the load on one: the same content, card files, file records
//! and diagnostics (with their file:line:col and card), in the same order, for a mod of
//! hundreds of cards (several blocks of files per thread) with broken ones among them.

use std::path::{Path, PathBuf};

use riffle_content::{GameLoad, LoadOptions, Loader};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Cards that load, and between them cards broken each in its own way.
fn write_mod(dir: &Path, n: usize) {
    let set = dir.join("cardsets/onepiece/par");
    std::fs::create_dir_all(&set).unwrap();
    std::fs::write(
        set.join("set.yaml"),
        "game: onepiece\nid: PAR\nname: {en: Parallel}\nversion: \"1\"\n",
    )
    .unwrap();
    for i in 0..n {
        let id = format!("PAR-{i:04}");
        let mut yaml = format!(
            "id: {id}\ncategory: character\nname: {{en: \"Par {}\"}}\ntext: {{en: \"[On Play] Draw 1 card.\"}}\ncolors: [red]\ncost: {}\npower: 3000\ncounter: 1000\nattributes: [slash]\ntypes: [Bench]\n",
            // Some names shared: labels of cards with one name.
            i % 250,
            1 + i % 8,
        );
        let mut lua = format!(
            "-- {id}\nreturn card {{\n  on_play {{ operate = function(ctx) OP.draw(ctx, ctx.player, 1) end }},\n}}\n"
        );
        match i % 97 {
            // A YAML syntax error.
            13 => yaml.push_str("power: [unclosed\n"),
            // A schema error: a cost that is no number.
            29 => yaml = yaml.replace(&format!("cost: {}", 1 + i % 8), "cost: lots"),
            // A Lua syntax error.
            41 => lua.push_str("local = 1\n"),
            // State kept between calls: the source checks refuse it when the engine loads.
            53 => {
                lua = format!(
                    "-- {id}\nlocal plays = 0\nreturn card {{\n  on_play {{ operate = function(ctx) plays = plays + 1 end }},\n}}\n"
                )
            }
            // An id used twice.
            67 => yaml = yaml.replace(&format!("id: {id}"), "id: PAR-0001"),
            // An unknown keyword.
            79 => yaml.push_str("keywords: [blokcer]\n"),
            _ => {}
        }
        std::fs::write(set.join(format!("{id}.yaml")), yaml).unwrap();
        std::fs::write(set.join(format!("{id}.lua")), lua).unwrap();
    }
    // A script no card uses, and a file with the wrong extension.
    std::fs::write(set.join("stray.lua"), "return 1\n").unwrap();
    std::fs::write(set.join("PAR-9999.yml"), "id: PAR-9999\n").unwrap();
}

fn load(roots: &[PathBuf], threads: usize) -> GameLoad {
    Loader::new(roots.to_vec())
        .with_threads(threads)
        .load_game_with("onepiece", LoadOptions { records: true })
}

#[test]
fn a_load_on_several_threads_is_the_load_on_one() {
    let dir = tempfile::tempdir().unwrap();
    write_mod(dir.path(), 700);
    let roots = vec![root(), dir.path().to_path_buf()];
    let one = load(&roots, 1);
    assert!(one.cards.len() > 700, "{} card files", one.cards.len());
    for threads in [2, 3, 8] {
        let many = load(&roots, threads);
        assert_eq!(
            many.diagnostics, one.diagnostics,
            "{threads} threads: diagnostics"
        );
        assert_eq!(many.cards, one.cards, "{threads} threads: card files");
        assert_eq!(
            many.manifest, one.manifest,
            "{threads} threads: what was read"
        );
        assert_eq!(many.records, one.records, "{threads} threads: records");
        assert_eq!(many.needs_script, one.needs_script);
        let (a, b) = (many.content.as_ref(), one.content.as_ref());
        assert_eq!(
            format!("{:?}", a.map(|c| &c.cards)),
            format!("{:?}", b.map(|c| &c.cards)),
            "{threads} threads: the cards' definitions"
        );
        assert_eq!(format!("{many:?}"), format!("{one:?}"), "{threads} threads");
    }
    // The broken cards are each said where, with their card.
    let said = |file: &str, line: u32, card: Option<&str>| {
        one.diagnostics.iter().any(|d| {
            d.path.ends_with(file) && d.line == line && d.card.as_deref() == card && d.is_error()
        })
    };
    assert!(
        said("PAR-0029.yaml", 6, Some("PAR-0029")),
        "{:#?}",
        one.diagnostics
    );
    assert!(
        said("PAR-0041.lua", 5, Some("PAR-0041")),
        "{:#?}",
        one.diagnostics
    );
    assert!(
        said("PAR-0067.yaml", 1, Some("PAR-0001")),
        "{:#?}",
        one.diagnostics
    );
    assert!(
        said("PAR-0079.yaml", 11, Some("PAR-0079")),
        "{:#?}",
        one.diagnostics
    );
    assert!(
        one.diagnostics
            .iter()
            .any(|d| d.path.ends_with("PAR-0013.yaml") && d.is_error()),
        "{:#?}",
        one.diagnostics
    );
}
