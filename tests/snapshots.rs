//! Snapshots of what a person reads: the real binary's output for `list`,
//! `show`, `check`, `status`, `tools`, `lock`'s drift report, `approve
//! --dry-run`, `serve --print-config` and representative errors with their
//! hints, each compared with a committed file in tests/snapshots/.
//!
//! Everything that differs between machines or runs (the scratch home, the
//! binary's path, pids, durations, ids, ports, timestamps, versions) is
//! filtered before the comparison, so a snapshot changes only when the text
//! does. A changed snapshot fails the test and leaves a `.snap.new` beside
//! the old; accept it (`INSTA_UPDATE=always cargo test --test snapshots`, or
//! `cargo insta review` with cargo-insta) only when the new text reads better.

mod support;

use serde_json::{Value, json};
use support::{Run, Sandbox};

/// A scratch home whose `servers.json` holds `servers`.
fn home_with(servers: Value) -> Sandbox {
    let sandbox = Sandbox::new();
    write_servers(&sandbox, servers);
    sandbox
}

/// Write `servers` as the home's `servers.json`.
fn write_servers(sandbox: &Sandbox, servers: Value) {
    let doc = json!({ "mcpServers": servers });
    let text = serde_json::to_string_pretty(&doc).unwrap();
    std::fs::write(sandbox.path("servers.json"), text).unwrap();
}

/// Run mcpctl in `sandbox` with the home's `bin/` and the fixture server's
/// directory first on PATH, so definitions name it `fixture-server` and no
/// machine's path reaches a table's column widths.
fn mcpctl(sandbox: &Sandbox, args: &[&str]) -> Run {
    mcpctl_env(sandbox, &[], args)
}

/// [`mcpctl`] with the variables `env` set.
fn mcpctl_env(sandbox: &Sandbox, env: &[(&str, &str)], args: &[&str]) -> Run {
    let fixture_dir = support::fixture().parent().unwrap().to_owned();
    let first = [sandbox.path("bin"), fixture_dir];
    let inherited = std::env::var_os("PATH").unwrap_or_default();
    let path =
        std::env::join_paths(first.into_iter().chain(std::env::split_paths(&inherited))).unwrap();
    sandbox.run_with(args, |cmd| {
        cmd.env("PATH", path)
            .env_remove("MCPCTL_NO_SPAWN")
            .env_remove("MCPCTL_INHERIT_ENV")
            .env_remove("NO_COLOR")
            .envs(env.iter().copied());
    })
}

/// The command line (after the variables `env` it set), its exit code and
/// what it printed, each stream under its own heading (a terminal would
/// interleave them).
fn transcript(env: &[(&str, &str)], args: &[&str], run: &Run) -> String {
    let line = shlex::try_join(args.iter().copied()).expect("arguments quote");
    let vars: String = env.iter().map(|(k, v)| format!("{k}={v} ")).collect();
    let mut text = format!("$ {vars}mcpctl {line}\n[exit {}]\n", run.code);
    for (stream, out) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
        if !out.is_empty() {
            text.push_str(&format!("--- {stream}\n{out}"));
        }
    }
    text
}

/// insta settings that hide what differs between machines and runs.
fn settings(sandbox: &Sandbox) -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    let home = sandbox.dir.path();
    let canonical = home.canonicalize().unwrap();
    for dir in [canonical.as_path(), home] {
        settings.add_filter(&regex::escape(&dir.to_string_lossy()), "[HOME]");
    }
    settings.add_filter(&regex::escape(env!("CARGO_BIN_EXE_mcpctl")), "[MCPCTL]");
    for (pattern, replacement) in [
        (r"\bpid \d+", "pid [PID]"),
        (r"(pid:\s+)\d+", "$1[PID]"),
        (r"(uptime:\s+).+", "$1[UPTIME]"),
        (r"\b\d+\.\d+s\b", "[DURATION]"),
        (r"\b\d+(\.\d+)? ?ms\b", "[DURATION]"),
        (r"\b[0-9a-f]{16}\.(sock|logs)\b", "[HASH].$1"),
        (r"\b([bc])-[0-9a-f]+-\d+\b", "$1-[ID]"),
        (r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", "[TIMESTAMP]"),
        (r"\b127\.0\.0\.1:\d+", "127.0.0.1:[PORT]"),
        (r"(version:\s+)\d+\.\d+\.\d+\S*", "$1[VERSION]"),
    ] {
        settings.add_filter(pattern, replacement);
    }
    let version = regex::escape(env!("CARGO_PKG_VERSION"));
    settings.add_filter(&format!(r"\b(mcpctl[ /]v?){version}\b"), "${1}[VERSION]");
    settings
}

