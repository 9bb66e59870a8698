//! Expanded `${VAR}` values never reach output, errors or logs.
//!
//! Each test plays an attacker (or an unlucky operator): it puts `${TOK}`
//! where it ends up in a message, runs the real binary with `TOK` set to a
//! unique secret, and searches stdout, stderr, `--json`, `status`, and every
//! file the supervisor wrote for that secret.

mod support;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};
use support::{Run, Sandbox, World};

const SECRET: &str = "zz-unique-secret-5150";

fn write_defs(sandbox: &Sandbox, server: Value) -> String {
    let path = sandbox.path("servers.json");
    std::fs::write(
        &path,
        serde_json::to_string_pretty(&json!({ "mcpServers": { "web": server } })).unwrap(),
    )
    .unwrap();
    path.to_string_lossy().into_owned()
}

fn with_secret(cmd: &mut Command) {
    cmd.env("TOK", SECRET);
}

#[track_caller]
fn assert_clean(what: &str, text: &str) {
    assert!(
        !text.contains(SECRET),
        "{what} shows the expanded secret:\n{text}"
    );
}

/// `check` in text and `--json`: fails, never shows the secret, and shows
/// `needle` (proof that the message that used to leak is still there).
fn check_both(sandbox: &Sandbox, file: &str, needle: &str) {
    let run = sandbox.run_with(&["--file", file, "check", "--timeout", "10"], with_secret);
    run.expect_code(1);
    assert_clean("check", &run.to_string());
    assert!(run.to_string().contains(needle), "no `{needle}` in\n{run}");
    let run = sandbox.run_with(
        &["--file", file, "--json", "check", "--timeout", "10"],
        with_secret,
    );
    run.expect_code(1);
    assert_clean("check --json", &run.to_string());
}

#[test]
fn a_stderr_tail_that_prints_an_expanded_env_value_is_redacted() {
    let sandbox = Sandbox::new();
    let file = write_defs(
        &sandbox,
        json!({
            "command": "sh",
            "args": ["-c", "echo \"token is $SECRET\" >&2; exit 1"],
            "env": {"SECRET": "${TOK}"}
        }),
    );
    check_both(&sandbox, &file, "token is ${TOK}");
}

#[test]
fn a_literal_env_secret_echoed_on_stderr_is_masked() {
    let sandbox = Sandbox::new();
    let file = write_defs(
        &sandbox,
        json!({
            "command": "sh",
            "args": ["-c", "echo \"token is $SECRET\" >&2; exit 1"],
            "env": {"SECRET": SECRET}
        }),
    );
    let run = sandbox.run(&["--file", &file, "check"]);
    run.expect_code(1);
    assert_clean("check", &run.to_string());
    assert!(run.stdout.contains("token is ***"), "{run}");
}

#[test]
fn a_url_with_a_variable_is_shown_unexpanded_when_the_connection_fails() {
    let sandbox = Sandbox::new();
    let file = write_defs(&sandbox, json!({"url": "http://127.0.0.1:1/${TOK}/mcp"}));
    check_both(&sandbox, &file, "http://127.0.0.1:1/${TOK}/mcp");
}

#[test]
fn a_command_from_a_variable_that_is_not_found_is_shown_unexpanded() {
    let sandbox = Sandbox::new();
    let file = write_defs(&sandbox, json!({"command": "${TOK}"}));
    check_both(&sandbox, &file, "launcher `${TOK}` was not found");
}

#[test]
fn a_missing_cwd_from_a_variable_is_shown_unexpanded() {
    let sandbox = Sandbox::new();
    let file = write_defs(
        &sandbox,
        json!({"command": "sh", "cwd": "/nonexistent/${TOK}"}),
    );
    check_both(&sandbox, &file, "/nonexistent/${TOK}");
}

/// A server on 127.0.0.1 that answers every request with HTTP 500 and a
/// body echoing the request's `x-api-key` header.
fn echoing_server() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut key = String::new();
            let mut length = 0usize;
            let mut line = String::new();
            while reader.read_line(&mut line).unwrap_or(0) > 0 && line != "\r\n" {
                let lower = line.to_ascii_lowercase();
                if let Some(v) = lower.strip_prefix("x-api-key:") {
                    key = line[line.len() - v.len()..].trim().to_string();
                }
                if let Some(v) = lower.strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
                line.clear();
            }
            let mut body = vec![0u8; length];
            let _ = std::io::Read::read_exact(&mut reader, &mut body);
            let reply = format!("invalid api key {key}");
            let mut stream = stream;
            let _ = write!(
                stream,
                "HTTP/1.1 500 Internal Server Error\r\ncontent-type: text/plain\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{reply}",
                reply.len()
            );
        }
    });
    port
}

