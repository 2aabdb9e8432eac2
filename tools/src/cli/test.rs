//! `riffle test`: run scenario files and report `N passed, N failed`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::bail;
use riffle::mutants::Kinds;
use riffle::render::{ColorChoice, Render, Stream};
use riffle::scenario::{File, discover, walk};
use riffle_content::diagnostic::{OneLine, display_path};
use riffle_content::{Loader, load_game};
use riffle_core::Engine;

use super::{FOUND_PROBLEMS, RootArgs};

/// Run scenario tests, or with `--mutants` test them against broken cards.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Scenario files or folders (default: every `*.test.yaml` of every game; with `--mod`,
    /// those of the mods). With `--mutants`: the cards to break, as set folders or card
    /// files (`.yaml` or `.lua`); default every card, or with `--mod` the mods' cards.
    pub(super) paths: Vec<PathBuf>,
    /// Only scenarios whose name contains this text.
    #[arg(long)]
    pub(super) filter: Option<String>,
    /// Print every scenario, not only failures (with `--mutants`: every caught mutant and the
    /// scenario that caught it).
    #[arg(long, short)]
    pub(super) verbose: bool,
    /// Draw content diagnostics for people (the source line, a caret, colours): `auto` on a
    /// terminal unless `NO_COLOR` is set.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub(super) color: ColorChoice,
    /// Break each scripted card and report the breaks no scenario notices, one line each
    /// (`path:line:col: ID: 2000 -> 2001 survived`), then `N cards, M mutants: K caught, S
    /// survived, E equivalent, C cards without scenarios`. A card is tested by every scenario
    /// that names its id (in its setup, steps, expectations or its file's `defaults:`). `all`
    /// (the default): the script emptied, then each numeric literal changed (0 -> 1, 1 -> 0,
    /// n -> n+1); `empty`: only the emptied script. A number on a line ending `-- mutant:
    /// equivalent, <reason>` is equivalent: listed with its reason when it survives, a stale
    /// mark when caught. Exit 1 when a mutant survives, a mark is stale or a scripted card has
    /// no scenario.
    #[arg(
        long,
        value_name = "KINDS",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "all"
    )]
    pub(super) mutants: Option<MutantKinds>,
    #[command(flatten)]
    pub(super) roots: RootArgs,
}

/// The mutants `--mutants` makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MutantKinds {
    /// The emptied script, then each number changed.
    All,
    /// Only the emptied script (one mutant per card: the quick check).
    Empty,
}

