//! `mcpctl pin`, `add --pin` and the registry supply-chain checks of
//! `add NAME`, through the real binary, against loopback npm, PyPI (JSON
//! API and PEP 691 simple index) and MCP registries serving documents
//! saved from the real ones (`tests/fixtures/packages/`).

mod support;

use std::path::Path;

use base64::Engine;
use serde_json::{Value, json};
use support::{
    OciRegistry, PackageRegistry, TestRegistry, World, matches_schema, package_fixtures,
};

const EVERYTHING: &str = "@modelcontextprotocol/server-everything";
const EVERYTHING_INTEGRITY: &str = "sha512-5U3OZh8Xq0Li4nA26l6uNvV9/1suMDuWSn+NjLZIhzinhMY6N3A4DCrxVecBGPf2PsNFKTEv5krxGPRwzxc7jQ==";

/// A world for the pin tests: definitions in `file_name`, no supervisor,
/// a short registry timeout, and no registry or index from the
/// developer's environment.
fn pin_world(file_name: &str) -> World {
    let mut w = World::short("pin").file_named(file_name);
    w.set("XDG_CONFIG_HOME", w.path("config"));
    w.set("XDG_CACHE_HOME", w.path("cache"));
    w.set("MCPCTL_CACHE_DIR", w.path("cache"));
    w.set("MCPCTL_NO_SPAWN", "1");
    w.set("MCPCTL_REGISTRY_TIMEOUT", "5");
    for name in [
        "MCPCTL_NPM_REGISTRY",
        "MCPCTL_PYPI_URL",
        "npm_config_registry",
        "NPM_CONFIG_REGISTRY",
        "UV_DEFAULT_INDEX",
        "UV_INDEX_URL",
        "PIP_INDEX_URL",
        "CI",
    ] {
        w.unset(name);
    }
    w
}

/// [`pin_world`] with npm and PyPI (JSON API) both at `registry`.
fn pin_world_with(file_name: &str, registry: &PackageRegistry) -> World {
    let mut w = pin_world(file_name);
    w.set("MCPCTL_NPM_REGISTRY", registry.npm());
    w.set("MCPCTL_PYPI_URL", &registry.url);
    w
}

/// A copy of the saved documents that a test may change.
fn fixtures_copy() -> tempfile::TempDir {
    let copy = tempfile::tempdir().unwrap();
    copy_dir(&package_fixtures(), copy.path());
    copy
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn pin_rewrites_npx_and_uvx_in_a_jsonc_file_keeping_comments() {
    let registry = PackageRegistry::start();
    let w = pin_world_with("servers.json", &registry);
    let before = format!(
        r#"{{
  // my servers
  "mcpServers": {{
    "everything": {{
      "command": "npx",
      "args": ["-y", "{EVERYTHING}", "stdio"], // the reference server
      "x-team": "platform",
    }},
    /* time */
    "time": {{"command": "uvx", "args": ["mcp-server-time@latest"]}}
  }}
}}
"#
    );
    std::fs::write(&w.file, &before).unwrap();
    let (stdout, _) = w.ok_with_stderr(&["pin", "--all", "--dry-run"], 0);
    assert!(
        stdout.contains(&format!(
            "would pin everything: {EVERYTHING} → {EVERYTHING}@2026.8.31"
        )),
        "{stdout}"
    );
    assert_eq!(w.text(), before, "--dry-run wrote");

    let (stdout, _) = w.ok_with_stderr(&["pin", "everything", "time"], 0);
    assert!(
        stdout.contains("pinned time: mcp-server-time@latest → mcp-server-time==2026.10.19"),
        "{stdout}"
    );
    let expected = before
        .replace(
            &format!("\"{EVERYTHING}\""),
            &format!("\"{EVERYTHING}@2026.8.31\""),
        )
        .replace("mcp-server-time@latest", "mcp-server-time==2026.10.19");
    assert_eq!(w.text(), expected);
    assert!(
        registry
            .requests()
            .contains(&"/npm/@modelcontextprotocol%2Fserver-everything".to_string()),
        "{:?}",
        registry.requests()
    );
    let doc: Value =
        serde_json::from_str(&w.ok_with_stderr(&["pin", "--all", "--json"], 0).0).unwrap();
    matches_schema("pin", &doc);
    assert_eq!(doc["servers"][0]["status"], "already_pinned", "{doc}");
    assert_eq!(doc["servers"][1]["version"], "2026.10.19", "{doc}");
    assert_eq!(w.text(), expected);
}

