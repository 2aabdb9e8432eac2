//! Progress bars are for a person at a terminal: the long commands' output into a pipe (a
//! script, CI) is plain lines, without a bar's control characters.

use std::process::{Command, Stdio};

use super::mutants::mod_with_three_cards;
use super::{stderr, stdout};
use crate::common::repo;

/// Whether `s` holds a control character other than a line break or a tab (a bar draws with
/// carriage returns and escape sequences).
fn control(s: &str) -> Option<char> {
    s.chars()
        .find(|c| c.is_control() && *c != '\n' && *c != '\t')
}

#[test]
fn long_commands_into_a_pipe_draw_no_progress_bar() {
    let m = mod_with_three_cards();
    let dir = m.dir.to_str().unwrap();
    for args in [
        vec!["validate", "--mod", dir],
        vec!["lint", "--mod", dir],
        vec!["test", "--mod", dir],
        vec!["coverage", "--mod", dir],
        vec!["test", "--mod", dir, "--mutants"],
    ] {
        // Outside CI, so that only the pipe keeps the bar away.
        let out = Command::new(env!("CARGO_BIN_EXE_riffle"))
            .args(&args)
            .current_dir(repo())
            .env_remove("CI")
            .stdin(Stdio::null())
            .output()
            .expect("run riffle");
        let (o, e) = (stdout(&out), stderr(&out));
        assert!(!o.is_empty() || !e.is_empty(), "{args:?} said nothing");
        assert_eq!(control(&o), None, "{args:?} stdout: {o:?}");
        assert_eq!(control(&e), None, "{args:?} stderr: {e:?}");
    }
}

#[cfg(unix)]
#[test]
fn on_a_terminal_riffle_test_shows_its_progress() {
    // `script` gives the command a terminal; without it there is nothing to check.
    let m = mod_with_three_cards();
    let cmd = format!(
        "{} test --mod {} --mutants",
        env!("CARGO_BIN_EXE_riffle"),
        m.dir.display()
    );
    let Ok(out) = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .current_dir(repo())
        .env_remove("CI")
        .stdin(Stdio::null())
        .output()
    else {
        eprintln!("no `script` command: progress on a terminal not checked");
        return;
    };
    let screen = stdout(&out);
    assert!(screen.contains(" mutants, eta "), "{screen:?}");
}
