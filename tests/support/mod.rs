//! Shared helpers for the CLI tests: run the real `mcpctl` binary in an
//! isolated home, and capture its exit code, stdout and stderr together.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

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

impl std::fmt::Display for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "--- exit {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// A scratch home directory with its own config dir, so tests never see the
/// developer's real definition files.
pub struct Sandbox {
    pub dir: tempfile::TempDir,
}

/// A test that fails before its `supervisor stop` would leave the
/// supervisor it spawned running after the sandbox is gone (and a later
/// test might find it). Dropping the sandbox ends every supervisor whose
/// definitions live inside it: SIGTERM (it stops its servers), then KILL.
impl Drop for Sandbox {
    fn drop(&mut self) {
        let dir = self.dir.path().to_string_lossy().into_owned();
        let supervisors = || -> Vec<nix::unistd::Pid> {
            let Ok(entries) = std::fs::read_dir("/proc") else {
                return Vec::new();
            };
            entries
                .flatten()
                .filter_map(|entry| {
                    let pid = entry.file_name().to_string_lossy().parse::<i32>().ok()?;
                    let cmdline = std::fs::read(entry.path().join("cmdline")).ok()?;
                    let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
                    (cmdline.contains("supervisor run") && cmdline.contains(&dir))
                        .then(|| nix::unistd::Pid::from_raw(pid))
                })
                .collect()
        };
        let mut left = supervisors();
        for signal in [nix::sys::signal::SIGTERM, nix::sys::signal::SIGKILL] {
            for pid in &left {
                let _ = nix::sys::signal::kill(*pid, signal);
            }
            let t0 = std::time::Instant::now();
            while !left.is_empty() && t0.elapsed() < std::time::Duration::from_secs(5) {
                std::thread::sleep(std::time::Duration::from_millis(20));
                left = supervisors();
            }
        }
    }
}

impl Sandbox {
    pub fn new() -> Sandbox {
        Sandbox {
            dir: tempfile::tempdir().expect("tempdir"),
        }
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Put do-nothing executables named `tools` in a `bin/` directory and
    /// return a PATH with it first, so launcher and pin rules can be tested
    /// without installing Node.js, uv or Docker.
    pub fn stub_launchers(&self, tools: &[&str]) -> String {
        use std::os::unix::fs::PermissionsExt;
        let bin = self.path("bin");
        std::fs::create_dir_all(&bin).unwrap();
        for tool in tools {
            let path = bin.join(tool);
            std::fs::write(&path, "#!/bin/sh\n").unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        format!("{}:/usr/bin:/bin", bin.display())
    }

    /// A command for the mcpctl binary with an isolated environment.
    pub fn command(&self) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_mcpctl"));
        cmd.env_remove("MCPCTL_FILE")
            .env_remove("MCPCTL_REQUIRE_PIN")
            .env("HOME", self.dir.path())
            .env("XDG_CONFIG_HOME", self.dir.path().join("config"))
            .env("XDG_CACHE_HOME", self.dir.path().join("cache"))
            .env("MCPCTL_STATE_DIR", self.dir.path().join("state"))
            .current_dir(self.dir.path())
            .stdin(Stdio::null());
        cmd
    }

    /// Run mcpctl with `args` and wait for it.
    pub fn run(&self, args: &[&str]) -> Run {
        self.run_with(args, |_| {})
    }

    /// `add --no-check --name NAME --command sh` into `file`, which must
    /// succeed: the shortest way to an entry written by mcpctl itself.
    #[track_caller]
    pub fn add_sh(&self, file: &str, name: &str) {
        self.run(&[
            "--file",
            file,
            "add",
            "--no-check",
            "--name",
            name,
            "--command",
            "sh",
        ])
        .expect_code(0);
    }

    /// Run mcpctl with `args` after `tweak` adjusts the command.
    pub fn run_with(&self, args: &[&str], tweak: impl FnOnce(&mut Command)) -> Run {
        let mut cmd = self.command();
        cmd.args(args);
        tweak(&mut cmd);
        to_run(cmd.output().expect("mcpctl runs"))
    }
}

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
