//! A game's content loaded once: its engine, deck lists and encoding; games start from it.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::rc::Rc;

use pyo3::prelude::*;
use riffle_agents::actions::Stepper;
use riffle_agents::encoding::Encoding;
use riffle_content::{Deck, LoadOptions, Loader, setup};
use riffle_core::{DeckList, Engine, Game, GameConfig, OptionValue, Options};

use crate::state::{GameState, Setup};
use crate::value_error;

/// A game's content (`Content("onepiece")`): cards, rules and deck lists, loaded and
/// checked once. Not shared between threads (a Luau engine is one thread's).
#[pyclass(unsendable, module = "riffle._riffle")]
pub struct Content {
    pub(crate) engine: Rc<Engine>,
    pub(crate) game: String,
    pub(crate) hash: String,
    pub(crate) paths: Vec<PathBuf>,
    pub(crate) decks: Vec<Deck>,
    pub(crate) players: (u8, u8),
}

/// The content's folders: `paths` as given, else the repository found from the current
/// folder (or from `RIFFLE_ROOT`).
pub(crate) fn search_paths(paths: Option<Vec<PathBuf>>) -> PyResult<Vec<PathBuf>> {
    if let Some(p) = paths.filter(|p| !p.is_empty()) {
        return Ok(p);
    }
    let start = match std::env::var_os("RIFFLE_ROOT") {
        Some(r) => PathBuf::from(r),
        None => std::env::current_dir().map_err(value_error)?,
    };
    riffle_content::find_root(&start)
        .map(|r| vec![r])
        .ok_or_else(|| {
            value_error(format!(
                "no Riffle content found from {} (a folder with scripts/ and cardsets/): give \
             paths=[\"path/to/riffle\"] or set RIFFLE_ROOT",
                start.display()
            ))
        })
}

impl Content {
    pub(crate) fn load(game: &str, paths: Vec<PathBuf>) -> Result<Content, String> {
        let mut loaded = Loader::new(paths.clone())
            .load_valid(game, LoadOptions::default())
            .map_err(|e| e.to_string())?;
        let hash = loaded.manifest.hash.to_string();
        let m = &loaded.content.ruleset.manifest.players;
        let players = (m.min, m.max);
        let decks = std::mem::take(&mut loaded.decks);
        let engine = setup::engine(&mut loaded)?;
        Ok(Content {
            engine,
            game: game.to_string(),
            hash,
            paths,
            decks,
            players,
        })
    }

    /// A new game: `decks` by id (default: the deck lists dealt to the seats in turn).
    pub(crate) fn start(
        &self,
        seed: u64,
        decks: Option<Vec<String>>,
        players: Option<u8>,
        options: BTreeMap<String, String>,
    ) -> Result<GameState, String> {
        let seated = setup::seat_decks(
            &self.decks,
            self.players.0,
            &decks.unwrap_or_default(),
            players,
        )?;
        let (ids, lists): (Vec<String>, Vec<DeckList>) = seated.into_iter().unzip();
        let mut opts = Options::new();
        for (k, v) in &options {
            opts.insert(k.clone(), OptionValue::Name(v.clone()));
        }
        setup::check_seating(&self.engine, &lists, &opts).map_err(|e| e.to_string())?;
        let config = GameConfig {
            seed,
            decks: lists,
            keep_log: true,
        };
        let game =
            Game::with_options(self.engine.clone(), config, &opts).map_err(|e| e.to_string())?;
        let n = ids.len();
        Ok(GameState::new(
            Stepper::new(game),
            Rc::new(Encoding::of(&self.engine, n)),
            Rc::new(Setup {
                game: self.game.clone(),
                content_hash: self.hash.clone(),
                seed,
                decks: ids,
                options,
            }),
        ))
    }

    fn deck_ids(&self) -> Vec<String> {
        self.decks.iter().map(|d| d.id.clone()).collect()
    }
}

#[pymethods]
impl Content {
    /// Loads `game` from `paths` (the repository root, then mods; default: found from the
    /// current folder). Invalid content raises ValueError with its first error.
    #[new]
    #[pyo3(signature = (game, paths=None))]
    fn new(game: &str, paths: Option<Vec<PathBuf>>) -> PyResult<Content> {
        Content::load(game, search_paths(paths)?).map_err(value_error)
    }

