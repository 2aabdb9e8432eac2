//! `riffle watch` and `riffle play --watch`: the commands a designer leaves running while
//! editing, driven with real file saves.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::play::repo;

/// A child whose stdout is read by a thread, so that a test can wait for text that has no
/// newline yet (a prompt).
pub(super) struct Running {
    child: Child,
    out: mpsc::Receiver<String>,
    pub(super) seen: String,
}

impl Running {
    pub(super) fn start(args: &[&str]) -> Running {
        Running::start_in(&repo(), args)
    }

    pub(super) fn start_in(dir: &Path, args: &[&str]) -> Running {
        let mut child = Command::new(env!("CARGO_BIN_EXE_riffle"))
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run riffle");
        let mut stdout = child.stdout.take().unwrap();
        let (tx, out) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0
                    || tx
                        .send(String::from_utf8_lossy(&buf[..n]).into_owned())
                        .is_err()
                {
                    break;
                }
            }
        });
        Running {
            child,
            out,
            seen: String::new(),
        }
    }

    /// Waits (30 s at most: a loaded machine) until the output from `from` on contains
    /// `text`; returns the end of what was seen.
    pub(super) fn wait_for(&mut self, from: usize, text: &str) -> usize {
        let end = Instant::now() + Duration::from_secs(30);
        while Instant::now() < end {
            if let Some(i) = self.seen[from..].find(text) {
                return from + i + text.len();
            }
            if let Ok(chunk) = self.out.recv_timeout(Duration::from_millis(100)) {
                self.seen.push_str(&chunk);
            }
        }
        panic!("no '{text}' within 30 s in:\n{}", &self.seen[from..]);
    }

    pub(super) fn type_line(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        stdin.write_all(format!("{line}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A mod that overrides the leader of the game's first deck list (Black Ledger's RF02-034)
/// with a copy of it, so that a running game holds the card the test edits.
pub(super) fn leader_mod() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("cardsets/onepiece/hot");
    std::fs::create_dir_all(&set).unwrap();
    std::fs::write(
        set.join("set.yaml"),
        "game: onepiece\nid: HOT\nname: {en: Hot}\nversion: \"1\"\noverrides: [RF02-034]\n",
    )
    .unwrap();
    let from = repo().join("cardsets/onepiece/rf02");
    for f in ["RF02-034.yaml", "RF02-034.lua"] {
        std::fs::copy(from.join(f), set.join(f)).unwrap();
    }
    (dir, set)
}

pub(super) fn save(path: &Path, text: &str) {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

#[test]
fn riffle_watch_reports_each_save_and_positions_a_broken_one() {
    let (dir, set) = leader_mod();
    let m = dir.path().to_str().unwrap().to_string();
    let mut w = Running::start(&["watch", "--mod", &m, "cardsets/onepiece"]);
    let at = w.wait_for(0, "edit and save a card");
    let yaml = set.join("RF02-034.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    save(&yaml, &text.replace("power: 5000", "power: 6000"));
    let at = w.wait_for(at, "reloaded RF02-034 (version ");
    let lua = set.join("RF02-034.lua");
    let script = std::fs::read_to_string(&lua).unwrap();
    save(&lua, &format!("{script}\nlocal x = = 1\n"));
    let at = w.wait_for(
        at,
        "not reloaded: RF02-034 has 1 error(s); the last good version stays",
    );
    let line_end = w.wait_for(at, "\n");
    let next = w.wait_for(line_end, "\n");
    let problem = &w.seen[line_end..next];
    assert!(problem.contains("RF02-034.lua:"), "positioned: {problem}");
    assert!(problem.contains("(card RF02-034)"), "{problem}");
}

#[test]
fn riffle_watch_says_when_a_broken_card_is_fixed() {
    let (dir, set) = leader_mod();
    let m = dir.path().to_str().unwrap().to_string();
    let mut w = Running::start(&["watch", "--mod", &m, "cardsets/onepiece"]);
    let at = w.wait_for(0, "edit and save a card");
    let lua = set.join("RF02-034.lua");
    let script = std::fs::read_to_string(&lua).unwrap();
    let broken = format!("{script}\nlocal x = = 1\n");
    save(&lua, &broken);
    let at = w.wait_for(at, "not reloaded: RF02-034 has 1 error(s)");
    // Saved back as it was: the live version is unchanged, yet the person hears it is good.
    save(&lua, &script);
    let at = w.wait_for(at, "fixed RF02-034: back to its live version (version ");
    // Fixed by a new version: reloaded, and said to be the fix.
    save(&lua, &broken);
    let at = w.wait_for(at, "not reloaded: RF02-034 has 1 error(s)");
    save(&lua, &format!("{script}\n-- fixed\n"));
    let at = w.wait_for(at, "reloaded RF02-034 (version ");
    let end = w.wait_for(at, "\n");
    assert!(
        w.seen[at..end].contains(": fixed, the errors reported before are gone"),
        "{}",
        &w.seen[at..end]
    );
    // The next good save is an ordinary reload.
    save(&lua, &format!("{script}\n-- again\n"));
    let at = w.wait_for(end, "reloaded RF02-034 (version ");
    let end = w.wait_for(at, "\n");
    assert!(!w.seen[at..end].contains("fixed"), "{}", &w.seen[at..end]);
}

#[test]
fn a_game_plays_the_saved_version_from_its_next_decision_and_logs_it() {
    let (dir, set) = leader_mod();
    let m = dir.path().to_str().unwrap().to_string();
    let mut g = Running::start(&[
        "play",
        "--game",
        "onepiece",
        "--mod",
        &m,
        "--agents",
        "human,random",
        "--seed",
        "2",
        "--watch",
    ]);
    let at = g.wait_for(0, "choose one: type its number");
    let yaml = set.join("RF02-034.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    assert!(text.contains("power: 5000"), "{text}");
    save(&yaml, &text.replace("power: 5000", "power: 7000"));
    // The change is taken in before the game's next decision: after this answer.
    std::thread::sleep(Duration::from_millis(800));
    g.type_line("1");
    let at = g.wait_for(at, "reloaded RF02-034 (version ");
    let at = g.wait_for(at, "reloaded: RF02-034 is now version ");
    // The leader on the board shows its new power.
    g.wait_for(at, "7000");
}

#[test]
fn a_game_that_does_not_load_is_watched_until_it_does() {
    let (dir, set) = leader_mod();
    let yaml = set.join("RF02-034.yaml");
    let good = std::fs::read_to_string(&yaml).unwrap();
    std::fs::write(&yaml, good.replace("power: 5000", "power: lots")).unwrap();
    let m = dir.path().to_str().unwrap().to_string();
    let mut w = Running::start(&["watch", "--mod", &m, "cardsets/onepiece"]);
    let at = w.wait_for(0, "watching: it is loaded again at each change");
    let at = w.wait_for(at, "edit and save a card");
    save(&yaml, &good);
    w.wait_for(at, "onepiece: loads now (");
}

#[test]
fn play_watch_is_refused_where_its_reports_would_break_the_output() {
    for (args, why) in [
        (
            vec!["--watch", "--games", "2"],
            "--watch: one game at a time",
        ),
        (vec!["--watch", "--json"], "--watch: not with --json"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_riffle"))
            .arg("play")
            .args(&args)
            .current_dir(repo())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(why), "{args:?}: {err}");
    }
}
