//! Property tests (proptest): the project's rule "no panic from any input", checked on
//! generated input against the public entry points: `Game::respond` / `concede` / `fork`
//! on real One Piece games, and scenario files run the way `riffle test` runs them.
//!
//! Case counts are kept small so that `cargo test` stays fast; `PROPTEST_CASES=N` runs N
//! cases of each property instead (see docs/testing.md).

mod responses;
mod scenarios;

use std::path::PathBuf;
use std::rc::Rc;

use proptest::test_runner::Config;
use riffle_content::load_game;
use riffle_core::{DeckList, Engine};

/// `cases` cases, unless `PROPTEST_CASES` is set: then that many (proptest's own default
/// configuration reads the variable, but an explicit count would override it).
pub fn config(cases: u32) -> Config {
    let mut c = Config::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        c.cases = cases;
    }
    c
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The repository's One Piece engine and sample deck lists.
pub fn onepiece() -> (Rc<Engine>, Vec<DeckList>) {
    game("onepiece")
}

/// The repository's engine and sample deck lists of `name`.
pub fn game(name: &str) -> (Rc<Engine>, Vec<DeckList>) {
    let loaded = load_game(&[repo()], name)
        .into_result()
        .unwrap_or_else(|d| panic!("{d:?}"));
    let engine = Engine::new(&loaded.content).unwrap_or_else(|e| panic!("{e:?}"));
    let decks = loaded.decks.iter().map(|d| d.list.clone()).collect();
    (engine, decks)
}
