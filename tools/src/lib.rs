//! The `riffle` command's own library: scenarios, lint, hot reload, the playtest table, the
//! readable log, scaffolding and generated docs, over the content library (`riffle-content`)
//! and the kernel (`riffle-core`). Clients embed those two crates, not this one.
#![warn(missing_docs)]

pub mod lint;
pub mod live;
pub mod log_file;
pub mod luau_types;
pub mod memory;
pub mod mutants;
pub mod play;
/// The readable log lives in `riffle-content` (the host tells it to clients too).
pub use riffle_content::readable;
pub mod reference;
pub mod render;
pub mod scaffold;
pub mod scenario;
pub mod scratch;
pub mod synthetic;
