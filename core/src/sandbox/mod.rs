//! The sandbox every script runs in: the Luau VM with its work budget and per-game memory
//! allowance (`vm.rs`), deep freezing of what scripts share (`freeze.rs`), the check that
//! scripts keep no state (`lasting_state.rs`), the globals a script reads
//! (`free_names.rs`), number and size checks on what scripts hand
//! the kernel (`numbers.rs`, `limits.rs`), errors that name the card (`blame.rs`), the
//! syntax check (`syntax.rs`) and the card handle (`handle.rs`). It knows no game and no
//! card database: `docs/security.md` has the model.

pub mod blame;
pub mod free_names;
pub mod freeze;
pub mod handle;
pub mod lasting_state;
pub mod limits;
pub mod numbers;
pub mod syntax;
pub mod vm;
