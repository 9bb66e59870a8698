//! The lockfile on disk: its model, a strict reader that names the line and
//! column of anything it refuses, and a writer whose output is sorted and
//! stable so that a change reads well in a diff.
//!
//! The text is TOML, one `[servers.NAME]` block per server (plus its
//! `artifact` and `tools`, `prompts`, `resource_templates` tables), every
//! table and key in byte order. Each catalog entry is one line:
//! `name = { hash = "sha256:…", definition = '<canonical JSON>' }`, so a
//! changed description shows as one changed line in review, and the reader
//! checks every hash against its definition (a hand edit that changes one
//! and not the other is refused).

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use toml_edit::{DocumentMut, InlineTable, Item, Table, Value};

use super::canonical::{Pinned, sha256};
use super::error::LockError;

/// The format version this build reads and writes.
pub const FORMAT_VERSION: i64 = 1;

/// A whole lockfile.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LockFile {
    /// The file name of the definitions file this lock belongs to.
    pub definitions: String,
    /// One block per server, by name.
    pub servers: BTreeMap<String, ServerLock>,
}

/// What one server launched and claimed when it was locked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerLock {
    /// `stdio`, `streamable-http` or `sse`.
    pub transport: String,
    /// What runs.
    pub artifact: Artifact,
    /// `serverInfo.name`.
    pub server_name: Option<String>,
    /// `serverInfo.version`.
    pub server_version: Option<String>,
    /// The negotiated protocol version.
    pub protocol: String,
    /// The client capabilities mcpctl offered when the catalog was listed
    /// (`elicitation.form`, `roots`, …): a server may list some tools only
    /// to clients that offer some of them. Empty in a lockfile written
    /// before mcpctl recorded them (not compared then).
    pub capabilities: Vec<String>,
    /// Tools by name.
    pub tools: BTreeMap<String, Pinned>,
    /// Prompts by name.
    pub prompts: BTreeMap<String, Pinned>,
    /// Resource templates by name.
    pub resource_templates: BTreeMap<String, Pinned>,
}

/// Where the code a server runs comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Artifact {
    /// `npm`, `pypi`, `oci`, `url` or `command`.
    pub kind: String,
    /// The package, image, URL or command.
    pub source: String,
    /// The exact version (from the definition, or resolved from the registry).
    pub version: Option<String>,
    /// True when the definition itself names that exact version.
    pub pinned: bool,
    /// Registry integrity: npm `dist.integrity`; for PyPI one
    /// `sha256:<hex> <file name>` per distribution; an OCI digest.
    pub integrity: Vec<String>,
    /// Why something is missing (no registry to ask, lookup failed …).
    pub note: Option<String>,
}

/// The lockfile beside `definitions`: the file name without its last
/// extension, plus `.lock` (`servers.json` → `servers.lock`, `.mcp.json`
/// → `.mcp.lock`, `config.toml` → `config.lock`).
pub fn path_for(definitions: &Path) -> Result<PathBuf, LockError> {
    let no_name = || LockError::NoName {
        path: definitions.to_path_buf(),
    };
    let stem = definitions.file_stem().ok_or_else(no_name)?;
    let mut name = stem.to_os_string();
    name.push(".lock");
    let lock = definitions.with_file_name(name);
    if lock == definitions {
        return Err(no_name());
    }
    Ok(lock)
}

