//! What a script can make the host hold. Lua memory has its allowance per game
//! ([`crate::sandbox::vm::Memory`]), but what a script hands the kernel (an option's label, a
//! request's options, an event's data, log entries) lives in Rust, outside it. Each has a
//! bound here; a script that passes one gets an error naming it, before anything is copied.
//! docs/security.md lists them.

use mlua::{Result, Table, Value};

/// Bytes in a text a script hands the kernel: a label, prompt, kind, reason,
/// key, log message or string in event data.
pub const TEXT: usize = 1024;
/// Options in one request, at least: a game of many cards allows more ([`options_for`]).
pub const OPTIONS: usize = 1000;

/// Options one request of a game holding `objects` card objects may have: [`OPTIONS`], or
/// 16 per object when that is more. A legal position with many cards (a search of a deck of
/// 1,500) must not end the game; what a script can make the host hold still grows only
/// with the content, not with the script.
pub fn options_for(objects: usize) -> usize {
    OPTIONS.max(objects.saturating_mul(16))
}
/// Values in one event's data, counting the items of lists.
pub const DATA: usize = 1000;
/// Nesting of lists in event data.
pub const DEPTH: usize = 8;
/// Entries in one game's log; a game that reaches it ends in a draw (`log_limit`).
pub const LOG_ENTRIES: usize = 1_000_000;

/// Bytes of one error message kept (in `Game::errors` and the log): a script's error quotes
/// what it was given, and a megabyte event name would otherwise be held per error.
pub const MESSAGE: usize = 2048;

/// `m` cut to [`MESSAGE`] bytes (at a character boundary), saying how long it was.
pub fn cut_message(m: String) -> String {
    if m.len() <= MESSAGE {
        return m;
    }
    let mut end = MESSAGE;
    while !m.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… [message cut: {} bytes in all]", &m[..end], m.len())
}

/// A text value of at most [`TEXT`] bytes, checked before it is copied into Rust.
pub fn text(v: &mlua::LuaString, what: &str) -> Result<String> {
    let len = v.as_bytes().len();
    if len > TEXT {
        return Err(mlua::Error::runtime(format!(
            "{what} is {len} bytes long; the limit is {TEXT}"
        )));
    }
    Ok(v.to_string_lossy())
}

/// An optional text field of a table a script built (nil: None; not a string: an error).
pub fn opt_text(t: &Table, key: &str) -> Result<Option<String>> {
    match t.raw_get::<Value>(key)? {
        Value::Nil => Ok(None),
        Value::String(s) => text(&s, &format!("`{key}`")).map(Some),
        other => Err(mlua::Error::runtime(format!(
            "`{key}` should be a string, not a {}",
            other.type_name()
        ))),
    }
}

/// Counts what an event's data holds against [`DATA`] and [`DEPTH`].
#[derive(Default)]
pub struct DataBudget {
    values: usize,
}

impl DataBudget {
    /// One more value at nesting `depth`.
    pub fn take(&mut self, depth: usize) -> Result<()> {
        self.values += 1;
        if self.values > DATA {
            return Err(mlua::Error::runtime(format!(
                "event data holds more than {DATA} values"
            )));
        }
        if depth > DEPTH {
            return Err(mlua::Error::runtime(format!(
                "event data nests lists deeper than {DEPTH} (a table that contains itself?)"
            )));
        }
        Ok(())
    }
}
