//! `riffle validate`: check content and print every problem.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use riffle::render::{ColorChoice, Render, Stream};
use riffle_content::diagnostic::{display_path, sort_and_dedup};
use riffle_content::{Diagnostic, GameLoad, Loader, Severity, clean_path};

use super::{FOUND_PROBLEMS, RootArgs};

/// Options of `riffle validate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to validate: a game's scripts folder (`scripts/onepiece`), a game's cardsets
    /// folder, a set folder, a deck or a single file. The game's ruleset is always loaded for
    /// context. Default: every game under `scripts/` and `cardsets/`.
    #[arg(value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Output format of the diagnostics (on stdout).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Also print statistics: median and max lines of code of card scripts.
    #[arg(long)]
    stats: bool,
    /// Draw diagnostics for people (the source line, a caret, colours): `auto` on a
    /// terminal unless `NO_COLOR` is set; the plain `path:line:col: message` lines otherwise.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    #[command(flatten)]
    roots: RootArgs,
}

/// How diagnostics are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// One `path:line:col: message` line each.
    Text,
    /// A JSON array of diagnostic objects.
    Json,
}

/// Which part of a game to report on: `None` is the whole game.
type Scope = Option<PathBuf>;

/// What the PATH arguments name: games (None: every game) and the part of each.
struct Selection {
    every_game: Vec<Scope>,
    games: BTreeMap<String, Vec<Scope>>,
}

impl Selection {
    fn scopes_for(&self, game: &str) -> Vec<Scope> {
        let mut s = self.every_game.clone();
        s.extend(self.games.get(game).cloned().unwrap_or_default());
        s
    }
}

/// Runs the validation.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Validating is loading, from start to end.
    let _loading = riffle::memory::Loading::start();
    for p in &args.paths {
        if !p.exists() {
            bail!("{}: no such file or folder", p.display());
        }
    }
    let roots = args
        .roots
        .search_paths(args.paths.first().map(PathBuf::as_path))?;
    let selection = select(&roots, &args.paths)?;
    let loader = Loader::new(roots.clone());
    let mut games: Vec<String> = if selection.every_game.is_empty() {
        Vec::new()
    } else {
        loader.games()
    };
    for g in selection.games.keys() {
        if !games.contains(g) {
            games.push(g.clone());
        }
    }
    games.sort();
    if games.is_empty() {
        bail!(
            "no games found under {}: expected scripts/<game>/game.yaml",
            display_root(&roots[0])
        );
    }

    let mut diags = Vec::new();
    let mut counts = Counts::default();
    let mut script_lines: Vec<(usize, String)> = Vec::new();
    // Loading a game of many cards takes a while: a bar on a terminal says which.
    let bar = super::progress::progress_bar(games.len() as u64, "games");
    for game in &games {
        bar.set_message(game.clone());
        let mut load = loader.load_game(game);
        let scopes = selection.scopes_for(game);
        let whole = scopes.iter().any(Option::is_none);
        let inside = |p: &Path| whole || scopes.iter().flatten().any(|s| p.starts_with(s));
        counts.games += 1;
        counts.sets += load.sets.iter().filter(|s| inside(&s.path)).count();
        counts.decks += load.decks.iter().filter(|d| inside(&d.path)).count();
        for c in load.cards.iter().filter(|c| inside(&c.path)) {
            counts.cards += 1;
            if let Some(n) = c.script_lines {
                let name = c.id.clone().unwrap_or_else(|| display_path(&c.path));
                script_lines.push((n, name));
            }
        }
        diags.extend(filter(&load, &scopes, &roots));
        let compiled = compile(&mut load);
        diags.extend(compiled.into_iter().filter(|d| inside(&d.path)));
        bar.inc(1);
    }
    bar.finish_and_clear();
    sort_and_dedup(&mut diags);
    // Counted whole, shown capped: a file's first 200, then one line for the rest.
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let warnings = diags
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    riffle_content::diagnostic::cap_per_file(&mut diags);

    match args.format {
        Format::Text => {
            let render = Render::for_stream(args.color, Stream::Stdout);
            for d in &diags {
                println!("{}", render.render(d));
            }
        }
        Format::Json => {
            println!(
                "{}",
                serde_json::to_string_pretty(&diags).context("writing JSON")?
            );
        }
    }
    eprintln!("{}", counts.summary(errors, warnings));
    if args.stats {
        eprintln!("{}", stats(&mut script_lines, counts.cards));
    }
    Ok(if errors > 0 {
        ExitCode::from(FOUND_PROBLEMS)
    } else {
        ExitCode::SUCCESS
    })
}

