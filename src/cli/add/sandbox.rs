//! `add`'s sandbox flags: `--sandbox none|network|off|PROFILE.json` and the
//! repeatable `--allow-read`, `--allow-write`, `--allow-host`, turned into
//! the entry's `sandbox` field. A local (stdio) server gets `"network"`
//! when none is given; a remote server never gets the field, and a
//! `docker`/`podman` launcher is contained by its runtime (not nested).

use std::path::Path;

use crate::defs::ServerDef;
use crate::defs::sandbox_kind::{container_runtime, is_stdio};
use crate::error::{Result, UsageError};
use crate::sandbox::policy::{self, Outbound, Profile, Sandbox};

/// The sandbox flags of `add`.
#[derive(Debug, Default, clap::Args)]
pub struct SandboxFlags {
    /// How a local server is contained: none (no network), network (files
    /// contained, outbound open: the default for a command), off
    /// (unconfined), or a ToolHive permission-profile JSON file.
    #[arg(long, value_name = "none|network|off|PROFILE.json")]
    pub sandbox: Option<String>,
    /// The paths and hosts of a profile.
    #[command(flatten)]
    pub allow: AllowFlags,
}

/// `--allow-read`, `--allow-write`, `--allow-host`: shared by `add` and
/// `mcpctl sandbox NAME`.
#[derive(Debug, Default, clap::Args)]
pub struct AllowFlags {
    /// A path the server may read, absolute or ~/… (repeatable; makes a profile).
    #[arg(long = "allow-read", value_name = "PATH")]
    pub read: Vec<String>,
    /// A path the server may write, absolute or ~/… (repeatable; makes a profile).
    #[arg(long = "allow-write", value_name = "PATH")]
    pub write: Vec<String>,
    /// A host the server may reach through mcpctl's egress proxy, every
    /// other one refused (repeatable; makes a profile).
    #[arg(long = "allow-host", value_name = "HOST[:PORT]")]
    pub host: Vec<String>,
}

impl AllowFlags {
    /// True when any `--allow-*` was given.
    pub fn any(&self) -> bool {
        !(self.read.is_empty() && self.write.is_empty() && self.host.is_empty())
    }
}

impl SandboxFlags {
    fn allows(&self) -> bool {
        self.allow.any()
    }

    fn given(&self) -> bool {
        self.sandbox.is_some() || self.allows()
    }
}

/// Give `def` its `sandbox` field from the flags, or `"network"` for a
/// stdio server when none is given; `--allow-*` alone widen the policy
/// `def` already has (`mcpctl sandbox NAME --allow-read PATH`).
pub(crate) fn apply(def: &mut ServerDef, flags: &SandboxFlags) -> Result<()> {
    let Some(process) = def.process() else {
        if flags.given() {
            return Err(UsageError::new(
                "a sandbox applies to a server mcpctl launches, not to a remote URL (it runs elsewhere)",
                "drop the sandbox flags, or add a local server with --command CMD (or `add NAME -- CMD ARGS…`)",
            )
            .into());
        }
        return Ok(());
    };
    if let Some(runtime) = container_runtime(process.command) {
        if flags.given() {
            return Err(UsageError::new(
                format!("`{runtime}` runs the server in a container already; mcpctl does not nest a sandbox around it"),
                format!("drop the sandbox flags, and limit the container with {runtime}'s own flags (--network none, -v)"),
            )
            .into());
        }
        return Ok(());
    }
    let base = match flags.sandbox.as_deref() {
        None if !flags.allows() && !is_stdio(def) => return Ok(()),
        None => def.sandbox.take(),
        Some(given) => Some(base_policy(given)?),
    };
    def.sandbox = Some(if flags.allows() {
        with_allows(base, flags)?
    } else {
        base.unwrap_or(Sandbox::Network)
    });
    Ok(())
}

/// `--sandbox`'s value: a word, else a profile file read and checked.
fn base_policy(given: &str) -> Result<Sandbox> {
    match given {
        "none" => Ok(Sandbox::NoNetwork),
        "network" => Ok(Sandbox::Network),
        "off" => Ok(Sandbox::Off),
        file => crate::sandbox::profile_file::read(Path::new(file))
            .map(|(_, sandbox)| sandbox)
            .map_err(|e| {
                UsageError::new(
                    e.to_string(),
                    format!("{}; or use none, network or off", e.hint),
                )
                .into()
            }),
    }
}

/// The profile the `--allow-*` flags make on top of `base` (`none`, a
/// profile, or nothing given: outbound open unless `--allow-host` names
/// the only hosts), checked as a file's `sandbox` field is.
fn with_allows(base: Option<Sandbox>, flags: &SandboxFlags) -> Result<Sandbox> {
    let open_refused = |what: &str| -> crate::error::Error {
        UsageError::new(
            format!("--allow-host limits the network, but {what} opens it to every host"),
            "drop --allow-host, or use --sandbox none --allow-host HOST (only those hosts)",
        )
        .into()
    };
    let mut profile = match base {
        Some(Sandbox::Off) => {
            return Err(UsageError::new(
                "--allow-read, --allow-write and --allow-host shape a sandbox, but the policy is `off` (none)",
                "set a policy with it (--sandbox / --set none or network), or drop the --allow-* flags",
            )
            .into());
        }
        Some(Sandbox::Network) if !flags.allow.host.is_empty() => {
            return Err(open_refused("--sandbox network"));
        }
        Some(Sandbox::Network) => open_profile(true),
        Some(Sandbox::NoNetwork) => open_profile(false),
        Some(Sandbox::Profile(profile)) => profile,
        None => open_profile(flags.allow.host.is_empty()),
    };
    if profile.outbound.insecure_allow_all && !flags.allow.host.is_empty() {
        return Err(open_refused("the profile's insecure_allow_all"));
    }
    profile.read.extend(flags.allow.read.iter().cloned());
    profile.write.extend(flags.allow.write.iter().cloned());
    let hosts = &mut profile.outbound.allow_host;
    hosts.extend(flags.allow.host.iter().cloned());
    let checked = policy::parse(&Sandbox::Profile(profile).to_value()).map_err(|e| {
        UsageError::new(
            format!("--allow-*: {}", e.message),
            format!(
                "{} (e.g. --allow-read ~/projects --allow-host api.example.com:443)",
                e.hint
            ),
        )
    })?;
    existing(&flags.allow.read, "--allow-read")?;
    existing(&flags.allow.write, "--allow-write")?;
    Ok(checked)
}

/// Refuse a path given on the command line that does not exist here (the
/// launch would refuse it); `${VAR}` spellings are left to the launch.
fn existing(paths: &[String], flag: &str) -> Result<()> {
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    for spelled in paths.iter().filter(|p| !p.starts_with("${")) {
        let path = crate::sandbox::paths::expand_home(spelled, home.as_deref());
        if path.is_absolute() && !path.exists() {
            return Err(UsageError::new(
                format!(
                    "{flag} {}: no such file or directory",
                    crate::output::sanitize(spelled)
                ),
                "create it first, or name one that exists (the sandbox grants paths that exist)",
            )
            .into());
        }
    }
    Ok(())
}

fn open_profile(insecure_allow_all: bool) -> Profile {
    Profile {
        outbound: Outbound {
            insecure_allow_all,
            ..Outbound::default()
        },
        ..Profile::default()
    }
}
