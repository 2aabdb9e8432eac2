//! `riffle new`: a new set or card, written so that it passes `riffle validate` at once and
//! its scenario fails until it is written (docs/tutorial-mod.md).
//!
//! Everything game-specific comes from the game's files: the categories, zones and printed
//! language from `scripts/<game>/game.yaml`, the fields a category needs and their allowed
//! values from `schema/<game>/card.schema.json`, the scenario's setup from the game's card
//! scenarios, the script's example from its scripting guide. Every YAML file starts with the
//! line that tells an editor its schema ([`header`]).

pub mod card;
pub mod carried;
pub mod header;
pub mod scenario;
pub mod script;
mod write;

use std::path::{Path, PathBuf};

use riffle_core::RulesetManifest;
use riffle_core::suggest::did_you_mean;

use crate::reference::games_with_rulesets;
use card::{CardSchema, Node};
use riffle_content::diagnostic::display_path;
use riffle_content::schema::{SCENARIO_SCHEMA, SET_SCHEMA};
use riffle_content::{GameLoad, clean_path, load_game, yaml};
pub use write::{NewFile, create_all, refuse_existing};

/// What `riffle new set` makes.
#[derive(Clone, Debug)]
pub struct SetRequest {
    /// The repository root.
    pub root: PathBuf,
    /// The search path to write into (a mod folder); the root when `None`.
    pub into: Option<PathBuf>,
    /// The game (a folder of `scripts/` with a `game.yaml`).
    pub game: String,
    /// The set's code: its id, and the start of its cards' ids.
    pub code: String,
    /// Its English name (default: the code).
    pub name: Option<String>,
}

/// A new set's file, and what its cards may be.
#[derive(Clone, Debug)]
pub struct SetPlan {
    /// `cardsets/<game>/<code in lower case>/set.yaml`.
    pub files: Vec<NewFile>,
    /// The game's categories (`game.yaml`), for the first card.
    pub categories: Vec<String>,
    /// Written into a mod: the schema copies its headers name ([`carried`]), to create or
    /// refresh.
    pub schemas: Vec<NewFile>,
}

/// The set's file: `cardsets/<game>/<code in lower case>/set.yaml`; nothing is written here.
pub fn new_set(req: &SetRequest) -> Result<SetPlan, String> {
    let code = &req.code;
    let well_formed =
        !code.is_empty() && code.len() <= 16 && code.chars().all(|c| c.is_ascii_alphanumeric());
    if !well_formed {
        return Err(format!(
            "set code `{code}`: letters and digits only, up to 16 (like TT or RF04): it starts the id of every card of the set (TT-001)"
        ));
    }
    let id = code.to_ascii_uppercase();
    check_game(&req.root, &req.game)?;
    let base = req.into.clone().unwrap_or_else(|| req.root.clone());
    let mut paths = vec![req.root.clone()];
    if req.into.is_some() && base.is_dir() && !same(&base, &req.root) {
        paths.push(base.clone());
    }
    let load = load_game(&paths, &req.game);
    if let Some(s) = load.sets.iter().find(|s| s.id.eq_ignore_ascii_case(&id)) {
        return Err(format!(
            "{} already has a set {}: {} (choose another code)",
            req.game,
            s.id,
            display_path(&s.path)
        ));
    }
    let path = base
        .join("cardsets")
        .join(&req.game)
        .join(code.to_ascii_lowercase())
        .join("set.yaml");
    let in_mod = req.into.is_some() && !same(&base, &req.root);
    let head = carried::header_line(
        &path,
        &req.root,
        &base,
        in_mod,
        &format!("schema/{SET_SCHEMA}"),
    );
    let schemas = match in_mod {
        true => carried::copies(&req.root, &base, &req.game)?,
        false => Vec::new(),
    };
    let name = req.name.clone().unwrap_or_else(|| id.clone());
    let text = format!(
        "{head}\ngame: {}\nid: {id}\nname: {{en: {}}}\nversion: \"0.1\"\n",
        req.game,
        serde_json::Value::String(name)
    );
    let categories = load
        .content
        .map(|c| c.ruleset.manifest.categories)
        .unwrap_or_default();
    Ok(SetPlan {
        files: vec![NewFile {
            path,
            text,
            why: None,
        }],
        categories,
        schemas,
    })
}

