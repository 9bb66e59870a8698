//! The CLI side of the socket: connect, say Hello, send requests, and start
//! the daemon on first use.
//!
//! Blocking std I/O on purpose: a `status` is one connect, two small frames
//! and an exit, with no runtime to build. When nobody answers, the daemon
//! is spawned as `mcpctl supervisor run` in a new session, detached from
//! the terminal, with its output in `<digest>.log` next to the socket; its
//! lock file makes a racing second spawn exit harmlessly.

use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::SupervisorError;
use super::protocol::{self, Body, Op, Outcome, PROTOCOL_VERSION, Reply, Request};
use super::socket::Paths;
use crate::defs::Sources;

/// How long to wait for a freshly spawned daemon to answer once it has
/// exited (having lost the lock to another daemon, which should answer).
pub const SPAWN_WAIT: Duration = Duration::from_secs(10);

/// How long to wait for a spawned daemon that is still running: at boot it
/// first ends what a killed predecessor left (a grace period, then KILL),
/// which must not make the CLI give up on it.
pub const SPAWN_WAIT_RUNNING: Duration = Duration::from_secs(60);

/// How long to wait for a running daemon that does not answer to recreate
/// its socket (it checks every [`super::daemon::SOCKET_CHECK`]).
pub const DEAF_WAIT: Duration = Duration::from_secs(3);

/// A connected client, past Hello.
pub struct Client {
    stream: UnixStream,
    next_id: u64,
    /// The daemon's pid (from Hello).
    pub daemon_pid: u32,
    /// The socket it is connected to.
    pub paths: Paths,
}

impl Client {
    /// Connect to the supervisor of `sources`, spawning it if allowed.
    pub fn connect(sources: &Sources, spawn: bool) -> Result<Client, SupervisorError> {
        Self::connect_paths(&Paths::for_sources(sources), spawn)
    }

