//! Containing what runs: every local server in a sandbox of its own.
//!
//! The policy ([`policy`]) is read from a definition's `sandbox` field;
//! [`prepare`] turns it into what one launch needs, in the parent (the
//! Landlock ruleset, the private directories, the id maps), and
//! [`Confinement::install`] makes the child enter it between `fork` and
//! `exec` ([`enter`]). Fail closed: a sandbox that cannot be set up is a
//! [`SandboxError`], and the server is not started.
//!
//! This module reaches only downward (`state_dir`, `text`): `defs` holds
//! the policy in a definition, `mcp` installs it at the one spawn.

pub mod denials;
pub mod enter;
pub mod error;
pub mod explain;
pub mod kernel;
pub mod paths;
pub mod pidns;
pub mod policy;
pub mod profile_file;
pub mod proxy;
pub mod rules;
pub mod seccomp;

use std::path::{Path, PathBuf};

pub use error::{PolicyError, SandboxError};
pub use policy::{Outbound, Profile, Sandbox};

use enter::ChildSetup;
use rules::Grants;

/// The variable that names the server's private data directory.
pub const DATA_VAR: &str = "MCPCTL_SANDBOX_DATA";

/// What [`prepare`] needs to know about one launch.
#[derive(Debug)]
pub struct LaunchFacts<'a> {
    /// The server's name (validated: safe in a path).
    pub server: &'a str,
    /// The resolved program.
    pub program: &'a Path,
    /// The child's `PATH`.
    pub path_var: Option<&'a str>,
    /// The child's `HOME`.
    pub home: Option<&'a Path>,
    /// The definitions file the entry came from: never granted.
    pub definitions: &'a Path,
    /// The profile's `read` paths, `${VAR}`s expanded.
    pub read: Vec<String>,
    /// The profile's `write` paths, `${VAR}`s expanded.
    pub write: Vec<String>,
}

/// One launch's sandbox, ready to install on the command.
#[derive(Debug)]
pub struct Confinement {
    setup: ChildSetup,
    env: Vec<(String, String)>,
    egress: Option<proxy::Egress>,
}

impl Confinement {
    /// Make the child enter the sandbox before `exec`, and give it its
    /// private `TMPDIR` and data directory; returns the egress proxy to
    /// start once the child is spawned ([`proxy::Egress::start`]).
    pub fn install(self, cmd: &mut tokio::process::Command) -> Option<proxy::Egress> {
        for (key, value) in &self.env {
            cmd.env(key, value);
        }
        let setup = self.setup;
        // SAFETY: `enter` makes only async-signal-safe system calls on
        // data prepared before the fork.
        unsafe {
            cmd.pre_exec(move || setup.enter());
        }
        self.egress
    }
}

/// The sandbox of one launch, or `None` when the policy is `off`.
pub fn prepare(
    sandbox: &Sandbox,
    facts: &LaunchFacts,
) -> Result<Option<Confinement>, SandboxError> {
    if *sandbox == Sandbox::Off {
        return Ok(None);
    }
    let abi = kernel::landlock_abi();
    if abi < 1 {
        return Err(SandboxError::Unsupported {
            what: "Landlock (no ABI; is it enabled with lsm=…,landlock?)".into(),
        });
    }
    if !kernel::user_namespaces() {
        return Err(SandboxError::Unsupported {
            what:
                "unprivileged user namespaces (for the server's own mount and network namespaces)"
                    .into(),
        });
    }
    let mut grants = Grants::system();
    launcher_grants(facts, &mut grants);
    profile_grants(facts, &mut grants)?;
    let (tmp, data) = private_dirs(facts.server)?;
    grants.write.extend([tmp.clone(), data.clone()]);
    let ruleset = rules::ruleset(abi, &grants)?;
    let filters = seccomp::filters()?;
    let mut env = vec![
        ("TMPDIR".to_string(), tmp.to_string_lossy().into_owned()),
        (DATA_VAR.to_string(), data.to_string_lossy().into_owned()),
    ];
    let (egress, egress_child) = match proxy::wanted(sandbox) {
        Some(outbound) => {
            let (egress, child) = proxy::prepare(outbound)?;
            env.extend(proxy::env());
            (Some(egress), Some(child))
        }
        None => (None, None),
    };
    Ok(Some(Confinement {
        setup: ChildSetup {
            ruleset,
            maps: ChildSetup::identity_maps(),
            network: sandbox.isolates_network(),
            hide: hidden_dirs(facts.program),
            egress: egress_child,
            proc_access: rules::read_bits(abi),
            filters,
        },
        env,
        egress,
    }))
}

