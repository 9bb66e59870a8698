//! The raw serde model: a file's top level and its entries as written,
//! before their fields are checked against each other. Reading is strict
//! here already: a duplicate key or a wrong type is refused, never the
//! last one silently winning.

use std::fmt;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde::Deserialize;
use serde::de::{self, IgnoredAny, MapAccess, Visitor};

use crate::defs::error::DefsError;
use crate::defs::grants::RawToolGrants;
use crate::defs::inputs::{self, InputSpec};
use crate::defs::syntax::{Format, SUPPORTED_SHAPES, Shape};

/// A file's raw entries, in file order.
pub(in crate::defs) type Entries = Vec<(String, RawEntry)>;

/// The refusal of a document whose top level is no shape mcpctl knows.
fn unknown_shape(path: &Path, what: &str) -> DefsError {
    DefsError::Invalid {
        path: path.to_path_buf(),
        message: format!("{what}; this is not a definition file shape mcpctl reads"),
        hint: format!("mcpctl reads {SUPPORTED_SHAPES}"),
    }
}

/// The top level, read in one pass when it holds `mcpServers` or `servers`
/// (the common case); a flat map is only recognised here and read in a
/// second pass, because its entries cannot be typed until those keys are
/// known absent.
pub(super) enum Top {
    Servers(Shape, Entries, Vec<InputSpec>),
    Flat,
    Empty,
    /// A container key of another tool's file (`mcp`, `context_servers` …),
    /// or both `mcpServers` and `servers`: refused, never guessed at.
    Unknown(String),
}

/// Top-level keys that mark a settings file of some other shape: read as a
/// flat map, they would become servers named `mcp` or `context_servers`.
const FOREIGN_KEYS: &[&str] = &[
    "mcp",
    "context_servers",
    "mcp_servers",
    "projects",
    "inputs",
    "servers",
    "mcpServers",
];

impl Top {
    /// The shape and entries, reading a flat map with `flat` when the top
    /// level is one.
    pub(super) fn resolve(
        self,
        path: &Path,
        flat: impl FnOnce(()) -> Result<Entries, DefsError>,
    ) -> Result<(Shape, Entries), DefsError> {
        match self {
            Top::Servers(shape, entries, inputs) => {
                inputs::declare_inputs(inputs);
                Ok((shape, entries))
            }
            Top::Empty => Ok((Format::for_new_file(path).shape, Vec::new())),
            Top::Flat => Ok((Shape::Flat, flat(())?)),
            Top::Unknown(what) => Err(unknown_shape(path, &what)),
        }
    }
}

/// One `inputs` entry as VS Code writes it; only what a prompt needs.
#[derive(Deserialize)]
struct RawInput {
    id: String,
    description: Option<String>,
    #[serde(default)]
    password: bool,
}

impl<'de> Deserialize<'de> for Top {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TopVisitor;
        impl<'de> Visitor<'de> for TopVisitor {
            type Value = Top;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "a map of server names to definitions, or a map with an `mcpServers` key",
                )
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Top, A::Error> {
                let mut seen = std::collections::HashSet::new();
                let mut found: Vec<(Shape, Entries)> = Vec::new();
                let mut inputs = Vec::new();
                let mut has_inputs = false;
                let mut foreign = None;
                while let Some(key) = map.next_key::<String>()? {
                    if !seen.insert(key.clone()) {
                        return Err(de::Error::custom(format!("duplicate key `{key}`")));
                    }
                    let shape = match key.as_str() {
                        "mcpServers" => Some(Shape::McpServers),
                        "servers" => Some(Shape::Servers),
                        _ => None,
                    };
                    if let Some(shape) = shape {
                        // `mcpServers:` with nothing after it (or `null`, `~`) is empty.
                        let value = map.next_value::<Option<UniqueMap<RawEntry>>>()?;
                        found.push((shape, value.map(|map| map.0).unwrap_or_default()));
                    } else if key == "inputs" {
                        let value = map.next_value::<Option<Vec<RawInput>>>()?;
                        inputs = value.unwrap_or_default();
                        has_inputs = true;
                    } else {
                        if foreign.is_none() && FOREIGN_KEYS.contains(&key.as_str()) {
                            foreign = Some(key);
                        }
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                let inputs = inputs
                    .into_iter()
                    .map(|input| InputSpec {
                        id: input.id,
                        description: input.description,
                        password: input.password,
                    })
                    .collect();
                Ok(match (found.len(), foreign) {
                    (1, _) => {
                        let (shape, entries) = found.remove(0);
                        Top::Servers(shape, entries, inputs)
                    }
                    (0, None) if seen.is_empty() => Top::Empty,
                    (0, None) if has_inputs => {
                        Top::Unknown("the file has `inputs` but no `servers`".to_string())
                    }
                    (0, None) => Top::Flat,
                    (0, Some(key)) => Top::Unknown(format!(
                        "the top-level key `{key}` belongs to another tool's settings"
                    )),
                    _ => Top::Unknown(
                        "the file has both `mcpServers` and `servers`; which one a client reads is unclear"
                            .to_string(),
                    ),
                })
            }
        }
        deserializer.deserialize_map(TopVisitor)
    }
}

/// A map that refuses duplicate keys instead of letting the last one win.
pub(super) struct UniqueMap<V>(pub(super) Vec<(String, V)>);

