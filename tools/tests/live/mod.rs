//! Hot reload with real file writes: each way an editor saves a file reaches the engine
//! through the watcher, a broken edit keeps the last good version, a deletion is reported.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use riffle::live::{Live, Outcome, watch, watched_folders};
use riffle_content::Loader;
use riffle_core::Engine;

const SET: &str = "game: onepiece\nid: HR\nname: {en: Hot Reload}\nversion: \"1\"\n";

fn yaml(power: u32) -> String {
    format!(
        "id: HR-001\ncategory: character\nname: {{en: \"Marsh Lookout\"}}\ntext: {{en: \"[On Play] Draw 1 card.\"}}\ncolors: [green]\ncost: 2\npower: {power}\ncounter: 1000\nattributes: [wisdom]\ntypes: [\"Marsh Wardens\"]\n"
    )
}

fn lua(call: &str) -> String {
    format!(
        "-- HR-001\nreturn card {{\n  on_play {{ operate = function(ctx) {call}(ctx, 1) end }},\n}}\n"
    )
}

struct Table {
    _dir: tempfile::TempDir,
    set: PathBuf,
    live: Live,
    changes: mpsc::Receiver<Result<Vec<PathBuf>, String>>,
    _watch: riffle::live::Watch,
}

fn table() -> Table {
    let dir = tempfile::tempdir().expect("temp dir");
    let set = dir.path().join("cardsets/onepiece/hr");
    std::fs::create_dir_all(&set).unwrap();
    std::fs::write(set.join("set.yaml"), SET).unwrap();
    std::fs::write(set.join("HR-001.yaml"), yaml(3000)).unwrap();
    std::fs::write(set.join("HR-001.lua"), lua("draw")).unwrap();
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let roots = vec![repo, dir.path().to_path_buf()];
    let loader = Loader::new(roots.clone());
    let loaded = loader
        .load_game("onepiece")
        .into_result()
        .unwrap_or_else(|d| panic!("{d:?}"));
    let engine = Engine::new(&loaded.content).unwrap_or_else(|e| panic!("{e:?}"));
    let live = Live::new(loader, "onepiece", engine, &loaded.cards);
    let (tx, changes) = mpsc::channel();
    // Only the mod's folders: the repository's are not edited here.
    let folders = watched_folders(&roots[1..], "onepiece");
    let w = watch(&folders, Duration::from_millis(150), move |c| {
        let _ = tx.send(c);
    })
    .expect("watching");
    Table {
        _dir: dir,
        set,
        live,
        changes,
        _watch: w,
    }
}

impl Table {
    /// Applies changes as they come until `done` accepts an outcome (10 s at most, for a
    /// loaded machine); returns every outcome seen.
    fn until(&mut self, done: impl Fn(&Outcome) -> bool) -> Vec<Outcome> {
        let end = Instant::now() + Duration::from_secs(10);
        let mut seen = Vec::new();
        while Instant::now() < end {
            let Ok(batch) = self.changes.recv_timeout(Duration::from_millis(100)) else {
                continue;
            };
            let paths = batch.expect("no watcher error");
            let outcomes = self.live.apply(&paths);
            let finished = outcomes.iter().any(&done);
            seen.extend(outcomes);
            if finished {
                return seen;
            }
        }
        panic!("no such outcome within 10 s; saw {seen:?}");
    }

    fn power(&self) -> Option<i64> {
        let def = self.live.engine().card_def("HR-001")?;
        def.fields.get("power")?.as_i64()
    }

    /// Whether the live HR-001 has its script.
    fn scripted(&self) -> bool {
        let def = self.live.engine().card_def("HR-001");
        def.is_some_and(|d| d.script.is_some())
    }

    fn path(&self, name: &str) -> PathBuf {
        self.set.join(name)
    }
}

fn reloaded(o: &Outcome) -> bool {
    matches!(o, Outcome::Reloaded { card, .. } if card == "HR-001")
}

