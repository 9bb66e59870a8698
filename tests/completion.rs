//! Dynamic completion (`COMPLETE=<shell> mcpctl`): server names from the
//! definition files, tool names from the running supervisor, escaped.

mod support;

use support::Sandbox;

/// What the shell would offer after `words` (fish's protocol: one
/// candidate a line, `value<TAB>help`).
fn offered(sb: &Sandbox, file: &str, words: &[&str]) -> String {
    let out = sb
        .command()
        .env("COMPLETE", "fish")
        .env("MCPCTL_FILE", file)
        .arg("--")
        .arg("mcpctl")
        .args(words)
        .output()
        .expect("mcpctl runs");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn server_and_tool_names_are_completed() {
    let sb = Sandbox::new();
    let file = sb.path("servers.json");
    let fx = support::fixture().to_str().unwrap().to_string();
    let defs = serde_json::json!({"mcpServers": {
        "alpha": {"command": fx, "label": "the first\u{1b}]0;pwned\u{7}"},
        "beta": {"command": fx, "args": ["--tools", "1"]},
    }});
    std::fs::write(&file, defs.to_string()).unwrap();
    let f = file.to_str().unwrap();
    for verb in ["show", "check", "start", "logs", "remove"] {
        let names = offered(&sb, f, &[verb, ""]);
        assert!(names.contains("alpha\tthe first"), "{verb}: {names}");
        assert!(names.contains("beta\t"), "{verb}: {names}");
        assert!(
            !names.contains('\u{1b}'),
            "{verb}: a raw ESC reached the shell"
        );
    }
    // No supervisor: no tool names, and completing starts none.
    let tools = offered(&sb, f, &["call", "alpha", ""]);
    assert!(!tools.contains("echo\t"), "{tools}");
    sb.run(&["--file", f, "supervisor", "status"])
        .expect_code(5);
    sb.run(&["--file", f, "start", "alpha"]).expect_code(0);
    let tools = offered(&sb, f, &["call", "alpha", ""]);
    assert!(tools.contains("echo\talpha"), "{tools}");
    assert!(!tools.contains("\tbeta"), "beta is not running: {tools}");
    sb.run(&["--file", f, "supervisor", "stop"]).expect_code(0);
}