    /// The game's id.
    #[getter]
    fn game(&self) -> String {
        self.game.clone()
    }

    /// The hash of every file read: the same hash, the same cards and rules.
    #[getter]
    fn content_hash(&self) -> String {
        self.hash.clone()
    }

    /// The deck list ids.
    #[getter]
    fn decks(&self) -> Vec<String> {
        self.deck_ids()
    }

    /// Fewest and most seats.
    #[getter]
    fn players(&self) -> (u8, u8) {
        self.players
    }

    /// The content's folders.
    #[getter]
    fn paths(&self) -> Vec<PathBuf> {
        self.paths.clone()
    }

    /// A new game.
    #[pyo3(signature = (seed=1, decks=None, players=None, options=None))]
    fn new_game(
        &self,
        seed: u64,
        decks: Option<Vec<String>>,
        players: Option<u8>,
        options: Option<BTreeMap<String, String>>,
    ) -> PyResult<GameState> {
        self.start(seed, decks, players, options.unwrap_or_default())
            .map_err(value_error)
    }

    /// The game state `GameState.serialize()` wrote, played again from its actions.
    fn deserialize(&self, text: &str) -> PyResult<GameState> {
        let v: serde_json::Value = serde_json::from_str(text).map_err(value_error)?;
        let field = |k: &str| {
            v.get(k)
                .ok_or_else(|| value_error(format!("no `{k}` in the state")))
        };
        if field("game")?.as_str() != Some(self.game.as_str()) {
            return Err(value_error(format!(
                "a state of {}, not {}",
                field("game")?,
                self.game
            )));
        }
        if field("content_hash")?.as_str() != Some(self.hash.as_str()) {
            return Err(value_error(
                "the state was saved with other content (its content_hash differs): its actions may not replay",
            ));
        }
        let seed = field("seed")?
            .as_u64()
            .ok_or_else(|| value_error("seed: a number"))?;
        let decks: Vec<String> =
            serde_json::from_value(field("decks")?.clone()).map_err(value_error)?;
        let options: BTreeMap<String, String> =
            serde_json::from_value(field("options")?.clone()).map_err(value_error)?;
        let answers: Vec<(u8, riffle_core::Response)> = field("answers")?
            .as_array()
            .ok_or_else(|| value_error("answers: a list"))?
            .iter()
            .map(|a| {
                let p = a["player"]
                    .as_u64()
                    .ok_or_else(|| value_error("answers: a player"))?;
                let r = serde_json::from_value(a["response"].clone()).map_err(value_error)?;
                Ok((p as u8, r))
            })
            .collect::<PyResult<_>>()?;
        let picks: Vec<u32> =
            serde_json::from_value(field("picks")?.clone()).map_err(value_error)?;
        let actions: Vec<usize> =
            serde_json::from_value(field("actions")?.clone()).map_err(value_error)?;
        let agents: BTreeMap<u8, String> = match v.get("agents") {
            Some(a) => serde_json::from_value::<BTreeMap<String, String>>(a.clone())
                .map_err(value_error)?
                .into_iter()
                .map(|(k, n)| Ok((k.parse::<u8>().map_err(value_error)?, n)))
                .collect::<PyResult<_>>()?,
            None => BTreeMap::new(),
        };
        let mut s = self
            .start(seed, Some(decks), None, options)
            .map_err(value_error)?;
        for (i, (p, r)) in answers.into_iter().enumerate() {
            s.answer(p, r)
                .map_err(|e| value_error(format!("answer {i}: {e}")))?;
        }
        s.stepper.picks = picks;
        s.history = actions;
        // The agents come back seeded afresh; their past answers are in `answers`.
        s.agents = Vec::new();
        if !agents.is_empty() {
            let n = s.stepper.game.players() as usize;
            let engine = self.engine.clone();
            let mut seats: Vec<_> = (0..n).map(|_| None).collect();
            for (seat, name) in agents {
                let seed = riffle_agents::play::seat_seed(seed, seat as usize);
                let a = riffle_agents::agent(&name, &engine, seed).map_err(value_error)?;
                if let Some(slot) = seats.get_mut(seat as usize) {
                    *slot = Some((name, a));
                }
            }
            s.agents = seats;
        }
        Ok(s)
    }
}
