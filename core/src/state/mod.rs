//! The game state: plain Rust data, `Clone`, owned by the kernel.
//!
//! Large parts sit behind `Arc` and are copied on first write (`Arc::make_mut`), so that a
//! fork of a game is a handful of reference-count increments however long the game has run.

use std::collections::VecDeque;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub mod char_cache;
pub mod decisions;
mod definitions;
mod digest;
pub mod effects;
pub mod events;
pub mod log;
pub mod loops;
pub mod match_context;
pub mod pending;
pub mod seats;
pub mod usage;
pub mod values;

pub use definitions::DEFINITION;

use crate::names::Sym;
use crate::rng::Rng;
use effects::Effect;
use log::Log;
use pending::Batch;

/// A seat, 0-based in Rust (scripts see 1-based seats).
pub type PlayerId = u8;

/// A card object. A card that changes zone becomes a new object with a new id (unless the
/// destination keeps identity); the old id stays readable as last-known information.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ObjId(pub u32);

/// Where an ability lives: a card (by index) or the rules (`None`), and its index.
pub type AbilityRef = (Option<u32>, usize);

/// An index into the game's zone instances.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ZoneId(pub u16);

/// One card object.
#[derive(Clone, Debug)]
pub struct Object {
    /// This object's id.
    pub id: ObjId,
    /// Index of its card definition in the engine: the card it is, physically.
    pub card: u32,
    /// Index of the card definition it takes its printed data, abilities and name from now:
    /// `card`, unless a definition redirect says another (`operations::refresh_definitions`).
    /// A card that left keeps the one it had when it left.
    pub definition: u32,
    /// The player who owns it for the whole game.
    pub owner: PlayerId,
    /// The player who controls it now.
    pub controller: PlayerId,
    /// Where it is (for an attached card: its host's zone).
    pub zone: ZoneId,
    /// Face up?
    pub face_up: bool,
    /// Its orientation (one of the ruleset's `orientations`).
    pub orientation: Sym,
    /// Bit i set = the ruleset's i-th flag is on.
    pub flags: u64,
    /// Counters by the ruleset's counter index.
    pub counters: Vec<i64>,
    /// The card it is attached to, if any.
    pub attached_to: Option<ObjId>,
    /// Cards attached to it, oldest first.
    pub attachments: Vec<ObjId>,
    /// When it entered its zone (orders effects and simultaneous things).
    pub timestamp: u64,
    /// The turn it entered its zone.
    pub entered_turn: u32,
    /// Usage counts of limited abilities counted for this object: (limit key, turn, uses)
    /// (`usage.rs`).
    pub uses: Vec<(u32, u32, u32)>,
    /// Bit p set = player p may see this card although its zone or face hides it.
    pub revealed: u32,
    /// A token: stops existing when it leaves play.
    pub token: bool,
    /// False once it has left its zone (it is then last-known information).
    pub alive: bool,
    /// The object it became when it changed zone.
    pub successor: Option<ObjId>,
    /// Characteristic values it had when it left (for last-known information).
    pub last_known: Option<Arc<Vec<LastKnown>>>,
}

/// Objects in a chunk of [`Objects`]: small, since a write after a decision copies its whole
/// chunk (8 rather than 32: 1.3% fewer instructions per playout; 4 rather than 8: fewer
/// objects and their lists copied at each first write after a snapshot; a fork, which copies
/// one pointer per chunk, stays well under a microsecond).
const CHUNK: usize = 4;

/// Every object of a game, by id, in chunks shared with the game's copies until one side
/// writes: a write copies one chunk, not every object (the game copies its state at each
/// decision for forks, so whole copies would come back at every decision).
#[derive(Clone, Debug, Default)]
pub struct Objects {
    chunks: Vec<Arc<Vec<Object>>>,
    len: usize,
}

impl Objects {
    /// Number of objects.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The object with index `i`.
    pub fn get(&self, i: usize) -> Option<&Object> {
        self.chunks.get(i / CHUNK).and_then(|c| c.get(i % CHUNK))
    }

    /// The object with index `i`, for writing (copies its chunk if it is shared).
    pub fn get_mut(&mut self, i: usize) -> Option<&mut Object> {
        self.chunks
            .get_mut(i / CHUNK)
            .and_then(|c| Arc::make_mut(c).get_mut(i % CHUNK))
    }

    /// Every object, by id.
    pub fn iter(&self) -> impl Iterator<Item = &Object> {
        self.chunks.iter().flat_map(|c| c.iter())
    }

    /// Every object, for writing (copies every shared chunk).
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut Object> {
        self.chunks
            .iter_mut()
            .flat_map(|c| Arc::make_mut(c).iter_mut())
    }

