//! How an entry's server is contained, in one word for `status`, `check
//! --json`, `show` and `check`'s warning: the policy the file names, or
//! what holds when it names none.

use std::path::Path;

use super::model::{Launch, ServerDef};

/// How a server is contained: the `sandbox` field's kind, `unset` (a local
/// server with no field: unconfined by omission), or `container` (a
/// `docker`/`podman` launcher, contained by its runtime).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SandboxKind {
    /// `"none"`: no network, files contained.
    None,
    /// `"network"`: files contained, outbound open.
    Network,
    /// A permission profile.
    Profile,
    /// `"off"`: unconfined, knowingly.
    Off,
    /// No field on a local server: unconfined by omission.
    Unset,
    /// A `docker`/`podman` launcher, contained by its runtime (mcpctl does
    /// not nest a sandbox around it).
    Container,
}

impl SandboxKind {
    /// The word shown and written in `--json`.
    pub fn as_str(self) -> &'static str {
        match self {
            SandboxKind::None => "none",
            SandboxKind::Network => "network",
            SandboxKind::Profile => "profile",
            SandboxKind::Off => "off",
            SandboxKind::Unset => "unset",
            SandboxKind::Container => "container",
        }
    }
}

impl std::fmt::Display for SandboxKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The container runtime a launcher is (`docker`, `podman`), by the
/// command's file name, whatever its directory.
pub fn container_runtime(command: &str) -> Option<&'static str> {
    match Path::new(command).file_name()?.to_str()? {
        "docker" => Some("docker"),
        "podman" => Some("podman"),
        _ => None,
    }
}

/// How `def`'s server is contained; `None` for a remote server (nothing
/// runs here).
pub fn sandbox_kind(def: &ServerDef) -> Option<SandboxKind> {
    let process = def.process()?;
    Some(match &def.sandbox {
        Some(policy) => match policy {
            crate::sandbox::Sandbox::NoNetwork => SandboxKind::None,
            crate::sandbox::Sandbox::Network => SandboxKind::Network,
            crate::sandbox::Sandbox::Profile(_) => SandboxKind::Profile,
            crate::sandbox::Sandbox::Off => SandboxKind::Off,
        },
        None if container_runtime(process.command).is_some() => SandboxKind::Container,
        None => SandboxKind::Unset,
    })
}

/// The network a server gets, in one word: `none` (no route), `open`,
/// `proxied` (only the profile's hosts, through mcpctl's egress proxy),
/// `unconfined` (`off` or no field); `None` in a container (its runtime's).
pub fn network_word(def: &ServerDef) -> Option<&'static str> {
    use crate::sandbox::Sandbox;
    match (&def.sandbox, sandbox_kind(def)?) {
        (_, SandboxKind::Container) => None,
        (None | Some(Sandbox::Off), _) => Some("unconfined"),
        (Some(Sandbox::NoNetwork), _) => Some("none"),
        (Some(Sandbox::Network), _) => Some("open"),
        (Some(Sandbox::Profile(p)), _) if p.outbound.insecure_allow_all => Some("open"),
        (Some(Sandbox::Profile(p)), _) if !p.outbound.allow_host.is_empty() => Some("proxied"),
        (Some(Sandbox::Profile(_)), _) => Some("none"),
    }
}

/// The effective policy as `show --json` and `list --json` print it:
/// `kind`, `network`, a profile's fields, a container's `runtime`; `None`
/// for a remote server.
pub fn effective_json(def: &ServerDef) -> Option<serde_json::Value> {
    let kind = sandbox_kind(def)?;
    let mut out = serde_json::Map::new();
    out.insert("kind".into(), kind.as_str().into());
    out.insert("network".into(), network_word(def).into());
    if let Some(crate::sandbox::Sandbox::Profile(profile)) = &def.sandbox {
        out.insert(
            "profile".into(),
            crate::sandbox::Sandbox::Profile(profile.clone()).to_value(),
        );
    }
    if kind == SandboxKind::Container {
        let runtime = def.process().and_then(|p| container_runtime(p.command));
        out.insert("runtime".into(), runtime.into());
    }
    Some(serde_json::Value::Object(out))
}

/// True for a stdio entry: the only kind `add` gives a sandbox by default
/// (a local HTTP server behind a URL keeps what the operator wrote).
pub fn is_stdio(def: &ServerDef) -> bool {
    matches!(def.launch, Launch::Stdio { .. })
}

/// The names of the local servers that run unconfined by omission (no
/// `sandbox` field, not a container), in `defs`' order.
pub fn unconfined<'a>(defs: impl IntoIterator<Item = &'a ServerDef>) -> Vec<&'a str> {
    defs.into_iter()
        .filter(|def| sandbox_kind(def) == Some(SandboxKind::Unset))
        .map(|def| def.name.as_str())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_container_runtime_is_known_by_its_file_name() {
        assert_eq!(container_runtime("docker"), Some("docker"));
        assert_eq!(container_runtime("/usr/bin/podman"), Some("podman"));
        assert_eq!(container_runtime("dockerd"), None);
        assert_eq!(container_runtime("npx"), None);
    }
}