    /// Connect to the supervisor at `paths`, spawning it if allowed; a
    /// daemon that holds the lock but does not answer is never doubled.
    pub fn connect_paths(paths: &Paths, spawn: bool) -> Result<Client, SupervisorError> {
        let paths = paths.clone();
        paths
            .check_length()
            .map_err(|e| SupervisorError::io(&paths.socket, e))?;
        if let Some(c) = Self::try_connect(&paths)? {
            return Ok(c);
        }
        if paths.holder().is_some() {
            // A live daemon whose socket does not answer: give it the time
            // it takes to notice and recreate the socket, never spawn a
            // second one beside it. One that was dying (a `kill -9` just
            // sent) lets go of the lock, and a new one is started as usual.
            if let Some(c) = Self::wait_for_deaf(&paths)? {
                return Ok(c);
            }
        }
        if !spawn {
            return Err(SupervisorError::NotRunning {
                socket: paths.socket.clone(),
            });
        }
        let mut child = Some(spawn_daemon(&paths)?);
        let started = Instant::now();
        loop {
            if let Some(c) = Self::try_connect(&paths)? {
                if let Some(child) = child.take() {
                    reap_later(child);
                }
                return Ok(c);
            }
            if let Some(status) = child.as_mut().and_then(|c| c.try_wait().ok().flatten()) {
                child = None;
                // It lost the lock to a daemon started meanwhile (which
                // will answer), or it failed: say why, from its log.
                if paths.holder().is_none() && Self::try_connect(&paths)?.is_none() {
                    let tail = super::logs::tail(&paths.daemon_log, 3).join(" / ");
                    return Err(SupervisorError::Unreachable {
                        socket: paths.socket.clone(),
                        detail: format!(
                            "the supervisor exited at once ({status}); its log {} ends: {tail}",
                            paths.daemon_log.display()
                        ),
                    });
                }
            }
            let limit = if child.is_some() {
                SPAWN_WAIT_RUNNING
            } else {
                SPAWN_WAIT
            };
            if started.elapsed() > limit {
                return Err(SupervisorError::Unreachable {
                    socket: paths.socket.clone(),
                    detail: format!(
                        "the supervisor did not answer within {} s (log: {})",
                        limit.as_secs(),
                        paths.daemon_log.display()
                    ),
                });
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Poll a daemon that holds the lock but did not answer for as long
    /// as it takes to recreate its socket; `Ok(None)` when it let go of the
    /// lock instead (it was exiting), so the caller may start another.
    fn wait_for_deaf(paths: &Paths) -> Result<Option<Client>, SupervisorError> {
        let deadline = Instant::now() + DEAF_WAIT;
        loop {
            if let Some(c) = Self::try_connect(paths)? {
                return Ok(Some(c));
            }
            let Some(pid) = paths.holder() else {
                return Ok(None);
            };
            if Instant::now() > deadline {
                return Err(SupervisorError::Deaf {
                    socket: paths.socket.clone(),
                    pid,
                    lock: paths.lock.clone(),
                });
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Connect without spawning; `Ok(None)` when nobody answers (no socket,
    /// or a stale one).
    pub fn try_connect(paths: &Paths) -> Result<Option<Client>, SupervisorError> {
        crate::state_dir::check_private_dir(&paths.dir)
            .map_err(|e| SupervisorError::io(&paths.dir, e))?;
        let stream = match UnixStream::connect(&paths.socket) {
            Ok(s) => s,
            Err(_) => return Ok(None),
        };
        // Nothing is sent (not even Hello) to a process of another user
        // listening on our socket's name.
        match super::socket::peer_uid(&stream) {
            Some(uid) if uid == nix::unistd::geteuid().as_raw() => {}
            uid => {
                return Err(SupervisorError::Stranger {
                    socket: paths.socket.clone(),
                    uid,
                });
            }
        }
        let mut client = Client {
            stream,
            next_id: 1,
            daemon_pid: 0,
            paths: paths.clone(),
        };
        let unreachable = |detail: String| SupervisorError::Unreachable {
            socket: paths.socket.clone(),
            detail,
        };
        match client.request_raw(Op::Hello {
            version: PROTOCOL_VERSION,
            client: env!("CARGO_PKG_VERSION").into(),
        }) {
            Ok(Outcome::Result(Body::Hello { pid, .. })) => {
                client.daemon_pid = pid;
                Ok(Some(client))
            }
            Ok(Outcome::Error(e)) => Err(SupervisorError::Mismatch { message: e.message }),
            Ok(Outcome::Result(_)) => Err(unreachable("unexpected answer to Hello".into())),
            // The daemon is exiting (or a stale socket accepted then closed).
            Err(_) => Ok(None),
        }
    }

    fn request_raw(&mut self, op: Op) -> Result<Outcome, protocol::FrameError> {
        let id = self.next_id;
        self.next_id += 1;
        // A daemon that went away must give an error (exit 5), not SIGPIPE.
        let _sigpipe = crate::mcp::child::ignore_sigpipe();
        protocol::write_blocking(&mut self.stream, &Request { id, op })?;
        let reply: Reply = protocol::read_blocking(&mut self.stream)?;
        Ok(reply.outcome)
    }

    /// Send `op` and return its result body, or the daemon's error.
    pub fn request(&mut self, op: Op) -> Result<Body, SupervisorError> {
        match self.request_raw(op) {
            Ok(Outcome::Result(body)) => Ok(body),
            Ok(Outcome::Error(e)) => Err(SupervisorError::Remote(e)),
            Err(e) => Err(SupervisorError::Unreachable {
                socket: self.paths.socket.clone(),
                detail: e.to_string(),
            }),
        }
    }
}

impl Client {
    /// The connection past Hello and the next request id, for a caller
    /// that drives the socket itself (`serve`'s asynchronous talk).
    pub fn into_parts(self) -> (UnixStream, u64) {
        (self.stream, self.next_id)
    }

    /// Send an [`Op::Talk`] call and follow it to its final reply: each
    /// interim reply goes to `on_interim`, and the [`Op`] it returns (an
    /// [`Op::Answer`]) is sent back at once.
    pub fn talk(
        &mut self,
        call: protocol::CallRequest,
        mut on_interim: impl FnMut(Body) -> Option<Op>,
    ) -> Result<Body, SupervisorError> {
        let unreachable = |paths: &Paths, e: protocol::FrameError| SupervisorError::Unreachable {
            socket: paths.socket.clone(),
            detail: e.to_string(),
        };
        let id = self.next_id;
        self.next_id += 1;
        let _sigpipe = crate::mcp::child::ignore_sigpipe();
        protocol::write_blocking(
            &mut self.stream,
            &Request {
                id,
                op: Op::Talk(call),
            },
        )
        .map_err(|e| unreachable(&self.paths, e))?;
        loop {
            let reply: Reply = protocol::read_blocking(&mut self.stream)
                .map_err(|e| unreachable(&self.paths, e))?;
            match reply.outcome {
                Outcome::Result(
                    body @ (Body::Asked { .. }
                    | Body::Progress { .. }
                    | Body::Sampling { .. }
                    | Body::Log { .. }),
                ) if reply.id == id => {
                    if let Some(op) = on_interim(body) {
                        let answer = Request {
                            id: self.next_id,
                            op,
                        };
                        self.next_id += 1;
                        protocol::write_blocking(&mut self.stream, &answer)
                            .map_err(|e| unreachable(&self.paths, e))?;
                    }
                }
                Outcome::Result(body) => return Ok(body),
                Outcome::Error(e) => return Err(SupervisorError::Remote(e)),
            }
        }
    }
}

/// Start `mcpctl supervisor run` detached: a new session, stdin from
/// /dev/null, stdout and stderr to the daemon log, in the directory of the
/// first definitions file (or `/` before that directory exists).
pub fn spawn_daemon(paths: &Paths) -> Result<std::process::Child, SupervisorError> {
    paths
        .ensure_dir()
        .map_err(|e| SupervisorError::io(&paths.dir, e))?;
    let exe = crate::exe::main_exe().map_err(|e| SupervisorError::io(&paths.dir, e))?;
    use std::os::unix::fs::OpenOptionsExt;
    let log = std::fs::OpenOptions::new()
        .create(true)
        .mode(0o600)
        .append(true)
        .open(&paths.daemon_log)
        .map_err(|e| SupervisorError::io(&paths.daemon_log, e))?;
    let log2 = log
        .try_clone()
        .map_err(|e| SupervisorError::io(&paths.daemon_log, e))?;
    let mut cmd = Command::new(&exe);
    for source in &paths.sources {
        cmd.arg("--file").arg(source);
    }
    cmd.args(["supervisor", "run"])
        .stdin(Stdio::null())
        .stdout(log)
        .stderr(log2);
    let dir = paths
        .sources
        .first()
        .and_then(|p| p.parent())
        .filter(|d| d.is_dir())
        .unwrap_or(std::path::Path::new("/"));
    cmd.current_dir(dir);
    // SAFETY: setsid is async-signal-safe and touches no Rust state.
    unsafe {
        cmd.pre_exec(|| {
            nix::unistd::setsid().map_err(std::io::Error::from)?;
            Ok(())
        });
    }
    cmd.spawn().map_err(|e| SupervisorError::Unreachable {
        socket: paths.socket.clone(),
        detail: format!("cannot start `{} supervisor run`: {e}", exe.display()),
    })
}

/// Collect a spawned daemon's exit status without blocking: it runs on.
fn reap_later(child: std::process::Child) {
    std::thread::spawn(move || {
        let mut child = child;
        let _ = child.wait();
    });
}

/// Tell a running supervisor to re-read the definitions (after `add`,
/// `remove`, `enable`, `disable`). Best effort, never spawns one.
pub fn notify_reload(sources: &Sources) -> Option<String> {
    let paths = Paths::for_sources(sources);
    let mut client = Client::try_connect(&paths).ok()??;
    match client.request(Op::Reload) {
        Ok(_) => None,
        Err(e) => Some(e.to_string()),
    }
}
