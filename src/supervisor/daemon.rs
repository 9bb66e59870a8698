//! The daemon: the accept loop, request dispatch, reload, and shutdown.
//!
//! `run` takes the single-instance lock, ends servers orphaned by a
//! previous daemon (from its records), binds the socket, starts
//! `autostart` servers, and serves until `Shutdown`, SIGTERM or SIGINT,
//! when it stops every server, removes its socket and returns.
//!
//! The definitions are re-read when the files change (see [`super::watch`]),
//! on `reload` and SIGHUP, and before every `start` and `restart`, so a
//! launch always uses what the file says now. A socket deleted or replaced
//! under the daemon is noticed within [`SOCKET_CHECK`] and recreated.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;

use futures::future::join_all;
use indexmap::IndexMap;
use tokio::net::UnixStream;
use tokio::net::unix::{OwnedReadHalf, OwnedWriteHalf};
use tokio::sync::Notify;

use super::SupervisorError;
use super::owner::{Owner, Shared};
use super::protocol::{
    self, Body, ErrorCode, FrameError, ItemResult, Op, Outcome, PROTOCOL_VERSION, Reply, Request,
    Target, WireError,
};
use super::records;
use super::relay;
use super::socket::{self, Paths};
use super::watch::FileWatch;
use crate::defs::catalog::RefusedEntry;
use crate::defs::{Catalog, Sources};

/// How often the daemon checks that its socket file is still its own.
pub const SOCKET_CHECK: std::time::Duration = std::time::Duration::from_secs(1);

/// The running daemon's shared state.
pub struct Daemon {
    paths: Paths,
    sources: Sources,
    owners: std::sync::Mutex<IndexMap<String, Arc<Owner>>>,
    shared: Arc<Shared>,
    started: Instant,
    shutdown: Notify,
    load_error: std::sync::Mutex<Option<String>>,
    refused: std::sync::Mutex<Vec<RefusedEntry>>,
}

/// Run the daemon in this process until it is told to stop.
pub fn run(sources: Sources) -> Result<(), SupervisorError> {
    // A server that exits while we write to its stdin (or a client that
    // hangs up mid-reply) must cost an EPIPE, never the daemon itself.
    std::mem::forget(crate::mcp::child::ignore_sigpipe());
    let paths = Paths::for_sources(&sources);
    paths
        .ensure_dir()
        .map_err(|e| SupervisorError::io(&paths.dir, e))?;
    let Some(lock) = paths
        .try_lock()
        .map_err(|e| SupervisorError::io(&paths.lock, e))?
    else {
        return Err(SupervisorError::AlreadyRunning {
            socket: paths.socket.clone(),
        });
    };
    let orphans = records::load(&paths.records);
    if !orphans.is_empty() {
        let ended = records::end_orphans(&orphans, super::owner::STOP_GRACE);
        if !ended.is_empty() {
            crate::output::note(format!(
                "mcpctl supervisor: ended servers left by a previous supervisor: {}",
                ended.join(", ")
            ));
        }
        records::save(&paths.records, &[]);
    }
    crate::mcp::child::become_subreaper();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| SupervisorError::io(&paths.dir, e))?;
    let result = runtime.block_on(serve(paths.clone(), sources));
    let _ = std::fs::remove_file(&paths.socket);
    drop(lock);
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    result
}

