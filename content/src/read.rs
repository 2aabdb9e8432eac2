//! Reading a file the tool was pointed at: one function for every command, so that none
//! blocks on a FIFO, reads a device until memory runs out, or takes a gigabyte whole. Only a
//! regular file is read (checked on the opened file, which is opened without blocking), and
//! at most [`MAX_TEXT_BYTES`] of it.

use std::fmt;
use std::io::Read;
use std::path::Path;

/// The largest text file any command reads: far above any content file, scenario or
/// schema, far below what would hurt.
pub const MAX_TEXT_BYTES: u64 = 64 * 1024 * 1024;

/// Why a file was not read.
#[derive(Debug)]
pub enum ReadError {
    /// It does not exist, or cannot be opened or read.
    Io(std::io::Error),
    /// A folder, FIFO, socket or device.
    NotRegular,
    /// Larger than the limit: its size.
    TooLarge(u64),
    /// Not UTF-8: the byte where it stops being text.
    NotText(usize),
}

impl ReadError {
    /// Whether the file is simply not there.
    pub fn is_not_found(&self) -> bool {
        matches!(self, ReadError::Io(e) if e.kind() == std::io::ErrorKind::NotFound)
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "cannot read it: {e}"),
            ReadError::NotRegular => {
                write!(
                    f,
                    "not a regular file (a folder, FIFO, socket or device): give a file"
                )
            }
            ReadError::TooLarge(n) => write!(
                f,
                "{n} bytes: larger than the {} MiB a file read here may have; is it the right file?",
                MAX_TEXT_BYTES / 1024 / 1024
            ),
            ReadError::NotText(at) => write!(f, "not UTF-8 text (byte {at}): save it as UTF-8"),
        }
    }
}

impl std::error::Error for ReadError {}

