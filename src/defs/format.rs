//! The on-disk shapes of a definition file and how to read them.
//!
//! Every client's own file shares one model: a flat JSON map of servers,
//! `{"mcpServers": {…}}` JSON (Claude Desktop, Claude Code, Cursor, Windsurf;
//! JSONC comments allowed), `{"servers": {…}}` JSON (VS Code, with `inputs`),
//! `mcpServers:` YAML, and Codex's `[mcp_servers.NAME]` TOML tables. The
//! shape is detected from the content (from the file name for a new or empty
//! file) and remembered so that edits write back in the same shape and
//! vocabulary; a document of no known shape is refused with the list of the
//! shapes there are, never read as servers. Reading is strict:
//! a duplicate key, a wrong type or an unknown transport is an error with the
//! file's path, line and column, never a silent guess.

use std::fmt;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde::Deserialize;
use serde::de::{self, IgnoredAny, MapAccess, Visitor};

use super::error::DefsError;
use super::model::{
    Grant, Launch, LocalProcess, OAuth, RestartPolicy, ServerDef, TokenEndpointAuth, Transport,
};
use super::{layout, nesting};

/// JSON (with JSONC comments tolerated) or YAML.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Syntax {
    /// JSON or JSONC.
    Json,
    /// YAML 1.2.
    Yaml,
    /// TOML (Codex's `config.toml`).
    Toml,
}

/// Where the servers live inside the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Shape {
    /// The top-level object maps names to servers.
    Flat,
    /// Servers live under a top-level `mcpServers` key, beside other settings.
    McpServers,
    /// VS Code: servers under a top-level `servers` key, beside `inputs`.
    Servers,
    /// Codex: `[mcp_servers.NAME]` tables in `config.toml`.
    McpServersTables,
    /// Claude Code's `~/.claude.json`: one project's servers, under
    /// `projects.<PATH>.mcpServers` (see [`select_project`]).
    ClaudeProject,
}

impl Shape {
    /// The top-level key the servers live under; `None` for a flat file.
    pub fn key(self) -> Option<&'static str> {
        match self {
            Shape::Flat => None,
            Shape::McpServers => Some("mcpServers"),
            Shape::Servers => Some("servers"),
            Shape::McpServersTables => Some("mcp_servers"),
            Shape::ClaudeProject => None,
        }
    }
}

/// The project `--project` names, made absolute; set once per process.
static PROJECT: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();

/// Choose the project whose servers `~/.claude.json` gives (`--project`);
/// `None` means the current directory, when the file has an entry for it.
pub fn select_project(project: Option<&Path>) {
    let _ = PROJECT.set(project.map(super::sources::canonical));
}

/// The `projects` key of `~/.claude.json` to read and edit: the one
/// `--project` names (whether or not the file has it yet), else the current
/// directory's when the file has an entry with servers for it, else none.
pub fn claude_project(projects: &serde_json::Map<String, serde_json::Value>) -> Option<String> {
    if let Some(Some(chosen)) = PROJECT.get() {
        return Some(chosen.to_string_lossy().into_owned());
    }
    let cwd = std::env::current_dir().ok()?;
    let cwd = super::sources::canonical(&cwd)
        .to_string_lossy()
        .into_owned();
    projects
        .get(&cwd)
        .and_then(|project| project.get("mcpServers"))
        .is_some()
        .then_some(cwd)
}

/// True for Claude Code's user file, `~/.claude.json`.
pub fn is_claude_user_file(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()) == Some(".claude.json")
}

/// Read the servers of the selected project of `~/.claude.json`, or `None`
/// when no project is selected (the top-level `mcpServers` is read then).
fn parse_claude_project(path: &Path, text: &str) -> Result<Option<Entries>, DefsError> {
    let value: serde_json::Value = match jsonc_parser::parse_to_serde_value(text, &jsonc_options())
    {
        Ok(value) => value,
        // The ordinary reader reports the syntax error with its position.
        Err(_) => return Ok(None),
    };
    let empty = serde_json::Map::new();
    let projects = value
        .get("projects")
        .and_then(|p| p.as_object())
        .unwrap_or(&empty);
    let Some(project) = claude_project(projects) else {
        return Ok(None);
    };
    let servers = projects
        .get(&project)
        .and_then(|p| p.get("mcpServers"))
        .cloned()
        .unwrap_or(serde_json::Value::Null);
    Option::<UniqueMap<RawEntry>>::deserialize(&servers)
        .map(|map| Some(map.map(|m| m.0).unwrap_or_default()))
        .map_err(|err| DefsError::Invalid {
            path: path.to_path_buf(),
            message: format!("project `{project}`: {err}"),
            hint: "fix the file by hand; mcpctl left it untouched".to_string(),
        })
}