#[test]
fn an_http_error_body_that_echoes_a_header_is_redacted() {
    let port = echoing_server();
    let sandbox = Sandbox::new();
    let file = write_defs(
        &sandbox,
        json!({
            "type": "sse",
            "url": format!("http://127.0.0.1:{port}/sse"),
            "headers": {"X-Api-Key": "${TOK}"}
        }),
    );
    check_both(&sandbox, &file, "invalid api key ${TOK}");
}

fn all_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            all_files(&path, out);
        } else if path.is_file() {
            out.push(path);
        }
    }
}

#[test]
fn the_supervisor_never_logs_or_reports_an_expanded_value() {
    let sandbox = Sandbox::new();
    let file = write_defs(
        &sandbox,
        json!({
            "command": "sh",
            "args": ["-c", "echo \"token is $SECRET\" >&2; exit 1"],
            "env": {"SECRET": "${TOK}"}
        }),
    );
    let mcpctl = |args: &[&str]| -> Run { sandbox.run_with(args, with_secret) };
    let start = mcpctl(&["--file", &file, "start", "web"]);
    assert_ne!(start.code, 0, "{start}");
    assert_clean("start", &start.to_string());
    let status = mcpctl(&["--file", &file, "--json", "status", "web"]);
    assert_clean("status --json", &status.to_string());
    let last = &status.json()["servers"][0]["last_error"];
    assert!(
        last.to_string().contains("token is ${TOK}"),
        "last_error lost the redacted line: {status}"
    );
    let logs = mcpctl(&["--file", &file, "logs", "web"]);
    assert_clean("logs", &logs.to_string());
    assert!(logs.stdout.contains("token is ${TOK}"), "{logs}");
    let mut files = Vec::new();
    all_files(&sandbox.state(), &mut files);
    assert!(!files.is_empty());
    for path in files {
        let bytes = std::fs::read(&path).unwrap_or_default();
        assert_clean(
            &path.display().to_string(),
            &String::from_utf8_lossy(&bytes),
        );
    }
}

const PASSWORD: &str = "pw-in-the-url-8086";
const LITERAL: &str = "literal-header-secret-42";

#[test]
fn add_dry_run_redacts_literal_header_and_env_values() {
    let sandbox = Sandbox::new();
    let to = sandbox.path("new.json");
    let to = to.to_str().unwrap();
    let url = "http://127.0.0.1:1/mcp".to_string();
    let header = format!("X-Api-Key: {LITERAL}");
    for json in [false, true] {
        let mut args = vec!["add", "--to", to, "--name", "web", "--url", &url];
        args.extend(["--header", &header, "--dry-run", "--no-check"]);
        if json {
            args.insert(0, "--json");
        }
        let run = sandbox.run(&args);
        run.expect_code(0);
        let text = run.to_string();
        assert!(!text.contains(LITERAL), "the literal header shows:\n{text}");
        assert!(text.contains("X-Api-Key"), "{text}");
    }
    let mut args = vec!["add", "--to", to, "--name", "tool", "--command", "sh"];
    let env = format!("API_KEY={LITERAL}");
    args.extend(["--env", &env, "--dry-run", "--no-check"]);
    let run = sandbox.run(&args);
    run.expect_code(0);
    assert!(!run.to_string().contains(LITERAL), "{run}");
}

#[test]
fn a_url_password_is_masked_in_list_show_and_check() {
    let sandbox = Sandbox::new();
    let file = write_defs(
        &sandbox,
        json!({"url": format!("http://me:{PASSWORD}@127.0.0.1:1/mcp")}),
    );
    for args in [
        vec!["list"],
        vec!["--json", "list"],
        vec!["show", "web"],
        vec!["--json", "show", "web"],
        vec!["check"],
        vec!["--json", "check"],
    ] {
        let mut all = vec!["--file", file.as_str()];
        all.extend(args.iter().copied());
        let run = sandbox.run(&all);
        assert!(
            !run.to_string().contains(PASSWORD),
            "mcpctl {args:?} shows the URL password:\n{run}"
        );
        assert!(run.to_string().contains("127.0.0.1:1"), "{args:?}\n{run}");
    }
}