/// What `riffle new card` makes.
#[derive(Clone, Debug)]
pub struct CardRequest {
    /// The repository root.
    pub root: PathBuf,
    /// Mods to load besides the set's own search path.
    pub mods: Vec<PathBuf>,
    /// The set's folder (`cardsets/<game>/<set>`, in the repository or a mod).
    pub set: PathBuf,
    /// The card's id: the set's code, `-`, letters and digits.
    pub id: String,
    /// One of the game's categories.
    pub category: String,
    /// Its name in the game's printed language (default: the id).
    pub name: Option<String>,
    /// Make a script even if the category does not need one.
    pub script: bool,
}

/// A new card's files, and where it was found to belong.
#[derive(Clone, Debug)]
pub struct CardPlan {
    /// The game.
    pub game: String,
    /// The search path of the set: the root, or a mod folder.
    pub search_path: PathBuf,
    /// Whether that is a mod (not the root).
    pub in_mod: bool,
    /// `<id>.yaml`, maybe `<id>.lua`, `<id>.test.yaml`.
    pub files: Vec<NewFile>,
    /// In a mod: the schema copies its headers name ([`carried`]), to create or refresh.
    pub schemas: Vec<NewFile>,
}

/// The card's files: nothing is written here.
pub fn new_card(req: &CardRequest) -> Result<CardPlan, String> {
    let set = clean_path(&req.set);
    let set = if set.file_name().is_some_and(|n| n == "set.yaml") {
        set.parent().map(Path::to_path_buf).unwrap_or_default()
    } else {
        set
    };
    let (game, set_id) = read_set(&set)?;
    let abs = header::absolute(&set);
    let above = abs.parent().and_then(Path::parent);
    let in_cardsets = abs.parent().and_then(Path::file_name) == Some(game.as_ref())
        && above.and_then(Path::file_name) == Some("cardsets".as_ref());
    if !in_cardsets {
        return Err(format!(
            "{}: a set folder is cardsets/{game}/<set>/ in the repository or a mod folder (this set.yaml says game {game})",
            display_path(&set)
        ));
    }
    // The search path is three folders up (`<path>/cardsets/<game>/<set>`): written as the
    // user wrote the set's path when it names them, so messages show short paths.
    let named = set
        .components()
        .rev()
        .take(3)
        .filter(|c| matches!(c, std::path::Component::Normal(_)))
        .count()
        == 3;
    let search_path = match set.ancestors().nth(3) {
        Some(p) if named && p.as_os_str().is_empty() => PathBuf::from("."),
        Some(p) if named => p.to_path_buf(),
        _ => abs
            .ancestors()
            .nth(3)
            .map(Path::to_path_buf)
            .unwrap_or_default(),
    };
    let in_mod = !same(&search_path, &req.root);
    let mut paths = vec![req.root.clone()];
    for m in req.mods.iter().chain(in_mod.then_some(&search_path)) {
        if !paths.iter().any(|p| same(p, m)) {
            paths.push(m.clone());
        }
    }
    check_game(&req.root, &game)?;
    let load = load_game(&paths, &game);
    let Some(content) = load.content.as_ref() else {
        return Err(format!(
            "the {game} ruleset does not load: run `riffle validate` to see why"
        ));
    };
    let manifest = &content.ruleset.manifest;
    check_category(manifest, &req.category)?;
    check_id(&req.id, &set_id)?;
    if let Some(c) = load.cards.iter().find(|c| c.id.as_deref() == Some(&req.id)) {
        return Err(format!(
            "{} is already a card of {game}: {}",
            req.id,
            display_path(&c.path)
        ));
    }
    let id = &req.id;
    let name = req.name.clone().unwrap_or_else(|| id.clone());
    let lang = manifest.names.printed.clone();

    let schema = CardSchema::load(&req.root, &game)?;
    let draft = Node::Map(vec![
        ("id".into(), Node::Scalar(id.as_str().into())),
        (
            "category".into(),
            Node::Scalar(req.category.as_str().into()),
        ),
        (
            "name".into(),
            Node::Map(vec![(lang.clone(), Node::Text(name.clone()))]),
        ),
        (
            "text".into(),
            Node::Map(vec![(lang.clone(), Node::Text(String::new()))]),
        ),
    ]);
    let filled = schema.fill(draft)?;
    let yaml_path = set.join(format!("{id}.yaml"));
    let card_header = carried::header_line(
        &yaml_path,
        &req.root,
        &search_path,
        in_mod,
        &header::card_schema(&game),
    );
    let mut card_text = format!(
        "{card_header}\n# {id}: the values below are placeholders its schema allows: write the card's own.\n"
    );
    if let Node::Map(entries) = &filled {
        for (k, v) in entries {
            card_text.push_str(&format!("{k}: {}\n", v.flow()));
        }
    }
    // A new card is being designed: the fields an import fills (its mark, official rulings)
    // are no hint for it.
    let mut optional = schema.optional_fields(&filled.to_value());
    optional.retain(|f| f != "needs_script" && f != "rulings");
    if !optional.is_empty() {
        card_text.push_str(&format!(
            "# Other fields a {} may have: {} ({}).\n",
            req.category,
            optional.join(", "),
            schema.path
        ));
    }
    let mut files = vec![NewFile {
        path: yaml_path,
        text: card_text,
        why: None,
    }];

    let needs = category_needs_script(&load, &req.category);
    if req.script || needs.is_some() {
        let guide = script::guide(&req.root, &game);
        let examples = guide
            .as_deref()
            .map(|g| script::examples(&req.root, g))
            .unwrap_or_default();
        let category_of = |card: &str| {
            content
                .cards
                .iter()
                .find(|c| c.id == card)
                .map(|c| c.category.clone())
        };
        // The shortest example of the category, else the guide's first.
        let example = examples
            .iter()
            .filter(|e| category_of(&e.card).as_deref() == Some(req.category.as_str()))
            .min_by_key(|e| e.lines.len())
            .or(examples.first());
        let example_category = example.and_then(|e| category_of(&e.card));
        files.push(NewFile {
            path: set.join(format!("{id}.lua")),
            text: script::skeleton(
                id,
                &name,
                &game,
                guide.as_deref(),
                example.map(|e| (e, example_category.as_deref())),
            ),
            why: if req.script { None } else { needs },
        });
    }

    let test_path = set.join(format!("{id}.test.yaml"));
    let scenario_header = carried::header_line(
        &test_path,
        &req.root,
        &search_path,
        in_mod,
        &format!("schema/{SCENARIO_SCHEMA}"),
    );
    let root_abs = header::absolute(&req.root.join("cardsets").join(&game));
    let base_scenarios: Vec<PathBuf> = load
        .scenarios
        .iter()
        .filter(|p| header::absolute(p).starts_with(&root_abs))
        .cloned()
        .collect();
    let defaults = scenario::common_defaults(&base_scenarios);
    let from = defaults.as_ref().map(|(_, p)| {
        header::absolute(p)
            .strip_prefix(header::absolute(&req.root))
            .map(Path::to_path_buf)
            .unwrap_or_else(|_| p.clone())
    });
    let hand = manifest.zones.iter().any(|z| z.name == "hand");
    files.push(NewFile {
        path: test_path,
        text: scenario::file(
            &scenario_header,
            id,
            &name,
            &game,
            defaults
                .as_ref()
                .zip(from.as_deref())
                .map(|((block, _), from)| (block.as_str(), from)),
            hand,
        ),
        why: None,
    });
    let schemas = match in_mod {
        true => carried::copies(&req.root, &search_path, &game)?,
        false => Vec::new(),
    };
    Ok(CardPlan {
        game,
        search_path,
        in_mod,
        files,
        schemas,
    })
}

