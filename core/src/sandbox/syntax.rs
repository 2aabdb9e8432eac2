//! Compiling Lua sources: the syntax check validation makes, and the bytecode the engine
//! loads. A source is compiled once: the check keeps its bytecode, and loading the same text
//! later (the engine, usually moments after validation) takes it instead of compiling again
//! (with 10,000 cards, compiling twice was a seventh of a cold load). [`prepare_script`] also
//! keeps what the engine's source checks read ([`SourceFacts`]: a second parse, with
//! full_moon, was a ninth of a cold load), so a loader that checks its files on several
//! threads does both parses there, and the engine, on its one thread, neither.

use std::sync::{LazyLock, Mutex, MutexGuard};

use rustc_hash::FxHashMap;

use crate::content::Source;
use crate::sandbox::source_checks::SourceFacts;

/// A Lua syntax error, with the line it points at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// 1-based line of the error, when Luau reports one.
    pub line: Option<u32>,
    /// Luau's message, without the chunk-name prefix.
    pub message: String,
}

/// What was made of a checked source and not taken yet.
#[derive(Default)]
struct Prepared {
    /// Luau's bytecode.
    bytecode: Option<Box<[u8]>>,
    /// The source checks' reading of it, or the parser's complaint.
    facts: Option<Result<SourceFacts, String>>,
}

/// What checked sources not loaded yet compiled to, by their text's 128-bit hash (not the
/// text: 10,000 cards' copies were a megabyte at the load's peak, and two texts with one
/// such hash are not a risk worth that). Shared by every thread: a loader checks on several,
/// the engine loads on one. Bounded: past [`KEPT_MAX_BYTES`] it is cleared (a host that
/// checks without loading keeps nothing for long).
struct Kept {
    by_text: FxHashMap<u128, Prepared>,
    /// About what the entries hold, in bytes: bytecode, and [`ENTRY_BYTES`] each.
    bytes: usize,
}

/// Most bytes of kept sources: a load of 100,000 cards keeps about 80 MB until its engine
/// takes them (a count of 50,000 sources, the bound until 2026-11-30, made a load of
/// 100,000 cards compile half of them twice).
const KEPT_MAX_BYTES: usize = 256 << 20;

/// What an entry holds besides its bytecode, about (the map's slot, the facts' lists).
const ENTRY_BYTES: usize = 400;

static KEPT: LazyLock<Mutex<Kept>> = LazyLock::new(|| {
    Mutex::new(Kept {
        by_text: FxHashMap::default(),
        bytes: 0,
    })
});

fn kept() -> MutexGuard<'static, Kept> {
    // A panic elsewhere while it was held left nothing half-made: entries are whole.
    KEPT.lock().unwrap_or_else(|e| e.into_inner())
}

fn key(text: &str) -> u128 {
    xxhash_rust::xxh3::xxh3_128(text.as_bytes())
}

/// The one compiler of card and ruleset scripts: the check and the load must agree.
fn compiler() -> mlua::prelude::LuaCompiler {
    mlua::prelude::LuaCompiler::new()
}

/// Keeps `bytecode` (and `facts`) for the load of `text`.
fn keep(text: &str, bytecode: Vec<u8>, facts: Option<Result<SourceFacts, String>>) {
    let k = key(text);
    let mut kept = kept();
    if kept.bytes >= KEPT_MAX_BYTES {
        kept.by_text.clear();
        kept.bytes = 0;
    }
    let len = bytecode.len();
    let mut new_entry = false;
    let e = kept.by_text.entry(k).or_insert_with(|| {
        new_entry = true;
        Prepared::default()
    });
    let old = e
        .bytecode
        .replace(bytecode.into_boxed_slice())
        .map_or(0, |b| b.len());
    if facts.is_some() {
        e.facts = facts;
    }
    let added = len + if new_entry { ENTRY_BYTES } else { 0 };
    kept.bytes = (kept.bytes + added).saturating_sub(old);
}

/// Compiles `source` without running it. Errors carry the line Luau reports.
pub fn check_syntax(source: &Source) -> Result<(), SyntaxError> {
    let bytecode = compiler()
        .compile(&source.text)
        .map_err(|e| split_message(&source.name, &e.to_string()))?;
    keep(&source.text, bytecode, None);
    Ok(())
}

/// [`check_syntax`], and the source checks' reading of the script done now too (kept for
/// the engine that loads it): what a loader calls, on any thread, for a script it will
/// hand to an engine.
pub fn prepare_script(source: &Source) -> Result<(), SyntaxError> {
    let bytecode = compiler()
        .compile(&source.text)
        .map_err(|e| split_message(&source.name, &e.to_string()))?;
    let facts = read_facts(&source.text);
    keep(&source.text, bytecode, Some(facts));
    Ok(())
}

