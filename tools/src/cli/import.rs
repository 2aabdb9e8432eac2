//! `riffle import`: the real cards of a game from a public dataset, as content files
//! (`riffle_content::import`, docs/import.md).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use riffle_content::diagnostic::display_path;
use riffle_content::import::{self, ChangeKind, Dataset};
use riffle_content::{Diagnostic, Loader};

use super::FOUND_PROBLEMS;

/// Options of `riffle import`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game the cards are of: its ruleset (in the repository) says which keywords card
    /// text declares and which language the rules read.
    #[arg(long)]
    game: String,
    /// The dataset and where it is: `punk-records DIR` (One Piece: the folder holding
    /// english/, japanese/...) or `gcg-api FILE` (Gundam: its data/cards.ndjson; the sets and
    /// rulings beside it are read too).
    #[arg(long, num_args = 2, value_names = ["SOURCE", "PATH"], required = true)]
    from: Vec<String>,
    /// The content folder to write: a mod folder (`cardsets/<game>/<set>/...`), played with
    /// `--mod DIR`. Importing again into it keeps what people changed.
    #[arg(long, value_name = "DIR")]
    into: PathBuf,
    /// Say what would change, writing nothing.
    #[arg(long)]
    dry_run: bool,
    /// The repository root, whose ruleset the cards are read with. Default: found by walking
    /// up from the current folder.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
}

/// Reads the dataset, writes the cards, reports.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (source, path) = (&args.from[0], PathBuf::from(&args.from[1]));
    let Some(&(_, game_of)) = import::SOURCES.iter().find(|(s, _)| s == source) else {
        bail!(
            "--from {source}: unknown dataset (datasets: {})",
            import::SOURCES
                .iter()
                .map(|(s, g)| format!("{s} for {g}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    };
    if game_of != args.game {
        bail!("--from {source} holds {game_of} cards, not {}", args.game);
    }
    // The ruleset is the repository's: the import is a mod to go over it.
    let root = super::repo_root(args.root.as_deref(), None)?;
    let loaded = Loader::new(vec![root])
        .load_valid(&args.game, riffle_content::LoadOptions::default())
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let manifest = &loaded.content.ruleset.manifest;
    let read = match source.as_str() {
        "punk-records" => import::punk_records::read(&path, &manifest.names.printed),
        _ => import::gcg_api::read(&path, manifest),
    };
    let mut data = match read {
        Ok(d) => d,
        Err(problems) => return Ok(refuse(&problems)),
    };
    let dir = import::game_dir(&args.into, &args.game);
    let (playable, needs) = import::prepare(&mut data, manifest, &loaded.card_fields, |id, set| {
        has_script(&dir, id, set)
    });
    let applied = if args.dry_run {
        import::plan(&data, &args.into)
    } else {
        import::apply(&data, &args.into)
    };
    let applied = match applied {
        Ok(a) => a,
        Err(problems) => return Ok(refuse(&problems)),
    };
    report(&data, &args, playable, needs, &applied).context("writing the report")?;
    Ok(ExitCode::SUCCESS)
}

/// Whether a person wrote a script for the card: `<id>.lua` beside its file, or a `script:`
/// its file names.
fn has_script(dir: &std::path::Path, id: &str, set: &str) -> bool {
    if dir.join(set).join(format!("{id}.lua")).is_file() {
        return true;
    }
    riffle_content::read::read_text(dir.join(set).join(format!("{id}.yaml")))
        .ok()
        .and_then(|t| riffle_content::yaml::parse(&t).ok())
        .is_some_and(|d| d.value.get("script").is_some())
}

fn refuse(problems: &[Diagnostic]) -> ExitCode {
    for p in problems {
        eprintln!("{p}");
    }
    eprintln!(
        "riffle import: {} problem(s) in the input: nothing was written",
        problems.len()
    );
    ExitCode::from(FOUND_PROBLEMS)
}

fn report(
    data: &Dataset,
    args: &Args,
    playable: usize,
    needs: usize,
    applied: &import::Applied,
) -> std::io::Result<()> {
    use std::io::Write;
    let mut o = std::io::stdout().lock();
    let count = |k: ChangeKind| applied.changes.iter().filter(|c| c.kind == k).count();
    writeln!(
        o,
        "{} {} → {}: {} cards in {} sets (dataset version {})",
        data.source,
        args.from[1],
        display_path(&import::game_dir(&args.into, &data.game)),
        data.cards.len(),
        data.sets.len(),
        data.version
    )?;
    writeln!(
        o,
        "  play as they are: {playable} (no text, or keywords only); need a script: {needs} (marked `needs_script: true`)"
    )?;
    for n in &data.notes {
        writeln!(o, "  note: {n}")?;
    }
    let verb = if args.dry_run { "would write" } else { "wrote" };
    if applied.first {
        writeln!(
            o,
            "  first import here: {verb} {} files ({} new cards, {} new sets)",
            applied.written.len(),
            count(ChangeKind::NewCard),
            count(ChangeKind::NewSet)
        )?;
    } else {
        writeln!(
            o,
            "  since the last import (dataset version {}):",
            applied.previous_version.as_deref().unwrap_or("?")
        )?;
        let mut by_kind: BTreeMap<ChangeKind, Vec<&import::Change>> = BTreeMap::new();
        for c in &applied.changes {
            by_kind.entry(c.kind).or_default().push(c);
        }
        if by_kind.is_empty() {
            writeln!(o, "    nothing changed")?;
        }
        for (kind, list) in by_kind {
            let label = match kind {
                ChangeKind::NewSet => "new set",
                ChangeKind::NewCard => "new card",
                ChangeKind::Errata => "errata",
                ChangeKind::NewPrinting => "new printing",
                ChangeKind::NewRuling => "new ruling",
                ChangeKind::ScriptWritten => "scripted",
                ChangeKind::KeptYours => "kept yours",
                ChangeKind::LeftDeleted => "left deleted",
                ChangeKind::Unreadable => "unreadable",
                ChangeKind::NoLongerInDataset => "gone upstream",
            };
            writeln!(o, "    {label}: {}", list.len())?;
            for c in list.iter().take(40) {
                if c.detail.is_empty() {
                    writeln!(o, "      {}", c.id)?;
                } else {
                    writeln!(o, "      {}: {}", c.id, c.detail)?;
                }
            }
            if list.len() > 40 {
                writeln!(o, "      ... and {} more", list.len() - 40)?;
            }
        }
        writeln!(
            o,
            "  {verb} {} files; {} unchanged",
            applied.written.len(),
            applied.unchanged
        )?;
    }
    writeln!(
        o,
        "  check it: riffle validate --mod {}   list what needs a script: riffle coverage --mod {}",
        display_path(&args.into),
        display_path(&args.into)
    )?;
    Ok(())
}