/// The shapes mcpctl reads, in words, for the refusal of any other.
pub const SUPPORTED_SHAPES: &str = "`{\"mcpServers\": {…}}` JSON or YAML (Claude Desktop, \
Claude Code, Cursor, Windsurf), `{\"servers\": {…}}` JSON (VS Code), `[mcp_servers.NAME]` \
TOML (Codex) or a flat map of server names to definitions";

/// The detected format of a file: syntax plus shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Format {
    /// JSON or YAML.
    pub syntax: Syntax,
    /// Flat or `mcpServers`.
    pub shape: Shape,
    /// The client whose spellings a new entry takes; only the file's path
    /// tells Cursor's and Windsurf's `mcpServers` files from the others.
    #[serde(skip)]
    pub dialect: Dialect,
}

/// Client spellings beyond the shape, known from the file's path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Dialect {
    /// mcpctl's own, Claude's and VS Code's (whose spellings the `servers`
    /// shape already implies).
    #[default]
    Common,
    /// Cursor (`.cursor/mcp.json`): expands only `${env:VAR}`.
    Cursor,
    /// Windsurf (`windsurf/mcp_config.json`): `serverUrl` for a remote
    /// server, and only `${env:VAR}` expanded.
    Windsurf,
}

impl Dialect {
    /// The dialect of the client that reads `path`.
    pub fn for_path(path: &Path) -> Dialect {
        let name = path.file_name().and_then(|n| n.to_str());
        let parent = path
            .parent()
            .and_then(|p| p.file_name())
            .and_then(|n| n.to_str());
        match (name, parent) {
            (Some("mcp.json"), Some(".cursor")) => Dialect::Cursor,
            (Some("mcp_config.json"), Some("windsurf")) => Dialect::Windsurf,
            _ => Dialect::Common,
        }
    }

    /// True when the client expands `${env:VAR}` and not a plain `${VAR}`.
    pub fn wants_env_prefix(self) -> bool {
        matches!(self, Dialect::Cursor | Dialect::Windsurf)
    }
}

impl Format {
    /// The format a new (missing or empty-object) file gets: the shape its
    /// client reads, known from the file name (`.vscode/mcp.json` and VS
    /// Code's user `mcp.json` take `servers`, a `.toml` file Codex's tables),
    /// else `mcpServers`, the shape most MCP clients read, in the syntax its
    /// extension implies.
    pub fn for_new_file(path: &Path) -> Format {
        let syntax = syntax_from_extension(path).unwrap_or(Syntax::Json);
        let shape = match syntax {
            Syntax::Toml => Shape::McpServersTables,
            _ if is_vscode_file(path) => Shape::Servers,
            _ => Shape::McpServers,
        };
        Format {
            syntax,
            shape,
            dialect: Dialect::for_path(path),
        }
    }
}

/// True for VS Code's files: `.vscode/mcp.json` in a workspace and the
/// user `mcp.json` in VS Code's profile (`Code/User/mcp.json`, or any
/// `mcp.json` under a `User` folder).
fn is_vscode_file(path: &Path) -> bool {
    if path.file_name().and_then(|n| n.to_str()) != Some("mcp.json") {
        return false;
    }
    let parent = path
        .parent()
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str());
    matches!(parent, Some(".vscode") | Some("User"))
}

/// The folder VS Code and Cursor mean by `${workspaceFolder}` for a file:
/// the folder holding its `.vscode` or `.cursor` directory, else the file's
/// own directory.
pub fn workspace_folder(path: &Path) -> PathBuf {
    let file = super::sources::canonical(path);
    let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
    match dir.file_name().and_then(|n| n.to_str()) {
        Some(".vscode") | Some(".cursor") => dir.parent().map(Path::to_path_buf).unwrap_or(dir),
        _ => dir,
    }
}

