//! Running the real `mcpctl` binary inside a [`World`]: the command
//! builder with the world's isolated environment, and the ways tests
//! run it (a [`Run`] transcript, the raw output, asserted exit codes,
//! `--json`, `serve --http` in the background).

use std::process::{Child, Command, Output, Stdio};

use serde_json::Value;

use super::peers::free_port;
use super::run::{Run, to_run};
use super::wait::{wait_until, within};
use super::world::World;

impl World {
    /// A command for the mcpctl binary with the world's environment: its
    /// home and state directory, no inherited definitions file or pin
    /// requirement, the world's directory as working directory, and
    /// (for [`World::short`] worlds) `--file` naming its definitions.
    pub fn command(&self) -> Command {
        let mut cmd = self.wrapped(env!("CARGO_BIN_EXE_mcpctl"));
        if self.pass_file {
            cmd.arg("--file").arg(&self.file);
        }
        cmd
    }

    /// A command for `program` (`script`, `time`: what runs mcpctl for a
    /// test) with the world's environment and working directory; the
    /// caller names mcpctl in its arguments.
    pub fn wrapped(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut cmd = Command::new(program);
        cmd.env_remove("MCPCTL_FILE")
            .env_remove("MCPCTL_REQUIRE_PIN")
            .env_remove("MCPCTL_NO_SPAWN")
            .env("HOME", self.dir.path())
            .env("MCPCTL_STATE_DIR", &self.state)
            .current_dir(self.dir.path())
            .stdin(Stdio::null());
        for (name, value) in &self.env {
            match value {
                Some(value) => cmd.env(name, value),
                None => cmd.env_remove(name),
            };
        }
        cmd
    }

    /// Run mcpctl with `args` and wait for it.
    pub fn run(&self, args: &[&str]) -> Run {
        self.run_with(args, |_| {})
    }

    /// Run mcpctl with `args` after `tweak` adjusts the command.
    pub fn run_with(&self, args: &[&str], tweak: impl FnOnce(&mut Command)) -> Run {
        let mut cmd = self.command();
        cmd.args(args);
        tweak(&mut cmd);
        to_run(cmd.output().expect("mcpctl runs"))
    }

    /// Run mcpctl with `args`; its raw output.
    pub fn output(&self, args: &[&str]) -> Output {
        self.command().args(args).output().expect("mcpctl runs")
    }

    /// Run, assert the exit code, return stdout.
    #[track_caller]
    pub fn ok(&self, args: &[&str], code: i32) -> String {
        self.ok_with_stderr(args, code).0
    }

    /// Run, assert the exit code, return stdout and stderr.
    #[track_caller]
    pub fn ok_with_stderr(&self, args: &[&str], code: i32) -> (String, String) {
        let out = self.output(args);
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        );
        assert_eq!(
            out.status.code(),
            Some(code),
            "mcpctl {args:?}\nstdout: {stdout}\nstderr: {stderr}"
        );
        (stdout, stderr)
    }

    /// Run with `--json` appended, assert the exit code, parse stdout.
    #[track_caller]
    pub fn json(&self, args: &[&str], code: i32) -> Value {
        let mut all = args.to_vec();
        all.push("--json");
        let stdout = self.ok(&all, code);
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
    }

    /// `add --no-check --name NAME --command sh` into `file`, which must
    /// succeed: the shortest way to an entry written by mcpctl itself.
    #[track_caller]
    pub fn add_sh(&self, file: &str, name: &str) {
        let args = ["--file", file, "add", "--no-check", "--name", name];
        self.run(&[&args[..], &["--command", "sh"]].concat())
            .expect_code(0);
    }

    /// The argv that runs mcpctl on this world's definitions (for an
    /// agent's plan and for an SDK's stdio launch).
    pub fn argv(&self, args: &[&str]) -> Vec<String> {
        let mut argv = vec![
            env!("CARGO_BIN_EXE_mcpctl").to_string(),
            "--file".into(),
            self.file.to_str().unwrap().into(),
        ];
        argv.extend(args.iter().map(|a| a.to_string()));
        argv
    }

    /// The argv of `serve --stdio` plus `extra`.
    pub fn stdio(&self, extra: &[&str]) -> Vec<String> {
        self.argv(&[&["serve", "--stdio"][..], extra].concat())
    }

    /// The bearer token `serve --http` wants.
    pub fn token(&self) -> String {
        self.ok(&["serve", "--print-token"], 0).trim().to_string()
    }

    /// `serve --http` on a free port plus `extra`, until the guard drops;
    /// the guard and the endpoint's URL.
    pub fn http(&self, extra: &[&str]) -> (Served, String) {
        let port = free_port();
        let addr = format!("127.0.0.1:{port}");
        let args = [&["serve", "--http", addr.as_str()][..], extra].concat();
        let child = self
            .command()
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let up = wait_until(within(30), || {
            std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
        });
        assert!(up, "serve --http did not listen on {addr}");
        (Served(child), format!("http://{addr}/mcp"))
    }
}

/// A running `mcpctl serve --http`, killed and reaped on drop.
pub struct Served(pub Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
