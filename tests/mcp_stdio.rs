//! The MCP client against the fixture server over stdio: every failure kind
//! named with its phase, pagination guards, the stateless fallback, roots.

mod support;

use std::time::{Duration, Instant};

use mcpctl::mcp::{self, ConnectError, DiscoverOptions, PageEnd, Phase};
use support::{fixture_def, stdio};

fn opts() -> DiscoverOptions {
    let mut o = DiscoverOptions::default();
    o.connect.kill_grace = Duration::from_millis(300);
    o
}

async fn fail(args: &[&str], o: &DiscoverOptions) -> ConnectError {
    let def = fixture_def("fx", args);
    match mcp::discover(&def, o).await {
        Ok(report) => panic!(
            "expected failure for {args:?}, got {} tools",
            report.tools.len()
        ),
        Err(err) => err,
    }
}

#[tokio::test]
async fn healthy_server_reports_tools_version_and_timings() {
    let def = fixture_def("fx", &["--tools", "5"]);
    let report = mcp::discover(&def, &opts()).await.unwrap();
    assert_eq!(report.protocol_version, "2025-11-25");
    assert!(!report.stateless);
    let names: Vec<_> = report.tools.iter().map(|t| t.name.to_string()).collect();
    assert_eq!(names, ["echo", "fast", "tool_2", "tool_3", "tool_4"]);
    assert_eq!(
        report.server_name_version(),
        Some(("mcpctl-fixture".into(), "1.0.0".into()))
    );
    assert_eq!(
        report.resources, None,
        "resources not advertised, so not asked"
    );
    assert!(report.timings.total_ms > 0.0 && report.timings.initialize_ms > 0.0);
    assert!(report.lints.is_empty(), "{:?}", report.lints);
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["tools"][0]["inputSchema"]["required"][0], "message");
    assert_eq!(json["initialize"]["serverInfo"]["name"], "mcpctl-fixture");
}

#[tokio::test]
async fn pagination_reads_every_page() {
    let def = fixture_def("fx", &["--tools", "23", "--page-size", "5"]);
    let report = mcp::discover(&def, &opts()).await.unwrap();
    assert_eq!(report.tools.len(), 23);
    assert_eq!(report.tool_pages, 5);
    assert_eq!(report.tool_list_end, PageEnd::Complete);
}

#[tokio::test]
async fn repeated_cursor_stops_listing_and_lints() {
    let def = fixture_def(
        "fx",
        &["--tools", "6", "--page-size", "2", "--repeat-cursor"],
    );
    let report = mcp::discover(&def, &opts()).await.unwrap();
    assert_eq!(report.tool_list_end, PageEnd::RepeatedCursor);
    assert_eq!(
        report.tool_pages, 2,
        "page 1 (no cursor) then page-2, whose cursor repeats"
    );
    assert!(report.lints.iter().any(|l| l.code == "repeated-cursor"));
}

#[tokio::test]
async fn page_cap_is_honoured() {
    let def = fixture_def("fx", &["--tools", "30", "--page-size", "1"]);
    let mut o = opts();
    o.max_pages = 4;
    let report = mcp::discover(&def, &o).await.unwrap();
    assert_eq!(
        (report.tools.len(), report.tool_list_end),
        (4, PageEnd::PageCap)
    );
}

#[tokio::test]
async fn launcher_missing() {
    let def = stdio("ghost", "mcpctl-no-such-launcher", &[]);
    let err = mcp::discover(&def, &opts()).await.unwrap_err();
    assert!(
        matches!(
            err,
            ConnectError::LauncherMissing {
                phase: Phase::Spawn,
                ..
            }
        ),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains("launcher `mcpctl-no-such-launcher` was not found (spawn)"),
        "{err}"
    );
    let npx = stdio("n", "/nonexistent/npx", &[]);
    let err = mcp::discover(&npx, &opts()).await.unwrap_err();
    assert!(
        mcpctl::Diagnostic::hint(&err).unwrap().contains("Node.js"),
        "{:?}",
        mcpctl::Diagnostic::hint(&err)
    );
}

#[tokio::test]
async fn process_exits_at_once_with_code_and_stderr() {
    let err = fail(&["--exit-at-once"], &opts()).await;
    let text = err.to_string();
    assert!(
        matches!(
            err,
            ConnectError::ProcessExited {
                code: Some(3),
                phase: Phase::Initialize,
                ..
            }
        ),
        "{text}"
    );
    assert!(
        text.contains("exited during initialize (exit code 3)"),
        "{text}"
    );
    assert!(
        text.contains("configuration file not found"),
        "stderr tail missing: {text}"
    );
}

#[tokio::test]
async fn process_exits_mid_discovery() {
    let err = fail(&["--exit-mid-discovery"], &opts()).await;
    let text = err.to_string();
    assert!(
        matches!(
            err,
            ConnectError::ProcessExited {
                code: Some(4),
                phase: Phase::ToolsList,
                ..
            }
        ),
        "{text}"
    );
    assert!(
        text.contains("simulated crash while listing tools"),
        "{text}"
    );
}

