//! Issue 22, item 3: the real launchers keep working in the sandbox.
//!
//! `npx -y @modelcontextprotocol/server-everything@2026.8.31` and `uvx
//! mcp-server-time==2026.10.19` under `"sandbox": "none"` (and npx under
//! `"network"`) pass `check`, answer `call --direct`, and start and answer
//! under the supervisor: their package is fetched outside the sandbox
//! (from the real registries, as CI reaches them) and run inside it. A
//! package from a loopback npm registry shows the rest: the user's
//! `~/.npmrc` is honoured, its install script never runs, and the fetched
//! tree is read-only to the server. These fail, never skip, without npx,
//! uvx or the network.

mod support;

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use support::{PackageRegistry, World, fixture, require};

const EVERYTHING: &str = "@modelcontextprotocol/server-everything@2026.8.31";
const TIME: &str = "mcp-server-time==2026.10.19";

fn npx() -> PathBuf {
    require("npx", "install Node.js 18 or newer (it provides npx)")
}

fn uvx() -> PathBuf {
    require("uvx", "run `bash tests/run.sh`, which installs uv==0.13.9")
}

/// An entry launching server-everything through npx under `sandbox`; npm's
/// own cache is shared between tests (only mcpctl's package tree is
/// per world), so each test does not download it again.
fn everything(sandbox: &str) -> Value {
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("npm-cache");
    json!({
        "command": npx().to_str().unwrap(),
        "args": ["-y", EVERYTHING, "stdio"],
        "env": {"npm_config_cache": cache.to_str().unwrap()},
        "sandbox": sandbox,
        "connect_timeout": 240,
    })
}

