//! Where mcpctl keeps its own files: one rule for every layer.
//!
//! The supervisor's sockets and logs, the definition files' write locks and
//! the OAuth token store all live under a directory chosen here, so an
//! operator's `MCPCTL_STATE_DIR` means the same thing to all of them. The
//! directory mcpctl uses is private (0700, ours): a `MCPCTL_STATE_DIR` that
//! exists and is shared (a `/tmp`, a team directory, another user's) is
//! never chmod-ed; a private subdirectory `mcpctl-<uid>` in it is used
//! instead, short so socket paths stay under the 108-byte limit. Another
//! user may plant that name first (a link, a directory of theirs): every
//! directory mcpctl keeps files in is opened without following a link and
//! checked (a directory, ours, 0700) and refused otherwise, never chmod-ed
//! ([`make_private_dir`], [`check_private_dir`]). This module imports
//! nothing of mcpctl's: `defs`, `auth` and `supervisor` all reach it
//! downward.

use std::fs::DirBuilder;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// The variable an operator sets to choose the state directory.
pub const ENV: &str = "MCPCTL_STATE_DIR";

/// The directory for run-time files (sockets, pid records, write locks):
/// `MCPCTL_STATE_DIR` (see [`operator_state_dir`]), else
/// `$XDG_RUNTIME_DIR/mcpctl`, else `<state dir>/mcpctl`, else
/// `/tmp/mcpctl-<uid>`.
pub fn base_dir() -> PathBuf {
    if let Some(dir) = operator_state_dir() {
        return dir;
    }
    if let Some(dir) = std::env::var_os("XDG_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir).join("mcpctl");
    }
    if let Some(dirs) = directories::BaseDirs::new()
        && let Some(state) = dirs.state_dir()
    {
        return state.join("mcpctl");
    }
    fallback_dir()
}

/// The directory for files that must outlive a session (the OAuth token
/// store): `MCPCTL_STATE_DIR` (see [`operator_state_dir`]), else
/// `<state dir>/mcpctl`, else `<local data dir>/mcpctl`, else
/// `/tmp/mcpctl-<uid>`. Unlike [`base_dir`] it never picks the runtime
/// directory, which is emptied at logout.
pub fn persistent_dir() -> PathBuf {
    if let Some(dir) = operator_state_dir() {
        return dir;
    }
    if let Some(dirs) = directories::BaseDirs::new() {
        if let Some(state) = dirs.state_dir() {
            return state.join("mcpctl");
        }
        return dirs.data_local_dir().join("mcpctl");
    }
    fallback_dir()
}

/// Where sandboxed servers keep their private `tmp` and data directories
/// (`<cache dir>/mcpctl/sandbox`, else `/tmp/mcpctl-sandbox-<uid>`):
/// outside the state directories on purpose, because a sandbox hides
/// those (the supervisor's socket, the OAuth tokens) from its server.
pub fn sandbox_dir() -> PathBuf {
    match directories::BaseDirs::new() {
        Some(dirs) => dirs.cache_dir().join("mcpctl").join("sandbox"),
        None => PathBuf::from(format!("/tmp/mcpctl-sandbox-{}", nix::unistd::geteuid())),
    }
}

/// Where packages fetched for sandboxed launches are kept
/// (`<cache dir>/mcpctl/packages`, else `/tmp/mcpctl-packages-<uid>`):
/// beside [`sandbox_dir`], outside the state directories a sandbox hides,
/// so a server can be granted its own package tree, read-only.
pub fn packages_dir() -> PathBuf {
    match directories::BaseDirs::new() {
        Some(dirs) => dirs.cache_dir().join("mcpctl").join("packages"),
        None => PathBuf::from(format!("/tmp/mcpctl-packages-{}", nix::unistd::geteuid())),
    }
}

/// The last resort when the user has no home to speak of.
fn fallback_dir() -> PathBuf {
    PathBuf::from(format!("/tmp/mcpctl-{}", nix::unistd::geteuid()))
}

/// `MCPCTL_STATE_DIR` as mcpctl uses it, `None` when unset. A directory
/// that does not exist yet is created later, 0700, and used as named; so
/// is one that already is private to us. A directory that exists and is
/// not (a shared `/tmp`, a team directory, another user's) is never
/// chmod-ed: mcpctl uses a private subdirectory `mcpctl-<uid>` in it
/// instead, short so socket paths stay under the limit.
pub fn operator_state_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(std::env::var_os(ENV).filter(|d| !d.is_empty())?);
    Some(match std::fs::metadata(&dir) {
        Ok(meta) if !is_private(&meta) => dir.join(format!("mcpctl-{}", nix::unistd::geteuid())),
        _ => dir,
    })
}

/// True for a directory owned by our effective uid with no group or other bits.
fn is_private(meta: &std::fs::Metadata) -> bool {
    meta.uid() == nix::unistd::geteuid().as_raw() && meta.mode() & 0o077 == 0
}

