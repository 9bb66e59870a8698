//! OAuth 2.1 end to end: the real mcpctl binary against the fixture
//! server's authorization server (`--http PORT --oauth`), with `BROWSER` set
//! to `tests/support/browser.sh`, which follows the redirect like a person
//! who clicks "allow". Discovery (PRM from the header and the well-known
//! path, RFC 8414 and OIDC metadata), each client kind (pre-registered,
//! CIMD, DCR), each token endpoint method, scope selection, step-up,
//! refresh, logout with revocation, client credentials, and refusals that
//! write nothing.

mod support;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::Value;
use support::{Background, Run, Sandbox, browser, http_fixture, schema_errors};

const FILE: &str = "servers.json";

fn fixture_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/oauth")
        .join(name)
}

/// A sandbox and a fixture started with `--oauth` plus `flags`.
struct Env {
    sandbox: Sandbox,
    _server: Background,
    base: String,
}

impl Env {
    fn new(flags: &[&str]) -> Env {
        let mut all = vec!["--oauth"];
        all.extend_from_slice(flags);
        let (server, base) = http_fixture(&all);
        Env {
            sandbox: Sandbox::new(),
            _server: server,
            base,
        }
    }

    fn url(&self) -> String {
        format!("{}/mcp", self.base)
    }

    /// mcpctl with the definitions file, BROWSER and `env`.
    fn run(&self, args: &[&str], env: &[(&str, &str)]) -> Run {
        let mut all = vec!["--file", FILE];
        all.extend_from_slice(args);
        self.sandbox.run_with(&all, |cmd| {
            cmd.env("BROWSER", browser());
            for (k, v) in env {
                cmd.env(k, v);
            }
        })
    }

    /// `add --name s --url URL --auth oauth EXTRA…`, which must succeed.
    fn add(&self, extra: &[&str]) {
        let url = self.url();
        let mut args = vec![
            "add",
            "--name",
            "s",
            "--url",
            url.as_str(),
            "--auth",
            "oauth",
        ];
        args.extend_from_slice(extra);
        self.run(&args, &[]).expect_code(0);
    }

    /// A debug document of the authorization server (`log`, `clients`,
    /// `verifiers`), as JSON.
    fn debug(&self, what: &str) -> Value {
        let out = std::process::Command::new("curl")
            .args(["-sf", &format!("{}/debug/oauth/{what}", self.base)])
            .output()
            .expect("curl");
        serde_json::from_slice(&out.stdout).expect("a debug document is JSON")
    }

    fn events(&self) -> Vec<Value> {
        self.debug("log").as_array().cloned().unwrap_or_default()
    }

    fn events_at(&self, endpoint: &str) -> Vec<Value> {
        self.events()
            .into_iter()
            .filter(|e| e["endpoint"] == endpoint)
            .collect()
    }

    fn token_file(&self) -> PathBuf {
        self.sandbox.path("state/oauth.json")
    }

    fn stored(&self) -> Value {
        let text = std::fs::read_to_string(self.token_file()).unwrap_or_else(|_| "{}".into());
        serde_json::from_str(&text).unwrap()
    }

    fn token_count(&self) -> usize {
        self.stored()["tokens"]
            .as_object()
            .map(|m| m.len())
            .unwrap_or(0)
    }
}

#[track_caller]
fn signed_in(env: &Env, extra: &[&str]) -> Value {
    let mut args = vec!["login", "s", "--json"];
    args.extend_from_slice(extra);
    let run = env.run(&args, &[]);
    run.expect_code(0);
    run.json()
}

#[test]
fn dcr_client_scope_from_the_header_prm_from_the_header_rfc8414() {
    let env = Env::new(&["--oauth-rfc8414-only"]);
    env.add(&[]);
    let doc = signed_in(&env, &[]);
    assert_eq!(doc["client"], "registered now", "{doc}");
    assert_eq!(doc["scopes"], serde_json::json!(["mcp:read"]), "{doc}");
    assert_eq!(doc["issuer"], format!("{}/as", env.base));
    // PKCE S256 and the resource on both requests; scope from the challenge.
    let authorize = env.events_at("authorize");
    assert_eq!(authorize.len(), 1, "{authorize:?}");
    assert_eq!(authorize[0]["code_challenge_method"], "S256");
    assert_eq!(authorize[0]["resource"], env.url());
    assert_eq!(authorize[0]["scope"], "mcp:read");
    let token = env.events_at("token");
    assert_eq!(token[0]["resource"], env.url(), "{token:?}");
    assert_eq!(token[0]["pkce"], "verified", "{token:?}");
    let register = env.events_at("register");
    assert_eq!(register.len(), 1);
    // The stored token opens the server.
    env.run(&["check", "s"], &[]).expect_code(0);
    env.run(
        &["call", "s", "echo", "--direct", "--arg", "message=hi"],
        &[],
    )
    .expect_code(0)
    .stdout_has("hi");
    // A second login reuses the registration (kept per issuer).
    signed_in(&env, &[]);
    assert_eq!(env.events_at("register").len(), 1);
    // The token file is the user's alone.
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(env.token_file())
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
}

