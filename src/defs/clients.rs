//! Where each agent host keeps its MCP configuration, so `mcpctl clients`
//! can show what is already configured on this machine and in this
//! project. Only the paths are known here; reading a file is the catalog's
//! job, with the same parser every other command uses.

use std::path::{Path, PathBuf};

/// Whose servers a file holds: the user's, everywhere, or one project's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// In the user's home or configuration directory.
    User,
    /// In the current project directory.
    Project,
}

impl Scope {
    /// The word shown in tables.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::User => "user",
            Scope::Project => "project",
        }
    }
}

/// One place a client reads its MCP servers from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientFile {
    /// The agent host, as its users call it.
    pub client: &'static str,
    /// User-wide or project file.
    pub scope: Scope,
    /// Where the file is (whether or not it exists).
    pub path: PathBuf,
}

/// Every place a known client keeps MCP servers, for the user whose home
/// is `home` (with configuration directory `config`, e.g. `~/.config` or
/// `~/Library/Application Support`) and the project in `project`.
pub fn known(home: &Path, config: &Path, project: &Path) -> Vec<ClientFile> {
    let user = |client, path: PathBuf| ClientFile {
        client,
        scope: Scope::User,
        path,
    };
    let project_file = |client, path: &str| ClientFile {
        client,
        scope: Scope::Project,
        path: project.join(path),
    };
    let codex_home = std::env::var_os("CODEX_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| home.join(".codex"));
    vec![
        user("mcpctl", config.join("mcpctl").join("servers.json")),
        user("claude-code", home.join(".claude.json")),
        project_file("claude-code", ".mcp.json"),
        user(
            "claude-desktop",
            config.join("Claude").join("claude_desktop_config.json"),
        ),
        user("cursor", home.join(".cursor").join("mcp.json")),
        project_file("cursor", ".cursor/mcp.json"),
        user("vscode", config.join("Code").join("User").join("mcp.json")),
        project_file("vscode", ".vscode/mcp.json"),
        user(
            "windsurf",
            home.join(".codeium")
                .join("windsurf")
                .join("mcp_config.json"),
        ),
        user("codex", codex_home.join("config.toml")),
    ]
}

/// [`known`] for this user and the current directory.
pub fn known_here() -> Vec<ClientFile> {
    let Some(dirs) = directories::BaseDirs::new() else {
        return Vec::new();
    };
    let project = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    known(dirs.home_dir(), dirs.config_dir(), &project)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_client_has_a_user_file_and_project_files_sit_in_the_project() {
        let files = known(Path::new("/h"), Path::new("/h/.config"), Path::new("/p"));
        for client in [
            "mcpctl",
            "claude-code",
            "claude-desktop",
            "cursor",
            "vscode",
            "windsurf",
            "codex",
        ] {
            assert!(
                files
                    .iter()
                    .any(|f| f.client == client && f.scope == Scope::User),
                "{client}"
            );
        }
        for f in files.iter().filter(|f| f.scope == Scope::Project) {
            assert!(f.path.starts_with("/p"), "{f:?}");
        }
    }
}