#[test]
fn a_registry_url_password_is_masked_in_errors() {
    let sandbox = Sandbox::new();
    let registry = format!("http://me:{PASSWORD}@127.0.0.1:1");
    for json in [false, true] {
        let mut args = vec!["search", "x", "--refresh", "--registry", &registry];
        if json {
            args.insert(0, "--json");
        }
        let run = sandbox.run(&args);
        run.expect_code(1);
        assert!(!run.to_string().contains(PASSWORD), "{run}");
        assert!(run.to_string().contains("http://***@127.0.0.1:1"), "{run}");
    }
}

/// A supervised fixture whose `leak` tool answers with the value of its
/// `LEAKED` variable and whose `leak_error` fails quoting it; `LEAKED` is
/// `value` in the entry: a world whose commands have `TOK` set.
fn leaky(value: &str) -> World {
    leaky_with(SECRET, value)
}

/// [`leaky`] with `TOK` set to `tok`.
fn leaky_with(tok: &str, value: &str) -> World {
    let fixture = support::fixture().to_string_lossy().into_owned();
    serving_with(
        json!({"command": fixture, "args": ["--leak-env", "LEAKED"], "env": {"LEAKED": value}}),
        tok,
    )
}

/// `server` as the started entry `web` of a world whose commands have
/// `TOK` set.
fn leaky_serving(server: Value) -> World {
    serving_with(server, SECRET)
}

/// [`leaky_serving`] with `TOK` set to `tok`.
fn serving_with(server: Value, tok: &str) -> World {
    let mut w = World::short("ms");
    w.set("TOK", tok);
    write_defs(&w, server);
    w.run(&["start", "web"]).expect_code(0);
    w
}

/// `tools/call`s over a `serve --stdio` child's own pipes, as an agent
/// host makes them; the reply lines.
fn serve_calls(serve: &mut Command, tools: &[&str]) -> Vec<String> {
    let calls: Vec<(&str, Value)> = tools
        .iter()
        .map(|tool| ("tools/call", json!({"name": tool, "arguments": {}})))
        .collect();
    serve_session(serve, json!({}), &calls)
        .into_iter()
        .filter_map(|mut lines| lines.pop())
        .collect()
}

/// An agent host offering `capabilities` on a `serve --stdio` child's own
/// pipes: makes each request of `calls` (method and params), answering
/// what serve asks meanwhile (a question declined, a sampling request
/// with a canned completion); per request, every line it got, the reply
/// last.
fn serve_session(
    serve: &mut Command,
    capabilities: Value,
    calls: &[(&str, Value)],
) -> Vec<Vec<String>> {
    let mut child = serve
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut send = |message: Value| {
        writeln!(input, "{message}").unwrap();
        input.flush().unwrap();
    };
    let mut ask = |request: Value, send: &mut dyn FnMut(Value)| -> Vec<String> {
        send(request.clone());
        let mut lines = Vec::new();
        if request.get("id").is_none() {
            return lines;
        }
        loop {
            let mut line = String::new();
            assert!(output.read_line(&mut line).unwrap() > 0, "serve closed");
            let message: Value = serde_json::from_str(&line).unwrap();
            lines.push(line);
            let answer = match message.get("method").and_then(Value::as_str) {
                Some("elicitation/create") => json!({"action": "decline"}),
                Some("sampling/createMessage") => json!({"role": "assistant",
                    "content": {"type": "text", "text": "fine"}, "model": "canned"}),
                Some(_) => continue,
                None if message.get("id") == request.get("id") => return lines,
                None => continue,
            };
            send(json!({"jsonrpc": "2.0", "id": message["id"], "result": answer}));
        }
    };
    ask(
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": capabilities,
            "clientInfo": {"name": "t", "version": "1"}}}),
        &mut send,
    );
    ask(
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        &mut send,
    );
    let sessions = calls
        .iter()
        .enumerate()
        .map(|(i, (method, params))| {
            ask(
                json!({"jsonrpc": "2.0", "id": i + 1, "method": method, "params": params}),
                &mut send,
            )
        })
        .collect();
    let _ = child.kill();
    let _ = child.wait();
    sessions
}