/// The largest definition file mcpctl reads; anything bigger is a mistake.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// A parsed definition file: its format and its servers in file order.
#[derive(Debug, Clone)]
pub struct ParsedFile {
    /// The detected format.
    pub format: Format,
    /// The servers, in the order the file lists them.
    pub servers: Vec<ServerDef>,
}

fn syntax_from_extension(path: &Path) -> Option<Syntax> {
    match path.extension()?.to_str()? {
        "yaml" | "yml" => Some(Syntax::Yaml),
        "json" | "jsonc" => Some(Syntax::Json),
        "toml" => Some(Syntax::Toml),
        _ => None,
    }
}

/// Decide the syntax from the extension, else from the first significant byte.
pub fn detect_syntax(path: &Path, text: &str) -> Syntax {
    syntax_from_extension(path).unwrap_or_else(|| match text.trim_start().chars().next() {
        Some('{') | Some('[') => Syntax::Json,
        _ => Syntax::Yaml,
    })
}

/// Decode a file's bytes, reporting invalid UTF-8 with its position.
pub fn decode(path: &Path, bytes: Vec<u8>) -> Result<String, DefsError> {
    String::from_utf8(bytes).map_err(|err| {
        let valid = err.utf8_error().valid_up_to();
        let (line, column) = line_col(&err.as_bytes()[..valid]);
        DefsError::Malformed {
            path: path.to_path_buf(),
            line,
            column,
            message: "the file is not valid UTF-8 text".to_string(),
        }
    })
}

fn line_col(prefix: &[u8]) -> (usize, usize) {
    let line = prefix.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = prefix
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(&prefix[line_start..])
        .chars()
        .count()
        + 1;
    (line, column)
}

/// Parse a definition file's text.
pub fn parse(path: &Path, text: &str) -> Result<ParsedFile, DefsError> {
    if text.trim().is_empty() {
        return Err(DefsError::Invalid {
            path: path.to_path_buf(),
            message: "the file is empty".to_string(),
            hint:
                "write `{\"mcpServers\": {}}` into it, or delete it and let `mcpctl add` create it"
                    .to_string(),
        });
    }
    let text = layout::without_bom(text);
    let syntax = detect_syntax(path, text);
    if syntax == Syntax::Toml {
        return super::toml::parse(path, text);
    }
    if let Some(offset) = nesting::too_deep(text, syntax) {
        let (line, column) = line_col(&text.as_bytes()[..offset]);
        return Err(DefsError::Malformed {
            path: path.to_path_buf(),
            line,
            column,
            message: format!(
                "nested deeper than {} levels; a definition file needs only a few",
                nesting::MAX_DEPTH
            ),
        });
    }
    let project = match syntax {
        Syntax::Json if is_claude_user_file(path) => parse_claude_project(path, text)?,
        _ => None,
    };
    let (shape, entries) = match (syntax, project) {
        (_, Some(entries)) => (Shape::ClaudeProject, entries),
        (Syntax::Json, None) => parse_json(path, text)?,
        (Syntax::Yaml, None) => parse_yaml(path, text)?,
        (Syntax::Toml, None) => unreachable!("TOML is read above"),
    };
    let servers = entries_into_defs(path, text, syntax, entries)?;
    Ok(ParsedFile {
        format: Format {
            syntax,
            shape,
            dialect: Dialect::for_path(path),
        },
        servers,
    })
}

/// Type-check the raw entries of a file against each other.
pub(super) fn entries_into_defs(
    path: &Path,
    text: &str,
    syntax: Syntax,
    entries: Entries,
) -> Result<Vec<ServerDef>, DefsError> {
    let mut workspace = None;
    entries
        .into_iter()
        .map(|(name, raw)| {
            let mut def = raw.into_def(name, path, text, syntax)?;
            substitute_workspace_folder(&mut def, || {
                workspace
                    .get_or_insert_with(|| workspace_folder(path))
                    .to_string_lossy()
                    .into_owned()
            });
            Ok(def)
        })
        .collect()
}

/// The reference VS Code and Cursor expand to the workspace folder.
const WORKSPACE_FOLDER: &str = "${workspaceFolder}";

