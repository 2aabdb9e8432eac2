//! Watching content folders: recursive, debounced, filtered to content files.

use std::path::{Path, PathBuf};
use std::time::Duration;

use notify::event::{AccessKind, AccessMode, ModifyKind};
use notify::{EventKind, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};

/// A running watch; dropping it stops watching.
pub struct Watch {
    _debouncer: Debouncer<notify::RecommendedWatcher, RecommendedCache>,
}

/// The folders of `game` to watch in each search path: its ruleset, the shared Lua and its
/// card sets (those that exist). Whole folders, recursively: a single file's watch loses
/// the file when an editor saves by rename (vim), and new files must be seen too.
pub fn watched_folders(roots: &[PathBuf], game: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for root in roots {
        for sub in [
            root.join("scripts").join(game),
            root.join("scripts").join("lib"),
            root.join("cardsets").join(game),
        ] {
            if sub.is_dir() {
                out.push(sub);
            }
        }
    }
    out
}

/// Whether a changed path is a content file (YAML or Lua), not an editor's scratch file
/// (vim's `4913` probe and `.swp`, backups ending in `~`, hidden temporary files).
fn is_content_file(p: &Path) -> bool {
    let Some(name) = p.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    !name.starts_with('.')
        && !name.ends_with('~')
        && (name.ends_with(".yaml") || name.ends_with(".lua"))
}

/// Whether a changed path is a set folder (`cardsets/<game>/<set>`): one deleted, moved out
/// or moved in comes as one event for the folder, none for its files.
fn is_set_folder(p: &Path) -> bool {
    let name = p.file_name().and_then(|n| n.to_str()).unwrap_or(".");
    let cardsets = p.parent().and_then(Path::parent).and_then(Path::file_name);
    !name.starts_with('.') && !name.contains('.') && cardsets == Some("cardsets".as_ref())
}

/// Whether an event can change what a file holds: reads (a file opened, closed unwritten)
/// and metadata changes cannot; another program loading the content reads every file.
fn changes_content(kind: &EventKind) -> bool {
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
        EventKind::Modify(ModifyKind::Metadata(_)) => false,
        _ => true,
    }
}

/// Watches `folders`; after `debounce` without a further event, calls `on_change` (on the
/// watcher's thread) with the content files that changed, sorted, each once, whatever the
/// events were (created, written, renamed, removed: the reader looks at the files as they
/// are). A watcher error is passed on as `Err` with its message.
pub fn watch(
    folders: &[PathBuf],
    debounce: Duration,
    mut on_change: impl FnMut(Result<Vec<PathBuf>, String>) + Send + 'static,
) -> Result<Watch, String> {
    let mut debouncer =
        new_debouncer(
            debounce,
            None,
            move |result: DebounceEventResult| match result {
                Ok(events) => {
                    let mut paths: Vec<PathBuf> = events
                        .iter()
                        .filter(|e| changes_content(&e.kind))
                        .flat_map(|e| e.paths.iter())
                        .filter(|p| is_content_file(p) || is_set_folder(p))
                        .cloned()
                        .collect();
                    paths.sort();
                    paths.dedup();
                    if !paths.is_empty() {
                        on_change(Ok(paths));
                    }
                }
                Err(errors) => {
                    let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
                    on_change(Err(text.join("; ")));
                }
            },
        )
        .map_err(|e| format!("cannot watch files: {e}"))?;
    for f in folders {
        debouncer
            .watch(f, RecursiveMode::Recursive)
            .map_err(|e| format!("cannot watch {}: {e}", f.display()))?;
    }
    Ok(Watch {
        _debouncer: debouncer,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editors_scratch_files_are_not_content() {
        for scratch in [
            "4913",
            ".X-1.yaml.swp",
            "X-1.yaml~",
            ".#X-1.lua",
            "X-1.yaml.tmp",
        ] {
            assert!(!is_content_file(Path::new(scratch)), "{scratch}");
        }
        for content in ["X-1.yaml", "X-1.lua", "set.yaml"] {
            assert!(is_content_file(Path::new(content)), "{content}");
        }
        assert!(is_set_folder(Path::new("/m/cardsets/onepiece/tt")));
        assert!(!is_set_folder(Path::new("/m/cardsets/onepiece/tt/lib")));
        assert!(!is_set_folder(Path::new("/m/cardsets/onepiece/.tt.swp")));
    }
}
