#![no_main]
//! The content loaders on arbitrary text: the input replaces one file of a copy of the
//! `mini` test game (its first byte picks which: `0` a card, `1` a set.yaml, `2` a deck list,
//! `3` the ruleset's game.yaml; the rest is the file), then the game is loaded as
//! `riffle validate` loads it: positioned YAML → schema → typed values → cross-file checks,
//! and, when that finds no error, the kernel's engine is built and the decks checked.
//! Every outcome is diagnostics; none may panic.

use std::path::{Path, PathBuf};

use libfuzzer_sys::fuzz_target;
use riffle_content::Loader;
use riffle_core::Engine;

/// The files an input may replace, by its first byte (mod 4).
const TARGETS: [&str; 4] = [
    "cardsets/mini/core/MC1-002.yaml",
    "cardsets/mini/core/set.yaml",
    "cardsets/mini/decks/starter.yaml",
    "scripts/mini/game.yaml",
];

struct Tree {
    dir: PathBuf,
    /// Built once: it compiles the schemas.
    loader: Loader,
    originals: Vec<Vec<u8>>,
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create the copy");
    for entry in std::fs::read_dir(from).expect("read the fixture") {
        let entry = entry.expect("a fixture entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("its type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy a fixture file");
        }
    }
}

impl Tree {
    fn new() -> Tree {
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tools/tests/fixtures/mini");
        let dir = std::env::temp_dir().join(format!("riffle-fuzz-content-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        copy_tree(&fixture, &dir);
        let originals = TARGETS
            .iter()
            .map(|t| std::fs::read(dir.join(t)).expect("a fixture file"))
            .collect();
        Tree {
            loader: Loader::new(vec![dir.clone()]),
            dir,
            originals,
        }
    }
}

thread_local! {
    // libFuzzer runs inputs on one thread, one after the other.
    static TREE: Tree = Tree::new();
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, text)) = data.split_first() else {
        return;
    };
    TREE.with(|tree| {
        let k = usize::from(which) % TARGETS.len();
        let path = tree.dir.join(TARGETS[k]);
        std::fs::write(&path, text).expect("write the input");
        let load = tree.loader.load_game("mini");
        for d in &load.diagnostics {
            // Every diagnostic renders as `path:line:col: message`.
            assert!(d.line >= 1 && d.col >= 1, "{d:?}");
            let _ = d.to_string();
        }
        // As `riffle validate` goes on when the content is valid.
        if let (false, Some(content)) = (load.has_errors(), load.content.as_ref())
            && let Ok(engine) = Engine::new(content)
        {
            for deck in &load.decks {
                let _ = engine.validate_deck(&deck.list);
            }
        }
        std::fs::write(&path, &tree.originals[k]).expect("restore the fixture file");
    });
});