/// Replace `${workspaceFolder}` in every launch value by the folder it
/// means for this file: a path, never a secret, so it is known on read.
fn substitute_workspace_folder(def: &mut ServerDef, folder: impl FnOnce() -> String) {
    let mut folder = Some(folder);
    let mut value = None;
    let mut fix = |text: &mut String| {
        if text.contains(WORKSPACE_FOLDER) {
            let with = value.get_or_insert_with(|| folder.take().map(|f| f()).unwrap_or_default());
            *text = text.replace(WORKSPACE_FOLDER, with);
        }
    };
    let fix_path = |path: &mut Option<PathBuf>, fix: &mut dyn FnMut(&mut String)| {
        if let Some(dir) = path {
            let mut text = dir.to_string_lossy().into_owned();
            fix(&mut text);
            *dir = PathBuf::from(text);
        }
    };
    match &mut def.launch {
        Launch::Stdio {
            command,
            args,
            env,
            cwd,
        } => {
            fix(command);
            args.iter_mut().for_each(&mut fix);
            env.values_mut().for_each(&mut fix);
            fix_path(cwd, &mut fix);
        }
        Launch::Remote {
            url,
            headers,
            process,
            ..
        } => {
            fix(url);
            headers.values_mut().for_each(&mut fix);
            if let Some(process) = process {
                fix(&mut process.command);
                process.args.iter_mut().for_each(&mut fix);
                process.env.values_mut().for_each(&mut fix);
                fix_path(&mut process.cwd, &mut fix);
            }
        }
    }
    fix_path(&mut def.env_file, &mut fix);
}

pub(super) type Entries = Vec<(String, RawEntry)>;

fn parse_json(path: &Path, text: &str) -> Result<(Shape, Entries), DefsError> {
    match serde_json::from_str::<Top>(text) {
        Ok(top) => top.resolve(path, |_| {
            serde_json::from_str::<UniqueMap<RawEntry>>(text)
                .map(|map| map.0)
                .map_err(|err| json_error(path, &err))
        }),
        Err(err) if err.is_syntax() || err.is_eof() => parse_jsonc(path, text, &err),
        Err(err) => Err(json_error(path, &err)),
    }
}

/// The refusal of a document whose top level is no shape mcpctl knows.
fn unknown_shape(path: &Path, what: &str) -> DefsError {
    DefsError::Invalid {
        path: path.to_path_buf(),
        message: format!("{what}; this is not a definition file shape mcpctl reads"),
        hint: format!("mcpctl reads {SUPPORTED_SHAPES}"),
    }
}

