//! Files Riffle writes (`play --log`, `schema --write`): through a uniquely named temporary
//! file and a rename; never through, or over, something that is not a regular file.

use std::path::Path;

use super::play::{play, text};
use super::{riffle, stderr};
use crate::common::{Fixture, mkfifo};

/// The names in a folder, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn log_leaves_an_unrelated_tmp_file_alone_and_replaces_an_old_log() {
    let f = Fixture::empty();
    // `game.tmp` is the name the old `--log game.jsonl` wrote through, then renamed away.
    f.write("game.tmp", "keep me\n");
    f.write("x.tmp", "keep me too\n");
    f.write("game.jsonl", "an old log\n");
    let path = f.path("game.jsonl");
    let log = path.to_str().unwrap();
    let out = play(&["--seed", "3", "--log", log]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(f.path("game.tmp")).unwrap(),
        "keep me\n"
    );
    assert_eq!(
        std::fs::read_to_string(f.path("x.tmp")).unwrap(),
        "keep me too\n"
    );
    let first = std::fs::read(&path).unwrap();
    assert!(first.starts_with(b"{"), "the new log replaced the old one");
    // No temporary file left behind.
    assert_eq!(names(&f.dir), ["game.jsonl", "game.tmp", "x.tmp"]);
    // The same game writes the same bytes again.
    let out = play(&["--seed", "3", "--games", "2", "--log", log]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(&path).unwrap(), first);
}

