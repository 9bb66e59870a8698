//! VS Code's `envFile` (issue 9, item 1): a dotenv file whose variables a
//! launched server gets, read only at launch, relative to the workspace
//! folder, overridden by the entry's own `env`, and never shown: its
//! values are redacted from a failing server's stderr like any secret.

mod support;

use support::Sandbox;

const SECRET: &str = "dotenv-secret-7f3a9c";

/// A `.vscode/mcp.json` with `servers`, and a `.env` beside `.vscode`.
fn workspace(sb: &Sandbox, servers: serde_json::Value, dotenv: &str) -> String {
    let file = sb.path(".vscode/mcp.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, serde_json::json!({ "servers": servers }).to_string()).unwrap();
    std::fs::write(sb.path(".env"), dotenv).unwrap();
    file.to_string_lossy().into_owned()
}

/// A stdio server that starts the fixture only when `$API_TOKEN` holds
/// `want`, and otherwise prints its environment on stderr and exits 9.
fn guarded(want: &str) -> serde_json::Value {
    let fx = support::fixture().to_str().unwrap().to_string();
    serde_json::json!({
        "type": "stdio",
        "command": "sh",
        // The test compares the value without its first letter, so the
        // secret itself is nowhere in the definition.
        "args": ["-c", format!("case \"$API_TOKEN\" in ?{}) exec '{fx}';; esac; env | sort >&2; exit 9", &want[1..])],
        "envFile": "${workspaceFolder}/.env",
    })
}

#[test]
fn the_server_gets_the_files_variables_at_launch() {
    let sb = Sandbox::new();
    let file = workspace(
        &sb,
        serde_json::json!({"guarded": guarded(SECRET)}),
        &format!("# secrets\nexport API_TOKEN=\"{SECRET}\"\n"),
    );
    sb.run(&["--file", &file, "check", "guarded"])
        .expect_code(0)
        .stdout_has("ok");
    // `show` names the file, never its values.
    let shown = sb.run(&["--file", &file, "show", "guarded", "--json"]);
    shown.expect_code(0);
    assert!(shown.stdout.contains("/.env"), "{shown}");
    assert!(!shown.stdout.contains(SECRET), "{shown}");
}

#[test]
fn its_values_are_redacted_from_a_failing_servers_output() {
    let sb = Sandbox::new();
    let file = workspace(
        &sb,
        serde_json::json!({"guarded": guarded("something-else")}),
        &format!("API_TOKEN={SECRET}\n"),
    );
    let run = sb.run(&["--file", &file, "check", "guarded", "--json"]);
    run.expect_code(1);
    let all = format!("{}{}", run.stdout, run.stderr);
    assert!(all.contains("API_TOKEN=***"), "{run}");
    assert!(!all.contains(SECRET), "{run}");
}

#[test]
fn the_entrys_own_env_wins_over_the_file() {
    let sb = Sandbox::new();
    let mut def = guarded("from-env");
    def["env"] = serde_json::json!({"API_TOKEN": "from-env"});
    let file = workspace(
        &sb,
        serde_json::json!({"guarded": def}),
        &format!("API_TOKEN={SECRET}\n"),
    );
    sb.run(&["--file", &file, "check", "guarded"])
        .expect_code(0);
}

#[test]
fn a_missing_or_malformed_file_is_a_clear_error_that_shows_no_value() {
    let sb = Sandbox::new();
    let file = workspace(
        &sb,
        serde_json::json!({"guarded": guarded(SECRET)}),
        &format!("API_TOKEN={SECRET}\nthis line holds {SECRET} and no equals sign\n"),
    );
    let run = sb.run(&["--file", &file, "check", "guarded"]);
    run.expect_code(1)
        .stdout_has(".env:2: not a KEY=VALUE line");
    assert!(
        !format!("{}{}", run.stdout, run.stderr).contains(SECRET),
        "{run}"
    );

    std::fs::remove_file(sb.path(".env")).unwrap();
    sb.run(&["--file", &file, "check", "guarded"])
        .expect_code(1)
        .stdout_has("/.env: No such file or directory");
}

#[test]
fn an_env_file_that_is_a_fifo_is_refused_not_waited_on() {
    // A hostile workspace can make `.env` a named pipe: opening it for
    // reading would block the launch (and `check`) forever.
    let sb = Sandbox::new();
    let file = workspace(&sb, serde_json::json!({"guarded": guarded(SECRET)}), "");
    std::fs::remove_file(sb.path(".env")).unwrap();
    nix::unistd::mkfifo(&sb.path(".env"), nix::sys::stat::Mode::S_IRWXU).unwrap();
    let mut child = sb
        .command()
        .args(["--file", &file, "check", "guarded"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let finished = support::wait_until(support::within(20), || child.try_wait().unwrap().is_some());
    if !finished {
        let _ = child.kill();
        let _ = child.wait();
        panic!("check waited on the FIFO instead of refusing it");
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("/.env is a named pipe (FIFO), not a regular file"),
        "{stdout}"
    );
}
