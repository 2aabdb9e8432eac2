//! Writing files safely: every file Riffle writes (`riffle play --log`, `riffle schema
//! --write`) goes through [`write_file`].
//!
//! The text goes to a uniquely named temporary file in the destination's folder (so an
//! unrelated `x.tmp` there is never touched), which is then renamed over the destination: a
//! reader sees the old file or the new one, never half of one. A destination that exists and
//! is not a regular file (a symbolic link, a FIFO, a device, a folder) is refused before
//! anything is written: renaming over it would replace the link or the device node itself.

use std::io::Write;
use std::path::Path;

/// Why `path` may not be written, if it exists and is not a regular file; `Ok` for a regular
/// file or a path that does not exist yet. Call it before long work so that a bad destination
/// fails at once; [`write_file`] checks again.
pub fn check_destination(path: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_file() => Ok(()),
        Ok(meta) => Err(std::io::Error::other(format!(
            "{} is {}, not a regular file: not replacing it (remove it or give another path)",
            path.display(),
            kind(&meta.file_type())
        ))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let dir = folder_of(path);
            if dir.is_dir() {
                Ok(())
            } else {
                Err(std::io::Error::other(format!(
                    "cannot write {}: no folder {}",
                    path.display(),
                    dir.display()
                )))
            }
        }
        Err(e) => Err(std::io::Error::new(
            e.kind(),
            format!("cannot write {}: {e}", path.display()),
        )),
    }
}

/// Refuses a destination under `root` whose folder leads outside `root` through a symbolic
/// link (`docs/` a link to another tree): generated files are written only inside the
/// repository they belong to. The folder's nearest existing ancestor is resolved, so a folder
/// still to be made is checked too, before it is made.
pub fn check_inside(root: &Path, path: &Path) -> std::io::Result<()> {
    // The current folder, as a root found there is named (no `..` to climb).
    let root = folder_of(&root.join("x")).canonicalize()?;
    let mut dir = folder_of(path).to_path_buf();
    let real = loop {
        match dir.canonicalize() {
            Ok(real) => break real,
            Err(_) => match dir.parent() {
                Some(up) if !up.as_os_str().is_empty() => dir = up.to_path_buf(),
                _ => break std::env::current_dir()?,
            },
        }
    };
    if real.starts_with(&root) {
        Ok(())
    } else {
        Err(std::io::Error::other(format!(
            "{}: its folder leads to {}, outside {} (through a symbolic link): not writing \
             there (replace the link with a folder)",
            path.display(),
            real.display(),
            root.display()
        )))
    }
}

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename. Refuses
/// (nothing written) a destination that exists and is not a regular file. A new file gets the
/// usual permissions (0666 less the umask); a replaced file keeps its own.
pub fn write_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    check_destination(path)?;
    let dir = folder_of(path);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut builder = tempfile::Builder::new();
    // `.game.jsonl.XXXXXX.tmp`: hidden, named after the destination, unique.
    let prefix = format!(".{name}.");
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    let keep = std::fs::metadata(path).ok().map(|m| m.permissions());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // tempfile's default is 0600; a log or schema is an ordinary file (umask applies).
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let fail = |e: std::io::Error| {
        std::io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display()))
    };
    let mut tmp = builder.tempfile_in(dir).map_err(fail)?;
    tmp.write_all(bytes).map_err(fail)?;
    tmp.flush().map_err(fail)?;
    #[cfg(unix)]
    if let Some(perm) = keep {
        tmp.as_file().set_permissions(perm).map_err(fail)?;
    }
    // The destination may have changed since the check; one last look narrows that window.
    check_destination(path)?;
    // On failure the temporary file is removed when `PersistError` is dropped.
    tmp.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}

/// The folder a path is in (`.` for a bare file name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// What a file type is, for the refusal message.
fn kind(t: &std::fs::FileType) -> &'static str {
    if t.is_symlink() {
        return "a symbolic link";
    }
    if t.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    "a special file"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_replaces_and_refuses() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.jsonl");
        write_file(&p, b"one\n").unwrap();
        write_file(&p, b"two\n").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two\n");
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        let e = write_file(&sub, b"x").unwrap_err().to_string();
        assert!(e.contains("is a folder, not a regular file"), "{e}");
        // Nothing but the two names: no temporary file left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
        let e = write_file(&dir.path().join("no/such.txt"), b"x")
            .unwrap_err()
            .to_string();
        assert!(e.contains("no folder"), "{e}");
    }

    /// A root found in the current folder is the empty path (`riffle docs --write` run at
    /// the repository's top): it is the current folder, not a missing one.
    #[test]
    fn the_empty_root_is_the_current_folder() {
        check_inside(Path::new(""), Path::new("src/write.rs")).unwrap();
        check_inside(Path::new(""), Path::new("src/new/file.rs")).unwrap();
        let e = check_inside(Path::new("src"), Path::new("tests/x.rs")).unwrap_err();
        assert!(e.to_string().contains("outside"), "{e}");
    }
}