    /// Adds an object at the end.
    pub fn push(&mut self, o: Object) {
        if self.len.is_multiple_of(CHUNK) {
            self.chunks.push(Arc::new(Vec::with_capacity(CHUNK)));
        }
        let last = self.chunks.last_mut().expect("a chunk with room");
        if Arc::get_mut(last).is_none() {
            // Shared with a copy: this side takes its own, with room for the rest.
            let mut own = Vec::with_capacity(CHUNK);
            own.extend(last.iter().cloned());
            *last = Arc::new(own);
        }
        Arc::get_mut(last).expect("just made unique").push(o);
        self.len += 1;
    }
}

impl std::ops::Index<usize> for Objects {
    type Output = Object;
    fn index(&self, i: usize) -> &Object {
        &self.chunks[i / CHUNK][i % CHUNK]
    }
}

/// A characteristic's value at the moment a card left its zone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LastKnown {
    /// An integer characteristic (raw value).
    Int(i64),
    /// A set characteristic.
    Set(Vec<Sym>),
}

/// One zone instance (a player's hand, the shared board...).
#[derive(Clone, Debug)]
pub struct ZoneInst {
    /// Index of its declaration in the ruleset.
    pub decl: u16,
    /// Its owner; `None` for a shared zone. A team's zone names the team's first seat.
    pub owner: Option<PlayerId>,
    /// For a team's zone: the team (an index into `State.seats.teams`); its members hold it.
    pub team: Option<u8>,
    /// The cards in it, bottom (index 0) to top. Attached cards are not listed here.
    pub cards: Vec<ObjId>,
}

/// Per-player state.
#[derive(Clone, Debug, Default)]
pub struct PlayerState {
    /// Values by the ruleset's `player_values` index.
    pub values: Vec<i64>,
    /// The player has lost or conceded and takes no further part.
    pub out: bool,
    /// Turns the player has begun as the turn player (1 during their first turn).
    pub turns_taken: u32,
}

/// An ability given to a card by an effect, or a delayed ability armed for a player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grant {
    /// The ability (declared `dormant` on its card).
    pub ability: AbilityRef,
    /// The card that has it (None: a delayed ability that needs no card).
    pub host: Option<ObjId>,
    /// The card whose effect made it (the `ctx.source` of a delayed ability).
    pub source: Option<ObjId>,
    /// Who controls it.
    pub controller: PlayerId,
    /// It fires once, then is gone (a delayed "at the end of this turn, do X").
    pub once: bool,
    /// When it ends, besides its host leaving.
    pub expiry: Option<effects::Expiry>,
    /// When it was given.
    pub timestamp: u64,
    /// Zone declarations it persists in: when its host becomes a new object by moving into
    /// one of them, the ability follows the new object (empty: it ends with the host).
    pub persists_in: Vec<u16>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// The winners (empty for a draw).
    pub winners: Vec<PlayerId>,
    /// Why it ended (`defeat`, `concession`, `loop`, `turn_limit`...).
    pub reason: String,
}

/// A procedure's record: names to kernel values, sorted by name.
pub type Record = Vec<(String, values::Val)>;

/// Everything about a game in progress.
#[derive(Clone, Debug)]
pub struct State {
    /// Number of seats.
    pub nplayers: u8,
    /// Every object ever made, by id (the dead ones are last-known information).
    pub objects: Arc<Objects>,
    /// The card definitions of which this game has made an object: the others' abilities
    /// cannot have a source here, so the searches skip them, and walk these rather than
    /// the whole content when that is shorter (a game holds a few dozen of the content's
    /// thousands).
    pub present: Arc<Present>,
    /// Whether a definition redirect was ever made in this game (until then no object's
    /// `definition` needs a look).
    pub redirected: bool,
    /// Zone instances, each shared with the game's copies until written.
    pub zones: Arc<Vec<Arc<ZoneInst>>>,
    /// Zone instance of (declaration, owner): `zone_ids[decl][owner]` (shared zones: index 0).
    pub zone_ids: Arc<Vec<Vec<ZoneId>>>,
    /// Players.
    pub players: Arc<Vec<PlayerState>>,
    /// Game-wide values by the ruleset's `game_values` index.
    pub game_values: Arc<Vec<i64>>,
    /// Continuous effects made by scripts.
    pub effects: Arc<Vec<Effect>>,
    /// Abilities given by effects, and delayed abilities.
    pub grants: Arc<Vec<Grant>>,
    /// Usage counts of limited abilities counted for players, names or the game (`usage.rs`;
    /// an object's own are on the object).
    pub usage: Arc<Vec<usage::Usage>>,
    /// Turn number, 1-based (0 during setup).
    pub turn: u32,
    /// Whose turn it is: the first seat, still in the game, of the side whose turn it is.
    pub turn_player: PlayerId,
    /// The direction of play, the teams and the game's options (`seats.rs`).
    pub seats: Arc<seats::Seats>,
    /// The results of the match's games before this one (`ctx:match()`).
    pub match_context: Arc<match_context::MatchContext>,
    /// Who is asked in an open phase that asks several players.
    pub round: seats::Round,
    /// Index of the current phase, if a turn is running.
    pub phase: Option<usize>,
    /// The game's random number generator.
    pub rng: Rng,
    /// Next timestamp to hand out.
    pub clock: u64,
    /// Triggered abilities waiting to resolve.
    pub pending: Arc<VecDeque<Batch>>,
    /// Set when the game is over.
    pub result: Option<GameResult>,
    /// The event log.
    pub log: Log,
    /// Primitive operations since the last decision (loop guard).
    pub ops_since_decision: u32,
    /// Decisions of this turn and barred answers, for loops players can stop (`loops/`).
    pub loops: Arc<loops::Loops>,
    /// Replacement abilities applied so far this game (`ctx:track_replacements`).
    pub replacements_applied: u64,
    /// The records of the procedures running now, outermost first: (procedure index, record
    /// as the last step or window action left it). Any script reads them (`ctx:running`);
    /// the driver keeps them in step with its procedure frames.
    pub running: Arc<Vec<(usize, Record)>>,
    /// Abilities whose script failed in this game: off for the rest of it (a broken ability
    /// chosen again and again would spend the whole work budget each time). Listings,
    /// triggers and declared actions skip them.
    pub failed: Arc<Vec<AbilityRef>>,
    /// The checks that declared what they read (`db::CheckMarks`) whose test must run again:
    /// bit `i` for `hooks.checks[i]`, set by the operations that change what it reads,
    /// cleared when its test finds nothing to do. Part of the state, so a fork carries it.
    pub checks_stale: u64,
    /// The values of the characteristics that declared what they read, as last computed
    /// (`char_cache.rs`): not part of the game; a copy starts with none.
    pub chars: char_cache::CharCache,
}