/// Whether two paths name the same folder.
fn same(a: &Path, b: &Path) -> bool {
    header::absolute(a) == header::absolute(b)
}

/// The game must have a ruleset in the repository.
fn check_game(root: &Path, game: &str) -> Result<(), String> {
    let games = games_with_rulesets(root);
    if games.iter().any(|g| g == game) {
        return Ok(());
    }
    let names: Vec<&str> = games.iter().map(String::as_str).collect();
    let hint = did_you_mean(game, &names)
        .map(|g| format!("did you mean `{g}`? "))
        .unwrap_or_default();
    Err(format!(
        "no game `{game}` here: {hint}(games: {})",
        games.join(", ")
    ))
}

/// The game of a set folder and the set's id, from its `set.yaml`.
fn read_set(set: &Path) -> Result<(String, String), String> {
    let file = set.join("set.yaml");
    let text = riffle_content::read::read_text(&file).map_err(|e| {
        if set.is_dir() {
            format!(
                "{}: {e}: a card goes in a set folder, with its set.yaml (make one with `riffle new set`)",
                display_path(&file)
            )
        } else {
            format!(
                "{}: no such set folder (make one with `riffle new set`)",
                display_path(set)
            )
        }
    })?;
    let doc = yaml::parse(&text).map_err(|problems| {
        let first = problems
            .first()
            .map(|p| format!("{}:{}: {}", p.pos.line, p.pos.col, p.message))
            .unwrap_or_default();
        format!("{}:{first} (fix the set first)", display_path(&file))
    })?;
    let field = |k: &str| {
        doc.value
            .get(k)
            .and_then(serde_json::Value::as_str)
            .map(String::from)
            .ok_or_else(|| {
                format!(
                    "{}: no `{k}:` (a set.yaml has game, id, name, version)",
                    display_path(&file)
                )
            })
    };
    let (game, id) = (field("game")?, field("id")?);
    // The id names the new card's files: one that could climb out of the folder is refused
    // (as `riffle validate` refuses it: set.schema.json's pattern).
    if !riffle_content::import::is_safe_id(&id) {
        return Err(format!(
            "{}: set id {id:?} is not a set id (letters, digits, `-` and `_`, like RF01): fix the set first",
            display_path(&file)
        ));
    }
    Ok((game, id))
}

