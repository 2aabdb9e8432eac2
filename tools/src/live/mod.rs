//! Hot reload: a designer edits a card and a running game plays the new version at its next
//! decision (`riffle watch`, `riffle play --watch`).
//!
//! [`watch`] turns an editor's saves into debounced lists of changed content files;
//! [`Live`] re-reads each changed card on its own, checks it as `riffle validate` would, and
//! swaps it into the engine (`Engine::reload`); games move to the new engine at their next
//! quiescent decision and log the change. See docs/hot-reload.md.

mod reload;
mod report;
mod watch;

pub use reload::{Live, Outcome};
pub use report::report;
pub use watch::{Watch, watch, watched_folders};
