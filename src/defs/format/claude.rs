//! Claude Code's `~/.claude.json`: one file, many projects' servers, and
//! which project's a command reads and edits (`--project`, else the
//! current directory's).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::raw::{Entries, RawEntry, UniqueMap};
use crate::defs::error::DefsError;
use crate::defs::sources::canonical;
use crate::defs::syntax::jsonc_options;

/// The project `--project` names, made absolute; set once per process.
static PROJECT: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();

/// Choose the project whose servers `~/.claude.json` gives (`--project`);
/// `None` means the current directory, when the file has an entry for it.
pub fn select_project(project: Option<&Path>) {
    let _ = PROJECT.set(project.map(canonical));
}

/// The `projects` key of `~/.claude.json` to read and edit: the one
/// `--project` names (whether or not the file has it yet), else the current
/// directory's when the file has an entry with servers for it, else none.
pub fn claude_project(projects: &serde_json::Map<String, serde_json::Value>) -> Option<String> {
    if let Some(Some(chosen)) = PROJECT.get() {
        return Some(chosen.to_string_lossy().into_owned());
    }
    let cwd = std::env::current_dir().ok()?;
    let cwd = canonical(&cwd).to_string_lossy().into_owned();
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
pub(super) fn parse_project(path: &Path, text: &str) -> Result<Option<Entries>, DefsError> {
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