#[test]
fn pin_resolves_ranges_in_a_yaml_file_keeping_comments() {
    let registry = PackageRegistry::start();
    let w = pin_world_with("servers.yaml", &registry);
    let before = format!(
        "# operator config\nmcpServers:\n  everything:\n    command: npx  # launcher\n    args:\n      - -y\n      # the package\n      - \"{EVERYTHING}@^2026.1\"\n      - stdio\n  time:\n    command: uvx\n    args: [--from, \"mcp-server-time>=2026,<2026.10.19\", mcp-server-time]\n"
    );
    std::fs::write(&w.file, &before).unwrap();
    let doc: Value =
        serde_json::from_str(&w.ok_with_stderr(&["pin", "--all", "--json"], 0).0).unwrap();
    assert_eq!(
        doc["servers"][0]["to"],
        format!("{EVERYTHING}@2026.8.31"),
        "{doc}"
    );
    assert_eq!(
        doc["servers"][0]["integrity"],
        json!([EVERYTHING_INTEGRITY])
    );
    assert_eq!(
        doc["servers"][1]["to"], "mcp-server-time==2026.10.10",
        "{doc}"
    );
    let text = w.text();
    assert!(text.starts_with("# operator config\n"), "{text}");
    assert!(text.contains("command: npx  # launcher\n"), "{text}");
    assert!(text.contains("      # the package\n"), "{text}");
    assert!(text.contains(&format!("{EVERYTHING}@2026.8.31")), "{text}");
    assert!(
        text.contains("args: [--from, mcp-server-time==2026.10.10, mcp-server-time]"),
        "{text}"
    );
    let (stdout, _) = w.ok_with_stderr(&["list", "--json"], 0);
    assert!(stdout.contains("mcp-server-time==2026.10.10"), "{stdout}");
}

#[test]
fn pin_keeps_a_codex_toml_file_intact() {
    let registry = PackageRegistry::start();
    let w = pin_world_with("config.toml", &registry);
    let before = "# codex config\nmodel = \"o4\"\n\n[mcp_servers.time]\ncommand = \"uvx\"\nargs = [\"mcp-server-time\"] # the package\nenv = { TZ = \"UTC\" }\n";
    std::fs::write(&w.file, before).unwrap();
    w.ok_with_stderr(&["pin", "time"], 0);
    assert_eq!(
        w.text(),
        before.replace("\"mcp-server-time\"", "\"mcp-server-time==2026.10.19\"")
    );
}

#[test]
fn a_range_with_no_match_names_the_registry_and_what_is_available() {
    let registry = PackageRegistry::start();
    let w = pin_world_with("servers.json", &registry);
    let before = format!(
        r#"{{"mcpServers": {{"e": {{"command": "npx", "args": ["-y", "{EVERYTHING}@^9"]}},
  "t": {{"command": "uvx", "args": ["mcp-server-time"]}}}}}}"#
    );
    std::fs::write(&w.file, &before).unwrap();
    let (_, stderr) = w.ok_with_stderr(&["pin", "e", "t"], 3);
    assert!(
        stderr.contains(&format!(
            "no version of {EVERYTHING} matches ^9 at {}; available: 2026.8.31, 2026.8.18",
            registry.npm()
        )),
        "{stderr}"
    );
    assert!(stderr.contains("hint: widen the range"), "{stderr}");
    assert_eq!(w.text(), before, "nothing may be written when one fails");
}