/// VS Code: the file is truncated, then written (empty for a moment).
fn truncate_then_write(p: &Path, text: &str) {
    use std::io::Write;
    let mut f = std::fs::File::create(p).unwrap();
    f.flush().unwrap();
    std::thread::sleep(Duration::from_millis(30));
    f.write_all(text.as_bytes()).unwrap();
}

/// Many tools: a temporary file beside it, renamed over it.
fn temp_then_rename(p: &Path, text: &str) {
    let tmp = p.with_file_name(format!(".{}.tmp", p.file_name().unwrap().to_str().unwrap()));
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, p).unwrap();
}

/// vim (`backupcopy=no`): a probe file, the original renamed to a backup, a new file
/// written under the name, the backup deleted.
fn vim_save(p: &Path, text: &str) {
    let probe = p.with_file_name("4913");
    std::fs::write(&probe, "").unwrap();
    std::fs::remove_file(&probe).unwrap();
    let backup = p.with_file_name(format!("{}~", p.file_name().unwrap().to_str().unwrap()));
    std::fs::rename(p, &backup).unwrap();
    std::fs::write(p, text).unwrap();
    std::fs::remove_file(&backup).unwrap();
}

#[test]
fn every_editors_save_pattern_reaches_the_engine() {
    let mut t = table();
    assert_eq!(t.power(), Some(3000));
    let card = t.path("HR-001.yaml");
    for (i, save) in [
        truncate_then_write as fn(&Path, &str),
        temp_then_rename,
        vim_save,
    ]
    .into_iter()
    .enumerate()
    {
        let power = 4000 + 1000 * i as u32;
        save(&card, &yaml(power));
        let seen = t.until(reloaded);
        assert_eq!(t.power(), Some(power as i64), "save pattern {i}: {seen:?}");
        // The version in the outcome is the hash of the card's files as they are now.
        let version = seen
            .iter()
            .find_map(|o| match o {
                Outcome::Reloaded { version, .. } => Some(version.clone()),
                _ => None,
            })
            .unwrap();
        assert_eq!(version.len(), 12);
    }
    // The script saved the vim way counts as the card's change too.
    vim_save(&t.path("HR-001.lua"), &lua("draw"));
    // Same bytes as before: nothing to reload, so only a later change is seen.
    std::thread::sleep(Duration::from_millis(400));
    temp_then_rename(&t.path("HR-001.lua"), &lua("  draw"));
    t.until(reloaded);
}

#[test]
fn a_broken_edit_keeps_the_last_good_version_and_says_where() {
    let mut t = table();
    temp_then_rename(&t.path("HR-001.lua"), &lua("drwa"));
    let seen = t.until(|o| matches!(o, Outcome::Refused { .. }));
    let text: Vec<String> = seen
        .iter()
        .flat_map(|o| match o {
            Outcome::Refused { diagnostics, .. } => {
                diagnostics.iter().map(|d| d.to_string()).collect()
            }
            _ => Vec::new(),
        })
        .collect();
    assert!(
        text.iter()
            .any(|l| l.contains("HR-001.lua:3:") && l.contains("unknown name 'drwa'")),
        "{text:?}"
    );
    let before = std::rc::Rc::as_ptr(t.live.engine());
    assert_eq!(t.power(), Some(3000));
    // A YAML error is positioned too, and nothing changes.
    temp_then_rename(
        &t.path("HR-001.yaml"),
        &yaml(3000).replace("power: 3000", "power: lots"),
    );
    let seen = t.until(|o| matches!(o, Outcome::Refused { .. }));
    assert!(
        format!("{seen:?}").contains("power"),
        "the error names the field: {seen:?}"
    );
    assert_eq!(std::rc::Rc::as_ptr(t.live.engine()), before);
    // Fixed (and changed): it goes live.
    temp_then_rename(&t.path("HR-001.lua"), &lua("draw"));
    temp_then_rename(&t.path("HR-001.yaml"), &yaml(3500));
    t.until(reloaded);
    assert_eq!(t.power(), Some(3500));
}