/// Serve on the socket until `Shutdown`, SIGTERM or SIGINT, then stop
/// every server.
async fn serve(paths: Paths, sources: Sources) -> Result<(), SupervisorError> {
    let mut listener = paths
        .bind()
        .map_err(|e| SupervisorError::io(&paths.socket, e))?;
    let mut bound = paths.socket_identity();
    let daemon = Daemon::new(paths, sources);
    if let Err(e) = daemon.reload().await {
        crate::output::note(format!(
            "mcpctl supervisor: cannot read the definitions: {}",
            e.message
        ));
    }
    crate::output::note(format!(
        "mcpctl supervisor: pid {} listening on {}",
        std::process::id(),
        daemon.paths.socket.display()
    ));
    daemon.start_autostart();
    daemon.watch_definitions();
    let mut socket_check = tokio::time::interval(SOCKET_CHECK);
    socket_check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut signals = Signals::new().map_err(|e| SupervisorError::io(&daemon.paths.socket, e))?;
    loop {
        tokio::select! {
            _ = signals.hup.recv() => {
                // SIGHUP re-reads the definitions, like `mcpctl` writes do.
                if let Err(e) = daemon.reload().await {
                    crate::output::note(format!("mcpctl supervisor: reload failed: {}", e.message));
                }
            }
            accepted = listener.accept() => {
                if let Ok((stream, _)) = accepted {
                    let d = daemon.clone();
                    tokio::spawn(async move { d.connection(stream).await });
                }
            }
            _ = socket_check.tick() => daemon.keep_socket(&mut listener, &mut bound),
            _ = signals.term.recv() => break,
            _ = signals.int.recv() => break,
            _ = daemon.shutdown.notified() => break,
        }
    }
    crate::output::note("mcpctl supervisor: stopping every server");
    let _ = std::fs::remove_file(&daemon.paths.socket);
    join_all(
        daemon
            .owners()
            .into_iter()
            .map(|o| async move { o.stop().await }),
    )
    .await;
    Ok(())
}

/// The signals that end the daemon (SIGTERM, SIGINT) or reload it (SIGHUP).
struct Signals {
    term: tokio::signal::unix::Signal,
    int: tokio::signal::unix::Signal,
    hup: tokio::signal::unix::Signal,
}

impl Signals {
    fn new() -> std::io::Result<Signals> {
        use tokio::signal::unix::{SignalKind, signal};
        Ok(Signals {
            term: signal(SignalKind::terminate())?,
            int: signal(SignalKind::interrupt())?,
            hup: signal(SignalKind::hangup())?,
        })
    }
}

/// Reload whenever the watched files change, until the daemon ends.
async fn watch_files(daemon: Arc<Daemon>, mut watch: FileWatch) {
    while watch.changed().await.is_some() {
        // Directories may have appeared: watch them before reading, so a
        // file created meanwhile is not missed.
        watch.rearm();
        if let Err(e) = daemon.reload().await {
            eprintln!("mcpctl supervisor: reload failed: {}", e.message);
        }
    }
}

impl Daemon {
    /// A daemon serving `paths` from `sources`, with no servers yet.
    fn new(paths: Paths, sources: Sources) -> Arc<Daemon> {
        let shared = Arc::new(Shared::new(paths.logs.clone(), paths.records.clone()));
        Arc::new(Daemon {
            paths,
            sources,
            owners: std::sync::Mutex::new(IndexMap::new()),
            shared,
            started: Instant::now(),
            shutdown: Notify::new(),
            load_error: std::sync::Mutex::new(None),
            refused: std::sync::Mutex::new(Vec::new()),
        })
    }

    /// Start every enabled `autostart` server whose definition file may
    /// be launched from, each in its own task.
    fn start_autostart(&self) {
        let autostart: Vec<Arc<Owner>> = self
            .owners()
            .into_iter()
            .filter(|o| {
                let d = o.def();
                d.autostart && d.enabled
            })
            .filter(|o| match launchable(o, allow_insecure_by_env()) {
                Ok(()) => true,
                Err(e) => {
                    crate::output::note(format!(
                        "mcpctl supervisor: not starting `{}`: {}",
                        o.status().name,
                        e.message
                    ));
                    false
                }
            })
            .collect();
        for owner in autostart {
            tokio::spawn(async move {
                let _ = owner.start().await;
            });
        }
    }