/// The bytes of the regular file at `path` (following links), at most [`MAX_TEXT_BYTES`].
pub fn read_bytes(path: impl AsRef<Path>) -> Result<Vec<u8>, ReadError> {
    let path = path.as_ref();
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Opening a FIFO for reading blocks until a writer comes: not with O_NONBLOCK.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(ReadError::Io)?;
    let meta = file.metadata().map_err(ReadError::Io)?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular);
    }
    if meta.len() > MAX_TEXT_BYTES {
        return Err(ReadError::TooLarge(meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // A file that grows while read stops at the limit all the same.
    file.take(MAX_TEXT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > MAX_TEXT_BYTES {
        return Err(ReadError::TooLarge(bytes.len() as u64));
    }
    Ok(bytes)
}

/// The text of the regular file at `path`: [`read_bytes`], as UTF-8.
pub fn read_text(path: impl AsRef<Path>) -> Result<String, ReadError> {
    let bytes = read_bytes(path)?;
    String::from_utf8(bytes).map_err(|e| ReadError::NotText(e.utf8_error().valid_up_to()))
}

/// The search paths as written (absolute, links kept) and as they really are (links
/// resolved), to tell whether a file found in one leads out of them.
pub fn real_roots(roots: &[std::path::PathBuf]) -> Vec<(std::path::PathBuf, std::path::PathBuf)> {
    roots
        .iter()
        .filter_map(|r| {
            let r = if r.as_os_str().is_empty() {
                Path::new(".")
            } else {
                r.as_path()
            };
            Some((std::path::absolute(r).ok()?, r.canonicalize().ok()?))
        })
        .collect()
}

/// Whether `path`, written inside a search path, leads through a symbolic link to a place
/// outside every one of them ([`real_roots`]): such a file is not content (a mod's scenario
/// linked to a system file), and is neither read nor quoted. A path written outside the
/// search paths (a deck a person names with `--deck`) is theirs to name; a path that does
/// not resolve does not leave (it is reported as missing where it is read).
pub fn leaves(path: &Path, roots: &[(std::path::PathBuf, std::path::PathBuf)]) -> bool {
    if !written_under(path, roots) {
        return false;
    }
    match path.canonicalize() {
        Ok(p) => !roots.iter().any(|(_, real)| p.starts_with(real)),
        Err(_) => false,
    }
}

/// Whether `path`, as written (made absolute, `..` taken lexically), is under one of the
/// search paths as given.
fn written_under(path: &Path, roots: &[(std::path::PathBuf, std::path::PathBuf)]) -> bool {
    let Ok(written) = std::path::absolute(path) else {
        return false;
    };
    let written = lexical(&written);
    roots
        .iter()
        .any(|(given, _)| written.starts_with(lexical(given)))
}

/// A folder and where it really is (links resolved; `None` when that cannot be known), as
/// [`leaves_in`] last looked it up.
pub type RealDir = Option<(std::path::PathBuf, Option<std::path::PathBuf>)>;

/// [`leaves`], for many files of few folders: a file that is no link is where its folder
/// really is, and the folder is resolved once (`dir` keeps the last one). A set of 10,000
/// cards resolved every component of 20,000 paths (4% of the instructions of a load of
/// them, and a system call for each component).
pub fn leaves_in(
    path: &Path,
    roots: &[(std::path::PathBuf, std::path::PathBuf)],
    dir: &mut RealDir,
) -> bool {
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return leaves(path, roots);
    };
    match std::fs::symlink_metadata(path) {
        Ok(m) if !m.file_type().is_symlink() => {}
        // A link (resolved the long way), or nothing there: as `leaves` says.
        _ => return leaves(path, roots),
    }
    if !written_under(path, roots) {
        return false;
    }
    if dir.as_ref().is_none_or(|(d, _)| d != parent) {
        *dir = Some((parent.to_path_buf(), parent.canonicalize().ok()));
    }
    match dir.as_ref().and_then(|(_, real)| real.as_ref()) {
        Some(real_dir) => {
            let p = real_dir.join(name);
            !roots.iter().any(|(_, real)| p.starts_with(real))
        }
        None => false,
    }
}

/// `p` without `.` and with `..` taken by name (no link resolved).
fn lexical(p: &Path) -> std::path::PathBuf {
    let mut out = std::path::PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The error for a file that [`leaves`] the search paths: its target is not named, nor read.
pub const LEAVES: &str = "a symbolic link to a file outside the search paths: not read (copy the file into the mod instead)";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.yaml");
        std::fs::write(&p, "id: x\n").unwrap();
        assert_eq!(read_text(&p).unwrap(), "id: x\n");
    }

    #[test]
    fn a_folder_a_missing_file_and_bad_text_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(read_text(dir.path()), Err(ReadError::NotRegular)));
        assert!(
            read_text(dir.path().join("none"))
                .unwrap_err()
                .is_not_found()
        );
        let p = dir.path().join("b");
        std::fs::write(&p, [b'a', 0xff, b'b']).unwrap();
        assert!(matches!(read_text(&p), Err(ReadError::NotText(1))));
    }

    #[cfg(unix)]
    #[test]
    fn a_link_out_of_the_search_paths_leaves_them_one_inside_does_not() {
        let root = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "x").unwrap();
        std::fs::write(root.path().join("a.yaml"), "x").unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), root.path().join("out.yaml"))
            .unwrap();
        std::os::unix::fs::symlink(root.path().join("a.yaml"), root.path().join("in.yaml"))
            .unwrap();
        let real = real_roots(&[root.path().to_path_buf()]);
        assert!(leaves(&root.path().join("out.yaml"), &real));
        assert!(!leaves(&root.path().join("in.yaml"), &real));
        assert!(!leaves(&root.path().join("a.yaml"), &real));
        // Named outside the search paths: the person's own file.
        assert!(!leaves(&outside.path().join("secret"), &real));
        // The same answers with the folder looked up once.
        let mut dir = None;
        for (f, want) in [("out.yaml", true), ("in.yaml", false), ("a.yaml", false)] {
            let p = root.path().join(f);
            assert_eq!(leaves_in(&p, &real, &mut dir), want, "{f}");
            assert_eq!(leaves(&p, &real), want, "{f}");
        }
        assert!(!leaves_in(&outside.path().join("secret"), &real, &mut dir));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_device_is_refused_without_reading_it() {
        assert!(matches!(
            read_text(Path::new("/dev/zero")),
            Err(ReadError::NotRegular)
        ));
    }
}
