//! The report `riffle play --profile-lua FILE` writes: where the scripts spent their time.

use std::fmt::Write;
use std::path::PathBuf;

use riffle_core::profile::{Profile, ProfileEntry};

/// How many functions and lines the report lists.
const FUNCTIONS: usize = 40;
const LINES: usize = 30;
/// Below this many samples a share moves by a point or more from one run to the next.
const MANY: u64 = 500;

/// The profile as text, file paths relative to the search path they are under.
pub(super) fn report(p: &Profile, roots: &[PathBuf]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Lua profile: {} samples, about one a millisecond of the games (content loading left \
         out). Time in the kernel counts for the next Lua to run: a callback's for its caller, \
         an operation's for prelude.lua's op/opk (docs/performance.md).",
        p.samples
    );
    if p.samples < MANY {
        let _ = writeln!(
            out,
            "Few samples: play more games (--games) for a steadier profile."
        );
    }
    let pct = |n: u64| 100.0 * n as f64 / p.samples.max(1) as f64;
    let place = |e: &ProfileEntry| {
        let mut s = e.place.as_str();
        for r in roots {
            if let Some(rest) = s.strip_prefix(&format!("{}/", r.display())) {
                s = rest;
                break;
            }
        }
        s.to_string()
    };
    let _ = writeln!(
        out,
        "\nFunctions, most time on the stack first (where they start):"
    );
    let _ = writeln!(out, "{:>9} {:>9}  function", "on stack", "running");
    for e in p.functions.iter().take(FUNCTIONS) {
        let _ = writeln!(
            out,
            "{:>8.1}% {:>8.1}%  {}",
            pct(e.total),
            pct(e.own),
            place(e)
        );
    }
    let _ = writeln!(out, "\nLines, most time running first:");
    let _ = writeln!(out, "{:>9}  line", "running");
    for e in p.lines.iter().take(LINES) {
        let _ = writeln!(out, "{:>8.1}%  {}", pct(e.own), place(e));
    }
    out
}