    /// Reload whenever a definition file changes (see [`watch_files`]).
    fn watch_definitions(self: &Arc<Self>) {
        match FileWatch::new(self.paths.sources.clone()) {
            Ok(watch) => {
                tokio::spawn(watch_files(self.clone(), watch));
            }
            Err(e) => eprintln!(
                "mcpctl supervisor: cannot watch the definition files ({e}); run `mcpctl supervisor reload` after editing them"
            ),
        }
    }

    /// Recreate the socket when it was deleted or replaced under us (we
    /// hold the lock, so the path is ours).
    fn keep_socket(&self, listener: &mut tokio::net::UnixListener, bound: &mut Option<(u64, u64)>) {
        if self.paths.socket_identity() == *bound {
            return;
        }
        match self.paths.bind() {
            Ok(fresh) => {
                *listener = fresh;
                *bound = self.paths.socket_identity();
                eprintln!(
                    "mcpctl supervisor: the socket {} was deleted or replaced; recreated it",
                    self.paths.socket.display()
                );
            }
            Err(e) => eprintln!(
                "mcpctl supervisor: the socket {} was deleted or replaced and cannot be recreated: {e}",
                self.paths.socket.display()
            ),
        }
    }

    fn owners(&self) -> Vec<Arc<Owner>> {
        self.owners
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .cloned()
            .collect()
    }

    fn owner(&self, name: &str) -> Result<Arc<Owner>, WireError> {
        self.owners
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(name)
            .cloned()
            .ok_or_else(|| {
                let refused = self.refused.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(entry) = refused.iter().find(|r| r.name == name) {
                    let err = entry.error();
                    let mut wire = WireError::new(ErrorCode::Invalid, err.to_string());
                    wire.hint = crate::error::Diagnostic::hint(&err);
                    return wire;
                }
                let problem = self
                    .load_error
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .clone();
                let hint = match problem {
                    Some(p) => format!("the supervisor could not read the definitions: {p}"),
                    None => "list them with `mcpctl list`".into(),
                };
                WireError::new(ErrorCode::NotFound, format!("no server named `{name}`")).hint(hint)
            })
    }

    /// Re-read the definitions: add new servers, stop removed or disabled
    /// running ones, mark running ones whose definition changed.
    async fn reload(&self) -> Result<(), WireError> {
        let loaded = Catalog::load(&self.sources);
        *self.load_error.lock().unwrap_or_else(|e| e.into_inner()) =
            loaded.as_ref().err().map(ToString::to_string);
        let catalog = loaded.map_err(|e| {
            WireError::new(
                ErrorCode::Invalid,
                format!("cannot read the definitions: {e}"),
            )
            .hint("fix the file (it is re-read when saved); running servers are left as they are")
        })?;
        *self.refused.lock().unwrap_or_else(|e| e.into_inner()) = catalog.refused().to_vec();
        let mut to_stop = Vec::new();
        {
            let mut owners = self.owners.lock().unwrap_or_else(|e| e.into_inner());
            for (name, owner) in owners.iter() {
                let def = catalog.servers().iter().find(|d| &d.name == name).cloned();
                if owner.update(def) {
                    to_stop.push(owner.clone());
                }
            }
            for def in catalog.servers() {
                if !owners.contains_key(&def.name) {
                    owners.insert(
                        def.name.clone(),
                        Owner::new(def.clone(), self.shared.clone()),
                    );
                }
            }
        }
        join_all(to_stop.iter().map(|o| o.stop())).await;
        // Forget removed servers once they are stopped.
        let mut owners = self.owners.lock().unwrap_or_else(|e| e.into_inner());
        owners
            .retain(|name, o| catalog.servers().iter().any(|d| &d.name == name) || o.is_running());
        Ok(())
    }

    /// One client: its uid checked, Hello exchanged, then its requests
    /// answered in order until it hangs up.
    async fn connection(self: Arc<Self>, mut stream: UnixStream) {
        if !peer_allowed(&stream) || !greet(&mut stream).await {
            return;
        }
        let (rd, wr) = stream.into_split();
        self.requests(wr, read_frames(rd)).await;
    }

