//! The games a session can create: each game's valid content and its compiled engine, loaded
//! once and shared by every game of it.

use std::path::PathBuf;
use std::rc::Rc;

use riffle_content::{LoadFailure, LoadOptions, LoadedGame, Loader};
use riffle_core::Engine;

use crate::protocol::LoadedGameInfo;

/// One loaded game.
pub struct Loaded {
    /// Its content (the card definitions are the engine's).
    pub content: LoadedGame,
    /// Its engine.
    pub engine: Rc<Engine>,
}

/// The loaded games, by id, in the order loaded.
#[derive(Default)]
pub struct Library {
    games: Vec<(String, Loaded)>,
}

impl Library {
    /// Loads `games` from the search paths (the base first, then mods). An error names the
    /// game and its first problem.
    pub fn load(paths: &[PathBuf], games: &[String]) -> Result<Library, String> {
        let mut library = Library::default();
        for game in games {
            let mut content = Loader::new(paths.to_vec())
                .load_valid(game, LoadOptions::default())
                .map_err(|e| match e {
                    LoadFailure::UnknownGame { game, games } => {
                        format!("no game '{game}' here (games: {})", games.join(", "))
                    }
                    invalid => invalid.to_string(),
                })?;
            let engine = riffle_content::setup::engine(&mut content)?;
            library.add(game.clone(), Loaded { content, engine });
        }
        Ok(library)
    }

    /// Adds a loaded game (replacing one of the same id).
    pub fn add(&mut self, game: String, loaded: Loaded) {
        self.games.retain(|(g, _)| *g != game);
        self.games.push((game, loaded));
    }

    /// The game `game`, if loaded.
    pub fn get(&self, game: &str) -> Option<&Loaded> {
        self.games.iter().find(|(g, _)| g == game).map(|(_, l)| l)
    }

    /// What `welcome` says of each game.
    pub fn infos(&self) -> Vec<LoadedGameInfo> {
        self.games
            .iter()
            .map(|(g, l)| {
                let players = &l.content.content.ruleset.manifest.players;
                LoadedGameInfo {
                    game: g.clone(),
                    content_hash: l.content.manifest.hash.clone(),
                    decks: l.content.decks.iter().map(|d| d.id.clone()).collect(),
                    players: [players.min, players.max],
                }
            })
            .collect()
    }

    /// The ids of the loaded games.
    pub fn names(&self) -> Vec<String> {
        self.games.iter().map(|(g, _)| g.clone()).collect()
    }
}
