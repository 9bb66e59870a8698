//! Reading definition files safely and writing them atomically under a lock.
//!
//! A write takes an exclusive lock on a sidecar `.<name>.lock`, reads the
//! current text *under the lock*, applies the caller's edit, writes a temp
//! file in the same directory, fsyncs it, renames it over the original and
//! fsyncs the directory. A crash at any point leaves the old file or the new
//! one, whole; concurrent writers serialise instead of losing updates. The
//! file's mode is kept, and a symlink is followed so the link stays a link.

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::error::DefsError;
use super::format::{self, MAX_FILE_BYTES};

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
/// Refuses files over [`MAX_FILE_BYTES`] and text that is not UTF-8, and
/// reports symlink loops and permission problems with the path.
pub fn read_text(path: &Path) -> Result<Option<String>, DefsError> {
    let file = match File::open(path) {
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

/// Where writes really go: the symlink's final target, so links survive.
fn write_target(path: &Path) -> Result<PathBuf, DefsError> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            fs::canonicalize(path).map_err(io_error(path, "cannot follow symlink"))
        }
        _ => Ok(path.to_path_buf()),
    }
}

/// The sidecar lock file for `target`: `.<name>.lock` beside it.
fn lock_path(target: &Path) -> PathBuf {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "servers".to_string());
    target.with_file_name(format!(".{name}.lock"))
}

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
    let lock_file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .mode(0o600)
        .open(lock_path(&target))
        .map_err(io_error(&target, "cannot create lock file beside"))?;
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
    write_atomic(&target, &dir, new_text.as_bytes(), mode, owner)?;
    drop(lock_file);
    Ok(Some(result))
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
        .suffix(".tmp")
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
