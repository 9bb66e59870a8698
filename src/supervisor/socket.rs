//! Where the supervisor lives on disk and who may talk to it.
//!
//! One supervisor per set of definition sources: its files are named by a
//! digest of the sources' canonical paths (sorted, so order and spelling
//! do not matter), under `MCPCTL_STATE_DIR`, else
//! `$XDG_RUNTIME_DIR/mcpctl`, else the user's state dir (a private
//! `mcpctl-<uid>` inside a shared `MCPCTL_STATE_DIR`; see [`crate::state_dir`]). The directory is
//! 0700 and the socket 0600 (created under a umask, never chmod-ed after
//! the fact only); peers with another uid are refused; a lock file makes
//! the daemon single-instance, and a socket nobody answers on is stale.

use std::fs::{File, OpenOptions};
use std::os::unix::fs::OpenOptionsExt;
use std::path::PathBuf;

use nix::fcntl::{Flock, FlockArg};
use nix::sys::stat::{Mode, umask};

use crate::defs::Sources;
use crate::defs::sources::canonical;
use crate::state_dir::{base_dir, make_private_dir};

/// The files belonging to one supervisor.
#[derive(Debug, Clone)]
pub struct Paths {
    /// The directory (0700).
    pub dir: PathBuf,
    /// The Unix socket (0600).
    pub socket: PathBuf,
    /// Held with `flock` by the running daemon.
    pub lock: PathBuf,
    /// Pids and start times of the servers it runs (orphan cleanup).
    pub records: PathBuf,
    /// The daemon's own log when detached.
    pub daemon_log: PathBuf,
    /// Per-server stderr logs.
    pub logs: PathBuf,
    /// The canonical definition sources the digest is made from.
    pub sources: Vec<PathBuf>,
}

impl Paths {
    /// The paths for `sources`.
    pub fn for_sources(sources: &Sources) -> Paths {
        let canon: Vec<PathBuf> = sources.files.iter().map(|p| canonical(p)).collect();
        // The identity is the set of files, not the order they were named in.
        let mut sorted = canon.clone();
        sorted.sort();
        sorted.dedup();
        let mut key = Vec::new();
        for p in &sorted {
            key.extend_from_slice(p.as_os_str().as_encoded_bytes());
            key.push(0);
        }
        let digest = format!("{:016x}", crate::hash::fnv1a(&key));
        let dir = base_dir();
        Paths {
            socket: dir.join(format!("{digest}.sock")),
            lock: dir.join(format!("{digest}.lock")),
            records: dir.join(format!("{digest}.pids")),
            daemon_log: dir.join(format!("{digest}.log")),
            logs: dir.join(format!("{digest}.logs")),
            dir,
            sources: canon,
        }
    }

    /// Unix socket paths are limited to 108 bytes (with the NUL).
    pub fn check_length(&self) -> std::io::Result<()> {
        let len = self.socket.as_os_str().len();
        if len > 107 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!(
                    "the socket path is {len} bytes, over the 107-byte limit of Unix sockets; set MCPCTL_STATE_DIR to a shorter directory"
                ),
            ));
        }
        Ok(())
    }

    /// Create the directory 0700 (and tighten it if it exists with looser
    /// bits and is ours).
    pub fn ensure_dir(&self) -> std::io::Result<()> {
        make_private_dir(&self.dir)?;
        make_private_dir(&self.logs)
    }

    /// Take the single-instance lock, or `None` if another daemon holds it,
    /// and write our pid into the lock file (for [`Paths::holder`]). A
    /// client's brief probe is waited out for a moment.
    pub fn try_lock(&self) -> std::io::Result<Option<Flock<File>>> {
        let mut file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .mode(0o600)
            .open(&self.lock)?;
        for _ in 0..10 {
            match Flock::lock(file, FlockArg::LockExclusiveNonblock) {
                Ok(lock) => {
                    use std::io::Write;
                    lock.set_len(0)?;
                    (&*lock).write_all(std::process::id().to_string().as_bytes())?;
                    return Ok(Some(lock));
                }
                Err((f, nix::errno::Errno::EWOULDBLOCK)) => file = f,
                Err((_, e)) => return Err(std::io::Error::from(e)),
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        Ok(None)
    }

    /// `Some` when a daemon holds the lock, with the pid its lock file
    /// names (`None` inside when the file holds no usable pid: empty,
    /// unparsable, 0 or 1, which must never reach a `kill` hint); `None`
    /// when no daemon holds it. Never creates the lock file.
    pub fn holder(&self) -> Option<Option<u32>> {
        let file = File::open(&self.lock).ok()?;
        match Flock::lock(file, FlockArg::LockSharedNonblock) {
            Ok(_free) => None,
            Err((_, nix::errno::Errno::EWOULDBLOCK)) => Some(
                std::fs::read_to_string(&self.lock)
                    .ok()
                    .and_then(|s| s.trim().parse::<u32>().ok())
                    .filter(|pid| *pid > 1 && i32::try_from(*pid).is_ok()),
            ),
            Err(_) => None,
        }
    }

    /// The device and inode of the socket file, to notice it being
    /// deleted or replaced under the daemon.
    pub fn socket_identity(&self) -> Option<(u64, u64)> {
        use std::os::unix::fs::{FileTypeExt, MetadataExt};
        let meta = std::fs::symlink_metadata(&self.socket).ok()?;
        meta.file_type()
            .is_socket()
            .then(|| (meta.dev(), meta.ino()))
    }

    /// Bind the socket 0600 under a umask, replacing a stale one. Call only
    /// while holding the lock (so any existing socket file is stale).
    pub fn bind(&self) -> std::io::Result<tokio::net::UnixListener> {
        self.check_length()?;
        match std::fs::remove_file(&self.socket) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        let old = umask(Mode::from_bits_truncate(0o177));
        let bound = std::os::unix::net::UnixListener::bind(&self.socket);
        umask(old);
        let listener = bound?;
        listener.set_nonblocking(true)?;
        tokio::net::UnixListener::from_std(listener)
    }
}

/// The uid of the process at the other end of a Unix socket, as the
/// kernel recorded it when the connection was made (`SO_PEERCRED`); both
/// ends check it, the daemon of its clients and a client of its daemon.
pub fn peer_uid(stream: &impl std::os::fd::AsFd) -> Option<u32> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    let uid = nix::sys::socket::getsockopt(stream, nix::sys::socket::sockopt::PeerCredentials)
        .ok()
        .map(|cred| cred.uid());
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    let uid = nix::unistd::getpeereid(stream)
        .ok()
        .map(|(uid, _)| uid.as_raw());
    uid
}

/// True when the peer of `stream` runs as our own effective uid.
pub fn peer_is_us(stream: &impl std::os::fd::AsFd) -> bool {
    peer_uid(stream) == Some(nix::unistd::geteuid().as_raw())
}
