//! The registry's data model: `server.json` documents and the `v0.1` API
//! responses that wrap them.
//!
//! Registry data is written by thousands of publishers and changes shape
//! over time, so everything here is lenient: unknown fields are ignored,
//! most fields are optional, and a list is parsed entry by entry so that one
//! malformed entry is skipped with a warning instead of emptying the result
//! ([`ServerList::parse`]).

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The key under `_meta` where the official registry keeps its own status.
pub const OFFICIAL_META_KEY: &str = "io.modelcontextprotocol.registry/official";

/// One page of `GET /v0.1/servers` or `GET /v0.1/servers/{name}/versions`,
/// after defensive parsing.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ServerList {
    /// The entries that parsed.
    pub servers: Vec<ServerEntry>,
    /// The cursor for the next page, from `metadata.nextCursor` (or the
    /// older `next_cursor`); `None` or empty means there is no next page.
    pub next_cursor: Option<String>,
    /// One line per entry that was skipped, saying which and why; the CLI
    /// prints these as warnings so a bad entry is never silently lost.
    pub warnings: Vec<String>,
}

impl ServerList {
    /// Parse a list response, skipping malformed entries with a warning.
    ///
    /// Only a body that is not JSON at all, or has no `servers` array, is an
    /// error: that means the URL is not a registry, not that one publisher
    /// made a mistake.
    pub fn parse(body: &[u8]) -> Result<ServerList, String> {
        let doc: Value =
            serde_json::from_slice(body).map_err(|err| format!("the body is not JSON: {err}"))?;
        let obj = doc
            .as_object()
            .ok_or_else(|| "the body is not a JSON object".to_string())?;
        let items = obj
            .get("servers")
            .and_then(Value::as_array)
            .ok_or_else(|| "the body has no `servers` array".to_string())?;
        let mut list = ServerList::default();
        for (index, item) in items.iter().enumerate() {
            match ServerEntry::from_value(item) {
                Ok(entry) => list.servers.push(entry),
                Err(err) => {
                    let name = item
                        .pointer("/server/name")
                        .or_else(|| item.get("name"))
                        .and_then(Value::as_str)
                        .map(|n| format!("`{n}`"))
                        .unwrap_or_else(|| "without a name".to_string());
                    list.warnings.push(format!(
                        "skipped malformed entry #{} {name}: {err}",
                        index + 1
                    ));
                }
            }
        }
        let metadata = obj.get("metadata");
        list.next_cursor = metadata
            .and_then(|m| m.get("nextCursor").or_else(|| m.get("next_cursor")))
            .or_else(|| obj.get("next_cursor"))
            .and_then(Value::as_str)
            .filter(|c| !c.is_empty())
            .map(str::to_string);
        Ok(list)
    }
}

/// One `{server, _meta}` item: the published document plus what the
/// registry says about it.
#[derive(Debug, Clone, Serialize)]
pub struct ServerEntry {
    /// The publisher's `server.json`.
    pub server: ServerDetail,
    /// The registry's own metadata (status, publish time, latest flag).
    pub official: OfficialMeta,
}

impl ServerEntry {
    /// Parse one item; a bare `server.json` (no `server` wrapper) is
    /// accepted too, as older registries served it.
    pub fn from_value(item: &Value) -> Result<ServerEntry, String> {
        let (server_value, meta) = match item.get("server") {
            Some(server) => (server, item.get("_meta")),
            None => (item, None),
        };
        let server: ServerDetail =
            serde_json::from_value(server_value.clone()).map_err(|err| err.to_string())?;
        if server.name.trim().is_empty() {
            return Err("the entry has an empty `name`".into());
        }
        let mut official: OfficialMeta = meta
            .and_then(|m| m.get(OFFICIAL_META_KEY))
            .map(|o| serde_json::from_value(o.clone()).unwrap_or_default())
            .unwrap_or_default();
        // Older documents carried the status inside the server itself.
        if official.status.is_none() {
            official.status = server.legacy_status.clone();
        }
        Ok(ServerEntry { server, official })
    }

    /// Parse the body of `GET /v0.1/servers/{name}/versions/{version}`.
    pub fn parse(body: &[u8]) -> Result<ServerEntry, String> {
        let doc: Value =
            serde_json::from_slice(body).map_err(|err| format!("the body is not JSON: {err}"))?;
        ServerEntry::from_value(&doc)
    }

    /// The lifecycle status, `active` when the registry did not say.
    pub fn status(&self) -> Status {
        Status::parse(self.official.status.as_deref().unwrap_or("active"))
    }
}

/// A server version's lifecycle status in the registry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// Installable.
    Active,
    /// Still served, but its publisher asks people to move on.
    Deprecated,
    /// Withdrawn; never installed.
    Deleted,
    /// A status this mcpctl does not know, shown verbatim.
    Other(String),
}

