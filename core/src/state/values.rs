//! Small dynamic values that cross between scripts and the kernel: event data, option data.

use serde::{Deserialize, Serialize};

use crate::state::{ObjId, PlayerId};

/// A value carried by an event or a decision option.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Val {
    /// Yes or no.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A card object.
    Card(CardRef),
    /// A player.
    Player(PlayerRef),
    /// A string.
    Str(String),
    /// A list.
    List(Vec<Val>),
}

/// A card object inside a value (serialized as `{"card": id}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardRef {
    /// The object id.
    pub card: ObjId,
}

/// A player inside a value (serialized as `{"player": seat}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRef {
    /// The seat, 0-based.
    pub player: PlayerId,
}
