//! Diagnostics drawn for people: the message, the source line with a caret under the column,
//! the hint, in colour. Tools and pipes get the plain `path:line:col: message` line instead
//! (`Diagnostic`'s `Display`), unchanged: on a terminal only, and never when `NO_COLOR` is set,
//! unless `--color always` asks for it.

use std::io::IsTerminal;

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

use riffle_content::diagnostic::{Diagnostic, OneLine, Severity, display_path};

/// When to draw diagnostics for people (`--color`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless `NO_COLOR` is set.
    #[default]
    Auto,
    /// Always (even into a pipe or a file).
    Always,
    /// Never: the plain `path:line:col: message` lines.
    Never,
}

/// Which output stream the diagnostics go to (what `auto` looks at).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

/// Draws diagnostics plainly or for people.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Render {
    fancy: bool,
}

impl Render {
    /// The plain form: one `path:line:col: message` line each.
    pub const PLAIN: Render = Render { fancy: false };
    /// The form for people, in colour.
    pub const FANCY: Render = Render { fancy: true };

    /// What `choice` means for `stream` in this process (its terminal, `NO_COLOR`).
    pub fn for_stream(choice: ColorChoice, stream: Stream) -> Render {
        let terminal = match stream {
            Stream::Stdout => std::io::stdout().is_terminal(),
            Stream::Stderr => std::io::stderr().is_terminal(),
        };
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Render::choose(choice, terminal, no_color)
    }

    /// The decision itself: `always` and `never` win; `auto` draws for people only on a
    /// terminal without `NO_COLOR` (<https://no-color.org>).
    pub fn choose(choice: ColorChoice, terminal: bool, no_color: bool) -> Render {
        let fancy = match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => terminal && !no_color,
        };
        Render { fancy }
    }

    /// Whether this draws for people.
    pub fn is_fancy(&self) -> bool {
        self.fancy
    }

    /// One diagnostic: the plain line, or (fancy) a block ending in a newline.
    pub fn render(&self, d: &Diagnostic) -> String {
        if !self.fancy {
            return d.to_string();
        }
        // Diagnostics come sorted by file: keep the last file read.
        thread_local! {
            static LAST: std::cell::RefCell<Option<(std::path::PathBuf, Option<String>)>> =
                const { std::cell::RefCell::new(None) };
        }
        LAST.with_borrow_mut(|last| {
            if last.as_ref().is_none_or(|(p, _)| *p != d.path) {
                *last = Some((
                    d.path.clone(),
                    riffle_content::read::read_text(&d.path).ok(),
                ));
            }
            fancy(d, last.as_ref().and_then(|(_, s)| s.as_deref()))
        })
    }
}

/// The drawn form of `d`, with `source` the text of its file (when it could be read).
pub fn fancy(d: &Diagnostic, source: Option<&str>) -> String {
    let level = match d.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Info => Level::NOTE,
    };
    let mut title = String::new();
    if let Some(p) = d.pointer.as_deref().filter(|p| !p.is_empty()) {
        title.push_str(&format!("{}: ", OneLine(p)));
    }
    title.push_str(&OneLine(&d.message).to_string());
    if let Some(card) = &d.card {
        title.push_str(&format!(" (card {})", OneLine(card)));
    }
    let path = OneLine(&display_path(&d.path)).to_string();
    let shown = source.and_then(|s| source_line(s, d.line));
    let mut head = level.clone().primary_title(title);
    if let Some(code) = &d.code {
        head = head.id(code.clone());
    }
    let group = match &shown {
        Some(line) => {
            let span = caret(line, d.col);
            head.element(
                Snippet::source(line.as_str())
                    .line_start(d.line as usize)
                    .path(path.clone())
                    .fold(false)
                    .annotation(AnnotationKind::Primary.span(span)),
            )
        }
        // No source to show: the place alone.
        None => head.element(
            Level::NOTE
                .no_name()
                .message(format!("--> {path}:{}:{}", d.line, d.col)),
        ),
    };
    let mut report = vec![group];
    for r in &d.related {
        report.push(Group::with_title(
            Level::NOTE.secondary_title(format!("see {}", OneLine(&r.to_string()))),
        ));
    }
    if let Some(hint) = &d.hint {
        report.push(Group::with_title(
            Level::HELP.secondary_title(OneLine(hint).to_string()),
        ));
    }
    let mut out = Renderer::styled().render(&report);
    out.push('\n');
    out
}

