//! Riffle's kernel: zones, timing and rule processing for data-driven card games.
//!
//! # Brief overview
//!
//! The kernel knows objects, zones, operations, events, triggered abilities, replacement
//! effects, continuous effects, rule processing and decisions, and nothing about any
//! particular game. A game is a *ruleset* (a [`RulesetManifest`] plus Lua procedures) and a
//! card database ([`CardDef`]s, each with a Lua script). [`Engine::new`] compiles them once;
//! [`Game::new`] starts a game, which runs until a player must decide: read
//! [`Game::request`], answer with [`Game::respond`], look with [`Game::view`].
//!
//! Lua holds no game state between calls: the state is plain Rust data ([`State`]), and
//! scripts perform operations by yielding them to the kernel's driver, which runs them
//! outside the script (so an operation may itself need a player's answer). See
//! `docs/architecture.md` and `docs/scripting.md`.
#![deny(missing_docs)]

pub mod card_index;
pub mod characteristics;
pub mod content;
pub mod db;
pub mod engine;
pub mod game;
pub mod loops;
pub mod names;
pub mod operations;
pub mod rng;
pub mod rules;
mod sandbox;
mod script;
pub mod setup;
pub mod sorted_map;
pub mod state;
pub mod suggest;
pub use state::{decisions, effects, events, log, values};
pub mod views;
pub mod visibility;
pub mod vocabulary;

pub use content::*;
pub use decisions::{Choice, Request, Response, ResponseError};
pub use engine::{CardChange, CardLegality, CountedBy, Engine, LoadError, ReloadError, Reloaded};
pub use game::{Game, GameConfig, SetupError};
pub use log::Entry;
pub use rng::Rng;
pub use sandbox::profile;
pub use sandbox::syntax::{SyntaxError, check_syntax, prepare_script};
pub use setup::{Builder, Place};
pub use sorted_map::SortedMap;
pub use state::match_context::MatchContext;
pub use state::{GameResult, ObjId, PlayerId, State, ZoneId};
pub use views::{CardView, PlayerView, ZoneView};
