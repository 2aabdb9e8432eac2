//! The sandboxed Luau VM: what scripts may and may not reach, and the work budget.
//!
//! Removed before any script runs: `require`, `loadstring`/`load`, `os`, `io`, `debug`,
//! `collectgarbage`, `getfenv`/`setfenv`, `pcall`/`xpcall` (a script could otherwise catch a
//! budget error), `coroutine` (only the kernel's prelude yields), `math.random` and
//! `math.randomseed` (use `ctx:random`), and `print` (use `ctx:log`).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use mlua::{Lua, Result, VmState};

/// Counts a call's work against a budget: interrupts (function calls and loop back-edges),
/// plus one unit per [`BYTES_PER_UNIT`] bytes of Lua objects made. Interrupts alone miss
/// work done inside library calls: `s = s .. x` in a loop costs one interrupt a turn but
/// copies the whole string each time, and string.rep, table.concat or string.format make
/// large objects in one call. Once exceeded, every later interrupt fails too, until the
/// kernel resets it at its next top-level call.
#[derive(Clone, Default)]
pub struct Budget {
    used: Rc<Cell<u32>>,
    limit: Rc<Cell<u32>>,
    /// The configured budget of a whole call (`limit` is less inside a slice).
    full: Rc<Cell<u32>>,
    /// [`ALLOCATED`] when the budget was reset.
    mark: Rc<Cell<u64>>,
}

/// Bytes of new Lua objects that cost as much as one interrupt. With the default budget of
/// 1,000,000 a call may make about 64 MB of objects in all (most of it garbage), on top of
/// its memory allowance that bounds what it holds at once.
pub const BYTES_PER_UNIT: u64 = 64;

/// A [`Budget::slice`] is at most 1/SLICES of the whole budget.
pub const SLICES: u64 = 8;

thread_local! {
    /// Bytes of Lua objects made on this thread (every VM's), counted by Luau's
    /// `onallocate` callback.
    static ALLOCATED: Cell<u64> = const { Cell::new(0) };
}

unsafe extern "C-unwind" fn on_allocate(
    _: *mut mlua::ffi::lua_State,
    _: *mut std::ffi::c_void,
    _: usize,
    nsize: usize,
    _: u8,
    _: std::ffi::c_int,
    _: std::ffi::c_int,
) {
    ALLOCATED.with(|a| a.set(a.get().wrapping_add(nsize as u64)));
}

impl Budget {
    /// Starts a fresh budget for the next top-level call.
    pub fn reset(&self) {
        self.used.set(0);
        self.mark.set(ALLOCATED.with(Cell::get));
    }

    /// Whether this call's budget is spent (every later interrupt fails).
    pub fn exceeded(&self) -> bool {
        self.spent() > self.limit.get() as u64
    }

    /// Runs `f`, a piece the kernel can do without (a card's condition, filter or static
    /// amount), with a slice of what is left of the call's budget: at most an eighth of the
    /// whole. A piece that loops for ever spends its slice and fails alone, and the call
    /// goes on with the rest; what the piece spent is charged to the call either way, so
    /// eight such pieces still stop it.
    pub fn slice<T>(&self, f: impl FnOnce() -> T) -> T {
        let (used, limit, mark) = (self.used.get(), self.limit.get(), self.mark.get());
        let left = (limit as u64).saturating_sub(self.spent());
        let slice = left.min(self.full.get() as u64 / SLICES) as u32;
        self.used.set(0);
        self.mark.set(ALLOCATED.with(Cell::get));
        self.limit.set(slice);
        let r = f();
        // Bytes made inside count from the outer mark already; add the interrupts.
        self.used.set(used.saturating_add(self.used.get()));
        self.limit.set(limit);
        self.mark.set(mark);
        r
    }

    /// Runs `f`, work the kernel does for no script (loading a card's script the first
    /// time a game meets the card), with a whole budget of its own; the running call's
    /// budget is as it was before, as if `f` had not run. Whether a card was loaded already
    /// (by an earlier game of the engine) must not change what a game can do.
    pub fn aside<T>(&self, f: impl FnOnce() -> T) -> T {
        let (used, limit, mark) = (self.used.get(), self.limit.get(), self.mark.get());
        let before = ALLOCATED.with(Cell::get);
        self.used.set(0);
        self.mark.set(before);
        self.limit.set(self.full.get());
        let r = f();
        let made = ALLOCATED.with(Cell::get).wrapping_sub(before);
        self.used.set(used);
        self.limit.set(limit);
        // The bytes made aside are not the call's: move its mark past them.
        self.mark.set(mark.wrapping_add(made));
        r
    }

