//! Continuous effects made by scripts ("+2000 power until end of turn") and their durations.
//!
//! An effect modifies one characteristic of one object or player. It ends when its target
//! object leaves its zone (the object is then gone), unless the move keeps the object or the
//! effect persists in the zone the card enters (`persists_in`: it then follows the new
//! object), or at a named expiry point the ruleset passes with `ctx:expire(point)`.

use crate::names::Sym;
use crate::state::{ObjId, PlayerId};

/// What an effect applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// One card object (the effect dies with the object).
    Obj(ObjId),
    /// One player.
    Player(PlayerId),
}

/// How an effect changes a characteristic. Applied layer by layer (the ruleset's `layers`;
/// by default base-setting, additions, then overriding sets, grants and revocations), and
/// within a layer by timestamp.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Modify {
    /// Set the base value (combined by the characteristic's `base` rule: max or latest).
    SetBase(i64),
    /// Add (negative to subtract).
    Add(i64),
    /// Set the final value, overriding additions.
    Set(i64),
    /// Add a name to a set characteristic (a keyword, a type, a prohibition).
    Grant(Sym),
    /// Remove a name from a set characteristic.
    Revoke(Sym),
    /// Replace the whole of a set characteristic.
    SetNames(std::sync::Arc<[Sym]>),
    /// A definition redirect: the object takes its printed data, its abilities and its
    /// name from this card definition (an index into the engine's cards) instead of its own
    /// (`ctx:take_definition`). The latest such effect on an object wins.
    Definition(u32),
}

/// When an effect ends, besides its target leaving.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expiry {
    /// The ruleset's named point (`end_of_turn`).
    pub point: Sym,
    /// Only when the point is passed for this player (None: for anyone).
    pub player: Option<PlayerId>,
    /// Only once the turn number is greater than this (for "next turn" durations).
    pub after_turn: u32,
    /// A count-down: how many more times the point must pass (1: the next time).
    pub times: u32,
}

/// A continuous effect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Effect {
    /// Its timestamp: also its id.
    pub timestamp: u64,
    /// Who made it (the controller of the ability).
    pub controller: Option<PlayerId>,
    /// The card whose ability made it.
    pub source: Option<ObjId>,
    /// What it changes.
    pub target: Target,
    /// Which characteristic.
    pub characteristic: Sym,
    /// How.
    pub modify: Modify,
    /// The layer it applies in (an index into the characteristic's layers).
    pub layer: u8,
    /// When it ends (None: only when the target leaves).
    pub expiry: Option<Expiry>,
    /// Its tag (one of the ruleset's `effect_tags`), for finding and ending it.
    pub tag: Option<Sym>,
    /// `ctx:end_effect` cannot end it (it still ends with its duration or its target).
    pub uncancellable: bool,
    /// Zone declarations it persists in: when its target becomes a new object by moving into
    /// one of them, the effect follows the new object (empty: it ends with the object).
    pub persists_in: Vec<u16>,
}