/// The places in `text` (named `what`) where the secret shows, added to
/// `leaks`; and a check that `needle` (the redacted form) is there.
fn collect(leaks: &mut Vec<String>, what: &str, text: &str, needle: &str) {
    if text.contains(SECRET) {
        leaks.push(format!("{what}:\n{text}"));
    } else {
        assert!(text.contains(needle), "{what}: no `{needle}` in\n{text}");
    }
}

#[test]
fn a_result_or_error_quoting_a_variable_is_redacted_in_call_json_serve_and_the_audit_log() {
    let w = leaky("${TOK}");
    // Every channel is tried before failing, so the message names each leak.
    let mut leaks = Vec::new();
    for args in [
        &["call", "web", "leak"][..],
        &["--json", "call", "web", "leak"],
        &["call", "--direct", "web", "leak"],
    ] {
        let run = w.run(args);
        run.expect_code(0);
        collect(&mut leaks, &format!("{args:?}"), &run.to_string(), "${TOK}");
    }
    for args in [
        &["call", "web", "leak_error"][..],
        &["--json", "call", "web", "leak_error"],
        &["call", "--direct", "web", "leak_error"],
    ] {
        let run = w.run(args);
        assert_ne!(run.code, 0, "{args:?}: {run}");
        let needle = "the key ${TOK} was refused";
        collect(&mut leaks, &format!("{args:?}"), &run.to_string(), needle);
    }
    w.run(&["grant", "web", "leak", "leak_error"])
        .expect_code(0);
    let replies = serve_calls(
        w.command().args(["serve", "--stdio"]),
        &["web__leak", "web__leak_error"],
    );
    assert_eq!(replies.len(), 2, "{replies:?}");
    for reply in &replies {
        collect(&mut leaks, "serve --stdio", reply, "${TOK}");
    }
    // The audit log (and everything else the supervisor and serve wrote).
    let mut files = Vec::new();
    all_files(&w.state(), &mut files);
    assert!(
        files
            .iter()
            .any(|p| p.to_string_lossy().ends_with(".audit.jsonl")),
        "{files:?}"
    );
    assert_no_leaks(leaks, &w.state());
}

#[test]
fn a_literal_env_value_a_tool_returns_is_masked() {
    let w = leaky(SECRET);
    for args in [
        &["call", "web", "leak"][..],
        &["--json", "call", "web", "leak"],
    ] {
        let run = w.run(args);
        run.expect_code(0);
        assert_clean(&format!("{args:?}"), &run.to_string());
        assert!(run.stdout.contains("LEAKED is ***"), "{args:?}: {run}");
    }
    let run = w.run(&["call", "web", "leak_error"]);
    assert_ne!(run.code, 0, "{run}");
    assert_clean("call leak_error", &run.to_string());
    assert!(run.stderr.contains("the key *** was refused"), "{run}");
}

/// Every file under the supervisor's state directory (the audit log
/// included) where the secret shows, added to `leaks`.
/// Fail with every place the secret showed, the state directory's files included.
#[track_caller]
fn assert_no_leaks(mut leaks: Vec<String>, state: &Path) {
    collect_files(&mut leaks, state);
    assert!(
        leaks.is_empty(),
        "the secret shows in:\n{}",
        leaks.join("\n")
    );
}

fn collect_files(leaks: &mut Vec<String>, state: &Path) {
    let mut files = Vec::new();
    all_files(state, &mut files);
    for path in files {
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap_or_default()).into_owned();
        if text.contains(SECRET) {
            leaks.push(format!("{}:\n{text}", path.display()));
        }
    }
}

