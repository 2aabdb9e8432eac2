//! Riffle's tools as a library: the content pipeline used by the `riffle` command (validate,
//! test, play, bench, docs).
#![warn(missing_docs)]

pub mod content;
pub mod files;
pub mod lint;
pub mod live;
pub mod luau_types;
pub mod memory;
pub mod mutants;
pub mod play;
pub mod readable;
pub mod reference;
pub mod scaffold;
pub mod scenario;
pub mod synthetic;
