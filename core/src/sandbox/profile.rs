//! Where the scripts spend their time: a sampling profile of the Lua that runs on this thread
//! (`riffle play --profile-lua FILE`, docs/performance.md).
//!
//! A ticker thread raises a flag once a millisecond; the VM's interrupt, which Luau calls at
//! every function call and loop back-edge, takes a sample when it finds the flag up: the
//! function running and every function under it on the stack. Time spent in the kernel
//! counts for the next Lua to reach a call or loop (a callback's for the script that called
//! it). Luau's own command-line profiler works the same way.
//!
//! Profiling is per thread (the engines a thread runs), off unless [`start`] was called: the
//! interrupt then pays one thread-local read.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::ffi::CStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The sampling period.
const TICK: Duration = Duration::from_millis(1);
/// Deepest stack a sample walks (a recursion deeper than this counts its top frames).
const MAX_DEPTH: i32 = 64;

/// Whether any thread has started a profile: the interrupt reads this plain flag and looks
/// at its thread's own only when set (a thread-local read per interrupt cost about 0.3% of
/// a playout).
static EVER: AtomicBool = AtomicBool::new(false);

thread_local! {
    static ON: Cell<bool> = const { Cell::new(false) };
    static RUN: RefCell<Option<Run>> = const { RefCell::new(None) };
}

/// A profile being taken on this thread.
struct Run {
    tick: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
    samples: u64,
    /// Per function (`file:line name`, the line it starts on): samples it was running in
    /// (self) and samples it was on the stack for (inclusive).
    functions: HashMap<String, (u64, u64)>,
    /// Per line running (`file:line`): samples.
    lines: HashMap<String, u64>,
}

/// Starts profiling the Lua run on this thread (a profile already running goes on).
pub fn start() {
    RUN.with(|r| {
        let mut r = r.borrow_mut();
        if r.is_some() {
            return;
        }
        let tick = Arc::new(AtomicBool::new(false));
        let stop = Arc::new(AtomicBool::new(false));
        let (t, s) = (tick.clone(), stop.clone());
        std::thread::spawn(move || {
            while !s.load(Ordering::Relaxed) {
                std::thread::sleep(TICK);
                t.store(true, Ordering::Relaxed);
            }
        });
        *r = Some(Run {
            tick,
            stop,
            samples: 0,
            functions: HashMap::new(),
            lines: HashMap::new(),
        });
    });
    EVER.store(true, Ordering::Relaxed);
    ON.with(|o| o.set(true));
}

/// Stops profiling on this thread and returns what it found (None: it was not started).
pub fn finish() -> Option<Profile> {
    ON.with(|o| o.set(false));
    let run = RUN.with(|r| r.borrow_mut().take())?;
    run.stop.store(true, Ordering::Relaxed);
    let mut functions: Vec<ProfileEntry> = run
        .functions
        .into_iter()
        .map(|(place, (own, total))| ProfileEntry { place, own, total })
        .collect();
    functions.sort_by(|a, b| b.total.cmp(&a.total).then_with(|| a.place.cmp(&b.place)));
    let mut lines: Vec<ProfileEntry> = run
        .lines
        .into_iter()
        .map(|(place, own)| ProfileEntry {
            place,
            own,
            total: own,
        })
        .collect();
    lines.sort_by(|a, b| b.own.cmp(&a.own).then_with(|| a.place.cmp(&b.place)));
    Some(Profile {
        samples: run.samples,
        functions,
        lines,
    })
}

/// A finished profile.
#[derive(Clone, Debug)]
pub struct Profile {
    /// Samples taken (about one a millisecond of Lua running).
    pub samples: u64,
    /// Functions, most samples on the stack first.
    pub functions: Vec<ProfileEntry>,
    /// Lines, most samples running first.
    pub lines: Vec<ProfileEntry>,
}

/// A function (`file:line name`, the line it starts on) or a line (`file:line`).
#[derive(Clone, Debug)]
pub struct ProfileEntry {
    /// `file:line name` for a function, `file:line` for a line.
    pub place: String,
    /// Samples in which it was running (the top of the stack).
    pub own: u64,
    /// Samples in which it was on the stack.
    pub total: u64,
}

/// Called by the VM's interrupt: takes a sample if one is due.
///
/// # Safety
/// `state` is the Luau thread the interrupt was called for.
#[inline]
pub(super) unsafe fn maybe_sample(state: *mut mlua::ffi::lua_State) {
    if !EVER.load(Ordering::Relaxed) || !ON.with(Cell::get) {
        return;
    }
    RUN.with(|r| {
        let Ok(mut r) = r.try_borrow_mut() else {
            return;
        };
        let Some(run) = r.as_mut() else { return };
        if !run.tick.swap(false, Ordering::Relaxed) {
            return;
        }
        run.samples += 1;
        let mut seen: Vec<String> = Vec::new();
        for level in 0..MAX_DEPTH {
            // SAFETY: lua_getinfo reads the running thread's stack, as Luau's profiler does;
            // the strings it points to live while the frame does (they are copied at once).
            let mut ar: mlua::ffi::lua_Debug = unsafe { std::mem::zeroed() };
            if unsafe { mlua::ffi::lua_getinfo(state, level, c"sln".as_ptr(), &mut ar) } == 0 {
                break;
            }
            let file = unsafe { text(ar.short_src) }.unwrap_or_else(|| "?".into());
            if file == "[C]" {
                continue; // a kernel callback: its time is its caller's
            }
            let name = unsafe { text(ar.name) }.unwrap_or_else(|| "(anonymous)".into());
            let function = format!("{file}:{} {name}", ar.linedefined);
            let top = seen.is_empty();
            if top {
                *run.lines
                    .entry(format!("{file}:{}", ar.currentline))
                    .or_default() += 1;
            }
            if !seen.contains(&function) {
                let e = run.functions.entry(function.clone()).or_default();
                e.0 += top as u64;
                e.1 += 1;
                seen.push(function);
            }
        }
    });
}

/// A C string Luau gave, copied (None for a null pointer).
unsafe fn text(p: *const std::ffi::c_char) -> Option<String> {
    // SAFETY: Luau's strings are NUL-terminated; the caller holds the frame.
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}
