//! Ownership of a stdio server's process tree.
//!
//! mcpctl, not rmcp, owns the child: it starts it in its own process group
//! with a scrubbed environment, drains its stderr, and on every exit path
//! kills the *whole group* (TERM, a grace period, KILL) and reaps it, so no
//! child, grandchild or zombie outlives a `check` or a supervised server.

use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::sys::signal::{Signal, killpg};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::Pid;
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::task::JoinHandle;

use super::error::{ConnectError, Phase};
use super::escapes;
use super::stderr::{DEFAULT_TAIL_LINES, StderrTail, StderrTee};
use super::stdout_tap::{StdoutTap, TapState};
use crate::defs::redact::Redactor;
use crate::defs::vars;
use crate::defs::{ProcessRef, ServerDef};

/// The variables a stdio child inherits from mcpctl (the MCP SDKs' rule):
/// enough to run, nothing that leaks the operator's secrets.
pub const SAFE_ENV: &[&str] = &[
    "PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "TMPDIR",
];

/// Proxy and CA settings, which a server behind a corporate proxy or a
/// TLS-inspecting gateway cannot work without, and which name no secret of
/// the operator's own (a proxy URL's credentials are the network's); both
/// spellings, since tools read either.
pub const NETWORK_ENV: &[&str] = &[
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "NODE_EXTRA_CA_CERTS",
    "REQUESTS_CA_BUNDLE",
];

/// Names the operator adds to [`SAFE_ENV`] for every child, `,`- or
/// `:`-separated (e.g. `UV_SYSTEM_CERTS,HTTPS_PROXY` for launchers behind
/// a TLS-inspecting proxy). Explicit, so nothing else leaks by default.
pub const INHERIT_ENV_VAR: &str = "MCPCTL_INHERIT_ENV";

/// The names a child inherits: [`SAFE_ENV`], [`NETWORK_ENV`], plus
/// `MCPCTL_INHERIT_ENV`'s.
pub fn inherited_names() -> Vec<String> {
    let extra = std::env::var(INHERIT_ENV_VAR).unwrap_or_default();
    SAFE_ENV
        .iter()
        .chain(NETWORK_ENV)
        .map(|name| name.to_string())
        .chain(
            extra
                .split([',', ':'])
                .map(str::trim)
                .filter(|name| !name.is_empty())
                .map(str::to_string),
        )
        .collect()
}

/// The default time between TERM and KILL when stopping a server.
pub const DEFAULT_KILL_GRACE: Duration = Duration::from_secs(2);

/// Make this process the reaper of its orphaned descendants (Linux only).
///
/// When a server's launcher (say `npx`) dies before its own children, those
/// children are re-parented; without this they go to PID 1, which in some
/// containers never reaps them. As subreaper, mcpctl inherits them and
/// [`ChildProcess::shutdown`] reaps the whole process group.
pub fn become_subreaper() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        let _ = nix::sys::prctl::set_child_subreaper(true);
    });
}

/// Restores the previous SIGPIPE disposition when dropped.
#[derive(Debug)]
pub struct SigpipeGuard {
    previous: Option<nix::sys::signal::SigHandler>,
}

/// Ignore SIGPIPE while talking to child processes.
///
/// The CLI restores SIGPIPE's default so that `mcpctl list | head` dies
/// quietly, but then a server that exits before reading its stdin would kill
/// mcpctl itself on the next write (seen with `add` against a crashing
/// server). Hold the guard for as long as children run; it restores the
/// previous disposition (so output printed afterwards still stops quietly on
/// a closed pipe). The supervisor should simply ignore SIGPIPE for good.
pub fn ignore_sigpipe() -> SigpipeGuard {
    use nix::sys::signal::{SigHandler, signal};
    // SAFETY: SIG_IGN installs no handler, so nothing can race with it.
    let previous = unsafe { signal(Signal::SIGPIPE, SigHandler::SigIgn) }.ok();
    SigpipeGuard { previous }
}

impl Drop for SigpipeGuard {
    fn drop(&mut self) {
        if let Some(previous) = self.previous {
            // SAFETY: restores a disposition that was installed before.
            let _ = unsafe { nix::sys::signal::signal(Signal::SIGPIPE, previous) };
        }
    }
}

