//! The Lua side of the kernel: the sandboxed Luau VM, the script API and the coroutine driver
//! glue. Lua holds no game state between calls.

pub mod syntax;
