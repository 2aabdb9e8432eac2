//! The loop records of a game: plain data, kept in [`State`](super::State) so that forks and
//! replays repeat them exactly. `crate::loops` has the logic.

use rustc_hash::FxHashMap;
use std::rc::Rc;

use super::PlayerId;
use std::cell::{OnceCell, RefCell};

use super::State;
use super::decisions::{Request, Response};
use super::values::Val;

/// What a decision's fingerprint reads of the driver's frames (`crate::loops`): the fields
/// Rust sees, hashed at once, except the procedures' records, kept whole (their cards count by
/// canonical key, which only the whole state gives).
#[derive(Clone, Debug)]
pub(crate) struct FramesSig {
    pub(crate) head: u64,
    pub(crate) records: Vec<std::rc::Rc<Vec<(String, Val)>>>,
}

/// A decision's fingerprint, computed when first needed (`crate::loops`), and its shape, a
/// cheap hash that decisions with equal fingerprints share.
pub(crate) struct Print {
    pub(crate) shape: u64,
    pub(crate) full: OnceCell<u64>,
    /// What the fingerprint reads, until it is computed.
    pub(crate) parts: RefCell<Option<(State, FramesSig, Rc<Request>)>>,
}

impl std::fmt::Debug for Print {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Print({:x}, {:?})", self.shape, self.full.get())
    }
}

/// One answer of the current turn.
#[derive(Clone, Debug)]
pub(crate) struct Answer {
    pub(crate) player: PlayerId,
    /// In the request's own numbering (a barred option already mapped back).
    pub(crate) response: Response,
    /// The decision's fingerprint, when it had a choice.
    pub(crate) fp: Option<Rc<Print>>,
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

/// The decisions of the turn with one shape: index in `Loops::answers`, and print.
pub(crate) type SameShape = Vec<(usize, Rc<Print>)>;

/// The loop records of a game (part of [`State`](super::State)).
#[derive(Clone, Debug, Default)]
pub struct Loops {
    pub(crate) turn: u32,
    /// Each answer shared, as each shape's list: the game copies these records when it
    /// answers after a snapshot (every quiescent decision), and a copy of shared parts is
    /// reference counts, not a deep copy of every response.
    pub(crate) answers: Vec<Rc<Answer>>,
    /// Shape → the decisions that had it.
    pub(crate) seen: FxHashMap<u64, Rc<SameShape>>,
    /// Barred answers: (fingerprint, player, answer).
    pub(crate) barred: Vec<(u64, PlayerId, Response)>,
    /// The pending decision's fingerprint (None: it has no choice).
    pub(crate) current: Option<Rc<Print>>,
    /// The pending request has a barred option: shown index → the request's own index.
    pub(crate) remap: Option<Vec<u32>>,
    pub(crate) declaring: Option<Declaring>,
    pub(crate) replaying: bool,
}