#[test]
fn what_a_server_says_during_a_call_is_redacted_in_call_and_serve() {
    let w = leaky("${TOK}");
    let said = "LEAKED is ${TOK}";
    let mut leaks = Vec::new();
    // Progress on stderr, and the question's message in `--json`.
    for direct in [&[][..], &["--direct"]] {
        let mut args = vec!["call", "web", "leak_talk", "--progress", "json"];
        args.extend_from_slice(direct);
        let run = w.run(&args);
        run.expect_code(0);
        collect(&mut leaks, &format!("{args:?}"), &run.stderr, said);
        let mut args = vec!["--json", "call", "web", "leak_talk"];
        args.extend_from_slice(direct);
        let run = w.run(&args);
        run.expect_code(0);
        let question = format!("Confirm: {said}");
        collect(&mut leaks, &format!("{args:?}"), &run.stdout, &question);
    }
    // An agent host that offers elicitation and sampling, and asks for
    // progress: the progress, the log message, the question (message,
    // title, description, default) and the sampling request it is sent.
    w.run(&["grant", "web", "leak_talk"]).expect_code(0);
    let call = json!({"name": "web__leak_talk", "arguments": {}, "_meta": {"progressToken": "p1"}});
    let sessions = serve_session(
        w.command().args(["serve", "--stdio"]),
        json!({"elicitation": {}, "sampling": {}}),
        &[("tools/call", call)],
    );
    let lines = &sessions[0];
    let reply = lines.last().expect("a reply");
    assert!(
        reply.contains("question decline") && reply.contains("sampled"),
        "{lines:#?}"
    );
    for (method, needle) in [
        ("notifications/progress", said.to_string()),
        ("notifications/message", said.to_string()),
        ("elicitation/create", format!("Confirm: {said}")),
        ("elicitation/create", format!("Key ({said})")),
        ("elicitation/create", format!("Was: {said}")),
        ("sampling/createMessage", said.to_string()),
    ] {
        let line = lines
            .iter()
            .find(|l| l.contains(&format!("\"{method}\"")))
            .unwrap_or_else(|| panic!("no {method} reached the agent: {lines:#?}"));
        collect(&mut leaks, &format!("serve: {method}"), line, &needle);
    }
    assert_no_leaks(leaks, &w.state());
}

#[test]
fn a_prompt_quoting_a_variable_is_redacted_when_serve_passes_it_on() {
    let w = leaky("${TOK}");
    let said = "LEAKED is ${TOK}";
    w.run(&["grant", "web", "leak"]).expect_code(0);
    let replies = serve_session(
        w.command().args(["serve", "--stdio"]),
        json!({}),
        &[
            ("prompts/list", json!({})),
            ("prompts/get", json!({"name": "web__leak_prompt"})),
            ("prompts/get", json!({"name": "web__nothing"})),
        ],
    );
    let mut leaks = Vec::new();
    let reply = |i: usize| replies[i].last().cloned().unwrap_or_default();
    collect(&mut leaks, "prompts/list", &reply(0), said);
    collect(&mut leaks, "prompts/get", &reply(1), said);
    collect(
        &mut leaks,
        "prompts/get of no such prompt",
        &reply(2),
        "no prompt nothing",
    );
    assert!(
        leaks.is_empty(),
        "the secret shows in:\n{}",
        leaks.join("\n")
    );
}

/// Attack (fresh pass, issue 20): a value a server quotes under a `data`
/// key that is not base64 (`structuredContent.data`, `_meta.data`) reached
/// `call`, `call --json` and the agent behind `serve` unmasked.
#[test]
fn a_value_quoted_under_data_is_redacted_in_call_and_serve() {
    let w = leaky("${TOK}");
    let mut leaks = Vec::new();
    for args in [
        &["call", "web", "leak_data"][..],
        &["--json", "call", "web", "leak_data"],
        &["--json", "call", "--direct", "web", "leak_data"],
    ] {
        let run = w.run(args);
        run.expect_code(0);
        collect(&mut leaks, &format!("{args:?}"), &run.to_string(), "${TOK}");
    }
    w.run(&["grant", "web", "leak_data"]).expect_code(0);
    let call = json!({"name": "web__leak_data", "arguments": {}});
    let sessions = serve_session(
        w.command().args(["serve", "--stdio"]),
        json!({}),
        &[("tools/call", call)],
    );
    let reply = sessions[0].last().cloned().unwrap_or_default();
    collect(&mut leaks, "serve's tools/call", &reply, "${TOK}");
    assert_no_leaks(leaks, &w.state());
}