impl State {
    /// The object with this id.
    pub fn obj(&self, id: ObjId) -> &Object {
        &self.objects[id.0 as usize]
    }

    /// Mutable access to an object (copies the object table if it is shared with a fork).
    pub fn obj_mut(&mut self, id: ObjId) -> &mut Object {
        Arc::make_mut(&mut self.objects)
            .get_mut(id.0 as usize)
            .expect("an object id of this game")
    }

    /// The zone instance. A read made while a kept characteristic is worked out is noted
    /// in its record (`char_cache::read_zone`): its value read the zone's contents.
    pub fn zone(&self, z: ZoneId) -> &ZoneInst {
        char_cache::read_zone(z);
        &self.zones[z.0 as usize]
    }

    /// The zone instance, not noted in a kept characteristic's record: for a read of what
    /// no move of another card changes (a card's own zone's declaration or owner, noted as
    /// the card's place: `char_cache::read_place`), or of what the caller notes otherwise.
    pub fn zone_unnoted(&self, z: ZoneId) -> &ZoneInst {
        &self.zones[z.0 as usize]
    }

    /// Mutable zone instance.
    pub fn zone_mut(&mut self, z: ZoneId) -> &mut ZoneInst {
        // Each zone is shared on its own: a write copies that zone's list, not every zone's.
        Arc::make_mut(&mut Arc::make_mut(&mut self.zones)[z.0 as usize])
    }

    /// The zone instance for a declaration and an owner (ignored for shared zones).
    pub fn zone_id(&self, decl: usize, owner: PlayerId) -> ZoneId {
        let row = &self.zone_ids[decl];
        if row.len() == 1 {
            row[0]
        } else {
            row[owner as usize]
        }
    }

    /// A fresh timestamp.
    pub fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    /// Whether the flag with declared index `i` is on.
    pub fn flag(&self, id: ObjId, i: usize) -> bool {
        self.obj(id).flags & (1 << i) != 0
    }

    /// Whether this game has made an object of card definition `card`.
    pub fn has_card(&self, card: u32) -> bool {
        self.present.contains(card)
    }

    /// Notes that this game has made an object of card definition `card`.
    pub fn mark_present(&mut self, card: u32) {
        if !self.has_card(card) {
            Arc::make_mut(&mut self.present).insert(card);
        }
    }
}

/// A set of card definitions (by index): a bit each for the test, and the list in
/// ascending order for the walks (the order the engine's indexes list cards in).
#[derive(Clone, Debug, Default)]
pub struct Present {
    bits: Vec<u64>,
    cards: Vec<u32>,
}

impl Present {
    /// Whether `card` is in.
    pub fn contains(&self, card: u32) -> bool {
        self.bits
            .get(card as usize / 64)
            .is_some_and(|w| w & (1 << (card % 64)) != 0)
    }

    /// Adds `card`.
    pub fn insert(&mut self, card: u32) {
        if self.contains(card) {
            return;
        }
        let w = card as usize / 64;
        if self.bits.len() <= w {
            self.bits.resize(w + 1, 0);
        }
        self.bits[w] |= 1 << (card % 64);
        let at = self.cards.partition_point(|c| *c < card);
        self.cards.insert(at, card);
    }

    /// The cards, in ascending order.
    pub fn cards(&self) -> &[u32] {
        &self.cards
    }

    /// The bits, 64 cards a word (as long as the highest card in needs).
    pub fn words(&self) -> &[u64] {
        &self.bits
    }
}
