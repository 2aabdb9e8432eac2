//! Riffle's kernel (work in progress: see docs/architecture.md).
#![deny(missing_docs)]

pub mod content;
mod script;

pub use content::*;
pub use script::syntax::{SyntaxError, check_syntax};
