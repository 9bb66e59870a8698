//! The fixture server's OAuth 2.1 authorization server and protected MCP
//! endpoint (`--oauth`), driven with plain HTTP: discovery documents, the
//! authorization-code flow with PKCE, refresh with rotation, revocation,
//! client credentials (secrets and signed assertions), registration, client
//! ID metadata documents, step-up, and every misbehaving mode the client
//! tests rely on. Also the `tests/support/browser.sh` helper.

mod support;

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use reqwest::StatusCode;
use serde_json::{Value, json};
use support::{Background, http_fixture};

const VERIFIER: &str = "a-verifier-that-is-long-enough-for-pkce-0123456789";

fn http() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap()
}

/// `RequestBuilder::form` without reqwest's `form` feature (which the
/// crate does not enable).
trait FormPairs {
    fn form_pairs(self, pairs: &[(&str, &str)]) -> Self;
}

impl FormPairs for reqwest::RequestBuilder {
    fn form_pairs(self, pairs: &[(&str, &str)]) -> Self {
        let body = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(pairs)
            .finish();
        self.header("content-type", "application/x-www-form-urlencoded")
            .body(body)
    }
}

fn server(args: &[&str]) -> (Background, String) {
    let mut all = vec!["--oauth"];
    all.extend_from_slice(args);
    http_fixture(&all)
}

fn challenge(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(ring::digest::digest(
        &ring::digest::SHA256,
        verifier.as_bytes(),
    ))
}

fn fixture_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/oauth")
        .join(name)
}

async fn get_json(url: &str) -> (StatusCode, Value) {
    let resp = http().get(url).send().await.unwrap();
    let status = resp.status();
    (status, resp.json().await.unwrap_or(Value::Null))
}

/// GET the authorization endpoint; the redirect's query, or the status and
/// body when there was none.
async fn authorize(url: &str, params: &[(&str, &str)]) -> Result<HashMap<String, String>, String> {
    let mut url = url::Url::parse(url).unwrap();
    url.query_pairs_mut().extend_pairs(params);
    let resp = http().get(url).send().await.unwrap();
    if resp.status() != StatusCode::FOUND {
        return Err(format!("{} {}", resp.status(), resp.text().await.unwrap()));
    }
    let location = resp.headers()["location"].to_str().unwrap().to_string();
    Ok(url::Url::parse(&location)
        .unwrap()
        .query_pairs()
        .into_owned()
        .collect())
}

fn code_params<'a>(
    client_id: &'a str,
    redirect: &'a str,
    resource: &'a str,
) -> Vec<(&'a str, &'a str)> {
    vec![
        ("response_type", "code"),
        ("client_id", client_id),
        ("redirect_uri", redirect),
        ("state", "st-123"),
        ("resource", resource),
    ]
}

async fn post_form(url: &str, form: &[(&str, &str)]) -> (StatusCode, Value) {
    let resp = http().post(url).form_pairs(form).send().await.unwrap();
    let status = resp.status();
    (status, resp.json().await.unwrap_or(Value::Null))
}

/// A code for the public pre-registered client `pub`, by the full
/// authorization request.
async fn code_for(base: &str, client: &str, scope: Option<&str>) -> String {
    let resource = format!("{base}/mcp");
    let ch = challenge(VERIFIER);
    let mut params = code_params(client, "http://127.0.0.1:1234/callback", &resource);
    params.push(("code_challenge", &ch));
    params.push(("code_challenge_method", "S256"));
    if let Some(scope) = scope {
        params.push(("scope", scope));
    }
    let q = authorize(&format!("{base}/as/authorize"), &params)
        .await
        .unwrap();
    assert_eq!(q.get("state").map(String::as_str), Some("st-123"), "{q:?}");
    assert_eq!(q.get("iss"), Some(&format!("{base}/as")), "{q:?}");
    q.get("code")
        .unwrap_or_else(|| panic!("no code: {q:?}"))
        .clone()
}

async fn exchange(base: &str, client: &str, code: &str) -> (StatusCode, Value) {
    let resource = format!("{base}/mcp");
    post_form(
        &format!("{base}/as/token"),
        &[
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", "http://127.0.0.1:1234/callback"),
            ("code_verifier", VERIFIER),
            ("client_id", client),
            ("resource", &resource),
        ],
    )
    .await
}

