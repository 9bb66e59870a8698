//! `mcpctl clients`: the agent hosts' files found in the user's home and
//! the current project, each read with the parser every command uses.

mod support;

use support::Sandbox;

/// `path` under the sandbox (home and project at once), with its parents.
fn put(sb: &Sandbox, path: &str, text: &str) {
    let full = sb.path(path);
    std::fs::create_dir_all(full.parent().unwrap()).unwrap();
    std::fs::write(full, text).unwrap();
}

#[test]
fn client_files_here_are_listed_with_shape_and_server_count() {
    let sb = Sandbox::new();
    let none = sb.run_with(&["clients"], |c| {
        c.env_remove("CODEX_HOME");
    });
    none.expect_code(0)
        .stderr_has("no client configuration files found here");
    put(
        &sb,
        ".claude.json",
        r#"{"numStartups": 4, "mcpServers": {"a": {"command": "sh"}, "b": {"url": "https://x.example/mcp"}}}"#,
    );
    put(
        &sb,
        ".vscode/mcp.json",
        "{\n  // the team's\n  \"servers\": {\"fs\": {\"type\": \"stdio\", \"command\": \"sh\"}},\n  \"inputs\": []\n}\n",
    );
    put(
        &sb,
        ".codex/config.toml",
        "[mcp_servers.time]\ncommand = \"uvx\"\nargs = [\"mcp-server-time==2026.10.19\"]\n",
    );
    put(&sb, ".cursor/mcp.json", "{\"mcpServers\": {'bad': 1}}");
    let run = sb.run_with(&["clients", "--json"], |c| {
        c.env_remove("CODEX_HOME");
    });
    run.expect_code(0);
    let doc = run.json();
    let entry = |client: &str| {
        doc["clients"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["client"] == client)
            .unwrap_or_else(|| panic!("no {client} in {doc}"))
            .clone()
    };
    let claude = entry("claude-code");
    assert_eq!(
        (&claude["scope"], &claude["servers"], &claude["shape"]),
        (&"user".into(), &2.into(), &"mcpServers JSON".into())
    );
    let vscode = entry("vscode");
    assert_eq!(
        (&vscode["scope"], &vscode["servers"], &vscode["shape"]),
        (
            &"project".into(),
            &1.into(),
            &"servers JSON (VS Code)".into()
        )
    );
    assert_eq!(entry("codex")["shape"], "mcp_servers TOML (Codex)");
    let cursor = entry("cursor");
    assert!(cursor["servers"].is_null(), "{cursor}");
    assert!(
        cursor["error"].as_str().unwrap().contains("mcp.json:1:"),
        "{cursor}"
    );
    // Each file is usable with --file as it is.
    let vs = sb.path(".vscode/mcp.json");
    sb.run(&["--file", vs.to_str().unwrap(), "list"])
        .expect_code(0)
        .stdout_has("fs ");
    let table = sb.run_with(&["clients"], |c| {
        c.env_remove("CODEX_HOME");
    });
    table
        .expect_code(0)
        .stdout_has("claude-code")
        .stdout_has("unreadable")
        .stderr_has("warning: ");
}