/// Create `dir` 0700 where it is missing and make sure it is private,
/// shared by the supervisor, the definition files' write locks, the token
/// store and `serve`'s token. Every directory from the state directory
/// ([`base_dir`] or [`persistent_dir`]) down to `dir` must be a real
/// directory (a symbolic link is never followed, save the directory the
/// operator named in `MCPCTL_STATE_DIR`), owned by our effective uid, with
/// no group or other bits: a `mcpctl-<uid>` another user planted in a
/// shared directory, as a link or as a directory of theirs, is refused with
/// a [`StateDirError`]. Nothing is ever chmod-ed: mcpctl creates its
/// directories 0700 and refuses the ones it did not.
pub fn make_private_dir(dir: &Path) -> std::io::Result<()> {
    let root = [base_dir(), persistent_dir()]
        .into_iter()
        .find(|root| dir.starts_with(root));
    let top = root.as_deref().unwrap_or(dir);
    if let Some(parent) = top.parent().filter(|p| !p.as_os_str().is_empty()) {
        DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(parent)?;
    }
    let mut at = top.to_path_buf();
    ensure_private(&at, true)?;
    for part in dir.strip_prefix(top).into_iter().flat_map(Path::components) {
        at.push(part);
        ensure_private(&at, true)?;
    }
    Ok(())
}

/// Check, creating nothing, that `dir` is private as [`make_private_dir`]
/// requires; a directory that does not exist passes (there is nothing in
/// it to trust). The supervisor's clients call it before they connect.
pub fn check_private_dir(dir: &Path) -> std::io::Result<()> {
    match ensure_private(dir, false) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

/// Create `path` 0700 when `create` and it is missing (its parent must
/// exist), then open it without following a final symbolic link and check
/// what was opened.
fn ensure_private(path: &Path, create: bool) -> std::io::Result<()> {
    if create {
        match DirBuilder::new().mode(0o700).create(path) {
            Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => return Err(e),
            _ => {}
        }
    }
    let named = std::env::var_os(ENV).is_some_and(|named| Path::new(&named) == path);
    let nofollow = if named { 0 } else { nix::libc::O_NOFOLLOW };
    let opened = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_DIRECTORY | nofollow | nix::libc::O_CLOEXEC)
        .open(path);
    let meta = match opened {
        Ok(file) => file.metadata()?,
        Err(e) => return Err(why_unopened(path, e)),
    };
    if is_private(&meta) {
        return Ok(());
    }
    let problem = if meta.uid() != nix::unistd::geteuid().as_raw() {
        Problem::Owner(meta.uid())
    } else {
        Problem::Open(meta.mode() & 0o7777)
    };
    Err(StateDirError::refuse(path, problem))
}

/// The error for a directory that would not open: what is there instead
/// when that is the reason (a link, a file, another user's directory).
fn why_unopened(path: &Path, error: std::io::Error) -> std::io::Error {
    let problem = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Problem::SymbolicLink,
        Ok(meta) if !meta.is_dir() => Problem::NotADirectory,
        Ok(meta) if meta.uid() != nix::unistd::geteuid().as_raw() => Problem::Owner(meta.uid()),
        _ => return error,
    };
    StateDirError::refuse(path, problem)
}

/// A directory mcpctl will not keep its sockets, locks or tokens in, and
/// why; carried inside the `std::io::Error` the callers already pass on
/// (kind `PermissionDenied`), with [`StateDirError::hint`] for the fix.
#[derive(Debug, thiserror::Error)]
#[error("{} {problem}", path.display())]
pub struct StateDirError {
    /// The directory refused.
    pub path: PathBuf,
    /// What is wrong with it.
    pub problem: Problem,
}

/// What is wrong with a directory where mcpctl's private one should be.
#[derive(Debug, thiserror::Error)]
pub enum Problem {
    /// A symbolic link (never followed: it may point anywhere).
    #[error(
        "is a symbolic link where mcpctl's private directory should be; mcpctl never follows one there (another user may have planted it)"
    )]
    SymbolicLink,
    /// Something other than a directory.
    #[error("is not a directory")]
    NotADirectory,
    /// A directory of another user's.
    #[error("belongs to uid {0}, not to you (uid {euid}); another user may have planted it", euid = nix::unistd::geteuid())]
    Owner(u32),
    /// Ours, but open to the group or others.
    #[error(
        "is open to others (mode {0:o}); mcpctl keeps its sockets and tokens only in a directory of mode 700 it created, and never chmods one it did not"
    )]
    Open(u32),
}

impl StateDirError {
    /// The `std::io::Error` carrying a refusal of `path`.
    fn refuse(path: &Path, problem: Problem) -> std::io::Error {
        let error = StateDirError {
            path: path.to_path_buf(),
            problem,
        };
        std::io::Error::new(std::io::ErrorKind::PermissionDenied, error)
    }

    /// What to do about it.
    pub fn hint(&self) -> String {
        let path = self.path.display();
        match self.problem {
            Problem::Open(_) => format!(
                "if {path} is yours, run `chmod 700 {path}`; or set {ENV} to a directory of your own"
            ),
            _ => format!(
                "remove {path} if it is yours to remove, or set {ENV} to a directory of your own (mode 700)"
            ),
        }
    }
}

/// The hint for `error` when it is a [`StateDirError`] (which path, what to
/// do), for the error types that carry a `std::io::Error` from
/// [`make_private_dir`].
pub fn refusal_hint(error: &std::io::Error) -> Option<String> {
    let refused = error.get_ref()?.downcast_ref::<StateDirError>()?;
    Some(refused.hint())
}