/// Line `line` (1-based) of `source`, with tabs as spaces and other control characters as
/// U+FFFD, so that a column (in characters) is where the caret goes and nothing in the file
/// can steer the terminal.
fn source_line(source: &str, line: u32) -> Option<String> {
    let text = source.lines().nth((line as usize).checked_sub(1)?)?;
    Some(
        text.chars()
            .map(|c| match c {
                '\t' => ' ',
                c if c.is_control()
                    || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}') =>
                {
                    '\u{fffd}'
                }
                c => c,
            })
            .collect(),
    )
}

/// The byte range the caret marks: the word starting at column `col` (1-based, in
/// characters) up to a space or a comma, without the closing brackets it did not open (YAML's
/// `[red, gren]`); at least one character; the end of the line when the column is past it.
fn caret(line: &str, col: u32) -> std::ops::Range<usize> {
    let start = line
        .char_indices()
        .nth((col as usize).saturating_sub(1))
        .map_or(line.len(), |(i, _)| i);
    let rest = &line[start..];
    let mut word = &rest[..rest
        .char_indices()
        .find(|&(i, c)| i > 0 && (c.is_whitespace() || c == ','))
        .map_or(rest.len(), |(i, _)| i)];
    let opened =
        |w: &str, open: char, close: char| w.matches(open).count() >= w.matches(close).count();
    while (word.ends_with(']') && !opened(word, '[', ']'))
        || (word.ends_with('}') && !opened(word, '{', '}'))
    {
        word = &word[..word.len() - 1];
    }
    let len = word
        .len()
        .max(rest.chars().next().map_or(0, char::len_utf8));
    start..start + len
}

/// `drawn` without its colour escape sequences (`ESC [ ... letter`): what a person sees on
/// the terminal, for comparing drawn output with text.
pub fn visible(drawn: &str) -> String {
    let mut out = String::new();
    let mut chars = drawn.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use riffle_content::yaml::Pos;

    #[test]
    fn the_drawn_form_shows_the_line_and_a_caret_under_the_column() {
        let src = "id: X-1\ncategory: character\ncost: -1\n";
        let d = Diagnostic::error("cards/X-1.yaml", Pos { line: 3, col: 7 }, "too low")
            .at_pointer("/cost")
            .for_card(Some("X-1"))
            .with_hint("use 0 or more");
        let out = fancy(&d, Some(src));
        assert!(out.contains("\u{1b}["), "in colour: {out:?}");
        let seen = visible(&out);
        let lines: Vec<&str> = seen.lines().collect();
        assert!(
            lines[0].starts_with("error: /cost: too low (card X-1)"),
            "{seen}"
        );
        assert!(seen.contains("cards/X-1.yaml:3:7"), "{seen}");
        let at = lines
            .iter()
            .position(|l| l.ends_with("cost: -1"))
            .expect("the source line");
        let caret_line = lines[at + 1];
        let source_col = lines[at].find("cost: -1").unwrap();
        // The caret is under `-1`: column 7 of the source line.
        assert_eq!(caret_line.find('^'), Some(source_col + 6), "{seen}");
        assert_eq!(caret_line.matches('^').count(), 2, "{seen}");
        assert!(seen.contains("help: use 0 or more"), "{seen}");
    }

    #[test]
    fn the_caret_marks_the_value_without_the_brackets_around_it() {
        let line = "colors: [red, gren]";
        assert_eq!(&line[caret(line, 15)], "gren");
        let line = "text: {en: \"[Blocker] (rest)\"}";
        assert_eq!(&line[caret(line, 13)], "[Blocker]");
        assert_eq!(caret("ab", 9), 2..2);
    }

    #[test]
    fn control_characters_of_the_file_do_not_reach_the_terminal() {
        let src = "a: \"\u{1b}[31mred\"\n";
        let d = Diagnostic::warning("a.yaml", Pos { line: 1, col: 4 }, "m");
        let seen = visible(&fancy(&d, Some(src)));
        assert!(seen.contains("a: \"\u{fffd}[31mred\""), "{seen}");
    }

    #[test]
    fn without_its_file_the_place_is_still_named() {
        let d = Diagnostic::error("gone.yaml", Pos { line: 2, col: 3 }, "m");
        let seen = visible(&fancy(&d, None));
        assert!(seen.contains("gone.yaml:2:3"), "{seen}");
    }

    #[test]
    fn auto_is_fancy_only_on_a_terminal_without_no_color() {
        use ColorChoice::*;
        assert!(Render::choose(Auto, true, false).is_fancy());
        assert!(!Render::choose(Auto, true, true).is_fancy());
        assert!(!Render::choose(Auto, false, false).is_fancy());
        assert!(Render::choose(Always, false, true).is_fancy());
        assert!(!Render::choose(Never, true, false).is_fancy());
        let d = Diagnostic::error("a.yaml", Pos::START, "m");
        assert_eq!(Render::PLAIN.render(&d), "a.yaml:1:1: m");
    }
}
