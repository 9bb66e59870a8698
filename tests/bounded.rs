//! Bounded memory and disk whatever a server writes: a stderr flood without
//! newlines, an oversized reply, a reply to a request never sent.

mod support;

use std::time::{Duration, Instant};

use mcpctl::mcp::{self, DiscoverOptions};
use mcpctl::supervisor::logs;
use support::{Run, Sandbox};

fn write_defs(sandbox: &Sandbox, servers: serde_json::Value) -> String {
    let path = sandbox.path("servers.json");
    let doc = serde_json::json!({ "mcpServers": servers });
    std::fs::write(&path, doc.to_string()).unwrap();
    path.to_string_lossy().into_owned()
}

/// Run mcpctl under `/usr/bin/time` and return the run and its peak RSS in
/// MB (the kernel's maximum resident set of mcpctl and what it reaped).
fn run_measured(sandbox: &Sandbox, args: &[&str]) -> (Run, u64) {
    let time = support::require("time", "apt-get install time");
    let mut cmd = sandbox.wrapped(time);
    cmd.args(["-f", "maxrss_kb=%M", env!("CARGO_BIN_EXE_mcpctl")])
        .args(args);
    let run = support::to_run(cmd.output().expect("time runs mcpctl"));
    let kb: u64 = run
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("maxrss_kb="))
        .unwrap_or_else(|| panic!("no maxrss from time\n{run}"))
        .trim()
        .parse()
        .expect("maxrss is a number");
    (run, kb / 1024)
}

#[tokio::test]
async fn a_stderr_flood_without_newlines_keeps_the_log_within_its_cap() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("flood.log");
    let def = support::fixture_def("flood", &["--stderr-flood", "30000000"]);
    let mut opts = DiscoverOptions::default();
    opts.connect.stderr_tee = Some(logs::tee(path.clone(), logs::MAX_LOG_BYTES));
    let report = mcp::discover(&def, &opts).await.expect("the server works");
    assert_eq!(report.tools.len(), 3);
    let ended = support::wait_until(support::within(10), || {
        logs::tail(&path, 5)
            .iter()
            .any(|l| logs::split_stamp(l).1 == "fixture: flood done")
    });
    assert!(ended, "the flood never ended in the log");
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(size <= logs::MAX_LOG_BYTES, "log is {size} bytes");
    let lines = logs::tail(&path, 10);
    let cut = lines
        .iter()
        .map(|l| logs::split_stamp(l).1)
        .find(|l| l.starts_with("xxxx"))
        .expect("the flood's first 8 KiB are logged");
    assert!(cut.ends_with("[line truncated at 8 KiB]"), "{cut:.40}…");
    assert!(cut.len() < 9 * 1024, "{} bytes", cut.len());
}

#[test]
fn a_stderr_flood_without_newlines_does_not_cost_its_size_in_memory() {
    let sandbox = Sandbox::new();
    let fx = support::fixture().to_string_lossy().into_owned();
    let file = write_defs(
        &sandbox,
        serde_json::json!({"flood": {"command": fx, "args": ["--stderr-flood", "150000000"]}}),
    );
    let (run, mb) = run_measured(&sandbox, &["--file", &file, "check"]);
    run.expect_code(0).stdout_has("flood ");
    assert!(mb < 80, "peak RSS {mb} MB for a 150 MB flood\n{run}");
}

#[test]
fn an_oversized_reply_fails_at_once_without_buffering_it() {
    let sandbox = Sandbox::new();
    let script = r#"read line; printf '{"jsonrpc":"2.0","id":0,"result":{"big":"'; head -c 60000000 /dev/zero | tr '\0' x; printf '"}}\n'; sleep 60"#;
    let file = write_defs(
        &sandbox,
        serde_json::json!({"big": {"command": "sh", "args": ["-c", script]}}),
    );
    let start = Instant::now();
    let (run, mb) = run_measured(&sandbox, &["--file", &file, "check", "--timeout", "60"]);
    let took = start.elapsed();
    run.expect_code(1).stdout_has(
        "big: the server sent a reply larger than 16 MB during initialize; mcpctl stopped reading it",
    );
    assert!(took < Duration::from_secs(20), "took {took:?}\n{run}");
    assert!(mb < 80, "peak RSS {mb} MB for a 60 MB reply\n{run}");
}

#[test]
fn a_reply_to_a_request_never_sent_is_named() {
    let sandbox = Sandbox::new();
    let init = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"ids","version":"1"}}}"#;
    let during_init = r#"read line; echo '{"jsonrpc":"2.0","id":7,"result":{}}'; exit 0"#;
    let after_init = format!(
        r#"read line; echo '{init}'; read line; read line; echo '{{"jsonrpc":"2.0","id":99,"result":{{"tools":[]}}}}'; sleep 60"#
    );
    let file = write_defs(
        &sandbox,
        serde_json::json!({
            "early": {"command": "sh", "args": ["-c", during_init]},
            "late": {"command": "sh", "args": ["-c", after_init]},
        }),
    );
    let start = Instant::now();
    let run = sandbox.run(&["--file", &file, "check", "--timeout", "60"]);
    run.expect_code(1)
        .stdout_has("early: the server answered request id 7, which was never sent (initialize)")
        .stdout_has("late: the server answered request id 99, which was never sent (tools/list)");
    assert!(!run.stdout.contains("process exited"), "{run}");
    assert!(start.elapsed() < Duration::from_secs(20), "{run}");
}