#[test]
fn prm_from_the_well_known_path_oidc_metadata_scope_from_scopes_supported() {
    let env = Env::new(&[
        "--oauth-no-prm-header",
        "--oauth-no-scope-header",
        "--oauth-oidc-only",
    ]);
    env.add(&[]);
    let doc = signed_in(&env, &[]);
    let prm = env.events_at("prm");
    assert!(!prm.is_empty(), "PRM was not fetched");
    let metadata = env.events_at("metadata");
    assert!(metadata.iter().all(|e| e["kind"] == "oidc"), "{metadata:?}");
    assert_eq!(env.events_at("authorize")[0]["scope"], "mcp:read mcp:write");
    assert!(!doc["scopes"].as_array().unwrap().is_empty(), "{doc}");
    env.run(&["check", "s"], &[]).expect_code(0);
}

#[test]
fn no_scope_anywhere_omits_the_parameter() {
    let env = Env::new(&["--oauth-no-scope-header", "--oauth-no-scopes-supported"]);
    env.add(&[]);
    signed_in(&env, &[]);
    let authorize = env.events_at("authorize");
    assert!(authorize[0]["scope"].is_null(), "{authorize:?}");
    env.run(&["check", "s"], &[]).expect_code(0);
}

#[test]
fn pre_registered_clients_with_basic_post_and_none() {
    for (method, client, secret) in [
        ("basic", "app-basic", Some("basic-secret-0123")),
        ("post", "app-post", Some("post-secret-0123")),
        ("none", "app-public", None),
    ] {
        let spec = match secret {
            Some(s) => format!("{client}:{s}"),
            None => client.to_string(),
        };
        let env = Env::new(&["--oauth-client", &spec, "--oauth-no-dcr"]);
        let mut extra = vec!["--client-id", client, "--token-endpoint-auth", method];
        if secret.is_some() {
            extra.extend(["--client-secret", "${APP_SECRET}"]);
        }
        env.add(&extra);
        let run = env.run(
            &["login", "s", "--json"],
            &[("APP_SECRET", secret.unwrap_or(""))],
        );
        run.expect_code(0);
        assert_eq!(run.json()["client"], "pre-registered");
        let token = env.events_at("token");
        let expected = match method {
            "basic" => "client_secret_basic",
            "post" => "client_secret_post",
            _ => "none",
        };
        assert_eq!(token[0]["auth_method"], expected, "{token:?}");
        assert!(env.events_at("register").is_empty());
        let file = std::fs::read_to_string(env.sandbox.path(FILE)).unwrap();
        if let Some(secret) = secret {
            assert!(!file.contains(secret), "the secret reached the file");
            assert!(file.contains("${APP_SECRET}"), "{file}");
        }
    }
}

#[test]
fn a_client_id_metadata_document_is_used_where_supported() {
    let env = Env::new(&["--oauth-cimd", "--oauth-no-dcr"]);
    let cimd = format!("{}/cimd/mcpctl.json", env.base);
    env.add(&["--client-metadata-url", &cimd]);
    let doc = signed_in(&env, &[]);
    assert_eq!(doc["client"], "client ID metadata document", "{doc}");
    assert_eq!(doc["client_id"], cimd);
    assert!(!env.events_at("cimd").is_empty());
    env.run(&["check", "s"], &[]).expect_code(0);
}

#[test]
fn no_way_to_register_names_the_fields_to_set() {
    let env = Env::new(&["--oauth-no-dcr"]);
    env.add(&[]);
    env.run(&["login", "s"], &[])
        .expect_code(1)
        .stderr_has("client_id");
    assert_eq!(env.token_count(), 0);
}

#[test]
fn step_up_on_insufficient_scope_signs_in_again_once() {
    let env = Env::new(&["--oauth-required-scope", "mcp:write"]);
    env.add(&[]);
    let doc = signed_in(&env, &[]);
    assert_eq!(doc["scopes"], serde_json::json!(["mcp:read"]));
    env.run(
        &["call", "s", "echo", "--direct", "--arg", "message=up"],
        &[],
    )
    .expect_code(0)
    .stdout_has("up");
    let authorize = env.events_at("authorize");
    assert_eq!(authorize.len(), 2, "{authorize:?}");
    let scope = authorize[1]["scope"].as_str().unwrap();
    assert!(
        scope.contains("mcp:read") && scope.contains("mcp:write"),
        "{scope}"
    );
    // Without a browser or a terminal a step-up is refused with the fix.
    let env = Env::new(&["--oauth-required-scope", "mcp:write"]);
    env.add(&[]);
    signed_in(&env, &[]);
    let all = [
        "--file",
        FILE,
        "call",
        "s",
        "echo",
        "--direct",
        "--arg",
        "message=x",
    ];
    env.sandbox
        .run_with(&all, |cmd| {
            cmd.env_remove("BROWSER");
        })
        .expect_code(1)
        .stderr_has("mcpctl login s --scope");
}

