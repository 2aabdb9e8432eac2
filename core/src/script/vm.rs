//! The sandboxed Luau VM: what scripts may and may not reach, and the work budget.
//!
//! Removed before any script runs: `require`, `loadstring`/`load`, `os`, `io`, `debug`,
//! `collectgarbage`, `getfenv`/`setfenv`, `pcall`/`xpcall` (a script could otherwise catch a
//! budget error), `coroutine` (only the kernel's prelude yields), `math.random` and
//! `math.randomseed` (use `ctx:random`), and `print` (use `ctx:log`).

use std::cell::Cell;
use std::rc::Rc;

use mlua::{Lua, Result, VmState};

/// Counts interrupts (function calls and loop back-edges) against a budget. Once exceeded,
/// every later interrupt fails too, until the kernel resets it at its next top-level call.
#[derive(Clone, Default)]
pub struct Budget {
    used: Rc<Cell<u32>>,
    limit: Rc<Cell<u32>>,
}

impl Budget {
    /// Starts a fresh budget for the next top-level call.
    pub fn reset(&self) {
        self.used.set(0);
    }
}

/// A new VM with the sandbox's removals done and the budget and memory cap installed.
/// `sandbox(true)` (read-only globals) is switched on later, once the ruleset is loaded.
pub fn new_vm(memory: usize, budget_limit: u32) -> Result<(Lua, Budget)> {
    let lua = Lua::new();
    lua.set_memory_limit(memory)?;
    let budget = Budget::default();
    budget.limit.set(budget_limit);
    let b = budget.clone();
    lua.set_interrupt(move |lua| {
        let used = b.used.get().saturating_add(1);
        b.used.set(used);
        if used > b.limit.get() {
            // Say where the script was, as Lua errors do: "file:line: message".
            let at = lua
                .inspect_stack(0, |d| {
                    let src = d
                        .source()
                        .short_src
                        .map(|s| s.to_string())
                        .unwrap_or_default();
                    format!("{src}:{}: ", d.current_line().unwrap_or(0))
                })
                .unwrap_or_default();
            Err(mlua::Error::RuntimeError(format!(
                "{at}instruction budget exceeded (an endless loop?)"
            )))
        } else {
            Ok(VmState::Continue)
        }
    });
    let g = lua.globals();
    for name in [
        "require",
        "loadstring",
        "load",
        "dofile",
        "loadfile",
        "os",
        "io",
        "debug",
        "collectgarbage",
        "getfenv",
        "setfenv",
        "pcall",
        "xpcall",
        "print",
        "gcinfo",
        "newproxy",
    ] {
        g.raw_set(name, mlua::Nil)?;
    }
    let math: mlua::Table = g.get("math")?;
    let safe_math = lua.create_table()?;
    for pair in math.pairs::<String, mlua::Value>() {
        let (k, v) = pair?;
        if k != "random" && k != "randomseed" {
            safe_math.raw_set(k, v)?;
        }
    }
    g.raw_set("math", safe_math)?;
    Ok((lua, budget))
}
