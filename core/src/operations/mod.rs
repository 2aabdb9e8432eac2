//! The primitive operations. Scripts compose them; games never need new Rust primitives.
//!
//! Each operation is parsed from the Lua table a script yields, split into single-card steps,
//! passed through replacement effects (the driver does that), then applied here: apply
//! changes the state and returns the events it caused. Nothing here calls Lua.

use std::sync::Arc;

use mlua::{Lua, Table, Value};

use crate::db::Db;
use crate::names::Sym;
use crate::rules::Rules;
use crate::sandbox::handle::CardUd;
use crate::script::api::{limit_key, lua_to_val, player_arg, usage_args, zone_arg};
use crate::state::effects::{Effect, Expiry, Modify, Target};
use crate::state::events::Event;
use crate::state::values::Val;
use crate::state::{GameResult, LastKnown, ObjId, Object, PlayerId, State, ZoneId};

mod apply;
mod definitions;
mod parse;
mod raw;

pub use apply::{apply, eliminate, end, leaves_object, new_object, place};
pub use definitions::refresh_definitions;
pub use parse::{parse, parse_positional, positional_field};
pub use raw::{OpYields, parse_raw};

/// The acting card an operation's table names (`source`: the `ctx.source` of the script
/// that asked for it), if it names a card.
pub fn source_of(t: &Table) -> mlua::Result<Option<ObjId>> {
    Ok(card_in(&t.raw_get::<Value>("source")?))
}

/// The card a value is, if it is one.
pub fn card_in(v: &Value) -> Option<ObjId> {
    match v {
        Value::UserData(ud) => ud.borrow::<CardUd>().ok().map(|c| c.0),
        _ => None,
    }
}

/// Where in an ordered zone a card goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Position {
    /// On top (the end of the list).
    Top,
    /// At the bottom (index 0).
    Bottom,
    /// At a 1-based position from the bottom.
    At(usize),
}

/// One primitive operation on at most one card.
#[derive(Clone, Debug)]
#[expect(missing_docs, reason = "each variant's doc describes its fields")]
pub enum Op {
    /// Move a card to a zone, or under a host.
    Move {
        /// The card.
        card: ObjId,
        /// Destination zone declaration (ignored with a host).
        zone: Option<usize>,
        /// Whose copy of the zone (None: the card's owner).
        player: Option<PlayerId>,
        /// Where in the zone.
        position: Position,
        /// Face up (Some(true)), down, or the zone's default.
        face: Option<bool>,
        /// Orientation on arrival.
        orientation: Option<Sym>,
        /// Why (triggers filter on it).
        reason: Option<String>,
        /// Who did it.
        by: Option<PlayerId>,
        /// Attach under this card instead of entering a zone.
        host: Option<ObjId>,
    },
    /// Shuffle a zone.
    Shuffle(ZoneId),
    /// Change orientation.
    Orientation {
        card: ObjId,
        value: Sym,
        reason: Option<String>,
        by: Option<PlayerId>,
    },
    /// Turn face up or down.
    Face { card: ObjId, up: bool },
    /// Set a flag.
    Flag { card: ObjId, flag: usize, on: bool },
    /// Add to a counter.
    Counter {
        card: ObjId,
        counter: usize,
        amount: i64,
        reason: Option<String>,
        by: Option<PlayerId>,
    },
    /// Reveal to players (bit mask).
    Reveal { cards: Vec<ObjId>, mask: u32 },
    /// End reveals.
    Conceal { cards: Vec<ObjId> },
    /// Make a token.
    Token {
        card: u32,
        zone: ZoneId,
        player: PlayerId,
        orientation: Option<Sym>,
        face: Option<bool>,
    },
    /// Change control.
    Control { card: ObjId, player: PlayerId },
    /// Set or add to a player's (or the game's) value.
    Value {
        player: Option<PlayerId>,
        index: usize,
        set: Option<i64>,
        add: Option<i64>,
    },
    /// Create continuous effects.
    Effect { effects: Vec<Effect> },
    /// End a continuous effect by its handle (its timestamp), unless it is uncancellable.
    EndEffect { handle: u64 },
    /// End effects at an expiry point.
    Expire {
        point: Sym,
        player: Option<PlayerId>,
        /// How many times the point passes at once ("counts as N turns passed").
        count: u32,
        /// Only for the effects and granted abilities on this card ("this card counts as
        /// N turns passed").
        card: Option<ObjId>,
    },
    /// A ruleset event.
    Emit(Event),
    /// Count a use of a limited ability, for an object, a player, a player and a name, or
    /// the game.
    Use {
        scope: crate::state::usage::UseScope,
        key: u32,
    },
    /// Draw a random number 1..=n.
    Random(u64),
    /// End the game.
    EndGame(GameResult),
    /// Take a player out.
    Eliminate { player: PlayerId, reason: String },
    /// Say who takes the first turn.
    FirstPlayer(PlayerId),
    /// Set the direction of play.
    Direction(crate::content::Direction),
    /// Give an ability (declared `dormant` on its card) to a card or, without a host, arm
    /// it as a delayed ability of a player.
    Grant(crate::state::Grant),
    /// Begin (true) or end (false) a group of operations whose triggers form one batch.
    Group(bool),
}

impl Op {
    /// The kind name replacement abilities match (`replaces = "move"`).
    pub fn kind(&self) -> &'static str {
        match self {
            Op::Move { .. } => "move",
            Op::Shuffle(_) => "shuffle",
            Op::Orientation { .. } => "orientation",
            Op::Face { .. } => "face",
            Op::Flag { .. } => "flag",
            Op::Counter { .. } => "counter",
            Op::Reveal { .. } => "reveal",
            Op::Conceal { .. } => "conceal",
            Op::Token { .. } => "token",
            Op::Control { .. } => "control",
            Op::Value { .. } => "value",
            Op::Effect { .. } => "effect",
            Op::EndEffect { .. } => "end_effect",
            Op::Expire { .. } => "expire",
            Op::Emit(_) => "emit",
            Op::Use { .. } => "use",
            Op::Random(_) => "random",
            Op::EndGame(_) => "end_game",
            Op::Eliminate { .. } => "eliminate",
            Op::FirstPlayer(_) => "first_player",
            Op::Direction(_) => "direction",
            Op::Grant(_) => "grant_ability",
            Op::Group(_) => "group",
        }
    }
}

/// What an applied operation gives back to the script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing happened (1-3-2-1 style: already in that state, or impossible).
    Nothing,
    /// Done.
    Done,
    /// A card object (the moved card's new object, a token).
    Card(ObjId),
    /// A number.
    Int(i64),
    /// Numbers (the handles of the effects an operation made).
    Ints(Vec<i64>),
}
