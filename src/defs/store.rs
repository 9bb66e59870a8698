//! Reading definition files safely and writing them atomically under a lock.
//!
//! A write takes an exclusive lock on a file in mcpctl's private state
//! directory named by a digest of the target's canonical path (so nothing
//! is left beside a project's `.mcp.json`), reads the current text *under
//! the lock*, applies the caller's edit, writes a temp file in the same
//! directory, fsyncs it, renames it over the original and fsyncs the
//! directory. A crash at any point leaves the old file or the new one,
//! whole, and the next write removes the temp file a killed one left;
//! concurrent writers serialise instead of losing updates. The file's mode
//! is kept, and a symlink is followed so the link stays a link.

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::{DirBuilderExt, FileTypeExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::error::DefsError;
use super::format;
use super::syntax::MAX_FILE_BYTES;
use crate::state_dir;

fn io_error(path: &Path, action: &'static str) -> impl FnOnce(std::io::Error) -> DefsError {
    let path = path.to_path_buf();
    move |source| DefsError::Io {
        path,
        action,
        source,
    }
}

/// Read a definition file's text; `None` when it does not exist.
///
/// Refuses files over [`MAX_FILE_BYTES`], text that is not UTF-8 and
/// anything but a regular file (a FIFO or a device would block or never
/// end), and reports symlink loops and permission problems with the path.
pub fn read_text(path: &Path) -> Result<Option<String>, DefsError> {
    // Non-blocking, so opening a FIFO with no writer returns at once and is
    // refused below instead of hanging; it changes nothing for regular files.
    let file = match OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_NONBLOCK)
        .open(path)
    {
        Ok(file) => file,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(io_error(path, "cannot open")(err)),
    };
    let meta = file.metadata().map_err(io_error(path, "cannot read"))?;
    if meta.is_dir() {
        return Err(DefsError::Invalid {
            path: path.to_path_buf(),
            message: "is a directory, not a definition file".to_string(),
            hint: "pass the file itself, e.g. --file DIR/servers.json".to_string(),
        });
    }
    if let Some(kind) = special_kind(meta.file_type()) {
        return Err(DefsError::Invalid {
            path: path.to_path_buf(),
            message: format!(
                "is {kind}, not a regular file; mcpctl reads definitions only from regular files"
            ),
            hint: "pass the definition file itself with --file PATH".to_string(),
        });
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(DefsError::TooLarge {
            path: path.to_path_buf(),
            size: meta.len(),
            limit: MAX_FILE_BYTES,
        });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io_error(path, "cannot read"))?;
    format::decode(path, bytes).map(Some)
}

/// What a non-regular, non-directory file is, in words; `None` for a
/// regular file.
pub(super) fn special_kind(kind: fs::FileType) -> Option<&'static str> {
    if kind.is_fifo() {
        Some("a named pipe (FIFO)")
    } else if kind.is_char_device() {
        Some("a character device")
    } else if kind.is_block_device() {
        Some("a block device")
    } else if kind.is_socket() {
        Some("a socket")
    } else if !kind.is_file() && !kind.is_dir() {
        Some("not a regular file")
    } else {
        None
    }
}

/// Where writes really go: the symlink's final target, so links survive.
fn write_target(path: &Path) -> Result<PathBuf, DefsError> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            fs::canonicalize(path).map_err(io_error(path, "cannot follow symlink"))
        }
        _ => Ok(path.to_path_buf()),
    }
}

/// The lock file for `target`: `<state dir>/locks/<digest of the canonical
/// path>.lock`, in the directory the supervisor uses (`MCPCTL_STATE_DIR`,
/// else `$XDG_RUNTIME_DIR/mcpctl`, …), created 0700. Keyed by the canonical
/// path, every spelling of one file (`a.json`, `./a.json`, a symlink) takes
/// the same lock.
fn lock_path(target: &Path) -> Result<PathBuf, DefsError> {
    let dir = state_dir::base_dir().join("locks");
    state_dir::make_private_dir(&dir)
        .map_err(io_error(&dir, "cannot create the lock directory"))?;
    let canonical = super::sources::canonical(target);
    let digest = crate::hash::fnv1a(canonical.as_os_str().as_encoded_bytes());
    Ok(dir.join(format!("{digest:016x}.lock")))
}

/// Remove the temp files that writes of `target` killed before their rename
/// left in `dir`. Called under the lock, so none of them is in use.
fn remove_stale_temps(target: &Path, dir: &Path) {
    let Some(name) = target.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return;
    };
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        if is_temp_of(&file_name.to_string_lossy(), &name) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// True for `.<name>.XXXXXX.tmp`, the names [`write_atomic`] gives its temp
/// files (six random alphanumerics), and nothing else.
fn is_temp_of(candidate: &str, name: &str) -> bool {
    candidate
        .strip_prefix('.')
        .and_then(|rest| rest.strip_prefix(name))
        .and_then(|rest| rest.strip_prefix('.'))
        .and_then(|rest| rest.strip_suffix(TEMP_SUFFIX))
        .is_some_and(|random| {
            random.len() == TEMP_RANDOM_LEN && random.bytes().all(|b| b.is_ascii_alphanumeric())
        })
}

/// The suffix of a write's temp file.
const TEMP_SUFFIX: &str = ".tmp";
/// The number of random characters in a temp file's name.
const TEMP_RANDOM_LEN: usize = 6;