/// Attack (fresh pass, issue 20): a server whose tool description (or its
/// `instructions`) quotes a `${VAR}` value of its entry, documenting "its"
/// key, had that value shown by `tools` and `check --json`, written into
/// the lockfile (a file made to be committed) and listed to the agent
/// behind `serve`.
#[test]
fn a_tool_description_quoting_a_variable_is_redacted_in_tools_check_lock_and_serve() {
    let w = leaky("${TOK}");
    let mut leaks = Vec::new();
    for args in [
        &["tools", "web"][..],
        &["--json", "tools", "web"],
        &["--json", "check", "web"],
    ] {
        let run = w.run(args);
        run.expect_code(0);
        collect(&mut leaks, &format!("{args:?}"), &run.to_string(), "${TOK}");
    }
    w.run(&["lock", "web"]).expect_code(0);
    let lockfile = w.lockfile();
    let text = std::fs::read_to_string(&lockfile).unwrap();
    assert!(text.contains("leak_described"), "{text}");
    if text.contains(SECRET) {
        leaks.push(format!("{}:\n{text}", lockfile.display()));
    }
    w.run(&["grant", "web", "leak_described"]).expect_code(0);
    let listed = serve_session(
        w.command().args(["serve", "--stdio"]),
        json!({}),
        &[("tools/list", json!({}))],
    );
    let listed = listed[0].last().cloned().unwrap_or_default();
    collect(&mut leaks, "serve's tools/list", &listed, "${TOK}");
    assert_no_leaks(leaks, &w.state());
}

/// Attack (fresh pass, issue 20): what `serve` passes through besides
/// tools was not redacted: a resource's text and a prompt's messages that
/// quote a literal env value of the entry reached the agent as written.
/// (server-everything's own texts stand in for a server quoting its key.)
#[test]
fn resources_and_prompts_serve_passes_through_are_redacted() {
    let bin = support::require(
        "mcp-server-everything",
        "run `bash tests/run.sh`, which installs @modelcontextprotocol/server-everything",
    );
    let document = "Everything Server";
    let prompt = "simple prompt without arguments";
    let w = leaky_serving(json!({"command": bin, "args": ["stdio"],
        "env": {"DOC_KEY": document, "PROMPT_KEY": prompt}}));
    w.run(&["grant", "web", "echo"]).expect_code(0);
    let sessions = serve_session(
        w.command().args(["serve", "--stdio"]),
        json!({}),
        &[
            (
                "resources/read",
                json!({"uri": "mcpctl://web/demo://resource/static/document/architecture.md"}),
            ),
            ("prompts/get", json!({"name": "web__simple-prompt"})),
        ],
    );
    let replies: Vec<String> = sessions
        .iter()
        .map(|lines| lines.last().cloned().unwrap_or_default())
        .collect();
    assert!(
        replies.iter().all(|r| r.contains("\"result\"")),
        "{replies:?}"
    );
    for (reply, secret) in replies.iter().zip([document, prompt]) {
        assert!(
            !reply.contains(secret),
            "`{secret}` reached the agent: {reply}"
        );
        assert!(reply.contains("***"), "{reply}");
    }
}

/// Attack variants (issue 20, after the two fixes above): a listing may
/// word the value anywhere (a tool's title, its annotations' title, its
/// outputSchema's `default` and `examples`, the server's title, a resource
/// template's URI template, a prompt's description) and a result may make
/// it a key of `structuredContent` or an image's "base64" that is not.
/// Each place shows the reference, and no output or file the value.
#[test]
fn every_place_a_listing_or_result_may_word_a_value_shows_its_reference() {
    let w = leaky("${TOK}");
    let mut leaks = Vec::new();
    let tools = w.run(&["--json", "tools", "web"]);
    tools.expect_code(0);
    collect(&mut leaks, "tools --json", &tools.to_string(), "${TOK}");
    let check = w.run(&["--json", "check", "web"]);
    check.expect_code(0);
    let said = r#""title":"LEAKED is ${TOK}""#;
    collect(&mut leaks, "check --json", &check.json().to_string(), said);
    let call = w.run(&["--json", "call", "web", "leak_data"]);
    call.expect_code(0);
    collect(&mut leaks, "call --json", &call.to_string(), "${TOK}");
    w.run(&["lock", "web"]).expect_code(0);
    collect(
        &mut leaks,
        "servers.lock",
        &w.lock_text(),
        "LEAKED_is_${TOK}",
    );
    assert_no_leaks(leaks, &w.state());
    let doc = tools.json();
    let described = doc["tools"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["name"] == "leak_described"))
        .unwrap_or_else(|| panic!("no leak_described in {doc}"));
    assert_eq!(described["title"], "Key ${TOK}", "{described}");
    assert_eq!(described["annotations"]["title"], "Signs with ${TOK}");
    let key = &described["outputSchema"]["properties"]["key"];
    assert_eq!(
        (&key["default"], &key["examples"][0]),
        (&json!("${TOK}"), &json!("${TOK}"))
    );
    let result = call.json();
    let structured = result
        .pointer("/result/structuredContent")
        .unwrap_or(&result);
    assert!(structured.get("${TOK}").is_some(), "a key too: {result}");
    assert!(
        result
            .to_string()
            .contains(r#""data":"the key ${TOK} was used""#),
        "{result}"
    );
}

