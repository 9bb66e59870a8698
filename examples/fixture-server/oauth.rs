//! An OAuth 2.1 authorization server and a protected MCP resource in the
//! fixture server, so mcpctl's sign-in can be tested end to end on loopback
//! with no person: `/authorize` approves at once and redirects.
//!
//! `--http PORT --oauth` turns it on. Everything has the origin
//! `http://127.0.0.1:PORT`; the resource is `ORIGIN/mcp`, the issuer is
//! `ORIGIN/as` (a path issuer, for RFC 8414 path insertion).
//!
//! Routes: `/mcp` (401/403 with `WWW-Authenticate: Bearer`),
//! `/.well-known/oauth-protected-resource/mcp` (RFC 9728),
//! `/.well-known/oauth-authorization-server/as` (RFC 8414),
//! `/.well-known/openid-configuration/as` and
//! `/as/.well-known/openid-configuration` (OpenID Connect discovery),
//! `/as/authorize`, `/as/token`, `/as/register` (RFC 7591), `/as/revoke`
//! (RFC 7009), `/as/jwks`, `/cimd/mcpctl.json` (a sample client ID metadata
//! document), `/debug/oauth/log`, `/debug/oauth/clients` and
//! `/debug/oauth/verifiers` (what the server received, as JSON).
//!
//! Scopes: `mcp:read` is needed for everything and is what the challenge
//! names; `mcp:write` is also supported; a request without `scope` gets
//! `mcp:read`.
//!
//! Flags (all but `--oauth` are optional):
//! - `--oauth`: enable all of this (needs `--http PORT`).
//! - `--oauth-client ID[:SECRET]` (repeatable): a pre-registered client. With
//!   a secret it authenticates with `client_secret_basic` or
//!   `client_secret_post`; without, it is public (`none`) or uses
//!   `private_key_jwt` with the keys of `--oauth-client-jwks`. Any loopback
//!   `redirect_uri` (any port, any path) is accepted for it.
//! - `--oauth-client-jwks PATH`: a JWKS file (public keys, ES256/RS256) that
//!   verifies `private_key_jwt` assertions of pre-registered clients
//!   (tests/fixtures/oauth/jwks.json goes with es256.pem and rs256.pem).
//! - `--oauth-auth-methods LIST`: comma-separated
//!   `token_endpoint_auth_methods_supported`, enforced (default
//!   `none,client_secret_basic,client_secret_post,private_key_jwt`).
//! - `--oauth-required-scope S`: `tools/call` also needs scope S, else 403
//!   `error="insufficient_scope", scope="mcp:read S"` (step-up).
//! - `--oauth-token-ttl SECS`: access-token lifetime (default 3600).
//! - `--oauth-prm-root`: protected-resource metadata only at
//!   `/.well-known/oauth-protected-resource`.
//! - `--oauth-no-prm-header`: no `resource_metadata` in the challenge.
//! - `--oauth-no-scope-header`: no `scope` in the 401 challenge.
//! - `--oauth-prm-resource URL`: advertise this (wrong) `resource`;
//!   `{origin}` in it stands for `ORIGIN` (`{origin}/` is a parent path).
//! - `--oauth-no-scopes-supported`: no `scopes_supported` in any metadata
//!   (and any requested scope is granted).
//! - `--oauth-oidc-only` / `--oauth-rfc8414-only`: serve only one kind of
//!   authorization-server metadata.
//! - `--oauth-wrong-issuer`: the metadata's `issuer` is `ORIGIN/evil`.
//! - `--oauth-legacy`: the 2025-03-26 shape: no protected-resource metadata,
//!   the issuer is `ORIGIN`, metadata at `/.well-known/oauth-authorization-server`,
//!   endpoints `/authorize`, `/token`, `/register`, `/revoke`; `resource` is
//!   optional.
//! - `--oauth-legacy-no-metadata`: as `--oauth-legacy` without any metadata.
//! - `--oauth-no-dcr`: no registration endpoint.
//! - `--oauth-cimd`: advertise and accept client ID metadata documents
//!   (`client_id` an http(s) URL, fetched; http only on loopback).
//! - `--oauth-cimd-redirect-uri URI` (repeatable): the `redirect_uris` of the
//!   sample document (default `http://127.0.0.1/callback`; loopback ports
//!   are ignored when matching).
//! - `--oauth-bad-state`: the redirect carries a different `state`.
//! - `--oauth-refresh-fails`: refresh answers `invalid_grant`.
//! - `--oauth-no-access-token`: token responses lack `access_token`.
//! - `--oauth-hang-token`: the token endpoint never answers.
//! - `--oauth-log PATH`: also append every event as a JSON line to PATH.
//! - `--oauth-token-type T`: token responses say `token_type: T`.
//! - `--oauth-expires-in N`: token responses say `expires_in: N` (any u64;
//!   the token's real lifetime stays `--oauth-token-ttl`).
//! - `--oauth-client-id-bytes N`: registration assigns a client id N bytes
//!   long.
//! - `--oauth-plain-http ENDPOINT` (`token`, `registration` or
//!   `revocation`, repeatable): the metadata names that endpoint as
//!   `http://mcpctl-test.invalid/ENDPOINT` (plain http, not loopback).
//!
//! Events (`/debug/oauth/log`, `--oauth-log`) carry `endpoint` (`mcp`,
//! `prm`, `metadata`, `authorize`, `token`, `register`, `revoke`, `cimd`)
//! and its details (`grant_type`, `client_id`, `auth_method`, `scope`,
//! `resource`, `pkce`, `registration`, `kind`, `result`), never a token,
//! code, verifier or secret.

mod jwt;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Query, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use serde_json::{Value, json};

