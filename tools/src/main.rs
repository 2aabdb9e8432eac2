//! `riffle`: the Riffle command-line tool.
//!
//! Each subcommand lives in its own module under `cli/` and is one variant of
//! [`cli::Command`]; add `test` and `play` the same way as `validate`.
//!
//! Exit codes follow ripgrep's model:
//! - 0: success (for `validate`: no errors; warnings and notes allowed),
//! - 1: the command ran and found problems (invalid content, stale schemas),
//! - 2: the command could not run: bad usage, a missing path, no repository found.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}

/// Playouts allocate and free many small objects (Lua tables and strings, the kernel's
/// vectors): mimalloc does that faster than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
