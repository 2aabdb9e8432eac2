//! What a person watching is told of each outcome.

use super::Outcome;
use riffle_content::diagnostic::display_path;

/// The lines that tell `o`: a one-line summary, then each problem as `path:line:col: ...`.
pub fn report(o: &Outcome) -> Vec<String> {
    match o {
        Outcome::Reloaded {
            card,
            version,
            took,
            warnings,
            fixed,
            ..
        } => {
            let mut lines = vec![format!(
                "reloaded {card} (version {version}) in {:.1} ms{}",
                took.as_secs_f64() * 1000.0,
                if *fixed {
                    ": fixed, the errors reported before are gone"
                } else {
                    ""
                }
            )];
            lines.extend(warnings.iter().map(|d| d.to_string()));
            lines
        }
        Outcome::Fixed { card, version, .. } => vec![format!(
            "fixed {card}: back to its live version (version {version}); the errors reported before are gone"
        )],
        Outcome::Removed { card, path } => vec![format!(
            "removed {card} ({} is gone): games that hold it keep their version; new games cannot use it",
            display_path(path)
        )],
        Outcome::Refused {
            card, diagnostics, ..
        } => {
            let who = card.as_deref().unwrap_or("the card");
            let mut lines = vec![format!(
                "not reloaded: {who} has {} error(s); the last good version stays",
                diagnostics.len()
            )];
            lines.extend(diagnostics.iter().map(|d| d.to_string()));
            lines
        }
        Outcome::Waiting { path } => vec![format!(
            "waiting: {} is empty (an editor is saving it?); the last good version stays",
            display_path(path)
        )],
        Outcome::NotLive { path, what } => vec![format!(
            "not live: {} is {what}; restart to use it (`riffle validate` checks it now)",
            display_path(path)
        )],
    }
}
