//! Re-reading changed card files and swapping them into the engine.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, Instant};

use riffle_core::{CardChange, Engine, LoadError, RulesetManifest};

use riffle_content::schema::GameCardSchema;
use riffle_content::yaml::Pos;
use riffle_content::{CardInfo, Diagnostic, Loader};

/// What became of one changed file.
#[derive(Debug)]
pub enum Outcome {
    /// The card's new version is in the engine.
    Reloaded {
        /// The card.
        card: String,
        /// Its new version: the first 12 hex digits of the hash of its YAML and script.
        version: String,
        /// The file that changed.
        path: PathBuf,
        /// From reading the file to the new engine.
        took: Duration,
        /// Warnings the card has (it loaded anyway).
        warnings: Vec<Diagnostic>,
        /// The file's previous save was refused: this one fixes it.
        fixed: bool,
    },
    /// A file whose previous save was refused is saved back to the version that is live:
    /// nothing to reload, but its errors are gone.
    Fixed {
        /// The card.
        card: String,
        /// Its live version.
        version: String,
        /// The file.
        path: PathBuf,
    },
    /// The card's YAML was deleted: games that hold it keep their version, new games
    /// cannot use it.
    Removed {
        /// The card.
        card: String,
        /// Its file.
        path: PathBuf,
    },
    /// The change has errors: the last good version stays.
    Refused {
        /// The card, when the file names one.
        card: Option<String>,
        /// The file that changed.
        path: PathBuf,
        /// Every problem, positioned.
        diagnostics: Vec<Diagnostic>,
    },
    /// The file is empty: an editor that truncates then writes (VS Code) is in the middle
    /// of a save. The next change event brings the written file.
    Waiting {
        /// The file.
        path: PathBuf,
    },
    /// A file a running game cannot take live (the ruleset, a set's `set.yaml` or shared
    /// Lua, a deck list): it applies to games started after a restart.
    NotLive {
        /// The file.
        path: PathBuf,
        /// What it is.
        what: &'static str,
    },
}

/// A card file as last loaded.
#[derive(Clone, Debug)]
struct Known {
    id: String,
    script: Option<PathBuf>,
    version: String,
}

/// A game's content, kept live: the engine of its latest good version of every card.
pub struct Live {
    loader: Loader,
    game: String,
    manifest: RulesetManifest,
    schema: Option<GameCardSchema>,
    engine: Rc<Engine>,
    /// Card YAML path → what it held.
    cards: BTreeMap<PathBuf, Known>,
    /// Each search path as given and as the file system names it (watchers report the
    /// latter).
    roots: Vec<(PathBuf, Option<PathBuf>)>,
    /// Card YAML paths whose latest save was refused: their next good save says so.
    broken: BTreeSet<PathBuf>,
}