    /// Answer each request read from `frames` on `wr`, in order, until the
    /// client hangs up, sends an oversized frame or asks for shutdown. A
    /// call relays its interim frames on `wr` itself and may read frames
    /// that are not its own; those wait in a stash for this loop.
    async fn requests(&self, mut wr: OwnedWriteHalf, mut frames: relay::Frames) {
        let mut stash = VecDeque::new();
        loop {
            let next = match stash.pop_front() {
                Some(frame) => Some(frame),
                None => frames.recv().await,
            };
            let request = match next {
                Some(Ok(bytes)) => match decode(&bytes) {
                    Ok(request) => request,
                    Err(reply) => {
                        if protocol::write_async(&mut wr, &reply).await.is_err() {
                            return;
                        }
                        continue;
                    }
                },
                Some(Err(FrameError::TooLarge(n))) => {
                    let msg = format!(
                        "frame of {n} bytes is over the {} byte cap",
                        protocol::MAX_FRAME
                    );
                    let _ =
                        protocol::write_async(&mut wr, &refusal(0, ErrorCode::Invalid, &msg)).await;
                    return;
                }
                _ => return,
            };
            let (id, shutdown) = (request.id, matches!(request.op, Op::Shutdown));
            let catalog = matches!(request.op, Op::Tools { .. } | Op::Catalog { .. });
            let Some(result) = self
                .dispatch(request, &mut wr, &mut frames, &mut stash)
                .await
            else {
                continue;
            };
            let reply = Reply {
                id,
                outcome: match result {
                    Ok(body) => Outcome::Result(body),
                    Err(e) => Outcome::Error(e),
                },
            };
            let written = protocol::write_async(&mut wr, &reply).await;
            if catalog {
                // The answer parsed a whole catalog; give that memory back.
                drop(reply);
                tokio::task::spawn_blocking(super::memory::release);
            }
            if shutdown {
                self.shutdown.notify_one();
                return;
            }
            if written.is_err() {
                return;
            }
        }
    }

    /// The result of one request; `None` for an answer that came after
    /// its call ended (it gets no reply). Calls go through [`relay::call`],
    /// which relays a `talk`'s questions and progress on `wr`.
    async fn dispatch(
        &self,
        request: Request,
        wr: &mut OwnedWriteHalf,
        frames: &mut relay::Frames,
        stash: &mut VecDeque<Result<Vec<u8>, FrameError>>,
    ) -> Option<Result<Body, WireError>> {
        let talk = matches!(request.op, Op::Talk(_));
        Some(match request.op {
            Op::Answer { .. } | Op::Refuse { .. } => return None,
            Op::Call(req) | Op::Talk(req) => match self.owner(&req.name) {
                Ok(owner) => relay::call(owner, request.id, req, talk, wr, frames, stash).await,
                Err(e) => Err(e),
            },
            op => self.handle(op).await,
        })
    }

    fn names(&self, target: &Target, only_running: bool) -> Vec<String> {
        if target.all {
            self.owners()
                .iter()
                .filter(|o| {
                    if only_running {
                        o.is_running()
                    } else {
                        o.def().enabled
                    }
                })
                .map(|o| o.status().name)
                .collect()
        } else {
            target.names.clone()
        }
    }

    /// `start` (or `restart`) of `target`: from what the files say now,
    /// hand edits included, with the asking CLI's `${VAR}` values, refusing
    /// a definition file others could change unless the CLI allowed it.
    async fn launch(&self, target: Target, restart: bool) -> Result<Body, WireError> {
        self.reload().await?;
        let env = target.env.clone().map(Arc::new);
        let allow = target.allow_insecure_file;
        Ok(self
            .batch(target, restart, |o| {
                o.set_launch_env(env.clone());
                o.set_allow_insecure_file(allow);
                async move {
                    launchable(&o, allow)?;
                    if restart {
                        o.restart().await
                    } else {
                        o.start().await
                    }
                }
            })
            .await)
    }

