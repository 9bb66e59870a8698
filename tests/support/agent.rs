//! The official MCP Python SDK as the agent in a world: a client that
//! follows a plan against `mcpctl serve` (tests/peers/serve_client.py).

use std::path::{Path, PathBuf};
use std::process::Command;

use super::peers::python;

/// The Python SDK agent script (tests/peers/serve_client.py).
pub fn client_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/serve_client.py")
}

impl super::world::World {
    /// Run the Python SDK agent with `plan` against `target` (an argv to
    /// launch over stdio, or `["http", URL, TOKEN]`) in this world's home
    /// and state directory; one JSON value per step.
    pub fn agent(&self, plan: serde_json::Value, target: &[String]) -> Vec<serde_json::Value> {
        let mut cmd = Command::new(python());
        cmd.arg(client_script())
            .arg(plan.to_string())
            .arg("--")
            .args(target)
            .env("MCPCTL_STATE_DIR", self.state())
            .env("HOME", self.dir.path())
            .env_remove("MCPCTL_FILE")
            .stdin(std::process::Stdio::null());
        let out = cmd.output().expect("the Python SDK agent runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "agent failed\nstdout: {stdout}\nstderr: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|_| panic!("not JSON: {l}")))
            .collect()
    }
}
