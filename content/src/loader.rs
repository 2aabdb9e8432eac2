//! Reading a game's content from ordered search paths, collecting every problem.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

use riffle_core::{
    CardDef, Content, DeckList, Library, Localized, Ruleset, RulesetManifest, Source,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::card_fields::CardField;
use super::diagnostic::{Diagnostic, display_path, sort_and_dedup};
use super::files::{CardFile, DeckFile, MAX_SECTION_CARDS, Printing, Ruling, SetFile};
use super::manifest::{ContentManifest, FileRecord, SetVersion};
use super::schema::{FileKind, GameCardSchema, Schemas, game_card_schema_path};
use super::suggest::did_you_mean;
use super::yaml::{self, Pos, SpanMap, YamlDoc, escape_token};

/// A set that was loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetInfo {
    /// The set's id from `set.yaml` (the folder name when `set.yaml` is missing or broken).
    pub id: String,
    /// Its version (empty when `set.yaml` is missing or broken).
    pub version: String,
    /// Its name, localized (empty when `set.yaml` is missing or broken).
    pub name: Localized,
    /// Its description, localized.
    pub description: Option<Localized>,
    /// The set's folder (search path joined with `cardsets/<game>/<set>`).
    pub path: PathBuf,
    /// Index of the search path it came from.
    pub root: usize,
}

/// A card file that was read (valid or not).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardInfo {
    /// The card's id, when the file has one.
    pub id: Option<String>,
    /// The card's YAML file.
    pub path: PathBuf,
    /// Its script, when it has one that exists.
    pub script: Option<PathBuf>,
    /// Lines of code of the script: not blank, not only a `--` comment.
    pub script_lines: Option<usize>,
    /// Its version, from the bytes read (a hot reload tells a changed card from a saved
    /// but unchanged one with it): the first 12 hex digits of the BLAKE3 hash of the YAML
    /// and the script. None when the YAML could not be read or is not a valid card.
    pub version: Option<String>,
}

/// The version of a card's YAML and script texts (see [`CardInfo::version`]).
pub fn card_version(yaml: &str, script: Option<&str>) -> String {
    let mut h = blake3::Hasher::new();
    h.update(yaml.as_bytes());
    if let Some(s) = script {
        h.update(b"\0");
        h.update(s.as_bytes());
    }
    h.finalize().to_hex()[..12].to_string()
}

/// A deck list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deck {
    /// The deck's id: its file name without `.yaml`.
    pub id: String,
    /// The file.
    pub path: PathBuf,
    /// Its name, localized.
    pub name: Localized,
    /// Its description, localized.
    pub description: Option<Localized>,
    /// The cards.
    pub list: DeckList,
}

/// Everything learnt loading one game: the content (when the ruleset loaded), what was read,
/// and every diagnostic.
#[derive(Clone, Debug)]
pub struct GameLoad {
    /// The game's id.
    pub game: String,
    /// The ruleset and the cards that loaded; `None` when the ruleset could not be loaded.
    /// When there are errors this is what could be salvaged: use [`GameLoad::into_result`]
    /// to insist on valid content.
    pub content: Option<Content>,
    /// Every set folder, in load order.
    pub sets: Vec<SetInfo>,
    /// Every card file, in load order.
    pub cards: Vec<CardInfo>,
    /// Every deck list that loaded.
    pub decks: Vec<Deck>,
    /// Scenario files (`*.test.yaml`) found in set folders, for `riffle test`.
    pub scenarios: Vec<PathBuf>,
    /// The ruleset's `game.yaml`, when one was found.
    pub ruleset_path: Option<PathBuf>,
    /// What was read, with hashes.
    pub manifest: ContentManifest,
    /// The cards marked `needs_script` that have no script, sorted: they may not be played.
    pub needs_script: Vec<String>,
    /// The game's own card fields, as its card schema declares them.
    pub card_fields: Vec<CardField>,
    /// What the card database needs beyond the kernel's definitions (set, printings,
    /// rulings), by card id: filled only when asked for ([`LoadOptions::records`]).
    pub records: BTreeMap<String, CardRecord>,
    /// Errors, warnings and notes, sorted by file and position.
    pub diagnostics: Vec<Diagnostic>,
}

/// What to keep while loading, beyond what a game needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoadOptions {
    /// Keep each card's [`CardRecord`] (its set, printings and rulings), for the card
    /// database export. Off for games: they never read them.
    pub records: bool,
}

/// A card's data that the kernel never reads: where it lives and how it was printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardRecord {
    /// The id of the set it is defined in.
    pub set: String,
    /// Its card file.
    pub path: PathBuf,
    /// Its printings, as the file lists them.
    pub printings: Vec<Printing>,
    /// Its rulings.
    pub rulings: Vec<Ruling>,
    /// Marked `needs_script`.
    pub needs_script: bool,
}

/// One card file read again ([`Loader::reload_card`]).
#[derive(Clone, Debug)]
pub struct CardReload {
    /// The card's id, when the file has one.
    pub id: Option<String>,
    /// The definition, when the card has no error.
    pub def: Option<CardDef>,
    /// Its script file, when it has one that exists.
    pub script: Option<PathBuf>,
    /// Its version, from the bytes read ([`CardInfo::version`]).
    pub version: Option<String>,
    /// Errors (then `def` is None), warnings and notes.
    pub diagnostics: Vec<Diagnostic>,
}

/// A game whose content is valid.
#[derive(Clone, Debug)]
pub struct LoadedGame {
    /// Ruleset and cards.
    pub content: Content,
    /// Deck lists.
    pub decks: Vec<Deck>,
    /// Scenario files.
    pub scenarios: Vec<PathBuf>,
    /// Every card file, in load order (a hot reload maps changed files to cards with it).
    pub cards: Vec<CardInfo>,
    /// What was read, with hashes.
    pub manifest: ContentManifest,
    /// The cards marked `needs_script` that have no script, sorted: they may not be played.
    pub needs_script: Vec<String>,
    /// The game's own card fields, as its card schema declares them.
    pub card_fields: Vec<CardField>,
    /// Each card's set, printings and rulings, when asked for ([`LoadOptions::records`]).
    pub records: BTreeMap<String, CardRecord>,
    /// The sets, in load order.
    pub sets: Vec<SetInfo>,
    /// Warnings and notes (overrides by mods...).
    pub notes: Vec<Diagnostic>,
}

impl GameLoad {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The errors only.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.is_error())
    }

    /// The content if there is no error, else every diagnostic.
    pub fn into_result(self) -> Result<LoadedGame, Vec<Diagnostic>> {
        match self.content {
            Some(content) if !self.diagnostics.iter().any(Diagnostic::is_error) => Ok(LoadedGame {
                content,
                decks: self.decks,
                scenarios: self.scenarios,
                cards: self.cards,
                manifest: self.manifest,
                needs_script: self.needs_script,
                card_fields: self.card_fields,
                records: self.records,
                sets: self.sets,
                notes: self.diagnostics,
            }),
            _ => Err(self.diagnostics),
        }
    }

    /// A deck by id.
    pub fn deck(&self, id: &str) -> Option<&Deck> {
        self.decks.iter().find(|d| d.id == id)
    }
}

impl LoadedGame {
    /// A deck by id.
    pub fn deck(&self, id: &str) -> Option<&Deck> {
        self.decks.iter().find(|d| d.id == id)
    }
}

/// Reads content from ordered search paths. Compiles the schemas once; reuse it for several
/// games in one run.
pub struct Loader {
    roots: Vec<PathBuf>,
    /// The roots as written and with links resolved: a content file found in one that leads
    /// outside them is not read.
    real_roots: Vec<(PathBuf, PathBuf)>,
    schemas: Schemas,
    /// Threads that read and check a set's card files (1: on the calling thread alone).
    threads: usize,
}

impl std::fmt::Debug for Loader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Loader")
            .field("roots", &self.roots)
            .finish()
    }
}

/// Why a game's content could not be had.
#[derive(Clone, Debug)]
pub enum LoadFailure {
    /// No search path has this game: the games there are.
    UnknownGame {
        /// The game asked for.
        game: String,
        /// The games the search paths have.
        games: Vec<String>,
    },
    /// The content has errors: every diagnostic (`riffle validate` prints them all).
    Invalid {
        /// The game.
        game: String,
        /// Every diagnostic, errors among them.
        diagnostics: Vec<Diagnostic>,
    },
}

