//! 100 checks in a row of a fixture that spawns a SIGTERM-ignoring
//! grandchild leave no process (and no zombie) behind.

mod support;

use std::time::Duration;

use mcpctl::mcp::{self, ConnectError, DiscoverOptions, Phase};
use support::{fixture_def, my_zombies, processes_with, wait_until, within};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hundred_checks_leave_no_process_behind() {
    let marker = format!("mcpctl-orphan-test-{}", std::process::id());
    let def = fixture_def("gc", &["--grandchild", "--marker", &marker]);
    let mut opts = DiscoverOptions::default();
    // The grandchild ignores TERM, so every check waits the full grace.
    opts.connect.kill_grace = Duration::from_millis(100);
    for i in 0..100 {
        let report = mcp::discover(&def, &opts)
            .await
            .unwrap_or_else(|e| panic!("check {i}: {e}"));
        assert_eq!(report.tools.len(), 3);
    }
    // Failure paths must clean up too: a crash and a timeout, with grandchildren.
    let crash = fixture_def(
        "gc",
        &["--grandchild", "--marker", &marker, "--exit-mid-discovery"],
    );
    let err = mcp::discover(&crash, &opts).await.unwrap_err();
    assert!(
        matches!(
            err,
            ConnectError::ProcessExited {
                code: Some(4),
                phase: Phase::ToolsList,
                ..
            }
        ),
        "{err}"
    );
    let hang = fixture_def("gc", &["--grandchild", "--marker", &marker, "--hang"]);
    let mut short = opts.clone();
    short.connect.budget = Some(Duration::from_millis(500));
    let err = mcp::discover(&hang, &short).await.unwrap_err();
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

    let left = processes_with(&marker);
    assert!(left.is_empty(), "processes left behind: {left:?}");
    let zombies = my_zombies();
    assert!(zombies.is_empty(), "zombies left behind: {zombies:?}");
}

#[test]
fn the_process_counter_can_see_a_grandchild() {
    // Guard against a vacuous pass: a grandchild we leak on purpose is found.
    let marker = format!("mcpctl-counter-test-{}", std::process::id());
    let mut child = std::process::Command::new(support::fixture())
        .args(["--grandchild-sleeper", "--marker", &marker])
        .spawn()
        .unwrap();
    let seen = wait_until(within(10), || processes_with(&marker).len() == 1);
    let found = processes_with(&marker);
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(seen, "{found:?}");
    assert!(processes_with(&marker).is_empty());
}
