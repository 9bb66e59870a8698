//! Running the real `mcpctl` binary and capturing what it said: exit code,
//! stdout and stderr together, so a failed assertion shows the whole
//! transcript.

use std::path::Path;
use std::process::Output;

/// The result of one `mcpctl` run.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Panic with the whole transcript unless the exit code is `code`.
    #[track_caller]
    pub fn expect_code(&self, code: i32) -> &Self {
        assert_eq!(self.code, code, "unexpected exit code\n{self}");
        self
    }

    /// Panic unless stderr contains `needle`.
    #[track_caller]
    pub fn stderr_has(&self, needle: &str) -> &Self {
        assert!(
            self.stderr.contains(needle),
            "stderr lacks {needle:?}\n{self}"
        );
        self
    }

    /// Panic unless stdout contains `needle`.
    #[track_caller]
    pub fn stdout_has(&self, needle: &str) -> &Self {
        assert!(
            self.stdout.contains(needle),
            "stdout lacks {needle:?}\n{self}"
        );
        self
    }

    /// Parse stdout as JSON.
    #[track_caller]
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e})\n{self}"))
    }
}

/// A tool call's `structuredContent`, as `call --json` prints it (at the
/// top, or under `result`); panics naming the output when there is none.
pub fn structured_content(out: &serde_json::Value) -> serde_json::Map<String, serde_json::Value> {
    out["structuredContent"]
        .as_object()
        .or_else(|| out["result"]["structuredContent"].as_object())
        .unwrap_or_else(|| panic!("no structuredContent in the answer: {out}"))
        .clone()
}

impl std::fmt::Display for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "--- exit {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// A finished process's output as a [`Run`].
pub fn to_run(output: Output) -> Run {
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Bytes of a file, for before/after comparisons.
pub fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}