/// A scenario path inside content that is not loaded (a mod's folder given without `--mod`)
/// would fail scenario by scenario with "no card": say so once, and how to load it.
pub(super) fn not_outside_the_search_paths(p: &Path, paths: &[PathBuf]) -> anyhow::Result<()> {
    let Ok(full) = p.canonicalize() else {
        return Ok(()); // a missing path is reported below
    };
    // A search path found by walking up may be written "" (the current folder).
    let canonical = |s: &Path| {
        let s = if s.as_os_str().is_empty() {
            Path::new(".")
        } else {
            s
        };
        s.canonicalize().ok()
    };
    let loaded: Vec<PathBuf> = paths.iter().filter_map(|s| canonical(s)).collect();
    // The nearest folder above (or at) the path that holds content: `cardsets/`.
    let start = if full.is_dir() {
        Some(full.as_path())
    } else {
        full.parent()
    };
    let Some(content) = start
        .into_iter()
        .flat_map(Path::ancestors)
        .find(|d| d.join("cardsets").is_dir())
    else {
        return Ok(());
    };
    if loaded.iter().any(|l| l == content) {
        return Ok(());
    }
    // Shown as the user would type it: relative to the current folder when under it.
    let here = std::env::current_dir()
        .ok()
        .and_then(|d| d.canonicalize().ok());
    let shown = match here.as_deref().and_then(|h| content.strip_prefix(h).ok()) {
        Some(r) if r.as_os_str().is_empty() => PathBuf::from("."),
        Some(r) => r.to_path_buf(),
        None => content.to_path_buf(),
    };
    bail!(
        "{}: its cards are in {}, which is not loaded: if it is a mod, run `riffle test --mod {} {}`",
        p.display(),
        shown.display(),
        shown.display(),
        p.display()
    )
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.mutants {
        Some(MutantKinds::All) => return super::mutants::run(&args, Kinds::All),
        Some(MutantKinds::Empty) => return super::mutants::run(&args, Kinds::Emptied),
        None => {}
    }
    let paths = args
        .roots
        .search_paths(args.paths.first().map(|p| p.as_path()))?;
    let mut files = Vec::new();
    if args.paths.is_empty() {
        // Every game's scenarios, or with mods only theirs: a mod's cards are tested with
        // the base's content loaded, but the base's own scenarios are not the modder's.
        let own = if paths.len() > 1 {
            &paths[1..]
        } else {
            &paths[..]
        };
        for game in Loader::new(paths.clone()).games() {
            for path in own {
                files.extend(discover(path, &game));
            }
        }
    } else {
        for p in &args.paths {
            not_outside_the_search_paths(p, &paths)?;
            if p.is_dir() {
                let mut found = Vec::new();
                walk(p, &mut found);
                files.extend(found);
            } else if p.exists() {
                files.push(p.clone());
            } else {
                bail!("{}: no such file or folder", p.display());
            }
        }
    }
    let mut by_game: BTreeMap<String, Vec<File>> = BTreeMap::new();
    let (mut passed, mut failed) = (0usize, 0usize);
    let real = riffle_content::read::real_roots(&paths);
    for f in &files {
        // A link out of the search paths is not a scenario: not read, nothing of it quoted.
        if riffle_content::read::leaves(f, &real) {
            eprintln!("{}:1:1: {}", display_path(f), riffle_content::read::LEAVES);
            failed += 1;
            continue;
        }
        // Never open a FIFO, socket or device: reading a FIFO blocks until it is written.
        if std::fs::metadata(f).is_ok_and(|m| !m.is_file()) {
            eprintln!(
                "{}:1:1: warning: skipped: not a regular file (a FIFO, socket or device)",
                display_path(f)
            );
            continue;
        }
        match File::read(f) {
            Ok(file) => match file.game() {
                Some(g) => by_game.entry(g).or_default().push(file),
                None => {
                    eprintln!(
                        "{}:1:1: cannot tell the game: add `game:` or put it under cardsets/<game>/",
                        f.display()
                    );
                    failed += 1;
                }
            },
            Err(es) => {
                for e in es {
                    eprintln!("{}", OneLine(&e));
                }
                failed += 1;
            }
        }
    }
    let render = Render::for_stream(args.color, Stream::Stderr);
    let total: usize = by_game.values().flatten().map(File::len).sum();
    let bar = super::progress::progress_bar(total as u64, "scenarios");
    for (game, files) in by_game {
        let loaded = match load_game(&paths, &game).into_result() {
            Ok(l) => l,
            Err(diags) => {
                bar.suspend(|| {
                    for d in diags.iter().take(20) {
                        eprintln!("{}", render.render(d));
                    }
                });
                eprintln!("the {game} content has errors: its scenarios were not run");
                failed += files.len();
                continue;
            }
        };
        let engine = match Engine::new(&loaded.content) {
            Ok(e) => e,
            Err(es) => {
                bar.suspend(|| {
                    for e in es {
                        eprintln!("{}", OneLine(&e.to_string()));
                    }
                });
                failed += files.len();
                continue;
            }
        };
        for file in files {
            bar.set_message(display_path(file.path()));
            for o in file.run(&engine, args.filter.as_deref()) {
                if o.passed() {
                    passed += 1;
                    if args.verbose {
                        bar.suspend(|| println!("ok   {} {}", OneLine(&o.at), OneLine(&o.name)));
                    }
                } else {
                    failed += 1;
                    // Failures quote script errors: one line each, escapes shown, never raw.
                    bar.suspend(|| {
                        println!("FAIL {} {}", OneLine(&o.at), OneLine(&o.name));
                        for f in &o.failures {
                            println!("    {}", OneLine(f));
                        }
                    });
                }
            }
            bar.inc(file.len() as u64);
        }
    }
    bar.finish_and_clear();
    println!("{passed} passed, {failed} failed");
    if let (Some(f), 0) = (&args.filter, passed + failed) {
        eprintln!(
            "riffle: --filter {f:?}: no scenario's name contains it, so nothing was tested (the names: `riffle test -v`)"
        );
        return Ok(ExitCode::from(2));
    }
    Ok(if failed > 0 {
        ExitCode::from(FOUND_PROBLEMS)
    } else {
        ExitCode::SUCCESS
    })
}
