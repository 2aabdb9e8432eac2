//! The playtest table (`riffle play` with a person at a seat): undo by fork, a position
//! saved as a scenario that passes as saved, a scenario's position loaded, and hot reloads
//! shown while the person thinks.

use std::time::Duration;

use super::play::repo;
use super::watch::{Running, leader_mod, save};

const TABLE: [&str; 9] = [
    "play",
    "--root",
    "",
    "--game",
    "onepiece",
    "--agents",
    "human,random",
    "--seed",
    "2",
];

fn table_args(root: &str) -> Vec<&str> {
    let mut a = TABLE.to_vec();
    a[2] = root;
    a
}

#[test]
fn undo_goes_back_to_the_persons_previous_decision() {
    let root = repo().to_string_lossy().into_owned();
    let mut t = Running::start(&table_args(&root));
    let at = t.wait_for(0, "choose one: type its number");
    t.type_line("undo");
    let at = t.wait_for(at, "nothing to undo: this is your first decision");
    // Keep the hand (the first option), then undo that: the same question again.
    let first = t.seen[..at]
        .rfind("-- turn ")
        .map(|i| t.seen[i..].lines().next().unwrap_or_default().to_string())
        .unwrap();
    t.type_line("1");
    let at = t.wait_for(at, "choose one: type its number");
    t.type_line("u");
    let at = t.wait_for(at, "undone: back to your previous decision");
    let at = t.wait_for(at, &first);
    t.wait_for(at, "choose one: type its number");
}

#[test]
fn a_saved_position_is_a_scenario_that_passes_and_loads_back() {
    let dir = tempfile::tempdir().unwrap();
    let root = repo().to_string_lossy().into_owned();
    let mut t = Running::start_in(dir.path(), &table_args(&root));
    let at = t.wait_for(0, "choose one: type its number");
    t.type_line("save");
    let at = t.wait_for(at, "not saved: the game has not begun its first turn");
    // Keep the hand, play the first card: turn 2 (player 2 went first with this seed).
    t.type_line("1");
    let at = t.wait_for(at, "player 1 to decide (main)");
    t.type_line("1");
    let at = t.wait_for(at, "player 1 to decide (main)");
    t.type_line("save table.test.yaml");
    t.wait_for(
        at,
        "saved table.test.yaml: it sets this position up and passes",
    );
    drop(t);
    let file = dir.path().join("table.test.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("start: {turn: 2, player: 1, phase: \"main\"}"),
        "{text}"
    );
    assert!(text.contains("expect:\n      zones:"), "{text}");
    // `riffle test` agrees.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_riffle"))
        .args(["test", "--root", &root, file.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("1 passed, 0 failed"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // Another table loads it and plays on from there.
    let mut t = Running::start_in(dir.path(), &table_args(&root));
    let at = t.wait_for(0, "choose one: type its number");
    t.type_line("load nothing.test.yaml");
    let at = t.wait_for(at, "not loaded:");
    t.type_line("load table.test.yaml 2");
    let at = t.wait_for(at, "not loaded: table.test.yaml has 1 scenario(s)");
    t.type_line("load table.test.yaml");
    let at = t.wait_for(at, "loaded table.test.yaml (scenario 1: saved at turn 2)");
    let at = t.wait_for(at, "-- turn 2, player 1 to decide (main) --");
    // Undo goes back to before the load.
    t.type_line("undo");
    t.wait_for(at, "undone: back to your previous decision");
}

#[test]
fn a_card_saved_while_the_person_thinks_is_shown_at_once() {
    let (dir, set) = leader_mod();
    let m = dir.path().to_str().unwrap().to_string();
    let root = repo().to_string_lossy().into_owned();
    let mut args = table_args(&root);
    args.extend(["--mod", &m, "--watch"]);
    let mut t = Running::start(&args);
    let at = t.wait_for(0, "choose one: type its number");
    // Keep the hand, then wait at the main phase.
    t.type_line("1");
    let at = t.wait_for(at, "player 1 to decide (main)");
    let at = t.wait_for(at, "choose one: type its number");
    let yaml = set.join("RF02-034.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    save(&yaml, &text.replace("power: 5000", "power: 8000"));
    // No answer typed: the table takes the reload and shows the decision again.
    let at = t.wait_for(at, "reloaded RF02-034 (version ");
    let at = t.wait_for(at, "reloaded: RF02-034 is now version ");
    let at = t.wait_for(at, "player 1 to decide (main)");
    t.wait_for(at, "power 8000");
}

/// Issue #27 items 5 and 10: `load` reads only a scenario file (never shows back another
/// file's text), refuses a huge one at once, and an answer line is never echoed back whole.
#[test]
fn load_and_answers_never_echo_what_was_given_whole() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "root:x:0:0:the secret line\n").unwrap();
    // A scenario file of 5 MiB: a valid YAML comment, larger than a scenario may be.
    let big = format!("# {}\n", "x".repeat(5 * 1024 * 1024));
    std::fs::write(dir.path().join("big.test.yaml"), big).unwrap();
    let root = repo().to_string_lossy().into_owned();
    let mut t = Running::start_in(dir.path(), &table_args(&root));
    let at = t.wait_for(0, "choose one: type its number");
    t.type_line("load notes.txt");
    let at = t.wait_for(at, "not loaded: a scenario file's name ends in .test.yaml");
    t.type_line("load big.test.yaml");
    let at = t.wait_for(at, "larger than the 4 MiB a scenario file may have");
    let long = "9".repeat(100_000);
    t.type_line(&long);
    let at = t.wait_for(at, "(100000 characters)");
    t.type_line(&format!("text {}", "x".repeat(100_000)));
    t.wait_for(at, "(100000 characters)");
    assert!(!t.seen.contains("secret"), "the file's text was shown");
    assert!(
        !t.seen.contains(&"9".repeat(1000)),
        "the answer was echoed whole"
    );
}