/// The scope every request needs; what the challenge names.
const DEFAULT_SCOPE: &str = "mcp:read";
const ALL_METHODS: [&str; 4] = [
    "none",
    "client_secret_basic",
    "client_secret_post",
    "private_key_jwt",
];
const JWT_BEARER: &str = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/// The `--oauth*` flags (see the module documentation).
#[derive(Debug, Default, Clone)]
pub struct Options {
    pub enabled: bool,
    clients: Vec<(String, Option<String>)>,
    client_jwks: Option<String>,
    auth_methods: Option<Vec<String>>,
    required_scope: Option<String>,
    token_ttl: Option<u64>,
    prm_root: bool,
    no_prm_header: bool,
    no_scope_header: bool,
    prm_resource: Option<String>,
    no_scopes_supported: bool,
    oidc_only: bool,
    rfc8414_only: bool,
    wrong_issuer: bool,
    legacy: bool,
    legacy_no_metadata: bool,
    no_dcr: bool,
    cimd: bool,
    cimd_redirect_uris: Vec<String>,
    bad_state: bool,
    refresh_fails: bool,
    no_access_token: bool,
    hang_token: bool,
    log: Option<String>,
    token_type: Option<String>,
    expires_in: Option<u64>,
    client_id_bytes: Option<usize>,
    plain_http: Vec<String>,
}

impl Options {
    /// Take one `--oauth*` flag, reading its value with `value`; false when
    /// the flag is not one of ours.
    pub fn take(&mut self, arg: &str, value: &mut dyn FnMut() -> String) -> bool {
        match arg {
            "--oauth" => self.enabled = true,
            "--oauth-client" => {
                let v = value();
                self.clients.push(match v.split_once(':') {
                    Some((id, secret)) => (id.to_string(), Some(secret.to_string())),
                    None => (v, None),
                });
            }
            "--oauth-client-jwks" => self.client_jwks = Some(value()),
            "--oauth-auth-methods" => {
                let list: Vec<String> = value().split(',').map(str::to_string).collect();
                if let Some(bad) = list.iter().find(|m| !ALL_METHODS.contains(&m.as_str())) {
                    panic!("--oauth-auth-methods: unknown method {bad}");
                }
                self.auth_methods = Some(list);
            }
            "--oauth-required-scope" => self.required_scope = Some(value()),
            "--oauth-token-ttl" => {
                self.token_ttl = Some(value().parse().expect("--oauth-token-ttl SECS"))
            }
            "--oauth-prm-root" => self.prm_root = true,
            "--oauth-no-prm-header" => self.no_prm_header = true,
            "--oauth-no-scope-header" => self.no_scope_header = true,
            "--oauth-prm-resource" => self.prm_resource = Some(value()),
            "--oauth-no-scopes-supported" => self.no_scopes_supported = true,
            "--oauth-oidc-only" => self.oidc_only = true,
            "--oauth-rfc8414-only" => self.rfc8414_only = true,
            "--oauth-wrong-issuer" => self.wrong_issuer = true,
            "--oauth-legacy" => self.legacy = true,
            "--oauth-legacy-no-metadata" => {
                self.legacy = true;
                self.legacy_no_metadata = true;
            }
            "--oauth-no-dcr" => self.no_dcr = true,
            "--oauth-cimd" => self.cimd = true,
            "--oauth-cimd-redirect-uri" => self.cimd_redirect_uris.push(value()),
            "--oauth-bad-state" => self.bad_state = true,
            "--oauth-refresh-fails" => self.refresh_fails = true,
            "--oauth-no-access-token" => self.no_access_token = true,
            "--oauth-hang-token" => self.hang_token = true,
            "--oauth-log" => self.log = Some(value()),
            "--oauth-token-type" => self.token_type = Some(value()),
            "--oauth-expires-in" => {
                self.expires_in = Some(value().parse().expect("--oauth-expires-in N"))
            }
            "--oauth-client-id-bytes" => {
                self.client_id_bytes = Some(value().parse().expect("--oauth-client-id-bytes N"))
            }
            "--oauth-plain-http" => self.plain_http.push(value()),
            _ => return false,
        }
        true
    }
}

/// A client the server knows: pre-registered, registered (RFC 7591), or
/// fetched (a client ID metadata document).
#[derive(Clone)]
struct Client {
    id: String,
    kind: &'static str,
    secret: Option<String>,
    /// The one method it must use; `None` for pre-registered clients, which
    /// may use any that fits whether they have a secret.
    auth_method: Option<String>,
    /// Empty: any loopback redirect.
    redirect_uris: Vec<String>,
    grant_types: Vec<String>,
    jwks: Vec<Value>,
    /// The registration request as received (DCR), for `/debug/oauth/clients`.
    metadata: Value,
}

struct Code {
    client_id: String,
    redirect_uri: String,
    challenge: String,
    resource: Option<String>,
    scope: Vec<String>,
    expires: Instant,
}

struct Token {
    client_id: String,
    scope: Vec<String>,
    resource: String,
    expires: Instant,
    grant: u64,
}

#[derive(Default)]
struct Inner {
    clients: HashMap<String, Client>,
    codes: HashMap<String, Code>,
    access: HashMap<String, Token>,
    refresh: HashMap<String, Token>,
    jtis: HashSet<String>,
    /// Every PKCE verifier a token request carried, so a test can look for
    /// it where it must never appear (the client's output and logs).
    verifiers: Vec<String>,
    events: Vec<Value>,
    next_grant: u64,
}

struct Server {
    opts: Options,
    origin: String,
    server_keys: Vec<Value>,
    inner: Mutex<Inner>,
    http: reqwest::Client,
}

/// An OAuth error answer: status, `error`, `error_description`.
struct OAuthError(StatusCode, &'static str, String);

impl IntoResponse for OAuthError {
    fn into_response(self) -> Response {
        let mut resp = (
            self.0,
            [(header::CACHE_CONTROL, "no-store")],
            axum::Json(json!({"error": self.1, "error_description": self.2})),
        )
            .into_response();
        if self.0 == StatusCode::UNAUTHORIZED {
            resp.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                header::HeaderValue::from_static("Basic realm=\"fixture\""),
            );
        }
        resp
    }
}

fn bad(error: &'static str, description: impl Into<String>) -> OAuthError {
    OAuthError(StatusCode::BAD_REQUEST, error, description.into())
}

fn random(prefix: &str) -> String {
    use ring::rand::SecureRandom;
    let mut bytes = [0u8; 24];
    ring::rand::SystemRandom::new()
        .fill(&mut bytes)
        .expect("system randomness");
    format!("{prefix}{}", URL_SAFE_NO_PAD.encode(bytes))
}

