//! Scratch folders that a stopped command does not leave behind: `riffle bench --cards N`
//! writes up to hundreds of thousands of synthetic card files into one. The folder's name
//! holds the process id (`riffle-bench-<pid>-XXXXXX`); an interrupt (Ctrl-C, `kill`, a closed
//! terminal) removes it before the process ends, and each start removes those whose process
//! is gone (stopped by something no process can catch: `kill -9`, a power cut).

use std::path::{Path, PathBuf};

/// A scratch folder in the temporary folder, removed when dropped, on an interrupt, or by a
/// later start.
pub struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    /// Makes `<temp>/<prefix><pid>-XXXXXX`, after removing the scratch folders of `prefix`
    /// that no live process owns.
    pub fn new(prefix: &str) -> std::io::Result<Scratch> {
        sweep(&std::env::temp_dir(), prefix);
        let dir = tempfile::Builder::new()
            .prefix(&format!("{prefix}{}-", std::process::id()))
            .tempdir()?;
        remove_on_interrupt(dir.path().to_path_buf());
        Ok(Scratch { dir })
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// Removes the folders `<prefix><pid>-...` under `temp` whose process `pid` is not running.
pub fn sweep(temp: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    let Ok(entries) = std::fs::read_dir(temp) else {
        return removed;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix(prefix)
            .and_then(|rest| rest.split('-').next())
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        // Only folders, never through a link.
        let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
        if is_dir
            && pid != std::process::id()
            && !alive(pid)
            && std::fs::remove_dir_all(e.path()).is_ok()
        {
            removed.push(e.path());
        }
    }
    removed
}

#[cfg(unix)]
fn alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 only checks that the process exists (and may be signalled).
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

#[cfg(not(unix))]
fn alive(_pid: u32) -> bool {
    true // cannot tell: leave it
}

/// Set when an interrupt is being handled: the thread removing the folder ends the process.
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Called before the process ends on its own: if an interrupt is being handled, waits for
/// the thread that removes the scratch folder to end the process (with the signal's code).
pub fn wait_if_interrupted() {
    while INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst) {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// The write end of the pipe the signal handler writes the signal's number to.
#[cfg(unix)]
static SIGNAL_PIPE: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(-1);

/// The handler: one `write` (async-signal-safe); the work happens in the waiting thread.
#[cfg(unix)]
extern "C" fn on_signal(sig: libc::c_int) {
    let fd = SIGNAL_PIPE.load(std::sync::atomic::Ordering::Relaxed);
    let b = sig as u8;
    // SAFETY: writing one byte from a live local to a pipe; nothing else in a handler.
    unsafe { libc::write(fd, (&b as *const u8).cast(), 1) };
}

/// On SIGINT, SIGTERM or SIGHUP, whichever thread receives it: removes `dir` and ends the
/// process as the signal would (exit status 128 + its number). The handler only writes to a
/// pipe; a thread of its own reads it and does the work.
#[cfg(unix)]
fn remove_on_interrupt(dir: PathBuf) {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: `fds` has room for the two descriptors pipe() returns.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        return; // no pipe: an interrupt leaves the folder, and the next start removes it
    }
    SIGNAL_PIPE.store(fds[1], std::sync::atomic::Ordering::Relaxed);
    let read_end = fds[0];
    std::thread::spawn(move || {
        let mut b = 0u8;
        // SAFETY: reading one byte into a live local from our own pipe.
        if unsafe { libc::read(read_end, (&mut b as *mut u8).cast(), 1) } == 1 {
            INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
            remove_under_writer(&dir);
            eprintln!("riffle: interrupted: removed {}", dir.display());
            std::process::exit(128 + i32::from(b));
        }
    });
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: a zeroed sigaction with our handler and an empty mask is a valid one.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(sig, &action, std::ptr::null_mut());
        }
    }
}

#[cfg(not(unix))]
fn remove_on_interrupt(_dir: PathBuf) {}

/// Removes `dir` while another thread may still be writing into it: renamed away first (the
/// writer's next file fails instead of landing there), then removed, again until it is gone
/// (a file being made while the removal walks it).
#[cfg(unix)]
fn remove_under_writer(dir: &Path) {
    let doomed = dir.with_extension("removing");
    let target = match std::fs::rename(dir, &doomed) {
        Ok(()) => doomed.as_path(),
        Err(_) => dir,
    };
    for _ in 0..100 {
        if std::fs::remove_dir_all(target).is_ok() || !target.exists() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dead_process_s_folder_is_swept_a_live_one_and_others_are_not() {
        let temp = tempfile::tempdir().unwrap();
        let me = std::process::id();
        // No process has a pid this large (Linux's maximum is 2^22).
        let dead = temp.path().join("riffle-bench-99999999-abc");
        let mine = temp.path().join(format!("riffle-bench-{me}-abc"));
        let other = temp.path().join("riffle-benchmarks");
        for d in [&dead, &mine, &other] {
            std::fs::create_dir_all(d.join("cardsets")).unwrap();
        }
        assert_eq!(sweep(temp.path(), "riffle-bench-"), vec![dead.clone()]);
        assert!(!dead.exists() && mine.exists() && other.exists());
    }
}