#[test]
fn an_expired_token_is_refreshed_and_a_failed_refresh_says_login() {
    let env = Env::new(&["--oauth-token-ttl", "2"]);
    env.add(&[]);
    signed_in(&env, &[]);
    std::thread::sleep(Duration::from_secs(3));
    env.run(&["check", "s"], &[]).expect_code(0);
    let refreshes: Vec<_> = env
        .events_at("token")
        .into_iter()
        .filter(|e| e["grant_type"] == "refresh_token")
        .collect();
    assert_eq!(refreshes.len(), 1, "{refreshes:?}");
    assert_eq!(refreshes[0]["resource"], env.url());

    let env = Env::new(&["--oauth-token-ttl", "1", "--oauth-refresh-fails"]);
    env.add(&[]);
    signed_in(&env, &[]);
    std::thread::sleep(Duration::from_secs(2));
    env.run(&["check", "s"], &[])
        .expect_code(1)
        .stdout_has("mcpctl login s");
}

#[test]
fn logout_revokes_and_deletes() {
    let env = Env::new(&[]);
    env.add(&[]);
    signed_in(&env, &[]);
    let run = env.run(&["logout", "s", "--json"], &[]);
    run.expect_code(0);
    assert_eq!(run.json()["revocation"], "revoked", "{run}");
    let revoked = env.events_at("revoke");
    assert_eq!(revoked.len(), 2, "{revoked:?}");
    assert_eq!(env.token_count(), 0);
    let status = env.run(&["auth", "status", "s", "--json"], &[]);
    status.expect_code(0);
    assert_eq!(status.json()["servers"][0]["signed_in"], false);
    env.run(&["check", "s"], &[])
        .expect_code(1)
        .stdout_has("mcpctl login s");
}

#[test]
fn client_credentials_sign_in_by_themselves_with_a_secret_or_a_key() {
    let env = Env::new(&["--oauth-client", "ci-bot:ci-secret-0123456"]);
    env.add(&[
        "--grant",
        "client-credentials",
        "--client-id",
        "ci-bot",
        "--client-secret",
        "${CI_SECRET}",
    ]);
    // No login, no browser: check signs in by itself.
    let run = env
        .sandbox
        .run_with(&["--file", FILE, "check", "s"], |cmd| {
            cmd.env("CI_SECRET", "ci-secret-0123456")
                .env_remove("BROWSER");
        });
    run.expect_code(0);
    let token = env.events_at("token");
    assert_eq!(token[0]["grant_type"], "client_credentials", "{token:?}");
    assert!(env.events_at("authorize").is_empty());

    for key in ["es256.pem", "rs256.pem"] {
        let jwks = fixture_file("jwks.json");
        let env = Env::new(&[
            "--oauth-client",
            "ci-jwt",
            "--oauth-client-jwks",
            jwks.to_str().unwrap(),
        ]);
        env.add(&[
            "--grant",
            "client-credentials",
            "--client-id",
            "ci-jwt",
            "--token-endpoint-auth",
            "private-key-jwt",
            "--client-key",
            "${CI_KEY}",
        ]);
        let pem = std::fs::read_to_string(fixture_file(key)).unwrap();
        let run = env.run(&["login", "s", "--json"], &[("CI_KEY", pem.as_str())]);
        run.expect_code(0);
        let token = env.events_at("token");
        assert_eq!(
            token[0]["auth_method"], "private_key_jwt",
            "{key}: {token:?}"
        );
        env.run(&["check", "s"], &[("CI_KEY", pem.as_str())])
            .expect_code(0);
    }
}

/// Runs `login` and checks it failed with `needle` and stored nothing.
#[track_caller]
fn refused(env: &Env, extra: &[&str], needle: &str) {
    let mut args = vec!["login", "s", "--timeout", "8"];
    args.extend_from_slice(extra);
    let started = Instant::now();
    let run = env.run(&args, &[]);
    run.expect_code(1).stderr_has(needle);
    assert!(started.elapsed() < Duration::from_secs(20), "{run}");
    assert_eq!(env.token_count(), 0, "a token was stored: {run}");
}

#[test]
fn bad_answers_are_refused_and_nothing_is_written() {
    let cases: [(&[&str], &str); 5] = [
        (
            &["--oauth-prm-resource", "http://127.0.0.1:9/other"],
            "resource",
        ),
        (&["--oauth-wrong-issuer"], "issuer"),
        (&["--oauth-bad-state"], "state"),
        (&["--oauth-no-access-token"], "access_token"),
        (&["--oauth-hang-token"], "did not finish within 8 s"),
    ];
    for (flags, needle) in cases {
        let env = Env::new(flags);
        env.add(&[]);
        refused(&env, &[], needle);
    }
}

/// A hostile authorization server whose metadata names a non-web
/// authorization endpoint: mcpctl refuses to open it.
#[test]
fn an_authorization_url_that_is_not_https_is_never_opened() {
    for endpoint in ["file:///etc/passwd", "javascript:alert(1)"] {
        let (server, base) = hostile_server(endpoint);
        let sandbox = Sandbox::new();
        let opened = sandbox.path("opened");
        let script = logging_browser(&sandbox, &opened);
        let url = format!("{base}/mcp");
        sandbox
            .run(&[
                "--file", FILE, "add", "--name", "s", "--url", &url, "--auth", "oauth",
            ])
            .expect_code(0);
        let run = sandbox.run_with(&["--file", FILE, "login", "s", "--timeout", "5"], |cmd| {
            cmd.env("BROWSER", &script);
        });
        run.expect_code(1)
            .stderr_has("refusing to sign in")
            .stderr_has("`authorization_endpoint`");
        assert!(!opened.exists(), "the browser was started for {endpoint}");
        drop(server);
    }
}

