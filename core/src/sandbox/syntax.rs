//! Compile-only checks of Lua sources, for validation without running anything.

use crate::content::Source;

/// A Lua syntax error, with the line it points at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// 1-based line of the error, when Luau reports one.
    pub line: Option<u32>,
    /// Luau's message, without the chunk-name prefix.
    pub message: String,
}

thread_local! {
    // One VM for every check on this thread: a check only compiles and loads (nothing runs),
    // and a fresh VM per file made loading many cards slow.
    static VM: mlua::Lua = mlua::Lua::new();
}

/// Compiles `source` without running it. Errors carry the line Luau reports.
pub fn check_syntax(source: &Source) -> Result<(), SyntaxError> {
    VM.with(|lua| {
        match lua
            .load(&source.text)
            .set_name(format!("={}", source.name))
            .into_function()
        {
            Ok(_) => Ok(()),
            Err(e) => Err(split_message(&source.name, &e.to_string())),
        }
    })
}

/// Turns `name:LINE: message` into its parts.
pub(crate) fn split_message(name: &str, raw: &str) -> SyntaxError {
    let first = raw.lines().next().unwrap_or(raw);
    let rest = first.strip_prefix("syntax error: ").unwrap_or(first);
    if let Some(after) = rest.strip_prefix(name).and_then(|r| r.strip_prefix(':'))
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
}