#[tokio::test]
async fn hang_times_out_in_initialize_within_budget() {
    let mut o = opts();
    o.connect.budget = Some(Duration::from_millis(800));
    let start = Instant::now();
    let err = fail(&["--hang"], &o).await;
    assert!(
        matches!(
            err,
            ConnectError::Timeout {
                phase: Phase::Initialize,
                ..
            }
        ),
        "{err}"
    );
    assert!(
        err.to_string().contains("timed out during initialize"),
        "{err}"
    );
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "took {:?}",
        start.elapsed()
    );
}

#[tokio::test]
async fn slow_start_eats_the_budget() {
    let mut o = opts();
    o.connect.budget = Some(Duration::from_millis(400));
    let err = fail(&["--slow-start", "3000"], &o).await;
    assert!(
        matches!(
            err,
            ConnectError::Timeout {
                phase: Phase::Initialize,
                ..
            }
        ),
        "{err}"
    );
    // …and within a sufficient budget it works.
    let def = fixture_def("fx", &["--slow-start", "300"]);
    let report = mcp::discover(&def, &opts())
        .await
        .unwrap_or_else(|e| panic!("a 300 ms start within the default budget: {e}"));
    assert_eq!(report.tools.len(), 3);
}

#[tokio::test]
async fn garbage_on_stdout_is_named() {
    let err = fail(&["--garbage-stdout"], &opts()).await;
    assert!(matches!(err, ConnectError::NonJsonStdout { .. }), "{err}");
    assert!(
        err.to_string()
            .contains("Starting fixture server v1.0 on stdio..."),
        "{err}"
    );
}

#[tokio::test]
async fn json_rpc_error_is_named() {
    let err = fail(&["--tools-error"], &opts()).await;
    assert!(
        matches!(
            err,
            ConnectError::JsonRpc {
                code: -32603,
                phase: Phase::ToolsList,
                ..
            }
        ),
        "{err}"
    );
    assert!(
        err.to_string().contains("tool registry unavailable"),
        "{err}"
    );
}

#[tokio::test]
async fn protocol_mismatch_is_named() {
    let err = fail(&["--answer-version", "2024-01-01"], &opts()).await;
    assert!(
        matches!(err, ConnectError::ProtocolMismatch { .. }),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains("offered 2025-11-25, server answered 2024-01-01"),
        "{err}"
    );
}

/// Advertising tools and listing none is valid MCP: a warning (an error
/// with `--strict`), never a failed connection.
#[tokio::test]
async fn empty_tools_is_a_lint_not_a_failure() {
    let def = fixture_def("fx", &["--tools", "0"]);
    let report = mcp::discover(&def, &opts()).await.expect("discovery works");
    assert!(report.tools_capability);
    assert!(report.tools.is_empty());
    let codes: Vec<_> = report.lints.iter().map(|l| (l.code, l.severity)).collect();
    assert_eq!(codes, [("no-tools", mcp::Severity::Warning)]);
    let mut strict = opts();
    strict.strict = true;
    let report = mcp::discover(&def, &strict).await.expect("discovery works");
    assert!(report.has_lint_errors(), "{:?}", report.lints);
}

/// MCP makes tools optional: a server without the capability is not asked
/// for `tools/list` and is healthy.
#[tokio::test]
async fn no_tools_capability_is_healthy() {
    let def = fixture_def("fx", &["--no-tools-capability"]);
    let report = mcp::discover(&def, &opts()).await.expect("discovery works");
    assert!(!report.tools_capability);
    assert_eq!((report.tools.len(), report.tool_pages), (0, 0));
    assert!(report.lints.is_empty(), "{:?}", report.lints);
}

