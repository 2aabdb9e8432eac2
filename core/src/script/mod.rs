//! The Lua side of the kernel: the sandboxed Luau VM, the `Card` userdata, the read API and
//! the prelude that gives scripts their `ctx`. Lua holds no game state between calls.

pub mod api;
pub mod blame;
pub mod card;
pub mod freeze;
pub mod lasting_state;
pub mod limits;
pub mod numbers;
pub mod syntax;
pub mod vm;
