//! Where mcpctl keeps its own files: one rule for every layer.
//!
//! The supervisor's sockets and logs, the definition files' write locks and
//! the OAuth token store all live under a directory chosen here, so an
//! operator's `MCPCTL_STATE_DIR` means the same thing to all of them. The
//! directory mcpctl uses is private (0700, ours): a `MCPCTL_STATE_DIR` that
//! exists and is shared (a `/tmp`, a team directory, another user's) is
//! never chmod-ed; a private subdirectory `mcpctl-<uid>` in it is used
//! instead, short so socket paths stay under the 108-byte limit. This
//! module imports nothing of mcpctl's: `defs`, `auth` and `supervisor` all
//! reach it downward.

use std::fs::DirBuilder;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
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

/// Create `dir` (and its parents) 0700, tightening it if it exists looser;
/// shared by the supervisor, the definition files' write locks, the token
/// store and `serve`'s token. The directory the operator named in
/// `MCPCTL_STATE_DIR` is never tightened: mcpctl did not create it (see
/// [`operator_state_dir`] for what is used instead).
pub fn make_private_dir(dir: &Path) -> std::io::Result<()> {
    DirBuilder::new().recursive(true).mode(0o700).create(dir)?;
    let meta = std::fs::metadata(dir)?;
    let named = std::env::var_os(ENV).is_some_and(|named| Path::new(&named) == dir);
    if is_private(&meta) || named {
        return Ok(());
    }
    if meta.uid() != nix::unistd::geteuid().as_raw() {
        // Another user's open directory where ours should be (say a
        // `mcpctl-<uid>` planted in a shared /tmp): never use it.
        return Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            format!(
                "{} belongs to another user and is open to others",
                dir.display()
            ),
        ));
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
}