/// The pieces of a freshly spawned stdio server.
pub struct SpawnedStdio {
    /// The process tree owner; call [`ChildProcess::shutdown`] when done.
    pub process: ChildProcess,
    /// The child's stdout (the JSON-RPC input for the client), tapped.
    pub stdout: StdoutTap<ChildStdout>,
    /// The child's stdin (the JSON-RPC output of the client).
    pub stdin: ChildStdin,
    /// What the tap saw on stdout.
    pub tap: Arc<TapState>,
    /// The child's working directory, advertised as its root.
    pub cwd: PathBuf,
}

/// A running child in its own process group; dropping it kills the group.
pub struct ChildProcess {
    child: Child,
    pgid: Pid,
    stderr: StderrTail,
    drain: Option<JoinHandle<()>>,
    status: Option<ExitStatus>,
    finished: bool,
    /// Marks descendants that leave the group (see [`escapes`]).
    tag: String,
    /// The sandbox's egress proxy, ended with the child.
    egress: Option<crate::sandbox::proxy::Running>,
}

impl std::fmt::Debug for ChildProcess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChildProcess")
            .field("pgid", &self.pgid)
            .finish()
    }
}

/// Find `command` the way `execvp` would, on the child's PATH.
fn resolve(
    server: &str,
    command: &str,
    path: Option<&str>,
    cwd: &Path,
) -> Result<PathBuf, ConnectError> {
    let missing = || ConnectError::LauncherMissing {
        server: server.to_string(),
        command: command.to_string(),
        phase: Phase::Spawn,
    };
    if command.contains('/') {
        let candidate = cwd.join(command);
        return if candidate.is_file() {
            Ok(candidate)
        } else {
            Err(missing())
        };
    }
    which::which_in(command, path, cwd).map_err(|_| missing())
}

/// Start the process a definition launches: a stdio server, or the local
/// process behind a remote URL ([`ServerDef::process`]).
///
/// `${VAR}`s in `args` and `env` are expanded here, at launch time. A
/// confined `npx`/`uvx` launch has its package fetched outside the sandbox
/// first (see [`super::prefetch`]), by `deadline`.
pub async fn spawn(
    def: &ServerDef,
    tee: Option<StderrTee>,
    deadline: Instant,
) -> Result<SpawnedStdio, ConnectError> {
    let Some(ProcessRef {
        command,
        args,
        env,
        cwd,
    }) = def.process()
    else {
        unreachable!("spawn called for a remote server with nothing to launch");
    };
    become_subreaper();
    let server = def.name.as_str();
    let command = vars::expand(server, command)?;
    let args = args
        .iter()
        .map(|a| vars::expand(server, a))
        .collect::<Result<Vec<_>, _>>()?;
    let spawn_failed = |detail: String| ConnectError::SpawnFailed {
        server: server.to_string(),
        command: command.clone(),
        phase: Phase::Spawn,
        detail,
    };
    let child_env = child_environment(def, env, &spawn_failed)?;
    let cwd = working_dir(def, cwd, &spawn_failed)?;
    let (program, args, read) = to_run(def, &command, args, &child_env, &cwd, deadline).await?;
    let confinement = confine(def, &program, &child_env, &read)?;

    let tag = escapes::new_tag();
    let mut cmd = Command::new(&program);
    cmd.args(&args)
        .env_clear()
        .envs(child_env)
        .env(escapes::TAG_VAR, &tag)
        .current_dir(&cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    let confined = confinement.is_some();
    let egress = confinement.and_then(|confinement| confinement.install(&mut cmd));
    let child = super::groups::spawn(&mut cmd, &tag).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            ConnectError::LauncherMissing {
                server: server.to_string(),
                command: command.clone(),
                phase: Phase::Spawn,
            }
        } else if confined {
            ConnectError::Sandbox {
                server: server.to_string(),
                phase: Phase::Spawn,
                detail: format!("entering it failed in the child (user, network or PID namespace and its /proc, no_new_privs, Landlock, seccomp, or the launcher outside what the sandbox reads): {e}"),
                hint: crate::sandbox::error::OFF_HINT.to_string(),
            }
        } else {
            spawn_failed(e.to_string())
        }
    })?;
    let echo = tee.is_none();
    let mut spawned = take_ownership(def, child, tag, tee, cwd);
    if let Some(egress) = egress {
        spawned.process.egress = Some(start_egress(def, egress, &spawned.process, echo)?);
    }
    Ok(spawned)
}