    async fn batch<F, Fut>(&self, target: Target, only_running: bool, f: F) -> Body
    where
        F: Fn(Arc<Owner>) -> Fut,
        Fut: std::future::Future<Output = Result<super::protocol::ServerStatus, WireError>>,
    {
        let names = self.names(&target, only_running);
        let results = join_all(names.into_iter().map(|name| {
            let owner = self.owner(&name);
            let fut = owner.clone().map(&f);
            async move {
                match fut {
                    Ok(fut) => match fut.await {
                        Ok(status) => ItemResult {
                            name,
                            status: Some(status),
                            error: None,
                        },
                        Err(e) => ItemResult {
                            name,
                            status: None,
                            error: Some(e),
                        },
                    },
                    Err(e) => ItemResult {
                        name,
                        status: None,
                        error: Some(e),
                    },
                }
            }
        }))
        .await;
        Body::Batch { results }
    }

    async fn handle(&self, op: Op) -> Result<Body, WireError> {
        match op {
            Op::Hello { .. } => Err(WireError::new(
                ErrorCode::Invalid,
                "Hello was already exchanged",
            )),
            Op::Daemon => {
                let owners = self.owners();
                Ok(Body::Daemon {
                    pid: std::process::id(),
                    uptime_secs: self.started.elapsed().as_secs(),
                    socket: self.paths.socket.display().to_string(),
                    sources: self
                        .paths
                        .sources
                        .iter()
                        .map(|p| p.display().to_string())
                        .collect(),
                    version: env!("CARGO_PKG_VERSION").into(),
                    servers: owners.len(),
                    running: owners.iter().filter(|o| o.is_running()).count(),
                })
            }
            Op::Status { names } => {
                let servers = if names.is_empty() {
                    self.owners().iter().map(|o| o.status()).collect()
                } else {
                    names
                        .iter()
                        .map(|n| self.owner(n).map(|o| o.status()))
                        .collect::<Result<Vec<_>, _>>()?
                };
                let load_error = self
                    .load_error
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .clone();
                Ok(Body::Servers {
                    servers,
                    load_error,
                })
            }
            Op::Start(t) => self.launch(t, false).await,
            Op::Stop(t) => Ok(self.batch(t, true, |o| async move { o.stop().await }).await),
            Op::Restart(t) => self.launch(t, true).await,
            Op::Refresh(t) => Ok(self
                .batch(t, true, |o| async move { o.refresh().await })
                .await),
            Op::Tools { name } => self.owner(&name)?.tools(false),
            Op::Catalog { name } => self.owner(&name)?.tools(true),
            Op::Forward(req) => self.owner(&req.name)?.forward(req).await,
            Op::Call(req) | Op::Talk(req) => {
                self.owner(&req.name)?.call(req, Default::default()).await
            }
            Op::Answer { .. } | Op::Refuse { .. } => Err(WireError::new(
                ErrorCode::Invalid,
                "an answer belongs to a call in progress",
            )),
            Op::Logs { name, lines } => {
                let owner = self.owner(&name)?;
                let path = owner.log_path();
                Ok(Body::Logs {
                    lines: super::logs::tail(&path, lines),
                    path: path.display().to_string(),
                })
            }
            Op::Reload => {
                self.reload().await?;
                Ok(Body::Done)
            }
            Op::Shutdown => Ok(Body::Done),
        }
    }
}

/// True when the client runs as our own user (or root); anyone else is
/// noted and dropped unanswered.
fn peer_allowed(stream: &UnixStream) -> bool {
    if socket::peer_is_us(stream) {
        return true;
    }
    let uid = socket::peer_uid(stream).map(|uid| uid.to_string());
    crate::output::note(format!(
        "mcpctl supervisor: refused a connection from uid {}",
        uid.as_deref().unwrap_or("unknown")
    ));
    false
}