fn scopes(text: Option<&String>) -> Vec<String> {
    text.map(|s| s.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

/// `http` on 127.0.0.1, [::1] or localhost (RFC 8252 section 7.3).
fn loopback(url: &url::Url) -> bool {
    url.scheme() == "http"
        && matches!(
            url.host_str(),
            Some("127.0.0.1") | Some("[::1]") | Some("localhost")
        )
}

/// Whether `given` matches `registered`: exactly, or for loopback the same
/// but for the port.
fn redirect_matches(registered: &str, given: &url::Url) -> bool {
    let Ok(reg) = url::Url::parse(registered) else {
        return false;
    };
    if loopback(&reg) && loopback(given) {
        reg.host_str() == given.host_str()
            && reg.path() == given.path()
            && reg.query() == given.query()
    } else {
        reg.as_str() == given.as_str()
    }
}

impl Server {
    fn new(opts: Options, port: u16) -> Self {
        let origin = format!("http://127.0.0.1:{port}");
        let server_keys = opts.client_jwks.as_ref().map_or_else(Vec::new, |path| {
            let text = std::fs::read_to_string(path)
                .unwrap_or_else(|e| panic!("--oauth-client-jwks {path}: {e}"));
            let jwks: Value = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("--oauth-client-jwks {path}: {e}"));
            jwks["keys"].as_array().cloned().unwrap_or_default()
        });
        let mut inner = Inner::default();
        for (id, secret) in &opts.clients {
            inner.clients.insert(
                id.clone(),
                Client {
                    id: id.clone(),
                    kind: "pre-registered",
                    secret: secret.clone(),
                    auth_method: None,
                    redirect_uris: Vec::new(),
                    grant_types: Vec::new(),
                    jwks: server_keys.clone(),
                    metadata: Value::Null,
                },
            );
        }
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(5))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("an HTTP client");
        Server {
            opts,
            origin,
            server_keys,
            inner: Mutex::new(inner),
            http,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn event(&self, event: Value) {
        if let Some(path) = &self.opts.log {
            use std::io::Write;
            let line = format!("{event}\n");
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path);
            if let Ok(mut file) = file {
                let _ = file.write_all(line.as_bytes());
            }
        }
        self.lock().events.push(event);
    }

    fn resource(&self) -> String {
        format!("{}/mcp", self.origin)
    }

    /// Where the authorization endpoints live: `ORIGIN/as`, or the root in
    /// the legacy shape.
    fn as_base(&self) -> String {
        if self.opts.legacy {
            self.origin.clone()
        } else {
            format!("{}/as", self.origin)
        }
    }

    fn issuer(&self) -> String {
        self.as_base()
    }

    fn prm_url(&self) -> String {
        if self.opts.prm_root {
            format!("{}/.well-known/oauth-protected-resource", self.origin)
        } else {
            format!("{}/.well-known/oauth-protected-resource/mcp", self.origin)
        }
    }

    fn scopes_supported(&self) -> Vec<String> {
        let mut all = vec![DEFAULT_SCOPE.to_string(), "mcp:write".to_string()];
        if let Some(s) = &self.opts.required_scope
            && !all.contains(s)
        {
            all.push(s.clone());
        }
        all
    }

    fn methods(&self) -> Vec<String> {
        self.opts
            .auth_methods
            .clone()
            .unwrap_or_else(|| ALL_METHODS.iter().map(|m| m.to_string()).collect())
    }

    fn ttl(&self) -> Duration {
        Duration::from_secs(self.opts.token_ttl.unwrap_or(3600))
    }

    fn cimd_doc(&self) -> Value {
        let redirects = if self.opts.cimd_redirect_uris.is_empty() {
            vec!["http://127.0.0.1/callback".to_string()]
        } else {
            self.opts.cimd_redirect_uris.clone()
        };
        json!({
            "client_id": format!("{}/cimd/mcpctl.json", self.origin),
            "client_name": "mcpctl (fixture)",
            "client_uri": self.origin,
            "redirect_uris": redirects,
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none",
        })
    }

    fn as_metadata(&self, oidc: bool) -> Value {
        let base = self.as_base();
        let issuer = if self.opts.wrong_issuer {
            format!("{}/evil", self.origin)
        } else {
            self.issuer()
        };
        let methods = self.methods();
        let mut doc = json!({
            "issuer": issuer,
            "authorization_endpoint": format!("{base}/authorize"),
            "token_endpoint": format!("{base}/token"),
            "revocation_endpoint": format!("{base}/revoke"),
            "jwks_uri": format!("{base}/jwks"),
            "response_types_supported": ["code"],
            "response_modes_supported": ["query"],
            "grant_types_supported": ["authorization_code", "refresh_token", "client_credentials"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": methods,
            "revocation_endpoint_auth_methods_supported": methods,
            "authorization_response_iss_parameter_supported": true,
        });
        if methods.iter().any(|m| m == "private_key_jwt") {
            doc["token_endpoint_auth_signing_alg_values_supported"] = json!(["ES256", "RS256"]);
        }
        if !self.opts.no_dcr {
            doc["registration_endpoint"] = json!(format!("{base}/register"));
        }
        if !self.opts.no_scopes_supported {
            doc["scopes_supported"] = json!(self.scopes_supported());
        }
        if self.opts.cimd {
            doc["client_id_metadata_document_supported"] = json!(true);
        }
        for endpoint in &self.opts.plain_http {
            let field = format!("{endpoint}_endpoint");
            assert!(doc.get(&field).is_some(), "--oauth-plain-http {endpoint}");
            doc[field] = json!(format!("http://mcpctl-test.invalid/{endpoint}"));
        }
        if oidc {
            doc["subject_types_supported"] = json!(["public"]);
            doc["id_token_signing_alg_values_supported"] = json!(["RS256"]);
        }
        doc
    }

    fn prm(&self) -> Value {
        let mut doc = json!({
            "resource": self.opts.prm_resource.as_ref().map_or_else(
                || self.resource(),
                |r| r.replace("{origin}", &self.origin),
            ),
            "authorization_servers": [self.issuer()],
            "bearer_methods_supported": ["header"],
            "resource_name": "mcpctl fixture",
        });
        if !self.opts.no_scopes_supported {
            doc["scopes_supported"] = json!(self.scopes_supported());
        }
        doc
    }

    /// The `WWW-Authenticate` value for a refusal at `/mcp`.
    fn challenge(&self, error: Option<&str>, scope: Option<String>) -> String {
        let mut params = Vec::new();
        if let Some(error) = error {
            params.push(format!("error=\"{error}\""));
        }
        if !self.opts.no_prm_header && !self.opts.legacy {
            params.push(format!("resource_metadata=\"{}\"", self.prm_url()));
        }
        if let Some(scope) = scope {
            params.push(format!("scope=\"{scope}\""));
        }
        if params.is_empty() {
            "Bearer".to_string()
        } else {
            format!("Bearer {}", params.join(", "))
        }
    }

    /// Find the client for `client_id`, fetching its metadata document when
    /// it is a URL and `--oauth-cimd` is on.
    async fn client(&self, client_id: &str) -> Result<Client, String> {
        if let Some(client) = self.lock().clients.get(client_id) {
            return Ok(client.clone());
        }
        if !client_id.starts_with("http://") && !client_id.starts_with("https://") {
            return Err(format!("unknown client_id {client_id}"));
        }
        if !self.opts.cimd {
            return Err("client ID metadata documents are not supported here".into());
        }
        let url = url::Url::parse(client_id).map_err(|e| format!("client_id URL: {e}"))?;
        if url.scheme() == "http" && !loopback(&url) {
            return Err("a client_id URL must be https (http only on loopback)".into());
        }
        let result = self.fetch_cimd(client_id).await;
        self.event(json!({
            "endpoint": "cimd", "client_id": client_id,
            "result": result.as_ref().map_or_else(|e| e.clone(), |_| "ok".into()),
        }));
        let doc = result?;
        let client = Client {
            id: client_id.to_string(),
            kind: "cimd",
            secret: None,
            auth_method: Some(
                doc["token_endpoint_auth_method"]
                    .as_str()
                    .unwrap_or("none")
                    .to_string(),
            ),
            redirect_uris: strings(&doc["redirect_uris"]),
            grant_types: strings(&doc["grant_types"]),
            jwks: doc["jwks"]["keys"].as_array().cloned().unwrap_or_default(),
            metadata: doc,
        };
        self.lock()
            .clients
            .insert(client_id.to_string(), client.clone());
        Ok(client)
    }

    async fn fetch_cimd(&self, client_id: &str) -> Result<Value, String> {
        let resp = self
            .http
            .get(client_id)
            .send()
            .await
            .map_err(|e| format!("fetching the client metadata document: {e}"))?;
        if !resp.status().is_success() {
            return Err(format!("client metadata document: HTTP {}", resp.status()));
        }
        let doc: Value = resp
            .json()
            .await
            .map_err(|e| format!("client metadata document: {e}"))?;
        if doc["client_id"].as_str() != Some(client_id) {
            return Err("the document's client_id is not its URL".into());
        }
        if strings(&doc["redirect_uris"]).is_empty() {
            return Err("the document has no redirect_uris".into());
        }
        Ok(doc)
    }

    fn issue(&self, client_id: &str, scope: Vec<String>, grant: u64, refresh: bool) -> Value {
        let access = random("at_");
        let token = Token {
            client_id: client_id.to_string(),
            scope: scope.clone(),
            resource: self.resource(),
            expires: Instant::now() + self.ttl(),
            grant,
        };
        let mut body = json!({
            "token_type": self.opts.token_type.as_deref().unwrap_or("Bearer"),
            "expires_in": self.opts.expires_in.unwrap_or(self.ttl().as_secs()),
            "scope": scope.join(" "),
        });
        let mut inner = self.lock();
        if refresh {
            let rt = random("rt_");
            inner.refresh.insert(
                rt.clone(),
                Token {
                    client_id: client_id.to_string(),
                    scope: scope.clone(),
                    resource: self.resource(),
                    expires: Instant::now() + Duration::from_secs(30 * 86400),
                    grant,
                },
            );
            body["refresh_token"] = json!(rt);
        }
        inner.access.insert(access.clone(), token);
        if !self.opts.no_access_token {
            body["access_token"] = json!(access);
        }
        body
    }

    /// Client authentication at the token and revocation endpoints
    /// (RFC 6749 2.3, RFC 7523): the client and the method it used.
    async fn authenticate(
        &self,
        headers: &HeaderMap,
        form: &HashMap<String, String>,
        endpoint: &str,
    ) -> Result<(Client, &'static str), OAuthError> {
        let unauthorized = |d: String| OAuthError(StatusCode::UNAUTHORIZED, "invalid_client", d);
        let basic = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Basic "))
            .map(|b| {
                let raw = STANDARD.decode(b.trim()).unwrap_or_default();
                let text = String::from_utf8_lossy(&raw).to_string();
                let (id, secret) = text.split_once(':').unwrap_or((text.as_str(), ""));
                let unescape = |s: &str| {
                    url::form_urlencoded::parse(format!("x={s}").as_bytes())
                        .next()
                        .map(|(_, v)| v.into_owned())
                        .unwrap_or_default()
                };
                (unescape(id), unescape(secret))
            });
        let post = form.get("client_secret");
        let assertion = match (
            form.get("client_assertion_type"),
            form.get("client_assertion"),
        ) {
            (Some(t), Some(a)) if t == JWT_BEARER => Some(a),
            (Some(_), _) | (None, Some(_)) => {
                return Err(bad(
                    "invalid_request",
                    "client_assertion_type must be jwt-bearer, with client_assertion",
                ));
            }
            _ => None,
        };
        let used = [basic.is_some(), post.is_some(), assertion.is_some()]
            .iter()
            .filter(|b| **b)
            .count();
        if used > 1 {
            return Err(bad(
                "invalid_request",
                "more than one client authentication method",
            ));
        }
        let method: &'static str = if basic.is_some() {
            "client_secret_basic"
        } else if post.is_some() {
            "client_secret_post"
        } else if assertion.is_some() {
            "private_key_jwt"
        } else {
            "none"
        };
        if !self.methods().iter().any(|m| m == method) {
            return Err(unauthorized(format!("{method} is not supported here")));
        }
        let form_id = form.get("client_id").cloned();
        let client_id = match (&basic, form_id.clone(), assertion) {
            (Some((id, _)), Some(f), _) if *id != f => {
                return Err(bad("invalid_request", "two different client_ids"));
            }
            (Some((id, _)), _, _) => id.clone(),
            (None, Some(id), _) => id,
            (None, None, Some(a)) => {
                // The client is the assertion's subject (RFC 7523 3).
                let claims = a.split('.').nth(1).unwrap_or_default();
                let claims: Value = URL_SAFE_NO_PAD
                    .decode(claims)
                    .ok()
                    .and_then(|b| serde_json::from_slice(&b).ok())
                    .unwrap_or_default();
                claims["sub"].as_str().unwrap_or_default().to_string()
            }
            (None, None, None) => return Err(unauthorized("no client_id".into())),
        };
        let client = self.client(&client_id).await.map_err(unauthorized)?;
        let allowed = match (&client.auth_method, &client.secret) {
            (Some(m), _) => m == method,
            (None, Some(_)) => method == "client_secret_basic" || method == "client_secret_post",
            (None, None) => {
                method == "none" || (method == "private_key_jwt" && !client.jwks.is_empty())
            }
        };
        if !allowed {
            return Err(unauthorized(format!(
                "client {client_id} may not authenticate with {method}"
            )));
        }
        let secret = basic.as_ref().map(|(_, s)| s.clone()).or(post.cloned());
        if let Some(secret) = secret
            && client.secret.as_deref() != Some(secret.as_str())
        {
            return Err(unauthorized("wrong client secret".into()));
        }
        if let Some(assertion) = assertion {
            let audiences = vec![
                self.issuer(),
                format!("{}/token", self.as_base()),
                endpoint.to_string(),
            ];
            let keys = if client.jwks.is_empty() {
                &self.server_keys
            } else {
                &client.jwks
            };
            let verified = jwt::verify(assertion, keys, form_id.as_deref(), &audiences)
                .map_err(unauthorized)?;
            if !self.lock().jtis.insert(verified.jti) {
                return Err(unauthorized("a client assertion jti used twice".into()));
            }
        }
        Ok((client, method))
    }
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

fn pkce_s256(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(ring::digest::digest(
        &ring::digest::SHA256,
        verifier.as_bytes(),
    ))
}

/// Protect `mcp` (a router serving `/mcp`) and add the authorization
/// server's routes on the same origin.
pub fn wrap(mcp: Router, opts: Options, port: u16) -> Router {
    let server = Arc::new(Server::new(opts, port));
    let s = &server.opts;
    let mut router: Router<Arc<Server>> = Router::new();
    if !s.legacy {
        let path = if s.prm_root {
            "/.well-known/oauth-protected-resource"
        } else {
            "/.well-known/oauth-protected-resource/mcp"
        };
        router = router.route(path, get(prm));
    }
    let base = if s.legacy { "" } else { "/as" };
    if s.legacy {
        if !s.legacy_no_metadata {
            router = router.route("/.well-known/oauth-authorization-server", get(rfc8414));
        }
    } else {
        if !s.oidc_only {
            router = router.route("/.well-known/oauth-authorization-server/as", get(rfc8414));
        }
        if !s.rfc8414_only {
            router = router
                .route("/.well-known/openid-configuration/as", get(oidc))
                .route("/as/.well-known/openid-configuration", get(oidc));
        }
    }
    router = router
        .route(&format!("{base}/authorize"), get(authorize))
        .route(&format!("{base}/token"), post(token))
        .route(&format!("{base}/revoke"), post(revoke))
        .route(
            &format!("{base}/jwks"),
            get(|| async { axum::Json(json!({"keys": []})) }),
        );
    if !s.no_dcr {
        router = router.route(&format!("{base}/register"), post(register));
    }
    let routes = router
        .route("/cimd/mcpctl.json", get(cimd))
        .route("/debug/oauth/log", get(debug_log))
        .route("/debug/oauth/clients", get(debug_clients))
        .route(
            "/debug/oauth/verifiers",
            get(|State(s): State<Arc<Server>>| async move {
                axum::Json(json!(s.lock().verifiers.clone()))
            }),
        )
        .with_state(server.clone());
    mcp.layer(axum::middleware::from_fn_with_state(server, guard))
        .merge(routes)
}

/// The resource server: a bearer token for this resource, unexpired, not
/// revoked, with the scopes the request needs.
async fn guard(State(s): State<Arc<Server>>, req: Request, next: Next) -> Response {
    let token = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            v.strip_prefix("Bearer ")
                .or_else(|| v.strip_prefix("bearer "))
        })
        .map(|t| t.trim().to_string());
    let (parts, body) = req.into_parts();
    let bytes = axum::body::to_bytes(body, 16 << 20)
        .await
        .unwrap_or_default();
    let rpc_method = serde_json::from_slice::<Value>(&bytes)
        .ok()
        .and_then(|v| v.get("method").and_then(Value::as_str).map(str::to_string));
    let verdict = check(&s, token.as_deref(), rpc_method.as_deref());
    s.event(json!({
        "endpoint": "mcp", "http_method": parts.method.as_str(), "rpc_method": rpc_method,
        "token_present": token.is_some(),
        "result": verdict.as_ref().map_or_else(|(st, e, _)| format!("{} {e}", st.as_u16()), |_| "ok".into()),
    }));
    match verdict {
        Ok(()) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Err((status, error, header_value)) => Response::builder()
            .status(status)
            .header(header::WWW_AUTHENTICATE, header_value)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(json!({ "error": error }).to_string()))
            .expect("a valid response"),
    }
}