impl Status {
    /// Parse the registry's spelling.
    pub fn parse(s: &str) -> Status {
        match s.to_ascii_lowercase().as_str() {
            "active" => Status::Active,
            "deprecated" => Status::Deprecated,
            "deleted" => Status::Deleted,
            _ => Status::Other(s.to_string()),
        }
    }

    /// The spelling shown in tables and `--json`.
    pub fn as_str(&self) -> &str {
        match self {
            Status::Active => "active",
            Status::Deprecated => "deprecated",
            Status::Deleted => "deleted",
            Status::Other(s) => s,
        }
    }

    /// Hidden from `search` unless `--include-deprecated`.
    pub fn is_hidden_by_default(&self) -> bool {
        matches!(self, Status::Deprecated | Status::Deleted)
    }
}

/// `_meta["io.modelcontextprotocol.registry/official"]`.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OfficialMeta {
    /// `active`, `deprecated` or `deleted`.
    pub status: Option<String>,
    /// Why the status changed, e.g. what to use instead.
    pub status_message: Option<String>,
    /// When the version was published.
    pub published_at: Option<String>,
    /// When the entry last changed.
    pub updated_at: Option<String>,
    /// Whether this is the newest version of the server.
    pub is_latest: Option<bool>,
}

/// A published `server.json` (the registry's `ServerDetail`).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerDetail {
    /// The reverse-DNS name, e.g. `io.github.user/weather`: the only key
    /// `add` resolves by.
    pub name: String,
    /// One-line description (the registry caps it at 100 characters).
    #[serde(default)]
    pub description: String,
    /// Optional display title.
    #[serde(default)]
    pub title: Option<String>,
    /// The server's published version.
    #[serde(default, deserialize_with = "version_string")]
    pub version: String,
    /// Where the code lives, kept as given.
    #[serde(default)]
    pub repository: Option<Value>,
    /// Home page or documentation.
    #[serde(default, alias = "website_url")]
    pub website_url: Option<String>,
    /// Ways to run it locally.
    #[serde(default)]
    pub packages: Vec<Package>,
    /// Hosted endpoints.
    #[serde(default)]
    pub remotes: Vec<Remote>,
    /// The pre-`_meta` place for the status.
    #[serde(default, rename = "status", skip_serializing)]
    pub legacy_status: Option<String>,
}

/// Accept `"version": "1.0"` and the older `"version_detail": {...}` shape
/// silently; the version is required by the registry but a missing one
/// must not drop the entry from a search.
fn version_string<'de, D: serde::Deserializer<'de>>(de: D) -> Result<String, D::Error> {
    let value = Value::deserialize(de)?;
    Ok(match value {
        Value::String(s) => s,
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    })
}

/// One way to run the server from a package registry.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Package {
    /// `npm`, `pypi`, `oci`, `nuget`, `mcpb`, …
    #[serde(alias = "registry_type", alias = "registryName")]
    pub registry_type: String,
    /// The package registry, e.g. `https://registry.npmjs.org`.
    #[serde(default, alias = "registry_base_url")]
    pub registry_base_url: Option<String>,
    /// Package name (or image reference for OCI).
    pub identifier: String,
    /// The exact published package version.
    #[serde(default)]
    pub version: Option<String>,
    /// Which launcher the publisher expects (`npx`, `uvx`, `docker`, …).
    #[serde(default, alias = "runtime_hint")]
    pub runtime_hint: Option<String>,
    /// How the running package speaks MCP; stdio when absent.
    #[serde(default)]
    pub transport: Option<PackageTransport>,
    /// Arguments for the launcher itself (e.g. `docker run` flags).
    #[serde(default, alias = "runtime_arguments")]
    pub runtime_arguments: Vec<Argument>,
    /// Arguments for the server binary.
    #[serde(default, alias = "package_arguments")]
    pub package_arguments: Vec<Argument>,
    /// Environment the server expects.
    #[serde(default, alias = "environment_variables")]
    pub environment_variables: Vec<KeyValueInput>,
}

impl Package {
    /// The transport type, `stdio` when the document did not say.
    pub fn transport_type(&self) -> &str {
        self.transport
            .as_ref()
            .map(|t| t.kind.as_str())
            .unwrap_or("stdio")
    }
}

/// A package's transport: stdio, or an HTTP endpoint the package serves.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PackageTransport {
    /// `stdio`, `streamable-http` or `sse`.
    #[serde(rename = "type", default = "stdio")]
    pub kind: String,
    /// URL template for HTTP transports (`{PORT}` refers to inputs).
    #[serde(default)]
    pub url: Option<String>,
    /// Headers the client must send.
    #[serde(default)]
    pub headers: Vec<KeyValueInput>,
}

fn stdio() -> String {
    "stdio".into()
}