impl std::fmt::Display for LoadFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadFailure::UnknownGame { game, games } => {
                write!(f, "no game `{game}` here (games: {})", games.join(", "))
            }
            LoadFailure::Invalid { game, diagnostics } => {
                let errors: Vec<&Diagnostic> =
                    diagnostics.iter().filter(|d| d.is_error()).collect();
                write!(
                    f,
                    "the {game} content has {} error(s), the first: {} (run `riffle validate`)",
                    errors.len(),
                    errors.first().map(|d| d.to_string()).unwrap_or_default()
                )
            }
        }
    }
}

impl std::error::Error for LoadFailure {}

/// Loads one game from ordered search paths (the repository root first, then mods). See
/// [`Loader::load_game`].
pub fn load_game(roots: &[PathBuf], game: &str) -> GameLoad {
    Loader::new(roots.to_vec()).load_game(game)
}

/// The folder at or above `start` that has both `scripts/` and `cardsets/`.
pub fn find_root(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|d| d.join("scripts").is_dir() && d.join("cardsets").is_dir())
        .map(Path::to_path_buf)
}

/// Removes `.` components (`./cardsets` → `cardsets`, `.` → ``).
pub fn clean_path(p: &Path) -> PathBuf {
    p.components()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect()
}

/// A folder's entries, sorted, without hidden entries (`.x`) and names that are not UTF-8.
struct Listing {
    /// Folders (`true`) and regular files (`false`), symbolic links followed.
    entries: Vec<(String, bool)>,
    /// Entries that are neither (FIFOs, sockets, devices): never opened, since opening a
    /// FIFO blocks until something writes to it.
    special: Vec<String>,
}

fn list_dir(dir: &Path) -> std::io::Result<Listing> {
    let mut out = Listing {
        entries: Vec::new(),
        special: Vec::new(),
    };
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        if name.starts_with('.') {
            continue;
        }
        match std::fs::metadata(entry.path()) {
            Ok(m) if m.is_dir() => out.entries.push((name, true)),
            // A broken link stays a file: reading it reports why it cannot be read.
            Ok(m) if !m.is_file() => out.special.push(name),
            _ => out.entries.push((name, false)),
        }
    }
    out.entries.sort();
    out.special.sort();
    Ok(out)
}

/// Names of files content is read from (the others are ignored anyway).
fn is_content_name(name: &str) -> bool {
    [".yaml", ".yml", ".lua", ".json"]
        .iter()
        .any(|ext| name.ends_with(ext))
}