type Refusal = (StatusCode, &'static str, String);

fn check(s: &Server, token: Option<&str>, rpc_method: Option<&str>) -> Result<(), Refusal> {
    let scope_hint = (!s.opts.no_scope_header).then(|| DEFAULT_SCOPE.to_string());
    let Some(token) = token else {
        return Err((
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            s.challenge(None, scope_hint),
        ));
    };
    let invalid = |why: &'static str| {
        (
            StatusCode::UNAUTHORIZED,
            why,
            s.challenge(Some("invalid_token"), scope_hint.clone()),
        )
    };
    let inner = s.lock();
    let Some(t) = inner.access.get(token) else {
        return Err(invalid("invalid_token"));
    };
    if t.expires <= Instant::now() {
        return Err(invalid("expired_token"));
    }
    if t.resource != s.resource() {
        return Err(invalid("wrong_audience"));
    }
    let mut needed = vec![DEFAULT_SCOPE.to_string()];
    if rpc_method == Some("tools/call")
        && let Some(extra) = &s.opts.required_scope
    {
        needed.push(extra.clone());
    }
    if needed.iter().all(|n| t.scope.contains(n)) {
        return Ok(());
    }
    Err((
        StatusCode::FORBIDDEN,
        "insufficient_scope",
        s.challenge(Some("insufficient_scope"), Some(needed.join(" "))),
    ))
}