/// Serve the sandbox's egress proxy for the child just spawned; its
/// refusals go to the server's stderr record (the supervisor's log) and,
/// for a launch without a log (`check`, `call --direct`), to mcpctl's
/// stderr. Failing, the child is dropped, so killed: fail closed.
fn start_egress(
    def: &ServerDef,
    egress: crate::sandbox::proxy::Egress,
    process: &ChildProcess,
    echo: bool,
) -> Result<crate::sandbox::proxy::Running, ConnectError> {
    let tail = process.stderr.clone();
    let server = def.name.clone();
    let log: crate::sandbox::proxy::Log = Arc::new(move |line: &str| {
        tail.push(line);
        if echo {
            crate::output::note(format!("{server}: {line}"));
        }
    });
    egress.start(log).map_err(|e| ConnectError::Sandbox {
        server: def.name.clone(),
        phase: Phase::Spawn,
        hint: e.hint(),
        detail: e.to_string(),
    })
}

/// The program to run and its arguments: `command` found on the child's
/// `PATH`, or, for a confined `npx`/`uvx` launch, the bin of the package
/// fetched outside the sandbox, with the directories to grant it.
async fn to_run(
    def: &ServerDef,
    command: &str,
    args: Vec<String>,
    child_env: &[(String, String)],
    cwd: &Path,
    deadline: Instant,
) -> Result<(PathBuf, Vec<String>, Vec<PathBuf>), ConnectError> {
    let path = child_env
        .iter()
        .find(|(k, _)| k == "PATH")
        .map(|(_, v)| v.as_str());
    let program = resolve(&def.name, command, path, cwd)?;
    let launch = super::prefetch::Launch {
        program: &program,
        args: &args,
        env: child_env,
        cwd,
        deadline,
    };
    Ok(match super::prefetch::prepare(def, launch).await? {
        Some(f) => (f.program, f.args, f.read),
        None => (program, args, Vec::new()),
    })
}

/// The sandbox of this launch (see [`crate::sandbox`]), prepared before
/// the fork; `None` for an entry without one or with `"off"`. Fail
/// closed: any step that cannot be set up refuses the launch.
fn confine(
    def: &ServerDef,
    program: &Path,
    child_env: &[(String, String)],
    fetched: &[PathBuf],
) -> Result<Option<crate::sandbox::Confinement>, ConnectError> {
    Ok(with_facts(def, program, child_env, fetched, crate::sandbox::prepare)?.flatten())
}

/// The rules [`spawn`] would confine `def`'s process in, worked out the
/// same way (its environment, working directory and program) with nothing
/// started, for `mcpctl sandbox NAME`; `None` without a policy or process.
pub fn sandbox_rules(
    def: &ServerDef,
) -> Result<Option<crate::sandbox::explain::Rules>, ConnectError> {
    let Some(process) = def.process() else {
        return Ok(None);
    };
    let server = def.name.as_str();
    let command = vars::expand(server, process.command)?;
    let spawn_failed = |detail: String| ConnectError::SpawnFailed {
        server: server.to_string(),
        command: command.clone(),
        phase: Phase::Spawn,
        detail,
    };
    let child_env = child_environment(def, process.env, &spawn_failed)?;
    let cwd = working_dir(def, process.cwd, &spawn_failed)?;
    let path = child_env
        .iter()
        .find(|(k, _)| k == "PATH")
        .map(|(_, v)| v.as_str());
    let program = resolve(server, &command, path, &cwd)?;
    fn explained(
        policy: &crate::sandbox::Sandbox,
        facts: &crate::sandbox::LaunchFacts,
    ) -> Result<crate::sandbox::explain::Rules, crate::sandbox::SandboxError> {
        Ok(crate::sandbox::explain::explain(policy, facts))
    }
    // Nothing is fetched for a view: a fetched package's tree is added
    // read-only at launch.
    with_facts(def, &program, &child_env, &[], explained)
}