/// Exchange Hello: the client's first frame must be one, of our protocol
/// version. False (after telling the client why, when it can be told)
/// when the connection is to end.
async fn greet(stream: &mut UnixStream) -> bool {
    let hello = match protocol::read_async(stream).await {
        Ok(bytes) => serde_json::from_slice::<Request>(&bytes).ok(),
        Err(_) => return false,
    };
    let (reply, welcome) = hello_reply(hello);
    protocol::write_async(stream, &reply).await.is_ok() && welcome
}

/// The answer to a client's first request, and whether it was a Hello
/// this daemon speaks.
fn hello_reply(hello: Option<Request>) -> (Reply, bool) {
    let Some(hello) = hello else {
        let msg = "the first frame must be a Hello request";
        return (refusal(0, ErrorCode::Invalid, msg), false);
    };
    match hello.op {
        Op::Hello { version, .. } if version == PROTOCOL_VERSION => {
            let body = Body::Hello {
                version: PROTOCOL_VERSION,
                daemon: env!("CARGO_PKG_VERSION").into(),
                pid: std::process::id(),
            };
            let outcome = Outcome::Result(body);
            (
                Reply {
                    id: hello.id,
                    outcome,
                },
                true,
            )
        }
        Op::Hello { version, .. } => {
            let msg = format!(
                "protocol mismatch: the client speaks version {version}, this supervisor speaks {PROTOCOL_VERSION}"
            );
            let mut reply = refusal(hello.id, ErrorCode::Invalid, &msg);
            if let Outcome::Error(e) = &mut reply.outcome {
                e.hint = Some("restart the supervisor: `mcpctl supervisor stop` (the next command starts the new one)".into());
            }
            (reply, false)
        }
        _ => {
            let msg = "the first request must be Hello";
            (refusal(hello.id, ErrorCode::Invalid, msg), false)
        }
    }
}

/// Read the client's frames in a task of their own, so that a call can
/// notice its caller going away (and relay answers) while it runs.
fn read_frames(mut rd: OwnedReadHalf) -> relay::Frames {
    let (tx, frames) = tokio::sync::mpsc::channel(8);
    tokio::spawn(async move {
        loop {
            let frame = protocol::read_async(&mut rd).await;
            let end = frame.is_err();
            if tx.send(frame).await.is_err() || end {
                return;
            }
        }
    });
    frames
}

/// A frame as a request, or the refusal to answer it with (naming its
/// `id` when the frame is JSON that has one).
fn decode(bytes: &[u8]) -> Result<Request, Box<Reply>> {
    serde_json::from_slice(bytes).map_err(|e| {
        let id = serde_json::from_slice::<serde_json::Value>(bytes)
            .ok()
            .and_then(|v| v.get("id").and_then(|i| i.as_u64()))
            .unwrap_or(0);
        Box::new(refusal(
            id,
            ErrorCode::Invalid,
            &format!("malformed request: {e}"),
        ))
    })
}

/// Refuse to launch a server whose definition file another user could
/// change (see [`crate::defs::trust`]), unless the request overrides it.
fn launchable(owner: &Owner, allow_insecure_file: bool) -> Result<(), WireError> {
    crate::defs::trust::require(&owner.def().source, allow_insecure_file).map_err(|untrusted| {
        WireError::new(ErrorCode::Invalid, untrusted.to_string()).hint(untrusted.hint_text())
    })
}

/// `MCPCTL_ALLOW_INSECURE_FILE` in the daemon's own environment (inherited
/// from the command that spawned it) lets `autostart` servers launch.
fn allow_insecure_by_env() -> bool {
    crate::defs::trust::allowed_by_env()
}

fn refusal(id: u64, code: ErrorCode, message: &str) -> Reply {
    Reply {
        id,
        outcome: Outcome::Error(WireError::new(code, message)),
    }
}