async fn prm(State(s): State<Arc<Server>>) -> axum::Json<Value> {
    s.event(json!({"endpoint": "prm", "path": s.prm_url()}));
    axum::Json(s.prm())
}

async fn rfc8414(State(s): State<Arc<Server>>) -> axum::Json<Value> {
    s.event(json!({"endpoint": "metadata", "kind": "rfc8414"}));
    axum::Json(s.as_metadata(false))
}

async fn oidc(State(s): State<Arc<Server>>, uri: axum::http::Uri) -> axum::Json<Value> {
    s.event(json!({"endpoint": "metadata", "kind": "oidc", "path": uri.path()}));
    axum::Json(s.as_metadata(true))
}

async fn cimd(State(s): State<Arc<Server>>) -> axum::Json<Value> {
    axum::Json(s.cimd_doc())
}

async fn debug_log(State(s): State<Arc<Server>>) -> axum::Json<Value> {
    axum::Json(Value::Array(s.lock().events.clone()))
}

async fn debug_clients(State(s): State<Arc<Server>>) -> axum::Json<Value> {
    let clients: Vec<Value> = s
        .lock()
        .clients
        .values()
        .map(|c| {
            json!({
                "client_id": c.id, "kind": c.kind, "has_secret": c.secret.is_some(),
                "token_endpoint_auth_method": c.auth_method, "redirect_uris": c.redirect_uris,
                "grant_types": c.grant_types, "metadata": c.metadata,
            })
        })
        .collect();
    axum::Json(Value::Array(clients))
}

