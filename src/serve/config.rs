//! `serve --print-config CLIENT`: the entry an agent host needs to launch
//! `mcpctl serve --stdio` itself, in that host's own shape (`mcpServers`
//! for Claude Code and Cursor, `servers` with `type` for VS Code, a TOML
//! table for Codex), with absolute paths so it works from any directory.

use serde_json::{Value, json};

/// The agent hosts `--print-config` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Host {
    /// Claude Code (`.mcp.json` or `claude mcp add-json`).
    ClaudeCode,
    /// VS Code (`.vscode/mcp.json`).
    Vscode,
    /// Cursor (`~/.cursor/mcp.json`).
    Cursor,
    /// Codex (`~/.codex/config.toml`).
    Codex,
}

/// The snippet for `host`, naming the entry `name` and launching
/// `command args…`.
pub fn snippet(host: Host, name: &str, command: &str, args: &[String]) -> String {
    let entry = |with_type: bool| -> Value {
        let mut entry = json!({"command": command, "args": args});
        if with_type {
            entry["type"] = json!("stdio");
        }
        entry
    };
    match host {
        Host::ClaudeCode | Host::Cursor => pretty(&json!({"mcpServers": {name: entry(false)}})),
        Host::Vscode => pretty(&json!({"servers": {name: entry(true)}})),
        Host::Codex => {
            let mut table = toml_edit::Table::new();
            table.insert("command", toml_edit::value(command));
            let mut array = toml_edit::Array::new();
            for arg in args {
                array.push(arg.as_str());
            }
            table.insert("args", toml_edit::value(array));
            let mut servers = toml_edit::Table::new();
            servers.set_implicit(true);
            servers.insert(name, toml_edit::Item::Table(table));
            let mut doc = toml_edit::DocumentMut::new();
            doc.insert("mcp_servers", toml_edit::Item::Table(servers));
            doc.to_string()
        }
    }
}

fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_host_gets_its_shape() {
        let args = vec![
            "--file".to_string(),
            "/a b/s.json".into(),
            "serve".into(),
            "--stdio".into(),
        ];
        let claude: Value =
            serde_json::from_str(&snippet(Host::ClaudeCode, "mcpctl", "/bin/mcpctl", &args))
                .unwrap();
        assert_eq!(claude["mcpServers"]["mcpctl"]["args"][1], "/a b/s.json");
        let vscode: Value =
            serde_json::from_str(&snippet(Host::Vscode, "mcpctl", "/bin/mcpctl", &args)).unwrap();
        assert_eq!(vscode["servers"]["mcpctl"]["type"], "stdio");
        let codex = snippet(Host::Codex, "mcpctl", "/bin/mcpctl", &args);
        let doc: toml_edit::DocumentMut = codex.parse().unwrap();
        assert_eq!(
            doc["mcp_servers"]["mcpctl"]["command"].as_str(),
            Some("/bin/mcpctl")
        );
        assert!(codex.starts_with("[mcp_servers.mcpctl]"), "{codex}");
    }
}
