//! `riffle coverage`: per set, how many cards are scripted, tested, and tested well enough
//! that an emptied script is noticed (the `--mutants=empty` check, `riffle::mutants`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use riffle::lint::{Scope, loaded_definitions};
use riffle::mutants::{Kinds, judge, plan};
use riffle_content::Loader;
use riffle_content::diagnostic::{OneLine, display_path};
use riffle_content::playability::{Judge, Playability};
use serde::Serialize;

use super::lint::roots_and_scope;
use super::progress::progress_bar;
use super::{FOUND_PROBLEMS, RootArgs};

/// Options of `riffle coverage`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The sets to count: set folders or a game's cardsets folder. Default: every set of the
    /// repository, or with `--mod` the mods' sets.
    #[arg(value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// A table, or one JSON object (`sets` and `total`).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Exit 1, naming them, unless every scripted card is caught: its scenarios fail with
    /// its script emptied (a card no scenario names is not). CI runs this.
    #[arg(long)]
    require_caught: bool,
    #[command(flatten)]
    roots: RootArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// A table with a totals line.
    Text,
    /// One JSON object.
    Json,
}

/// The figures of one set (or of all: `total`).
#[derive(Debug, Default, Clone, Serialize)]
struct Figures {
    /// Cards defined in the set (a mod's override counts in the mod's set).
    cards: usize,
    /// Cards a game can use as they are: vanilla, keywords only, or scripted.
    playable: usize,
    /// Cards with no rules text and no keywords.
    vanilla: usize,
    /// Cards whose text is keywords (and data the ruleset reads) only.
    keywords: usize,
    /// Cards whose text still needs a script (marked `needs_script`, or text beyond their
    /// keywords and no script).
    needs_script: usize,
    /// Cards with a script.
    scripted: usize,
    /// Cards a scenario names.
    tested: usize,
    /// Scripted cards whose scenarios fail when the script is emptied.
    caught: usize,
}

impl Figures {
    fn add(&mut self, o: &Figures) {
        self.cards += o.cards;
        self.playable += o.playable;
        self.vanilla += o.vanilla;
        self.keywords += o.keywords;
        self.needs_script += o.needs_script;
        self.scripted += o.scripted;
        self.tested += o.tested;
        self.caught += o.caught;
    }
}

#[derive(Debug, Serialize)]
struct SetRow {
    game: String,
    set: String,
    path: String,
    #[serde(flatten)]
    figures: Figures,
}

/// Counts.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (roots, scope) = roots_and_scope(&args.roots, &args.paths)?;
    let loader = Loader::new(roots.clone());
    let mut rows = Vec::new();
    let mut uncaught = Vec::new();
    let mut problems = 0usize;
    for game in loader.games() {
        match count_game(&loader, &roots, &game, &scope) {
            Ok((r, u)) => {
                rows.extend(r);
                uncaught.extend(u);
            }
            Err(why) => {
                eprintln!("{why}");
                problems += 1;
            }
        }
    }
    let mut total = Figures::default();
    for r in &rows {
        total.add(&r.figures);
    }
    match args.format {
        Format::Text => print!("{}", table(&rows, &total)),
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({"sets": rows, "total": total}))
                .context("writing JSON")?
        ),
    }
    if args.require_caught {
        for u in &uncaught {
            eprintln!("{u}");
        }
        problems += uncaught.len();
    }
    Ok(if problems > 0 {
        ExitCode::from(FOUND_PROBLEMS)
    } else {
        ExitCode::SUCCESS
    })
}