#[test]
fn a_scoped_registry_in_the_projects_npmrc_is_honoured_and_auth_is_never_shown() {
    let registry = PackageRegistry::start();
    let w = pin_world("servers.json");
    std::fs::write(
        &w.file,
        format!(
            r#"{{"mcpServers": {{"e": {{"command": "npx", "args": ["-y", "{EVERYTHING}"]}}}}}}"#
        ),
    )
    .unwrap();
    let closed = support::free_port();
    let npmrc = w.dir.path().join(".npmrc");
    std::fs::write(
        &npmrc,
        format!(
            "registry=http://127.0.0.1:{closed}/\n@modelcontextprotocol:registry={}/\n//127.0.0.1/:_authToken=npm_TOPSECRET42\n",
            registry.npm()
        ),
    )
    .unwrap();
    let (stdout, stderr) = w.ok_with_stderr(&["pin", "e"], 0);
    assert!(
        stdout.contains(&format!("(from {})", registry.npm())),
        "{stdout}"
    );
    assert!(!format!("{stdout}{stderr}").contains("TOPSECRET"));
    assert!(w.text().contains(&format!("{EVERYTHING}@2026.8.31")));
    assert!(registry.authorizations().is_empty(), "npm auth is not sent");

    // Without the scope line the default registry is asked, and named.
    std::fs::write(
        &npmrc,
        format!("registry=http://127.0.0.1:{closed}/\n//127.0.0.1/:_authToken=npm_TOPSECRET42\n"),
    )
    .unwrap();
    std::fs::write(
        &w.file,
        format!(
            r#"{{"mcpServers": {{"e": {{"command": "npx", "args": ["-y", "{EVERYTHING}"]}}}}}}"#
        ),
    )
    .unwrap();
    let (stdout, stderr) = w.ok_with_stderr(&["pin", "e"], 1);
    assert!(
        stderr.contains(&format!("http://127.0.0.1:{closed}/")),
        "{stderr}"
    );
    assert!(
        stderr.contains("hint: check the registry configuration"),
        "{stderr}"
    );
    assert!(!format!("{stdout}{stderr}").contains("TOPSECRET"));
}

#[test]
fn uv_index_url_is_asked_as_a_simple_index_and_its_password_never_printed() {
    let registry = PackageRegistry::start();
    let mut w = pin_world("servers.json");
    let port = registry.url.rsplit(':').next().unwrap().to_string();
    w.set(
        "UV_INDEX_URL",
        format!("http://alice:pw-SECRET-9@127.0.0.1:{port}/simple/"),
    );
    std::fs::write(
        &w.file,
        r#"{"mcpServers": {"time": {"command": "uvx", "args": ["mcp-server-time"]},
  "nope": {"command": "uvx", "args": ["no-such-package"]}}}"#,
    )
    .unwrap();
    let (stdout, stderr) = w.ok_with_stderr(&["pin", "time", "--json"], 0);
    let doc: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        doc["servers"][0]["to"], "mcp-server-time==2026.10.19",
        "{doc}"
    );
    assert_eq!(
        doc["servers"][0]["registry"],
        format!("http://***@127.0.0.1:{port}/simple")
    );
    assert_eq!(doc["servers"][0]["integrity"].as_array().unwrap().len(), 2);
    assert!(!format!("{stdout}{stderr}").contains("SECRET"));
    assert_eq!(registry.requests(), vec!["/simple/mcp-server-time/"]);
    let basic = base64::engine::general_purpose::STANDARD.encode("alice:pw-SECRET-9");
    assert_eq!(registry.authorizations(), vec![format!("Basic {basic}")]);

    let (stdout, stderr) = w.ok_with_stderr(&["pin", "nope"], 3);
    assert!(
        stderr.contains(&format!(
            "http://***@127.0.0.1:{port}/simple has no package `no-such-package`"
        )),
        "{stderr}"
    );
    assert!(!format!("{stdout}{stderr}").contains("SECRET"));
}

#[test]
fn yanked_versions_are_skipped() {
    let copy = fixtures_copy();
    let index = copy.path().join("simple/mcp-server-time/index.json");
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&index).unwrap()).unwrap();
    for file in doc["files"].as_array_mut().unwrap() {
        if file["filename"].as_str().unwrap().contains("2026.10.19") {
            file["yanked"] = json!("broken release");
        }
    }
    std::fs::write(&index, serde_json::to_vec(&doc).unwrap()).unwrap();
    let registry = PackageRegistry::serve(copy.path().to_path_buf());
    let mut w = pin_world("servers.json");
    w.set("UV_DEFAULT_INDEX", format!("{}/simple", registry.url));
    std::fs::write(
        &w.file,
        r#"{"mcpServers": {"time": {"command": "uvx", "args": ["mcp-server-time"]}}}"#,
    )
    .unwrap();
    let (stdout, _) = w.ok_with_stderr(&["pin", "time"], 0);
    assert!(stdout.contains("→ mcp-server-time==2026.10.10"), "{stdout}");
}