impl<'de, V: Deserialize<'de>> Deserialize<'de> for UniqueMap<V> {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct UniqueVisitor<V>(PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for UniqueVisitor<V> {
            type Value = UniqueMap<V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_unit<E: de::Error>(self) -> Result<UniqueMap<V>, E> {
                Ok(UniqueMap(Vec::new()))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<UniqueMap<V>, A::Error> {
                let mut entries: Vec<(String, V)> = Vec::new();
                let mut seen = std::collections::HashSet::new();
                while let Some(key) = map.next_key::<String>()? {
                    if !seen.insert(key.clone()) {
                        return Err(de::Error::custom(format!("duplicate key `{key}`")));
                    }
                    let value = map.next_value::<V>()?;
                    entries.push((key, value));
                }
                Ok(UniqueMap(entries))
            }
        }
        deserializer.deserialize_map(UniqueVisitor(PhantomData))
    }
}

impl<V> UniqueMap<V> {
    pub(super) fn into_index_map(self) -> IndexMap<String, V> {
        self.0.into_iter().collect()
    }
}

/// A connect timeout in seconds, as written: an integer or a fraction.
pub(super) struct Seconds(pub(super) f64);

impl<'de> Deserialize<'de> for Seconds {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SecondsVisitor;
        impl Visitor<'_> for SecondsVisitor {
            type Value = Seconds;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number of seconds")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Seconds, E> {
                Ok(Seconds(v as f64))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Seconds, E> {
                Ok(Seconds(v as f64))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Seconds, E> {
                Ok(Seconds(v))
            }
        }
        deserializer.deserialize_any(SecondsVisitor)
    }
}

/// One entry as written, before its fields are checked against each other.
/// Client-specific spellings are read too: Windsurf's `serverUrl`, Codex's
/// `http_headers`, `env_http_headers` and `bearer_token_env_var` (which
/// become `${VAR}` header references), VS Code's `envFile`.
#[derive(Deserialize)]
#[serde(expecting = "a server definition (an object with `command` or `url`)")]
pub(in crate::defs) struct RawEntry {
    #[serde(rename = "serverUrl")]
    pub(super) server_url: Option<String>,
    pub(super) http_headers: Option<UniqueMap<String>>,
    pub(super) env_http_headers: Option<UniqueMap<String>>,
    pub(super) bearer_token_env_var: Option<String>,
    pub(super) transport: Option<String>,
    #[serde(rename = "type")]
    pub(super) kind: Option<String>,
    pub(super) command: Option<String>,
    pub(super) args: Option<Vec<String>>,
    pub(super) env: Option<UniqueMap<String>>,
    pub(super) cwd: Option<PathBuf>,
    pub(super) url: Option<String>,
    pub(super) headers: Option<UniqueMap<String>>,
    pub(super) label: Option<String>,
    pub(super) enabled: Option<bool>,
    pub(super) disabled: Option<bool>,
    pub(super) autostart: Option<bool>,
    pub(super) connect_timeout: Option<Seconds>,
    pub(super) protocol: Option<String>,
    pub(super) restart: Option<String>,
    pub(super) auth: Option<String>,
    pub(super) grant: Option<String>,
    pub(super) client_id: Option<String>,
    pub(super) client_secret: Option<String>,
    pub(super) token_endpoint_auth: Option<String>,
    pub(super) client_key: Option<String>,
    pub(super) scope: Option<String>,
    pub(super) client_metadata_url: Option<String>,
    #[serde(rename = "envFile")]
    pub(super) env_file: Option<PathBuf>,
    pub(super) tools: Option<RawToolGrants>,
    pub(super) profiles: Option<IndexMap<String, RawToolGrants>>,
    /// The sandbox policy, read as JSON whatever the file's format and
    /// checked by [`crate::sandbox::policy::parse`].
    pub(super) sandbox: Option<serde_json::Value>,
}

impl RawEntry {
    /// Fold the clients' own spellings into mcpctl's fields.
    pub(super) fn fold_client_spellings(
        &mut self,
        fail: &dyn Fn(String) -> DefsError,
    ) -> Result<(), DefsError> {
        if let Some(server_url) = self.server_url.take() {
            if self.url.is_some() {
                return Err(fail("has both `url` and `serverUrl`".to_string()));
            }
            self.url = Some(server_url);
        }
        let codex = self.http_headers.is_some()
            || self.env_http_headers.is_some()
            || self.bearer_token_env_var.is_some();
        if !codex {
            return Ok(());
        }
        let mut headers: Vec<(String, String)> =
            self.headers.take().map(|map| map.0).unwrap_or_default();
        let mut push = |key: String, value: String| -> Result<(), DefsError> {
            if headers.iter().any(|(k, _)| k.eq_ignore_ascii_case(&key)) {
                return Err(fail(format!("header `{key}` is set twice")));
            }
            headers.push((key, value));
            Ok(())
        };
        for (key, value) in self.http_headers.take().map(|m| m.0).unwrap_or_default() {
            push(key, value)?;
        }
        for (key, var) in self
            .env_http_headers
            .take()
            .map(|m| m.0)
            .unwrap_or_default()
        {
            push(key, format!("${{{var}}}"))?;
        }
        if let Some(var) = self.bearer_token_env_var.take() {
            push("Authorization".to_string(), format!("Bearer ${{{var}}}"))?;
        }
        self.headers = Some(UniqueMap(headers));
        Ok(())
    }
}