/// Joins `rel` onto `base` lexically, resolving `..`; `None` if it is absolute or climbs out.
fn join_relative(base: &Path, rel: &str) -> Option<PathBuf> {
    let rel = Path::new(rel);
    let mut out: Vec<Component> = base.components().collect();
    for c in rel.components() {
        match c {
            Component::Normal(_) => out.push(c),
            Component::CurDir => {}
            Component::ParentDir => {
                if !matches!(out.pop(), Some(Component::Normal(_))) {
                    return None;
                }
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out.iter().collect())
}

fn rel_string(p: &Path) -> String {
    p.components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Lines of code: not blank and not only a comment.
pub fn lines_of_code(text: &str) -> usize {
    let mut in_block = false;
    let mut n = 0;
    for line in text.lines() {
        let t = line.trim();
        if in_block {
            if t.contains("]]") {
                in_block = false;
            }
            continue;
        }
        if t.starts_with("--[[") || t.starts_with("--[=[") {
            in_block = !t.contains("]]");
            continue;
        }
        if t.is_empty() || t.starts_with("--") {
            continue;
        }
        n += 1;
    }
    n
}

impl Loader {
    /// A loader over these search paths, in order (the base first). Compiles the generated
    /// schemas.
    pub fn new(roots: Vec<PathBuf>) -> Loader {
        let schemas = Schemas::new().expect("the generated schemas compile");
        Loader {
            real_roots: crate::read::real_roots(&roots),
            roots: roots.iter().map(|r| clean_path(r)).collect(),
            schemas,
            threads: default_threads(),
        }
    }

    /// This loader with `n` threads (at least 1) reading and checking card files: the
    /// content and the diagnostics are the same whatever `n` (a set's files are checked in
    /// blocks, and the results taken in the files' order). The default is the cores the
    /// process may use, at most [`MAX_THREADS`].
    pub fn with_threads(mut self, n: usize) -> Loader {
        self.threads = n.max(1);
        self
    }

    /// The search paths.
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// Every game found in the search paths: folders of `scripts/` (except `lib`) and of
    /// `cardsets/`, sorted.
    pub fn games(&self) -> Vec<String> {
        let mut games = BTreeSet::new();
        for root in &self.roots {
            for (sub, skip) in [("scripts", "lib"), ("cardsets", "")] {
                if let Ok(listing) = list_dir(&root.join(sub)) {
                    for (name, is_dir) in listing.entries {
                        if is_dir && name != skip {
                            games.insert(name);
                        }
                    }
                }
            }
        }
        games.into_iter().collect()
    }

    /// Loads one game: the ruleset (`scripts/<game>/game.yaml`, from the first search path
    /// that has one, with `scripts/lib/*.lua` of that search path), every set of every search
    /// path in order, then the deck lists. Never stops at the first problem: every problem
    /// found is a diagnostic.
    pub fn load_game(&self, game: &str) -> GameLoad {
        self.load_game_with(game, LoadOptions::default())
    }

    /// One game's content, valid: an unknown game names the games there are; content with
    /// errors gives every diagnostic. What a client calls before starting games.
    pub fn load_valid(&self, game: &str, options: LoadOptions) -> Result<LoadedGame, LoadFailure> {
        let games = self.games();
        if !games.iter().any(|g| g == game) {
            return Err(LoadFailure::UnknownGame {
                game: game.to_string(),
                games,
            });
        }
        self.load_game_with(game, options)
            .into_result()
            .map_err(|diagnostics| LoadFailure::Invalid {
                game: game.to_string(),
                diagnostics,
            })
    }

    /// [`Loader::load_game`], keeping what `options` asks for.
    pub fn load_game_with(&self, game: &str, options: LoadOptions) -> GameLoad {
        let mut run = Run {
            loader: self,
            game,
            diags: Vec::new(),
            files: Vec::new(),
            dir: None,
            options,
        };
        let game_schema = run.game_schema();
        let ruleset = run.ruleset();
        let mut cards = run.cards(
            ruleset.as_ref().map(|r| &r.ruleset.manifest),
            game_schema.as_ref(),
        );
        let decks = run.decks(
            ruleset.as_ref().map(|r| &r.ruleset.manifest),
            &cards.known_ids(),
        );
        let manifest = ContentManifest::build(
            game,
            cards
                .sets
                .iter()
                .filter(|s| s.has_manifest)
                .map(|s| SetVersion {
                    id: s.info.id.clone(),
                    version: s.info.version.clone(),
                })
                .collect(),
            std::mem::take(&mut run.files),
        );
        let mut diags = std::mem::take(&mut run.diags);
        sort_and_dedup(&mut diags);
        let ruleset_path = ruleset.as_ref().map(|r| r.path.clone());
        let libraries = cards.libraries();
        let mut needs_script: Vec<String> = cards
            .defs
            .iter()
            .filter(|c| c.needs_script && c.def.as_ref().is_some_and(|d| d.script.is_none()))
            .map(|c| c.id.clone())
            .collect();
        needs_script.sort();
        let card_fields = game_schema
            .as_ref()
            .map(GameCardSchema::fields)
            .unwrap_or_default();
        let mut records = BTreeMap::new();
        for c in &mut cards.defs {
            if let (Some(mut r), true) = (c.record.take(), c.def.is_some()) {
                r.set = cards.sets[c.set].info.id.clone();
                records.insert(c.id.clone(), r);
            }
        }
        GameLoad {
            game: game.to_string(),
            content: ruleset.map(|r| Content {
                ruleset: r.ruleset,
                libraries,
                cards: exact(cards.defs.into_iter().filter_map(|c| c.def)),
            }),
            sets: cards.sets.into_iter().map(|s| s.info).collect(),
            cards: exact(cards.infos),
            decks,
            scenarios: cards.scenarios,
            ruleset_path,
            manifest,
            needs_script,
            card_fields,
            records,
            diagnostics: diags,
        }
    }

    /// The game's card schema (`schema/<game>/card.schema.json` of the first search path
    /// that has one), compiled, and the problems met reading it. Compile it once and pass it
    /// to [`Loader::reload_card`] for every change.
    pub fn card_schema(&self, game: &str) -> (Option<GameCardSchema>, Vec<Diagnostic>) {
        let mut run = Run {
            loader: self,
            game,
            diags: Vec::new(),
            files: Vec::new(),
            dir: None,
            options: LoadOptions::default(),
        };
        let schema = run.game_schema();
        (schema, run.diags)
    }

    /// Reads one card file again on its own (hot reload): the checks `load_game` makes of a
    /// card and its script, against the game's manifest and card schema. Checks that need
    /// every card (duplicate ids, printings) are the caller's. `path` is the card's YAML in a
    /// set folder of a search path.
    pub fn reload_card(
        &self,
        game: &str,
        manifest: &RulesetManifest,
        schema: Option<&GameCardSchema>,
        path: &Path,
    ) -> CardReload {
        let mut run = Run {
            loader: self,
            game,
            diags: Vec::new(),
            files: Vec::new(),
            dir: None,
            options: LoadOptions::default(),
        };
        let place = (0..self.roots.len()).find_map(|r| {
            let rel = path.strip_prefix(&self.roots[r]).ok()?;
            let file = rel.file_name()?.to_str()?.to_string();
            let set_rel = rel.parent()?.to_path_buf();
            // cardsets/<game>/<set>/<file>
            let mut parts = set_rel.components();
            let ok = parts.next()?.as_os_str() == "cardsets"
                && parts.next()?.as_os_str() == game
                && parts.next().is_some()
                && parts.next().is_none();
            ok.then_some((r, set_rel, file))
        });
        let Some((root, set_rel, file)) = place else {
            return CardReload {
                id: None,
                def: None,
                script: None,
                version: None,
                diagnostics: vec![Diagnostic::error(
                    path,
                    Pos::START,
                    format!(
                        "not a card file of {game}: cards are cardsets/{game}/<set>/<id>.yaml in a search path"
                    ),
                )],
            };
        };
        let mut used = BTreeSet::new();
        let (info, loaded, _) = run.card(root, &set_rel, &file, Some(manifest), schema, &mut used);
        let mut diagnostics = run.diags;
        sort_and_dedup(&mut diagnostics);
        let def = loaded.and_then(|c| c.def);
        CardReload {
            id: info.id,
            def: if diagnostics.iter().any(Diagnostic::is_error) {
                None
            } else {
                def
            },
            script: info.script,
            version: info.version,
            diagnostics,
        }
    }

    /// Reads one deck list file against loaded content (for a deck outside the repository).
    pub fn load_deck_file(&self, path: &Path, content: &Content) -> Result<Deck, Vec<Diagnostic>> {
        self.load_deck_file_with(
            path,
            &content.ruleset.manifest,
            content.cards.iter().map(|c| c.id.as_str()),
        )
    }

    /// [`Loader::load_deck_file`] against a manifest and the card ids there are (an
    /// engine's `card_ids()`, when the engine holds the cards).
    pub fn load_deck_file_with<'a>(
        &self,
        path: &Path,
        manifest: &RulesetManifest,
        card_ids: impl Iterator<Item = &'a str>,
    ) -> Result<Deck, Vec<Diagnostic>> {
        let game = manifest.game.clone();
        let mut run = Run {
            loader: self,
            game: &game,
            diags: Vec::new(),
            files: Vec::new(),
            dir: None,
            options: LoadOptions::default(),
        };
        let ids: BTreeSet<String> = card_ids.map(String::from).collect();
        let deck = run.deck_at(path.to_path_buf(), Some(manifest), &ids);
        let mut diags = run.diags;
        sort_and_dedup(&mut diags);
        match deck {
            Some(d) if !diags.iter().any(Diagnostic::is_error) => Ok(d),
            _ => Err(diags),
        }
    }
}

/// Reads one deck list file against loaded content.
pub fn load_deck_file(path: &Path, content: &Content) -> Result<Deck, Vec<Diagnostic>> {
    Loader::new(Vec::new()).load_deck_file(path, content)
}

struct LoadedRuleset {
    ruleset: Ruleset,
    path: PathBuf,
}

struct LoadedCard {
    /// The card's id, even when the card is otherwise broken.
    id: String,
    /// The card, when its file is valid enough to build one.
    def: Option<CardDef>,
    root: usize,
    path: PathBuf,
    id_pos: Pos,
    /// Its set: an index into `Cards::sets`.
    set: usize,
    /// Marked `needs_script`.
    needs_script: bool,
    /// Kept when [`LoadOptions::records`] asks (its `set` is filled in at the end).
    record: Option<CardRecord>,
}

/// What a set's `set.yaml` lists for later checks, and where (its path and spans; None when
/// it is missing or broken).
#[derive(Default)]
struct SetLists {
    overrides: Vec<String>,
    scripts: Vec<String>,
    at: Option<(PathBuf, SpanMap)>,
}

struct LoadedSet {
    info: SetInfo,
    has_manifest: bool,
    /// The set's shared Lua, read, in load order.
    scripts: Vec<Source>,
}

#[derive(Default)]
struct Cards {
    defs: Vec<LoadedCard>,
    /// Ids of card files too broken to read an id from their data (YAML syntax errors),
    /// guessed from their text: decks naming them are not told the card is missing.
    broken_ids: BTreeSet<String>,
    infos: Vec<CardInfo>,
    sets: Vec<LoadedSet>,
    scenarios: Vec<PathBuf>,
}

impl Cards {
    /// Every card id defined, including cards with errors (so that a deck naming a broken
    /// card is not also told the card is missing).
    fn known_ids(&self) -> BTreeSet<String> {
        let mut ids: BTreeSet<String> = self.defs.iter().map(|c| c.id.clone()).collect();
        ids.extend(self.broken_ids.iter().cloned());
        ids
    }

    /// Each set's shared Lua with the cards it serves: the set's cards that were not
    /// replaced by a later search path's card of the same id.
    fn libraries(&self) -> Vec<Library> {
        let mut out = Vec::new();
        for (i, set) in self.sets.iter().enumerate() {
            if set.scripts.is_empty() {
                continue;
            }
            out.push(Library {
                name: set.info.id.clone(),
                scripts: set.scripts.clone(),
                cards: self
                    .defs
                    .iter()
                    .filter(|c| c.set == i && c.def.is_some())
                    .map(|c| c.id.clone())
                    .collect(),
            });
        }
        out
    }
}

/// One game being loaded.
struct Run<'a> {
    loader: &'a Loader,
    game: &'a str,
    diags: Vec<Diagnostic>,
    files: Vec<FileRecord>,
    options: LoadOptions,
    /// The folder of the last file read, and where it really is.
    dir: crate::read::RealDir,
}

/// One card file read and checked on its own: what [`Run::card`] returns, with what it
/// would have added to the run (diagnostics, file records, scripts used).
struct CardRead {
    info: CardInfo,
    card: Option<LoadedCard>,
    #[allow(clippy::type_complexity)]
    printings: Vec<(String, Pos, Option<(String, Pos)>)>,
    diags: Vec<Diagnostic>,
    files: Vec<FileRecord>,
    used_lua: BTreeSet<String>,
}

/// Most threads a loader starts.
pub const MAX_THREADS: usize = 8;

/// Files a thread takes at a time: big enough that handing them out costs nothing, small
/// enough that a thread the machine slows down leaves the others work.
const BLOCK: usize = 64;

/// The cores this process may use, at most [`MAX_THREADS`].
fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, MAX_THREADS)
}

/// `f` over `items` cut in blocks of [`BLOCK`], on up to `threads` threads (the calling one
/// among them), each taking the next block not yet taken; the results in `items`' order,
/// whatever thread made them. One thread, or one block: all on the calling thread.
fn in_blocks<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&[T]) -> Vec<R> + Sync,
) -> Vec<R> {
    let blocks = items.len().div_ceil(BLOCK);
    let threads = threads.min(blocks);
    if threads <= 1 {
        return f(items);
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        let mut done: Vec<(usize, Vec<R>)> = Vec::new();
        loop {
            let b = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if b >= blocks {
                return done;
            }
            let end = ((b + 1) * BLOCK).min(items.len());
            done.push((b, f(&items[b * BLOCK..end])));
        }
    };
    let mut all: Vec<(usize, Vec<R>)> = std::thread::scope(|scope| {
        let others: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        let mut all = work();
        for t in others {
            // A panic in a check is a bug: it goes on as it would on one thread.
            all.extend(t.join().unwrap_or_else(|p| std::panic::resume_unwind(p)));
        }
        all
    });
    all.sort_unstable_by_key(|(b, _)| *b);
    let mut out = Vec::with_capacity(items.len());
    for (_, r) in all {
        out.extend(r);
    }
    out
}

