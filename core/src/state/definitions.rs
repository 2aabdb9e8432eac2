//! Definition redirects: an object may take its printed data, its abilities and its name
//! from another card definition than its own ("this card is treated as X", a copy, a card
//! that names another and becomes it). A redirect is a continuous effect
//! (`Modify::Definition`) with the usual lifetimes (a duration, `persists_in`, a handle);
//! each object keeps the definition it takes now in `Object::definition`, refreshed after
//! every operation (`operations::refresh_definitions`), so that reads of printed data never
//! search the effects.

use super::{ObjId, State};

/// The characteristic name a redirect's effect carries (in `ctx:effects` and in the
/// `ended` event when its duration ends).
pub const DEFINITION: &str = "definition";

impl State {
    /// The card definition object `id` takes its printed data, abilities and name from.
    pub fn definition(&self, id: ObjId) -> u32 {
        self.obj(id).definition
    }
}