/// The source checks' reading of `text`: a parse with full_moon and one walk.
fn read_facts(text: &str) -> Result<SourceFacts, String> {
    let tree = crate::sandbox::source_checks::parse(text)?;
    Ok(crate::sandbox::source_checks::read_source(&tree))
}

/// Takes one part of the entry of `text`, removing the entry once nothing is left in it.
fn take<T>(text: &str, part: impl FnOnce(&mut Prepared) -> Option<T>) -> Option<T> {
    let k = key(text);
    let mut kept = kept();
    let e = kept.by_text.get_mut(&k)?;
    let size = |e: &Prepared| e.bytecode.as_ref().map_or(0, |b| b.len());
    let before = size(e);
    let got = part(e);
    let mut freed = before - size(e);
    if e.bytecode.is_none() && e.facts.is_none() {
        kept.by_text.remove(&k);
        freed += ENTRY_BYTES;
    }
    kept.bytes = kept.bytes.saturating_sub(freed);
    got
}

/// The bytecode of `text`: the one [`check_syntax`] kept (taken: each is loaded once), else
/// compiled now. A syntax error is mlua's, as loading the text would give.
pub(crate) fn bytecode(text: &str) -> mlua::Result<Vec<u8>> {
    match take(text, |e| e.bytecode.take()) {
        Some(b) => Ok(b.into_vec()),
        None => compiler().compile(text),
    }
}

/// The source checks' reading of `text`: the one [`prepare_script`] kept (taken), else read now.
pub(crate) fn source_facts(text: &str) -> Result<SourceFacts, String> {
    match take(text, |e| e.facts.take()) {
        Some(f) => f,
        None => read_facts(text),
    }
}

/// Turns `name:LINE: message` (or `LINE: message`, from a compile without a chunk name)
/// into its parts.
pub(crate) fn split_message(name: &str, raw: &str) -> SyntaxError {
    let first = raw.lines().next().unwrap_or(raw);
    let rest = first.strip_prefix("syntax error: ").unwrap_or(first);
    let after = rest
        .strip_prefix(name)
        .and_then(|r| r.strip_prefix(':'))
        .or(Some(rest));
    if let Some(after) = after
        && let Some((num, msg)) = after.split_once(':')
        && let Ok(line) = num.trim().parse()
    {
        return SyntaxError {
            line: Some(line),
            message: msg.trim().to_string(),
        };
    }
    SyntaxError {
        line: None,
        message: rest.trim().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_line_of_syntax_error() {
        let src = Source {
            name: "cards/x.lua".into(),
            text: "local a = 1\nlocal = 2\n".into(),
        };
        let err = check_syntax(&src).unwrap_err();
        assert_eq!(err.line, Some(2), "{err:?}");
        assert!(!err.message.is_empty());
    }

    #[test]
    fn accepts_valid_source() {
        let src = Source {
            name: "ok.lua".into(),
            text: "return { a = 1 }".into(),
        };
        assert!(check_syntax(&src).is_ok());
    }

    #[test]
    fn a_checked_source_is_compiled_once_and_its_bytecode_taken_once() {
        let text = "return { kept = true }";
        check_syntax(&Source {
            name: "kept.lua".into(),
            text: text.into(),
        })
        .unwrap();
        let is_kept = kept().by_text.contains_key(&key(text));
        assert!(is_kept);
        let b = bytecode(text).unwrap();
        assert_eq!(b, compiler().compile(text).unwrap(), "the same bytecode");
        let gone = !kept().by_text.contains_key(&key(text));
        assert!(gone, "taken, not copied");
    }

    #[test]
    fn a_prepared_source_gives_its_bytecode_and_facts_to_another_thread_once() {
        let text =
            "local kept = 1\nreturn { prepared = function() kept = 2; return Cost.rest end }";
        let src = Source {
            name: "prepared.lua".into(),
            text: text.into(),
        };
        // Prepared on one thread, taken on another: a parallel loader's case.
        std::thread::spawn(move || prepare_script(&src).unwrap())
            .join()
            .unwrap();
        let facts = take(text, |e| e.facts.take()).expect("kept").unwrap();
        let fresh = read_facts(text).unwrap();
        assert_eq!(facts.lasting, fresh.lasting);
        assert_eq!(facts.reads, fresh.reads);
        assert_eq!(
            facts.lasting.len(),
            1,
            "the top-level local assigned in a function"
        );
        assert!(
            kept().by_text.contains_key(&key(text)),
            "the bytecode is still there"
        );
        assert_eq!(bytecode(text).unwrap(), compiler().compile(text).unwrap());
        assert!(!kept().by_text.contains_key(&key(text)), "both taken: gone");
    }

    #[test]
    fn a_source_that_does_not_compile_keeps_nothing() {
        let text = "local = 3 -- prepare refuses";
        let src = Source {
            name: "bad.lua".into(),
            text: text.into(),
        };
        assert!(prepare_script(&src).is_err());
        assert!(!kept().by_text.contains_key(&key(text)));
    }
}