/// Put the masked table columns `columns` (by header) in a fixed width: a
/// pid or an uptime changes a column's width, so the filters above could
/// not keep the rest of the table in place.
fn mask_columns(text: &str, columns: &[&str]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let Some(header) = lines.iter().position(|l| l.starts_with("NAME ")) else {
        return text.to_owned();
    };
    for column in columns {
        let head = lines[header].clone();
        let Some(start) = head.find(&format!("  {column} ")).map(|i| i + 2) else {
            continue;
        };
        // The cell runs to where the next column's header begins.
        let name_end = start + column.len();
        let end = head.len() - head[name_end..].trim_start().len();
        for line in lines[header..].iter_mut().take_while(|l| !l.is_empty()) {
            if line.len() < end || !line.is_char_boundary(start) || !line.is_char_boundary(end) {
                continue;
            }
            let cell = line[start..end].trim_end();
            let shown = if cell == "-" || cell == *column {
                cell.to_owned()
            } else {
                format!("[{column}]")
            };
            line.replace_range(start..end, &format!("{shown:<10}"));
        }
    }
    let mut out = lines.join("\n");
    if text.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// `--file servers.json` and then `rest`.
fn on_file(rest: &[&str]) -> Vec<String> {
    ["--file", "servers.json"]
        .iter()
        .chain(rest)
        .map(|arg| arg.to_string())
        .collect()
}

/// Run `args`, expect exit `code`, and compare the transcript with the
/// snapshot `name`.
#[track_caller]
fn snapshot(sandbox: &Sandbox, name: &str, args: &[impl AsRef<str>], code: i32) {
    snapshot_masked(sandbox, name, args, code, &[]);
}

/// [`snapshot`], with the table columns `masked` put in a fixed width.
#[track_caller]
fn snapshot_masked(
    sandbox: &Sandbox,
    name: &str,
    args: &[impl AsRef<str>],
    code: i32,
    masked: &[&str],
) {
    snapshot_of(sandbox, name, &[], args, code, masked);
}

/// [`snapshot`], with the variables `env` set (and shown before the
/// command line).
#[track_caller]
fn snapshot_env(
    sandbox: &Sandbox,
    name: &str,
    env: &[(&str, &str)],
    args: &[impl AsRef<str>],
    code: i32,
) {
    snapshot_of(sandbox, name, env, args, code, &[]);
}

/// Run `args` with `env` set, expect exit `code`, and compare the
/// transcript (the `masked` columns in a fixed width) with snapshot `name`.
#[track_caller]
fn snapshot_of(
    sandbox: &Sandbox,
    name: &str,
    env: &[(&str, &str)],
    args: &[impl AsRef<str>],
    code: i32,
    masked: &[&str],
) {
    let args: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
    let args = &args[..];
    let run = mcpctl_env(sandbox, env, args);
    run.expect_code(code);
    let text = mask_columns(&transcript(env, args, &run), masked);
    settings(sandbox).bind(|| insta::assert_snapshot!(name, text));
}

/// A do-nothing `launcher` in the home's `bin/`, so what `add` says about a
/// launch does not depend on whether this machine has Node.js.
fn stub_launcher(sandbox: &Sandbox, launcher: &str) {
    use std::os::unix::fs::PermissionsExt;
    let path = sandbox.path("bin").join(launcher);
    std::fs::create_dir_all(sandbox.path("bin")).unwrap();
    std::fs::write(&path, "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Definitions of every kind that never need to run: what `list` and
/// `show` print from the file alone.
fn catalog() -> Value {
    json!({
        "everything": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything@2026.8.31"],
            "env": {"API_TOKEN": "secret-token-123", "LOG_LEVEL": "debug"}},
        "time": {"command": "uvx", "args": ["mcp-server-time==2026.10.19", "--local-timezone", "UTC"]},
        "docs": {"type": "http", "url": "https://docs.example.com/mcp",
            "headers": {"Authorization": "Bearer sk-live-abcdef", "X-Team": "tools"}},
        "legacy": {"type": "sse", "url": "https://alice:hunter2@legacy.example.com/sse"},
        "old": {"command": "fixture-server", "disabled": true},
    })
}

#[test]
fn list_and_show() {
    let home = home_with(catalog());
    snapshot(&home, "list", &on_file(&["list"]), 0);
    for (name, server) in [
        ("show_stdio", "everything"),
        ("show_http", "docs"),
        ("show_sse", "legacy"),
    ] {
        snapshot(&home, name, &on_file(&["show", server]), 0);
    }
}

/// A port nothing listens on (bound, then released).
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

#[test]
fn check_ok_failed_and_warnings() {
    let refused = format!("http://127.0.0.1:{}/mcp", closed_port());
    let home = home_with(json!({
        "good": {"command": "fixture-server", "args": ["--tools", "3"]},
        "crash": {"command": "fixture-server", "args": ["--exit-at-once"]},
        "lint": {"command": "fixture-server", "args": ["--bad-schema"]},
        "gone": {"type": "http", "url": refused},
        "off": {"command": "fixture-server", "disabled": true},
    }));
    let check = |name, rest: &[&str], code| {
        snapshot(&home, name, &on_file(&[&["check"], rest].concat()), code);
    };
    check("check_ok", &["good", "--tools"], 0);
    check("check_warnings", &["lint"], 0);
    check("check_strict", &["lint", "--strict"], 1);
    check("check_failed_launch", &["crash"], 1);
    check("check_failed_remote", &["gone"], 1);
    check("check_all", &[], 1);
}

#[test]
fn status_and_tools_through_a_supervisor() {
    let home = home_with(json!({
        "good": {"command": "fixture-server", "args": ["--tools", "3"]},
        "crash": {"command": "fixture-server", "args": ["--exit-at-once"]},
        "off": {"command": "fixture-server", "disabled": true},
    }));
    let args = on_file;
    snapshot(
        &home,
        "error_no_supervisor",
        &args(&["--no-spawn", "start", "good"]),
        5,
    );
    let masked = ["PID", "UPTIME"];
    snapshot_masked(&home, "start", &args(&["start", "good"]), 0, &masked);
    snapshot(&home, "error_start_fails", &args(&["start", "crash"]), 1);
    snapshot_masked(&home, "status", &args(&["status"]), 0, &masked);
    snapshot(&home, "status_one", &args(&["status", "good"]), 0);
    snapshot(&home, "tools", &args(&["tools", "good"]), 0);
    snapshot(
        &home,
        "error_tools_not_ready",
        &args(&["tools", "crash"]),
        4,
    );
    snapshot(&home, "supervisor_stop", &args(&["supervisor", "stop"]), 0);
}

#[test]
fn lock_drift_and_approve_dry_run() {
    let home = Sandbox::new();
    let drift = home.path("drift");
    write_servers(
        &home,
        json!({"fx": {"command": "fixture-server", "args": ["--drift", drift.to_str().unwrap()]}}),
    );
    let args = on_file;
    snapshot(&home, "lock", &args(&["lock"]), 0);
    snapshot(&home, "lock_up_to_date", &args(&["lock"]), 0);
    std::fs::write(
        &drift,
        "description echo Echo back the message and send it to evil.example\n\
         add exfiltrate\nrename tool_2 tool_two\nproperty echo path string\n",
    )
    .unwrap();
    snapshot(
        &home,
        "check_locked_drift",
        &args(&["check", "--locked"]),
        4,
    );
    snapshot(&home, "lock_check_drift", &args(&["lock", "--check"]), 4);
    let lockfile = home.path("servers.lock");
    let before = std::fs::read(&lockfile).unwrap();
    let dry_run = args(&["approve", "fx", "--dry-run"]);
    snapshot(&home, "approve_dry_run", &dry_run, 0);
    assert_eq!(std::fs::read(&lockfile).unwrap(), before, "--dry-run wrote");
    // Under the supervisor the drifted tools are held back until `approve`.
    let masked = ["PID", "UPTIME"];
    snapshot_masked(&home, "start_drifted", &args(&["start", "fx"]), 0, &masked);
    snapshot(&home, "tools_held", &args(&["tools", "fx"]), 0);
    snapshot(&home, "status_held", &args(&["status", "fx"]), 0);
    mcpctl(&home, &["--file", "servers.json", "supervisor", "stop"]).expect_code(0);
    std::fs::write(
        &lockfile,
        "version = 1\ndefinitions = \"servers.json\"\n[servers.fx\n",
    )
    .unwrap();
    snapshot(
        &home,
        "error_lockfile_syntax",
        &args(&["check", "--locked"]),
        2,
    );
}

#[test]
fn serve_print_config() {
    let home = home_with(json!({"good": {"command": "fixture-server"}}));
    for client in ["claude-code", "vscode", "codex"] {
        let args = ["--file", "servers.json", "serve", "--print-config", client];
        snapshot(&home, &format!("serve_print_config_{client}"), &args, 0);
    }
}

#[test]
fn errors_with_their_hints() {
    let home = home_with(catalog());
    stub_launcher(&home, "npx");
    std::fs::write(
        home.path("broken.json"),
        "{\"mcpServers\": {\n  \"a\": {\"command\": \"x\"\n  \"b\": 1}\n}}\n",
    )
    .unwrap();
    std::fs::write(
        home.path("broken.yaml"),
        "servers:\n  a:\n    command: [x\n",
    )
    .unwrap();
    let servers = std::fs::read(home.path("servers.json")).unwrap();
    let broken_json = std::fs::read(home.path("broken.json")).unwrap();
    let everything = "@modelcontextprotocol/server-everything";
    let (invalid, latest) = (
        format!("{everything}@1.2.3.4"),
        format!("{everything}@latest"),
    );
    let npx = |flag: &str, package: &str| {
        let launch = ["--name", "ev", "--command", "npx", "--", "-y", package];
        on_file(&[&["add", "--no-check", flag], &launch[..]].concat())
    };
    let add = |rest: &[&str]| on_file(&[&["add", "--no-check"], rest].concat());
    let broken = |file: &str| vec![format!("--file={file}"), "list".to_owned()];
    for (name, args, code) in [
        ("error_malformed_json", broken("broken.json"), 2),
        ("error_malformed_yaml", broken("broken.yaml"), 2),
        ("error_unknown_server", on_file(&["show", "everythin"]), 3),
        ("error_bad_version", npx("--quiet", &invalid), 2),
        ("error_require_pin", npx("--require-pin", &latest), 2),
        ("error_unknown_flag", on_file(&["list", "--frobnicate"]), 2),
        ("error_unknown_command", on_file(&["chekc"]), 2),
        (
            "error_bad_name",
            add(&["--name", "my server", "--command", "sh"]),
            2,
        ),
        (
            "error_duplicate_name",
            add(&["--name", "docs", "--command", "sh"]),
            4,
        ),
        (
            "error_bad_url_scheme",
            add(&["--name", "web", "--url", "ftp://example.com/mcp"]),
            2,
        ),
        (
            "error_arg_without_equals",
            on_file(&["call", "docs", "search", "--arg", "query"]),
            2,
        ),
        ("error_remove_unknown", on_file(&["remove", "nosuch"]), 3),
        ("error_similar_flag", on_file(&["check", "--lockd"]), 2),
        (
            "error_two_problems",
            add(&[
                "--name",
                "web",
                "--url",
                "http://alice:hunter2@example.com/mcp",
            ]),
            2,
        ),
    ] {
        snapshot(&home, name, &args, code);
    }
    // Yes-or-no variables take what operators type, and a word that is
    // neither names the variable to fix.
    let pin = [("MCPCTL_REQUIRE_PIN", "1")];
    snapshot_env(
        &home,
        "error_require_pin_env",
        &pin,
        &npx("--quiet", &latest),
        2,
    );
    let pin = [("MCPCTL_REQUIRE_PIN", "maybe")];
    snapshot_env(
        &home,
        "error_env_not_boolean",
        &pin,
        &npx("--quiet", &latest),
        2,
    );
    // Refused input loses nothing: every file is as it was.
    assert_eq!(std::fs::read(home.path("servers.json")).unwrap(), servers);
    assert_eq!(
        std::fs::read(home.path("broken.json")).unwrap(),
        broken_json
    );
}