/// A hosted endpoint.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Remote {
    /// `streamable-http` or `sse`.
    #[serde(rename = "type", alias = "transport_type")]
    pub kind: String,
    /// The endpoint, possibly with `{variable}` templates.
    pub url: String,
    /// Headers the client must send.
    #[serde(default)]
    pub headers: Vec<KeyValueInput>,
    /// Values for `{variable}` templates in `url`.
    #[serde(default)]
    pub variables: IndexMap<String, Input>,
}

/// What every input (argument, env var, header, variable) may declare.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Input {
    /// Shown when prompting.
    #[serde(default)]
    pub description: Option<String>,
    /// The user must supply a value (or a default applies).
    #[serde(default, alias = "is_required")]
    pub is_required: bool,
    /// `string`, `number`, `boolean` or `filepath`.
    #[serde(default)]
    pub format: Option<String>,
    /// A fixed value, possibly with `{variable}` templates.
    #[serde(default, deserialize_with = "opt_string")]
    pub value: Option<String>,
    /// Never written literally nor echoed.
    #[serde(default, alias = "is_secret")]
    pub is_secret: bool,
    /// Used when the user gives nothing.
    #[serde(default, deserialize_with = "opt_string")]
    pub default: Option<String>,
    /// An example shown while prompting.
    #[serde(default)]
    pub placeholder: Option<String>,
    /// The only values allowed, when present.
    #[serde(default)]
    pub choices: Vec<String>,
}

/// Numbers and booleans appear where strings are expected in real
/// documents; keep them as their JSON text rather than dropping the entry.
fn opt_string<'de, D: serde::Deserializer<'de>>(de: D) -> Result<Option<String>, D::Error> {
    let value = Option::<Value>::deserialize(de)?;
    Ok(match value {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s),
        Some(other) => Some(other.to_string()),
    })
}

/// A command-line argument: positional or `--named`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Argument {
    /// `positional` or `named`.
    #[serde(rename = "type", default = "positional")]
    pub kind: String,
    /// The flag for a named argument, dashes included.
    #[serde(default)]
    pub name: Option<String>,
    /// A label for a positional argument's value.
    #[serde(default, alias = "value_hint")]
    pub value_hint: Option<String>,
    /// May be given several times.
    #[serde(default, alias = "is_repeated")]
    pub is_repeated: bool,
    /// The common input fields.
    #[serde(flatten)]
    pub input: Input,
    /// Values for `{variable}` templates in `value`.
    #[serde(default)]
    pub variables: IndexMap<String, Input>,
}

fn positional() -> String {
    "positional".into()
}

impl Argument {
    /// True for `--flag value` arguments.
    pub fn is_named(&self) -> bool {
        self.kind == "named"
    }
}

/// A named input: an environment variable or an HTTP header.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyValueInput {
    /// The variable or header name.
    pub name: String,
    /// The common input fields.
    #[serde(flatten)]
    pub input: Input,
    /// Values for `{variable}` templates in `value`.
    #[serde(default)]
    pub variables: IndexMap<String, Input>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_bad_entry_is_skipped_and_the_rest_kept() {
        let body = br#"{"servers": [
            {"server": {"name": "a.b/ok", "version": "1.0.0", "description": "fine"},
             "_meta": {"io.modelcontextprotocol.registry/official": {"status": "deprecated"}}},
            {"server": {"name": "a.b/bad", "remotes": {"not": "a list"}}},
            {"server": {"name": ""}},
            "not an object",
            {"name": "a.b/bare", "version": "2.0.0", "packages": [
                {"registry_type": "npm", "identifier": "x", "version": "1.0.0",
                 "environment_variables": [{"name": "N", "is_required": true, "default": 5}]}]}
        ], "metadata": {"next_cursor": "c2"}}"#;
        let list = ServerList::parse(body).unwrap();
        let names: Vec<_> = list
            .servers
            .iter()
            .map(|e| e.server.name.as_str())
            .collect();
        assert_eq!(names, ["a.b/ok", "a.b/bare"]);
        assert_eq!(list.warnings.len(), 3, "{:?}", list.warnings);
        assert!(list.warnings[0].contains("#2 `a.b/bad`"));
        assert_eq!(list.next_cursor.as_deref(), Some("c2"));
        assert_eq!(list.servers[0].status(), Status::Deprecated);
        let env = &list.servers[1].server.packages[0].environment_variables[0];
        assert!(env.input.is_required);
        assert_eq!(env.input.default.as_deref(), Some("5"));
    }

    #[test]
    fn a_body_that_is_not_a_registry_list_is_an_error() {
        assert!(ServerList::parse(b"<html>").is_err());
        assert!(ServerList::parse(b"{\"items\": []}").is_err());
        let empty =
            ServerList::parse(b"{\"servers\": [], \"metadata\": {\"nextCursor\": \"\"}}").unwrap();
        assert!(empty.servers.is_empty() && empty.next_cursor.is_none());
    }
}
