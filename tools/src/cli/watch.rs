//! `riffle watch`: keep games' content live while a designer edits it, and say what each
//! save did (reloaded, refused with the positioned errors, removed, not live).

use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

use anyhow::bail;
use riffle::live::{Live, report, watch, watched_folders};
use riffle_content::Loader;

use super::{RootArgs, load_engine};

/// Watch content.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to watch: a game's folders (`cardsets/onepiece`, `scripts/gundam`, a set
    /// folder). Default: every game.
    path: Vec<PathBuf>,
    /// Milliseconds without a further change before a save is read (an editor's save is
    /// several file events).
    #[arg(long, default_value_t = 200, value_name = "MS")]
    debounce: u64,
    #[command(flatten)]
    roots: RootArgs,
}

/// The game a path belongs to: the folder after `cardsets` or `scripts`.
fn game_of(path: &Path) -> Option<String> {
    let parts: Vec<String> = path
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => s.to_str().map(String::from),
            _ => None,
        })
        .collect();
    parts
        .windows(2)
        .find(|w| w[0] == "cardsets" || w[0] == "scripts")
        .map(|w| w[1].clone())
        .filter(|g| g != "lib")
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let paths = args
        .roots
        .search_paths(args.path.first().map(PathBuf::as_path))?;
    let mut games: Vec<String> = Vec::new();
    for p in &args.path {
        let Some(g) = game_of(p) else {
            bail!(
                "{}: not a game's folder (give cardsets/<game>, scripts/<game> or a set folder)",
                p.display()
            );
        };
        if !games.contains(&g) {
            games.push(g);
        }
    }
    let known = Loader::new(paths.clone()).games();
    if let Some(g) = games.iter().find(|g| !known.contains(g)) {
        bail!(
            "no game '{g}' here (games: {}); give a game's folder",
            known.join(", ")
        );
    }
    if games.is_empty() {
        games = known;
    }
    // A game whose content has errors is watched too: it is loaded again at each change
    // until it loads, then its cards go live one by one.
    let mut lives: Vec<(String, Option<Live>)> = Vec::new();
    let mut folders = Vec::new();
    for g in &games {
        let f = watched_folders(&paths, g);
        let live = start(&paths, g);
        if let Some((_, n)) = &live {
            println!("{g}: {n} cards, watching {} folders", f.len());
        }
        lives.push((g.clone(), live.map(|(l, _)| l)));
        folders.extend(f);
    }
    folders.sort();
    folders.dedup();
    let (tx, rx) = mpsc::channel();
    let _watch = watch(&folders, Duration::from_millis(args.debounce), move |c| {
        let _ = tx.send(c);
    })
    .map_err(anyhow::Error::msg)?;
    println!("edit and save a card: each change is checked and goes live (Ctrl-C stops)");
    let _ = std::io::stdout().flush();
    for batch in rx {
        match batch {
            Ok(changed) => {
                for (g, live) in &mut lives {
                    match live {
                        Some(live) => {
                            for o in live.apply(&changed) {
                                for line in report(&o) {
                                    println!("{line}");
                                }
                            }
                        }
                        None => {
                            if let Some((l, n)) = start(&paths, g) {
                                println!(
                                    "{g}: loads now ({n} cards); its cards go live as they change"
                                );
                                *live = Some(l);
                            }
                        }
                    }
                }
            }
            Err(e) => eprintln!("riffle watch: {e}"),
        }
        let _ = std::io::stdout().flush();
    }
    Ok(ExitCode::SUCCESS)
}

/// `game`'s content, live, and its card count; when it does not load, says why (the
/// first problem; `riffle validate` lists them all) and that it is watched all the same.
fn start(paths: &[PathBuf], game: &str) -> Option<(Live, usize)> {
    match load_engine(paths, game) {
        Ok((loaded, engine)) => {
            let n = loaded.cards.len();
            Some((
                Live::new(Loader::new(paths.to_vec()), game, engine, &loaded.cards),
                n,
            ))
        }
        Err(e) => {
            println!("{game}: {e:#}; watching: it is loaded again at each change");
            None
        }
    }
}

/// Hot reloads for a game being played (`riffle play --watch`): changes are taken in
/// between decisions.
pub(crate) struct GameReloads {
    live: Live,
    changes: mpsc::Receiver<Result<Vec<PathBuf>, String>>,
    _watch: riffle::live::Watch,
}

impl GameReloads {
    /// Applies the changes saved since the last call, reporting each, and moves `game` to
    /// the new engine. Returns whether the game moved (its log then has the changes).
    pub(crate) fn take_in(&mut self, game: &mut riffle_core::Game) -> bool {
        while let Ok(batch) = self.changes.try_recv() {
            match batch {
                Ok(changed) => {
                    for o in self.live.apply(&changed) {
                        for line in report(&o) {
                            println!("{line}");
                        }
                    }
                }
                Err(e) => eprintln!("riffle play --watch: {e}"),
            }
        }
        game.follow_reloads()
    }
}

/// Starts watching `game`'s content for a game on `engine`.
pub(crate) fn game_reloads(
    paths: &[PathBuf],
    game: &str,
    engine: &std::rc::Rc<riffle_core::Engine>,
    cards: &[riffle_content::CardInfo],
) -> anyhow::Result<GameReloads> {
    let live = Live::new(Loader::new(paths.to_vec()), game, engine.clone(), cards);
    let (tx, changes) = mpsc::channel();
    let w = watch(
        &watched_folders(paths, game),
        Duration::from_millis(200),
        move |c| {
            let _ = tx.send(c);
        },
    )
    .map_err(anyhow::Error::msg)?;
    println!(
        "watching {game}'s content: a saved card plays its new version from the next decision"
    );
    Ok(GameReloads {
        live,
        changes,
        _watch: w,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_names_its_game() {
        assert_eq!(
            game_of(Path::new("cardsets/onepiece/rf01")).as_deref(),
            Some("onepiece")
        );
        assert_eq!(
            game_of(Path::new("../mod/scripts/gundam")).as_deref(),
            Some("gundam")
        );
        assert_eq!(game_of(Path::new("scripts/lib")), None);
        assert_eq!(game_of(Path::new("docs")), None);
    }
}