/// `--log PATH` on something that is not a regular file: exit 2, one line that says what it
/// is, no game played (nothing on stdout), the thing and its folder untouched.
#[track_caller]
fn refused(f: &Fixture, name: &str, says: &str) {
    let before = names(&f.dir);
    let path = f.path(name);
    for games in ["1", "3"] {
        let out = play(&["--games", games, "--log", path.to_str().unwrap()]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(err.contains(says), "{name}: {err}");
        assert!(err.contains("not a regular file"), "{name}: {err}");
        assert_eq!(text(&out.stdout), "", "{name}: refused before playing");
        assert_eq!(names(&f.dir), before, "{name}: nothing added or removed");
    }
}

#[cfg(unix)]
#[test]
fn log_refuses_a_symlink_a_fifo_and_a_folder() {
    use std::os::unix::fs::FileTypeExt;

    let f = Fixture::empty();
    f.write("target.txt", "the link's target\n");
    std::os::unix::fs::symlink(f.path("target.txt"), f.path("link.jsonl")).unwrap();
    // A link to nowhere: the old code wrote a regular file in its place.
    std::os::unix::fs::symlink(f.path("nowhere"), f.path("dangling.jsonl")).unwrap();
    mkfifo(&f.path("fifo.jsonl"));
    std::fs::create_dir(f.path("dir.jsonl")).unwrap();

    refused(&f, "link.jsonl", "is a symbolic link");
    refused(&f, "dangling.jsonl", "is a symbolic link");
    refused(&f, "fifo.jsonl", "is a FIFO");
    refused(&f, "dir.jsonl", "is a folder");

    let link = std::fs::symlink_metadata(f.path("link.jsonl")).unwrap();
    assert!(link.file_type().is_symlink());
    assert_eq!(
        std::fs::read_link(f.path("link.jsonl")).unwrap(),
        f.path("target.txt")
    );
    assert_eq!(
        std::fs::read_to_string(f.path("target.txt")).unwrap(),
        "the link's target\n"
    );
    assert!(
        std::fs::symlink_metadata(f.path("dangling.jsonl"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(!f.path("nowhere").exists());
    let fifo = std::fs::symlink_metadata(f.path("fifo.jsonl")).unwrap();
    assert!(fifo.file_type().is_fifo());
    assert!(f.path("dir.jsonl").is_dir());
    assert!(names(&f.path("dir.jsonl")).is_empty());
}

#[test]
fn log_into_a_missing_folder_is_one_line_and_exit_2() {
    let f = Fixture::empty();
    let path = f.path("no/such/folder/game.jsonl");
    let out = play(&["--log", path.to_str().unwrap()]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("no folder"), "{err}");
    assert_eq!(text(&out.stdout), "");
}

#[cfg(unix)]
#[test]
fn schema_write_refuses_a_symlink_and_writes_nothing() {
    let f = Fixture::empty();
    f.write("elsewhere.json", "not a schema\n");
    std::fs::create_dir(f.path("schema")).unwrap();
    std::os::unix::fs::symlink(f.path("elsewhere.json"), f.path("schema/set.schema.json")).unwrap();
    let root = f.dir.to_str().unwrap();
    let out = riffle(&f.dir, &["schema", "--write", "--root", root]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("set.schema.json is a symbolic link"), "{err}");
    // All or nothing: not even the other schemas were written.
    assert_eq!(names(&f.path("schema")), ["set.schema.json"]);
    assert_eq!(
        std::fs::read_to_string(f.path("elsewhere.json")).unwrap(),
        "not a schema\n"
    );

    // Without the link every schema is written, and nothing else.
    std::fs::remove_file(f.path("schema/set.schema.json")).unwrap();
    let out = riffle(&f.dir, &["schema", "--write", "--root", root]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        names(&f.path("schema")),
        [
            "card-database.schema.json",
            "card-database.sql",
            "card.schema.json",
            "deck.schema.json",
            "protocol",
            "ruleset.schema.json",
            "scenario.schema.json",
            "set.schema.json"
        ]
    );
    assert_eq!(
        names(&f.path("schema/protocol")),
        ["client-message.schema.json", "server-message.schema.json"]
    );
    let out = riffle(&f.dir, &["schema", "--root", root]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// Runs riffle with `args` in `dir`; fails (killing it) if it has not ended within 60 s:
/// a command that opens a FIFO blocks until someone writes to it.
#[cfg(unix)]
fn ends(dir: &Path, args: &[&str]) -> std::process::Output {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_riffle"))
        .args(args)
        .current_dir(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run riffle");
    for _ in 0..600 {
        if child.try_wait().expect("wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let _ = child.kill();
    panic!("riffle {args:?} did not end within 60 s: it blocked on a file");
}

/// Issue #27 item 4: `docs`, `editor`, `schema` and `new card` read only regular files, with
/// a size limit: a FIFO does not block them, a link to /dev/zero is not read.
#[cfg(unix)]
#[test]
fn no_command_blocks_on_a_fifo_or_reads_a_device() {
    let f = crate::common::Fixture::mini();
    let root = f.dir.to_str().unwrap();
    for (what, file, args) in [
        (
            "docs",
            "docs/reference/mini.md",
            vec!["docs", "--check", "--root", root],
        ),
        (
            "editor",
            "editor/mini.d.luau",
            vec!["editor", "--check", "--root", root],
        ),
        (
            "schema",
            "schema/set.schema.json",
            vec!["schema", "--root", root],
        ),
    ] {
        let write: Vec<&str> = [args[0], "--write", "--root", root].into();
        assert_eq!(
            ends(&f.dir, &write).status.code(),
            Some(0),
            "{what} --write"
        );
        for device in [false, true] {
            let p = f.path(file);
            std::fs::remove_file(&p).unwrap();
            if device {
                std::os::unix::fs::symlink("/dev/zero", &p).unwrap();
            } else {
                mkfifo(&p);
            }
            let out = ends(&f.dir, &args);
            let all = format!("{}{}", text(&out.stdout), stderr(&out));
            // Out of date: what is there is not the file it would write.
            assert_eq!(out.status.code(), Some(1), "{what}: {all}");
            assert!(all.contains("out of date"), "{what}: {all}");
        }
        std::fs::remove_file(f.path(file)).unwrap();
    }
    // `riffle new card` reads the set's set.yaml.
    let set = f.path("cardsets/mini/zz");
    std::fs::create_dir_all(&set).unwrap();
    for device in [false, true] {
        let p = set.join("set.yaml");
        let _ = std::fs::remove_file(&p);
        if device {
            std::os::unix::fs::symlink("/dev/zero", &p).unwrap();
        } else {
            mkfifo(&p);
        }
        let out = ends(
            &f.dir,
            &[
                "new",
                "card",
                set.to_str().unwrap(),
                "ZZ-001",
                "--category",
                "unit",
                "--root",
                root,
            ],
        );
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("not a regular file"),
            "{}",
            stderr(&out)
        );
        assert_eq!(names(&set), ["set.yaml"], "nothing written");
    }
}

/// Issue #27 item 6: `docs`, `editor` and `schema --write` refuse a destination whose folder
/// is a link out of the repository, and write nothing there.
#[cfg(unix)]
#[test]
fn generated_files_are_not_written_through_a_folder_linked_outside() {
    for (command, folder) in [("docs", "docs"), ("editor", "editor"), ("schema", "schema")] {
        let f = crate::common::Fixture::mini();
        let outside = crate::common::Fixture::empty();
        // The fixture's own folder (its game's card schema) goes elsewhere first.
        let _ = std::fs::remove_dir_all(f.path(folder));
        std::os::unix::fs::symlink(&outside.dir, f.path(folder)).unwrap();
        let out = ends(
            &f.dir,
            &[command, "--write", "--root", f.dir.to_str().unwrap()],
        );
        let err = stderr(&out);
        assert_ne!(out.status.code(), Some(0), "{command}: {err}");
        assert!(
            err.contains("outside") && err.contains("symbolic link"),
            "{command}: {err}"
        );
        assert!(
            names(&outside.dir).is_empty(),
            "{command}: wrote {:?}",
            names(&outside.dir)
        );
    }
}