    /// Work done since the last reset, in interrupts.
    fn spent(&self) -> u64 {
        let bytes = ALLOCATED.with(Cell::get).wrapping_sub(self.mark.get());
        self.used.get() as u64 + bytes / BYTES_PER_UNIT
    }
}

/// How much Lua memory one game may hold, and whose memory the running scripts are using.
///
/// Every game of an engine shares one VM, but each has an allowance of its own
/// (`limits.script_memory`). The allocator enforces it, and only while Lua code runs:
/// entering Lua from Rust ([`Memory::enter`]) sets the VM's limit to what is in use now plus
/// what the running game has left; a kernel callback that Lua calls ([`Memory::host`]) lifts
/// it while the kernel does its own work, and puts it back before Lua goes on. With no limit
/// set, mlua runs the kernel's table reads and writes without its protected mode, which a
/// permanent limit forces on every call (about a quarter of playout time, measured).
///
/// What a game holds between calls (its suspended coroutines) is counted as the growth of
/// VM memory during its calls since it last had no coroutine suspended (garbage counts until
/// then: an overestimate, never an underestimate).
#[derive(Clone)]
pub struct Memory(Rc<MemoryState>);

struct MemoryState {
    cap: usize,
    depth: Cell<u32>,
    start: Cell<usize>,
    /// The limit while Lua runs (absolute: bytes in use in the whole VM).
    limit: Cell<usize>,
    armed: Cell<bool>,
    account: RefCell<Rc<Cell<usize>>>,
    /// Bytes the VM grew by in [`Memory::aside`] in all: no game's.
    aside: Cell<usize>,
}

impl MemoryState {
    fn arm(&self, lua: &Lua, on: bool) {
        if self.armed.replace(on) != on {
            let _ = lua.set_memory_limit(if on { self.limit.get() } else { 0 });
        }
    }
}

impl Memory {
    fn new(cap: usize) -> Memory {
        Memory(Rc::new(MemoryState {
            cap,
            depth: Cell::new(0),
            start: Cell::new(0),
            limit: Cell::new(0),
            armed: Cell::new(false),
            account: RefCell::new(Rc::default()),
            aside: Cell::new(0),
        }))
    }

    /// Makes `held` (a game's count of what it holds) the account later calls charge.
    pub fn charge_to(&self, held: &Rc<Cell<usize>>) {
        *self.0.account.borrow_mut() = held.clone();
    }

    /// Lua is about to run: arm the allocator's limit. The outermost entry computes it;
    /// an entry from inside a kernel callback puts it back. The guard undoes it.
    pub fn enter(&self, lua: &Lua) -> Entered {
        let m = &self.0;
        let depth = m.depth.get();
        m.depth.set(depth + 1);
        let was_armed = m.armed.get();
        if depth == 0 {
            let used = lua.used_memory();
            m.start.set(used);
            let left = m.cap.saturating_sub(m.account.borrow().get());
            // A limit of 0 would mean "none": a game with nothing left gets 1 byte.
            m.limit.set(used.saturating_add(left.max(1)));
        }
        m.arm(lua, true);
        Entered {
            memory: self.0.clone(),
            lua: lua.clone(),
            was_armed,
        }
    }

    /// The kernel makes Lua objects for the running game outside any call into Lua (a
    /// `ctx`): what the VM grew by is charged to the game as a call's growth is, without
    /// arming the limit (no script runs). Inside a call, that call's own count covers it.
    pub fn charge<T>(&self, lua: &Lua, f: impl FnOnce() -> T) -> T {
        let m = &self.0;
        if m.depth.get() > 0 {
            return f();
        }
        let (start, aside) = (lua.used_memory(), m.aside.get());
        let r = f();
        let grown = lua
            .used_memory()
            .saturating_sub(start)
            .saturating_sub(m.aside.get().saturating_sub(aside));
        let account = m.account.borrow();
        account.set(account.get().saturating_add(grown));
        r
    }

    /// Lua runs for no game (content loading, a deck check): it gets a whole allowance of
    /// its own.
    pub fn enter_alone(&self, lua: &Lua) -> Entered {
        self.charge_to(&Rc::default());
        self.enter(lua)
    }

