//! The loop records of a game: plain data, kept in [`State`](super::State) so that forks and
//! replays repeat them exactly. `crate::loops` has the logic.

use rustc_hash::FxHashMap;
use std::rc::Rc;

use super::PlayerId;
use super::decisions::{Request, Response};

/// One answer of the current turn.
#[derive(Clone, Debug)]
pub(crate) struct Answer {
    pub(crate) player: PlayerId,
    /// In the request's own numbering (a barred option already mapped back).
    pub(crate) response: Response,
    /// The decision's fingerprint, when it had a choice.
    pub(crate) fp: Option<u64>,
}

/// A declaration being asked.
#[derive(Clone, Debug)]
pub(crate) struct Declaring {
    /// The decision that closed the loop, waiting.
    pub(crate) held: Rc<Request>,
    pub(crate) iteration: Vec<Answer>,
    /// Who declares, in order, and what they declared so far.
    pub(crate) players: Vec<PlayerId>,
    pub(crate) counts: Vec<i64>,
}

/// The loop records of a game (part of [`State`](super::State)).
#[derive(Clone, Debug, Default)]
pub struct Loops {
    pub(crate) turn: u32,
    pub(crate) answers: Vec<Answer>,
    /// Fingerprint → index in `answers` of the decision that had it.
    pub(crate) seen: FxHashMap<u64, usize>,
    /// Barred answers: (fingerprint, player, answer).
    pub(crate) barred: Vec<(u64, PlayerId, Response)>,
    /// The pending decision's fingerprint (None: it has no choice).
    pub(crate) current: Option<u64>,
    /// The pending request has a barred option: shown index → the request's own index.
    pub(crate) remap: Option<Vec<u32>>,
    pub(crate) declaring: Option<Declaring>,
    pub(crate) replaying: bool,
}