#[test]
fn add_pin_writes_the_exact_version() {
    let registry = PackageRegistry::start();
    let w = pin_world_with("servers.json", &registry);
    let (_, stderr) = w.ok_with_stderr(
        &[
            "add",
            "--pin",
            "--no-check",
            "--name",
            "ev",
            "--command",
            "npx",
            "--",
            "-y",
            EVERYTHING,
            "stdio",
        ],
        0,
    );
    assert!(
        stderr.contains(&format!("pinned {EVERYTHING} → {EVERYTHING}@2026.8.31")),
        "{stderr}"
    );
    let file: Value = serde_json::from_str(&w.text()).unwrap();
    assert_eq!(
        file["mcpServers"]["ev"]["args"],
        json!(["-y", format!("{EVERYTHING}@2026.8.31"), "stdio"]),
        "{file}"
    );
    // Nothing to pin: a local command is refused, and nothing written.
    let (_, stderr) = w.ok_with_stderr(
        &[
            "add",
            "--pin",
            "--no-check",
            "--name",
            "sh",
            "--command",
            "sh",
        ],
        2,
    );
    assert!(
        stderr.contains("--pin: `sh` is not a package launcher"),
        "{stderr}"
    );
}

#[test]
fn pin_records_the_new_artifact_in_the_lockfile() {
    let registry = PackageRegistry::start();
    let w = pin_world_with("servers.json", &registry);
    std::fs::write(
        &w.file,
        serde_json::to_vec_pretty(&json!({"mcpServers": {"e": {
            "command": support::fixture().to_str().unwrap()}}}))
        .unwrap(),
    )
    .unwrap();
    w.ok_with_stderr(&["lock"], 0);
    let lock = w.dir.path().join("servers.lock");
    assert!(
        std::fs::read_to_string(&lock)
            .unwrap()
            .contains("kind = \"command\"")
    );
    // The entry now launches an unpinned package (the catalog stays locked).
    std::fs::write(
        &w.file,
        serde_json::to_vec_pretty(&json!({"mcpServers": {"e": {
            "command": "npx", "args": ["-y", EVERYTHING]}}}))
        .unwrap(),
    )
    .unwrap();
    let (stdout, _) = w.ok_with_stderr(&["pin", "e"], 0);
    assert!(stdout.contains("servers.lock updated"), "{stdout}");
    let text = std::fs::read_to_string(&lock).unwrap();
    assert!(text.contains("kind = \"npm\""), "{text}");
    assert!(
        text.contains(&format!("source = \"{EVERYTHING}\"")),
        "{text}"
    );
    assert!(text.contains("version = \"2026.8.31\""), "{text}");
    assert!(text.contains("pinned = true"), "{text}");
    assert!(text.contains(EVERYTHING_INTEGRITY), "{text}");
}

#[test]
fn docker_images_are_pinned_to_the_digest_their_registry_serves() {
    let oci = OciRegistry::start("io.github.acme/server");
    let w = pin_world("servers.json");
    let image = format!("{}/acme/server:latest", oci.host);
    std::fs::write(
        &w.file,
        serde_json::to_vec(&json!({"mcpServers": {"acme": {"command": "docker",
            "args": ["run", "-i", "--rm", "-e", "TOKEN", image]}}}))
        .unwrap(),
    )
    .unwrap();
    let (stdout, _) = w.ok_with_stderr(&["pin", "acme"], 0);
    assert!(
        stdout.contains(&format!("{image} → {image}@{}", oci.digest)),
        "{stdout}"
    );
    let file: Value = serde_json::from_str(&w.text()).unwrap();
    assert_eq!(
        file["mcpServers"]["acme"]["args"],
        json!([
            "run",
            "-i",
            "--rm",
            "-e",
            "TOKEN",
            format!("{image}@{}", oci.digest)
        ])
    );
    assert!(
        oci.requests().contains(&"/token".to_string()),
        "{:?}",
        oci.requests()
    );
    // The digest counts as a pin.
    let (stdout, _) = w.ok_with_stderr(&["pin", "acme"], 0);
    assert!(stdout.contains("acme is already pinned"), "{stdout}");
}