    /// Runs `f`, Lua the kernel runs for no game (a card's script loaded the first time a
    /// game meets the card), possibly in the middle of a game's call: `f` gets a whole
    /// allowance of its own, and what the VM grew by in it is not charged to the running
    /// game (the loaded card is the engine's, shared by its games). The game's limit, if
    /// armed, moves up by as much.
    pub fn aside<T>(&self, lua: &Lua, f: impl FnOnce() -> T) -> T {
        let m = &self.0;
        let saved = (m.depth.get(), m.start.get(), m.limit.get(), m.armed.get());
        let account = m.account.replace(Rc::default());
        m.arm(lua, false);
        m.depth.set(0);
        let before = lua.used_memory();
        let r = {
            let _lua = self.enter(lua);
            f()
        };
        let grown = lua.used_memory().saturating_sub(before);
        let (depth, start, limit, armed) = saved;
        *m.account.borrow_mut() = account;
        m.depth.set(depth);
        m.start.set(start.saturating_add(grown));
        m.limit.set(limit.saturating_add(grown));
        m.aside.set(m.aside.get().saturating_add(grown));
        // `enter`'s guard left the limit off: put back the caller's, moved up.
        if armed {
            m.armed.set(false);
            m.arm(lua, true);
        }
        r
    }

    /// Whether the VM's memory limit is set now (Lua is running, not a kernel callback).
    pub fn armed(&self) -> bool {
        self.0.armed.get()
    }

    /// A kernel callback runs (Lua called Rust): lift the limit until the guard drops.
    pub fn host(&self, lua: &Lua) -> Host {
        let was_armed = self.0.armed.get();
        self.0.arm(lua, false);
        Host {
            memory: self.0.clone(),
            lua: lua.clone(),
            was_armed,
        }
    }
}

/// Lua may run while this lives; see [`Memory::enter`].
pub struct Entered {
    memory: Rc<MemoryState>,
    lua: Lua,
    was_armed: bool,
}

impl Drop for Entered {
    fn drop(&mut self) {
        let m = &self.memory;
        let depth = m.depth.get() - 1;
        m.depth.set(depth);
        if depth == 0 {
            let grown = self.lua.used_memory().saturating_sub(m.start.get());
            let account = m.account.borrow();
            account.set(account.get().saturating_add(grown));
        }
        m.arm(&self.lua, self.was_armed && depth > 0);
    }
}

/// A kernel callback's work runs without the script's limit while this lives.
pub struct Host {
    memory: Rc<MemoryState>,
    lua: Lua,
    was_armed: bool,
}

impl Drop for Host {
    fn drop(&mut self) {
        self.memory.arm(&self.lua, self.was_armed);
    }
}

/// What [`quick_interrupt`] reads: the VM's budget and whether Lua may run now.
struct Gate {
    budget: Budget,
    memory: Rc<MemoryState>,
    /// mlua's interrupt, which runs the closure `new_vm` sets (and raises its error).
    full: Cell<Option<unsafe extern "C-unwind" fn(*mut mlua::ffi::lua_State, std::ffi::c_int)>>,
    /// [`ALLOCATED`] of the thread that made the VM, which is the only one it runs on (the
    /// VM is not `Send`), and a constant thread-local without a destructor lives as long as
    /// the thread: read in place, with no thread-local lookup at every interrupt.
    allocated: *const Cell<u64>,
}

