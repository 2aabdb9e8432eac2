//! Diagnostics: what is wrong (or worth knowing) about content, with a file position.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::yaml::Pos;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing, nothing wrong (a mod's override of a card).
    Info,
    /// Probably a mistake, but the content still loads (an unused script).
    Warning,
    /// The content is invalid.
    Error,
}

/// Another place a diagnostic refers to (the first definition of a duplicate id).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Related {
    /// The file.
    pub path: PathBuf,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
}

impl fmt::Display for Related {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", display_path(&self.path), self.line, self.col)
    }
}

/// One problem (or note) about one place in one file.
///
/// Displayed as `path:line:col: message`, with the JSON pointer before the message, the card
/// id after it and the hint, if any, last after `; `: `cardsets/onepiece/rf01/RF01-003.yaml:7:9:
/// /cost: -1 is less than the minimum of 0 (card RF01-003)`. That plain form is what tools
/// parse; `render` draws the form for people (the source line, a caret, colours).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Diagnostic {
    /// The file, as the search path was given joined with the path inside it.
    pub path: PathBuf,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (characters).
    pub col: u32,
    /// The JSON pointer of the value concerned in a YAML file (`/cost`), if any.
    pub pointer: Option<String>,
    /// The card concerned, if any.
    pub card: Option<String>,
    /// What is wrong and, where it helps, what to do.
    pub message: String,
    /// Error, warning or info.
    pub severity: Severity,
    /// Other places the message refers to.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<Related>,
    /// What to do about it, when the message alone does not say (`riffle lint`'s findings).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// The name of the check that found it (`riffle lint`'s `no-scenario`...), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}

impl Diagnostic {
    /// An error at `path:pos`.
    pub fn error(path: impl Into<PathBuf>, pos: Pos, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Error, path, pos, message)
    }

    /// A warning at `path:pos`.
    pub fn warning(path: impl Into<PathBuf>, pos: Pos, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Warning, path, pos, message)
    }

    /// An informational note at `path:pos`.
    pub fn info(path: impl Into<PathBuf>, pos: Pos, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Info, path, pos, message)
    }

    /// A diagnostic of any severity.
    pub fn new(
        severity: Severity,
        path: impl Into<PathBuf>,
        pos: Pos,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            path: path.into(),
            line: pos.line,
            col: pos.col,
            pointer: None,
            card: None,
            message: message.into(),
            severity,
            related: Vec::new(),
            hint: None,
            code: None,
        }
    }

    /// Sets the JSON pointer.
    pub fn at_pointer(mut self, pointer: impl Into<String>) -> Diagnostic {
        self.pointer = Some(pointer.into());
        self
    }

    /// Sets the card id.
    pub fn for_card(mut self, card: Option<&str>) -> Diagnostic {
        self.card = card.map(str::to_string);
        self
    }

    /// Adds a related place.
    pub fn with_related(mut self, path: impl Into<PathBuf>, pos: Pos) -> Diagnostic {
        self.related.push(Related {
            path: path.into(),
            line: pos.line,
            col: pos.col,
        });
        self
    }

    /// Sets what to do about it.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hint = Some(hint.into());
        self
    }

    /// Sets the name of the check that found it.
    pub fn with_code(mut self, code: impl Into<String>) -> Diagnostic {
        self.code = Some(code.into());
        self
    }

    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Whether this diagnostic, or a place it refers to, lies under `scope` (a file or folder,
    /// compared component by component).
    pub fn concerns(&self, scope: &Path) -> bool {
        self.path.starts_with(scope) || self.related.iter().any(|r| r.path.starts_with(scope))
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Every part goes through `OneLine`: messages carry script errors and file names
        // carry anything, and a raw newline or escape sequence must not reach the terminal.
        write!(
            f,
            "{}:{}:{}: ",
            OneLine(&display_path(&self.path)),
            self.line,
            self.col
        )?;
        match self.severity {
            Severity::Error => {}
            Severity::Warning => f.write_str("warning: ")?,
            Severity::Info => f.write_str("note: ")?,
        }
        match &self.pointer {
            Some(p) if !p.is_empty() => write!(f, "{}: ", OneLine(p))?,
            _ => {}
        }
        write!(f, "{}", OneLine(&self.message))?;
        if let Some(card) = &self.card {
            write!(f, " (card {})", OneLine(card))?;
        }
        if let Some(hint) = &self.hint {
            write!(f, "; {}", OneLine(hint))?;
        }
        Ok(())
    }
}

/// Text shown on one line of a terminal: control characters (`\n`, `\r`, `\t`, ESC...),
/// Unicode line and paragraph separators and bidirectional overrides are written as Rust
/// escapes (`\n`, `\u{1b}`, `\u{202e}`); everything else as it is.
#[derive(Clone, Copy, Debug)]
pub struct OneLine<'a>(pub &'a str);

impl fmt::Display for OneLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        while let Some(i) = rest.find(needs_escape) {
            f.write_str(&rest[..i])?;
            let c = rest[i..].chars().next().unwrap_or_default();
            match c {
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                c => write!(f, "\\u{{{:x}}}", c as u32)?,
            }
            rest = &rest[i + c.len_utf8()..];
        }
        f.write_str(rest)
    }
}

fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// A path for people: forward slashes, no leading `./`.
pub fn display_path(path: &Path) -> String {
    let s = path.to_string_lossy().replace('\\', "/");
    let mut t = s.as_str();
    while let Some(rest) = t.strip_prefix("./") {
        t = rest;
    }
    t.to_string()
}

/// Sorts diagnostics by file, position and message, and removes exact duplicates.
pub fn sort_and_dedup(diags: &mut Vec<Diagnostic>) {
    diags.sort_by(|a, b| {
        (&a.path, a.line, a.col, &a.message, a.severity)
            .cmp(&(&b.path, b.line, b.col, &b.message, b.severity))
    });
    diags.dedup();
}

/// Most diagnostics shown for one file: a file with a million bad entries says so in a few
/// hundred lines, not in hundreds of megabytes.
pub const MAX_PER_FILE: usize = 200;

/// Keeps the first [`MAX_PER_FILE`] diagnostics of each file (`diags` sorted by file, as
/// [`sort_and_dedup`] leaves them) and puts one in place of the rest: "and 1,499,800 more
/// problems in this file", an error if any of them is one.
pub fn cap_per_file(diags: &mut Vec<Diagnostic>) {
    let mut out = Vec::with_capacity(diags.len().min(4096));
    let mut i = 0;
    while i < diags.len() {
        let path = diags[i].path.clone();
        let end = i + diags[i..].iter().take_while(|d| d.path == path).count();
        out.extend(diags[i..end.min(i + MAX_PER_FILE)].iter().cloned());
        if end - i > MAX_PER_FILE {
            let rest = &diags[i + MAX_PER_FILE..end];
            let errors = rest.iter().filter(|d| d.is_error()).count();
            let message = format!(
                "and {} more problems in this file ({errors} of them errors); the first {MAX_PER_FILE} are shown: mend those, and run again",
                group_digits(rest.len())
            );
            let at = Pos {
                line: rest[0].line,
                col: rest[0].col,
            };
            out.push(if errors > 0 {
                Diagnostic::error(&path, at, message)
            } else {
                Diagnostic::warning(&path, at, message)
            });
        }
        i = end;
    }
    *diags = out;
}

/// `1499800` as `1,499,800`.
fn group_digits(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (k, c) in s.chars().enumerate() {
        if k > 0 && (s.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_s_diagnostics_past_the_cap_become_one_line() {
        let mut d: Vec<Diagnostic> = (0..1_500_000u32)
            .map(|i| {
                Diagnostic::error(
                    "big.yaml",
                    Pos {
                        line: i + 1,
                        col: 1,
                    },
                    "bad",
                )
            })
            .chain([Diagnostic::warning("small.yaml", Pos::START, "meh")])
            .collect();
        sort_and_dedup(&mut d);
        cap_per_file(&mut d);
        assert_eq!(d.len(), MAX_PER_FILE + 2);
        assert_eq!(
            d[MAX_PER_FILE].message,
            "and 1,499,800 more problems in this file (1499800 of them errors); the first 200 are shown: mend those, and run again"
        );
        assert!(d[MAX_PER_FILE].is_error());
        assert_eq!(d[MAX_PER_FILE + 1].message, "meh");
    }

    #[test]
    fn displays_path_line_col_pointer_and_card() {
        let d = Diagnostic::error(
            "./cardsets/onepiece/rf01/RF01-003.yaml",
            Pos { line: 7, col: 9 },
            "-1 is less than the minimum of 0",
        )
        .at_pointer("/cost")
        .for_card(Some("RF01-003"));
        assert_eq!(
            d.to_string(),
            "cardsets/onepiece/rf01/RF01-003.yaml:7:9: /cost: -1 is less than the minimum of 0 (card RF01-003)"
        );
        let n = Diagnostic::info("a.yaml", Pos::START, "hello");
        assert_eq!(n.to_string(), "a.yaml:1:1: note: hello");
        let h = Diagnostic::warning("a.lua", Pos::START, "no scenario names this card")
            .for_card(Some("X-1"))
            .with_hint("write X-1.test.yaml")
            .with_code("no-scenario");
        assert_eq!(
            h.to_string(),
            "a.lua:1:1: warning: no scenario names this card (card X-1); write X-1.test.yaml"
        );
    }

    #[test]
    fn control_characters_are_escaped_on_one_line() {
        let d = Diagnostic::error(
            "a\nb.yaml",
            Pos::START,
            "line 1\nline 2\r\t\u{1b}[31mred\u{7f}\u{202e}é",
        )
        .for_card(Some("X\u{0}"));
        assert_eq!(
            d.to_string(),
            "a\\nb.yaml:1:1: line 1\\nline 2\\r\\t\\u{1b}[31mred\\u{7f}\\u{202e}é (card X\\u{0})"
        );
        // JSON keeps the text as it is (serde escapes it).
        let v = serde_json::to_value(&d).unwrap();
        assert_eq!(
            v["message"],
            "line 1\nline 2\r\t\u{1b}[31mred\u{7f}\u{202e}é"
        );
    }

    #[test]
    fn serializes_to_json() {
        let d = Diagnostic::warning("a.yaml", Pos { line: 2, col: 3 }, "m");
        let v = serde_json::to_value(&d).unwrap();
        assert_eq!(v["severity"], "warning");
        assert_eq!(v["line"], 2);
        assert_eq!(v["path"], "a.yaml");
        assert!(v["pointer"].is_null());
    }
}