/// The name a lockfile records for its definitions file.
pub fn definitions_name(definitions: &Path) -> String {
    definitions
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Read the lockfile of `definitions`; `None` when there is none. A lock
/// that names another definitions file is refused, and so is one another
/// user could change (as a definitions file is: group- or world-writable,
/// or owned by someone else; see [`crate::defs::trust`]) unless
/// `allow_insecure_file`: whoever writes the lockfile decides which tools
/// run unreviewed.
pub fn load(
    definitions: &Path,
    allow_insecure_file: bool,
) -> Result<Option<(PathBuf, LockFile)>, LockError> {
    let path = path_for(definitions)?;
    crate::defs::trust::require(&path, allow_insecure_file)?;
    let Some(text) = crate::defs::store::read_text(&path)? else {
        return Ok(None);
    };
    let lock = parse(&path, &text)?;
    belongs(&path, &lock, definitions)?;
    Ok(Some((path, lock)))
}

/// Refuse a lock written for another definitions file.
pub fn belongs(path: &Path, lock: &LockFile, definitions: &Path) -> Result<(), LockError> {
    let ours = definitions_name(definitions);
    if lock.definitions != ours {
        return Err(LockError::OtherDefinitions {
            path: path.to_path_buf(),
            theirs: lock.definitions.clone(),
            ours,
        });
    }
    Ok(())
}

/// Parse a lockfile's text.
pub fn parse(path: &Path, text: &str) -> Result<LockFile, LockError> {
    let reader = Reader { path, text };
    let doc = toml_edit::Document::parse(text).map_err(|err| {
        let message = err.message().trim().to_string();
        reader.error(err.span(), message)
    })?;
    let root = doc.as_table();
    reader.only_keys(root, &["version", "definitions", "servers"])?;
    let version = reader.required(root, "version", None)?;
    match version.as_integer() {
        Some(FORMAT_VERSION) => {}
        Some(other) => {
            return Err(reader.error(
                version.span(),
                format!(
                    "lockfile version {other} is not one this mcpctl reads (it reads {FORMAT_VERSION})"
                ),
            ));
        }
        None => return Err(reader.error(version.span(), "`version` must be an integer".into())),
    }
    let definitions = reader.string(root, "definitions", None)?;
    let mut servers = BTreeMap::new();
    if let Some(item) = root.get("servers") {
        let table = item
            .as_table()
            .ok_or_else(|| reader.error(item.span(), "`servers` must be a table".into()))?;
        for (name, item) in table.iter() {
            let span = table.key(name).and_then(|k| k.span()).or(item.span());
            if crate::validate::name::check(name).is_some() {
                return Err(reader.error(
                    span,
                    format!(
                        "`{}` is not a valid server name",
                        crate::output::sanitize(name)
                    ),
                ));
            }
            let block = item
                .as_table()
                .ok_or_else(|| reader.error(span, format!("`servers.{name}` must be a table")))?;
            servers.insert(name.to_string(), reader.server(name, block)?);
        }
    }
    Ok(LockFile {
        definitions,
        servers,
    })
}

struct Reader<'a> {
    path: &'a Path,
    text: &'a str,
}