/// `check --json NAME`: the names of the tools it listed (asserting it passed).
fn checked_tools(w: &World, name: &str) -> Vec<String> {
    let out = w.json(&["--json", "check", name], 0);
    let server = &out["servers"][0];
    assert_eq!(server["ok"], true, "{out:#}");
    server["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("no tools: {out:#}"))
        .iter()
        .map(|t| t["name"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn server_everything_through_npx_runs_under_none_and_network() {
    for sandbox in ["none", "network"] {
        let w = World::short("sbl");
        w.write(json!({"ev": everything(sandbox)}));
        let tools = checked_tools(&w, "ev");
        assert!(tools.contains(&"echo".to_string()), "{sandbox}: {tools:?}");
        let args = r#"{"message": "hello from the sandbox"}"#;
        let said = w.ok(&["call", "ev", "echo", "--direct", "--args", args], 0);
        assert!(said.contains("hello from the sandbox"), "{sandbox}: {said}");
        // The package was fetched into mcpctl's cache, not npm's cache dir.
        let tree = fetched_tree(&w, "npm-");
        assert!(
            tree.join("node_modules/@modelcontextprotocol/server-everything/package.json")
                .is_file(),
            "{sandbox}: {}",
            tree.display()
        );
    }
}

#[test]
fn server_everything_through_npx_starts_under_the_supervisor_in_none() {
    let w = World::short("sbs");
    w.write(json!({"ev": everything("none")}));
    w.ok(&["start", "ev"], 0);
    let args = r#"{"message": "supervised"}"#;
    let said = w.ok(&["call", "ev", "echo", "--args", args], 0);
    assert!(said.contains("supervised"), "{said}");
    w.ok(&["stop", "ev"], 0);
    w.assert_no_orphans();
}

#[test]
fn mcp_server_time_through_uvx_runs_under_none() {
    let w = World::short("sbt");
    w.write(json!({"time": {
        "command": uvx().to_str().unwrap(),
        "args": [TIME],
        "env": {"UV_SYSTEM_CERTS": "1"},
        "sandbox": "none",
        "connect_timeout": 240,
    }}));
    let mut tools = checked_tools(&w, "time");
    tools.sort();
    assert_eq!(tools, ["convert_time", "get_current_time"]);
    let args = r#"{"timezone": "Europe/Paris"}"#;
    let said = w.ok(
        &[
            "call",
            "time",
            "get_current_time",
            "--direct",
            "--args",
            args,
        ],
        0,
    );
    assert!(said.contains("Europe/Paris"), "{said}");
    w.ok(&["start", "time"], 0);
    let said = w.ok(&["call", "time", "get_current_time", "--args", args], 0);
    assert!(said.contains("Europe/Paris"), "{said}");
    w.ok(&["stop", "time"], 0);
    w.assert_no_orphans();
}

/// The one tree mcpctl fetched whose name starts with `prefix`.
fn fetched_tree(w: &World, prefix: &str) -> PathBuf {
    let root = w.path("cache/mcpctl/packages");
    let root = if root.is_dir() {
        root
    } else {
        w.path(".cache/mcpctl/packages")
    };
    let trees: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .collect();
    assert_eq!(trees.len(), 1, "{trees:?}");
    trees[0].clone()
}

/// A package `probe-pkg@1.0.0` on a loopback npm registry: its bin starts
/// the fixture's hostile `--probe` server; its `postinstall` script would
/// leave `installed` behind if it ever ran.
fn publish_probe(w: &World) -> (PackageRegistry, PathBuf) {
    let src = w.path("probe-src");
    std::fs::create_dir_all(&src).unwrap();
    let installed = w.path("installed");
    let manifest = json!({
        "name": "probe-pkg",
        "version": "1.0.0",
        "bin": {"probe-pkg": "bin.sh"},
        "scripts": {"postinstall": format!("touch '{}'", installed.display())},
    });
    std::fs::write(src.join("package.json"), manifest.to_string()).unwrap();
    let bin = format!("#!/bin/sh\nexec '{}' --probe\n", fixture().display());
    std::fs::write(src.join("bin.sh"), bin).unwrap();
    let docs = w.path("registry");
    let tarballs = docs.join("npm/probe-pkg/-");
    std::fs::create_dir_all(&tarballs).unwrap();
    let packed = std::process::Command::new("npm")
        .args(["pack", "--silent", "--pack-destination"])
        .arg(&tarballs)
        .current_dir(&src)
        .env("npm_config_cache", w.path("npm-pack-cache"))
        .output()
        .expect("run npm pack");
    assert!(packed.status.success(), "{packed:?}");
    let registry = PackageRegistry::serve(docs.clone());
    let tarball = format!("{}/probe-pkg/-/probe-pkg-1.0.0.tgz", registry.npm());
    let packument = json!({
        "name": "probe-pkg",
        "dist-tags": {"latest": "1.0.0"},
        "versions": {"1.0.0": {
            "name": "probe-pkg", "version": "1.0.0",
            "bin": {"probe-pkg": "bin.sh"},
            "scripts": {"postinstall": format!("touch '{}'", installed.display())},
            "dist": {"tarball": tarball},
        }},
    });
    std::fs::write(docs.join("npm/probe-pkg.json"), packument.to_string()).unwrap();
    (registry, installed)
}

/// The probe's answer: what it could do, by probe.
fn probe(w: &World, args: Value) -> serde_json::Map<String, Value> {
    let args = args.to_string();
    let out = w.json(
        &["--json", "call", "p", "probe", "--direct", "--args", &args],
        0,
    );
    out["structuredContent"]
        .as_object()
        .or_else(|| out["result"]["structuredContent"].as_object())
        .unwrap_or_else(|| panic!("no structuredContent: {out:#}"))
        .clone()
}

#[test]
fn the_fetched_tree_is_read_only_and_its_install_script_never_ran() {
    let w = World::short("sbp");
    let (registry, installed) = publish_probe(&w);
    // The user's own registry configuration, as npx would read it.
    std::fs::write(w.path(".npmrc"), format!("registry={}/\n", registry.npm())).unwrap();
    let examples = fixture().parent().unwrap().to_str().unwrap().to_string();
    w.write(json!({"p": {
        "command": npx().to_str().unwrap(),
        "args": ["-y", "probe-pkg@1.0.0"],
        "env": {"npm_config_cache": w.path("npm-cache").to_str().unwrap()},
        // No network; the fixture binary's directory readable.
        "sandbox": {"read": [examples]},
    }}));
    let tree = fetched_tree_after_check(&w);
    assert!(
        registry.requests().iter().any(|r| r.contains("probe-pkg")),
        "~/.npmrc's registry was not asked: {:?}",
        registry.requests()
    );
    assert!(!installed.exists(), "the postinstall script ran");
    let package = tree.join("node_modules/probe-pkg");
    let s = |p: &Path| p.to_string_lossy().into_owned();
    let seen = probe(
        &w,
        json!({
            "read": [s(&package.join("package.json"))],
            "write": [s(&package.join("bin.sh")), s(&tree.join("planted")), s(&w.path("npm-cache/planted"))],
        }),
    );
    let read = format!("read {}", s(&package.join("package.json")));
    assert_eq!(seen[&read], "ok", "the tree is not readable: {seen:#?}");
    let written: Vec<_> = seen
        .iter()
        .filter(|(k, v)| k.starts_with("write ") && *v == "ok")
        .collect();
    assert!(
        written.is_empty(),
        "wrote outside its sandbox: {written:#?}"
    );
    assert!(!tree.join("planted").exists());
}

/// `check` the probe entry (fetching it), then the tree it was fetched to.
fn fetched_tree_after_check(w: &World) -> PathBuf {
    let out = w.json(&["--json", "check", "p", "--timeout", "120"], 0);
    assert_eq!(out["servers"][0]["ok"], true, "{out:#}");
    fetched_tree(w, "npm-probe-pkg")
}

#[test]
fn a_package_that_cannot_be_fetched_is_a_clear_refusal() {
    let w = World::short("sbf");
    let (registry, _) = publish_probe(&w);
    std::fs::write(w.path(".npmrc"), format!("registry={}/\n", registry.npm())).unwrap();
    w.write(json!({"p": {
        "command": npx().to_str().unwrap(),
        "args": ["-y", "probe-pkg@9.9.9"],
        "env": {"npm_config_cache": w.path("npm-cache").to_str().unwrap()},
        "sandbox": "none",
    }}));
    let run = w.run(&["check", "p"]);
    run.expect_code(1);
    let said = format!("{}{}", run.stdout, run.stderr);
    assert!(
        said.contains("fetching npm package probe-pkg@9.9.9 outside its sandbox failed"),
        "{run}"
    );
    assert!(said.contains("npm error"), "no npm stderr tail: {run}");
    assert!(said.contains("hint:"), "{run}");
}

#[test]
fn launches_mcpctl_would_not_fetch_faithfully_are_refused_not_run() {
    let w = World::short("sbr");
    let started = w.path("started");
    for args in [
        json!(["-y", "-c", format!("touch {}", started.display())]),
        json!(["-y", "git+https://127.0.0.1:9/evil.git"]),
        json!(["-y", "--ignore-scripts=false", "probe-pkg@1.0.0"]),
    ] {
        w.write(
            json!({"p": {"command": npx().to_str().unwrap(), "args": args, "sandbox": "none"}}),
        );
        let run = w.run(&["check", "p"]);
        run.expect_code(1);
        let said = format!("{}{}", run.stdout, run.stderr);
        assert!(
            said.contains("not started") && said.contains("hint:"),
            "{args}: {run}"
        );
        assert!(!started.exists(), "{args}: ran");
    }
}

#[test]
fn a_fetch_that_hangs_ends_at_the_budget_and_leaves_no_npm_behind() {
    // A registry that accepts connections and never answers.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/", silent.local_addr().unwrap());
    let w = World::short("sbh");
    std::fs::write(w.path(".npmrc"), format!("registry={url}\n")).unwrap();
    w.write(json!({"p": {
        "command": npx().to_str().unwrap(),
        "args": ["-y", "probe-pkg@1.0.0"],
        "env": {"npm_config_cache": w.path("npm-cache").to_str().unwrap()},
        "sandbox": "none",
        "connect_timeout": 4,
    }}));
    let started = std::time::Instant::now();
    let run = w.run(&["check", "p"]);
    run.expect_code(1);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(30),
        "{run}"
    );
    let said = format!("{}{}", run.stdout, run.stderr);
    assert!(
        said.contains("did not finish within the launch's budget"),
        "{run}"
    );
    let home = w.dir.path().to_string_lossy().into_owned();
    let left = support::live(&home);
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn node_scripts_and_a_venv_python_run_under_none() {
    let w = World::short("sbn");
    let everything = require(
        "mcp-server-everything",
        "run `bash tests/run.sh`, which installs server-everything into .peers/npm",
    )
    .canonicalize()
    .unwrap();
    let script = w.path("proj/server.py");
    std::fs::create_dir_all(script.parent().unwrap()).unwrap();
    std::fs::write(
        &script,
        "from mcp.server.mcpserver import MCPServer\napp = MCPServer('py')\n\n@app.tool()\ndef hello(name: str) -> str:\n    return f'hi {name}'\n\napp.run()\n",
    )
    .unwrap();
    w.write(json!({
        "js": {"command": "node", "args": [everything.to_str().unwrap(), "stdio"], "sandbox": "none"},
        "py": {"command": support::python().to_str().unwrap(), "args": [script.to_str().unwrap()], "sandbox": "none"},
    }));
    assert!(checked_tools(&w, "js").contains(&"echo".to_string()));
    let said = w.ok(
        &[
            "call",
            "py",
            "hello",
            "--direct",
            "--args",
            r#"{"name": "sandbox"}"#,
        ],
        0,
    );
    assert!(said.contains("hi sandbox"), "{said}");
}
