//! Creating new files, all or none: an existing file is never replaced, and each file appears
//! whole (written to a temporary file in its folder, then linked into place).

use std::io::Write;
use std::path::{Path, PathBuf};

use riffle_content::diagnostic::display_path;

/// A file to create.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewFile {
    /// Where, as the user named it (relative paths stay relative, for messages).
    pub path: PathBuf,
    /// Its text.
    pub text: String,
    /// Why it is made, when that is worth telling (`every event of the game has a script`).
    pub why: Option<String>,
}

/// Refuses when any of `files` exists (whatever it is: a file, a folder, a link); the error
/// names them all.
pub fn refuse_existing(files: &[NewFile]) -> Result<(), String> {
    let taken: Vec<String> = files
        .iter()
        .filter(|f| std::fs::symlink_metadata(&f.path).is_ok())
        .map(|f| display_path(&f.path))
        .collect();
    match taken.as_slice() {
        [] => Ok(()),
        [one] => Err(format!(
            "{one} already exists: not replacing it (nothing written; remove it or choose another name)"
        )),
        many => Err(format!(
            "{} already exist: not replacing them (nothing written; remove them or choose another name)",
            many.join(", ")
        )),
    }
}

/// Creates every file (and the folders they need), or none: a file that appears meanwhile
/// is not replaced, and the files created before a failure are removed again.
pub fn create_all(files: &[NewFile]) -> Result<(), String> {
    refuse_existing(files)?;
    let mut made: Vec<&Path> = Vec::new();
    for f in files {
        if let Err(e) = create(&f.path, f.text.as_bytes()) {
            for p in made {
                let _ = std::fs::remove_file(p);
            }
            return Err(e);
        }
        made.push(&f.path);
    }
    Ok(())
}

/// Writes a new file through a temporary file in its folder; fails if `path` exists.
fn create(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("cannot write {}: {e}", display_path(path));
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).map_err(fail)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // An ordinary file: 0666 less the umask, as an editor would make it.
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir).map_err(fail)?;
    tmp.write_all(bytes).map_err(fail)?;
    tmp.flush().map_err(fail)?;
    // `persist_noclobber` fails rather than replace a file that appeared since the check.
    tmp.persist_noclobber(path).map_err(|e| fail(e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: PathBuf, text: &str) -> NewFile {
        NewFile {
            path,
            text: text.into(),
            why: None,
        }
    }

    #[test]
    fn creates_all_or_refuses_all() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("sub/a.yaml");
        let b = dir.path().join("sub/b.yaml");
        create_all(&[file(a.clone(), "a\n"), file(b.clone(), "b\n")]).unwrap();
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "a\n");
        let c = dir.path().join("sub/c.yaml");
        let e = create_all(&[file(c.clone(), "c\n"), file(b.clone(), "new\n")]).unwrap_err();
        assert!(
            e.contains("b.yaml already exists") && e.contains("nothing written"),
            "{e}"
        );
        assert!(!c.exists());
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "b\n");
        // No temporary file left behind.
        assert_eq!(
            std::fs::read_dir(dir.path().join("sub")).unwrap().count(),
            2
        );
    }
}