/// The rows of one game's sets in scope, and a line for each scripted card in them that is
/// not caught; `Err` says why the game could not be counted.
fn count_game(
    loader: &Loader,
    roots: &[PathBuf],
    game: &str,
    scope: &Scope,
) -> Result<(Vec<SetRow>, Vec<String>), String> {
    let load = loader.load_game(game);
    let sets: Vec<(String, PathBuf)> = load
        .sets
        .iter()
        .filter(|s| canonical(&s.path).is_some_and(|c| scope.contains(&c)))
        .map(|s| (s.id.clone(), s.path.clone()))
        .collect();
    if sets.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    // Each loaded card, by the set folder its YAML is in.
    let mut set_of: BTreeMap<String, usize> = BTreeMap::new();
    let mut scripted: BTreeMap<String, bool> = BTreeMap::new();
    // The script of each (its YAML if it has none).
    let mut path_of: BTreeMap<String, PathBuf> = BTreeMap::new();
    for (id, info) in loaded_definitions(&load.cards) {
        if let Some(i) = sets.iter().position(|(_, p)| info.path.parent() == Some(p)) {
            set_of.insert(id.to_string(), i);
            scripted.insert(id.to_string(), info.script.is_some());
            path_of.insert(
                id.to_string(),
                info.script.clone().unwrap_or(info.path.clone()),
            );
        }
    }
    let mut loaded = load.into_result().map_err(|diags| {
        let first = diags.first().map(ToString::to_string).unwrap_or_default();
        format!(
            "the {game} content has {} error(s), the first: {first} (run `riffle validate`): its sets were not counted",
            diags.len()
        )
    })?;
    let (files, unread) = plan::scenario_files(roots, game);
    if let Some(e) = unread.first() {
        return Err(format!(
            "{}: the {game} scenarios do not all read (run `riffle test`)",
            OneLine(e)
        ));
    }
    let naming = plan::naming(&files, set_of.keys().map(String::as_str), None);
    let failing = plan::failing_unmutated(&loaded.content, &naming).map_err(|es| {
        format!(
            "the {game} scripts do not compile: {} (run `riffle validate`)",
            es.first()
                .map(|e| OneLine(e).to_string())
                .unwrap_or_default()
        )
    })?;
    if let Some(o) = failing.first() {
        return Err(format!(
            "{} {}: {} scenario(s) of the {game} cards fail as they are: an emptied script is judged by passing scenarios (run `riffle test`)",
            OneLine(&o.at),
            OneLine(&o.name),
            failing.len()
        ));
    }
    let playability = Judge::new(&loaded.content.ruleset.manifest, &loaded.card_fields);
    let defs: BTreeMap<&str, &riffle_core::CardDef> = loaded
        .content
        .cards
        .iter()
        .map(|d| (d.id.as_str(), d))
        .collect();
    let mut figures = vec![Figures::default(); sets.len()];
    for (id, &i) in &set_of {
        figures[i].cards += 1;
        let marked = loaded.needs_script.binary_search(id).is_ok();
        match defs.get(id.as_str()).map(|d| playability.of(d, marked)) {
            Some(Playability::Vanilla) => figures[i].vanilla += 1,
            Some(Playability::Keywords) => figures[i].keywords += 1,
            Some(Playability::NeedsScript) => figures[i].needs_script += 1,
            Some(Playability::Scripted) | None => {}
        }
        figures[i].scripted += usize::from(scripted[id]);
        figures[i].tested += usize::from(!naming[id].is_empty());
    }
    let cards = plan::plan(&loaded.content, &naming, Kinds::Emptied);
    let mut caught_ids = BTreeSet::new();
    let bar = progress_bar(
        cards.iter().filter(|c| c.mutants.is_some()).count() as u64,
        "emptied scripts",
    );
    for card in &cards {
        let Some(ms) = &card.mutants else { continue };
        bar.set_message(card.id.clone());
        let scenarios = plan::ordered(&naming[&card.id], &card.id);
        let caught = ms
            .iter()
            .all(|m| judge(&mut loaded.content, card.index, &m.text, &scenarios).caught());
        bar.inc(1);
        if caught && let Some(&i) = set_of.get(&card.id) {
            figures[i].caught += 1;
            caught_ids.insert(card.id.clone());
        }
    }
    bar.finish_and_clear();
    for f in &mut figures {
        f.playable = f.cards - f.needs_script;
    }
    let uncaught = scripted
        .iter()
        .filter(|(id, s)| **s && !caught_ids.contains(*id))
        .map(|(id, _)| {
            let why = if naming[id].is_empty() {
                "no scenario names it"
            } else {
                "its scenarios pass with its script emptied"
            };
            let script = display_path(&path_of[id]);
            format!(
                "{script}:1:1: card {id} is not caught: {why} (`riffle test --mutants {script}` shows what its scenarios miss)"
            )
        })
        .collect();
    let rows = sets
        .into_iter()
        .zip(figures)
        .map(|((set, path), figures)| SetRow {
            game: game.to_string(),
            set,
            path: display_path(&path),
            figures,
        })
        .collect();
    Ok((rows, uncaught))
}

/// The table: one row per set, then the totals.
fn table(rows: &[SetRow], total: &Figures) -> String {
    let header = [
        "game",
        "set",
        "cards",
        "playable",
        "needs script",
        "scripted",
        "tested",
        "caught",
    ];
    let mut lines: Vec<[String; 8]> = vec![header.map(String::from)];
    let row = |game: &str, set: &str, f: &Figures| {
        [
            game.to_string(),
            set.to_string(),
            f.cards.to_string(),
            format!("{} ({})", f.playable, percent(f.playable, f.cards)),
            f.needs_script.to_string(),
            f.scripted.to_string(),
            format!("{} ({})", f.tested, percent(f.tested, f.cards)),
            format!("{} ({})", f.caught, percent(f.caught, f.scripted)),
        ]
    };
    for r in rows {
        lines.push(row(&r.game, &r.set, &r.figures));
    }
    lines.push(row("total", "", total));
    let widths: Vec<usize> = (0..8)
        .map(|c| {
            lines
                .iter()
                .map(|l| l[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for l in &lines {
        let cells: Vec<String> = l
            .iter()
            .enumerate()
            .map(|(c, cell)| {
                if c < 2 {
                    format!("{cell:<w$}", w = widths[c])
                } else {
                    format!("{cell:>w$}", w = widths[c])
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out.push_str(
        "playable: no text, keywords only, or scripted (% of cards); needs script: text no script implements yet;\ntested: a scenario names the card (% of cards); caught: its scenarios fail with its script emptied (% of scripted)\n",
    );
    out
}

fn percent(n: usize, of: usize) -> String {
    (n * 100)
        .checked_div(of)
        .map_or_else(|| "-".into(), |p| format!("{p}%"))
}

fn canonical(p: &Path) -> Option<PathBuf> {
    p.canonicalize().ok()
}
