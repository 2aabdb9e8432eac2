//! Equivalent mutants marked in the script itself: a trailing comment
//! `-- mutant: equivalent, <reason>` says that the numbers of its line can be changed without
//! any game showing it (`F.power_max(4000)` when every power is a multiple of 1000). Such a
//! mutant is still made and run: when it survives it is reported as *equivalent* with its
//! reason; when a scenario catches it, the comment is stale.

use std::collections::BTreeMap;

use full_moon::tokenizer::TokenType;

use super::numbers::{self, LexError};

/// How the comment is written.
pub const FORM: &str = "-- mutant: equivalent, <why no game can show the change>";

/// A `-- mutant:` comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// 1-based line.
    pub line: usize,
    /// 1-based column of the `--`, in characters.
    pub col: usize,
    /// The reason, or why the comment is not a well-formed mark.
    pub reason: Result<String, String>,
}

/// The comments of `source` that begin `mutant:` (after `--` and spaces; any case), in order.
/// Only single-line comments: a mark is about the line it ends.
pub fn marks(source: &str) -> Result<Vec<Mark>, LexError> {
    Ok(numbers::tokens(source)?
        .iter()
        .filter_map(|t| match t.token_type() {
            TokenType::SingleLineComment { comment } => {
                let text = comment.trim();
                let head = text.get(..7)?;
                head.eq_ignore_ascii_case("mutant:").then(|| Mark {
                    line: t.start_position().line(),
                    col: t.start_position().character(),
                    reason: reason(text),
                })
            }
            _ => None,
        })
        .collect())
}

/// The reason of `mutant: equivalent, <reason>`, or what is wrong with the comment.
fn reason(text: &str) -> Result<String, String> {
    let Some(rest) = text.strip_prefix("mutant: equivalent,") else {
        return Err(format!("not a mutant mark: write `{FORM}`"));
    };
    let rest = rest.trim();
    if rest.is_empty() {
        return Err(format!("a mutant mark needs its reason: `{FORM}`"));
    }
    Ok(rest.to_string())
}

/// The well-formed marks of `source` by line: the reason each line's mutants are equivalent.
pub fn by_line(source: &str) -> Result<BTreeMap<usize, String>, LexError> {
    Ok(marks(source)?
        .into_iter()
        .filter_map(|m| m.reason.ok().map(|r| (m.line, r)))
        .collect())
}

/// The marks of `source` that mark nothing: malformed, or on a line without a number to
/// change (a mark applies to its own line only). `(line, col, message)`.
pub fn misplaced(source: &str) -> Result<Vec<(usize, usize, String)>, LexError> {
    let changed: Vec<usize> = numbers::literals(source)?
        .into_iter()
        .filter(|l| numbers::changed(&l.text).is_some())
        .map(|l| l.line)
        .collect();
    Ok(marks(source)?
        .into_iter()
        .filter_map(|m| match m.reason {
            Err(why) => Some((m.line, m.col, why)),
            Ok(_) if !changed.contains(&m.line) => Some((
                m.line,
                m.col,
                "this mutant mark is on a line with no number: it applies to the numbers of its own line only"
                    .to_string(),
            )),
            Ok(_) => None,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_is_a_trailing_comment_with_a_reason() {
        let src = "local a = 4000 -- mutant: equivalent, powers are multiples of 1000\n\
                   local b = 2 -- mutant: equivalent,\n\
                   local c = 3 -- Mutant: equivalent because\n\
                   -- mutant: equivalent, on a line of its own\n\
                   local d = 5 -- a plain comment: mutant: equivalent, not a mark\n\
                   local s = \"-- mutant: equivalent, in a string\"\n";
        let ms = marks(src).unwrap();
        assert_eq!(ms.len(), 4, "{ms:?}");
        assert_eq!(
            (ms[0].line, ms[0].col, ms[0].reason.clone()),
            (1, 16, Ok("powers are multiples of 1000".to_string()))
        );
        assert!(
            ms[1]
                .reason
                .as_ref()
                .unwrap_err()
                .contains("needs its reason")
        );
        assert!(
            ms[2]
                .reason
                .as_ref()
                .unwrap_err()
                .contains("not a mutant mark")
        );
        assert_eq!(
            by_line(src).unwrap().into_iter().collect::<Vec<_>>(),
            [
                (1, "powers are multiples of 1000".to_string()),
                (4, "on a line of its own".to_string())
            ]
        );
        let wrong: Vec<(usize, usize)> = misplaced(src)
            .unwrap()
            .into_iter()
            .map(|(l, c, _)| (l, c))
            .collect();
        assert_eq!(wrong, [(2, 13), (3, 13), (4, 1)]);
    }
}