/// The authorization endpoint: no person, so it decides at once and
/// redirects (or refuses with 400 when it cannot trust the redirect).
async fn authorize(
    State(s): State<Arc<Server>>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let mut event = json!({
        "endpoint": "authorize",
        "client_id": q.get("client_id"), "redirect_uri": q.get("redirect_uri"),
        "response_type": q.get("response_type"), "scope": q.get("scope"),
        "resource": q.get("resource"), "code_challenge_method": q.get("code_challenge_method"),
        "code_challenge_present": q.contains_key("code_challenge"),
        "state_present": q.contains_key("state"),
    });
    let refuse = |s: &Server, mut event: Value, why: String| {
        event["result"] = json!(format!("refused: {why}"));
        s.event(event);
        (
            StatusCode::BAD_REQUEST,
            format!("authorization refused: {why}\n"),
        )
            .into_response()
    };
    let Some(client_id) = q.get("client_id") else {
        return refuse(s.as_ref(), event, "no client_id".into());
    };
    let client = match s.client(client_id).await {
        Ok(c) => c,
        Err(e) => return refuse(s.as_ref(), event, e),
    };
    event["client_kind"] = json!(client.kind);
    let Some(redirect) = q.get("redirect_uri") else {
        return refuse(s.as_ref(), event, "no redirect_uri".into());
    };
    let Ok(mut target) = url::Url::parse(redirect) else {
        return refuse(s.as_ref(), event, "redirect_uri is not a URL".into());
    };
    let redirect_ok = if client.redirect_uris.is_empty() {
        loopback(&target)
    } else {
        client
            .redirect_uris
            .iter()
            .any(|r| redirect_matches(r, &target))
    };
    if !redirect_ok {
        return refuse(
            s.as_ref(),
            event,
            format!("redirect_uri {redirect} not registered"),
        );
    }
    let error = 'check: {
        if q.get("response_type").map(String::as_str) != Some("code") {
            break 'check Some(("unsupported_response_type", "response_type must be code"));
        }
        if !client.grant_types.is_empty()
            && !client.grant_types.iter().any(|g| g == "authorization_code")
        {
            break 'check Some((
                "unauthorized_client",
                "not registered for authorization_code",
            ));
        }
        if !q.contains_key("code_challenge") {
            break 'check Some(("invalid_request", "PKCE is required (code_challenge)"));
        }
        if q.get("code_challenge_method").map(String::as_str) != Some("S256") {
            break 'check Some(("invalid_request", "code_challenge_method must be S256"));
        }
        match q.get("resource") {
            None if !s.opts.legacy => {
                break 'check Some(("invalid_target", "resource is required"));
            }
            Some(r) if *r != s.resource() => {
                break 'check Some(("invalid_target", "resource is not this server's"));
            }
            _ => {}
        }
        let asked = scopes(q.get("scope"));
        if !s.opts.no_scopes_supported {
            let supported = s.scopes_supported();
            if asked.iter().any(|a| !supported.contains(a)) {
                break 'check Some(("invalid_scope", "a scope is not supported"));
            }
        }
        None
    };
    let state = q.get("state").map(|st| {
        if s.opts.bad_state {
            format!("{st}-tampered")
        } else {
            st.clone()
        }
    });
    {
        let mut pairs = target.query_pairs_mut();
        if let Some((code, description)) = error {
            pairs.append_pair("error", code);
            pairs.append_pair("error_description", description);
            event["result"] = json!(format!("error: {code}"));
        } else {
            let code = random("code_");
            let mut granted = scopes(q.get("scope"));
            if granted.is_empty() {
                granted.push(DEFAULT_SCOPE.to_string());
            }
            s.lock().codes.insert(
                code.clone(),
                Code {
                    client_id: client.id.clone(),
                    redirect_uri: redirect.clone(),
                    challenge: q["code_challenge"].clone(),
                    resource: q.get("resource").cloned(),
                    scope: granted,
                    expires: Instant::now() + Duration::from_secs(120),
                },
            );
            pairs.append_pair("code", &code);
            event["result"] = json!("ok");
        }
        if let Some(state) = &state {
            pairs.append_pair("state", state);
        }
        if !s.opts.legacy_no_metadata {
            pairs.append_pair("iss", &s.issuer());
        }
    }
    s.event(event);
    Response::builder()
        .status(StatusCode::FOUND)
        .header(header::LOCATION, target.as_str())
        .header(header::CACHE_CONTROL, "no-store")
        .body(Body::empty())
        .expect("a valid redirect")
}