/// The diagnostics of one game that concern the selected scopes. When the ruleset could not
/// be loaded, its problems are always shown: everything else was checked without it.
fn filter(load: &GameLoad, scopes: &[Scope], roots: &[PathBuf]) -> Vec<Diagnostic> {
    if scopes.iter().any(Option::is_none) {
        return load.diagnostics.clone();
    }
    let ruleset_dir = |r: &PathBuf| r.join("scripts").join(&load.game).join("game.yaml");
    load.diagnostics
        .iter()
        .filter(|d| {
            scopes.iter().flatten().any(|s| d.concerns(s))
                || (load.content.is_none() && roots.iter().any(|r| d.path == ruleset_dir(r)))
        })
        .cloned()
        .collect()
}

/// Maps each PATH to a game (or every game) and a scope.
fn select(roots: &[PathBuf], paths: &[PathBuf]) -> anyhow::Result<Selection> {
    let mut sel = Selection {
        every_game: Vec::new(),
        games: BTreeMap::new(),
    };
    if paths.is_empty() {
        sel.every_game.push(None);
        return Ok(sel);
    }
    let canon_roots: Vec<Option<PathBuf>> = roots
        .iter()
        .map(|r| {
            std::fs::canonicalize(if r.as_os_str().is_empty() {
                Path::new(".")
            } else {
                r
            })
            .ok()
        })
        .collect();
    for p in paths {
        let canon = std::fs::canonicalize(p)
            .with_context(|| format!("{}: cannot resolve the path", p.display()))?;
        let best = canon_roots
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                let r = r.as_ref()?;
                let rel = canon.strip_prefix(r).ok()?;
                Some((r.components().count(), i, rel.to_path_buf()))
            })
            .max_by_key(|(depth, _, _)| *depth);
        let Some((_, i, rel)) = best else {
            bail!(
                "{} is outside the search paths ({}): if it is a mod, pass --mod with the mod's \
                 folder (the one holding cardsets/); if it is another repository, --root",
                p.display(),
                roots
                    .iter()
                    .map(|r| display_root(r))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        };
        let scope = clean_path(&roots[i].join(&rel));
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
        match parts.as_slice() {
            [] => sel.every_game.push(None),
            ["scripts" | "cardsets" | "schema"] | ["scripts", "lib", ..] => {
                sel.every_game.push(Some(scope))
            }
            ["schema", game, ..] if !game.ends_with(".json") => {
                sel.games.entry(game.to_string()).or_default().push(None)
            }
            ["schema", _] => sel.every_game.push(Some(scope)),
            ["scripts" | "cardsets", game, ..] => sel
                .games
                .entry(game.to_string())
                .or_default()
                .push(Some(scope)),
            _ => bail!(
                "{}: not content (expected something under scripts/, cardsets/ or schema/)",
                p.display()
            ),
        }
    }
    Ok(sel)
}

fn display_root(r: &Path) -> String {
    if r.as_os_str().is_empty() {
        ".".into()
    } else {
        display_path(r)
    }
}

