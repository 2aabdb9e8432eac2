//! Progress bars for the long commands (`play`, `test`, `test --mutants`, `coverage`,
//! `validate`, `lint`): drawn on stderr for a person watching a terminal, never into a pipe,
//! a file or a CI log, whose output stays plain lines.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Whether a person watches stderr: a terminal, outside CI.
pub(super) fn for_a_person() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("CI").is_none()
}

/// A bar of `total` steps (`{pos}/{len} <what>`), hidden unless [`for_a_person`].
pub(super) fn progress_bar(total: u64, what: &str) -> ProgressBar {
    styled(
        total,
        for_a_person(),
        &format!("{{pos}}/{{len}} {what}, eta {{eta}} {{msg}}"),
    )
}

/// A bar with `template` after the bar itself, or a hidden one when `show` is false.
pub(super) fn styled(total: u64, show: bool, template: &str) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(&format!("{{bar:30}} {template}")) {
        bar.set_style(style);
    }
    bar
}
