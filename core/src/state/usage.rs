//! Usage of limited abilities ("once per turn", "twice per game", "shared by every card of
//! that name you own"): counts recorded by turn, read over a window of turns.
//!
//! A use is recorded for a *subject* under a limit key (a hash of the key's text,
//! `script::api::limit_key`) in the turn it happens. A card object's uses live on the object
//! (`Object::uses`), so they end with it; a player's, a player's and a name's, and the game's
//! live in `State::usage`, so they last the whole game. Reading sums the uses of the last N
//! turns, or of the whole game. Everything is plain data: forks copy it, and the same answers
//! give the same counts.

use super::{ObjId, PlayerId, State};

/// Who a use is counted for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum UseScope {
    /// One card object (the count ends with the object).
    Object(ObjId),
    /// One player.
    Player(PlayerId),
    /// One player and one name (every card of that name the player owns shares it).
    Name(PlayerId, String),
    /// The whole game: every player shares it.
    Game,
}

/// Which turns a read counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    /// The last n turns, this one included (1: this turn).
    Turns(u32),
    /// Every turn of the game so far.
    Game,
}

impl Window {
    /// Whether a use recorded in turn `t` counts when the turn is `now`.
    pub fn covers(self, t: u32, now: u32) -> bool {
        match self {
            Window::Turns(n) => t.saturating_add(n) > now,
            Window::Game => true,
        }
    }
}

/// Uses of a scope other than an object, in one turn.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Usage {
    /// Who they are counted for (never `UseScope::Object`: those live on the object).
    pub scope: UseScope,
    /// The limit key.
    pub key: u32,
    /// The turn.
    pub turn: u32,
    /// How many.
    pub count: u32,
}

impl State {
    /// Usage count of a limit key on an object this turn.
    pub fn uses(&self, id: ObjId, key: u32) -> u32 {
        let turn = self.turn;
        self.obj(id)
            .uses
            .iter()
            .find(|(k, t, _)| *k == key && *t == turn)
            .map(|(_, _, n)| *n)
            .unwrap_or(0)
    }

    /// Usage count of a limit key for a scope, over a window of turns.
    pub fn uses_over(&self, scope: &UseScope, key: u32, window: Window) -> u32 {
        let now = self.turn;
        match scope {
            UseScope::Object(id) => self
                .obj(*id)
                .uses
                .iter()
                .filter(|(k, t, _)| *k == key && window.covers(*t, now))
                .map(|(_, _, n)| *n)
                .fold(0, u32::saturating_add),
            _ => self
                .usage
                .iter()
                .filter(|u| u.key == key && u.scope == *scope && window.covers(u.turn, now))
                .map(|u| u.count)
                .fold(0, u32::saturating_add),
        }
    }

    /// Records one use of a limit key for a scope, this turn.
    pub fn record_use(&mut self, scope: &UseScope, key: u32) {
        let turn = self.turn;
        match scope {
            UseScope::Object(id) => {
                let o = self.obj_mut(*id);
                match o.uses.iter_mut().find(|(k, t, _)| *k == key && *t == turn) {
                    Some(u) => u.2 = u.2.saturating_add(1),
                    None => o.uses.push((key, turn, 1)),
                }
            }
            _ => {
                let all = std::sync::Arc::make_mut(&mut self.usage);
                match all
                    .iter_mut()
                    .find(|u| u.key == key && u.turn == turn && u.scope == *scope)
                {
                    Some(u) => u.count = u.count.saturating_add(1),
                    None => all.push(Usage {
                        scope: scope.clone(),
                        key,
                        turn,
                        count: 1,
                    }),
                }
            }
        }
    }
}
