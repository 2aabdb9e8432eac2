//! A client embedding Riffle: it loads a game's content with `riffle-content`, starts a game
//! with `riffle-core`, answers every request (uniformly at random from the legal answers, as
//! an AI or a test would), and prints what one seat sees at the end. No command-line code.
//!
//! ```sh
//! cargo run -p riffle-content --example embed -- [ROOT] [GAME] [SEED]
//! ```
//!
//! ROOT is a folder with `scripts/` and `cardsets/` (default: this repository), GAME a game
//! there (default `onepiece`), SEED the game's seed (default 7).

use std::io::Write;
use std::path::{Path, PathBuf};

use riffle_content::{LoadOptions, Loader};
use riffle_core::{Engine, Game, GameConfig, PlayerId, Rng};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = args
        .first()
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join(".."));
    let game = args.get(1).map_or("onepiece", String::as_str);
    let seed = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(7);
    let mut out = std::io::stdout().lock();
    if let Err(e) = run(&root, game, seed, &mut out) {
        eprintln!("embed: {e}");
        std::process::exit(1);
    }
}

/// Plays one game of `game` from the content at `root` and writes seat 1's final view (as
/// JSON) and the result to `out`.
pub fn run(root: &Path, game: &str, seed: u64, out: &mut dyn Write) -> Result<(), String> {
    // 1. The content: every problem is a diagnostic with its file, line and column.
    let loaded = Loader::new(vec![root.to_path_buf()])
        .load_valid(game, LoadOptions::default())
        .map_err(|e| e.to_string())?;
    // 2. The engine: the ruleset and card scripts, compiled once, shared by every game.
    let engine = Engine::new(&loaded.content)
        .map_err(|es| format!("{} script error(s), the first: {}", es.len(), es[0]))?;
    // 3. A game: the content's first deck lists, one per seat of the smallest table.
    let seats = loaded.content.ruleset.manifest.players.min as usize;
    let decks = loaded
        .decks
        .iter()
        .take(seats)
        .map(|d| d.list.clone())
        .collect::<Vec<_>>();
    if decks.len() < seats {
        return Err(format!("{game} has fewer than {seats} deck lists"));
    }
    let mut g = Game::new(
        engine,
        GameConfig {
            seed,
            decks,
            keep_log: true,
        },
    )
    .map_err(|e| e.0)?;
    // 4. Answer requests until the game ends: whoever is asked picks a legal answer.
    let mut rng = Rng::new(seed);
    let mut decisions = 0u64;
    while let Some(req) = g.request().cloned() {
        if decisions == 100_000 {
            return Err("no result after 100,000 decisions".into());
        }
        let answer = req.random_legal(&mut rng);
        g.respond(req.player(), answer)
            .map_err(|e| format!("an illegal answer: {e:?}"))?;
        decisions += 1;
    }
    // 5. What seat 1 sees: its own hand, everyone's public zones, and of hidden zones only
    //    how many cards they hold.
    let seat: PlayerId = 0;
    let view = g.view(seat);
    let text = serde_json::to_string_pretty(&view).map_err(|e| e.to_string())?;
    writeln!(out, "{text}").map_err(|e| e.to_string())?;
    writeln!(
        out,
        "{game}, seed {seed}: {decisions} decisions, {} turns, result {:?}, log hash {}",
        g.turn(),
        g.result(),
        g.log_hash()
    )
    .map_err(|e| e.to_string())
}