/// A parsed, schema-checked file.
struct Checked<T> {
    doc: YamlDoc,
    /// The typed value, when it deserialized.
    value: Option<T>,
    /// Pointers that already have an error (later checks skip them).
    bad: BTreeSet<String>,
}

impl Run<'_> {
    fn path(&self, root: usize, rel: &Path) -> PathBuf {
        self.loader.roots[root].join(rel)
    }

    fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// A folder's folders and regular files; a FIFO, socket or device with a content file's
    /// name is skipped with a warning. `None` when the folder cannot be read.
    fn list(&mut self, dir: &Path) -> Option<Vec<(String, bool)>> {
        let listing = list_dir(dir).ok()?;
        for name in listing.special.iter().filter(|n| is_content_name(n)) {
            self.push(Diagnostic::warning(
                dir.join(name),
                Pos::START,
                "skipped: not a regular file (a FIFO, socket or device): content files must be regular files",
            ));
        }
        Some(listing.entries)
    }

    /// Reads a file as text, recording its hash. Reports unreadable and non-UTF-8 files.
    fn read(&mut self, root: usize, rel: &Path, card: Option<&str>) -> Option<String> {
        let path = self.path(root, rel);
        self.read_at(&path, Some((root, rel)), card)
    }

    fn read_at(
        &mut self,
        path: &Path,
        record: Option<(usize, &Path)>,
        card: Option<&str>,
    ) -> Option<String> {
        // A link out of the search paths is not content: not read, its target not shown.
        if crate::read::leaves_in(path, &self.loader.real_roots, &mut self.dir) {
            self.push(Diagnostic::error(path, Pos::START, crate::read::LEAVES).for_card(card));
            return None;
        }
        // Never read what is not a regular file (opening a FIFO blocks until it is written),
        // nor more than a bounded size (crate::read).
        let bytes = match crate::read::read_bytes(path) {
            Ok(b) => b,
            Err(crate::read::ReadError::NotRegular) => {
                self.push(
                    Diagnostic::error(
                        path,
                        Pos::START,
                        "not a regular file (a folder, FIFO, socket or device): give a content file",
                    )
                    .for_card(card),
                );
                return None;
            }
            Err(crate::read::ReadError::Io(e)) => {
                self.push(
                    Diagnostic::error(path, Pos::START, format!("cannot read the file: {e}"))
                        .for_card(card),
                );
                return None;
            }
            Err(e) => {
                self.push(Diagnostic::error(path, Pos::START, e.to_string()).for_card(card));
                return None;
            }
        };
        if let Some((root, rel)) = record {
            self.files.push(FileRecord {
                root,
                rel: rel_string(rel),
                hash: blake3::hash(&bytes),
            });
        }
        match String::from_utf8(bytes) {
            Ok(t) => Some(t),
            Err(e) => {
                let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
                let text = String::from_utf8_lossy(valid);
                let line = text.matches('\n').count() + 1;
                let col = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
                self.push(
                    Diagnostic::error(
                        path,
                        Pos {
                            line: line as u32,
                            col: col as u32,
                        },
                        "the file is not UTF-8 text: save it as UTF-8",
                    )
                    .for_card(card),
                );
                None
            }
        }
    }

    /// Parses YAML, checks it against its schema and deserializes it; every problem becomes a
    /// diagnostic. `None` when the YAML itself is broken.
    fn check_yaml<T: DeserializeOwned>(
        &mut self,
        path: &Path,
        text: &str,
        kind: FileKind,
        game_schema: Option<&GameCardSchema>,
    ) -> Option<Checked<T>> {
        let doc = match yaml::parse(text) {
            Ok(d) => d,
            Err(problems) => {
                let card = (kind == FileKind::Card)
                    .then(|| card_id_guess(text))
                    .flatten();
                for p in problems {
                    let mut d = Diagnostic::error(path, p.pos, p.message).for_card(card.as_deref());
                    if let Some(ptr) = p.pointer {
                        d = d.at_pointer(ptr);
                    }
                    self.push(d);
                }
                return None;
            }
        };
        let card = match kind {
            FileKind::Card => doc
                .value
                .get("id")
                .and_then(Value::as_str)
                .map(str::to_string),
            _ => None,
        };
        let mut bad = BTreeSet::new();
        for e in self.loader.schemas.check(kind, game_schema, &doc) {
            bad.insert(e.pointer.clone());
            self.push(
                Diagnostic::error(path, e.pos, e.message)
                    .at_pointer(e.pointer)
                    .for_card(card.as_deref()),
            );
        }
        let value = match serde_path_to_error::deserialize::<_, T>(doc.value.clone()) {
            Ok(v) => Some(v),
            Err(e) => {
                if bad.is_empty() {
                    let ptr = pointer_of(e.path());
                    self.push(
                        Diagnostic::error(path, doc.spans.value_pos(&ptr), e.inner().to_string())
                            .at_pointer(ptr.clone())
                            .for_card(card.as_deref()),
                    );
                    bad.insert(ptr);
                }
                None
            }
        };
        Some(Checked { doc, value, bad })
    }

    /// Checks a Lua file's syntax.
    fn check_lua(&mut self, source: &Source, path: &Path, card: Option<&str>) {
        // The engine's source checks read it here too: on this thread, not the engine's.
        if let Err(e) = riffle_core::prepare_script(source) {
            self.push(
                Diagnostic::error(
                    path,
                    Pos {
                        line: e.line.unwrap_or(1).max(1),
                        col: 1,
                    },
                    format!("Lua syntax error: {}", e.message),
                )
                .for_card(card),
            );
        }
    }

    /// Reads and checks a Lua file.
    fn lua(&mut self, root: usize, rel: &Path, card: Option<&str>) -> Option<Source> {
        let text = self.read(root, rel, card)?;
        let path = self.path(root, rel);
        let source = Source {
            name: display_path(&path),
            text,
        };
        self.check_lua(&source, &path, card);
        Some(source)
    }

    // ---------------------------------------------------------------- game card schema

    fn game_schema(&mut self) -> Option<GameCardSchema> {
        let rel = PathBuf::from(game_card_schema_path(self.game));
        // The first search path with something there: a FIFO or a folder in its place is
        // said to be one (read() refuses it), not passed over for the common checks alone.
        let root = (0..self.loader.roots.len())
            .find(|&r| std::fs::metadata(self.path(r, &rel)).is_ok())?;
        let path = self.path(root, &rel);
        let text = self.read(root, &rel, None)?;
        let value: Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(e) => {
                self.push(Diagnostic::error(
                    &path,
                    Pos {
                        line: e.line().max(1) as u32,
                        col: e.column().max(1) as u32,
                    },
                    format!("invalid JSON: {e}"),
                ));
                return None;
            }
        };
        match self.loader.schemas.compile_game_card_schema(value) {
            Ok(s) => Some(s),
            Err(e) => {
                self.push(Diagnostic::error(
                    &path,
                    Pos::START,
                    format!("invalid card schema (cards get only the common checks): {e}"),
                ));
                None
            }
        }
    }

    // ---------------------------------------------------------------- ruleset

    fn ruleset(&mut self) -> Option<LoadedRuleset> {
        let game_dir = PathBuf::from("scripts").join(self.game);
        let rel = game_dir.join("game.yaml");
        let n = self.loader.roots.len();
        let Some(root) = (0..n).find(|&r| self.path(r, &rel).is_file()) else {
            let root = (0..n)
                .find(|&r| self.path(r, &game_dir).is_dir())
                .unwrap_or(0);
            if n > 0 {
                let path = self.path(root, &rel);
                self.push(Diagnostic::error(
                    path,
                    Pos::START,
                    format!(
                        "no ruleset for game `{}`: create scripts/{}/game.yaml",
                        self.game, self.game
                    ),
                ));
            }
            return None;
        };
        for later in root + 1..n {
            if self.path(later, &rel).is_file() {
                let first = self.path(root, &rel);
                self.push(
                    Diagnostic::warning(
                        self.path(later, &rel),
                        Pos::START,
                        format!(
                            "ignored: the ruleset comes from the first search path that has one ({})",
                            display_path(&first)
                        ),
                    )
                    .with_related(first, Pos::START),
                );
            } else if let Some(entries) = self.list(&self.path(later, &game_dir)) {
                // Lua of a later search path (a mod) beside no game.yaml: no ruleset lists
                // it, so it would be ignored without a word.
                let first = self.path(root, &rel);
                for (name, is_dir) in entries {
                    if !is_dir && name.ends_with(".lua") {
                        self.push(
                            Diagnostic::warning(
                                self.path(later, &game_dir.join(&name)),
                                Pos::START,
                                format!(
                                    "ignored: the {} ruleset is {}, and only the files its `scripts:` lists are read; a mod changes a game through its cards, or adds a game of its own (scripts/<new game>/game.yaml)",
                                    self.game,
                                    display_path(&first)
                                ),
                            )
                            .with_related(first.clone(), Pos::START),
                        );
                    }
                }
            }
        }
        let path = self.path(root, &rel);
        let text = self.read(root, &rel, None);
        let checked = text
            .and_then(|t| self.check_yaml::<RulesetManifest>(&path, &t, FileKind::Ruleset, None));

        // Helpers first, then the ruleset's own files.
        let mut scripts = Vec::new();
        let lib = PathBuf::from("scripts").join("lib");
        if let Some(entries) = self.list(&self.path(root, &lib)) {
            for (name, is_dir) in entries {
                if !is_dir && name.ends_with(".lua") {
                    scripts.extend(self.lua(root, &lib.join(&name), None));
                }
            }
        }
        let checked = checked?;
        // The list of scripts, even when the manifest as a whole is invalid.
        let listed: Vec<(usize, String)> = checked
            .doc
            .value
            .get("scripts")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .enumerate()
                    .filter_map(|(i, v)| v.as_str().map(|s| (i, s.to_string())))
                    .collect()
            })
            .unwrap_or_default();
        for (i, entry) in listed {
            let ptr = format!("/scripts/{i}");
            let pos = checked.doc.spans.value_pos(&ptr);
            match join_relative(&game_dir, &entry) {
                None => self.push(
                    Diagnostic::error(
                        &path,
                        pos,
                        format!(
                            "`{entry}` must be a path relative to scripts/{}/",
                            self.game
                        ),
                    )
                    .at_pointer(ptr),
                ),
                Some(srel) if !self.path(root, &srel).is_file() => {
                    let shown = missing(&self.path(root, &srel));
                    self.push(
                        Diagnostic::error(&path, pos, format!("script `{entry}` {shown}"))
                            .at_pointer(ptr),
                    );
                }
                Some(srel) => scripts.extend(self.lua(root, &srel, None)),
            }
        }
        let manifest = checked.value?;
        self.check_manifest(&path, &manifest, &checked.doc.spans, &checked.bad);
        Some(LoadedRuleset {
            ruleset: Ruleset { manifest, scripts },
            path,
        })
    }

    fn check_manifest(
        &mut self,
        path: &Path,
        m: &RulesetManifest,
        spans: &SpanMap,
        bad: &BTreeSet<String>,
    ) {
        if m.game != self.game && !bad.contains("/game") {
            self.push(
                Diagnostic::error(
                    path,
                    spans.value_pos("/game"),
                    format!(
                        "`game: {}` does not match its folder scripts/{}/: use `game: {}`",
                        m.game, self.game, self.game
                    ),
                )
                .at_pointer("/game"),
            );
        }
        let mut unique = |list: Vec<&str>, field: &str| {
            let mut seen = BTreeMap::new();
            for (i, name) in list.into_iter().enumerate() {
                if let Some(first) = seen.insert(name, i) {
                    let ptr = format!("/{field}/{i}");
                    let first_pos = spans.value_pos(&format!("/{field}/{first}"));
                    self.diags.push(
                        Diagnostic::error(
                            path,
                            spans.value_pos(&ptr),
                            format!(
                                "`{name}` is declared twice (first at line {})",
                                first_pos.line
                            ),
                        )
                        .at_pointer(ptr),
                    );
                }
            }
        };
        unique(
            m.categories.iter().map(String::as_str).collect(),
            "categories",
        );
        unique(m.zones.iter().map(|z| z.name.as_str()).collect(), "zones");
        unique(
            m.keywords.iter().map(|k| k.name.as_str()).collect(),
            "keywords",
        );
        unique(
            m.deck.sections.iter().map(|s| s.name.as_str()).collect(),
            "deck/sections",
        );
        let zones: Vec<&str> = m.zones.iter().map(|z| z.name.as_str()).collect();
        for (i, s) in m.deck.sections.iter().enumerate() {
            if !zones.contains(&s.zone.as_str()) {
                let ptr = format!("/deck/sections/{i}/zone");
                let mut msg = format!("unknown zone `{}`", s.zone);
                if let Some(z) = did_you_mean(&s.zone, &zones) {
                    msg.push_str(&format!(": did you mean `{z}`?"));
                }
                self.push(Diagnostic::error(path, spans.value_pos(&ptr), msg).at_pointer(ptr));
            }
        }
    }

    // ---------------------------------------------------------------- sets and cards

    fn cards(
        &mut self,
        manifest: Option<&RulesetManifest>,
        game_schema: Option<&GameCardSchema>,
    ) -> Cards {
        let mut cards = Cards::default();
        // id → index into cards.defs
        let mut ids: BTreeMap<String, usize> = BTreeMap::new();
        let mut set_ids: BTreeMap<String, (PathBuf, Pos)> = BTreeMap::new();
        let mut printings: BTreeMap<String, (PathBuf, Pos)> = BTreeMap::new();
        let mut printing_sets: Vec<(PathBuf, String, Pos, String, Option<String>)> = Vec::new();
        let game_dir = PathBuf::from("cardsets").join(self.game);
        for root in 0..self.loader.roots.len() {
            let Some(entries) = self.list(&self.path(root, &game_dir)) else {
                continue;
            };
            for (name, is_dir) in entries {
                if !is_dir {
                    if name.ends_with(".yaml") || name.ends_with(".yml") {
                        self.push(Diagnostic::warning(
                            self.path(root, &game_dir.join(&name)),
                            Pos::START,
                            "ignored: cards go in a set folder (cardsets/<game>/<set>/), deck lists in cardsets/<game>/decks/",
                        ));
                    }
                    continue;
                }
                if name == "decks" {
                    continue;
                }
                let set_rel = game_dir.join(&name);
                let (mut set, lists) = self.set_manifest(root, &set_rel, &name, &mut set_ids);
                let mut used_lua: BTreeSet<String> = BTreeSet::new();
                if let Some((path, spans)) = &lists.at {
                    set.scripts = self.set_scripts(
                        root,
                        &set_rel,
                        path,
                        spans,
                        &lists.scripts,
                        &mut used_lua,
                    );
                }
                let set_index = cards.sets.len();
                cards.sets.push(set);
                let mut defined_here: BTreeMap<String, bool> = BTreeMap::new();
                let mut lua_files: Vec<String> = Vec::new();
                let Some(files) = self.list(&self.path(root, &set_rel)) else {
                    continue;
                };
                // Room for the set's cards at once: a set of 10,000 cards pushed one by one
                // would leave room for 16,384 (and the file records twice as many).
                let card_files = files
                    .iter()
                    .filter(|(f, dir)| !dir && f.ends_with(".yaml") && !f.ends_with(".test.yaml"))
                    .count();
                cards.defs.reserve(card_files);
                cards.infos.reserve(card_files);
                self.files.reserve(files.len());
                let mut card_files: Vec<String> = Vec::with_capacity(card_files);
                for (file, is_dir) in files {
                    if is_dir {
                        continue;
                    }
                    if file.ends_with(".lua") {
                        lua_files.push(file);
                        continue;
                    }
                    if file.ends_with(".yml") {
                        self.push(Diagnostic::warning(
                            self.path(root, &set_rel.join(&file)),
                            Pos::START,
                            "ignored: content files end in `.yaml`; rename it",
                        ));
                        continue;
                    }
                    if file == "set.yaml" || !file.ends_with(".yaml") {
                        continue;
                    }
                    if file.ends_with(".test.yaml") {
                        cards.scenarios.push(self.path(root, &set_rel.join(&file)));
                        continue;
                    }
                    card_files.push(file);
                }
                // Each card file on its own (its YAML, its script): on several threads, the
                // results taken in the files' order, so that what follows (ids, printings,
                // the file records) sees them as one thread would.
                let read = self.read_cards(root, &set_rel, &card_files, manifest, game_schema);
                for (file, one) in card_files.iter().zip(read) {
                    let CardRead {
                        info,
                        card: loaded,
                        printings: printing_list,
                        diags,
                        files,
                        used_lua: used,
                    } = one;
                    self.diags.extend(diags);
                    self.files.extend(files);
                    used_lua.extend(used);
                    if loaded.is_none()
                        && let Some(id) = &info.id
                    {
                        cards.broken_ids.insert(id.clone());
                    }
                    cards.infos.push(info);
                    for (code, pos, pset) in printing_list.iter().cloned() {
                        let here = self.path(root, &set_rel.join(file));
                        let card = loaded.as_ref().map(|c| c.id.clone());
                        if let Some((first, fpos)) = printings.get(&code) {
                            let d = Diagnostic::error(
                                &here,
                                pos,
                                format!(
                                    "printing code `{code}` is used twice: also at {}:{}:{}",
                                    display_path(first),
                                    fpos.line,
                                    fpos.col
                                ),
                            )
                            .for_card(card.as_deref())
                            .with_related(first.clone(), *fpos);
                            self.push(d);
                        } else {
                            printings.insert(code.clone(), (here.clone(), pos));
                        }
                        if let Some((set_id, set_pos)) = pset {
                            printing_sets.push((here, set_id, set_pos, code, card));
                        }
                    }
                    let Some(mut card) = loaded else { continue };
                    card.set = set_index;
                    let id = card.id.clone();
                    match ids.get(&id).copied() {
                        None => {
                            ids.insert(id.clone(), cards.defs.len());
                            cards.defs.push(card);
                            defined_here.insert(id, false);
                        }
                        Some(i) => {
                            let first = &cards.defs[i];
                            let (fpath, fpos) = (first.path.clone(), first.id_pos);
                            let where_first =
                                format!("{}:{}:{}", display_path(&fpath), fpos.line, fpos.col);
                            if first.root < root && lists.overrides.contains(&id) {
                                self.push(
                                    Diagnostic::info(
                                        &card.path,
                                        card.id_pos,
                                        format!("overrides card `{id}` of {where_first}"),
                                    )
                                    .at_pointer("/id")
                                    .for_card(Some(&id))
                                    .with_related(fpath, fpos),
                                );
                                cards.defs[i] = card;
                                defined_here.insert(id, true);
                            } else {
                                let hint = if first.root < root {
                                    ": to replace it from this search path, list it in this set's `overrides`"
                                } else {
                                    ": card ids are unique per game"
                                };
                                self.push(
                                    Diagnostic::error(
                                        &card.path,
                                        card.id_pos,
                                        format!(
                                            "duplicate card id `{id}`: also defined at {where_first}{hint}"
                                        ),
                                    )
                                    .at_pointer("/id")
                                    .for_card(Some(&id))
                                    .with_related(fpath, fpos),
                                );
                                defined_here.entry(id).or_insert(false);
                            }
                        }
                    }
                }
                for lua in lua_files {
                    if !used_lua.contains(&lua) {
                        self.push(Diagnostic::warning(
                            self.path(root, &set_rel.join(&lua)),
                            Pos::START,
                            "no card uses this script: a card uses `<its file name>.lua` unless its YAML names another in `script:`",
                        ));
                    }
                }
                if let Some((path, spans)) = &lists.at {
                    self.check_overrides(path, spans, &lists.overrides, &defined_here);
                }
            }
        }
        let known_sets: Vec<&str> = set_ids.keys().map(String::as_str).collect();
        for (path, set_id, pos, code, card) in printing_sets {
            if !known_sets.contains(&set_id.as_str()) {
                let mut msg = format!("printing `{code}` names unknown set `{set_id}`");
                if let Some(s) = did_you_mean(&set_id, &known_sets) {
                    msg.push_str(&format!(": did you mean `{s}`?"));
                }
                self.push(Diagnostic::error(path, pos, msg).for_card(card.as_deref()));
            }
        }
        cards
    }

    /// Reads and checks a set's card files ([`Run::card`] each), on the loader's threads when
    /// there are enough files: one result per file, in `files`' order.
    fn read_cards(
        &mut self,
        root: usize,
        set_rel: &Path,
        files: &[String],
        manifest: Option<&RulesetManifest>,
        game_schema: Option<&GameCardSchema>,
    ) -> Vec<CardRead> {
        let (loader, game, options) = (self.loader, self.game, self.options);
        let one = |run: &mut Run, file: &String| {
            let mut used_lua = BTreeSet::new();
            let (info, card, printings) =
                run.card(root, set_rel, file, manifest, game_schema, &mut used_lua);
            CardRead {
                info,
                card,
                printings,
                diags: std::mem::take(&mut run.diags),
                files: std::mem::take(&mut run.files),
                used_lua,
            }
        };
        in_blocks(files, loader.threads, |block| {
            let mut run = Run {
                loader,
                game,
                diags: Vec::new(),
                files: Vec::new(),
                dir: None,
                options,
            };
            block.iter().map(|f| one(&mut run, f)).collect()
        })
    }

    /// Reads `set.yaml`; returns the set and what it lists (`overrides`, `scripts`), with where.
    fn set_manifest(
        &mut self,
        root: usize,
        set_rel: &Path,
        folder: &str,
        set_ids: &mut BTreeMap<String, (PathBuf, Pos)>,
    ) -> (LoadedSet, SetLists) {
        let rel = set_rel.join("set.yaml");
        let path = self.path(root, &rel);
        let mut set = LoadedSet {
            info: SetInfo {
                id: folder.to_string(),
                version: String::new(),
                name: Localized::default(),
                description: None,
                path: self.path(root, set_rel),
                root,
            },
            has_manifest: false,
            scripts: Vec::new(),
        };
        if !path.is_file() {
            self.push(Diagnostic::error(
                &path,
                Pos::START,
                "missing set.yaml: every set folder needs one (game, id, name, version)",
            ));
            return (set, SetLists::default());
        }
        let Some(text) = self.read(root, &rel, None) else {
            return (set, SetLists::default());
        };
        let Some(checked) = self.check_yaml::<SetFile>(&path, &text, FileKind::Set, None) else {
            return (set, SetLists::default());
        };
        let Some(file) = checked.value else {
            return (set, SetLists::default());
        };
        let spans = &checked.doc.spans;
        if file.game != self.game && !checked.bad.contains("/game") {
            self.push(
                Diagnostic::error(
                    &path,
                    spans.value_pos("/game"),
                    format!(
                        "`game: {}` does not match the folder cardsets/{}/: use `game: {}`",
                        file.game, self.game, self.game
                    ),
                )
                .at_pointer("/game"),
            );
        }
        let id_pos = spans.value_pos("/id");
        if let Some((first, fpos)) = set_ids.get(&file.id) {
            self.push(
                Diagnostic::error(
                    &path,
                    id_pos,
                    format!(
                        "duplicate set id `{}`: also used by {}:{}:{}",
                        file.id,
                        display_path(first),
                        fpos.line,
                        fpos.col
                    ),
                )
                .at_pointer("/id")
                .with_related(first.clone(), *fpos),
            );
        } else {
            set_ids.insert(file.id.clone(), (path.clone(), id_pos));
        }
        set.info.id = file.id;
        set.info.version = file.version;
        set.info.name = file.name;
        set.info.description = file.description;
        set.has_manifest = true;
        let lists = SetLists {
            overrides: file.overrides,
            scripts: file.scripts,
            at: Some((path, spans.clone())),
        };
        (set, lists)
    }

    /// Reads the Lua files a set lists in `scripts:` (its cards' shared helpers). A file
    /// in the set's own folder is then no card's script, and not reported unused.
    fn set_scripts(
        &mut self,
        root: usize,
        set_rel: &Path,
        path: &Path,
        spans: &SpanMap,
        listed: &[String],
        used_lua: &mut BTreeSet<String>,
    ) -> Vec<Source> {
        let mut out = Vec::new();
        for (i, entry) in listed.iter().enumerate() {
            let ptr = format!("/scripts/{i}");
            let pos = spans.value_pos(&ptr);
            let problem = match join_relative(set_rel, entry) {
                None => format!(
                    "`{entry}` must be a path relative to the set's folder, inside the search path"
                ),
                Some(_) if !entry.ends_with(".lua") => {
                    format!("`{entry}` is not a Lua file: a set's `scripts:` lists `.lua` files")
                }
                Some(r) if !self.path(root, &r).is_file() => format!(
                    "script `{entry}` {}: create it or fix `scripts:`",
                    missing(&self.path(root, &r))
                ),
                Some(r) => {
                    if r.parent() == Some(set_rel)
                        && let Some(name) = r.file_name().and_then(|n| n.to_str())
                    {
                        used_lua.insert(name.to_string());
                    }
                    out.extend(self.lua(root, &r, None));
                    continue;
                }
            };
            self.push(Diagnostic::error(path, pos, problem).at_pointer(ptr));
        }
        out
    }

    fn check_overrides(
        &mut self,
        path: &Path,
        spans: &SpanMap,
        overrides: &[String],
        defined_here: &BTreeMap<String, bool>,
    ) {
        for (i, id) in overrides.iter().enumerate() {
            let ptr = format!("/overrides/{i}");
            let pos = spans.value_pos(&ptr);
            match defined_here.get(id) {
                None => self.push(
                    Diagnostic::warning(
                        path,
                        pos,
                        format!("lists `{id}` in `overrides` but this set has no card `{id}`"),
                    )
                    .at_pointer(ptr),
                ),
                Some(false) => self.push(
                    Diagnostic::warning(
                        path,
                        pos,
                        format!(
                            "overrides `{id}`, but no earlier search path defines it: remove it from `overrides`"
                        ),
                    )
                    .at_pointer(ptr),
                ),
                Some(true) => {}
            }
        }
    }

    /// Loads one card file.
    #[allow(clippy::type_complexity)]
    fn card(
        &mut self,
        root: usize,
        set_rel: &Path,
        file: &str,
        manifest: Option<&RulesetManifest>,
        game_schema: Option<&GameCardSchema>,
        used_lua: &mut BTreeSet<String>,
    ) -> (
        CardInfo,
        Option<LoadedCard>,
        Vec<(String, Pos, Option<(String, Pos)>)>,
    ) {
        let rel = set_rel.join(file);
        let path = self.path(root, &rel);
        let stem = file.strip_suffix(".yaml").unwrap_or(file);
        let mut info = CardInfo {
            id: None,
            path: path.clone(),
            script: None,
            script_lines: None,
            version: None,
        };
        let default_script = set_rel.join(format!("{stem}.lua"));
        let text = self.read(root, &rel, None);
        let checked = text
            .as_deref()
            .and_then(|t| self.check_yaml::<CardFile>(&path, t, FileKind::Card, game_schema));
        let Some(checked) = checked else {
            // Still check the default script: it is this card's, whatever the YAML says.
            info.id = text.as_deref().and_then(card_id_guess);
            if self.path(root, &default_script).is_file() {
                used_lua.insert(format!("{stem}.lua"));
                info.script = Some(self.path(root, &default_script));
                let source = self.lua(root, &default_script, info.id.as_deref());
                info.script_lines = source.as_ref().map(|s| lines_of_code(&s.text));
            }
            return (info, None, Vec::new());
        };
        let spans = &checked.doc.spans;
        let raw_id = checked.doc.value.get("id").and_then(Value::as_str);
        info.id = raw_id.map(str::to_string);
        let card_id = raw_id.map(str::to_string);
        let card = card_id.as_deref();

        // The script: explicit, or `<stem>.lua` next to the card.
        let explicit = checked
            .doc
            .value
            .get("script")
            .and_then(Value::as_str)
            .map(str::to_string);
        let script_rel = match &explicit {
            Some(s) => match join_relative(set_rel, s) {
                Some(r) if self.path(root, &r).is_file() => Some(r),
                Some(r) => {
                    let shown = missing(&self.path(root, &r));
                    self.push(
                        Diagnostic::error(
                            &path,
                            spans.value_pos("/script"),
                            format!("script `{s}` {shown}: create it or fix `script:`"),
                        )
                        .at_pointer("/script")
                        .for_card(card),
                    );
                    None
                }
                None => {
                    self.push(
                        Diagnostic::error(
                            &path,
                            spans.value_pos("/script"),
                            format!(
                                "`script: {s}` must be a path relative to the card's folder, inside the search path"
                            ),
                        )
                        .at_pointer("/script")
                        .for_card(card),
                    );
                    None
                }
            },
            None => self
                .path(root, &default_script)
                .is_file()
                .then_some(default_script),
        };
        let mut source = None;
        if let Some(r) = &script_rel {
            if r.parent() == Some(set_rel)
                && let Some(name) = r.file_name().and_then(|n| n.to_str())
            {
                used_lua.insert(name.to_string());
            }
            info.script = Some(self.path(root, r));
            source = self.lua(root, r, card);
            info.script_lines = source.as_ref().map(|s| lines_of_code(&s.text));
        }
        if let Some(t) = &text {
            info.version = Some(card_version(t, source.as_ref().map(|s| s.text.as_str())));
        }

        // Printings, for the per-game uniqueness checks.
        let printing_list: Vec<(String, Pos, Option<(String, Pos)>)> = checked
            .doc
            .value
            .get("printings")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .enumerate()
                    .filter_map(|(i, p)| {
                        let code = p.get("code")?.as_str()?.to_string();
                        let pos = spans.value_pos(&format!("/printings/{i}/code"));
                        let set = p.get("set").and_then(Value::as_str).map(|s| {
                            (
                                s.to_string(),
                                spans.value_pos(&format!("/printings/{i}/set")),
                            )
                        });
                        Some((code, pos, set))
                    })
                    .collect()
            })
            .unwrap_or_default();

        if let Some(m) = manifest {
            self.check_card(&path, card, &checked.doc, m, &checked.bad);
        }
        let Some(id) = card_id else {
            return (info, None, printing_list);
        };
        let needs_script = checked.value.as_ref().is_some_and(|cf| cf.needs_script);
        if needs_script && let Some(s) = &info.script {
            self.push(
                Diagnostic::warning(
                    &path,
                    spans.key_pos("/needs_script"),
                    format!(
                        "marked `needs_script`, but it has a script ({}): remove `needs_script: true`",
                        display_path(s)
                    ),
                )
                .at_pointer("/needs_script")
                .for_card(Some(&id)),
            );
        }
        if let Some(cf) = &checked.value {
            self.check_rulings(&path, Some(&id), cf, spans);
        }
        let record = match (&checked.value, self.options.records) {
            (Some(cf), true) => Some(CardRecord {
                set: String::new(),
                path: path.clone(),
                printings: cf.printings.clone(),
                rulings: cf.rulings.clone(),
                needs_script: cf.needs_script,
            }),
            _ => None,
        };
        let def = checked.value.map(|cf| CardDef {
            id: cf.id,
            category: cf.category,
            name: cf.name,
            text: cf.text,
            fields: cf.fields,
            keywords: cf.keywords,
            script: source,
        });
        (
            info,
            Some(LoadedCard {
                id,
                def,
                root,
                path,
                id_pos: spans.value_pos("/id"),
                set: 0,
                needs_script,
                record,
            }),
            printing_list,
        )
    }

    /// A card's rulings have ids of their own.
    fn check_rulings(&mut self, path: &Path, card: Option<&str>, cf: &CardFile, spans: &SpanMap) {
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        for (i, r) in cf.rulings.iter().enumerate() {
            if let Some(first) = seen.insert(r.id.as_str(), i) {
                let ptr = format!("/rulings/{i}/id");
                let first_pos = spans.value_pos(&format!("/rulings/{first}/id"));
                self.push(
                    Diagnostic::error(
                        path,
                        spans.value_pos(&ptr),
                        format!(
                            "ruling `{}` is listed twice (first at line {}): a card's rulings have ids of their own",
                            r.id, first_pos.line
                        ),
                    )
                    .at_pointer(ptr)
                    .for_card(card),
                );
            }
        }
    }

    /// Checks a card against the ruleset: its name in the printed language, category and
    /// keywords. Works on the raw data, so that a card with other errors is still checked.
    fn check_card(
        &mut self,
        path: &Path,
        card: Option<&str>,
        doc: &YamlDoc,
        m: &RulesetManifest,
        bad: &BTreeSet<String>,
    ) {
        let spans = &doc.spans;
        // The rules name cards by their name in the printed language: every card needs one.
        if !bad.contains("/name")
            && let Some(name) = doc.value.get("name")
            && let Ok(name) = serde_json::from_value::<Localized>(name.clone())
            && let Err(msg) = riffle_core::db::printed_name(&name, &m.names.printed)
        {
            self.push(
                Diagnostic::error(path, spans.value_pos("/name"), msg)
                    .at_pointer("/name")
                    .for_card(card),
            );
        }
        let categories: Vec<&str> = m.categories.iter().map(String::as_str).collect();
        if let Some(category) = doc.value.get("category").and_then(Value::as_str)
            && !categories.contains(&category)
            && !bad.contains("/category")
        {
            let mut msg = format!("unknown category `{category}`");
            if let Some(s) = did_you_mean(category, &categories) {
                msg.push_str(&format!(": did you mean `{s}`?"));
            } else {
                msg.push_str(&format!(" (the ruleset has: {})", categories.join(", ")));
            }
            self.push(
                Diagnostic::error(path, spans.value_pos("/category"), msg)
                    .at_pointer("/category")
                    .for_card(card),
            );
        }
        let names: Vec<&str> = m.keywords.iter().map(|k| k.name.as_str()).collect();
        let keywords = doc.value.get("keywords").and_then(Value::as_array);
        for (i, kw) in keywords.into_iter().flatten().enumerate() {
            let ptr = format!("/keywords/{i}");
            if bad.contains(&ptr) {
                continue;
            }
            let pos = spans.value_pos(&ptr);
            let err = |msg: String| {
                Diagnostic::error(path, pos, msg)
                    .at_pointer(ptr.clone())
                    .for_card(card)
            };
            let (name, valued) = match kw {
                Value::String(n) => (n.as_str(), false),
                Value::Object(map) if map.len() == 1 => {
                    let Some((n, _)) = map.iter().next() else {
                        continue;
                    };
                    (n.as_str(), true)
                }
                Value::Object(_) => {
                    self.push(err(
                        "a keyword with a number is a one-entry mapping, like `{repair: 2}`".into(),
                    ));
                    continue;
                }
                _ => continue,
            };
            let Some(decl) = m.keywords.iter().find(|k| k.name == name) else {
                let mut msg = format!("unknown keyword `{name}`");
                if let Some(s) = did_you_mean(name, &names) {
                    msg.push_str(&format!(": did you mean `{s}`?"));
                } else if names.is_empty() {
                    msg.push_str(" (the ruleset declares no keywords)");
                } else {
                    msg.push_str(&format!(" (the ruleset declares: {})", names.join(", ")));
                }
                self.push(err(msg));
                continue;
            };
            match (valued, decl.valued) {
                (false, true) => self.push(err(format!(
                    "`{name}` needs a number: write `{{{name}: 1}}`"
                ))),
                (true, false) => {
                    self.push(err(format!("`{name}` takes no number: write `{name}`")))
                }
                _ => {}
            }
        }
    }

    // ---------------------------------------------------------------- decks

    fn decks(&mut self, manifest: Option<&RulesetManifest>, ids: &BTreeSet<String>) -> Vec<Deck> {
        let rel_dir = PathBuf::from("cardsets").join(self.game).join("decks");
        let mut decks: Vec<Deck> = Vec::new();
        for root in 0..self.loader.roots.len() {
            let Some(entries) = self.list(&self.path(root, &rel_dir)) else {
                continue;
            };
            for (name, is_dir) in entries {
                if is_dir || !name.ends_with(".yaml") {
                    if name.ends_with(".yml") {
                        self.push(Diagnostic::warning(
                            self.path(root, &rel_dir.join(&name)),
                            Pos::START,
                            "ignored: content files end in `.yaml`; rename it",
                        ));
                    }
                    continue;
                }
                let rel = rel_dir.join(&name);
                let path = self.path(root, &rel);
                let Some(text) = self.read(root, &rel, None) else {
                    continue;
                };
                if let Some(deck) = self.deck_text(&path, &text, manifest, ids) {
                    if let Some(first) = decks.iter().find(|d| d.id == deck.id) {
                        let fp = first.path.clone();
                        self.push(
                            Diagnostic::error(
                                &path,
                                Pos::START,
                                format!(
                                    "duplicate deck `{}`: also at {}: rename one file",
                                    deck.id,
                                    display_path(&fp)
                                ),
                            )
                            .with_related(fp, Pos::START),
                        );
                        continue;
                    }
                    decks.push(deck);
                }
            }
        }
        decks
    }

    fn deck_at(
        &mut self,
        path: PathBuf,
        manifest: Option<&RulesetManifest>,
        ids: &BTreeSet<String>,
    ) -> Option<Deck> {
        let text = self.read_at(&path, None, None)?;
        self.deck_text(&path, &text, manifest, ids)
    }

    fn deck_text(
        &mut self,
        path: &Path,
        text: &str,
        manifest: Option<&RulesetManifest>,
        ids: &BTreeSet<String>,
    ) -> Option<Deck> {
        let checked = self.check_yaml::<DeckFile>(path, text, FileKind::Deck, None)?;
        let file = checked.value?;
        let spans = &checked.doc.spans;
        if file.game != self.game && !checked.bad.contains("/game") {
            self.push(
                Diagnostic::error(
                    path,
                    spans.value_pos("/game"),
                    format!(
                        "`game: {}` does not match this game (`{}`): use `game: {}`",
                        file.game, self.game, self.game
                    ),
                )
                .at_pointer("/game"),
            );
        }
        let id_list: Vec<&str> = ids.iter().map(String::as_str).collect();
        let sections: Option<Vec<&str>> =
            manifest.map(|m| m.deck.sections.iter().map(|s| s.name.as_str()).collect());
        for (section, cards) in &file.sections {
            let sptr = format!("/sections/{}", escape_token(section));
            if let Some(known) = &sections
                && !known.contains(&section.as_str())
            {
                let mut msg = format!("unknown deck section `{section}`");
                if let Some(s) = did_you_mean(section, known) {
                    msg.push_str(&format!(": did you mean `{s}`?"));
                } else {
                    msg.push_str(&format!(" (the ruleset has: {})", known.join(", ")));
                }
                self.push(
                    Diagnostic::error(path, spans.key_pos(&sptr), msg).at_pointer(sptr.clone()),
                );
            }
            let total: u64 = cards.values().map(|n| u64::from(*n)).sum();
            if total > u64::from(MAX_SECTION_CARDS) {
                self.push(
                    Diagnostic::error(
                        path,
                        spans.key_pos(&sptr),
                        format!(
                            "section `{section}` holds {total} cards: a section holds at most {MAX_SECTION_CARDS}"
                        ),
                    )
                    .at_pointer(sptr.clone()),
                );
                return None;
            }
            for id in cards.keys() {
                if ids.contains(id) {
                    continue;
                }
                let ptr = format!("{sptr}/{}", escape_token(id));
                let mut msg = format!("no card `{id}` in this game");
                if let Some(s) = did_you_mean(id, &id_list) {
                    msg.push_str(&format!(": did you mean `{s}`?"));
                }
                self.push(
                    Diagnostic::error(path, spans.key_pos(&ptr), msg)
                        .at_pointer(ptr)
                        .for_card(Some(id)),
                );
            }
        }
        let id = path
            .file_name()
            .and_then(|n| n.to_str())
            .map(|n| n.strip_suffix(".yaml").unwrap_or(n).to_string())
            .unwrap_or_default();
        Some(Deck {
            id,
            path: path.to_path_buf(),
            name: file.name,
            description: file.description,
            list: DeckList {
                sections: file.sections,
            },
        })
    }
}

