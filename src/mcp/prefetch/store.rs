//! Where fetched packages are kept: `<cache>/mcpctl/packages/<key>`, one
//! directory per launcher and exact request (see [`key`]), private to the
//! user and granted read-only to the servers that run it. A directory is
//! filled once, under a lock (a `check` and the supervisor may start the
//! same server at once), and marked complete last: a second start costs
//! one look at the marker, and a tree a cut-short fetch left half written
//! is never run but emptied and fetched again.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nix::fcntl::{Flock, FlockArg};

/// The file written last into a complete tree.
const MARKER: &str = ".mcpctl-fetched";

/// How often a locked slot is looked at again while another fetch fills it.
const LOCK_POLL: Duration = Duration::from_millis(100);

/// One package tree, claimed: [`Slot::ready`] when it was complete already,
/// otherwise held under its lock until [`Slot::complete`].
#[derive(Debug)]
pub(super) struct Slot {
    /// The tree's directory.
    pub dir: PathBuf,
    /// True when the tree is complete and may be run.
    pub ready: bool,
    _lock: Option<Flock<File>>,
}

impl Slot {
    /// Mark the freshly filled tree complete (the lock is released on drop).
    pub fn complete(&mut self, what: &str) -> std::io::Result<()> {
        std::fs::write(self.dir.join(MARKER), format!("{what}\n"))?;
        self.ready = true;
        Ok(())
    }
}

/// The directory name for one request: a readable part (the package and
/// version, only `[A-Za-z0-9._-]`, at most 40 bytes) and a hash of the
/// whole request, which is what tells two requests apart. A floating spec
/// (no exact version) also carries the day, so it is fetched again at most
/// once a day, as `npx` and `uvx` would pick up a new release.
pub(super) fn key(launcher: &str, readable: &str, request: &str, floating: bool) -> String {
    let mut name: String = readable
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '-'
            }
        })
        .collect();
    name.truncate(40);
    let mut whole = format!("{launcher}\0{request}");
    if floating {
        let day = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() / 86_400);
        whole.push_str(&format!("\0day {day}"));
    }
    let hash = crate::hash::fnv1a(whole.as_bytes());
    format!("{launcher}-{name}-{hash:016x}")
}

/// Claim the tree for `key`: ready at once when complete, else locked
/// (waiting for another fetch of the same key until `deadline`) and
/// emptied, for the caller to fill.
pub(super) async fn claim(key: &str, deadline: Instant) -> std::io::Result<Slot> {
    let root = crate::state_dir::packages_dir();
    let dir = root.join(key);
    if complete(&dir) {
        return Ok(Slot {
            dir,
            ready: true,
            _lock: None,
        });
    }
    crate::state_dir::make_private_dir(&root)?;
    let lock = lock(&root.join(format!("{key}.lock")), deadline).await?;
    let ready = complete(&dir);
    if !ready && std::fs::symlink_metadata(&dir).is_ok() {
        std::fs::remove_dir_all(&dir)?;
    }
    Ok(Slot {
        dir,
        ready,
        _lock: Some(lock),
    })
}

fn complete(dir: &Path) -> bool {
    std::fs::symlink_metadata(dir.join(MARKER)).is_ok_and(|m| m.is_file())
}

/// An exclusive lock on `path` (created 0600, never through a link),
/// polled until `deadline`.
async fn lock(path: &Path, deadline: Instant) -> std::io::Result<Flock<File>> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .mode(0o600)
        .custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_CLOEXEC)
        .open(path)?;
    loop {
        match Flock::lock(file, FlockArg::LockExclusiveNonblock) {
            Ok(locked) => return Ok(locked),
            Err((back, errno)) if errno == nix::errno::Errno::EWOULDBLOCK => {
                if Instant::now() >= deadline {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::TimedOut,
                        "another mcpctl is still fetching the same package",
                    ));
                }
                file = back;
                tokio::time::sleep(LOCK_POLL).await;
            }
            Err((_, errno)) => return Err(errno.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::key;

    #[test]
    fn keys_are_safe_names_that_tell_requests_apart() {
        let a = key("npm", "@scope/pkg@1.0.0", "a", false);
        assert!(a.starts_with("npm--scope-pkg-1.0.0-"), "{a}");
        assert_ne!(a, key("npm", "@scope/pkg@1.0.0", "b", false));
        assert_ne!(a, key("npm", "@scope/pkg@1.0.0", "a", true));
        let hostile = key("npm", "../../etc/\0passwd\u{202e}", "x", false);
        assert!(hostile.starts_with("npm-"), "{hostile}");
        assert!(
            hostile
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        );
    }
}
