//! The peers tests talk to: the rmcp fixture server (stdio or HTTP),
//! definitions of it and of other servers, loopback ports and background
//! servers, and the real third-party servers and clients tests/run.sh
//! installs into `.peers/` (found here, never skipped when missing).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use super::wait::{wait_until, within};

use indexmap::IndexMap;
use mcpctl::defs::{Launch, RestartPolicy, ServerDef, Transport};

/// The fixture server binary, built once per test process.
///
/// `cargo test --test X` does not build examples, so build it here; when it
/// is up to date this is a no-op.
pub fn fixture() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut cmd = Command::new(cargo);
        // The test's own CARGO_PKG_*/CARGO_MANIFEST_DIR would look like a
        // changed environment to build scripts (ring tracks them) and force
        // a rebuild of half the dependency tree on every run.
        for (key, _) in std::env::vars_os() {
            let key = key.to_string_lossy().to_string();
            let keep = ["CARGO_HOME", "CARGO_TARGET_DIR"].contains(&key.as_str())
                || key.starts_with("CARGO_BUILD_")
                || key.starts_with("CARGO_TERM_");
            if (key.starts_with("CARGO_") && !keep) || key == "OUT_DIR" {
                cmd.env_remove(&key);
            }
        }
        // Build it in the profile the tests were built in (target/<profile>/deps/<test>).
        let exe = std::env::current_exe().expect("test exe");
        let profile_dir = exe.parent().and_then(Path::parent).expect("target dir");
        cmd.args(["build", "--quiet", "--example", "fixture-server"]);
        if profile_dir.file_name().is_some_and(|n| n == "release") {
            cmd.arg("--release");
        }
        let status = cmd
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("run cargo to build the fixture server");
        assert!(status.success(), "building the fixture server failed");
        let exe = std::env::current_exe().expect("test exe");
        // target/debug/deps/<test> → target/debug/examples/fixture-server
        let dir = exe.parent().and_then(Path::parent).expect("target dir");
        let path = dir.join("examples").join("fixture-server");
        assert!(
            path.exists(),
            "fixture server not found at {}",
            path.display()
        );
        path
    })
}

/// A stdio definition.
pub fn stdio(name: &str, command: &str, args: &[&str]) -> ServerDef {
    ServerDef {
        name: name.to_string(),
        transport: Transport::Stdio,
        transport_inferred: false,
        launch: Launch::Stdio {
            command: command.to_string(),
            args: args.iter().map(|s| s.to_string()).collect(),
            env: IndexMap::new(),
            cwd: None,
        },
        label: None,
        enabled: true,
        autostart: false,
        connect_timeout: Some(Duration::from_secs(20)),
        protocol: None,
        restart: RestartPolicy::No,
        auth: None,
        env_file: None,
        grants: Default::default(),
        sandbox: None,
        source: PathBuf::from("/tmp/servers.json"),
    }
}

/// A stdio definition of the fixture with `args`.
pub fn fixture_def(name: &str, args: &[&str]) -> ServerDef {
    stdio(name, fixture().to_str().unwrap(), args)
}

/// A remote definition.
pub fn remote(name: &str, transport: Transport, url: &str, headers: &[(&str, &str)]) -> ServerDef {
    let mut def = stdio(name, "unused", &[]);
    def.transport = transport;
    def.launch = Launch::Remote {
        transport,
        url: url.to_string(),
        headers: headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        process: None,
    };
    def
}

/// A free loopback port.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A background server process (HTTP fixtures, server-everything) in its own
/// process group, killed with its whole group on drop.
pub struct Background {
    child: std::process::Child,
}

impl Background {
    /// Start `cmd` and wait until `port` accepts connections.
    pub fn start(mut cmd: Command, port: u16) -> Background {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null());
        let child = cmd.spawn().expect("start background server");
        let mut bg = Background { child };
        let mut exited = None;
        let up = wait_until(within(30), || {
            exited = bg.child.try_wait().ok().flatten();
            exited.is_some() || std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
        });
        if let Some(status) = exited {
            panic!("server for port {port} exited before listening: {status}");
        }
        assert!(up, "server on port {port} did not come up");
        bg
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        let pgid = nix::unistd::Pid::from_raw(self.child.id() as i32);
        let _ = nix::sys::signal::killpg(pgid, nix::sys::signal::Signal::SIGKILL);
        let _ = self.child.wait();
    }
}

/// The fixture in `--http` mode on a fresh port; returns the guard and base URL.
pub fn http_fixture(args: &[&str]) -> (Background, String) {
    let port = free_port();
    let mut cmd = Command::new(fixture());
    cmd.args(["--http", &port.to_string()]).args(args);
    (
        Background::start(cmd, port),
        format!("http://127.0.0.1:{port}"),
    )
}

/// Where `tests/run.sh` installs the pinned real servers (uv's wrappers in
/// `.peers/bin`, npm packages' bins in `.peers/npm/node_modules/.bin`),
/// searched before PATH, so a plain `cargo test` after one `tests/run.sh`
/// uses them too.
pub fn peer_dirs() -> Vec<PathBuf> {
    let peers = Path::new(env!("CARGO_MANIFEST_DIR")).join(".peers");
    vec![peers.join("bin"), peers.join("npm/node_modules/.bin")]
}

/// The Python with the official MCP SDK: `MCPCTL_TEST_PYTHON` when set,
/// else this checkout's `.peers/venv` (which tests/run.sh creates); tests
/// fail (never skip) without either, naming tests/run.sh.
pub fn python() -> PathBuf {
    python_from(
        std::env::var_os("MCPCTL_TEST_PYTHON").filter(|p| !p.is_empty()),
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(".peers/venv/bin/python"),
    )
    .unwrap_or_else(|why| panic!("{why}"))
}

/// [`python`] from the variable's value and the venv's interpreter.
pub fn python_from(configured: Option<std::ffi::OsString>, venv: &Path) -> Result<PathBuf, String> {
    match configured {
        Some(p) => Ok(PathBuf::from(p)),
        None if venv.exists() => Ok(venv.to_path_buf()),
        None => Err(format!(
            "no Python with the MCP SDK: MCPCTL_TEST_PYTHON is not set and {} does not exist; run `bash tests/run.sh` (or `bash tests/run.sh --peers-only`), which installs mcp==2.3.0 into .peers/venv",
            venv.display()
        )),
    }
}

/// A command that must be installed on this machine, from `.peers/` first,
/// then PATH; tests fail (never skip) when it is missing, naming how to
/// install it.
pub fn require(command: &str, how: &str) -> PathBuf {
    let search = std::env::join_paths(peer_dirs().into_iter().chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .expect("PATH entries join");
    let cwd = std::env::current_dir().expect("current directory");
    which::which_in(command, Some(search), cwd).unwrap_or_else(|_| {
        panic!("`{command}` is required for this test: {how} (`bash tests/run.sh` installs the real servers into .peers/)")
    })
}

/// This checkout: where the fixtures, peers and documents live.
pub fn checkout() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The stand-in browser (tests/support/browser.sh) for OAuth sign-ins:
/// it follows the authorization URL with curl as a person's browser would.
pub fn browser() -> PathBuf {
    checkout().join("tests/support/browser.sh")
}
