//! Events: what happened. Every primitive operation emits them; rulesets emit their own
//! (`attack_declared`). Triggered abilities listen to them by name. The kernel's own, with
//! their fields, are listed in [`crate::vocabulary::KERNEL_EVENTS`].

use serde::{Deserialize, Serialize};

use crate::state::values::Val;
use crate::state::{ObjId, PlayerId, ZoneId};

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// The event's name.
    pub name: String,
    /// The card it is about (for a move: the new object).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub card: Option<ObjId>,
    /// For a move: the object that left.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub old: Option<ObjId>,
    /// For a move: where from.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub from: Option<ZoneId>,
    /// For a move: where to.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub to: Option<ZoneId>,
    /// The player it is about, or who caused it.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub player: Option<PlayerId>,
    /// Why (a move's reason: `draw`, `ko`, `play`...).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub reason: Option<String>,
    /// A name it carries (a counter's name, a phase).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub key: Option<String>,
    /// A number it carries.
    #[serde(skip_serializing_if = "is_zero", default)]
    pub amount: i64,
    /// Ruleset-defined data.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub data: Vec<(String, Val)>,
    /// The card whose ability made the operation that caused it (`ctx.source`), if any.
    /// Triggered abilities read it (`ev.source`, `match.source`); the log does not record
    /// it (neither its JSON nor its hash), so logs read the same as before it existed.
    #[serde(skip)]
    pub source: Option<ObjId>,
}

fn is_zero(v: &i64) -> bool {
    *v == 0
}

impl Event {
    /// An event with only a name.
    pub fn named(name: &str) -> Event {
        Event {
            name: name.to_string(),
            card: None,
            old: None,
            from: None,
            to: None,
            player: None,
            reason: None,
            key: None,
            amount: 0,
            data: Vec::new(),
            source: None,
        }
    }
}