/// Issue 20: the lockfile pins the redacted catalog, so a lock taken by
/// `lock` matches what the supervisor holds, and a new value behind the
/// same `${TOK}` (a rotated key) is no drift. Before, the lock held the
/// value itself, and every rotation drifted.
#[test]
fn a_lock_matches_the_supervisor_and_a_rotated_secret_is_no_drift() {
    let mut w = leaky("${TOK}");
    w.run(&["lock", "web"]).expect_code(0);
    let status = w.json(&["status", "web"], 0);
    assert_eq!(status["servers"][0]["state"], "ready", "{status}");
    w.set("TOK", "zz-rotated-secret-6160");
    w.run(&["restart", "web"]).expect_code(0);
    let status = w.json(&["status", "web"], 0);
    assert_eq!(status["servers"][0]["state"], "ready", "{status}");
    w.run(&["check", "--locked", "web"]).expect_code(0);
    assert!(!w.lock_text().contains("zz-rotated"), "{}", w.lock_text());
}

/// A secret with what URLs and JSON strings escape (`/`, `+`, `=`, a
/// space, `"`, `\\`, a letter outside ASCII); `zq5150` tells it apart.
const ESCAPED_SECRET: &str = "zq5150/a+b=c d\"e\\fé";

/// What no output may hold: the secret's telling part as written, and
/// with every byte percent-encoded (upper and lower case hex).
const TELLS: [&str; 3] = ["zq5150", "%7A%71%35%31%35%30", "%7a%71%35%31%35%30"];

/// Attack (second pass, issue 20, L3): a server that says a secret back
/// percent-encoded (every byte, or only what a URL component or a query
/// escapes) or JSON-escaped inside text (a stringified JSON object: `\"`,
/// `\\`, `\u00e9`) had it pass unmasked through `call` (supervisor and
/// `--direct`), its errors, `tools` and `serve`. Each form shows the
/// reference (or `***` for a literal value).
#[test]
fn a_value_said_back_percent_encoded_or_json_escaped_is_redacted() {
    for (value, shown) in [("${TOK}", "${TOK}"), (ESCAPED_SECRET, "***")] {
        let w = leaky_with(ESCAPED_SECRET, value);
        let mut said = Vec::new();
        for args in [
            &["call", "web", "leak_encoded"][..],
            &["--json", "call", "web", "leak_encoded"],
            &["call", "--direct", "web", "leak_encoded"],
            &["call", "web", "leak_encoded_error"],
            &["--json", "call", "web", "leak_encoded_error"],
            &["call", "--direct", "web", "leak_encoded_error"],
            &["--json", "tools", "web"],
        ] {
            said.push((format!("{args:?}"), w.run(args).to_string()));
        }
        let plain = &said[0].1;
        for form in [
            "every byte: ",
            "lower: ",
            "component: ",
            "query: ?key=",
            "stringified: {\"key\":\"",
            "ascii: {\"key\":\"",
        ] {
            let expected = format!("{form}{shown}");
            assert!(plain.contains(&expected), "no {expected:?} in {plain}");
        }
        w.run(&["grant", "web", "leak_encoded", "leak_encoded_error"])
            .expect_code(0);
        let replies = serve_calls(
            w.command().args(["serve", "--stdio"]),
            &["web__leak_encoded", "web__leak_encoded_error"],
        );
        said.extend(
            replies
                .into_iter()
                .map(|r| ("serve --stdio".to_string(), r)),
        );
        let mut files = Vec::new();
        all_files(&w.state(), &mut files);
        for path in files {
            let text = std::fs::read(&path).unwrap_or_default();
            said.push((
                path.display().to_string(),
                String::from_utf8_lossy(&text).into(),
            ));
        }
        let leaks: Vec<String> = said
            .iter()
            .filter(|(_, text)| TELLS.iter().any(|t| text.contains(t)))
            .map(|(what, text)| format!("{what}:\n{text}"))
            .collect();
        assert!(
            leaks.is_empty(),
            "{value}: the secret shows in:\n{}",
            leaks.join("\n")
        );
    }
}
