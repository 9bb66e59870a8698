//! One test's world: a scratch home with its own config, cache and state
//! directories, its definition files, and a marker for the fixture
//! servers it writes. Tests never see the developer's real files, and
//! what a world started ends with it (see [`super::supervisor`]).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use serde_json::{Value, json};

use super::peers::fixture;

/// The name the CLI tests have always used for a [`World`] made with
/// [`World::new`].
pub type Sandbox = World;

static NEXT: AtomicU32 = AtomicU32::new(0);

/// A scratch home and state directory, the definitions file mcpctl is
/// pointed at, and the environment every `mcpctl` of the test runs with.
pub struct World {
    /// The scratch home; removed on drop.
    pub dir: tempfile::TempDir,
    /// The definitions file of [`World::write`] (`servers.json` in `dir`
    /// unless [`World::file_named`] changed it); passed as `--file` to
    /// every command of a world made with [`World::short`].
    pub file: PathBuf,
    /// A tag unique to this world: fixture servers that [`World::write`]
    /// defines carry it as `--marker`, so one left behind is found.
    pub marker: String,
    /// The file the fixture's `--drift FILE` reads (see [`World::set_drift`]).
    pub drift: PathBuf,
    pub(super) state: PathBuf,
    pub(super) pass_file: bool,
    mark_fixtures: bool,
    /// Variables set (`Some`) or removed (`None`) on every command, in order.
    pub(super) env: Vec<(String, Option<String>)>,
}

impl World {
    /// A scratch home for CLI tests: XDG config and cache directories
    /// inside it, state in `state/`, no `--file` (tests name files).
    pub fn new() -> World {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut world = World::in_dir(dir, "state", false);
        world.set("XDG_CONFIG_HOME", world.dir.path().join("config"));
        world.set("XDG_CACHE_HOME", world.dir.path().join("cache"));
        world
    }

    /// A world in a short `/tmp/PREFIX…` directory (the supervisor's socket
    /// path must stay short) whose commands all name its definitions file,
    /// with state in `st/` and the supervisor free to spawn.
    pub fn short(prefix: &str) -> World {
        let dir = tempfile::Builder::new()
            .prefix(prefix)
            .tempdir_in("/tmp")
            .expect("tempdir in /tmp");
        World::in_dir(dir, "st", true)
    }

    fn in_dir(dir: tempfile::TempDir, state: &str, pass_file: bool) -> World {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        World {
            file: dir.path().join("servers.json"),
            drift: dir.path().join("drift"),
            state: dir.path().join(state),
            marker: format!("mk{}x{n}", std::process::id()),
            dir,
            pass_file,
            mark_fixtures: false,
            env: Vec::new(),
        }
    }

    /// Use `name` in the world's directory as the definitions file.
    pub fn file_named(mut self, name: &str) -> World {
        self.file = self.dir.path().join(name);
        self
    }

    /// Keep the state directory at `rel` inside the world's directory.
    pub fn state_at(mut self, rel: &str) -> World {
        self.state = self.dir.path().join(rel);
        self
    }

    /// Give every fixture server [`World::write`] defines `--marker`.
    pub fn marking_fixtures(mut self) -> World {
        self.mark_fixtures = true;
        self
    }

    /// Set `name` for every later command of this world.
    pub fn set(&mut self, name: &str, value: impl AsRef<std::ffi::OsStr>) {
        let value = value.as_ref().to_string_lossy().into_owned();
        self.env.push((name.to_string(), Some(value)));
    }

    /// Remove `name` from every later command's environment.
    pub fn unset(&mut self, name: &str) {
        self.env.push((name.to_string(), None));
    }

    /// A path inside the scratch home.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// The state directory (`MCPCTL_STATE_DIR`) of every command.
    pub fn state(&self) -> PathBuf {
        self.state.clone()
    }

    /// Create the state directory shared, as a `/tmp` is (mode 1777), so
    /// mcpctl works in its private `mcpctl-<uid>` inside; returns it.
    pub fn shared_state(&self) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        std::fs::create_dir(&self.state).unwrap();
        std::fs::set_permissions(&self.state, std::fs::Permissions::from_mode(0o1777)).unwrap();
        self.state.clone()
    }

    /// Hand the scratch home and all it holds to `uid` (root only), for a
    /// test that runs mcpctl as another user.
    pub fn give_to(&self, uid: u32) {
        fn chown_all(path: &std::path::Path, uid: u32) {
            std::os::unix::fs::lchown(path, Some(uid), Some(uid)).unwrap();
            if path.is_dir() && !path.is_symlink() {
                for entry in std::fs::read_dir(path).unwrap().flatten() {
                    chown_all(&entry.path(), uid);
                }
            }
        }
        chown_all(self.dir.path(), uid);
    }

    /// Write `servers` (names to definition objects) as the definitions
    /// file's `mcpServers`; a `"{fixture}"` command is the fixture server.
    pub fn write(&self, servers: Value) {
        let mut servers = servers;
        for (_, def) in servers.as_object_mut().expect("servers is an object") {
            if def["command"] != "{fixture}" {
                continue;
            }
            def["command"] = json!(fixture().to_str().unwrap());
            if self.mark_fixtures {
                let args = def["args"].as_array_mut().expect("fixture args");
                args.push(json!("--marker"));
                args.push(json!(self.marker));
            }
        }
        let doc = json!({ "mcpServers": servers });
        std::fs::write(&self.file, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    }

    /// The definitions file's text.
    pub fn text(&self) -> String {
        std::fs::read_to_string(&self.file).unwrap()
    }

    /// The lockfile beside the definitions file.
    pub fn lockfile(&self) -> PathBuf {
        self.dir.path().join("servers.lock")
    }

    /// The lockfile's text.
    pub fn lock_text(&self) -> String {
        std::fs::read_to_string(self.lockfile()).unwrap()
    }

    /// What the fixture's `--drift` file says its next listing changes.
    pub fn set_drift(&self, text: &str) {
        std::fs::write(&self.drift, text).unwrap();
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

    /// [`World::stub_launchers`] that also append their command line to
    /// the returned file when run: proof that something was, or was not,
    /// launched.
    pub fn recording_launchers(&self, tools: &[&str]) -> (String, PathBuf) {
        use std::os::unix::fs::PermissionsExt;
        let path = self.stub_launchers(tools);
        let ran = self.path("launched");
        for tool in tools {
            let stub = self.path("bin").join(tool);
            let script = format!("#!/bin/sh\necho \"$0 $*\" >> '{}'\n", ran.display());
            std::fs::write(&stub, script).unwrap();
            std::fs::set_permissions(&stub, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        (path, ran)
    }
}

impl Default for World {
    fn default() -> World {
        World::new()
    }
}

/// Every file under `dir`, recursively (the directory must exist): where
/// tests look for what mcpctl wrote, and for what it must not have written.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.push(path);
        }
    }
    out
}
