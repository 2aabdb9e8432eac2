//! The numeric literals of a Luau source, found by its tokenizer: numbers in comments,
//! strings and long brackets (`--[==[ 3 ]==]`, `[[2000]]`) are not code and are not changed.

use full_moon::LuaVersion;
use full_moon::tokenizer::{Lexer, LexerResult, Token, TokenType};

/// One numeric literal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Literal {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub col: usize,
    /// Byte range in the source.
    pub start: usize,
    /// End of the byte range (exclusive).
    pub end: usize,
    /// The literal as written (`2000`, `0x10`, `1_000`, `0.5`).
    pub text: String,
}

/// A source the tokenizer refused: where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub col: usize,
    /// The tokenizer's message.
    pub message: String,
}

/// The tokens of `source` (Luau), or where and why the tokenizer refused it.
pub(crate) fn tokens(source: &str) -> Result<Vec<Token>, LexError> {
    match Lexer::new(source, LuaVersion::luau()).collect() {
        LexerResult::Ok(t) => Ok(t),
        LexerResult::Recovered(_, errors) | LexerResult::Fatal(errors) => {
            let e = errors.first();
            Err(LexError {
                line: e.map_or(1, |e| e.position().line()),
                col: e.map_or(1, |e| e.position().character()),
                message: e.map_or_else(
                    || "cannot read the script".into(),
                    |e| e.error().to_string(),
                ),
            })
        }
    }
}

/// Every numeric literal of `source`, in order.
pub fn literals(source: &str) -> Result<Vec<Literal>, LexError> {
    Ok(tokens(source)?
        .iter()
        .filter_map(|t| match t.token_type() {
            TokenType::Number { text } => Some(Literal {
                line: t.start_position().line(),
                col: t.start_position().character(),
                start: t.start_position().bytes(),
                end: t.end_position().bytes(),
                text: text.to_string(),
            }),
            _ => None,
        })
        .collect())
}

/// The value of a Luau numeric literal: decimal, `0x` hexadecimal or `0b` binary, with `_`
/// separators, or a float (`0.5`, `1e3`).
fn value(text: &str) -> Option<f64> {
    let t: String = text.chars().filter(|c| *c != '_').collect();
    let radix = |digits: &str, r: u32| u64::from_str_radix(digits, r).ok().map(|n| n as f64);
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        radix(h, 16)
    } else if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        radix(b, 2)
    } else {
        t.parse::<f64>().ok()
    }
}

/// The literal a number is changed to: 0 -> 1, 1 -> 0, any other n -> n + 1 (the usual
/// constant mutations: 0 and 1 are mostly counts and switches, where the other one says
/// "none" or "some"; other numbers are amounts and bounds, where one more crosses the edge a
/// scenario should pin). `None` when the literal cannot be read or the change would not be
/// a finite number.
pub fn changed(text: &str) -> Option<String> {
    let v = value(text)?;
    let to = if v == 0.0 {
        1.0
    } else if v == 1.0 {
        0.0
    } else {
        v + 1.0
    };
    if !to.is_finite() || to == v {
        return None;
    }
    // Whole numbers as integers (`2001`, not `2001.0`); exact up to 2^53.
    if to.fract() == 0.0 && to.abs() < 9_007_199_254_740_992.0 {
        Some(format!("{}", to as i64))
    } else {
        Some(format!("{to}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(src: &str) -> Vec<(usize, usize, String)> {
        literals(src)
            .unwrap()
            .into_iter()
            .map(|l| {
                assert_eq!(&src[l.start..l.end], l.text);
                (l.line, l.col, l.text)
            })
            .collect()
    }

    #[test]
    fn finds_numbers_in_code_only() {
        let src = "-- RF01-003 2000\nlocal a = 2000 -- 3000\nlocal s = \"4000\" .. '5' .. [[6]] .. [==[7]==]\n--[[ 8\n9 ]] local b = {x = 0x1F, y = 1_000, z = 0.5, w = 0b11}\nlocal i = `n{10}`\n";
        assert_eq!(
            texts(src),
            vec![
                (2, 11, "2000".to_string()),
                (5, 21, "0x1F".to_string()),
                (5, 31, "1_000".to_string()),
                (5, 42, "0.5".to_string()),
                (5, 51, "0b11".to_string()),
                (6, 14, "10".to_string()),
            ]
        );
    }

    #[test]
    fn columns_count_characters() {
        assert_eq!(texts("local s = 'é' .. 3"), vec![(1, 18, "3".to_string())]);
    }

    #[test]
    fn changes_each_kind_of_number() {
        for (from, to) in [
            ("0", "1"),
            ("1", "0"),
            ("2000", "2001"),
            ("0x1F", "32"),
            ("1_000", "1001"),
            ("0b11", "4"),
            ("0.5", "1.5"),
            ("1e3", "1001"),
            ("1.0", "0"),
        ] {
            assert_eq!(changed(from).as_deref(), Some(to), "{from}");
        }
        assert_eq!(changed("1e400"), None);
    }

    #[test]
    fn an_unreadable_source_is_an_error_with_a_position() {
        let e = literals("local s = \"open\nlocal n = 2").unwrap_err();
        assert_eq!((e.line, e.col), (1, 11), "{e:?}");
    }
}