/// The JSON dialect mcpctl reads: JSON plus comments and trailing commas
/// (JSONC, what VS Code and Claude Code accept) and nothing looser.
/// jsonc-parser's defaults also take JSON5-isms (missing commas, single
/// quotes, hex numbers, bare keys); every parse of a definition file, the
/// editing ones included, goes through these options instead.
pub fn jsonc_options() -> jsonc_parser::ParseOptions {
    jsonc_parser::ParseOptions {
        allow_comments: true,
        allow_trailing_commas: true,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// Strict JSON failed on syntax; accept the file if it is valid JSONC
/// (comments, trailing commas), as VS Code-style files are.
fn parse_jsonc(
    path: &Path,
    text: &str,
    strict_err: &serde_json::Error,
) -> Result<(Shape, Entries), DefsError> {
    let value =
        match jsonc_parser::parse_to_serde_value::<serde_json::Value>(text, &jsonc_options()) {
            Ok(value) => value,
            Err(err) => return Err(jsonc_error(path, &err, strict_err)),
        };
    let invalid = |err: serde_json::Error| DefsError::Invalid {
        path: path.to_path_buf(),
        message: err.to_string(),
        hint: "fix the file by hand; mcpctl left it untouched".to_string(),
    };
    Top::deserialize(&value)
        .map_err(invalid)?
        .resolve(path, |_| {
            UniqueMap::<RawEntry>::deserialize(&value)
                .map(|map| map.0)
                .map_err(invalid)
        })
}

/// The error to report when neither strict JSON nor JSONC reads the text.
/// What JSONC refuses by name (a missing comma, single quotes …) is said in
/// those words; otherwise the error further into the file wins, since the
/// other parser stopped early at something legal (a comment, say).
fn jsonc_error(
    path: &Path,
    err: &jsonc_parser::errors::ParseError,
    strict_err: &serde_json::Error,
) -> DefsError {
    use jsonc_parser::errors::ParseErrorKind as Kind;
    let named = match err.kind() {
        Kind::ExpectedComma => Some("missing comma between items".to_string()),
        Kind::SingleQuotedStringsNotAllowed => {
            Some("single-quoted strings are not JSON; use double quotes".to_string())
        }
        Kind::HexadecimalNumbersNotAllowed => {
            Some("hexadecimal numbers are not JSON; write the number in decimal".to_string())
        }
        Kind::ExpectedStringObjectProperty | Kind::UnexpectedWord => {
            Some("object keys must be double-quoted strings".to_string())
        }
        Kind::UnaryPlusNumbersNotAllowed
        | Kind::BareDecimalPointNumbersNotAllowed
        | Kind::NonFiniteNumbersNotAllowed => Some(format!("{} in JSON", err.kind())),
        Kind::String(_) => Some(format!("invalid string: {}", err.kind())),
        _ => None,
    };
    let strict_at = (strict_err.line().max(1), strict_err.column().max(1));
    let further = (err.line_display(), err.column_display()) > strict_at;
    match named {
        Some(message) => DefsError::Malformed {
            path: path.to_path_buf(),
            line: err.line_display(),
            column: err.column_display(),
            message,
        },
        None if further => DefsError::Malformed {
            path: path.to_path_buf(),
            line: err.line_display(),
            column: err.column_display(),
            message: lowercase_first(&err.kind().to_string()),
        },
        None => json_error(path, strict_err),
    }
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn json_error(path: &Path, err: &serde_json::Error) -> DefsError {
    let message = err.to_string();
    let message = match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message,
    };
    DefsError::Malformed {
        path: path.to_path_buf(),
        line: err.line().max(1),
        column: err.column().max(1),
        message,
    }
}

fn parse_yaml(path: &Path, text: &str) -> Result<(Shape, Entries), DefsError> {
    let top = yaml_serde::from_str::<Top>(text).map_err(|err| yaml_error(path, &err))?;
    top.resolve(path, |_| {
        yaml_serde::from_str::<UniqueMap<RawEntry>>(text)
            .map(|map| map.0)
            .map_err(|err| yaml_error(path, &err))
    })
}

fn yaml_error(path: &Path, err: &yaml_serde::Error) -> DefsError {
    let message = err.to_string();
    let message = match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message,
    };
    let (line, column) = err
        .location()
        .map_or((1, 1), |loc| (loc.line(), loc.column()));
    DefsError::Malformed {
        path: path.to_path_buf(),
        line,
        column,
        message,
    }
}

/// The top level, read in one pass when it holds `mcpServers` or `servers`
/// (the common case); a flat map is only recognised here and read in a
/// second pass, because its entries cannot be typed until those keys are
/// known absent.
enum Top {
    Servers(Shape, Entries, Vec<super::vars::InputSpec>),
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
    fn resolve(
        self,
        path: &Path,
        flat: impl FnOnce(()) -> Result<Entries, DefsError>,
    ) -> Result<(Shape, Entries), DefsError> {
        match self {
            Top::Servers(shape, entries, inputs) => {
                super::vars::declare_inputs(inputs);
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
                    .map(|input| super::vars::InputSpec {
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
    fn into_index_map(self) -> IndexMap<String, V> {
        self.0.into_iter().collect()
    }
}

/// A connect timeout in seconds, as written: an integer or a fraction.
struct Seconds(f64);

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
pub(super) struct RawEntry {
    #[serde(rename = "serverUrl")]
    server_url: Option<String>,
    http_headers: Option<UniqueMap<String>>,
    env_http_headers: Option<UniqueMap<String>>,
    bearer_token_env_var: Option<String>,
    transport: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
    command: Option<String>,
    args: Option<Vec<String>>,
    env: Option<UniqueMap<String>>,
    cwd: Option<PathBuf>,
    url: Option<String>,
    headers: Option<UniqueMap<String>>,
    label: Option<String>,
    enabled: Option<bool>,
    disabled: Option<bool>,
    autostart: Option<bool>,
    connect_timeout: Option<Seconds>,
    protocol: Option<String>,
    restart: Option<String>,
    auth: Option<String>,
    grant: Option<String>,
    client_id: Option<String>,
    client_secret: Option<String>,
    token_endpoint_auth: Option<String>,
    client_key: Option<String>,
    scope: Option<String>,
    client_metadata_url: Option<String>,
    #[serde(rename = "envFile")]
    env_file: Option<PathBuf>,
    tools: Option<super::grants::RawToolGrants>,
    profiles: Option<IndexMap<String, super::grants::RawToolGrants>>,
}

impl RawEntry {
    /// Fold the clients' own spellings into mcpctl's fields.
    fn fold_client_spellings(
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

    fn into_def(
        self,
        name: String,
        path: &Path,
        text: &str,
        syntax: Syntax,
    ) -> Result<ServerDef, DefsError> {
        let fail = |message: String| {
            let (line, column) = locate_key(text, &name, syntax).unwrap_or((1, 1));
            DefsError::Malformed {
                path: path.to_path_buf(),
                line,
                column,
                message: format!("server `{name}`: {message}"),
            }
        };
        let mut this = self;
        this.fold_client_spellings(&fail)?;
        let this = this;
        let spelling = this.transport.as_deref().or(this.kind.as_deref());
        let transport = match spelling {
            Some(spelling) => Transport::from_spelling(spelling).ok_or_else(|| {
                fail(format!(
                    "unknown transport `{spelling}`; use stdio, streamable-http (or http) or sse"
                ))
            })?,
            None if this.command.is_some() => Transport::Stdio,
            None if this.url.is_some() => Transport::StreamableHttp,
            None => return Err(fail("has neither `command` nor `url`".to_string())),
        };
        let auth = oauth_fields(&this, transport, &fail)?;
        let launch = match transport {
            Transport::Stdio => {
                if this.url.is_some() {
                    return Err(fail("a stdio server cannot have a `url`".to_string()));
                }
                Launch::Stdio {
                    command: this
                        .command
                        .ok_or_else(|| fail("stdio server has no `command`".to_string()))?,
                    args: this.args.unwrap_or_default(),
                    env: this.env.map(UniqueMap::into_index_map).unwrap_or_default(),
                    cwd: this.cwd,
                }
            }
            remote => {
                let process = match this.command {
                    Some(command) => Some(LocalProcess {
                        command,
                        args: this.args.unwrap_or_default(),
                        env: this.env.map(UniqueMap::into_index_map).unwrap_or_default(),
                        cwd: this.cwd,
                    }),
                    None if this.args.is_some() || this.env.is_some() || this.cwd.is_some() => {
                        return Err(fail(format!(
                            "a {remote} server has `args`, `env` or `cwd` but no `command` to launch"
                        )));
                    }
                    None => None,
                };
                Launch::Remote {
                    transport: remote,
                    url: this
                        .url
                        .ok_or_else(|| fail(format!("{remote} server has no `url`")))?,
                    headers: this
                        .headers
                        .map(UniqueMap::into_index_map)
                        .unwrap_or_default(),
                    process,
                }
            }
        };
        let connect_timeout = match this.connect_timeout {
            None => None,
            Some(Seconds(secs)) => {
                Some(crate::validate::seconds::duration("`connect_timeout`", secs).map_err(fail)?)
            }
        };
        let restart = match this.restart.as_deref() {
            None | Some("no") | Some("never") => RestartPolicy::No,
            Some("on-failure") => RestartPolicy::OnFailure,
            Some(other) => {
                return Err(fail(format!(
                    "unknown restart policy `{other}`; use `no` or `on-failure`"
                )));
            }
        };
        Ok(ServerDef {
            name,
            transport,
            transport_inferred: spelling.is_none() && transport.is_remote(),
            launch,
            label: this.label,
            enabled: this.enabled.unwrap_or(true) && !this.disabled.unwrap_or(false),
            autostart: this.autostart.unwrap_or(false),
            connect_timeout,
            protocol: this.protocol,
            restart,
            auth,
            env_file: this.env_file,
            grants: super::grants::from_raw(this.tools, this.profiles),
            source: path.to_path_buf(),
        })
    }
}

/// The OAuth fields of an entry (`auth: oauth` and its companions), checked
/// against each other: a secret or key is only ever a `${VAR}` reference.
fn oauth_fields(
    this: &RawEntry,
    transport: Transport,
    fail: &dyn Fn(String) -> DefsError,
) -> Result<Option<OAuth>, DefsError> {
    let companions = [
        ("grant", this.grant.is_some()),
        ("client_id", this.client_id.is_some()),
        ("client_secret", this.client_secret.is_some()),
        ("token_endpoint_auth", this.token_endpoint_auth.is_some()),
        ("client_key", this.client_key.is_some()),
        ("client_metadata_url", this.client_metadata_url.is_some()),
    ];
    let Some(auth) = this.auth.as_deref() else {
        if let Some((field, _)) = companions.iter().find(|(_, given)| *given) {
            return Err(fail(format!("has `{field}` but no `auth: oauth`")));
        }
        return Ok(None);
    };
    if auth != "oauth" {
        return Err(fail(format!(
            "unknown `auth` `{auth}`; the only one is `oauth`"
        )));
    }
    if !transport.is_remote() {
        return Err(fail(
            "`auth: oauth` applies to a remote server (`url`), not a stdio one".to_string(),
        ));
    }
    let grant = match this.grant.as_deref() {
        None => Grant::default(),
        Some(spelling) => Grant::from_spelling(spelling).ok_or_else(|| {
            fail(format!(
                "unknown `grant` `{spelling}`; use authorization_code or client_credentials"
            ))
        })?,
    };
    let token_endpoint_auth = match this.token_endpoint_auth.as_deref() {
        None => None,
        Some(spelling) => Some(TokenEndpointAuth::from_spelling(spelling).ok_or_else(|| {
            fail(format!(
                "unknown `token_endpoint_auth` `{spelling}`; use client_secret_basic, client_secret_post, none or private_key_jwt"
            ))
        })?),
    };
    for (field, value) in [
        ("client_secret", &this.client_secret),
        ("client_key", &this.client_key),
    ] {
        if let Some(value) = value
            && !super::vars::is_single_reference(value)
        {
            return Err(fail(format!(
                "`{field}` must be a ${{VAR}} reference, not a literal value (keep the secret in the environment)"
            )));
        }
    }
    let oauth = OAuth {
        grant,
        client_id: this.client_id.clone(),
        client_secret: this.client_secret.clone(),
        token_endpoint_auth,
        client_key: this.client_key.clone(),
        scope: this.scope.clone(),
        client_metadata_url: this.client_metadata_url.clone(),
    };
    if let Some(problem) = oauth_problem(&oauth) {
        return Err(fail(problem));
    }
    Ok(Some(oauth))
}

/// Why `oauth`'s fields cannot work together, if they cannot (shared by the
/// file reader and `add`).
pub fn oauth_problem(oauth: &OAuth) -> Option<String> {
    use TokenEndpointAuth as M;
    if oauth.client_secret.is_some() && oauth.client_id.is_none() {
        return Some("`client_secret` needs a `client_id`".to_string());
    }
    if oauth.client_key.is_some() && oauth.client_id.is_none() {
        return Some("`client_key` needs a `client_id`".to_string());
    }
    match oauth.token_endpoint_auth {
        Some(M::PrivateKeyJwt) if oauth.client_key.is_none() => {
            return Some("`token_endpoint_auth: private_key_jwt` needs a `client_key`".to_string());
        }
        Some(M::ClientSecretBasic | M::ClientSecretPost) if oauth.client_secret.is_none() => {
            return Some(format!(
                "`token_endpoint_auth: {}` needs a `client_secret`",
                oauth.token_endpoint_auth.map(M::as_str).unwrap_or_default()
            ));
        }
        _ => {}
    }
    if oauth.grant == Grant::ClientCredentials
        && (oauth.client_id.is_none()
            || (oauth.client_secret.is_none() && oauth.client_key.is_none()))
    {
        return Some(
            "`grant: client_credentials` needs a `client_id` and a `client_secret` or `client_key`"
                .to_string(),
        );
    }
    if let Some(url) = &oauth.client_metadata_url {
        let usable = url::Url::parse(url).is_ok_and(|u| {
            let loopback = matches!(u.host(), Some(url::Host::Ipv4(ip)) if ip.is_loopback())
                || u.host_str() == Some("localhost");
            (u.scheme() == "https" || (u.scheme() == "http" && loopback))
                && u.host_str().is_some()
                && u.path() != "/"
        });
        if !usable {
            return Some(format!(
                "`client_metadata_url` `{url}` must be an https URL with a path (http only on loopback)"
            ));
        }
    }
    None
}

/// Best-effort position of an entry's key, so semantic errors point at it.
fn locate_key(text: &str, name: &str, syntax: Syntax) -> Option<(usize, usize)> {
    super::locate::key(text, name, syntax)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(name: &str, text: &str) -> Result<ParsedFile, DefsError> {
        parse(Path::new(name), text)
    }

    #[test]
    fn reads_the_three_shapes() {
        let flat = parse_str(
            "a.json",
            r#"{"billing": {"transport": "stdio", "command": "npx", "args": ["-y", "x@1.0.0"], "enabled": false}}"#,
        )
        .unwrap();
        assert_eq!(flat.format.shape, Shape::Flat);
        assert!(!flat.servers[0].enabled);

        let mcp = parse_str(
            "a.json",
            r#"{"other": 1, "mcpServers": {"r": {"type": "http", "url": "https://x.test/mcp", "headers": {"A": "b"}}}}"#,
        )
        .unwrap();
        assert_eq!(mcp.format.shape, Shape::McpServers);
        assert_eq!(mcp.servers[0].transport, Transport::StreamableHttp);

        let yaml = parse_str(
            "a.yaml",
            "# top\nmcpServers:\n  browser:\n    transport: stdio\n    command: npx\n    args: [a]\n    disabled: true\n",
        )
        .unwrap();
        assert_eq!(yaml.format.syntax, Syntax::Yaml);
        assert!(!yaml.servers[0].enabled);
    }

    #[test]
    fn a_remote_with_a_command_is_a_local_http_server() {
        let parsed = parse_str(
            "a.json",
            r#"{"mcpServers": {"e": {"type": "http", "url": "http://localhost:3001/mcp", "command": "npx", "args": ["-y", "x@1.0.0", "streamableHttp"], "env": {"PORT": "3001"}}}}"#,
        )
        .unwrap();
        let def = &parsed.servers[0];
        assert_eq!(def.transport, Transport::StreamableHttp);
        let process = def.process().expect("a process to launch");
        assert_eq!(process.command, "npx");
        assert_eq!(process.env["PORT"], "3001");
        assert_eq!(
            def.target(),
            "http://localhost:3001/mcp (launches npx -y x@1.0.0 streamableHttp)"
        );
        let rendered = crate::defs::render::entry_value(def, parsed.format);
        let text = serde_json::json!({"mcpServers": {"e": rendered}}).to_string();
        assert_eq!(parse_str("a.json", &text).unwrap().servers[0], *def);

        let err = parse_str(
            "a.json",
            r#"{"e": {"type": "sse", "url": "http://localhost:1/sse", "args": ["x"]}}"#,
        )
        .unwrap_err();
        assert!(
            err.to_string().contains("but no `command` to launch"),
            "{err}"
        );
    }

    #[test]
    fn jsonc_comments_are_accepted() {
        let parsed = parse_str(
            "mcp.json",
            "{\n  // servers\n  \"mcpServers\": {\"a\": {\"command\": \"x\",},},\n}\n",
        )
        .unwrap();
        assert_eq!(parsed.servers.len(), 1);
    }

    #[test]
    fn errors_carry_line_and_column() {
        let err = parse_str("a.json", "{\n  \"a\": {\"command\": 5}\n}").unwrap_err();
        let text = err.to_string();
        assert!(text.starts_with("a.json:2:"), "{text}");
        let err = parse_str("a.json", "{\"a\": {\"command\": \"x\"}, \"a\": {}}").unwrap_err();
        assert!(err.to_string().contains("duplicate key `a`"), "{err}");
        let err = parse_str("a.yaml", "mcpServers:\n  a:\n    command: [1\n").unwrap_err();
        assert!(matches!(err, DefsError::Malformed { .. }), "{err}");
        let err = parse_str("a.json", "[1, 2]").unwrap_err();
        assert!(err.to_string().contains("mcpServers"), "{err}");
    }

    #[test]
    fn semantic_errors_point_at_the_entry() {
        let err = parse_str(
            "a.json",
            "{\n  \"x\": {\"transport\": \"carrier-pigeon\", \"command\": \"a\"}\n}",
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "a.json:2:3: server `x`: unknown transport `carrier-pigeon`; use stdio, streamable-http (or http) or sse"
        );
    }
}