fn form(body: &Bytes) -> HashMap<String, String> {
    url::form_urlencoded::parse(body).into_owned().collect()
}

async fn token(State(s): State<Arc<Server>>, headers: HeaderMap, body: Bytes) -> Response {
    let f = form(&body);
    let mut event = json!({
        "endpoint": "token", "grant_type": f.get("grant_type"), "scope": f.get("scope"),
        "resource": f.get("resource"), "redirect_uri": f.get("redirect_uri"),
        "client_id": f.get("client_id"),
    });
    if s.opts.hang_token {
        event["result"] = json!("hanging");
        s.event(event.clone());
        std::future::pending::<()>().await;
    }
    let endpoint = format!("{}/token", s.as_base());
    let result = grant(&s, &headers, &f, &endpoint, &mut event).await;
    event["result"] = json!(match &result {
        Ok(_) => "ok".to_string(),
        Err(e) => format!("error: {}: {}", e.1, e.2),
    });
    s.event(event);
    match result {
        Ok(body) => (
            StatusCode::OK,
            [(header::CACHE_CONTROL, "no-store")],
            axum::Json(body),
        )
            .into_response(),
        Err(e) => e.into_response(),
    }
}

async fn grant(
    s: &Server,
    headers: &HeaderMap,
    f: &HashMap<String, String>,
    endpoint: &str,
    event: &mut Value,
) -> Result<Value, OAuthError> {
    let (client, method) = s.authenticate(headers, f, endpoint).await?;
    event["client_id"] = json!(client.id);
    event["client_kind"] = json!(client.kind);
    event["auth_method"] = json!(method);
    let resource_ok = |r: Option<&String>| match r {
        None => Ok(()),
        Some(r) if *r == s.resource() => Ok(()),
        Some(_) => Err(bad("invalid_target", "resource is not this server's")),
    };
    let registered_for =
        |g: &str| client.grant_types.is_empty() || client.grant_types.iter().any(|x| x == g);
    match f.get("grant_type").map(String::as_str) {
        Some("authorization_code") => {
            let code = f
                .get("code")
                .ok_or_else(|| bad("invalid_request", "no code"))?;
            let Some(c) = s.lock().codes.remove(code) else {
                return Err(bad("invalid_grant", "unknown or used code"));
            };
            if c.expires <= Instant::now() {
                return Err(bad("invalid_grant", "the code has expired"));
            }
            if c.client_id != client.id {
                return Err(bad(
                    "invalid_grant",
                    "the code was issued to another client",
                ));
            }
            if f.get("redirect_uri") != Some(&c.redirect_uri) {
                return Err(bad(
                    "invalid_grant",
                    "redirect_uri differs from the authorization request's",
                ));
            }
            let Some(verifier) = f.get("code_verifier") else {
                event["pkce"] = json!("missing");
                return Err(bad("invalid_grant", "PKCE code_verifier missing"));
            };
            let well_formed = (43..=128).contains(&verifier.len())
                && verifier
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-._~".contains(&b));
            if !well_formed || pkce_s256(verifier) != c.challenge {
                event["pkce"] = json!("failed");
                return Err(bad("invalid_grant", "PKCE verification failed"));
            }
            event["pkce"] = json!("verified");
            s.lock().verifiers.push(verifier.clone());
            match (f.get("resource"), &c.resource) {
                (None, None) if s.opts.legacy => {}
                (Some(r), Some(cr)) if r == cr => {}
                _ => {
                    return Err(bad(
                        "invalid_target",
                        "resource must be sent, and be the authorization request's",
                    ));
                }
            }
            event["granted_scope"] = json!(c.scope.join(" "));
            let refresh = registered_for("refresh_token");
            let grant = next_grant(s);
            Ok(s.issue(&client.id, c.scope, grant, refresh))
        }
        Some("refresh_token") => {
            if s.opts.refresh_fails {
                return Err(bad(
                    "invalid_grant",
                    "refresh refused (--oauth-refresh-fails)",
                ));
            }
            resource_ok(f.get("resource"))?;
            let rt = f
                .get("refresh_token")
                .ok_or_else(|| bad("invalid_request", "no refresh_token"))?;
            let Some(old) = s.lock().refresh.remove(rt) else {
                return Err(bad(
                    "invalid_grant",
                    "unknown, used or revoked refresh token",
                ));
            };
            if old.client_id != client.id {
                return Err(bad(
                    "invalid_grant",
                    "the refresh token belongs to another client",
                ));
            }
            let asked = scopes(f.get("scope"));
            let scope = if asked.is_empty() {
                old.scope.clone()
            } else if asked.iter().all(|a| old.scope.contains(a)) {
                asked
            } else {
                return Err(bad("invalid_scope", "more scope than the original grant"));
            };
            event["granted_scope"] = json!(scope.join(" "));
            Ok(s.issue(&client.id, scope, old.grant, true))
        }
        Some("client_credentials") => {
            if method == "none" {
                return Err(bad(
                    "unauthorized_client",
                    "client_credentials needs client authentication",
                ));
            }
            if !registered_for("client_credentials") {
                return Err(bad(
                    "unauthorized_client",
                    "not registered for client_credentials",
                ));
            }
            resource_ok(f.get("resource"))?;
            let mut scope = scopes(f.get("scope"));
            if !s.opts.no_scopes_supported {
                let supported = s.scopes_supported();
                if scope.iter().any(|a| !supported.contains(a)) {
                    return Err(bad("invalid_scope", "a scope is not supported"));
                }
            }
            if scope.is_empty() {
                scope.push(DEFAULT_SCOPE.to_string());
            }
            event["granted_scope"] = json!(scope.join(" "));
            let grant = next_grant(s);
            Ok(s.issue(&client.id, scope, grant, false))
        }
        Some(_) => Err(bad("unsupported_grant_type", "unsupported grant_type")),
        None => Err(bad("invalid_request", "no grant_type")),
    }
}