#[test]
fn a_deleted_card_is_reported_and_a_new_one_goes_live() {
    let mut t = table();
    std::fs::remove_file(t.path("HR-001.yaml")).unwrap();
    t.until(|o| matches!(o, Outcome::Removed { card, .. } if card == "HR-001"));
    assert!(!t.live.engine().has_card("HR-001"));
    std::fs::write(
        t.path("HR-002.yaml"),
        yaml(2000).replace("HR-001", "HR-002"),
    )
    .unwrap();
    t.until(|o| matches!(o, Outcome::Reloaded { card, .. } if card == "HR-002"));
    assert!(t.live.engine().has_card("HR-002"));
    // A set's set.yaml is not taken live: it says so.
    std::fs::write(t.path("set.yaml"), SET.replace("Hot Reload", "Hot")).unwrap();
    t.until(|o| matches!(o, Outcome::NotLive { .. }));
}

#[test]
fn a_card_file_renamed_keeps_its_card_live() {
    let mut t = table();
    let from = t.path("HR-001.yaml");
    let to = t.path("A-lookout.yaml");
    std::fs::write(&from, yaml(4500)).unwrap();
    t.until(reloaded);
    std::fs::rename(&from, &to).unwrap();
    // The old name is gone and the new one names the same card: it is not a duplicate.
    let seen = t.until(|o| {
        matches!(o, Outcome::Reloaded { path, .. } if path.ends_with("A-lookout.yaml"))
            || matches!(o, Outcome::Refused { .. })
    });
    assert!(
        !seen.iter().any(|o| matches!(o, Outcome::Refused { .. })),
        "{seen:?}"
    );
    assert!(t.live.engine().has_card("HR-001"));
}

fn removed(o: &Outcome) -> bool {
    matches!(o, Outcome::Removed { card, .. } if card == "HR-001")
}

/// Issue #27 item 8: a set folder moved out is seen (its cards removed, each said), one
/// moved in is reported (a set takes a restart).
#[test]
fn a_set_folder_moved_out_or_in_is_reported() {
    let mut t = table();
    let away = t._dir.path().join("elsewhere");
    std::fs::rename(&t.set, &away).unwrap();
    t.until(removed);
    assert_eq!(t.power(), None, "the card is gone from the engine");
    std::fs::rename(&away, &t.set).unwrap();
    let seen = t.until(|o| matches!(o, Outcome::NotLive { .. }));
    let told: Vec<String> = seen.iter().flat_map(riffle::live::report).collect();
    assert!(
        told.iter()
            .any(|l| l.contains("a set folder that was not there when the game loaded")),
        "{told:?}"
    );
}

/// Issue #27 item 8: a script emptied waits (the last good version stays); replaced by a
/// FIFO it is refused as what it is, never called empty; the good script back is a fix.
#[cfg(unix)]
#[test]
fn a_script_emptied_or_made_a_fifo_keeps_the_last_good_version() {
    let mut t = table();
    let script = t.path("HR-001.lua");
    std::fs::write(&script, "").unwrap();
    let seen = t.until(|o| matches!(o, Outcome::Waiting { .. }));
    assert!(!seen.iter().any(reloaded), "{seen:?}");
    assert!(
        t.scripted(),
        "the last good version, with its script, stays"
    );

    std::fs::remove_file(&script).unwrap();
    crate::common::mkfifo(&script);
    let seen = t.until(|o| matches!(o, Outcome::Refused { .. }));
    let told: Vec<String> = seen.iter().flat_map(riffle::live::report).collect();
    assert!(
        told.iter().any(|l| l.contains("not a regular file")),
        "{told:?}"
    );
    assert!(!told.iter().any(|l| l.contains("is empty")), "{told:?}");
    assert!(
        t.scripted(),
        "the last good version, with its script, stays"
    );

    std::fs::remove_file(&script).unwrap();
    std::fs::write(&script, lua("draw")).unwrap();
    let seen = t.until(|o| {
        matches!(o, Outcome::Fixed { .. }) || matches!(o, Outcome::Reloaded { fixed: true, .. })
    });
    assert!(!seen.is_empty());
}
