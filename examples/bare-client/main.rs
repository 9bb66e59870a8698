//! The baseline for benchmark (b): the least a Rust client can do to check a
//! stdio server — spawn it, `initialize`, one `tools/list`, exit. No budgets,
//! no process-group handling, no linting.
//!
//! Usage: bare-client COMMAND [ARGS…]

use std::process::Stdio;

use rmcp::ServiceExt;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut args = std::env::args().skip(1);
    let command = args.next().expect("usage: bare-client COMMAND [ARGS…]");
    let mut child = tokio::process::Command::new(command)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn server");
    let stdout = child.stdout.take().expect("stdout");
    let stdin = child.stdin.take().expect("stdin");
    let client = ().serve((stdout, stdin)).await.expect("initialize");
    let tools = client.peer().list_tools(None).await.expect("tools/list");
    println!("{} tools", tools.tools.len());
    let _ = child.kill().await;
}