impl Reader<'_> {
    fn error(&self, span: Option<Range<usize>>, message: String) -> LockError {
        let offset = span.map_or(0, |s| s.start).min(self.text.len());
        let mut end = offset;
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let before = &self.text[..end];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        LockError::Malformed {
            path: self.path.to_path_buf(),
            line,
            column,
            message,
        }
    }

    fn only_keys(&self, table: &Table, allowed: &[&str]) -> Result<(), LockError> {
        for (key, item) in table.iter() {
            if !allowed.contains(&key) {
                let span = table.key(key).and_then(|k| k.span()).or(item.span());
                return Err(self.error(
                    span,
                    format!(
                        "unknown key `{}` (expected one of: {})",
                        crate::output::sanitize(key),
                        allowed.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }

    fn required<'t>(
        &self,
        table: &'t Table,
        key: &str,
        within: Option<&str>,
    ) -> Result<&'t Item, LockError> {
        table.get(key).ok_or_else(|| {
            let place = within.map(|w| format!(" in `{w}`")).unwrap_or_default();
            self.error(table.span(), format!("missing `{key}`{place}"))
        })
    }

    fn string(&self, table: &Table, key: &str, within: Option<&str>) -> Result<String, LockError> {
        let item = self.required(table, key, within)?;
        item.as_str()
            .map(str::to_string)
            .ok_or_else(|| self.error(item.span(), format!("`{key}` must be a string")))
    }

    fn optional_string(&self, table: &Table, key: &str) -> Result<Option<String>, LockError> {
        match table.get(key) {
            None => Ok(None),
            Some(item) => item
                .as_str()
                .map(|s| Some(s.to_string()))
                .ok_or_else(|| self.error(item.span(), format!("`{key}` must be a string"))),
        }
    }

    fn server(&self, name: &str, block: &Table) -> Result<ServerLock, LockError> {
        let at = format!("servers.{name}");
        self.only_keys(
            block,
            &[
                "transport",
                "server_name",
                "server_version",
                "protocol",
                "capabilities",
                "artifact",
                "tools",
                "prompts",
                "resource_templates",
            ],
        )?;
        let artifact_item = self.required(block, "artifact", Some(&at))?;
        let artifact_table = artifact_item.as_table().ok_or_else(|| {
            self.error(
                artifact_item.span(),
                format!("`{at}.artifact` must be a table"),
            )
        })?;
        Ok(ServerLock {
            transport: self.string(block, "transport", Some(&at))?,
            server_name: self.optional_string(block, "server_name")?,
            server_version: self.optional_string(block, "server_version")?,
            protocol: self.string(block, "protocol", Some(&at))?,
            capabilities: self.strings(block, "capabilities")?,
            artifact: self.artifact(&at, artifact_table)?,
            tools: self.entries(block, "tools")?,
            prompts: self.entries(block, "prompts")?,
            resource_templates: self.entries(block, "resource_templates")?,
        })
    }

    fn artifact(&self, at: &str, table: &Table) -> Result<Artifact, LockError> {
        let within = format!("{at}.artifact");
        self.only_keys(
            table,
            &["kind", "source", "version", "pinned", "integrity", "note"],
        )?;
        let kind_item = self.required(table, "kind", Some(&within))?;
        let kind = self.string(table, "kind", Some(&within))?;
        if !KINDS.contains(&kind.as_str()) {
            return Err(self.error(
                kind_item.span(),
                format!(
                    "unknown artifact kind `{}` (expected one of: {})",
                    crate::output::sanitize(&kind),
                    KINDS.join(", ")
                ),
            ));
        }
        let pinned = match table.get("pinned") {
            None => false,
            Some(item) => item
                .as_bool()
                .ok_or_else(|| self.error(item.span(), "`pinned` must be true or false".into()))?,
        };
        let integrity = self.strings(table, "integrity")?;
        Ok(Artifact {
            kind,
            source: self.string(table, "source", Some(&within))?,
            version: self.optional_string(table, "version")?,
            pinned,
            integrity,
            note: self.optional_string(table, "note")?,
        })
    }

    /// An optional array of strings (empty when absent).
    fn strings(&self, table: &Table, key: &str) -> Result<Vec<String>, LockError> {
        let Some(item) = table.get(key) else {
            return Ok(Vec::new());
        };
        let refused = |span| self.error(span, format!("`{key}` must be an array of strings"));
        let array = item.as_array().ok_or_else(|| refused(item.span()))?;
        array
            .iter()
            .map(|value| {
                value
                    .as_str()
                    .map(str::to_string)
                    .ok_or_else(|| refused(value.span()))
            })
            .collect()
    }

    fn entries(&self, block: &Table, key: &str) -> Result<BTreeMap<String, Pinned>, LockError> {
        let mut out = BTreeMap::new();
        let Some(item) = block.get(key) else {
            return Ok(out);
        };
        let table = item
            .as_table_like()
            .ok_or_else(|| self.error(item.span(), format!("`{key}` must be a table")))?;
        for (name, item) in table.iter() {
            let span = item.span();
            let entry = item.as_inline_table().ok_or_else(|| {
                self.error(
                    span.clone(),
                    format!("`{key}.{name}` must be {{ hash = \"…\", definition = \"…\" }}"),
                )
            })?;
            for (field, value) in entry.iter() {
                if field != "hash" && field != "definition" {
                    return Err(self.error(
                        value.span(),
                        format!(
                            "unknown key `{}` (expected hash, definition)",
                            crate::output::sanitize(field)
                        ),
                    ));
                }
            }
            let field = |f: &str| -> Result<String, LockError> {
                entry
                    .get(f)
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .ok_or_else(|| {
                        self.error(span.clone(), format!("`{key}.{name}` needs a string `{f}`"))
                    })
            };
            let hash = field("hash")?;
            let definition = field("definition")?;
            if serde_json::from_str::<serde_json::Value>(&definition).is_err() {
                return Err(self.error(span, format!("`{key}.{name}`: the definition is not JSON")));
            }
            if sha256(&definition) != hash {
                return Err(self.error(
                    span,
                    format!(
                        "`{key}.{name}`: the hash does not match the definition (edited by hand?)"
                    ),
                ));
            }
            out.insert(name.to_string(), Pinned { hash, definition });
        }
        Ok(out)
    }
}

/// The artifact kinds a lockfile may name.
pub const KINDS: &[&str] = &["npm", "pypi", "oci", "url", "command"];

const HEADER: &str = "\
# mcpctl lockfile: what each server launches and what its tools, prompts and
# resource templates claim to do. Written by `mcpctl lock` and `mcpctl approve`;
# review changes like code. `mcpctl check --locked` and the supervisor compare
# every server with its block here.
";

/// The lockfile's text: sorted, stable, one block per server.
pub fn render(lock: &LockFile) -> String {
    let mut doc = DocumentMut::new();
    doc.decor_mut().set_prefix(HEADER);
    doc["version"] = toml_edit::value(FORMAT_VERSION);
    doc["definitions"] = toml_edit::value(lock.definitions.as_str());
    let mut servers = Table::new();
    servers.set_implicit(true);
    for (name, server) in &lock.servers {
        let mut block = Table::new();
        block.insert("transport", toml_edit::value(server.transport.as_str()));
        if let Some(n) = &server.server_name {
            block.insert("server_name", toml_edit::value(n.as_str()));
        }
        if let Some(v) = &server.server_version {
            block.insert("server_version", toml_edit::value(v.as_str()));
        }
        block.insert("protocol", toml_edit::value(server.protocol.as_str()));
        if !server.capabilities.is_empty() {
            let names: toml_edit::Array = server.capabilities.iter().map(String::as_str).collect();
            block.insert("capabilities", toml_edit::value(names));
        }
        let a = &server.artifact;
        let mut artifact = Table::new();
        artifact.insert("kind", toml_edit::value(a.kind.as_str()));
        artifact.insert("source", toml_edit::value(a.source.as_str()));
        if let Some(v) = &a.version {
            artifact.insert("version", toml_edit::value(v.as_str()));
        }
        artifact.insert("pinned", toml_edit::value(a.pinned));
        if !a.integrity.is_empty() {
            let mut array = toml_edit::Array::new();
            for i in &a.integrity {
                array.push_formatted(Value::from(i.as_str()).decorated("\n  ", ""));
            }
            array.set_trailing("\n");
            array.set_trailing_comma(true);
            artifact.insert("integrity", toml_edit::value(array));
        }
        if let Some(n) = &a.note {
            artifact.insert("note", toml_edit::value(n.as_str()));
        }
        block.insert("artifact", Item::Table(artifact));
        for (key, entries) in [
            ("tools", &server.tools),
            ("prompts", &server.prompts),
            ("resource_templates", &server.resource_templates),
        ] {
            if entries.is_empty() {
                continue;
            }
            let mut table = Table::new();
            for (entry_name, pinned) in entries {
                let mut inline = InlineTable::new();
                inline.insert("hash", Value::from(pinned.hash.as_str()));
                inline.insert("definition", Value::from(pinned.definition.as_str()));
                table.insert(entry_name, toml_edit::value(inline));
            }
            block.insert(key, Item::Table(table));
        }
        servers.insert(name, Item::Table(block));
    }
    doc["servers"] = Item::Table(servers);
    let mut text = doc.to_string();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sample() -> LockFile {
        let mut tools = BTreeMap::new();
        tools.insert(
            "echo".to_string(),
            Pinned::of(
                &json!({"description":"it's \"quoted\"\nand new"}),
                &["description"],
            ),
        );
        tools.insert(
            "we\u{1b}ird key".to_string(),
            Pinned::of(&json!({"description":"x"}), &["description"]),
        );
        let server = ServerLock {
            transport: "stdio".into(),
            artifact: Artifact {
                kind: "npm".into(),
                source: "@scope/pkg".into(),
                version: Some("1.2.3".into()),
                pinned: true,
                integrity: vec!["sha512-abc==".into()],
                note: None,
            },
            server_name: Some("srv".into()),
            server_version: Some("1.0".into()),
            protocol: "2025-11-25".into(),
            capabilities: vec!["elicitation.form".into(), "roots".into()],
            tools,
            prompts: BTreeMap::new(),
            resource_templates: BTreeMap::new(),
        };
        let mut servers = BTreeMap::new();
        servers.insert("b".to_string(), server.clone());
        servers.insert("a".to_string(), server);
        LockFile {
            definitions: "servers.json".into(),
            servers,
        }
    }

    #[test]
    fn render_then_parse_round_trips_and_is_sorted() {
        let lock = sample();
        let text = render(&lock);
        let parsed = parse(Path::new("s.lock"), &text).unwrap();
        assert_eq!(parsed, lock);
        assert!(text.find("[servers.a]").unwrap() < text.find("[servers.b]").unwrap());
        assert_eq!(render(&parsed), text);
    }

    #[test]
    fn a_hand_edited_hash_is_refused_with_its_line() {
        let text = render(&sample()).replacen("it's", "it is", 1);
        let err = parse(Path::new("s.lock"), &text).unwrap_err().to_string();
        assert!(err.contains("the hash does not match"), "{err}");
        assert!(err.starts_with("s.lock:"), "{err}");
    }

    #[test]
    fn a_lockfile_without_capabilities_still_reads() {
        let mut lock = sample();
        for server in lock.servers.values_mut() {
            server.capabilities.clear();
        }
        let text = render(&lock);
        assert!(!text.contains("capabilities"), "{text}");
        assert_eq!(parse(Path::new("s.lock"), &text).unwrap(), lock);
        let bad = render(&sample()).replace("\"roots\"]", "1]");
        let err = parse(Path::new("s.lock"), &bad).unwrap_err().to_string();
        assert!(
            err.contains("`capabilities` must be an array of strings"),
            "{err}"
        );
    }

    #[test]
    fn lock_names_follow_the_stem_rule() {
        assert_eq!(
            path_for(Path::new("/d/servers.json")).unwrap(),
            Path::new("/d/servers.lock")
        );
        assert_eq!(
            path_for(Path::new("/d/.mcp.json")).unwrap(),
            Path::new("/d/.mcp.lock")
        );
        assert!(path_for(Path::new("/d/servers.lock")).is_err());
    }
}
