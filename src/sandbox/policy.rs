//! The `sandbox` field of a definition: what a launched server may read,
//! write and reach, in ToolHive's permission-profile shape so a profile
//! moves between mcpctl and ToolHive unchanged.
//!
//! Parsing checks everything that can be checked without launching
//! (unknown keys, relative paths, a `write` over mcpctl's own state, a
//! host with a scheme or path); the launch checks the rest once `~` and
//! `${VAR}`s are expanded (see [`super::paths`]).

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};

use super::error::PolicyError;
use super::paths;

/// How a launched server is contained.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sandbox {
    /// `"off"`: explicitly unconfined, as the operator chose knowingly.
    Off,
    /// `"none"`: no network at all; the launcher's and runtime's files
    /// read-only; writes only to a private tmp and data directory.
    NoNetwork,
    /// `"network"`: the same files as `none`, outbound network open.
    Network,
    /// A ToolHive-shaped permission profile.
    Profile(Profile),
}

/// A permission profile: extra paths to read and write, and the network.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Profile {
    /// ToolHive's `name`, kept for display.
    pub name: Option<String>,
    /// Paths readable (and executable) besides the built-in ones, as written.
    pub read: Vec<String>,
    /// Paths writable besides the private ones, as written.
    pub write: Vec<String>,
    /// `network.outbound`.
    pub outbound: Outbound,
}

/// `network.outbound` of a profile.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Outbound {
    /// Any host, any port (ToolHive's name says what it is).
    pub insecure_allow_all: bool,
    /// Host names or addresses reached through mcpctl's egress proxy.
    pub allow_host: Vec<String>,
    /// Ports allowed on those hosts.
    pub allow_port: Vec<u16>,
}

impl Sandbox {
    /// The kind shown by `show`, `check --json` and `status`: `none`,
    /// `network`, `profile` or `off`.
    pub fn kind(&self) -> &'static str {
        match self {
            Sandbox::Off => "off",
            Sandbox::NoNetwork => "none",
            Sandbox::Network => "network",
            Sandbox::Profile(_) => "profile",
        }
    }

    /// The value as a definitions file holds it (a word or the object).
    pub fn to_value(&self) -> Value {
        match self {
            Sandbox::Profile(profile) => profile.to_value(),
            other => Value::String(other.kind().to_string()),
        }
    }

    /// True when the server gets a network namespace of its own (no route).
    pub fn isolates_network(&self) -> bool {
        match self {
            Sandbox::Off | Sandbox::Network => false,
            Sandbox::NoNetwork => true,
            Sandbox::Profile(profile) => !profile.outbound.insecure_allow_all,
        }
    }
}

impl Profile {
    fn to_value(&self) -> Value {
        let mut out = Map::new();
        if let Some(name) = &self.name {
            out.insert("name".into(), Value::from(name.as_str()));
        }
        out.insert("read".into(), Value::from(self.read.clone()));
        out.insert("write".into(), Value::from(self.write.clone()));
        let outbound = serde_json::json!({
            "insecure_allow_all": self.outbound.insecure_allow_all,
            "allow_host": self.outbound.allow_host,
            "allow_port": self.outbound.allow_port,
        });
        out.insert(
            "network".into(),
            serde_json::json!({ "outbound": outbound }),
        );
        Value::Object(out)
    }
}

impl Serialize for Sandbox {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("kind", self.kind())?;
        if let Sandbox::Profile(profile) = self {
            map.serialize_entry("profile", &profile.to_value())?;
        }
        map.end()
    }
}

fn refuse(message: impl Into<String>, hint: impl Into<String>) -> PolicyError {
    PolicyError {
        message: message.into(),
        hint: hint.into(),
    }
}

const WORDS_HINT: &str = "use \"none\", \"network\", \"off\" or a profile object {\"read\": [...], \"write\": [...], \"network\": {\"outbound\": {...}}}";

/// Read a `sandbox` value as a file holds it (any format, via JSON).
pub fn parse(value: &Value) -> Result<Sandbox, PolicyError> {
    match value {
        Value::String(word) => match word.as_str() {
            "none" => Ok(Sandbox::NoNetwork),
            "network" => Ok(Sandbox::Network),
            "off" => Ok(Sandbox::Off),
            other => Err(refuse(
                format!("unknown sandbox `{}`", crate::text::sanitize(other)),
                WORDS_HINT,
            )),
        },
        Value::Object(map) => parse_profile(map).map(Sandbox::Profile),
        _ => Err(refuse("must be a string or an object", WORDS_HINT)),
    }
}

fn only_keys(map: &Map<String, Value>, at: &str, known: &[&str]) -> Result<(), PolicyError> {
    match map.keys().find(|key| !known.contains(&key.as_str())) {
        Some(key) => Err(refuse(
            format!("unknown key `{}` in {at}", crate::text::sanitize(key)),
            format!("{at} takes {}", known.join(", ")),
        )),
        None => Ok(()),
    }
}