async fn signed_in(base: &str, scope: Option<&str>) -> Value {
    let code = code_for(base, "pub", scope).await;
    let (status, body) = exchange(base, "pub", &code).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

/// POST one JSON-RPC message to /mcp.
async fn mcp(
    base: &str,
    token: Option<&str>,
    session: Option<&str>,
    body: &str,
) -> reqwest::Response {
    let mut req = http()
        .post(format!("{base}/mcp"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body.to_string());
    if let Some(token) = token {
        req = req.bearer_auth(token);
    }
    if let Some(session) = session {
        req = req
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", "2025-11-25");
    }
    req.send().await.unwrap()
}

fn www_auth(resp: &reqwest::Response) -> String {
    resp.headers()
        .get("www-authenticate")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default()
}

/// Initialize a session and call `echo`; the call's status and body.
async fn call_echo(base: &str, token: &str) -> (StatusCode, String, String) {
    let init = mcp(base, Some(token), None, INITIALIZE).await;
    assert_eq!(init.status(), StatusCode::OK, "{}", www_auth(&init));
    let session = init.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_string();
    let _ = init.text().await;
    let note = mcp(
        base,
        Some(token),
        Some(&session),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    )
    .await;
    assert!(note.status().is_success(), "{}", note.status());
    let call = mcp(
        base,
        Some(token),
        Some(&session),
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}"#,
    )
    .await;
    let (status, header) = (call.status(), www_auth(&call));
    (status, header, call.text().await.unwrap())
}

async fn events(base: &str) -> Vec<Value> {
    let (status, log) = get_json(&format!("{base}/debug/oauth/log")).await;
    assert_eq!(status, StatusCode::OK);
    log.as_array().unwrap().clone()
}

#[tokio::test]
async fn discovery_documents_from_the_challenge() {
    let (_srv, base) = server(&[]);
    let resp = mcp(&base, None, None, INITIALIZE).await;
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        www_auth(&resp),
        format!(
            r#"Bearer resource_metadata="{base}/.well-known/oauth-protected-resource/mcp", scope="mcp:read""#
        )
    );
    let (status, prm) = get_json(&format!("{base}/.well-known/oauth-protected-resource/mcp")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(prm["resource"], json!(format!("{base}/mcp")));
    assert_eq!(prm["authorization_servers"], json!([format!("{base}/as")]));
    assert_eq!(prm["scopes_supported"], json!(["mcp:read", "mcp:write"]));
    let (status, _) = get_json(&format!("{base}/.well-known/oauth-protected-resource")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let (status, meta) =
        get_json(&format!("{base}/.well-known/oauth-authorization-server/as")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(meta["issuer"], json!(format!("{base}/as")));
    assert_eq!(
        meta["authorization_endpoint"],
        json!(format!("{base}/as/authorize"))
    );
    assert_eq!(meta["token_endpoint"], json!(format!("{base}/as/token")));
    assert_eq!(
        meta["registration_endpoint"],
        json!(format!("{base}/as/register"))
    );
    assert_eq!(
        meta["revocation_endpoint"],
        json!(format!("{base}/as/revoke"))
    );
    assert_eq!(meta["code_challenge_methods_supported"], json!(["S256"]));
    assert_eq!(
        meta["authorization_response_iss_parameter_supported"],
        json!(true)
    );
    assert_eq!(
        meta["token_endpoint_auth_methods_supported"],
        json!([
            "none",
            "client_secret_basic",
            "client_secret_post",
            "private_key_jwt"
        ])
    );
    assert!(
        meta["grant_types_supported"]
            .as_array()
            .unwrap()
            .contains(&json!("client_credentials"))
    );
    assert!(meta.get("client_id_metadata_document_supported").is_none());
    for path in [
        "/.well-known/openid-configuration/as",
        "/as/.well-known/openid-configuration",
    ] {
        let (status, oidc) = get_json(&format!("{base}{path}")).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(oidc["issuer"], json!(format!("{base}/as")), "{path}");
        assert_eq!(oidc["subject_types_supported"], json!(["public"]), "{path}");
    }
    // A path issuer: nothing at the root.
    for path in [
        "/.well-known/oauth-authorization-server",
        "/authorize",
        "/token",
    ] {
        let resp = http().get(format!("{base}{path}")).send().await.unwrap();
        assert_eq!(resp.status(), StatusCode::NOT_FOUND, "{path}");
    }
}

#[tokio::test]
async fn metadata_modes() {
    let (_srv, base) = server(&["--oauth-oidc-only"]);
    assert_eq!(
        get_json(&format!("{base}/.well-known/oauth-authorization-server/as"))
            .await
            .0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        get_json(&format!("{base}/.well-known/openid-configuration/as"))
            .await
            .0,
        StatusCode::OK
    );

    let (_srv, base) = server(&[
        "--oauth-rfc8414-only",
        "--oauth-wrong-issuer",
        "--oauth-no-dcr",
        "--oauth-cimd",
        "--oauth-no-scopes-supported",
        "--oauth-auth-methods",
        "client_secret_post",
    ]);
    assert_eq!(
        get_json(&format!("{base}/.well-known/openid-configuration/as"))
            .await
            .0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        get_json(&format!("{base}/as/.well-known/openid-configuration"))
            .await
            .0,
        StatusCode::NOT_FOUND
    );
    let (status, meta) =
        get_json(&format!("{base}/.well-known/oauth-authorization-server/as")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(meta["issuer"], json!(format!("{base}/evil")));
    assert!(meta.get("registration_endpoint").is_none(), "{meta}");
    assert!(meta.get("scopes_supported").is_none(), "{meta}");
    assert_eq!(meta["client_id_metadata_document_supported"], json!(true));
    assert_eq!(
        meta["token_endpoint_auth_methods_supported"],
        json!(["client_secret_post"])
    );
    let (_, prm) = get_json(&format!("{base}/.well-known/oauth-protected-resource/mcp")).await;
    assert!(prm.get("scopes_supported").is_none(), "{prm}");
    let (status, _) = post_form(&format!("{base}/as/register"), &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn protected_resource_metadata_modes() {
    let (_srv, base) = server(&["--oauth-prm-root"]);
    let resp = mcp(&base, None, None, INITIALIZE).await;
    assert!(www_auth(&resp).contains(&format!(
        r#"resource_metadata="{base}/.well-known/oauth-protected-resource""#
    )));
    assert_eq!(
        get_json(&format!("{base}/.well-known/oauth-protected-resource"))
            .await
            .0,
        StatusCode::OK
    );
    assert_eq!(
        get_json(&format!("{base}/.well-known/oauth-protected-resource/mcp"))
            .await
            .0,
        StatusCode::NOT_FOUND
    );

    let (_srv, base) = server(&[
        "--oauth-no-prm-header",
        "--oauth-no-scope-header",
        "--oauth-prm-resource",
        "https://elsewhere.example/mcp",
    ]);
    let resp = mcp(&base, None, None, INITIALIZE).await;
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(www_auth(&resp), "Bearer");
    let (_, prm) = get_json(&format!("{base}/.well-known/oauth-protected-resource/mcp")).await;
    assert_eq!(prm["resource"], json!("https://elsewhere.example/mcp"));
}

#[tokio::test]
async fn code_flow_with_pkce_refresh_rotation_and_revocation() {
    let (_srv, base) = server(&["--oauth-client", "pub"]);
    // A wrong verifier is refused, and burns the code.
    let code = code_for(&base, "pub", None).await;
    let resource = format!("{base}/mcp");
    let (status, body) = post_form(
        &format!("{base}/as/token"),
        &[
            ("grant_type", "authorization_code"),
            ("code", &code),
            ("redirect_uri", "http://127.0.0.1:1234/callback"),
            (
                "code_verifier",
                "another-verifier-that-is-long-enough-for-pkce-000",
            ),
            ("client_id", "pub"),
            ("resource", &resource),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"], json!("invalid_grant"));
    assert_eq!(
        exchange(&base, "pub", &code).await.1["error"],
        json!("invalid_grant")
    );
    // Without resource on the token request: refused.
    let code = code_for(&base, "pub", None).await;
    let (status, body) = post_form(
        &format!("{base}/as/token"),
        &[
            ("grant_type", "authorization_code"),
            ("code", &code),
            ("redirect_uri", "http://127.0.0.1:1234/callback"),
            ("code_verifier", VERIFIER),
            ("client_id", "pub"),
        ],
    )
    .await;
    assert_eq!(
        (status, body["error"].clone()),
        (StatusCode::BAD_REQUEST, json!("invalid_target"))
    );

    let tokens = signed_in(&base, None).await;
    assert_eq!(tokens["token_type"], json!("Bearer"));
    assert_eq!(tokens["scope"], json!("mcp:read"));
    assert_eq!(tokens["expires_in"], json!(3600));
    let access = tokens["access_token"].as_str().unwrap();
    let refresh = tokens["refresh_token"].as_str().unwrap();
    let (status, _, text) = call_echo(&base, access).await;
    assert_eq!(status, StatusCode::OK);
    assert!(text.contains("Echo: hi"), "{text}");
    let bad = mcp(&base, Some("not-a-token"), None, INITIALIZE).await;
    assert_eq!(bad.status(), StatusCode::UNAUTHORIZED);
    assert!(
        www_auth(&bad).starts_with(r#"Bearer error="invalid_token", resource_metadata="#),
        "{}",
        www_auth(&bad)
    );

    let token_url = format!("{base}/as/token");
    let (status, fresh) = post_form(
        &token_url,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh),
            ("client_id", "pub"),
            ("resource", &resource),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{fresh}");
    let new_refresh = fresh["refresh_token"].as_str().unwrap();
    assert_ne!(new_refresh, refresh);
    // Rotation: the old refresh token is spent.
    let (status, again) = post_form(
        &token_url,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh),
            ("client_id", "pub"),
        ],
    )
    .await;
    assert_eq!(
        (status, again["error"].clone()),
        (StatusCode::BAD_REQUEST, json!("invalid_grant"))
    );
    let new_access = fresh["access_token"].as_str().unwrap();
    assert_eq!(
        mcp(&base, Some(new_access), None, INITIALIZE)
            .await
            .status(),
        StatusCode::OK
    );

    // Revoking the refresh token ends the grant's access tokens too.
    let resp = http()
        .post(format!("{base}/as/revoke"))
        .form_pairs(&[
            ("token", new_refresh),
            ("token_type_hint", "refresh_token"),
            ("client_id", "pub"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(
        mcp(&base, Some(new_access), None, INITIALIZE)
            .await
            .status(),
        StatusCode::UNAUTHORIZED
    );
    let (_, after) = post_form(
        &token_url,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", new_refresh),
            ("client_id", "pub"),
        ],
    )
    .await;
    assert_eq!(after["error"], json!("invalid_grant"));
    // Revoking an access token alone.
    let other = signed_in(&base, Some("mcp:read mcp:write")).await;
    let other_access = other["access_token"].as_str().unwrap();
    assert_eq!(
        mcp(&base, Some(other_access), None, INITIALIZE)
            .await
            .status(),
        StatusCode::OK
    );
    http()
        .post(format!("{base}/as/revoke"))
        .form_pairs(&[("token", other_access), ("client_id", "pub")])
        .send()
        .await
        .unwrap();
    assert_eq!(
        mcp(&base, Some(other_access), None, INITIALIZE)
            .await
            .status(),
        StatusCode::UNAUTHORIZED
    );

    let log = events(&base).await;
    let token_events: Vec<&Value> = log
        .iter()
        .filter(|e| e["endpoint"] == "token" && e["result"] == "ok")
        .collect();
    assert!(
        token_events
            .iter()
            .any(|e| e["grant_type"] == "authorization_code"
                && e["pkce"] == "verified"
                && e["auth_method"] == "none")
    );
    assert!(
        log.iter()
            .any(|e| e["endpoint"] == "revoke" && e["kind"] == "refresh")
    );
    assert!(
        log.iter()
            .any(|e| e["endpoint"] == "revoke" && e["kind"] == "access")
    );
    let text = serde_json::to_string(&log).unwrap();
    for secret in [access, refresh, new_refresh, new_access, VERIFIER, &code] {
        assert!(!text.contains(secret), "the log holds a secret");
    }
}

#[tokio::test]
async fn authorization_request_refusals() {
    let (_srv, base) = server(&["--oauth-client", "pub"]);
    let url = format!("{base}/as/authorize");
    let resource = format!("{base}/mcp");
    let ch = challenge(VERIFIER);
    let good = |extra: &[(&'static str, &'static str)]| {
        let mut p: Vec<(String, String)> = vec![
            ("response_type".into(), "code".into()),
            ("client_id".into(), "pub".into()),
            ("redirect_uri".into(), "http://127.0.0.1:9/cb".into()),
            ("state".into(), "s1".into()),
            ("resource".into(), resource.clone()),
            ("code_challenge".into(), ch.clone()),
            ("code_challenge_method".into(), "S256".into()),
        ];
        for (k, v) in extra {
            p.retain(|(pk, _)| pk.as_str() != *k);
            if !v.is_empty() {
                p.push((k.to_string(), v.to_string()));
            }
        }
        p
    };
    let run = |p: Vec<(String, String)>| {
        let url = url.clone();
        async move {
            let pairs: Vec<(&str, &str)> =
                p.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            authorize(&url, &pairs).await
        }
    };
    let ok = run(good(&[])).await.unwrap();
    assert!(ok.contains_key("code"), "{ok:?}");
    for (extra, error) in [
        (vec![("code_challenge", "")], "invalid_request"),
        (vec![("code_challenge_method", "plain")], "invalid_request"),
        (vec![("resource", "")], "invalid_target"),
        (
            vec![("resource", "http://127.0.0.1:1/mcp")],
            "invalid_target",
        ),
        (
            vec![("response_type", "token")],
            "unsupported_response_type",
        ),
        (vec![("scope", "root")], "invalid_scope"),
    ] {
        let q = run(good(&extra)).await.unwrap();
        assert_eq!(
            q.get("error").map(String::as_str),
            Some(error),
            "{extra:?}: {q:?}"
        );
        assert!(!q.contains_key("code"), "{q:?}");
        assert_eq!(q.get("state").map(String::as_str), Some("s1"));
    }
    // No redirect to an untrusted place: 400 at the server.
    for extra in [
        vec![("redirect_uri", "https://evil.example/cb")],
        vec![("redirect_uri", "")],
        vec![("client_id", "stranger")],
        vec![("client_id", "http://127.0.0.1:1/cimd.json")],
    ] {
        let err = run(good(&extra)).await.unwrap_err();
        assert!(err.starts_with("400"), "{extra:?}: {err}");
    }
}

#[tokio::test]
async fn bad_state_mode_answers_another_state() {
    let (_srv, base) = server(&["--oauth-client", "pub", "--oauth-bad-state"]);
    let ch = challenge(VERIFIER);
    let resource = format!("{base}/mcp");
    let mut params = code_params("pub", "http://127.0.0.1:1234/callback", &resource);
    params.extend([
        ("code_challenge", ch.as_str()),
        ("code_challenge_method", "S256"),
    ]);
    let q = authorize(&format!("{base}/as/authorize"), &params)
        .await
        .unwrap();
    assert!(q.contains_key("code"));
    assert_ne!(q.get("state").map(String::as_str), Some("st-123"));
}

fn basic(id: &str, secret: &str) -> String {
    format!("Basic {}", STANDARD.encode(format!("{id}:{secret}")))
}

#[tokio::test]
async fn client_secrets_and_client_credentials() {
    let (_srv, base) = server(&["--oauth-client", "ci:s3cret", "--oauth-client", "pub"]);
    let token_url = format!("{base}/as/token");
    let resource = format!("{base}/mcp");
    let cc = [
        ("grant_type", "client_credentials"),
        ("resource", resource.as_str()),
    ];
    let resp = http()
        .post(&token_url)
        .header("authorization", basic("ci", "s3cret"))
        .form_pairs(&cc)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let body: Value = resp.json().await.unwrap();
    assert!(body.get("refresh_token").is_none(), "{body}");
    let token = body["access_token"].as_str().unwrap().to_string();
    assert_eq!(
        mcp(&base, Some(&token), None, INITIALIZE).await.status(),
        StatusCode::OK
    );

    let (status, body) = post_form(
        &token_url,
        &[
            cc[0],
            cc[1],
            ("client_id", "ci"),
            ("client_secret", "s3cret"),
            ("scope", "mcp:read mcp:write"),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["scope"], json!("mcp:read mcp:write"));

    let resp = http()
        .post(&token_url)
        .header("authorization", basic("ci", "wrong"))
        .form_pairs(&cc)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        resp.json::<Value>().await.unwrap()["error"],
        json!("invalid_client")
    );
    // A confidential client must authenticate; a public one cannot use the grant.
    let (status, body) = post_form(&token_url, &[cc[0], ("client_id", "ci")]).await;
    assert_eq!(
        (status, body["error"].clone()),
        (StatusCode::UNAUTHORIZED, json!("invalid_client"))
    );
    let (status, body) = post_form(&token_url, &[cc[0], ("client_id", "pub")]).await;
    assert_eq!(
        (status, body["error"].clone()),
        (StatusCode::BAD_REQUEST, json!("unauthorized_client"))
    );
    // Two methods at once.
    let resp = http()
        .post(&token_url)
        .header("authorization", basic("ci", "s3cret"))
        .form_pairs(&[cc[0], ("client_secret", "s3cret")])
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::BAD_REQUEST);

    let log = events(&base).await;
    let methods: Vec<&Value> = log
        .iter()
        .filter(|e| e["endpoint"] == "token" && e["result"] == "ok")
        .map(|e| &e["auth_method"])
        .collect();
    assert_eq!(
        methods,
        [&json!("client_secret_basic"), &json!("client_secret_post")]
    );

    // Only the advertised methods are accepted.
    let (_srv, base) = server(&[
        "--oauth-client",
        "ci:s3cret",
        "--oauth-auth-methods",
        "client_secret_post",
    ]);
    let resp = http()
        .post(format!("{base}/as/token"))
        .header("authorization", basic("ci", "s3cret"))
        .form_pairs(&cc[..1])
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    let (status, _) = post_form(
        &format!("{base}/as/token"),
        &[cc[0], ("client_id", "ci"), ("client_secret", "s3cret")],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
}

/// A signed client assertion (RFC 7523) by the PKCS#8 PEM key `pem`.
fn assertion(pem_file: &str, alg: &str, kid: &str, sub: &str, aud: &str, jti: &str) -> String {
    let pem = std::fs::read_to_string(fixture_file(pem_file)).unwrap();
    let der: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
    let der = STANDARD.decode(der).unwrap();
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let head = URL_SAFE_NO_PAD.encode(json!({"alg": alg, "typ": "JWT", "kid": kid}).to_string());
    let claims = URL_SAFE_NO_PAD.encode(
        json!({"iss": sub, "sub": sub, "aud": aud, "jti": jti, "iat": now, "exp": now + 60})
            .to_string(),
    );
    let message = format!("{head}.{claims}");
    let rng = ring::rand::SystemRandom::new();
    let sig = if alg == "ES256" {
        let key = ring::signature::EcdsaKeyPair::from_pkcs8(
            &ring::signature::ECDSA_P256_SHA256_FIXED_SIGNING,
            &der,
            &rng,
        )
        .unwrap();
        key.sign(&rng, message.as_bytes())
            .unwrap()
            .as_ref()
            .to_vec()
    } else {
        let key = ring::signature::RsaKeyPair::from_pkcs8(&der).unwrap();
        let mut sig = vec![0; key.public().modulus_len()];
        key.sign(
            &ring::signature::RSA_PKCS1_SHA256,
            &rng,
            message.as_bytes(),
            &mut sig,
        )
        .unwrap();
        sig
    };
    format!("{message}.{}", URL_SAFE_NO_PAD.encode(sig))
}

#[tokio::test]
async fn private_key_jwt_client_credentials() {
    let jwks = fixture_file("jwks.json");
    let (_srv, base) = server(&[
        "--oauth-client",
        "machine",
        "--oauth-client-jwks",
        jwks.to_str().unwrap(),
    ]);
    let token_url = format!("{base}/as/token");
    let kind = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
    for (pem, alg, kid) in [
        ("es256.pem", "ES256", "es256"),
        ("rs256.pem", "RS256", "rs256"),
    ] {
        let jwt = assertion(pem, alg, kid, "machine", &token_url, &format!("jti-{alg}"));
        let form = [
            ("grant_type", "client_credentials"),
            ("client_assertion_type", kind),
            ("client_assertion", jwt.as_str()),
            ("client_id", "machine"),
        ];
        let (status, body) = post_form(&token_url, &form).await;
        assert_eq!(status, StatusCode::OK, "{alg}: {body}");
        // The same jti again: a replay.
        let (status, body) = post_form(&token_url, &form).await;
        assert_eq!(
            (status, body["error"].clone()),
            (StatusCode::UNAUTHORIZED, json!("invalid_client")),
            "{alg}"
        );
    }
    // The issuer is an accepted audience too; a key's kid must match.
    let jwt = assertion(
        "es256.pem",
        "ES256",
        "es256",
        "machine",
        &format!("{base}/as"),
        "jti-iss",
    );
    let (status, _) = post_form(
        &token_url,
        &[
            ("grant_type", "client_credentials"),
            ("client_assertion_type", kind),
            ("client_assertion", &jwt),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    for (jwt, why) in [
        (
            assertion(
                "es256.pem",
                "ES256",
                "rs256",
                "machine",
                &token_url,
                "jti-1",
            ),
            "wrong kid",
        ),
        (
            assertion(
                "rs256.pem",
                "RS256",
                "rs256",
                "machine",
                "https://other.example/token",
                "jti-2",
            ),
            "wrong aud",
        ),
        (
            assertion(
                "rs256.pem",
                "RS256",
                "rs256",
                "someone",
                &token_url,
                "jti-3",
            ),
            "unknown sub",
        ),
    ] {
        let (status, body) = post_form(
            &token_url,
            &[
                ("grant_type", "client_credentials"),
                ("client_assertion_type", kind),
                ("client_assertion", &jwt),
            ],
        )
        .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{why}: {body}");
    }
    // A signature by a key the server does not know.
    let rng = ring::rand::SystemRandom::new();
    let stranger = ring::signature::EcdsaKeyPair::generate_pkcs8(
        &ring::signature::ECDSA_P256_SHA256_FIXED_SIGNING,
        &rng,
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let pem = format!(
        "-----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY-----\n",
        STANDARD.encode(stranger.as_ref())
    );
    let path = dir.path().join("stranger.pem");
    std::fs::write(&path, pem).unwrap();
    let jwt = assertion(
        path.to_str().unwrap(),
        "ES256",
        "es256",
        "machine",
        &token_url,
        "jti-4",
    );
    let (status, _) = post_form(
        &token_url,
        &[
            ("grant_type", "client_credentials"),
            ("client_assertion_type", kind),
            ("client_assertion", &jwt),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let log = events(&base).await;
    assert_eq!(
        log.iter()
            .filter(|e| e["auth_method"] == "private_key_jwt" && e["result"] == "ok")
            .count(),
        3
    );
}

#[tokio::test]
async fn dynamic_client_registration() {
    let (_srv, base) = server(&[]);
    let reg = http()
        .post(format!("{base}/as/register"))
        .json(&json!({"client_name": "mcpctl", "application_type": "native", "redirect_uris": ["http://127.0.0.1/callback"],
                      "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"], "token_endpoint_auth_method": "none"}))
        .send().await.unwrap();
    assert_eq!(reg.status(), StatusCode::CREATED);
    let reg: Value = reg.json().await.unwrap();
    let id = reg["client_id"].as_str().unwrap();
    assert!(reg.get("client_secret").is_none(), "{reg}");
    let (_, clients) = get_json(&format!("{base}/debug/oauth/clients")).await;
    let mine = clients
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["client_id"] == json!(id))
        .unwrap();
    assert_eq!(mine["metadata"]["application_type"], json!("native"));
    assert_eq!(
        mine["grant_types"],
        json!(["authorization_code", "refresh_token"])
    );
    let log = events(&base).await;
    assert!(
        log.iter()
            .any(|e| e["endpoint"] == "register"
                && e["registration"]["application_type"] == "native")
    );

    // Its redirect URI, on any port; not another path.
    let resource = format!("{base}/mcp");
    let ch = challenge(VERIFIER);
    let mut params = code_params(id, "http://127.0.0.1:4321/callback", &resource);
    params.extend([
        ("code_challenge", ch.as_str()),
        ("code_challenge_method", "S256"),
    ]);
    let q = authorize(&format!("{base}/as/authorize"), &params)
        .await
        .unwrap();
    let (status, tokens) = post_form(
        &format!("{base}/as/token"),
        &[
            ("grant_type", "authorization_code"),
            ("code", &q["code"]),
            ("redirect_uri", "http://127.0.0.1:4321/callback"),
            ("code_verifier", VERIFIER),
            ("client_id", id),
            ("resource", &resource),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{tokens}");
    assert!(tokens["refresh_token"].is_string());
    params[2] = ("redirect_uri", "http://127.0.0.1:4321/other");
    assert!(
        authorize(&format!("{base}/as/authorize"), &params)
            .await
            .unwrap_err()
            .starts_with("400")
    );

    // Without refresh_token among its grant types, no refresh token.
    let reg: Value = http().post(format!("{base}/as/register"))
        .json(&json!({"redirect_uris": ["http://127.0.0.1/cb"], "token_endpoint_auth_method": "client_secret_post"}))
        .send().await.unwrap().json().await.unwrap();
    let (id, secret) = (
        reg["client_id"].as_str().unwrap(),
        reg["client_secret"].as_str().unwrap(),
    );
    let mut params = code_params(id, "http://127.0.0.1:5/cb", &resource);
    params.extend([
        ("code_challenge", ch.as_str()),
        ("code_challenge_method", "S256"),
    ]);
    let q = authorize(&format!("{base}/as/authorize"), &params)
        .await
        .unwrap();
    let (status, tokens) = post_form(
        &format!("{base}/as/token"),
        &[
            ("grant_type", "authorization_code"),
            ("code", &q["code"]),
            ("redirect_uri", "http://127.0.0.1:5/cb"),
            ("code_verifier", VERIFIER),
            ("client_id", id),
            ("client_secret", secret),
            ("resource", &resource),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{tokens}");
    assert!(tokens.get("refresh_token").is_none(), "{tokens}");

    for bad in [
        json!({"redirect_uris": ["http://evil.example/cb"]}),
        json!({"redirect_uris": []}),
        json!("x"),
        json!({"redirect_uris": ["http://127.0.0.1/cb"], "token_endpoint_auth_method": "private_key_jwt"}),
    ] {
        let resp = http()
            .post(format!("{base}/as/register"))
            .json(&bad)
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::BAD_REQUEST, "{bad}");
    }
}

#[tokio::test]
async fn client_id_metadata_documents() {
    let (_srv, base) = server(&["--oauth-cimd"]);
    let doc_url = format!("{base}/cimd/mcpctl.json");
    let (_, doc) = get_json(&doc_url).await;
    assert_eq!(doc["client_id"], json!(doc_url));
    assert_eq!(doc["redirect_uris"], json!(["http://127.0.0.1/callback"]));
    let resource = format!("{base}/mcp");
    let ch = challenge(VERIFIER);
    let mut params = code_params(&doc_url, "http://127.0.0.1:1234/callback", &resource);
    params.extend([
        ("code_challenge", ch.as_str()),
        ("code_challenge_method", "S256"),
    ]);
    let q = authorize(&format!("{base}/as/authorize"), &params)
        .await
        .unwrap();
    let (status, tokens) = exchange(&base, &doc_url, &q["code"]).await;
    assert_eq!(status, StatusCode::OK, "{tokens}");
    let log = events(&base).await;
    assert!(log.iter().any(|e| e["endpoint"] == "authorize"
        && e["client_kind"] == "cimd"
        && e["result"] == "ok"));
    params[2] = ("redirect_uri", "http://127.0.0.1:1234/elsewhere");
    assert!(
        authorize(&format!("{base}/as/authorize"), &params)
            .await
            .unwrap_err()
            .starts_with("400")
    );
    // A document that is not there.
    params[1] = ("client_id", "http://127.0.0.1:1/nothing.json");
    assert!(
        authorize(&format!("{base}/as/authorize"), &params)
            .await
            .unwrap_err()
            .starts_with("400")
    );

    let (_srv, base) = server(&[
        "--oauth-cimd",
        "--oauth-cimd-redirect-uri",
        "http://127.0.0.1/oauth/cb",
    ]);
    let (_, doc) = get_json(&format!("{base}/cimd/mcpctl.json")).await;
    assert_eq!(doc["redirect_uris"], json!(["http://127.0.0.1/oauth/cb"]));
}

#[tokio::test]
async fn expired_tokens_are_refused() {
    let (_srv, base) = server(&["--oauth-client", "pub", "--oauth-token-ttl", "1"]);
    let tokens = signed_in(&base, None).await;
    assert_eq!(tokens["expires_in"], json!(1));
    let access = tokens["access_token"].as_str().unwrap();
    assert_eq!(
        mcp(&base, Some(access), None, INITIALIZE).await.status(),
        StatusCode::OK
    );
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let resp = mcp(&base, Some(access), None, INITIALIZE).await;
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    assert!(www_auth(&resp).contains(r#"error="invalid_token""#));
}

#[tokio::test]
async fn step_up_on_a_tool_call() {
    let (_srv, base) = server(&[
        "--oauth-client",
        "pub",
        "--oauth-required-scope",
        "mcp:tools",
    ]);
    let (_, meta) = get_json(&format!("{base}/.well-known/oauth-authorization-server/as")).await;
    assert_eq!(
        meta["scopes_supported"],
        json!(["mcp:read", "mcp:write", "mcp:tools"])
    );
    let tokens = signed_in(&base, Some("mcp:read")).await;
    let (status, header, _) = call_echo(&base, tokens["access_token"].as_str().unwrap()).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(
        header,
        format!(
            r#"Bearer error="insufficient_scope", resource_metadata="{base}/.well-known/oauth-protected-resource/mcp", scope="mcp:read mcp:tools""#
        )
    );
    let tokens = signed_in(&base, Some("mcp:read mcp:tools")).await;
    let (status, _, text) = call_echo(&base, tokens["access_token"].as_str().unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    assert!(text.contains("Echo: hi"), "{text}");
}

#[tokio::test]
async fn broken_token_endpoint_modes() {
    let (_srv, base) = server(&["--oauth-client", "pub", "--oauth-refresh-fails"]);
    let tokens = signed_in(&base, None).await;
    let (status, body) = post_form(
        &format!("{base}/as/token"),
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", tokens["refresh_token"].as_str().unwrap()),
            ("client_id", "pub"),
        ],
    )
    .await;
    assert_eq!(
        (status, body["error"].clone()),
        (StatusCode::BAD_REQUEST, json!("invalid_grant"))
    );

    let (_srv, base) = server(&["--oauth-client", "pub", "--oauth-no-access-token"]);
    let code = code_for(&base, "pub", None).await;
    let (status, body) = exchange(&base, "pub", &code).await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.get("access_token").is_none(), "{body}");
    assert_eq!(body["token_type"], json!("Bearer"));

    let (_srv, base) = server(&["--oauth-client", "pub", "--oauth-hang-token"]);
    let code = code_for(&base, "pub", None).await;
    let started = std::time::Instant::now();
    let err = http()
        .post(format!("{base}/as/token"))
        .timeout(Duration::from_secs(2))
        .form_pairs(&[("grant_type", "authorization_code"), ("code", &code)])
        .send()
        .await
        .unwrap_err();
    assert!(err.is_timeout(), "{err}");
    assert!(started.elapsed() >= Duration::from_secs(2));
}

#[tokio::test]
async fn legacy_shapes() {
    let (_srv, base) = server(&["--oauth-legacy", "--oauth-client", "pub"]);
    let resp = mcp(&base, None, None, INITIALIZE).await;
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(www_auth(&resp), r#"Bearer scope="mcp:read""#);
    assert_eq!(
        get_json(&format!("{base}/.well-known/oauth-protected-resource/mcp"))
            .await
            .0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        get_json(&format!("{base}/.well-known/oauth-authorization-server/as"))
            .await
            .0,
        StatusCode::NOT_FOUND
    );
    let (status, meta) = get_json(&format!("{base}/.well-known/oauth-authorization-server")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(meta["issuer"], json!(base));
    assert_eq!(meta["token_endpoint"], json!(format!("{base}/token")));
    // No resource parameter in that era.
    let ch = challenge(VERIFIER);
    let params = [
        ("response_type", "code"),
        ("client_id", "pub"),
        ("redirect_uri", "http://127.0.0.1:7/cb"),
        ("code_challenge", ch.as_str()),
        ("code_challenge_method", "S256"),
    ];
    let q = authorize(&format!("{base}/authorize"), &params)
        .await
        .unwrap();
    assert_eq!(q.get("iss"), Some(&base));
    let (status, tokens) = post_form(
        &format!("{base}/token"),
        &[
            ("grant_type", "authorization_code"),
            ("code", &q["code"]),
            ("redirect_uri", "http://127.0.0.1:7/cb"),
            ("code_verifier", VERIFIER),
            ("client_id", "pub"),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{tokens}");
    assert_eq!(
        mcp(&base, tokens["access_token"].as_str(), None, INITIALIZE)
            .await
            .status(),
        StatusCode::OK
    );

    let (_srv, base) = server(&["--oauth-legacy-no-metadata"]);
    assert_eq!(
        get_json(&format!("{base}/.well-known/oauth-authorization-server"))
            .await
            .0,
        StatusCode::NOT_FOUND
    );
    let reg = http().post(format!("{base}/register")).json(&json!({"redirect_uris": ["http://127.0.0.1/cb"], "token_endpoint_auth_method": "none"})).send().await.unwrap();
    assert_eq!(reg.status(), StatusCode::CREATED);
    let id = reg.json::<Value>().await.unwrap()["client_id"]
        .as_str()
        .unwrap()
        .to_string();
    let params = [
        ("response_type", "code"),
        ("client_id", id.as_str()),
        ("redirect_uri", "http://127.0.0.1:7/cb"),
        ("code_challenge", ch.as_str()),
        ("code_challenge_method", "S256"),
    ];
    let q = authorize(&format!("{base}/authorize"), &params)
        .await
        .unwrap();
    assert!(q.contains_key("code") && !q.contains_key("iss"), "{q:?}");
}

#[tokio::test]
async fn scopes_without_supported_list() {
    let (_srv, base) = server(&[
        "--oauth-client",
        "pub",
        "--oauth-no-scopes-supported",
        "--oauth-no-scope-header",
    ]);
    let resp = mcp(&base, None, None, INITIALIZE).await;
    assert_eq!(
        www_auth(&resp),
        format!(r#"Bearer resource_metadata="{base}/.well-known/oauth-protected-resource/mcp""#)
    );
    // Omitted scope: the default one is granted.
    let tokens = signed_in(&base, None).await;
    assert_eq!(tokens["scope"], json!("mcp:read"));
    let events = events(&base).await;
    let auth = events
        .iter()
        .find(|e| e["endpoint"] == "authorize")
        .unwrap();
    assert_eq!(auth["scope"], Value::Null);
}

#[tokio::test]
async fn request_log_file() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("oauth.jsonl");
    let (_srv, base) = server(&[
        "--oauth-client",
        "pub",
        "--oauth-log",
        log.to_str().unwrap(),
    ]);
    let tokens = signed_in(&base, Some("mcp:read")).await;
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let token = lines.iter().find(|e| e["endpoint"] == "token").unwrap();
    assert_eq!(token["grant_type"], json!("authorization_code"));
    assert_eq!(token["pkce"], json!("verified"));
    assert_eq!(token["resource"], json!(format!("{base}/mcp")));
    assert_eq!(token["granted_scope"], json!("mcp:read"));
    assert!(!text.contains(tokens["access_token"].as_str().unwrap()));
}

/// The `BROWSER` helper follows the authorization redirect to the loopback
/// listener, and records the URL it was given.
#[tokio::test]
async fn browser_helper_completes_the_redirect() {
    let (_srv, base) = server(&["--oauth-client", "pub"]);
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let got = std::thread::spawn(move || {
        use std::io::{BufRead, BufReader, Write};
        let (mut stream, _) = listener.accept().unwrap();
        let mut line = String::new();
        BufReader::new(stream.try_clone().unwrap())
            .read_line(&mut line)
            .unwrap();
        stream
            .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
            .unwrap();
        line
    });
    let redirect = format!("http://127.0.0.1:{port}/callback");
    let resource = format!("{base}/mcp");
    let ch = challenge(VERIFIER);
    let mut url = url::Url::parse(&format!("{base}/as/authorize")).unwrap();
    url.query_pairs_mut()
        .extend_pairs(code_params("pub", &redirect, &resource))
        .extend_pairs([
            ("code_challenge", ch.as_str()),
            ("code_challenge_method", "S256"),
        ]);
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("urls");
    let script = support::browser();
    let out = tokio::process::Command::new(&script)
        .arg(url.as_str())
        .env("BROWSER_LOG", &log)
        .output()
        .await
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = got.join().unwrap();
    assert!(line.starts_with("GET /callback?code=code_"), "{line}");
    assert!(line.contains("state=st-123"), "{line}");
    assert_eq!(std::fs::read_to_string(&log).unwrap(), format!("{url}\n"));

    // A refusal (unknown client) is reported, not followed.
    let mut bad = url.clone();
    bad.query_pairs_mut()
        .clear()
        .append_pair("client_id", "stranger");
    let out = tokio::process::Command::new(&script)
        .arg(bad.as_str())
        .output()
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown client_id"));
    let out = tokio::process::Command::new(&script)
        .arg("file:///etc/passwd")
        .output()
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}
