//! `riffle new set` and `riffle new card`: a new set or card that validates at once, with a
//! scenario that fails until it is written (`riffle::scaffold`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::anyhow;
use riffle::scaffold::{self, CardRequest, NewFile, SetRequest};
use riffle_content::diagnostic::display_path;

use super::repo_root;

/// Options of `riffle new`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

/// What to make.
#[derive(Debug, clap::Subcommand)]
enum What {
    /// A set: `cardsets/<GAME>/<code in lower case>/set.yaml`, in the repository or, with
    /// `--into DIR`, in a mod folder (made if needed).
    Set(SetArgs),
    /// A card in a set folder: `<ID>.yaml` with the fields its category requires (placeholder
    /// values the game's schema allows), `<ID>.test.yaml`, a scenario that fails until you
    /// write it, and `<ID>.lua` with `--script` or when every card of the category has one.
    Card(CardArgs),
}

/// Options of `riffle new set`.
#[derive(Debug, clap::Args)]
struct SetArgs {
    /// The game: a folder of `scripts/` with a `game.yaml` (onepiece, gundam...).
    game: String,
    /// The set's code, letters and digits (`TT`, `RF04`): the set's id in upper case and the
    /// start of its cards' ids; its folder is the code in lower case.
    code: String,
    /// A mod folder to write into (a folder with the repository's layout, loaded with
    /// `--mod DIR`). Default: the repository.
    #[arg(long, value_name = "DIR")]
    into: Option<PathBuf>,
    /// The set's name in English (default: its code).
    #[arg(long)]
    name: Option<String>,
    /// The repository root. Default: found by walking up from the current folder.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
}

/// Options of `riffle new card`.
#[derive(Debug, clap::Args)]
struct CardArgs {
    /// The set's folder (`cardsets/<game>/<set>`, in the repository or a mod folder).
    set: PathBuf,
    /// The card's id: the set's code, `-`, then letters and digits (`TT-001`).
    id: String,
    /// One of the game's categories (game.yaml `categories`).
    #[arg(long)]
    category: String,
    /// The card's name in the game's printed language (default: its id).
    #[arg(long)]
    name: Option<String>,
    /// Also make `<ID>.lua`, a script skeleton with a commented example.
    #[arg(long)]
    script: bool,
    /// The repository root. Default: found by walking up from the current folder, or from
    /// the set's folder.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Further mods to load (the set's own mod folder is loaded anyway).
    #[arg(long = "mod", value_name = "DIR")]
    mods: Vec<PathBuf>,
}

/// Makes the files, or says why not (nothing written).
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.what {
        What::Set(a) => new_set(a),
        What::Card(a) => new_card(a),
    }
}

fn new_set(a: SetArgs) -> anyhow::Result<ExitCode> {
    let root = repo_root(a.root.as_deref(), a.into.as_deref())?;
    let req = SetRequest {
        root,
        into: a.into.clone(),
        game: a.game.clone(),
        code: a.code.clone(),
        name: a.name,
    };
    let plan = scaffold::new_set(&req).map_err(|e| anyhow!(e))?;
    write(&plan.files, &plan.schemas)?;
    let set_dir = plan.files[0]
        .path
        .parent()
        .map(display_path)
        .unwrap_or_default();
    let id = a.code.to_ascii_uppercase();
    println!(
        "next: riffle new card {set_dir} {id}-001 --category CATEGORY (the game's: {})",
        plan.categories.join(", ")
    );
    Ok(ExitCode::SUCCESS)
}

fn new_card(a: CardArgs) -> anyhow::Result<ExitCode> {
    let root = repo_root(a.root.as_deref(), Some(&a.set))?;
    let req = CardRequest {
        root,
        mods: a.mods,
        set: a.set,
        id: a.id,
        category: a.category,
        name: a.name,
        script: a.script,
    };
    let plan = scaffold::new_card(&req).map_err(|e| anyhow!(e))?;
    write(&plan.files, &plan.schemas)?;
    let test = match plan.in_mod {
        true => format!("riffle test --mod {}", display_path(&plan.search_path)),
        false => format!(
            "riffle test {}",
            plan.files[0]
                .path
                .parent()
                .map(display_path)
                .unwrap_or_default()
        ),
    };
    println!(
        "next: write the card's values and its scenario; `{test}` fails until the scenario is written"
    );
    Ok(ExitCode::SUCCESS)
}

/// Writes the schema copies a mod carries that are missing or out of date, then the files
/// (all or none), and names each one.
fn write(files: &[NewFile], schemas: &[NewFile]) -> anyhow::Result<()> {
    // Refused before anything is written; the copies first, so the new files' headers
    // never name a schema that is not there.
    scaffold::refuse_existing(files).map_err(|e| anyhow!(e))?;
    for f in scaffold::carried::refresh(schemas).map_err(|e| anyhow!(e))? {
        println!(
            "wrote {} ({})",
            display_path(&f.path),
            f.why.as_deref().unwrap_or_default()
        );
    }
    scaffold::create_all(files).map_err(|e| anyhow!(e))?;
    for f in files {
        match &f.why {
            Some(why) => println!("created {} ({why})", display_path(&f.path)),
            None => println!("created {}", display_path(&f.path)),
        }
    }
    Ok(())
}