/// A loopback server answering with fixed documents (one thread per request).
fn hostile_server(authorize: &str) -> (std::thread::JoinHandle<()>, String) {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let authorize = authorize.to_string();
    let b = base.clone();
    let handle = std::thread::spawn(move || {
        for stream in listener.incoming().take(40) {
            let Ok(mut stream) = stream else { continue };
            let mut buf = [0u8; 8192];
            let n = stream.read(&mut buf).unwrap_or(0);
            let head = String::from_utf8_lossy(&buf[..n]).to_string();
            let path = head.split_whitespace().nth(1).unwrap_or("/").to_string();
            let (status, extra, body) = match path.as_str() {
                "/.well-known/oauth-protected-resource/mcp" => (
                    "200 OK",
                    String::new(),
                    serde_json::json!({"resource": format!("{b}/mcp"), "authorization_servers": [format!("{b}/as")]}).to_string(),
                ),
                "/.well-known/oauth-authorization-server/as" => (
                    "200 OK",
                    String::new(),
                    serde_json::json!({
                        "issuer": format!("{b}/as"),
                        "authorization_endpoint": authorize,
                        "token_endpoint": format!("{b}/as/token"),
                        "registration_endpoint": format!("{b}/as/register"),
                        "code_challenge_methods_supported": ["S256"],
                    })
                    .to_string(),
                ),
                "/as/register" => (
                    "201 Created",
                    String::new(),
                    serde_json::json!({"client_id": "c", "redirect_uris": []}).to_string(),
                ),
                p if p.starts_with("/mcp") => (
                    "401 Unauthorized",
                    format!(
                        "WWW-Authenticate: Bearer resource_metadata=\"{b}/.well-known/oauth-protected-resource/mcp\"\r\n"
                    ),
                    String::new(),
                ),
                _ => ("404 Not Found", String::new(), String::new()),
            };
            let _ = write!(
                stream,
                "HTTP/1.1 {status}\r\nContent-Type: application/json\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    (handle, base)
}

#[test]
fn add_without_auth_meets_a_bearer_challenge_and_saves_nothing_without_a_tty() {
    let env = Env::new(&[]);
    let url = env.url();
    env.run(&["add", "--name", "s", "--url", &url], &[])
        .expect_code(1)
        .stderr_has("--auth oauth")
        .stderr_has("mcpctl login s");
    assert!(!env.sandbox.path(FILE).exists(), "something was saved");
}

#[test]
fn secrets_never_reach_output_logs_the_file_or_the_supervisor() {
    let env = Env::new(&["--oauth-client", "app:app-secret-value-42"]);
    env.add(&["--client-id", "app", "--client-secret", "${APP_SECRET}"]);
    let secret_env = [("APP_SECRET", "app-secret-value-42")];
    let mut outputs = Vec::new();
    let mut record = |run: Run| {
        outputs.push(format!("{run}"));
    };
    // A browser that also notes the redirect it followed, to learn the code.
    let codes = env.sandbox.path("codes");
    let spy = env.sandbox.path("spy.sh");
    std::fs::write(
        &spy,
        format!(
            "#!/bin/sh\nloc=$(curl -s -o /dev/null -w '%{{redirect_url}}' \"$1\")\necho \"$loc\" >> {}\ncurl -s -o /dev/null \"$loc\"\n",
            codes.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&spy, std::fs::Permissions::from_mode(0o755)).unwrap();
    let login = env
        .sandbox
        .run_with(&["--file", FILE, "login", "s", "--json"], |cmd| {
            cmd.env("BROWSER", &spy)
                .env("APP_SECRET", "app-secret-value-42");
        });
    login.expect_code(0);
    record(login);
    let redirect = std::fs::read_to_string(&codes).unwrap();
    let code = redirect
        .split(['?', '&'])
        .find_map(|p| p.strip_prefix("code="))
        .expect("the redirect carried a code")
        .trim()
        .to_string();
    for args in [
        &["check", "s", "--json"][..],
        &["check", "s"],
        &["auth", "status", "--json"],
        &["auth", "status"],
        &["show", "s", "--json"],
        &["list", "--json"],
        &[
            "call",
            "s",
            "echo",
            "--direct",
            "--arg",
            "message=m",
            "--json",
        ],
        &["start", "s"],
        &["status", "--json"],
        &["call", "s", "echo", "--arg", "message=m", "--json"],
        &["logs", "s"],
        &["supervisor", "status", "--json"],
    ] {
        let run = env.run(args, &secret_env);
        // Each must succeed: a command that failed early never printed
        // what it should have masked.
        run.expect_code(0);
        record(run);
    }
    let stored = env.stored();
    let mut secrets = vec!["app-secret-value-42".to_string(), code];
    // The PKCE verifiers the authorization server received.
    let verifiers = env.debug("verifiers");
    let verifiers = verifiers.as_array().expect("verifiers");
    assert!(!verifiers.is_empty(), "the sign-in sent a verifier");
    secrets.extend(verifiers.iter().map(|v| v.as_str().unwrap().to_string()));
    for entry in stored["tokens"].as_object().unwrap().values() {
        secrets.push(entry["token"]["access_token"].as_str().unwrap().to_string());
        if let Some(r) = entry["token"]["refresh_token"].as_str() {
            secrets.push(r.to_string());
        }
    }
    let stop = env.run(&["supervisor", "stop"], &[]);
    stop.expect_code(0);
    record(stop);
    assert_eq!(outputs.len(), 14, "every command ran");
    // Bytes, not text: a log that is not UTF-8 is searched too.
    let mut haystack = outputs.join("\n").into_bytes();
    haystack.extend(std::fs::read(env.sandbox.path(FILE)).unwrap());
    let mut searched = 0;
    for entry in support::files_under(&env.sandbox.path("state")) {
        if entry.file_name().is_some_and(|n| n == "oauth.json") {
            continue;
        }
        haystack.extend(std::fs::read(&entry).unwrap_or_default());
        searched += 1;
    }
    assert!(searched > 0, "the state directory held no file to search");
    for secret in &secrets {
        assert!(
            !haystack
                .windows(secret.len())
                .any(|w| w == secret.as_bytes()),
            "a secret ({} chars) appeared in output, a log or the definitions file",
            secret.len()
        );
    }
}

#[test]
fn as_a_new_user_add_login_check_call_supervise_expire_logout() {
    let env = Env::new(&["--oauth-token-ttl", "4"]);
    env.add(&[]);
    env.run(&["login", "s"], &[])
        .expect_code(0)
        .stdout_has("signed in to `s`");
    env.run(&["check", "s"], &[]).expect_code(0);
    env.run(&["start", "s"], &[]).expect_code(0);
    env.run(&["call", "s", "echo", "--arg", "message=one"], &[])
        .expect_code(0)
        .stdout_has("one");
    // The token expires while the supervisor holds the server.
    std::thread::sleep(Duration::from_secs(5));
    env.run(&["call", "s", "echo", "--arg", "message=two"], &[])
        .expect_code(0)
        .stdout_has("two");
    env.run(&["supervisor", "stop"], &[]).expect_code(0);
    env.run(&["logout", "s"], &[])
        .expect_code(0)
        .stdout_has("revoked");
}

#[track_caller]
fn assert_matches(name: &str, run: &Run) {
    let doc = run.json();
    let errors = schema_errors(name, &doc);
    assert!(errors.is_empty(), "{name}: {errors:?}\n{run}");
    assert_eq!(doc["schema_version"], 1);
}

#[test]
fn json_documents_match_their_schemas() {
    let env = Env::new(&[]);
    env.add(&[]);
    let status = env.run(&["auth", "status", "--json"], &[]);
    status.expect_code(0);
    assert_matches("auth-status", &status);
    let login = env.run(&["login", "s", "--json"], &[]);
    login.expect_code(0);
    assert_matches("login", &login);
    let status = env.run(&["auth", "status", "s", "--json"], &[]);
    status.expect_code(0);
    assert_matches("auth-status", &status);
    assert_eq!(status.json()["servers"][0]["signed_in"], true);
    let show = env.run(&["show", "s", "--json"], &[]);
    show.expect_code(0);
    assert_matches("show", &show);
    assert_eq!(show.json()["auth"]["grant"], "authorization_code");
    let list = env.run(&["list", "--json"], &[]);
    list.expect_code(0);
    assert_matches("list", &list);
    let logout = env.run(&["logout", "s", "--json"], &[]);
    logout.expect_code(0);
    assert_matches("logout", &logout);
    let again = env.run(&["logout", "s", "--json"], &[]);
    again.expect_code(0);
    assert_matches("logout", &again);
    assert_eq!(again.json()["was_signed_in"], false);
}

#[test]
fn bad_definitions_are_refused_with_their_place() {
    let sandbox = Sandbox::new();
    for (entry, needle) in [
        (
            r#"{"url": "https://x.test/mcp", "auth": "oauth", "client_id": "a", "client_secret": "hunter2-literal"}"#,
            "client_secret",
        ),
        (
            r#"{"url": "https://x.test/mcp", "auth": "kerberos"}"#,
            "unknown `auth`",
        ),
        (
            r#"{"url": "https://x.test/mcp", "grant": "client_credentials"}"#,
            "no `auth: oauth`",
        ),
        (
            r#"{"url": "https://x.test/mcp", "auth": "oauth", "grant": "client_credentials"}"#,
            "client_id",
        ),
        (r#"{"command": "sh", "auth": "oauth"}"#, "remote server"),
    ] {
        let text = format!("{{\"mcpServers\": {{\"s\": {entry}}}}}");
        std::fs::write(sandbox.path(FILE), &text).unwrap();
        let run = sandbox.run(&["--file", FILE, "list"]);
        run.expect_code(2)
            .stderr_has(needle)
            .stderr_has("servers.json:1:");
        assert!(!format!("{run}").contains("hunter2-literal"), "{run}");
    }
}

#[test]
fn the_2025_03_26_fallbacks_root_metadata_then_default_endpoints() {
    // Root metadata: the issuer is the origin (no path insertion).
    let env = Env::new(&["--oauth-legacy"]);
    env.add(&[]);
    let doc = signed_in(&env, &[]);
    assert_eq!(doc["issuer"], env.base, "{doc}");
    env.run(&["check", "s"], &[]).expect_code(0);
    // No metadata at all: /authorize, /token and /register at the root,
    // with no issuer to bind to.
    let env = Env::new(&["--oauth-legacy-no-metadata"]);
    env.add(&[]);
    let doc = signed_in(&env, &[]);
    assert!(doc["issuer"].is_null(), "{doc}");
    assert_eq!(env.events_at("register").len(), 1);
    env.run(&["check", "s"], &[]).expect_code(0);
}

#[test]
fn add_on_a_terminal_offers_to_sign_in_then_checks_and_saves() {
    let script = support::require("script", "install util-linux (it provides `script`)");
    let env = Env::new(&[]);
    let url = env.url();
    let mcpctl = env!("CARGO_BIN_EXE_mcpctl");
    let line = format!("{mcpctl} --file {FILE} add --name s --url {url}");
    let mut child = env
        .sandbox
        .wrapped(&script)
        .args(["-qec", &line, "/dev/null"])
        .env("BROWSER", browser())
        .env_remove("CI")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(b"y\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Sign in now?"), "{text}");
    assert!(text.contains("3 tools"), "{text}");
    let file = std::fs::read_to_string(env.sandbox.path(FILE)).unwrap();
    assert!(file.contains("\"auth\": \"oauth\""), "{file}");
    assert_eq!(env.token_count(), 1);
}

/// A browser stand-in that writes every URL it is given to `log` and
/// never follows them.
fn logging_browser(sandbox: &Sandbox, log: &std::path::Path) -> PathBuf {
    let script = sandbox.path("logging-browser.sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\necho \"$1\" >> {}\n", log.display()),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

/// Attack: a protected-resource document whose `resource` is a parent of
/// the server's URL (or another server) would get a token valid for more
/// than this server; it is refused before any registration.
#[test]
fn a_wider_or_other_protected_resource_is_refused_before_registration() {
    for (resource, why) in [
        ("{origin}/", "wider audience"),
        ("{origin}", "wider audience"),
        ("https://evil.example.com/mcp", "another server"),
    ] {
        let env = Env::new(&["--oauth-prm-resource", resource]);
        env.add(&[]);
        let run = env.run(&["login", "s", "--timeout", "20"], &[]);
        run.expect_code(1)
            .stderr_has("refusing to sign in")
            .stderr_has(why);
        assert!(env.events_at("register").is_empty(), "{resource}: {run}");
        assert!(env.events_at("authorize").is_empty(), "{resource}: {run}");
        assert_eq!(env.token_count(), 0, "{run}");
    }
}

/// Attack: metadata naming a plain-http endpoint off loopback would get
/// the code, the PKCE verifier, client secrets or tokens in clear; the
/// sign-in stops before the browser opens, and nothing is sent.
#[test]
fn plain_http_endpoints_off_loopback_are_never_sent_secrets() {
    for endpoint in ["token", "registration", "revocation"] {
        let env = Env::new(&["--oauth-plain-http", endpoint]);
        env.add(&[]);
        let opened = env.sandbox.path("opened");
        let browser = logging_browser(&env.sandbox, &opened);
        let run = env
            .sandbox
            .run_with(&["--file", FILE, "login", "s", "--timeout", "20"], |cmd| {
                cmd.env("BROWSER", &browser);
            });
        run.expect_code(1)
            .stderr_has(&format!("`{endpoint}_endpoint`"))
            .stderr_has("plain http");
        assert!(
            !opened.exists(),
            "{endpoint}: the browser was opened: {run}"
        );
        assert!(env.events_at("register").is_empty(), "{endpoint}: {run}");
    }
    // Tokens stored earlier are not sent to a revocation endpoint that has
    // since become plain http: deleted here, not sent.
    let env = Env::new(&[]);
    env.add(&[]);
    signed_in(&env, &[]);
    let mut stored = env.stored();
    for entry in stored["tokens"].as_object_mut().unwrap().values_mut() {
        entry["metadata"]["revocation_endpoint"] = "http://mcpctl-test.invalid/revoke".into();
    }
    std::fs::write(env.token_file(), stored.to_string()).unwrap();
    let run = env.run(&["logout", "s", "--json"], &[]);
    run.expect_code(0);
    assert_eq!(run.json()["revocation"], "refused", "{run}");
    assert_eq!(env.token_count(), 0);
}

/// Attack: a token of another type (`mac`, `DPoP`) was sent as Bearer.
#[test]
fn a_token_type_other_than_bearer_is_refused() {
    for kind in ["mac", "DPoP", "N_A"] {
        let env = Env::new(&["--oauth-token-type", kind]);
        env.add(&[]);
        let run = env.run(&["login", "s", "--timeout", "20"], &[]);
        run.expect_code(1).stderr_has("only Bearer");
        let named = format!("type `{}`", kind.to_lowercase());
        assert!(run.stderr.to_lowercase().contains(&named), "{run}");
        assert_eq!(env.token_count(), 0);
    }
    // `bearer` in any case is Bearer.
    let env = Env::new(&["--oauth-token-type", "bearer"]);
    env.add(&[]);
    signed_in(&env, &[]);
}

/// Attack: `expires_in` of 2^64-1 wrapped to "expires 1969-12-31".
#[test]
fn an_endless_expiry_is_clamped_not_wrapped() {
    let env = Env::new(&["--oauth-expires-in", "18446744073709551615"]);
    env.add(&[]);
    let run = env.run(&["login", "s"], &[]);
    run.expect_code(0).stdout_has("expires 9999-12-31");
    assert!(!format!("{run}").contains("1969"), "{run}");
    env.run(&["auth", "status"], &[])
        .expect_code(0)
        .stdout_has("9999-12-31");
    env.run(&["check", "s"], &[]).expect_code(0);
}

/// Attack: a 900 KB `client_id` from registration was kept, stored and
/// put in the authorization URL.
#[test]
fn a_huge_client_id_from_registration_is_refused() {
    let env = Env::new(&["--oauth-client-id-bytes", "900000"]);
    env.add(&[]);
    let run = env.run(&["login", "s", "--timeout", "20"], &[]);
    run.expect_code(1).stderr_has("registration");
    assert!(
        run.stderr.len() < 4096,
        "{} bytes on stderr",
        run.stderr.len()
    );
    assert!(env.events_at("authorize").is_empty(), "{run}");
    let file = std::fs::read(env.token_file()).unwrap_or_default();
    assert!(
        file.len() < 16 * 1024,
        "the token file holds {} bytes",
        file.len()
    );
}

/// Attack: one stray request to the loopback callback (another `state`,
/// as a page racing the real redirect would send) aborted the sign-in, and
/// idle connections stalled it. The browser here first opens idle
/// connections and sends the stray redirect, then follows the real one.
#[test]
fn strays_and_idle_connections_at_the_callback_do_not_stop_the_sign_in() {
    sign_in_past_strays(3);
}

/// Attack (fresh pass, issue 20): sixteen idle connections (any local
/// user can open them, and renew them every few seconds) filled the
/// listener's slots, so the browser's real redirect was closed unread and
/// the sign-in waited for its timeout.
#[test]
fn sixteen_idle_connections_at_the_callback_do_not_stall_the_sign_in() {
    sign_in_past_strays(16);
}

/// Attack (after the fix): 200 idle connections, far more than the listener
/// reads at once, still never keep the browser's redirect out: the oldest
/// are dropped for newer ones instead of the newest being refused.
#[test]
fn two_hundred_idle_connections_at_the_callback_do_not_stall_the_sign_in() {
    sign_in_past_strays(200);
}

/// A sign-in whose browser first opens `idle` connections to the callback
/// that never send a byte (and records each it made), asks for `/favicon.ico` and sends a redirect
/// with another `state`, then follows the real one: it must succeed, fast.
fn sign_in_past_strays(idle: usize) {
    let env = Env::new(&[]);
    env.add(&[]);
    let opened = env.sandbox.path("idle-opened");
    let script = racing_browser(
        &env,
        &format!(
            r#"port=${{base#*127.0.0.1:}}
port=${{port%%/*}}
for i in $(seq {idle}); do (exec 3<>/dev/tcp/127.0.0.1/$port && echo open >> {opened}; sleep 15) 2>/dev/null & done
sleep 0.2
curl -s -o /dev/null "$host/favicon.ico"
curl -s -o /dev/null "$base?code=planted&state=not-the-one"
"#,
            opened = opened.display(),
        ),
    );
    let started = Instant::now();
    let run = env.sandbox.run_with(
        &["--file", FILE, "login", "s", "--timeout", "30", "--json"],
        |cmd| {
            cmd.env("BROWSER", &script);
        },
    );
    // The idle connections were made (the script once dialled a port
    // with `/callback` still on it, and made none).
    let made = std::fs::read_to_string(&opened).unwrap_or_default();
    assert_eq!(
        made.lines().count(),
        idle,
        "idle connections made: {made:?}"
    );
    run.expect_code(0);
    assert_eq!(run.json()["signed_in"], true, "{run}");
    assert!(started.elapsed() < Duration::from_secs(20), "{run}");
    // The racing browser's idle connections (`sleep 15`) are its own.
    env.sandbox.end_processes();
}

/// A "browser" that first runs the bash lines `first` (with `$base` the
/// callback URL, `$host` its origin and `$state` the sign-in's real
/// `state`, URL-encoded, as anyone who reads the authorization URL from
/// the process list has it, and `$iss` the issuer the redirect names),
/// then follows the sign-in as browser.sh does.
fn racing_browser(env: &Env, first: &str) -> PathBuf {
    let script = env.sandbox.path("racing-browser.sh");
    std::fs::write(
        &script,
        format!(
            r#"#!/bin/bash
cb=$(curl -s -o /dev/null -w '%{{redirect_url}}' "$1")
base=${{cb%%\?*}}
host=${{base%/callback}}
param() {{ python3 -c 'import sys, urllib.parse as u; print(u.quote(u.parse_qs(u.urlparse(sys.argv[1]).query).get(sys.argv[2], [""])[0], safe=""))' "$1" "$2"; }}
state=$(param "$1" state)
iss=$(param "$cb" iss)
{first}
exec {} "$1"
"#,
            browser().display(),
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

/// Attack (second pass, issue 20, O1): a request to the loopback callback
/// with the REAL `state` (read from the authorization URL) and a planted
/// code, or with no code at all, aborted the sign-in: a local attacker
/// could keep a user from ever signing in. A planted code fails only at the
/// token exchange, so the listener keeps listening until the deadline and
/// the browser's redirect, which comes after, still signs in. (After the
/// fix: a replayed code is not exchanged again, a wrong `iss` or an empty
/// code is refused before any exchange, and a flood of twenty planted
/// codes at once does not keep the browser's out.)
#[test]
fn a_stray_redirect_with_the_real_state_does_not_end_the_sign_in() {
    let env = Env::new(&[]);
    env.add(&[]);
    let script = racing_browser(
        &env,
        r#"curl -s -o /dev/null "$base?code=planted&state=$state&iss=$iss"
for i in 1 2 3; do curl -s -o /dev/null "$base?code=planted&state=$state&iss=$iss"; done
curl -s -o /dev/null "$base?code=other&state=$state"
curl -s -o /dev/null "$base?state=$state&iss=$iss"
curl -s -o /dev/null "$base?code=&state=$state"
for i in $(seq 20); do curl -s -o /dev/null "$base?code=flood$i&state=$state&iss=$iss" & done
wait"#,
    );
    let started = Instant::now();
    let run = env.sandbox.run_with(
        &["--file", FILE, "login", "s", "--timeout", "30", "--json"],
        |cmd| {
            cmd.env("BROWSER", &script);
        },
    );
    run.expect_code(0);
    assert_eq!(run.json()["signed_in"], true, "{run}");
    assert!(started.elapsed() < Duration::from_secs(20), "{run}");
    // Each planted code was tried once (and refused) before the real one:
    // `planted` (not again when replayed), the flood's 20; `other`, with
    // no `iss`, never reached the token endpoint.
    let tokens = env.events_at("token");
    assert_eq!(tokens.len(), 22, "{tokens:?}");
    assert!(!run.to_string().contains("planted"), "{run}");
}

/// An `error` with the real `state` is the authorization server's answer
/// (RFC 6749 §4.1.2.1: the person declined, or the server refused): it
/// ends the sign-in at once, saying so, rather than waiting for a code
/// that will not come. (Anyone who can read the authorization URL can send
/// one too; nothing in the redirect tells them apart, and signing in again
/// is the remedy.)
#[test]
fn an_error_with_the_real_state_ends_the_sign_in() {
    let env = Env::new(&[]);
    env.add(&[]);
    let script = racing_browser(
        &env,
        r#"curl -s -o /dev/null "$base?error=access_denied&error_description=no%1b%5b2J&state=$state"
exit 0"#,
    );
    let started = Instant::now();
    let run = env
        .sandbox
        .run_with(&["--file", FILE, "login", "s", "--timeout", "30"], |cmd| {
            cmd.env("BROWSER", &script);
        });
    assert_ne!(run.code, 0, "{run}");
    assert!(run.stderr.contains("access_denied"), "{run}");
    assert!(!run.to_string().contains('\u{1b}'), "{run}");
    assert!(started.elapsed() < Duration::from_secs(20), "{run}");
    assert_eq!(env.token_count(), 0, "{run}");
}

/// `login` where there is nothing to sign in to says so in one line with
/// what to do: a stdio server, and a server that does not use OAuth (no
/// 401, no metadata) even when its entry says `auth: oauth`; no HTML page
/// is ever printed.
#[test]
fn login_without_oauth_says_so_in_one_line() {
    let sandbox = Sandbox::new();
    sandbox
        .run(&[
            "--file",
            FILE,
            "add",
            "--name",
            "local",
            "--no-check",
            "--command",
            "true",
        ])
        .expect_code(0);
    let run = sandbox.run(&["--file", FILE, "login", "local"]);
    run.expect_code(2).stderr_has("needs no sign-in");
    // A web server answering every path with an HTML 404 page.
    let (server, base) = html_server();
    let url = format!("{base}/mcp");
    sandbox
        .run(&[
            "--file", FILE, "add", "--name", "web", "--url", &url, "--auth", "oauth",
        ])
        .expect_code(0);
    let run = sandbox.run(&["--file", FILE, "login", "web", "--timeout", "20"]);
    run.expect_code(1)
        .stderr_has("does not ask for an OAuth sign-in")
        .stderr_has("HTTP 404");
    assert!(!run.stderr.contains('<'), "an HTML page was printed: {run}");
    assert!(!run.stderr.contains("mcpctl login web"), "{run}");
    assert!(run.stderr.lines().count() <= 2, "{run}");
    drop(server);
}

/// A loopback web server answering every request with an HTML 404 page.
fn html_server() -> (std::thread::JoinHandle<()>, String) {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let handle = std::thread::spawn(move || {
        for stream in listener.incoming().take(40) {
            let Ok(mut stream) = stream else { continue };
            let mut buf = [0u8; 8192];
            let _ = stream.read(&mut buf);
            let body = "<!DOCTYPE html>\n<html lang=\"en\">\n<head><title>Error</title></head>\n<body><pre>Cannot POST /register</pre></body>\n</html>\n";
            let _ = write!(
                stream,
                "HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    (handle, base)
}