impl Live {
    /// Live content over an engine made from `cards` (the card files of the load that made
    /// it, [`riffle_content::LoadedGame::cards`]) read from `loader`'s search paths.
    pub fn new(loader: Loader, game: &str, engine: Rc<Engine>, cards: &[CardInfo]) -> Live {
        let manifest = engine.manifest().clone();
        let (schema, _) = loader.card_schema(game);
        let roots = loader
            .roots()
            .iter()
            .map(|r| {
                // A cleaned `.` is the empty path.
                let dir = if r.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    r
                };
                (r.clone(), std::fs::canonicalize(dir).ok())
            })
            .collect();
        let cards = cards
            .iter()
            .filter_map(|c| {
                let id = c.id.clone()?;
                let version = c.version.clone()?;
                Some((
                    c.path.clone(),
                    Known {
                        id,
                        script: c.script.clone(),
                        version,
                    },
                ))
            })
            .collect();
        Live {
            loader,
            game: game.to_string(),
            manifest,
            schema,
            engine,
            cards,
            roots,
            broken: BTreeSet::new(),
        }
    }

    /// The engine with every good change so far.
    pub fn engine(&self) -> &Rc<Engine> {
        &self.engine
    }

    /// Takes the changed files in: each card they belong to is read again and, when it
    /// has no error and differs from the version loaded, swapped into the engine. One
    /// outcome per card or file; a file that did not change a card's content gives none.
    pub fn apply(&mut self, changed: &[PathBuf]) -> Vec<Outcome> {
        let mut out = Vec::new();
        let mut yamls: Vec<PathBuf> = Vec::new();
        for p in changed {
            let p = self.as_given(p);
            match self.classify(&p) {
                Kind::Card => yamls.push(p),
                Kind::Script => {
                    let users: Vec<PathBuf> = self
                        .cards
                        .iter()
                        .filter(|(_, k)| k.script.as_deref() == Some(p.as_path()))
                        .map(|(y, _)| y.clone())
                        .collect();
                    if users.is_empty() {
                        // A new script beside its card's YAML, or a set's shared Lua.
                        let yaml = p.with_extension("yaml");
                        if yaml.is_file() {
                            yamls.push(yaml);
                        } else if p.is_file() {
                            out.push(Outcome::NotLive {
                                path: p,
                                what: "a set's shared Lua or a script no card uses",
                            });
                        }
                    }
                    yamls.extend(users);
                }
                Kind::SetFolder => {
                    // Gone (deleted, moved out): its cards are removed, each said so. There
                    // (moved in, or a new set): a set takes a restart.
                    let inside: Vec<PathBuf> = self
                        .cards
                        .keys()
                        .filter(|y| y.starts_with(&p))
                        .cloned()
                        .collect();
                    if p.is_dir() {
                        if inside.is_empty() {
                            out.push(Outcome::NotLive {
                                path: p,
                                what: "a set folder that was not there when the game loaded",
                            });
                        }
                    } else {
                        yamls.extend(inside);
                    }
                }
                Kind::NotLive(what) => out.push(Outcome::NotLive { path: p, what }),
                Kind::Other => {}
            }
        }
        yamls.sort();
        yamls.dedup();
        // Deletions first: a card file renamed is its old name gone and its new one written,
        // and the new one must not meet the old as a duplicate id.
        yamls.sort_by_key(|y| y.exists());
        for y in yamls {
            let outcome = self.card(&y);
            if let Some(o) = self.mark(&y, outcome) {
                out.push(o);
            }
        }
        out
    }

    /// Keeps track of which files are broken, so that the save that fixes one says so (even
    /// when it only restores the live version, which reloads nothing).
    fn mark(&mut self, path: &Path, outcome: Option<Outcome>) -> Option<Outcome> {
        match outcome {
            Some(Outcome::Refused { .. }) => {
                self.broken.insert(path.to_path_buf());
                outcome
            }
            Some(Outcome::Reloaded {
                card,
                version,
                path,
                took,
                warnings,
                ..
            }) => Some(Outcome::Reloaded {
                fixed: self.broken.remove(&path),
                card,
                version,
                path,
                took,
                warnings,
            }),
            Some(Outcome::Removed { .. }) => {
                self.broken.remove(path);
                outcome
            }
            // Unchanged from the live version: a fix when the last save was refused.
            None if self.broken.remove(path) => {
                let known = self.cards.get(path)?;
                Some(Outcome::Fixed {
                    card: known.id.clone(),
                    version: known.version.clone(),
                    path: path.to_path_buf(),
                })
            }
            other => other,
        }
    }

    /// Reads one card YAML again and swaps it in.
    fn card(&mut self, path: &Path) -> Option<Outcome> {
        let start = Instant::now();
        let known = self.cards.get(path).cloned();
        let Ok(meta) = std::fs::metadata(path) else {
            // Deleted (or renamed away: the new name comes as its own change).
            let known = known?;
            return Some(
                match self.engine.reload(&[CardChange::Remove {
                    id: known.id.clone(),
                }]) {
                    Ok(e) => {
                        self.engine = e;
                        self.cards.remove(path);
                        Outcome::Removed {
                            card: known.id,
                            path: path.to_path_buf(),
                        }
                    }
                    Err(errors) => Outcome::Refused {
                        card: Some(known.id),
                        path: path.to_path_buf(),
                        diagnostics: to_diagnostics(path, &errors),
                    },
                },
            );
        };
        // A FIFO or device is never "empty, being saved": it is refused (and never read).
        if !meta.is_file() {
            return Some(not_regular(path, known.map(|k| k.id)));
        }
        if meta.len() == 0 {
            return Some(Outcome::Waiting {
                path: path.to_path_buf(),
            });
        }
        // Its script (the one it had, or one beside it): emptied, the card would go live
        // with no abilities; a FIFO or device in its place would be called missing.
        let script = known
            .as_ref()
            .and_then(|k| k.script.clone())
            .unwrap_or_else(|| path.with_extension("lua"));
        if let Ok(m) = std::fs::metadata(&script) {
            if !m.is_file() {
                return Some(not_regular(&script, known.map(|k| k.id)));
            }
            if m.len() == 0 {
                return Some(Outcome::Waiting { path: script });
            }
        } else if known.as_ref().is_some_and(|k| k.script.is_some()) {
            // The script it had is gone: say so; the last good version stays until the
            // YAML says it has none (or the script is back).
            let d = Diagnostic::error(
                &script,
                Pos::START,
                "the card's script is gone: the last good version stays until it is back (a card that is to have no script: restart)",
            )
            .for_card(known.as_ref().map(|k| k.id.as_str()));
            return Some(Outcome::Refused {
                card: known.map(|k| k.id),
                path: path.to_path_buf(),
                diagnostics: vec![d],
            });
        }
        let read = self
            .loader
            .reload_card(&self.game, &self.manifest, self.schema.as_ref(), path);
        let (errors, warnings): (Vec<Diagnostic>, Vec<Diagnostic>) =
            read.diagnostics.into_iter().partition(Diagnostic::is_error);
        let refused = |card: Option<String>, diagnostics| Outcome::Refused {
            card,
            path: path.to_path_buf(),
            diagnostics,
        };
        let (Some(def), Some(id)) = (read.def, read.id.clone()) else {
            return Some(refused(read.id, errors));
        };
        // Ids are unique per game. A mod's override of a base card was checked when the
        // content loaded; a new one (its set.yaml's `overrides`) takes a restart.
        let was_here = known.as_ref().is_some_and(|k| k.id == id);
        if !was_here
            && let Some((other, _)) = self.cards.iter().find(|(p, k)| k.id == id && *p != path)
        {
            let d = Diagnostic::error(
                path,
                Pos::START,
                format!(
                    "duplicate card id `{id}`: also defined at {}: card ids are unique per game \
                     (a mod's override, listed in its set.yaml's `overrides`, takes a restart)",
                    other.display()
                ),
            )
            .for_card(Some(&id));
            return Some(refused(Some(id), vec![d]));
        }
        let version = read.version.clone().unwrap_or_default();
        if known
            .as_ref()
            .is_some_and(|k| k.id == id && k.version == version)
        {
            return None;
        }
        let mut changes = Vec::new();
        if let Some(k) = known.as_ref().filter(|k| k.id != id) {
            changes.push(CardChange::Remove { id: k.id.clone() });
        }
        changes.push(CardChange::Set {
            def,
            version: version.clone(),
        });
        match self.engine.reload(&changes) {
            Ok(e) => {
                self.engine = e;
                self.cards.insert(
                    path.to_path_buf(),
                    Known {
                        id: id.clone(),
                        script: read.script,
                        version: version.clone(),
                    },
                );
                Some(Outcome::Reloaded {
                    card: id,
                    version,
                    path: path.to_path_buf(),
                    took: start.elapsed(),
                    warnings,
                    fixed: false,
                })
            }
            Err(errors) => Some(refused(Some(id), to_diagnostics(path, &errors))),
        }
    }

    /// Where a watcher's path is: the search path it is under (the innermost, when one is
    /// inside another) and the path inside it. Compared as the file system names them: a
    /// watcher reports absolute paths, a search path may be `.` or relative.
    fn locate(&self, p: &Path) -> Option<(usize, PathBuf)> {
        let name = p.file_name()?;
        let dir = p
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let real = std::fs::canonicalize(dir).ok()?.join(name);
        self.roots
            .iter()
            .enumerate()
            .filter_map(|(i, (_, canonical))| {
                let rest = real.strip_prefix(canonical.as_ref()?).ok()?;
                Some((i, rest.to_path_buf()))
            })
            .min_by_key(|(_, rest)| rest.components().count())
    }

    /// A watcher's path as the loader names it (under the search path as given).
    fn as_given(&self, p: &Path) -> PathBuf {
        match self.locate(p) {
            Some((root, rel)) => self.roots[root].0.join(rel),
            None => p.to_path_buf(),
        }
    }

    fn classify(&self, p: &Path) -> Kind {
        let Some((_, rel)) = self.locate(p) else {
            return Kind::Other;
        };
        let parts: Vec<&str> = rel.iter().filter_map(|c| c.to_str()).collect();
        let name = parts.last().copied().unwrap_or_default();
        match parts.as_slice() {
            ["scripts", ..] => Kind::NotLive("the ruleset (or the shared Lua of scripts/lib)"),
            ["cardsets", g, "decks", ..] if *g == self.game => {
                Kind::NotLive("a deck list: it is read when a game starts")
            }
            // A set folder itself: deleted, moved out or moved in.
            ["cardsets", g, set] if *g == self.game && *set != "decks" => Kind::SetFolder,
            ["cardsets", g, _set, _file] if *g == self.game => {
                if name == "set.yaml" {
                    Kind::NotLive("a set's set.yaml")
                } else if name.ends_with(".test.yaml") {
                    Kind::Other
                } else if name.ends_with(".yaml") {
                    Kind::Card
                } else if name.ends_with(".lua") {
                    Kind::Script
                } else {
                    Kind::Other
                }
            }
            _ => Kind::Other,
        }
    }
}

enum Kind {
    Card,
    Script,
    SetFolder,
    NotLive(&'static str),
    Other,
}

/// A file of a card that is no regular file (a FIFO, a device, a folder): refused, not read.
fn not_regular(path: &Path, card: Option<String>) -> Outcome {
    let d = Diagnostic::error(
        path,
        Pos::START,
        "not a regular file (a folder, FIFO, socket or device): the last good version stays",
    )
    .for_card(card.as_deref());
    Outcome::Refused {
        card,
        path: path.to_path_buf(),
        diagnostics: vec![d],
    }
}

/// The engine's problems as positioned diagnostics (the script's file and line, else the
/// card's YAML).
fn to_diagnostics(yaml: &Path, errors: &[LoadError]) -> Vec<Diagnostic> {
    errors
        .iter()
        .map(|e| {
            let pos = Pos {
                line: e.line.unwrap_or(1),
                col: e.col.unwrap_or(1),
            };
            let file = e.file.as_ref().map_or(yaml.to_path_buf(), PathBuf::from);
            Diagnostic::error(file, pos, e.message.clone()).for_card(e.card.as_deref())
        })
        .collect()
}
