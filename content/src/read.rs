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

    #[cfg(target_os = "linux")]
    #[test]
    fn a_device_is_refused_without_reading_it() {
        assert!(matches!(
            read_text(Path::new("/dev/zero")),
            Err(ReadError::NotRegular)
        ));
    }
}
