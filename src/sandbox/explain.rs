//! What `mcpctl sandbox NAME` prints: the rules [`super::prepare`] builds
//! for one launch, worked out by the same functions, and the verdict of
//! `prepare` itself ("would refuse: …") so the view cannot promise a
//! sandbox the launch would not set up.

use std::path::PathBuf;

use serde::Serialize;

use super::policy::Sandbox;
use super::rules::Grants;
use super::{LaunchFacts, kernel};

/// One launch's effective rules.
#[derive(Debug, Clone, Serialize)]
pub struct Rules {
    /// `none`, `network`, `profile` or `off`.
    pub kind: &'static str,
    /// Read and execute (the system's, the launcher's, the profile's).
    pub read: Vec<PathBuf>,
    /// Read and write (a few devices, the profile's); the private
    /// directories are `tmp` and `data`.
    pub write: Vec<PathBuf>,
    /// The private `TMPDIR`.
    pub tmp: Option<PathBuf>,
    /// The private data directory (`$MCPCTL_SANDBOX_DATA`).
    pub data: Option<PathBuf>,
    /// `none` (a network namespace with no route), `open`, or `proxied`
    /// (only `hosts`, through mcpctl's egress proxy); `unconfined` for `off`.
    pub network: &'static str,
    /// The hosts a profile lets it reach.
    pub hosts: Vec<String>,
    /// The ports a profile lets it reach on those hosts.
    pub ports: Vec<u16>,
    /// Directories covered by an empty tmpfs in its mount namespace.
    pub hidden: Vec<PathBuf>,
    /// The kernel's Landlock ABI (0: none).
    pub landlock_abi: i32,
    /// Whether unprivileged user namespaces are available.
    pub user_namespaces: bool,
    /// Why the launch would be refused here, with what to do; `None`
    /// when it would start confined (or unconfined, for `off`).
    pub would_refuse: Option<Refusal>,
}

/// Why a sandbox cannot be set up on this machine.
#[derive(Debug, Clone, Serialize)]
pub struct Refusal {
    /// What is missing or wrong.
    pub message: String,
    /// What to do.
    pub hint: String,
}

/// The rules of `sandbox` for the launch `facts` describes. Calls
/// [`super::prepare`] for the verdict (it creates the private
/// directories, as the launch would, and opens nothing it keeps).
pub fn explain(sandbox: &Sandbox, facts: &LaunchFacts) -> Rules {
    let mut rules = Rules {
        kind: sandbox.kind(),
        read: Vec::new(),
        write: Vec::new(),
        tmp: None,
        data: None,
        network: network(sandbox),
        hosts: Vec::new(),
        ports: Vec::new(),
        hidden: Vec::new(),
        landlock_abi: kernel::landlock_abi(),
        user_namespaces: kernel::user_namespaces(),
        would_refuse: None,
    };
    if *sandbox == Sandbox::Off {
        return rules;
    }
    if let Sandbox::Profile(profile) = sandbox {
        rules.hosts = profile.outbound.allow_host.clone();
        rules.ports = profile.outbound.allow_port.clone();
    }
    let mut grants = Grants::system();
    super::launcher_grants(facts, &mut grants);
    let _ = super::profile_grants(facts, &mut grants);
    rules.read = grants.read;
    rules.write = grants.write;
    rules.hidden = super::hidden_dirs(facts.program)
        .into_iter()
        .map(|c| {
            use std::os::unix::ffi::OsStrExt;
            PathBuf::from(std::ffi::OsStr::from_bytes(c.as_bytes()))
        })
        .collect();
    match super::prepare(sandbox, facts) {
        Ok(_) => {
            let base = crate::state_dir::sandbox_dir().join(facts.server);
            rules.tmp = Some(base.join("tmp"));
            rules.data = Some(base.join("data"));
        }
        Err(e) => {
            rules.would_refuse = Some(Refusal {
                message: e.to_string(),
                hint: e.hint(),
            })
        }
    }
    rules
}

fn network(sandbox: &Sandbox) -> &'static str {
    match sandbox {
        Sandbox::Off => "unconfined",
        Sandbox::Network => "open",
        Sandbox::NoNetwork => "none",
        Sandbox::Profile(p) if p.outbound.insecure_allow_all => "open",
        Sandbox::Profile(p) if !p.outbound.allow_host.is_empty() => "proxied",
        Sandbox::Profile(_) => "none",
    }
}
