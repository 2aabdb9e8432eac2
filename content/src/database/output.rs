//! Writing a card database to a file, with its `PATH.sha256` beside it.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::CardDatabase;
use crate::write::{check_destination, write_file};

/// A card database's file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One JSON object ([`super::json`]).
    Json,
    /// An SQLite database ([`super::sqlite`]).
    #[cfg(feature = "sqlite")]
    Sqlite,
}

/// The line `sha256sum` writes for `bytes` named `file_name`: `HEX  NAME\n` (check it with
/// `sha256sum -c PATH.sha256` from the file's folder).
pub fn sha256_line(bytes: &[u8], file_name: &str) -> String {
    let digest = Sha256::digest(bytes);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("{hex}  {file_name}\n")
}

/// Writes `db` to `path` in `format`, then `PATH.sha256`. Each file is written whole or not
/// at all (a temporary file renamed over it); both destinations are checked first, so a bad
/// one fails before anything is written. Returns the checksum file's path.
pub fn write(db: &CardDatabase, format: Format, path: &Path) -> std::io::Result<PathBuf> {
    let sum_path = sum_path(path);
    check_destination(path)?;
    check_destination(&sum_path)?;
    let bytes = match format {
        Format::Json => super::json::to_bytes(db),
        #[cfg(feature = "sqlite")]
        Format::Sqlite => super::sqlite::to_bytes(db).map_err(std::io::Error::other)?,
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    write_file(path, &bytes)?;
    write_file(&sum_path, sha256_line(&bytes, &name).as_bytes())?;
    Ok(sum_path)
}

fn sum_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".sha256");
    PathBuf::from(s)
}