fn next_grant(s: &Server) -> u64 {
    let mut inner = s.lock();
    inner.next_grant += 1;
    inner.next_grant
}

/// RFC 7009: revoking a refresh token ends its grant's access tokens too.
async fn revoke(State(s): State<Arc<Server>>, headers: HeaderMap, body: Bytes) -> Response {
    let f = form(&body);
    let mut event = json!({
        "endpoint": "revoke", "token_type_hint": f.get("token_type_hint"),
        "client_id": f.get("client_id"),
    });
    let endpoint = format!("{}/revoke", s.as_base());
    let (client, method) = match s.authenticate(&headers, &f, &endpoint).await {
        Ok(found) => found,
        Err(e) => {
            event["result"] = json!(format!("error: {}: {}", e.1, e.2));
            s.event(event);
            return e.into_response();
        }
    };
    event["client_id"] = json!(client.id);
    event["auth_method"] = json!(method);
    let Some(token) = f.get("token") else {
        event["result"] = json!("error: invalid_request");
        s.event(event);
        return bad("invalid_request", "no token").into_response();
    };
    let kind = {
        let mut inner = s.lock();
        if inner
            .access
            .get(token)
            .is_some_and(|t| t.client_id == client.id)
        {
            inner.access.remove(token);
            "access"
        } else if let Some(t) = inner
            .refresh
            .get(token)
            .filter(|t| t.client_id == client.id)
        {
            let grant = t.grant;
            inner.refresh.remove(token);
            inner.access.retain(|_, a| a.grant != grant);
            "refresh"
        } else {
            "unknown"
        }
    };
    event["kind"] = json!(kind);
    event["result"] = json!("ok");
    s.event(event);
    StatusCode::OK.into_response()
}

/// RFC 7591 dynamic client registration.
async fn register(State(s): State<Arc<Server>>, body: Bytes) -> Response {
    let result = register_client(&s, &body);
    let mut event = json!({
        "endpoint": "register",
        "registration": serde_json::from_slice::<Value>(&body).unwrap_or(Value::Null),
    });
    match result {
        Ok(answer) => {
            event["client_id"] = answer["client_id"].clone();
            event["result"] = json!("ok");
            s.event(event);
            (
                StatusCode::CREATED,
                [(header::CACHE_CONTROL, "no-store")],
                axum::Json(answer),
            )
                .into_response()
        }
        Err(e) => {
            event["result"] = json!(format!("error: {}: {}", e.1, e.2));
            s.event(event);
            e.into_response()
        }
    }
}

fn register_client(s: &Server, body: &[u8]) -> Result<Value, OAuthError> {
    let meta: Value = serde_json::from_slice(body)
        .map_err(|e| bad("invalid_client_metadata", format!("not JSON: {e}")))?;
    if !meta.is_object() {
        return Err(bad("invalid_client_metadata", "not a JSON object"));
    }
    let method = meta["token_endpoint_auth_method"]
        .as_str()
        .unwrap_or("client_secret_basic")
        .to_string();
    if !s.methods().contains(&method) {
        return Err(bad(
            "invalid_client_metadata",
            format!("token_endpoint_auth_method {method} is not supported"),
        ));
    }
    let mut grant_types = strings(&meta["grant_types"]);
    if grant_types.is_empty() {
        grant_types.push("authorization_code".into());
    }
    let redirect_uris = strings(&meta["redirect_uris"]);
    if grant_types.iter().any(|g| g == "authorization_code") && redirect_uris.is_empty() {
        return Err(bad("invalid_redirect_uri", "redirect_uris is required"));
    }
    for uri in &redirect_uris {
        let ok = url::Url::parse(uri).is_ok_and(|u| u.scheme() == "https" || loopback(&u));
        if !ok {
            return Err(bad(
                "invalid_redirect_uri",
                format!("{uri}: https, or http on loopback"),
            ));
        }
    }
    let jwks = meta["jwks"]["keys"].as_array().cloned().unwrap_or_default();
    if method == "private_key_jwt" && jwks.is_empty() {
        return Err(bad("invalid_client_metadata", "private_key_jwt needs jwks"));
    }
    let mut id = random("client_");
    if let Some(bytes) = s.opts.client_id_bytes {
        id = format!("{id}{}", "x".repeat(bytes.saturating_sub(id.len())));
    }
    let secret = matches!(
        method.as_str(),
        "client_secret_basic" | "client_secret_post"
    )
    .then(|| random("secret_"));
    let mut answer = meta.clone();
    answer["client_id"] = json!(id);
    answer["client_id_issued_at"] = json!(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    );
    answer["token_endpoint_auth_method"] = json!(method);
    answer["grant_types"] = json!(grant_types);
    if let Some(secret) = &secret {
        answer["client_secret"] = json!(secret);
        answer["client_secret_expires_at"] = json!(0);
    }
    s.lock().clients.insert(
        id.clone(),
        Client {
            id,
            kind: "dcr",
            secret,
            auth_method: Some(method),
            redirect_uris,
            grant_types,
            jwks,
            metadata: meta,
        },
    );
    Ok(answer)
}
