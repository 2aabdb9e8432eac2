//! Cards written as a mod (`tools/tests/fixtures/modder`), run over the repository's One Piece
//! with `riffle test --mod`: the rules hold for cards the repository does not have.

use super::{riffle, stderr, stdout};
use crate::common::{Fixture, fixture_dir, repo};

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

#[test]
fn a_mod_alone_runs_its_own_scenarios_and_a_mod_path_without_the_flag_says_how() {
    let m = fixture_dir("modder");
    let m = m.to_str().unwrap();
    // `--mod M` and no path: the mod's scenarios, over the base's content, not the base's.
    let out = riffle(&repo(), &["test", "--mod", m]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let tally = format!(
        "{} passed, 0 failed\n",
        scenario_count(&fixture_dir("modder"))
    );
    assert!(stdout(&out).ends_with(&tally), "{}", stdout(&out));
    // The mod's folder without `--mod`: one line that names the flag, not a failure per
    // scenario.
    let out = riffle(&repo(), &["test", m]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("not loaded")
            && err.contains("`riffle test --mod tools/tests/fixtures/modder "),
        "{err}"
    );
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
}

#[test]
fn a_script_error_is_shown_even_when_a_later_step_fails() {
    // MX-001 with a script that fails when it resolves, and a scenario whose next step then
    // finds nothing to choose: the error that explains it is printed too.
    let base = fixture_dir("modder");
    let m = Fixture::empty();
    for f in ["set.yaml", "lib/crew.lua", "MX-001.yaml"] {
        let text = std::fs::read_to_string(base.join("cardsets/onepiece/mx").join(f)).unwrap();
        m.write(&format!("cardsets/onepiece/mx/{f}"), &text);
    }
    m.write(
        "cardsets/onepiece/mx/MX-001.lua",
        "return card {\n  on_play { operate = function(ctx) return_to_hand(ctx, ctx.no_such_field.card) end },\n}\n",
    );
    let scenarios =
        std::fs::read_to_string(base.join("cardsets/onepiece/mx/MX-001.test.yaml")).unwrap();
    m.write("cardsets/onepiece/mx/MX-001.test.yaml", &scenarios);
    let dir = m.dir.to_str().unwrap();
    let out = riffle(&repo(), &["test", "--mod", dir]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(text.contains("step 2: no option matches"), "{text}");
    assert!(
        text.contains("script error:")
            && text.contains("MX-001.lua:2")
            && text.contains("attempt to index nil with 'card'"),
        "{text}"
    );
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