/// Lock `path`, hand its current text (or `None`) to `edit`, and atomically
/// replace the file with what `edit` returns. `Ok(None)` from `edit` means
/// "no change": nothing is written.
pub fn modify<T>(
    path: &Path,
    edit: impl FnOnce(Option<&str>) -> Result<Option<(String, T)>, crate::Error>,
) -> Result<Option<T>, crate::Error> {
    let target = write_target(path)?;
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !dir.exists() {
        // Never writable by others, whatever the umask: `trust` would refuse it.
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o755)
            .create(&dir)
            .map_err(io_error(&dir, "cannot create directory"))?;
    }
    let lock_path = lock_path(&target)?;
    let lock_file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .mode(0o600)
        .open(&lock_path)
        .map_err(io_error(&lock_path, "cannot create the lock file"))?;
    lock_file.lock().map_err(io_error(&target, "cannot lock"))?;

    let current = read_text(&target)?;
    let Some((new_text, result)) = edit(current.as_deref())? else {
        return Ok(None);
    };
    let (mode, owner) = match fs::metadata(&target) {
        Ok(meta) => (
            meta.permissions().mode() & 0o7777,
            Some((meta.uid(), meta.gid())),
        ),
        Err(_) => (0o644 & !current_umask(), None),
    };
    remove_stale_temps(&target, &dir);
    write_atomic(&target, &dir, new_text.as_bytes(), mode, owner)?;
    drop(lock_file);
    Ok(Some(result))
}

/// [`modify`] for an edit of entries that must already be in `path`: a
/// file that vanished since it was read is an error, not a new file.
pub fn modify_existing<T>(
    path: &Path,
    edit: impl FnOnce(&str) -> Result<Option<(String, T)>, crate::Error>,
) -> Result<Option<T>, crate::Error> {
    modify(path, |current| match current {
        Some(text) => edit(text),
        None => Err(DefsError::Io {
            path: path.to_path_buf(),
            action: "cannot open",
            source: std::io::Error::from(std::io::ErrorKind::NotFound),
        }
        .into()),
    })
}

fn current_umask() -> u32 {
    use nix::sys::stat::{Mode, umask};
    let old = umask(Mode::from_bits_truncate(0o022));
    umask(old);
    old.bits()
}

/// Write `bytes` to a temp file in `dir`, fsync, rename over `target`, fsync `dir`.
/// The new file gets `mode` and, when the old file had one, its `owner`
/// (uid, gid): root editing a user's file leaves it the user's.
fn write_atomic(
    target: &Path,
    dir: &Path,
    bytes: &[u8],
    mode: u32,
    owner: Option<(u32, u32)>,
) -> Result<(), DefsError> {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut temp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(TEMP_SUFFIX)
        .rand_bytes(TEMP_RANDOM_LEN)
        .tempfile_in(dir)
        .map_err(io_error(target, "cannot create a temporary file beside"))?;
    let write = |file: &mut File| -> std::io::Result<()> {
        let half = bytes.len() / 2;
        file.write_all(&bytes[..half])?;
        fault::pause("mid-write");
        file.write_all(&bytes[half..])?;
        keep_owner(file, owner)?;
        file.set_permissions(fs::Permissions::from_mode(mode))?;
        file.sync_all()
    };
    write(temp.as_file_mut()).map_err(io_error(target, "cannot write"))?;
    fault::pause("before-rename");
    temp.persist(target)
        .map_err(|err| io_error(target, "cannot replace")(err.error))?;
    fault::pause("after-rename");
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(io_error(dir, "cannot sync directory"))?;
    Ok(())
}

/// Give the temp file the replaced file's owner. A uid that cannot be kept
/// is an error (the edit would hand the file to whoever runs mcpctl); the
/// group is kept when the system allows it.
fn keep_owner(file: &File, owner: Option<(u32, u32)>) -> std::io::Result<()> {
    let Some((uid, gid)) = owner else {
        return Ok(());
    };
    let meta = file.metadata()?;
    if (meta.uid(), meta.gid()) == (uid, gid) {
        return Ok(());
    }
    match std::os::unix::fs::fchown(file, Some(uid), Some(gid)) {
        Err(_) if meta.uid() == uid => {
            let _ = std::os::unix::fs::fchown(file, None, Some(gid));
            Ok(())
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_our_temp_names_are_stale_temps() {
        assert!(is_temp_of(".s.json.a1B2c3.tmp", "s.json"));
        assert!(!is_temp_of(".s.json.a1B2c3.tmp", "t.json"));
        assert!(!is_temp_of(".s.json.a1B2.tmp", "s.json"));
        assert!(!is_temp_of(".s.json.a1B2c-.tmp", "s.json"));
        assert!(!is_temp_of("s.json.a1B2c3.tmp", "s.json"));
        assert!(!is_temp_of(".s.json.a1B2c3.bak", "s.json"));
    }
}

#[cfg(debug_assertions)]
mod fault {
    //! Test-only pauses inside the write, so a test can SIGKILL the writer
    //! at a known point. Compiled only into debug builds (what `cargo test`
    //! runs); release binaries have no hook.

    /// When `MCPCTL_FAULT_PAUSE` names `stage`, announce it on stderr and hang.
    pub fn pause(stage: &str) {
        if std::env::var("MCPCTL_FAULT_PAUSE").as_deref() == Ok(stage) {
            eprintln!("fault-injection: paused at {stage}");
            std::thread::sleep(std::time::Duration::from_secs(60));
        }
    }
}

#[cfg(not(debug_assertions))]
mod fault {
    /// No-op in release builds.
    #[inline(always)]
    pub fn pause(_stage: &str) {}
}