/// `make` applied to the entry's policy and this launch's facts (the
/// profile's paths with `${VAR}`s expanded, and `fetched` read-only);
/// `None` without a policy.
fn with_facts<T>(
    def: &ServerDef,
    program: &Path,
    child_env: &[(String, String)],
    fetched: &[PathBuf],
    make: impl FnOnce(
        &crate::sandbox::Sandbox,
        &crate::sandbox::LaunchFacts,
    ) -> Result<T, crate::sandbox::SandboxError>,
) -> Result<Option<T>, ConnectError> {
    let Some(policy) = &def.sandbox else {
        return Ok(None);
    };
    let server = def.name.as_str();
    let var = |name: &str| {
        child_env
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    let (read, write) = match policy {
        crate::sandbox::Sandbox::Profile(profile) => (
            expand_all(server, &profile.read)?,
            expand_all(server, &profile.write)?,
        ),
        _ => (Vec::new(), Vec::new()),
    };
    // The fetched package's tree, read-only (checked like a profile's).
    let read = read
        .into_iter()
        .chain(fetched.iter().map(|p| p.to_string_lossy().into_owned()))
        .collect();
    let facts = crate::sandbox::LaunchFacts {
        server,
        program,
        path_var: var("PATH"),
        home: var("HOME").map(Path::new),
        definitions: &def.source,
        read,
        write,
    };
    make(policy, &facts)
        .map(Some)
        .map_err(|e| ConnectError::Sandbox {
            server: server.to_string(),
            phase: Phase::Spawn,
            hint: e.hint(),
            detail: e.to_string(),
        })
}

fn expand_all(server: &str, list: &[String]) -> Result<Vec<String>, ConnectError> {
    list.iter()
        .map(|item| vars::expand(server, item).map_err(ConnectError::from))
        .collect()
}

/// The environment a child starts with: the inherited names (see
/// [`inherited_names`]), then its `envFile`, then its own `env`, each
/// winning over the one before (as in VS Code), `${VAR}`s expanded.
fn child_environment(
    def: &ServerDef,
    env: &indexmap::IndexMap<String, String>,
    spawn_failed: &dyn Fn(String) -> ConnectError,
) -> Result<Vec<(String, String)>, ConnectError> {
    let server = def.name.as_str();
    let mut child_env: Vec<(String, String)> = inherited_names()
        .into_iter()
        .filter_map(|name| std::env::var(&name).ok().map(|v| (name, v)))
        .collect();
    // envFile < env: an entry's own `env` wins, as in VS Code.
    let from_file = crate::defs::env_file::load(def).map_err(|e| match e {
        crate::defs::env_file::EnvFileError::Var(var) => ConnectError::from(var),
        other => spawn_failed(other.to_string()),
    })?;
    for (key, value) in from_file {
        if !env.contains_key(&key) {
            child_env.retain(|(k, _)| *k != key);
            child_env.push((key, value));
        }
    }
    for (key, value) in env {
        let value = vars::expand(server, value)?;
        child_env.retain(|(k, _)| k != key);
        child_env.push((key.clone(), value));
    }
    Ok(child_env)
}

/// Where the child runs, canonical: its `cwd` (relative to the definition
/// file's directory), or mcpctl's own working directory.
fn working_dir(
    def: &ServerDef,
    cwd: Option<&Path>,
    spawn_failed: &dyn Fn(String) -> ConnectError,
) -> Result<PathBuf, ConnectError> {
    let base = def
        .source
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map(Path::to_path_buf)
        .unwrap_or_else(|| std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/")));
    let cwd = match cwd {
        Some(dir) => {
            let dir = PathBuf::from(vars::expand(&def.name, &dir.to_string_lossy())?);
            if dir.is_absolute() {
                dir
            } else {
                base.join(dir)
            }
        }
        None => std::env::current_dir().unwrap_or(base),
    };
    cwd.canonicalize()
        .map_err(|e| spawn_failed(format!("working directory {}: {e}", cwd.display())))
}

/// A just-spawned child made ours: its pid registered, its stderr drained
/// into a redacting tail, its stdout tapped.
fn take_ownership(
    def: &ServerDef,
    mut child: Child,
    tag: String,
    tee: Option<StderrTee>,
    cwd: PathBuf,
) -> SpawnedStdio {
    let pid = child.id().expect("a just-spawned child has a pid");
    escapes::register(pid);
    let stderr = StderrTail::new(DEFAULT_TAIL_LINES, tee)
        .redacting(Redactor::for_def(def))
        .annotating(refusal_notes(def));
    let drain = child
        .stderr
        .take()
        .map(|pipe| tokio::spawn(stderr.clone().drain(pipe)));
    let stdin = child.stdin.take().expect("stdin is piped");
    let (stdout, tap) = StdoutTap::new(child.stdout.take().expect("stdout is piped"));
    SpawnedStdio {
        process: ChildProcess {
            child,
            pgid: Pid::from_raw(pid as i32),
            stderr,
            drain,
            status: None,
            finished: false,
            tag,
            egress: None,
        },
        stdout,
        stdin,
        tap,
        cwd,
    }
}

/// For a confined server, the note its log and stderr tail get after a
/// line naming a refused path or host (see [`crate::sandbox::denials`]).
fn refusal_notes(def: &ServerDef) -> Option<super::stderr::StderrAnnotator> {
    let policy = def.sandbox.as_ref()?;
    (*policy != crate::sandbox::Sandbox::Off).then(|| {
        crate::sandbox::denials::annotator(&def.name, policy.kind(), policy.isolates_network())
    })
}

/// `exit code 3` or `killed by signal 9`, for error messages.
pub fn describe_status(status: &ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit code {code}"),
        (None, Some(sig)) => {
            let name = Signal::try_from(sig).map(|s| s.as_str()).unwrap_or("?");
            format!("killed by signal {sig} ({name})")
        }
        _ => "unknown status".into(),
    }
}

impl ChildProcess {
    /// The child's pid, which is also its process group id.
    pub fn pid(&self) -> u32 {
        self.pgid.as_raw() as u32
    }

    /// The tag its descendants carry (see [`escapes`]), for a successor
    /// that must end them after mcpctl itself was killed.
    pub fn tag(&self) -> &str {
        &self.tag
    }

    /// The last stderr lines, oldest first.
    pub fn stderr_tail(&self) -> Vec<String> {
        self.stderr.lines()
    }

    /// The child's exit status if it exits within `wait` (it is reaped then).
    ///
    /// Used when the connection drops, to tell "the server crashed" from
    /// "the server hung up".
    pub async fn exited_within(&mut self, wait: Duration) -> Option<ExitStatus> {
        if self.status.is_none()
            && let Ok(Ok(status)) = tokio::time::timeout(wait, self.child.wait()).await
        {
            self.status = Some(status);
        }
        if self.status.is_some() {
            // Let the drain task catch the last words the child wrote.
            if let Some(drain) = self.drain.as_mut() {
                let _ = tokio::time::timeout(Duration::from_millis(200), drain).await;
                self.drain = None;
            }
        }
        self.status
    }

    fn try_reap(&mut self) {
        if self.status.is_none()
            && let Ok(Some(status)) = self.child.try_wait()
        {
            self.status = Some(status);
        }
        // Orphaned grandchildren re-parented to us (we are subreaper).
        loop {
            match waitpid(
                Pid::from_raw(-self.pgid.as_raw()),
                Some(WaitPidFlag::WNOHANG),
            ) {
                Ok(WaitStatus::StillAlive) | Err(_) => break,
                Ok(_) => continue,
            }
        }
    }

    /// True when no process of the group is left (zombies we can reap are reaped first).
    fn group_gone(&mut self) -> bool {
        self.try_reap();
        self.status.is_some() && matches!(killpg(self.pgid, None), Err(Errno::ESRCH))
    }

    /// Stop the whole process tree and reap it: TERM, up to `grace`, KILL,
    /// first the group, then whatever left it (see [`escapes`]).
    ///
    /// Returns the direct child's exit status. Safe to call on a child that
    /// already exited.
    pub async fn shutdown(mut self, grace: Duration) -> Option<ExitStatus> {
        self.finished = true;
        self.end_group(grace).await;
        escapes::unregister(self.pid());
        escapes::end(&[&self.tag], Instant::now() + grace).await;
        if self.group_gone() {
            super::watchdog::ended(&self.tag);
        }
        if let Some(drain) = self.drain.take() {
            let _ = tokio::time::timeout(Duration::from_millis(200), drain).await;
        }
        self.status
    }

    async fn end_group(&mut self, grace: Duration) {
        super::groups::terminate(vec![self.pgid], grace, |_| self.group_gone()).await;
    }
}

impl Drop for ChildProcess {
    fn drop(&mut self) {
        if !self.finished {
            // Every early-return path lands here: never leave the group behind.
            let _ = killpg(self.pgid, Signal::SIGKILL);
            self.try_reap();
            escapes::unregister(self.pid());
            escapes::kill_now(&self.tag);
        }
        if let Some(drain) = self.drain.take() {
            drain.abort();
        }
        super::groups::unregister(self.pgid);
    }
}