#[test]
fn a_docker_image_whose_registry_cannot_be_asked_is_not_pinned() {
    let w = pin_world("servers.json");
    let closed = support::free_port();
    let before = format!(
        r#"{{"mcpServers": {{"gh": {{"command": "docker", "args": ["run", "-i", "--rm", "127.0.0.1:{closed}/github/github-mcp-server"]}}}}}}"#
    );
    std::fs::write(&w.file, &before).unwrap();
    let (_, stderr) = w.ok_with_stderr(&["pin", "gh"], 1);
    assert!(
        stderr.contains(&format!(
            "cannot pin docker image `127.0.0.1:{closed}/github/github-mcp-server`: its registry could not be asked"
        )),
        "{stderr}"
    );
    assert!(stderr.contains("IMAGE@sha256:"), "{stderr}");
    assert_eq!(w.text(), before);
    // --all passes over it with a note.
    let (_, stderr) = w.ok_with_stderr(&["pin", "--all"], 0);
    assert!(stderr.contains("skipped gh"), "{stderr}");
    let doc: Value =
        serde_json::from_str(&w.ok_with_stderr(&["pin", "--all", "--json"], 0).0).unwrap();
    matches_schema("pin", &doc);
    assert_eq!(doc["servers"][0]["status"], "skipped", "{doc}");
}

/// A registry entry whose package is the loopback OCI image.
fn oci_entry(host: &str) -> Value {
    json!({
        "server": {
            "name": "io.github.acme/server",
            "description": "An image on a loopback registry",
            "version": "1.0.0",
            "packages": [{"registryType": "oci", "identifier": format!("{host}/acme/server:1.0"),
                "transport": {"type": "stdio"}}]
        },
        "_meta": {"io.modelcontextprotocol.registry/official": {
            "status": "active", "isLatest": true,
            "publishedAt": "2026-09-01T10:12:44.120Z", "updatedAt": "2026-09-01T10:12:44.120Z"}}
    })
}

#[test]
fn the_oci_name_label_must_name_the_registry_entry() {
    let oci = OciRegistry::start("io.github.acme/server");
    let registry = TestRegistry::start_with_extra(vec![oci_entry(&oci.host)]);
    let packages = PackageRegistry::start();
    let w = add_world(&registry, &packages);
    let (_, stderr) = w.ok_with_stderr(
        &["add", "io.github.acme/server", "--no-check", "--force"],
        0,
    );
    assert!(
        stderr.contains("ownership verified: oci:")
            && stderr.contains("(label io.modelcontextprotocol.server.name)"),
        "{stderr}"
    );

    let other = OciRegistry::start("io.github.mallory/server");
    let registry = TestRegistry::start_with_extra(vec![oci_entry(&other.host)]);
    let w = add_world(&registry, &packages);
    let (_, stderr) = w.ok_with_stderr(&["add", "io.github.acme/server", "--no-check"], 4);
    assert!(
        stderr.contains("by its ownership marker: label io.modelcontextprotocol.server.name is `io.github.mallory/server`"),
        "{stderr}"
    );
    assert!(!w.file.exists(), "nothing may be written");
}

/// `add NAME` from the loopback MCP Registry with package registries at `packages`.
fn add_world(registry: &TestRegistry, packages: &PackageRegistry) -> World {
    let mut w = pin_world_with("servers.json", packages);
    w.set("MCPCTL_REGISTRY_URL", &registry.url);
    w
}

#[test]
fn the_npm_ownership_marker_must_name_the_registry_entry() {
    let registry = TestRegistry::start();
    let add = [
        "add",
        "io.github.modelcontextprotocol/server-everything",
        "--package",
        "npm:stdio",
        "--no-check",
    ];
    let packages = PackageRegistry::start();
    let w = add_world(&registry, &packages);
    let (_, stderr) = w.ok_with_stderr(&add, 0);
    assert!(
        stderr.contains(&format!(
            "ownership verified: npm:{EVERYTHING}@2026.8.31 names `io.github.modelcontextprotocol/server-everything` (mcpName)"
        )),
        "{stderr}"
    );

    let copy = fixtures_copy();
    let doc_path = copy
        .path()
        .join("npm/@modelcontextprotocol%2Fserver-everything/2026.8.31.json");
    let mut doc: Value =
        serde_json::from_str(&std::fs::read_to_string(&doc_path).unwrap()).unwrap();
    doc["mcpName"] = json!("io.github.someone-else/server-everything");
    std::fs::write(&doc_path, serde_json::to_vec(&doc).unwrap()).unwrap();
    let packages = PackageRegistry::serve(copy.path().to_path_buf());
    let w = add_world(&registry, &packages);
    let (_, stderr) = w.ok_with_stderr(&add, 4);
    assert!(
        stderr.contains("does not belong to `io.github.modelcontextprotocol/server-everything` by its ownership marker: mcpName is `io.github.someone-else/server-everything`"),
        "{stderr}"
    );
    assert!(stderr.contains("--force"), "{stderr}");
    assert!(!w.file.exists(), "nothing may be written");
    let mut forced = add.to_vec();
    forced.push("--force");
    forced.push("--json");
    let (stdout, _) = w.ok_with_stderr(&forced, 0);
    let out: Value = serde_json::from_str(&stdout).unwrap();
    let warnings = out["warnings"].as_array().unwrap();
    assert!(
        warnings.iter().any(|f| f["rule"] == "registry"
            && f["message"]
                .as_str()
                .unwrap()
                .contains("added anyway because of --force")),
        "{out}"
    );

    // No marker at all is refused too.
    doc.as_object_mut().unwrap().remove("mcpName");
    std::fs::write(&doc_path, serde_json::to_vec(&doc).unwrap()).unwrap();
    let w = add_world(&registry, &packages);
    let (_, stderr) = w.ok_with_stderr(&add, 4);
    assert!(
        stderr.contains("ownership marker: it has no mcpName"),
        "{stderr}"
    );
}

