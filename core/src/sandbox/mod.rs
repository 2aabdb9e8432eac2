//! The sandbox every script runs in: the Luau VM with its work budget and per-game memory
//! allowance (`vm.rs`), deep freezing of what scripts share (`freeze.rs`), the check that
//! scripts keep no state and read no undefined global (`source_checks.rs`), number and size checks on what scripts hand
//! the kernel (`numbers.rs`, `limits.rs`), errors that name the card (`blame.rs`), the
//! syntax check (`syntax.rs`), the card handle (`handle.rs`) and its fast `__index`
//! (`fast_index.rs`, the boundary's unsafe module, and its sibling `raw_args.rs`, the kernel
//! functions that read their arguments in place, and `raw_yield.rs`, what a coroutine
//! yields read in place), and the scripts' sampling profile
//! (`profile.rs`). It knows no game and no card database: `docs/security.md` has the model.

pub mod blame;
pub mod fast_index;
pub mod freeze;
pub mod handle;
pub mod limits;
pub mod numbers;
pub mod profile;
pub mod raw_args;
pub mod raw_yield;
pub mod source_checks;
pub mod syntax;
pub mod vm;
