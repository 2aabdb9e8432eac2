//! Turning a Lua error into one line that names who failed. A card's error names the card
//! and its file:line even when the failing line is in a ruleset helper the card called
//! (the card's frame is found in the traceback), and a ruleset's error on a card's behalf
//! (`ctx:guard`) names the card too.

/// What a failure says, taken apart.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Failure {
    /// The message itself, one line, without its location prefix.
    pub message: String,
    /// Every `file.lua:line` named, the failing line first, then the traceback's frames
    /// from the innermost out.
    pub locations: Vec<(String, u32)>,
    /// The allocator refused (the game's memory allowance is used up).
    pub memory: bool,
}

impl Failure {
    /// Takes an mlua error apart.
    pub fn of(e: &mlua::Error) -> Failure {
        let mut f = Failure::default();
        f.read(e);
        if f.message.is_empty() {
            f.message = "script error".into();
        }
        f.message = super::limits::cut_message(std::mem::take(&mut f.message));
        f
    }

    /// A failure with only a message (raised by the kernel, not by Lua).
    pub fn message(m: impl Into<String>) -> Failure {
        Failure {
            message: m.into(),
            ..Failure::default()
        }
    }

    fn read(&mut self, e: &mlua::Error) {
        match e {
            mlua::Error::CallbackError { cause, traceback } => {
                self.read(cause);
                self.locations.extend(locations(traceback));
            }
            mlua::Error::WithContext { cause, .. } => self.read(cause),
            mlua::Error::MemoryError(_) => {
                self.memory = true;
                self.message = "out of memory: the game's script memory allowance \
                                (limits.script_memory) is used up"
                    .into();
            }
            mlua::Error::RuntimeError(m) | mlua::Error::SyntaxError { message: m, .. } => {
                let (head, trace) = match m.find("\nstack traceback") {
                    Some(i) => (&m[..i], &m[i..]),
                    None => (m.as_str(), ""),
                };
                let head = head.trim();
                let head = head.strip_prefix("runtime error: ").unwrap_or(head);
                let (at, rest) = split_location(head);
                if let Some(at) = at {
                    self.locations.insert(0, at);
                }
                self.message = rest.to_string();
                self.locations.extend(locations(trace));
            }
            other => self.message = other.to_string(),
        }
    }
}

/// `file.lua:12: message` → (Some((file.lua, 12)), message).
fn split_location(s: &str) -> (Option<(String, u32)>, &str) {
    if let Some(i) = s.find(".lua:") {
        let file = &s[..i + 4];
        let after = &s[i + 5..];
        let digits = after.chars().take_while(char::is_ascii_digit).count();
        if digits > 0
            && !file.contains(char::is_whitespace)
            && let Ok(line) = after[..digits].parse()
        {
            let rest = after[digits..].trim_start_matches(':').trim_start();
            return (Some((file.to_string(), line)), rest);
        }
    }
    (None, s)
}

/// Every `file.lua:N` in a traceback, in order.
fn locations(text: &str) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        let Some(i) = line.find(".lua:") else {
            continue;
        };
        let start = line[..i]
            .rfind(|c: char| c.is_whitespace() || matches!(c, '<' | '[' | '\'' | '"'))
            .map_or(0, |j| j + 1);
        let after = &line[i + 5..];
        let digits = after.chars().take_while(char::is_ascii_digit).count();
        if let Ok(n) = after[..digits].parse() {
            out.push((line[start..i + 4].to_string(), n));
        }
    }
    out
}

/// `s` on one line, with control characters written as escapes (`\n`, `\u{1b}`), so that a
/// script's message cannot break a log line or drive a terminal.
pub fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_location_and_traceback_are_taken_apart() {
        let e = mlua::Error::RuntimeError(
            "cardsets/x/X-1.lua:3: attempt to index nil\nstack traceback:\n\
             scripts/g/effects.lua:25 function can_activate\n\
             cardsets/x/X-1.lua:9"
                .into(),
        );
        let f = Failure::of(&e);
        assert_eq!(f.message, "attempt to index nil");
        assert_eq!(
            f.locations,
            vec![
                ("cardsets/x/X-1.lua".to_string(), 3),
                ("scripts/g/effects.lua".to_string(), 25),
                ("cardsets/x/X-1.lua".to_string(), 9),
            ]
        );
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(one_line("a\nb\u{1b}[31m"), "a\\nb\\u{1b}[31m");
    }
}
