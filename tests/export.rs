//! `mcpctl export --to CLIENT|PATH`: mcpctl's servers written into a
//! client's own file, in its shape, everything else in it kept.

mod support;

use support::Sandbox;

#[test]
fn servers_are_written_in_each_clients_shape() {
    let sb = Sandbox::new();
    let fx = support::fixture().to_str().unwrap().to_string();
    let own = sb.path("config/mcpctl/servers.json");
    std::fs::create_dir_all(own.parent().unwrap()).unwrap();
    let defs = serde_json::json!({"mcpServers": {
        "fx": {"command": fx, "args": ["--tools", "2"]},
        "web": {"type": "http", "url": "https://127.0.0.1:9/mcp",
                "headers": {"Authorization": "Bearer ${WEB_TOKEN}"}},
    }});
    std::fs::write(&own, defs.to_string()).unwrap();
    let vscode = sb.path(".vscode/mcp.json");
    std::fs::create_dir_all(vscode.parent().unwrap()).unwrap();
    let mine = "{\n  // mine\n  \"servers\": {\"other\": {\"type\": \"stdio\", \"command\": \"sh\"}},\n  \"inputs\": []\n}\n";
    std::fs::write(&vscode, mine).unwrap();
    sb.run(&["export", "--to", "vscode"])
        .expect_code(0)
        .stderr_has("mcpctl add-json --to ");
    let text = std::fs::read_to_string(&vscode).unwrap();
    assert!(text.starts_with("{\n  // mine\n"), "{text}");
    let vs = sb.path(".vscode/mcp.json");
    let listed = sb.run(&["--file", vs.to_str().unwrap(), "list", "--json"]);
    listed.expect_code(0);
    let names: Vec<String> = listed.json()["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(names, ["other", "fx", "web"]);
    assert!(text.contains(r#""type": "stdio""#), "{text}");
    // VS Code expands only `${env:…}`.
    assert!(text.contains("Bearer ${env:WEB_TOKEN}"), "{text}");
    // Codex's TOML, created new, checked as written.
    sb.run_with(&["export", "--to", "codex", "--check", "fx"], |c| {
        c.env_remove("CODEX_HOME");
    })
    .expect_code(0)
    .stderr_has("fx: ok, 2 tools");
    let toml = std::fs::read_to_string(sb.path(".codex/config.toml")).unwrap();
    assert!(toml.contains("[mcp_servers.fx]"), "{toml}");
    // Again: nothing changes; a changed one is a conflict until --replace.
    sb.run(&["export", "--to", "vscode"])
        .expect_code(0)
        .stderr_has("`fx` is already defined the same way");
    let defs = serde_json::json!({"mcpServers": {"fx": {"command": fx, "args": ["--tools", "3"]}}});
    std::fs::write(&own, defs.to_string()).unwrap();
    sb.run(&["export", "--to", "vscode"])
        .expect_code(4)
        .stderr_has("not copied: `fx` differs");
    sb.run(&["export", "--to", "vscode", "--replace", "fx"])
        .expect_code(0);
    assert!(std::fs::read_to_string(&vscode).unwrap().contains(r#""3""#));
    sb.run(&["export", "--to", "vscode", "nosuch"])
        .expect_code(3);
}

#[test]
fn cursor_and_windsurf_get_their_own_spellings() {
    // Cursor and Windsurf expand only `${env:VAR}`, and Windsurf reads a
    // remote server's address from `serverUrl`: an export written in the
    // plain spellings would launch with the references unexpanded.
    let sb = Sandbox::new();
    let own = sb.path("config/mcpctl/servers.json");
    std::fs::create_dir_all(own.parent().unwrap()).unwrap();
    let defs = serde_json::json!({"mcpServers": {
        "web": {"type": "http", "url": "https://127.0.0.1:9/mcp",
                "headers": {"Authorization": "Bearer ${WEB_TOKEN}"}},
        "local": {"command": "sh", "args": ["-c", "exit 0"], "env": {"KEY": "${API_KEY}"}},
    }});
    std::fs::write(&own, defs.to_string()).unwrap();
    sb.run(&["export", "--to", "cursor"]).expect_code(0);
    let cursor = std::fs::read_to_string(sb.path(".cursor/mcp.json")).unwrap();
    assert!(cursor.contains("Bearer ${env:WEB_TOKEN}"), "{cursor}");
    assert!(cursor.contains(r#""KEY": "${env:API_KEY}""#), "{cursor}");
    assert!(!cursor.contains("serverUrl"), "{cursor}");

    let windsurf = sb.path(".codeium/windsurf/mcp_config.json");
    std::fs::create_dir_all(windsurf.parent().unwrap()).unwrap();
    std::fs::write(&windsurf, "{\"mcpServers\": {}}\n").unwrap();
    sb.run(&["export", "--to", windsurf.to_str().unwrap()])
        .expect_code(0);
    let text = std::fs::read_to_string(&windsurf).unwrap();
    assert!(
        text.contains(r#""serverUrl": "https://127.0.0.1:9/mcp""#),
        "{text}"
    );
    assert!(!text.contains(r#""url""#), "{text}");
    assert!(text.contains("Bearer ${env:WEB_TOKEN}"), "{text}");
    // Read back, it is the same server.
    let listed = sb.run(&["--file", windsurf.to_str().unwrap(), "list", "--json"]);
    listed.expect_code(0);
    assert_eq!(
        listed.json()["servers"][0]["target"],
        "https://127.0.0.1:9/mcp"
    );
}
