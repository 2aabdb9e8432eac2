//! What the agents' tests share: a game of the repository's content.

use std::path::PathBuf;
use std::rc::Rc;

use riffle_content::{LoadOptions, Loader, setup};
use riffle_core::{Engine, GameConfig, OptionValue, Options};

/// A game's engine, a config with its deck lists dealt to `players` seats (seed 1, log
/// kept), and the options with `mode` if given.
pub fn table(game: &str, players: usize, mode: Option<&str>) -> (Rc<Engine>, GameConfig, Options) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut loaded = Loader::new(vec![root])
        .load_valid(game, LoadOptions::default())
        .expect("valid content");
    let engine = setup::engine(&mut loaded).expect("engine");
    let decks = setup::dealt_decks(&loaded, players).expect("decks");
    let mut options = Options::new();
    if let Some(m) = mode {
        options.insert("mode".into(), OptionValue::Name(m.into()));
    }
    let config = GameConfig {
        seed: 1,
        decks,
        keep_log: true,
    };
    (engine, config, options)
}
