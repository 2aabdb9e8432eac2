//! Test helpers: fixture trees copied into fresh temporary folders.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use riffle_content::{Diagnostic, GameLoad, load_game};

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The One Piece content of these search paths and its deck lists; panics with every
/// diagnostic if it does not load.
pub fn onepiece_content(roots: &[PathBuf]) -> (riffle_core::Content, Vec<riffle_core::DeckList>) {
    game_content(roots, "onepiece")
}

/// A game's content of these search paths and its deck lists; panics with every diagnostic
/// if it does not load.
pub fn game_content(
    roots: &[PathBuf],
    game: &str,
) -> (riffle_core::Content, Vec<riffle_core::DeckList>) {
    let loaded = load_game(roots, game).into_result().unwrap_or_else(|d| {
        let lines: Vec<String> = d.iter().map(|x| x.to_string()).collect();
        panic!("{}", lines.join("\n"))
    });
    let decks = loaded.decks.iter().map(|d| d.list.clone()).collect();
    (loaded.content, decks)
}

/// Game `seed` of two random agents (seeded from it) over a pair of `decks` the seed picks,
/// played to the end: the random games the tests share. `check` runs the kernel's
/// invariant checks after every step.
pub fn seeded_game(
    engine: &std::rc::Rc<riffle_core::Engine>,
    decks: &[riffle_core::DeckList],
    seed: u64,
    keep_log: bool,
    check: bool,
) -> (riffle_core::Game, riffle::play::Played) {
    use riffle::play::{Agent, RandomAgent, play_game};
    let a = (seed as usize) % decks.len();
    let b = (seed as usize / decks.len() + 1 + a) % decks.len();
    let mut agents: Vec<Box<dyn Agent>> = vec![
        Box::new(RandomAgent(riffle_core::Rng::new(seed * 2))),
        Box::new(RandomAgent(riffle_core::Rng::new(seed * 2 + 1))),
    ];
    let config = riffle_core::GameConfig {
        seed,
        decks: vec![decks[a].clone(), decks[b].clone()],
        keep_log,
    };
    play_game(engine, config, &mut agents, check, |_| {})
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"))
}

/// Game `seed` of `n` random agents (seeded from it) with these options, seat k playing the
/// deck list (seed + k) mod their number, to the end; `check` runs the kernel's invariant
/// checks after every step.
pub fn seeded_game_of(
    engine: &std::rc::Rc<riffle_core::Engine>,
    decks: &[riffle_core::DeckList],
    seed: u64,
    n: usize,
    options: &riffle_core::Options,
    check: bool,
    keep_log: bool,
) -> (riffle_core::Game, riffle::play::Played) {
    use riffle::play::{Agent, RandomAgent, play_game_with};
    let mut agents: Vec<Box<dyn Agent>> = (0..n as u64)
        .map(|k| Box::new(RandomAgent(riffle_core::Rng::new(seed * 8 + k))) as Box<dyn Agent>)
        .collect();
    let config = riffle_core::GameConfig {
        seed,
        decks: (0..n)
            .map(|k| decks[(seed as usize + k) % decks.len()].clone())
            .collect(),
        keep_log,
    };
    play_game_with(
        engine,
        config,
        options,
        &riffle_core::MatchContext::default(),
        &mut agents,
        check,
        |_| {},
    )
    .unwrap_or_else(|e| panic!("seed {seed}: {e}"))
}

/// `tools/tests/fixtures/<name>`.
pub fn fixture_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("fixtures")
        .join(name)
}

/// A copy of a fixture tree in a temporary folder, removed on drop.
pub struct Fixture {
    pub dir: PathBuf,
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

impl Fixture {
    /// Runs `riffle ARGS --root <this folder>`.
    pub fn riffle(&self, args: &[&str]) -> std::process::Output {
        std::process::Command::new(env!("CARGO_BIN_EXE_riffle"))
            .args(args)
            .args([
                "--root",
                self.dir.to_str().expect("a UTF-8 temporary folder"),
            ])
            .output()
            .expect("run riffle")
    }

    /// An empty temporary folder.
    pub fn empty() -> Fixture {
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("riffle-test-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Fixture { dir }
    }

    /// A copy of `tools/tests/fixtures/<name>`.
    pub fn copy(name: &str) -> Fixture {
        let f = Fixture::empty();
        copy_tree(&fixture_dir(name), &f.dir);
        f
    }

    /// The valid test game `mini`.
    pub fn mini() -> Fixture {
        Fixture::copy("mini")
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.join(rel)
    }

    pub fn write(&self, rel: &str, text: &str) -> &Self {
        let p = self.path(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
        self
    }

    pub fn write_bytes(&self, rel: &str, bytes: &[u8]) -> &Self {
        std::fs::write(self.path(rel), bytes).unwrap();
        self
    }

    pub fn remove(&self, rel: &str) -> &Self {
        let p = self.path(rel);
        if p.is_dir() {
            std::fs::remove_dir_all(p).unwrap();
        } else {
            std::fs::remove_file(p).unwrap();
        }
        self
    }

    pub fn load(&self) -> GameLoad {
        load_game(std::slice::from_ref(&self.dir), "mini")
    }

    /// Diagnostics as `rel/path:line:col: message` lines (paths relative to the fixture).
    pub fn lines(&self, load: &GameLoad) -> Vec<String> {
        load.diagnostics.iter().map(|d| self.line(d)).collect()
    }

    pub fn line(&self, d: &Diagnostic) -> String {
        let mut d = d.clone();
        d.path = d
            .path
            .strip_prefix(&self.dir)
            .unwrap_or(&d.path)
            .to_path_buf();
        d.to_string()
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Asserts that some line contains every fragment, and returns it.
#[track_caller]
pub fn expect_line<'a>(lines: &'a [String], fragments: &[&str]) -> &'a str {
    lines
        .iter()
        .find(|l| fragments.iter().all(|f| l.contains(f)))
        .unwrap_or_else(|| panic!("no line with {fragments:?} in:\n{}", lines.join("\n")))
}

/// Makes a FIFO at `p` (the tests of commands that must not block on one).
#[cfg(unix)]
pub fn mkfifo(p: &Path) {
    let c = std::ffi::CString::new(p.to_str().expect("a UTF-8 path")).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(
        unsafe { libc::mkfifo(c.as_ptr(), 0o644) },
        0,
        "mkfifo {}",
        p.display()
    );
}