/// The VM's interrupt (function calls and loop back-edges). It fires about 10,000 times a
/// game, and mlua's own wrapper prepares for an error at every one (about 125 instructions,
/// 2-3% of a playout): the common case (Lua may run, budget left) is counted here, and
/// anything else goes to mlua's interrupt and the closure, which counts it and raises the
/// error.
unsafe extern "C-unwind" fn quick_interrupt(state: *mut mlua::ffi::lua_State, gc: std::ffi::c_int) {
    // GC interrupts are not work of the script's (mlua ignores them too).
    if gc >= 0 {
        return;
    }
    // SAFETY: Luau calls the interrupt for `state`, the thread running.
    unsafe { super::profile::maybe_sample(state) };
    // SAFETY: new_vm points the main thread's data at a gate that outlives the interrupt.
    let gate =
        unsafe { mlua::ffi::lua_getthreaddata(mlua::ffi::lua_mainthread(state)) } as *const Gate;
    // SAFETY: as above; the gate is only read through shared references.
    let Some(g) = (unsafe { gate.as_ref() }) else {
        return;
    };
    if g.memory.armed.get() {
        let b = &g.budget;
        let used = b.used.get().saturating_add(1);
        // SAFETY: the VM's thread's count (see `Gate::allocated`).
        let bytes = unsafe { (*g.allocated).get() }.wrapping_sub(b.mark.get());
        if used as u64 + bytes / BYTES_PER_UNIT <= b.limit.get() as u64 {
            b.used.set(used);
            return;
        }
    }
    if let Some(full) = g.full.get() {
        // SAFETY: mlua's own interrupt, called as Luau would; nothing here needs dropping
        // if it raises an error.
        unsafe { full(state, gc) }
    }
}

/// A new VM with the sandbox's removals done, the budget installed and the memory
/// allowance ready ([`Memory`]). `sandbox(true)` (read-only globals) is switched on later,
/// once the ruleset is loaded.
pub fn new_vm(memory: usize, budget_limit: u32) -> Result<(Lua, Budget, Memory)> {
    let lua = Lua::new();
    // The collector starts a cycle when the heap reaches 4x what was live after the last one
    // (Luau's default: 2x): playouts make much short-lived garbage (ctx and event tables),
    // and collecting it half as often cost about 1.4% of a playout's instructions; peak RSS
    // of a 200-game run did not move. A game's allowance still counts every byte held.
    lua.gc_set_mode(mlua::prelude::LuaGcMode::Incremental(
        mlua::prelude::LuaGcIncParams::default().goal(400),
    ));
    let budget = Budget::default();
    budget.limit.set(budget_limit);
    budget.full.set(budget_limit);
    // The byte count is per thread, not per VM: start from where it stands now.
    budget.reset();
    let memory = Memory::new(memory);
    let gate = Rc::new(Gate {
        budget: budget.clone(),
        memory: memory.0.clone(),
        full: Cell::new(None),
        allocated: ALLOCATED.with(|a| a as *const Cell<u64>),
    });
    let g = gate.clone();
    lua.set_interrupt(move |lua| {
        // Lua runs only inside Memory::enter, with the limit armed; anything else (a
        // metamethod on a value handed to the kernel) would run with no limit.
        if !g.memory.armed.get() {
            return Err(mlua::Error::RuntimeError(
                "a script ran where the kernel runs none (a metamethod on a value handed to \
                 the kernel?)"
                    .into(),
            ));
        }
        let b = &g.budget;
        b.used.set(b.used.get().saturating_add(1));
        if b.spent() > b.limit.get() as u64 {
            // Say where the script was, as Lua errors do: "file:line: message".
            // (The innermost Lua frame: a library call such as string.find has no line.)
            let at = (0..16)
                .find_map(|level| {
                    lua.inspect_stack(level, |d| {
                        let line = d.current_line().filter(|l| *l > 0)?;
                        let src = d.source().short_src?.to_string();
                        Some(format!("{src}:{line}: "))
                    })
                    .flatten()
                })
                .unwrap_or_default();
            Err(mlua::Error::RuntimeError(format!(
                "{at}work budget exceeded (an endless loop, or a string or table built far \
                 too big?)"
            )))
        } else {
            Ok(VmState::Continue)
        }
    });
    // SAFETY: lua_callbacks returns the state's callback table, which lives as long as the
    // state; only the onallocate and interrupt slots are written, with functions of the
    // right signatures. The main thread's data (which mlua does not use) points to the
    // gate, which the interrupt closure above owns: mlua clears the interrupt slot before
    // it closes the state and drops the closure after, so `quick_interrupt` never reads a
    // freed gate.
    unsafe {
        lua.exec_raw::<()>((), |state| {
            let callbacks = mlua::ffi::lua_callbacks(state);
            (*callbacks).onallocate = Some(on_allocate);
            gate.full.set((*callbacks).interrupt);
            let main = mlua::ffi::lua_mainthread(state);
            mlua::ffi::lua_setthreaddata(main, Rc::as_ptr(&gate) as *mut std::ffi::c_void);
            (*callbacks).interrupt = Some(quick_interrupt);
        })?;
    }
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
    Ok((lua, budget, memory))
}