fn parse_profile(map: &Map<String, Value>) -> Result<Profile, PolicyError> {
    only_keys(
        map,
        "the profile",
        &["name", "read", "write", "network", "privileged"],
    )?;
    if map
        .get("privileged")
        .is_some_and(|p| p != &Value::Bool(false))
    {
        return Err(refuse(
            "`privileged` must be false",
            "mcpctl never runs a server privileged; remove the key",
        ));
    }
    let name = match map.get("name") {
        None => None,
        Some(Value::String(name)) => Some(name.clone()),
        Some(_) => return Err(refuse("`name` must be a string", "give a short label")),
    };
    let read = path_list(map.get("read"), "read")?;
    let write = path_list(map.get("write"), "write")?;
    for (list, at) in [(&read, "read"), (&write, "write")] {
        for path in list {
            paths::check_not_state(path, at)?;
        }
    }
    let outbound = match map.get("network") {
        None => Outbound::default(),
        Some(network) => parse_network(network)?,
    };
    Ok(Profile {
        name,
        read,
        write,
        outbound,
    })
}

fn strings<'v>(value: Option<&'v Value>, at: &str) -> Result<Vec<&'v str>, PolicyError> {
    let Some(value) = value else {
        return Ok(Vec::new());
    };
    let list = value
        .as_array()
        .ok_or_else(|| refuse(format!("`{at}` must be a list"), "write [\"...\", ...]"))?;
    list.iter()
        .map(|item| {
            item.as_str()
                .ok_or_else(|| refuse(format!("`{at}` holds a non-string"), "quote each item"))
        })
        .collect()
}

fn path_list(value: Option<&Value>, at: &str) -> Result<Vec<String>, PolicyError> {
    strings(value, at)?
        .into_iter()
        .map(|path| {
            paths::check_spelling(path, at)?;
            if path.contains(":/") {
                return Err(refuse(
                    format!(
                        "`{at}` path `{}` is a ToolHive mount (HOST:CONTAINER)",
                        crate::text::sanitize(path)
                    ),
                    "a local server sees host paths where they are: give the host path alone",
                ));
            }
            Ok(path.to_string())
        })
        .collect()
}

fn parse_network(value: &Value) -> Result<Outbound, PolicyError> {
    let map = value
        .as_object()
        .ok_or_else(|| refuse("`network` must be an object", "{\"outbound\": {...}}"))?;
    only_keys(map, "`network`", &["outbound", "inbound"])?;
    check_inbound(map.get("inbound"))?;
    let Some(outbound) = map.get("outbound") else {
        return Ok(Outbound::default());
    };
    let out = outbound.as_object().ok_or_else(|| {
        refuse(
            "`network.outbound` must be an object",
            "{\"allow_host\": [...]}",
        )
    })?;
    only_keys(
        out,
        "`network.outbound`",
        &["insecure_allow_all", "allow_host", "allow_port"],
    )?;
    let insecure_allow_all = match out.get("insecure_allow_all") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            return Err(refuse(
                "`insecure_allow_all` must be true or false",
                "true or false",
            ));
        }
    };
    let allow_host = strings(out.get("allow_host"), "allow_host")?
        .into_iter()
        .map(check_host)
        .collect::<Result<_, _>>()?;
    let allow_port = port_list(out.get("allow_port"))?;
    Ok(Outbound {
        insecure_allow_all,
        allow_host,
        allow_port,
    })
}

/// ToolHive's `network.inbound` (who may connect to a container): checked
/// and accepted so its profiles load as they are; a stdio server takes no
/// connections, so it grants nothing here.
fn check_inbound(value: Option<&Value>) -> Result<(), PolicyError> {
    let Some(value) = value else {
        return Ok(());
    };
    let map = value.as_object().ok_or_else(|| {
        refuse(
            "`network.inbound` must be an object",
            "{\"allow_host\": [...]}",
        )
    })?;
    only_keys(map, "`network.inbound`", &["allow_host"])?;
    for host in strings(map.get("allow_host"), "allow_host")? {
        check_host(host)?;
    }
    Ok(())
}

fn port_list(value: Option<&Value>) -> Result<Vec<u16>, PolicyError> {
    let Some(value) = value else {
        return Ok(Vec::new());
    };
    let bad = || {
        refuse(
            "`allow_port` must be a list of ports 1-65535",
            "[443, 8080]",
        )
    };
    value
        .as_array()
        .ok_or_else(bad)?
        .iter()
        .map(|port| {
            port.as_u64()
                .filter(|p| (1..=65535).contains(p))
                .map(|p| p as u16)
                .ok_or_else(bad)
        })
        .collect()
}

/// A host name or address, with an optional `:PORT`; never a URL.
fn check_host(host: &str) -> Result<String, PolicyError> {
    let shown = crate::text::sanitize(host);
    let hint =
        "give a host name or address, optionally with :PORT (api.example.com, 127.0.0.1:8080)";
    if host.contains("://") {
        return Err(refuse(format!("allow_host `{shown}` has a scheme"), hint));
    }
    if host.contains(['/', '?', '#', '@']) {
        return Err(refuse(
            format!("allow_host `{shown}` has a path or user part"),
            hint,
        ));
    }
    if let Err(why) = super::proxy::rules::parse_entry(host) {
        return Err(refuse(format!("allow_host `{shown}`: {why}"), hint));
    }
    Ok(host.to_string())
}