#[test]
fn the_pypi_ownership_marker_is_read_from_the_description() {
    let registry = TestRegistry::start();
    let packages = PackageRegistry::start();
    let w = add_world(&registry, &packages);
    let (_, stderr) = w.ok_with_stderr(
        &[
            "add",
            "io.github.modelcontextprotocol/server-time",
            "--no-check",
        ],
        0,
    );
    assert!(
        stderr.contains("ownership verified: pypi:mcp-server-time==2026.10.19 names `io.github.modelcontextprotocol/server-time` (mcp-name)"),
        "{stderr}"
    );
    assert!(
        packages
            .requests()
            .contains(&"/pypi/mcp-server-time/json".to_string())
    );
}

#[test]
fn a_name_one_typo_away_from_an_established_entry_is_warned_about() {
    let squat = json!({
        "server": {
            "name": "io.github.modelcontextprotocol/server-everythinq",
            "description": "Looks familiar",
            "version": "1.0.0",
            "remotes": [{"type": "streamable-http", "url": "https://mcp.example.com/mcp"}]
        },
        "_meta": {"io.modelcontextprotocol.registry/official": {
            "status": "active", "isLatest": true,
            "publishedAt": "2026-09-01T10:12:44.120Z", "updatedAt": "2026-09-01T10:12:44.120Z"}}
    });
    let registry = TestRegistry::start_with_extra(vec![squat]);
    let packages = PackageRegistry::start();
    let w = add_world(&registry, &packages);
    let (stdout, stderr) = w.ok_with_stderr(
        &[
            "add",
            "io.github.modelcontextprotocol/server-everythinq",
            "--no-check",
            "--json",
        ],
        0,
    );
    let expected = "`io.github.modelcontextprotocol/server-everythinq` is within edit distance 2 of `io.github.modelcontextprotocol/server-everything`, which has more versions (2 to 1): a likely typo-squat";
    assert!(stderr.contains(expected), "{stderr}");
    let out: Value = serde_json::from_str(&stdout).unwrap();
    assert!(
        out["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["message"] == expected),
        "{out}"
    );
    // The established name itself gets no such warning.
    let (_, stderr) = w.ok_with_stderr(
        &[
            "add",
            "io.github.modelcontextprotocol/server-everything",
            "--package",
            "npm:stdio",
            "--no-check",
        ],
        0,
    );
    assert!(!stderr.contains("typo-squat"), "{stderr}");
}

#[test]
fn a_package_registry_that_floods_is_cut_off_at_the_bound_not_buffered() {
    // 256 MiB, four times the bound: mcpctl must hang up after 64 MiB.
    let flood = support::FloodServer::start(256 << 20);
    let mut w = pin_world("servers.json");
    w.set("MCPCTL_NPM_REGISTRY", &flood.url);
    let before = format!(
        r#"{{"mcpServers": {{"e": {{"command": "npx", "args": ["-y", "{EVERYTHING}"]}}}}}}"#
    );
    std::fs::write(&w.file, &before).unwrap();
    let (_, stderr) = w.ok_with_stderr(&["pin", "e"], 1);
    assert!(
        stderr.contains("the document is larger than 67108864 bytes"),
        "{stderr}"
    );
    assert_eq!(
        flood.read_whole.load(std::sync::atomic::Ordering::SeqCst),
        0,
        "the whole flood was read before it was measured"
    );
    assert_eq!(w.text(), before);
}

/// A copy of the saved documents plus an npm package `evilpkg` whose
/// `latest` dist-tag is `claimed`, listed in its packument with a version
/// document whose `version` is `says`.
fn hostile_npm(claimed: &str, says: &str) -> tempfile::TempDir {
    let copy = fixtures_copy();
    let integrity = "sha512-5U3OZh8Xq0Li4nA26l6uNvV9/1suMDuWSn+NjLZIhzinhMY6N3A4DCrxVecBGPf2PsNFKTEv5krxGPRwzxc7jQ==";
    let packument = json!({
        "name": "evilpkg",
        "dist-tags": {"latest": claimed},
        "versions": {
            "1.0.0": {"name": "evilpkg", "version": "1.0.0", "dist": {"integrity": integrity}},
            claimed: {"name": "evilpkg", "version": says, "dist": {"integrity": integrity}},
        }
    });
    std::fs::write(
        copy.path().join("npm/evilpkg.json"),
        serde_json::to_vec(&packument).unwrap(),
    )
    .unwrap();
    copy
}

#[test]
fn pin_writes_only_an_exact_version_the_registry_lists() {
    // What an attacker's registry put in `dist-tags.latest` (issue 20):
    // each was written into the definitions file as "pinned".
    let hostile = [
        "npm:evil-pkg@6.6.6",
        "https://attacker.example/evil.tgz",
        "1.0.0 & calc.exe",
        "../../../etc/passwd",
        "1.0.0\u{202e}exe.txt",
    ];
    let before = r#"{"mcpServers": {"x": {"command": "npx", "args": ["-y", "evilpkg"]}}}"#;
    for claimed in hostile {
        let copy = hostile_npm(claimed, claimed);
        let registry = PackageRegistry::serve(copy.path().to_path_buf());
        let w = pin_world_with("servers.json", &registry);
        std::fs::write(&w.file, before).unwrap();
        for args in [&["pin", "x"][..], &["pin", "--all"][..]] {
            let (stdout, stderr) = w.ok_with_stderr(args, 1);
            assert_eq!(w.text(), before, "{claimed:?} was written");
            assert!(
                stderr.contains("the registry claims `") && stderr.contains("nothing was written"),
                "{claimed:?}: {stderr}"
            );
            assert!(!stdout.contains("pinned"), "{stdout}");
        }
        let (_, stderr) = w.ok_with_stderr(&["pin", "x"], 1);
        // Escaped: no raw bidi override reaches the terminal.
        assert!(!stderr.contains('\u{202e}'), "{stderr}");
        if claimed.contains('\u{202e}') {
            assert!(stderr.contains("1.0.0\\u{202e}exe.txt"), "{stderr}");
        }
        // `add --pin` refuses the same claims and writes no entry.
        let add = w.output(&[
            "add",
            "--pin",
            "--no-check",
            "--name",
            "y",
            "--command",
            "npx",
            "--",
            "-y",
            "evilpkg",
        ]);
        assert_eq!(add.status.code(), Some(1), "{claimed:?}: {add:?}");
        assert_eq!(w.text(), before, "add --pin wrote {claimed:?}");
    }
    // A valid version the packument does not list, and a version document
    // that describes another version, are refused the same way.
    for (claimed, says) in [("6.6.6", "6.6.6"), ("1.0.1", "npm:evil-pkg@6.6.6")] {
        let copy = hostile_npm(claimed, says);
        if claimed == "6.6.6" {
            let path = copy.path().join("npm/evilpkg.json");
            let mut doc: Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            doc["versions"].as_object_mut().unwrap().remove("6.6.6");
            std::fs::write(&path, serde_json::to_vec(&doc).unwrap()).unwrap();
        }
        let registry = PackageRegistry::serve(copy.path().to_path_buf());
        let w = pin_world_with("servers.json", &registry);
        std::fs::write(&w.file, before).unwrap();
        let (_, stderr) = w.ok_with_stderr(&["pin", "x"], 1);
        assert_eq!(w.text(), before, "{claimed} was written");
        assert!(stderr.contains("nothing was written"), "{stderr}");
    }
}
