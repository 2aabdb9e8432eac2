//! Cards written as a mod (`tools/tests/fixtures/modder`), run over the repository's One Piece
//! with `riffle test --mod`: the rules hold for cards the repository does not have.

use super::{riffle, stdout};
use crate::common::{fixture_dir, repo};

#[test]
fn a_mods_scenarios_pass_over_the_repository() {
    let m = fixture_dir("modder");
    let m = m.to_str().unwrap();
    let out = riffle(&repo(), &["test", "--mod", m, m]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    // Every scenario of the mod ran (MX-001: OP 3-6-3; MX-002: OP 4-8-1), and none was skipped.
    let scenarios = scenario_count(&fixture_dir("modder"));
    assert!(scenarios >= 4, "the modder fixture lost its scenarios");
    let tally = format!("{scenarios} passed, 0 failed\n");
    assert!(stdout(&out).ends_with(&tally), "{}", stdout(&out));
}

/// The scenarios the mod's test files declare (one `- name:` line each).
fn scenario_count(dir: &std::path::Path) -> usize {
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            n += scenario_count(&path);
        } else if path.to_string_lossy().ends_with(".test.yaml") {
            let text = std::fs::read_to_string(&path).unwrap();
            n += text
                .lines()
                .filter(|l| l.trim_start().starts_with("- name:"))
                .count();
        }
    }
    n
}