#[derive(Default)]
struct Counts {
    games: usize,
    sets: usize,
    cards: usize,
    decks: usize,
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl Counts {
    fn summary(&self, errors: usize, warnings: usize) -> String {
        let what = format!(
            "validated {}, {}, {}, {}",
            plural(self.games, "game", "games"),
            plural(self.sets, "set", "sets"),
            plural(self.cards, "card", "cards"),
            plural(self.decks, "deck", "decks"),
        );
        let errs = if errors == 0 {
            "no errors".to_string()
        } else {
            plural(errors, "error", "errors")
        };
        if warnings == 0 {
            format!("{what}: {errs}")
        } else {
            format!(
                "{what}: {errs}, {}",
                plural(warnings, "warning", "warnings")
            )
        }
    }
}

/// Median and max lines of code of card scripts.
fn stats(lines: &mut [(usize, String)], cards: usize) -> String {
    if lines.is_empty() {
        return format!(
            "card scripts: none of {} have one",
            plural(cards, "card", "cards")
        );
    }
    lines.sort();
    let n = lines.len();
    let median = if n % 2 == 1 {
        lines[n / 2].0 as f64
    } else {
        (lines[n / 2 - 1].0 + lines[n / 2].0) as f64 / 2.0
    };
    let (max, who) = &lines[n - 1];
    format!(
        "card scripts: {n} of {} have one; lines of code (not blank, not comments): median {median}, max {max} ({who})",
        plural(cards, "card", "cards")
    )
}

/// Compiles a game whose files are valid: runs every script once (a misspelt constructor
/// or a runtime error at load is caught here, not only in a game) and applies the
/// ruleset's deck-construction rules to every deck list.
pub(super) fn compile(load: &mut GameLoad) -> Vec<Diagnostic> {
    use riffle_content::yaml::Pos;
    if load.has_errors() {
        return Vec::new();
    }
    // The engine takes the card definitions: nothing here needs them twice.
    let Some(content) = load.content.take() else {
        return Vec::new();
    };
    let ruleset = load
        .ruleset_path
        .clone()
        .unwrap_or_else(|| PathBuf::from("game.yaml"));
    let card_path = |id: &str| {
        load.cards
            .iter()
            .find(|c| c.id.as_deref() == Some(id))
            .map(|c| c.path.clone())
    };
    let engine = match riffle_core::Engine::from_content(content) {
        Ok(e) => e,
        Err(errors) => {
            return errors
                .into_iter()
                .map(|e| {
                    let path = match (&e.file, &e.card) {
                        (Some(f), _) => PathBuf::from(f),
                        (None, Some(c)) => card_path(c).unwrap_or_else(|| ruleset.clone()),
                        (None, None) => ruleset.clone(),
                    };
                    let pos = Pos {
                        line: e.line.unwrap_or(1),
                        col: e.col.unwrap_or(1),
                    };
                    Diagnostic::error(path, pos, e.message.clone()).for_card(e.card.as_deref())
                })
                .collect();
        }
    };
    let mut out = Vec::new();
    for deck in &load.decks {
        let text = riffle_content::read::read_text(&deck.path).unwrap_or_default();
        for problem in engine.validate_deck(&deck.list) {
            let pos = deck_line(&text, &deck.list, &problem).unwrap_or(Pos::START);
            out.push(Diagnostic::error(
                deck.path.clone(),
                pos,
                format!("deck {}: {problem}", deck.id),
            ));
        }
    }
    out
}

/// Where a deck problem points: the line listing the first card id the problem names.
/// The ruleset's check returns plain text, so the id is how we find the place.
fn deck_line(
    text: &str,
    list: &riffle_core::content::DeckList,
    problem: &str,
) -> Option<riffle_content::yaml::Pos> {
    let id = list
        .sections
        .values()
        .flat_map(|cards| cards.keys())
        .filter(|id| problem.contains(id.as_str()))
        .max_by_key(|id| id.len())?;
    text.lines().enumerate().find_map(|(i, l)| {
        let col = l.find(&format!("{id}:"))?;
        Some(riffle_content::yaml::Pos {
            line: i as u32 + 1,
            col: col as u32 + 1,
        })
    })
}