/// The directories covered by an empty tmpfs in the server's mount
/// namespace: mcpctl's state (the supervisor's socket, whose connect
/// Landlock does not govern before ABI 9) and the session's runtime
/// directory (D-Bus and other sockets). A directory holding the program
/// itself is left alone (the launch would fail).
pub(super) fn hidden_dirs(program: &Path) -> Vec<std::ffi::CString> {
    use std::os::unix::ffi::OsStrExt;
    let mut dirs = paths::protected_dirs();
    if let Some(runtime) = std::env::var_os("XDG_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        dirs.push(PathBuf::from(runtime));
    }
    let program = program
        .canonicalize()
        .unwrap_or_else(|_| program.to_path_buf());
    let mut hide: Vec<std::ffi::CString> = Vec::new();
    for dir in dirs {
        let Ok(real) = dir.canonicalize() else {
            continue;
        };
        if !real.is_dir() || program.starts_with(&real) {
            continue;
        }
        if let Ok(c) = std::ffi::CString::new(real.as_os_str().as_bytes())
            && !hide.contains(&c)
        {
            hide.push(c);
        }
    }
    hide
}

/// True when a directory may be opened read-only by default: it holds
/// neither the home directory, nor mcpctl's state, nor the definitions.
fn safe_to_grant(dir: &Path, facts: &LaunchFacts) -> bool {
    let protected = paths::protected_dirs();
    let holds_home = facts.home.is_some_and(|home| home.starts_with(dir));
    let holds_defs = facts.definitions.starts_with(dir)
        || facts
            .definitions
            .canonicalize()
            .is_ok_and(|real| real.starts_with(dir));
    dir != Path::new("/") && !holds_home && !holds_defs && !paths::overlaps(dir, &protected)
}

/// The launcher's own directory, every `PATH` directory (an interpreter
/// named by a `#!` line lives there) with its prefix's `lib`, and uv's
/// Pythons, read-only, each only if [`safe_to_grant`].
pub(super) fn launcher_grants(facts: &LaunchFacts, grants: &mut Grants) {
    let mut dirs: Vec<PathBuf> = Vec::new();
    if let Some(dir) = facts
        .program
        .canonicalize()
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf))
    {
        dirs.push(dir);
    }
    for dir in std::env::split_paths(facts.path_var.unwrap_or_default()) {
        let Ok(dir) = dir.canonicalize() else {
            continue;
        };
        if dir.file_name().is_some_and(|n| n == "bin")
            && let Some(prefix) = dir.parent()
        {
            dirs.push(prefix.join("lib"));
        }
        dirs.push(dir);
    }
    if let Some(home) = facts.home {
        // uv's own Pythons; never npm's or uv's caches: a fetched
        // package is run from its own tree (see `mcp::prefetch`).
        dirs.push(home.join(".local/share/uv"));
    }
    for dir in dirs {
        if dir.exists() && safe_to_grant(&dir, facts) && !grants.read.contains(&dir) {
            grants.read.push(dir);
        }
    }
}

/// The profile's own paths, `~` expanded, never mcpctl's state; a listed
/// path that does not exist is refused rather than skipped.
pub(super) fn profile_grants(facts: &LaunchFacts, grants: &mut Grants) -> Result<(), SandboxError> {
    let lists = [(&facts.read, "read"), (&facts.write, "write")];
    for (list, at) in lists {
        for spelled in list.iter() {
            paths::check_spelling(spelled, at)?;
            let path = paths::expand_home(spelled, facts.home);
            if !path.is_absolute() {
                paths::check_spelling(&path.to_string_lossy(), at)?;
            }
            paths::checked_not_state(&path, spelled, at)?;
            if !path.exists() {
                return Err(SandboxError::Setup {
                    step: format!("`{at}` path {}", crate::text::sanitize(spelled)),
                    detail: "does not exist".into(),
                });
            }
            match at {
                "read" => grants.read.push(path),
                _ => grants.write.push(path),
            }
        }
    }
    Ok(())
}

/// `<sandbox dir>/<server>/{tmp,data}` (see
/// [`crate::state_dir::sandbox_dir`]), created private (0700).
fn private_dirs(server: &str) -> Result<(PathBuf, PathBuf), SandboxError> {
    use std::os::unix::fs::DirBuilderExt;
    let base = crate::state_dir::sandbox_dir().join(server);
    let (tmp, data) = (base.join("tmp"), base.join("data"));
    for dir in [&tmp, &data] {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(|e| SandboxError::Setup {
                step: format!("creating {}", dir.display()),
                detail: e.to_string(),
            })?;
    }
    Ok((tmp, data))
}