/// A JSON pointer from serde_path_to_error's path.
fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for seg in path.iter() {
        match seg {
            Segment::Seq { index } => out.push_str(&format!("/{index}")),
            Segment::Map { key } => out.push_str(&format!("/{}", escape_token(key))),
            Segment::Enum { variant } => out.push_str(&format!("/{}", escape_token(variant))),
            Segment::Unknown => {}
        }
    }
    out
}

/// The `id:` of a card file whose YAML does not parse, read line by line.
fn card_id_guess(text: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let v = l.strip_prefix("id:")?.trim();
        let v = v.trim_matches(|c| c == '"' || c == '\'');
        (!v.is_empty() && !v.contains(' ')).then(|| v.to_string())
    })
}

/// The items in a vector with no spare capacity: 10,000 cards pushed one by one leave room
/// for 16,384, and an in-place `collect` would keep that whole buffer for the smaller items.
fn exact<T>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut v: Vec<T> = items.into_iter().collect();
    v.shrink_to_fit();
    v
}

/// Why a file a manifest names is not there to read: "not found (looked for X)", or, for
/// something there that is no regular file (a FIFO, a folder), that it is not one.
fn missing(p: &Path) -> String {
    match std::fs::metadata(p) {
        Ok(_) => format!(
            "is not a regular file (a folder, FIFO, socket or device): {}",
            display_path(p)
        ),
        Err(_) => format!("not found (looked for {})", display_path(p)),
    }
}