fn check_category(manifest: &RulesetManifest, category: &str) -> Result<(), String> {
    let all: Vec<&str> = manifest.categories.iter().map(String::as_str).collect();
    if all.contains(&category) {
        return Ok(());
    }
    let hint = did_you_mean(category, &all)
        .map(|c| format!("did you mean `{c}`? "))
        .unwrap_or_default();
    Err(format!(
        "--category {category}: not a category of {}: {hint}(categories: {})",
        manifest.game,
        all.join(", ")
    ))
}

/// A card's id is its set's id, `-`, then letters and digits (`TT-001`, `RF01-DON`), parts
/// separated by `-`: it names the card's files too.
fn check_id(id: &str, set_id: &str) -> Result<(), String> {
    let rest = id.strip_prefix(set_id).and_then(|r| r.strip_prefix('-'));
    let ok = rest.is_some_and(|r| {
        r.split('-')
            .all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric()))
    }) && id.len() <= 64;
    if ok {
        Ok(())
    } else {
        Err(format!(
            "card id `{id}`: a card of set {set_id} is `{set_id}-` then letters and digits ({set_id}-001)"
        ))
    }
}

/// Why a card of `category` gets a script without `--script`: every card of the category
/// that the game has so far has one (One Piece's Events, Gundam's Commands...).
fn category_needs_script(load: &GameLoad, category: &str) -> Option<String> {
    let content = load.content.as_ref()?;
    let of_category: Vec<&str> = content
        .cards
        .iter()
        .filter(|c| c.category == category)
        .map(|c| c.id.as_str())
        .collect();
    let scripted = load
        .cards
        .iter()
        .filter(|c| c.id.as_deref().is_some_and(|id| of_category.contains(&id)))
        .filter(|c| c.script.is_some())
        .count();
    (!of_category.is_empty() && scripted == of_category.len()).then(|| {
        format!(
            "every {category} of the game has a script: all {} of them",
            of_category.len()
        )
    })
}