/// A server that prints a banner on stdout and then never answers is named
/// at once, not when the 30 s budget runs out.
#[tokio::test]
async fn garbage_then_silence_fails_at_once() {
    let mut o = opts();
    o.connect.budget = Some(Duration::from_secs(30));
    let start = Instant::now();
    let err = fail(&["--garbage-stdout", "--hang"], &o).await;
    let took = start.elapsed();
    assert!(
        matches!(
            err,
            ConnectError::NonJsonStdout {
                phase: Phase::Initialize,
                ..
            }
        ),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains("\"Starting fixture server v1.0 on stdio...\""),
        "{err}"
    );
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

#[tokio::test]
async fn stateless_only_server_via_fallback_and_via_protocol_setting() {
    let def = fixture_def("fx", &["--stateless-only"]);
    let report = mcp::discover(&def, &opts()).await.unwrap();
    assert_eq!(report.protocol_version, "2026-07-28");
    assert!(report.stateless);
    assert_eq!(report.tools.len(), 3);

    let mut pinned = fixture_def("fx", &["--stateless-only"]);
    pinned.protocol = Some("2026-07-28".into());
    let report = mcp::discover(&pinned, &opts()).await.unwrap();
    assert!(report.stateless && report.tools.len() == 3);
}

#[tokio::test]
async fn bad_schema_is_linted_and_strict_makes_it_an_error() {
    let def = fixture_def("fx", &["--bad-schema"]);
    let report = mcp::discover(&def, &opts()).await.unwrap();
    let lint = report
        .lints
        .iter()
        .find(|l| l.code == "schema-invalid")
        .expect("schema lint");
    assert_eq!(lint.tool.as_deref(), Some("pairs"));
    assert!(
        lint.message.contains("items (array form)") && lint.message.contains("draft-07"),
        "{}",
        lint.message
    );
    assert!(!report.has_lint_errors());
    let mut o = opts();
    o.strict = true;
    assert!(mcp::discover(&def, &o).await.unwrap().has_lint_errors());
}

#[tokio::test]
async fn env_and_args_are_expanded_and_secrets_not_inherited() {
    // Provided in memory, as `${VAR}` values typed at a prompt are: setting
    // the process environment would race with other tests spawning children.
    mcpctl::defs::vars::provide("MCPCTL_TEST_TOOLS", "4");
    mcpctl::defs::vars::provide("MCPCTL_TEST_SECRET", "hunter2");
    let def = fixture_def("fx", &["--tools", "${MCPCTL_TEST_TOOLS}"]);
    let report = mcp::discover(&def, &opts()).await.unwrap();
    assert_eq!(report.tools.len(), 4);

    let mut unset = fixture_def("fx", &["--tools", "${MCPCTL_TEST_UNSET_VAR}"]);
    unset.name = "needs-var".into();
    let err = mcp::discover(&unset, &opts()).await.unwrap_err();
    assert!(err.to_string().contains("MCPCTL_TEST_UNSET_VAR"), "{err}");

    // The child sees only the safe variables plus its own env (and what sh
    // sets itself, and the tag that finds its escapees), though this process
    // has others to leak.
    let allowed = |name: &str| {
        name == "GIVEN"
            || name == mcpctl::mcp::escapes::TAG_VAR
            || ["PWD", "OLDPWD", "SHLVL", "_"].contains(&name)
            || mcpctl::mcp::child::inherited_names()
                .iter()
                .any(|n| n == name)
    };
    let leakable: Vec<String> = std::env::vars()
        .map(|(k, _)| k)
        .filter(|k| !allowed(k))
        .collect();
    assert!(!leakable.is_empty(), "nothing in this environment to leak");
    // It sees the expanded value (7 characters, not the 24 of the
    // reference), but its stderr shows the reference: values are redacted.
    let mut sh = stdio(
        "sh",
        "sh",
        &[
            "-c",
            "env >&2; echo \"GIVEN has $(expr \"$GIVEN\" : '.*') characters\" >&2; exit 7",
        ],
    );
    if let mcpctl::defs::Launch::Stdio { env, .. } = &mut sh.launch {
        env.insert("GIVEN".into(), "${MCPCTL_TEST_SECRET}".into());
    }
    let err = mcp::discover(&sh, &opts()).await.unwrap_err();
    let ConnectError::ProcessExited { stderr_tail, .. } = &err else {
        panic!("{err}")
    };
    assert!(
        stderr_tail.iter().any(|l| l == "GIVEN has 7 characters"),
        "{stderr_tail:?}"
    );
    assert!(
        stderr_tail
            .iter()
            .any(|l| l == "GIVEN=${MCPCTL_TEST_SECRET}"),
        "{stderr_tail:?}"
    );
    assert!(
        !stderr_tail.iter().any(|l| l.contains("hunter2")),
        "{stderr_tail:?}"
    );
    let leaked: Vec<&String> = stderr_tail
        .iter()
        .filter(|l| l.split_once('=').is_some_and(|(k, _)| !allowed(k)))
        .collect();
    assert!(leaked.is_empty(), "leaked {leaked:?} of {leakable:?}");
}

#[tokio::test]
async fn connection_calls_tools_and_closes() {
    let def = fixture_def("fx", &[]);
    let (mut conn, deadline) = mcp::Connection::connect(&def, &Default::default())
        .await
        .unwrap();
    let pages = conn
        .list_tools(deadline, Duration::from_secs(5), 10)
        .await
        .unwrap();
    assert_eq!(pages.tools.len(), 3);
    let again = conn.refresh_tools(Duration::from_secs(5)).await.unwrap();
    assert_eq!(again.tools.len(), 3);
    let args = serde_json::json!({"message": "hi"})
        .as_object()
        .unwrap()
        .clone();
    let result = conn
        .call_tool("echo", Some(args), Duration::from_secs(5))
        .await
        .unwrap();
    let text = serde_json::to_value(&result).unwrap()["content"][0]["text"].clone();
    assert_eq!(text, "Echo: hi");
    let pid = conn.pid().unwrap();
    conn.close().await;
    assert!(
        !std::path::Path::new(&format!("/proc/{pid}")).exists(),
        "child {pid} still exists"
    );
}
