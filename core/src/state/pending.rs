//! Triggered abilities waiting to resolve: plain data in [`State`](super::State).
//! `crate::triggers` finds them and the driver resolves them.

use super::events::Event;
use super::{AbilityRef, ObjId, PlayerId};

/// A triggered ability waiting to resolve.
#[derive(Clone, Debug)]
pub struct Pending {
    /// Which ability.
    pub ability: AbilityRef,
    /// The object whose ability it is (None for a rule ability).
    pub source: Option<ObjId>,
    /// Who controls it.
    pub controller: PlayerId,
    /// What triggered it.
    pub event: Event,
    /// The other events of its batch that triggered it too, when the ruleset has an ability
    /// trigger once per batch (`triggers.once_per_batch`).
    pub more: Vec<Event>,
    /// The timestamp of the one-shot grant (delayed ability) it came from, to remove.
    pub once_grant: Option<u64>,
    /// When its source gained it (0: printed), to tell whether a suppression stops it.
    pub gained: u64,
}

/// Abilities triggered by one operation.
#[derive(Clone, Debug, Default)]
pub struct Batch {
    /// In the order found (timestamp order of sources).
    pub items: Vec<Pending>,
}
