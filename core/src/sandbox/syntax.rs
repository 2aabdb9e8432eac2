//! Compiling Lua sources: the syntax check validation makes, and the bytecode the engine
//! loads. A source is compiled once: the check keeps its bytecode, and loading the same text
//! later (the engine, usually moments after validation) takes it instead of compiling again
//! (with 10,000 cards, compiling twice was a seventh of a cold load).

use std::cell::RefCell;

use rustc_hash::FxHashMap;

use crate::content::Source;

/// A Lua syntax error, with the line it points at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// 1-based line of the error, when Luau reports one.
    pub line: Option<u32>,
    /// Luau's message, without the chunk-name prefix.
    pub message: String,
}

/// Bytecode of checked sources not loaded yet, by their text's 128-bit hash (not the text:
/// 10,000 cards' copies were a megabyte at the load's peak, and two texts with one such
/// hash are not a risk worth that). Bounded: past [`KEPT_MAX`] entries it is cleared (a
/// host that checks without loading keeps nothing for long).
struct Kept {
    by_text: FxHashMap<u128, Box<[u8]>>,
}

/// Most compiled sources waiting to be loaded (about 1 KB each).
const KEPT_MAX: usize = 50_000;

thread_local! {
    static KEPT: RefCell<Kept> = RefCell::new(Kept { by_text: FxHashMap::default() });
}

fn key(text: &str) -> u128 {
    xxhash_rust::xxh3::xxh3_128(text.as_bytes())
}

/// The one compiler of card and ruleset scripts: the check and the load must agree.
fn compiler() -> mlua::prelude::LuaCompiler {
    mlua::prelude::LuaCompiler::new()
}

/// Compiles `source` without running it. Errors carry the line Luau reports.
pub fn check_syntax(source: &Source) -> Result<(), SyntaxError> {
    let bytecode = compiler()
        .compile(&source.text)
        .map_err(|e| split_message(&source.name, &e.to_string()))?;
    KEPT.with(|k| {
        let mut k = k.borrow_mut();
        if k.by_text.len() >= KEPT_MAX {
            k.by_text.clear();
        }
        k.by_text
            .insert(key(&source.text), bytecode.into_boxed_slice());
    });
    Ok(())
}

/// The bytecode of `text`: the one [`check_syntax`] kept (taken: each is loaded once), else
/// compiled now. A syntax error is mlua's, as loading the text would give.
pub(crate) fn bytecode(text: &str) -> mlua::Result<Vec<u8>> {
    match KEPT.with(|k| k.borrow_mut().by_text.remove(&key(text))) {
        Some(b) => Ok(b.into_vec()),
        None => compiler().compile(text),
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
        let kept = KEPT.with(|k| k.borrow().by_text.contains_key(&key(text)));
        assert!(kept);
        let b = bytecode(text).unwrap();
        assert_eq!(b, compiler().compile(text).unwrap(), "the same bytecode");
        let gone = KEPT.with(|k| !k.borrow().by_text.contains_key(&key(text)));
        assert!(gone, "taken, not copied");
    }
}
