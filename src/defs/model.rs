//! The typed server definition every other module works from.
//!
//! A definition is parsed once from its file into a [`ServerDef`]; validation,
//! `check`, the registry installer and the supervisor all take this type and
//! never read a file again themselves. Values are kept exactly as written,
//! `${VAR}` references included: expansion happens only at launch time
//! (see [`crate::defs::vars`]).

use std::path::PathBuf;
use std::time::Duration;

use indexmap::IndexMap;

/// How mcpctl reaches a server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Transport {
    /// A local child process speaking JSON-RPC over stdin/stdout.
    Stdio,
    /// The current HTTP transport (one endpoint, POST plus optional SSE).
    StreamableHttp,
    /// The legacy HTTP+SSE transport (GET event stream, POST to `endpoint`).
    Sse,
}

impl Transport {
    /// Parse any spelling mcpctl accepts in a file or on the command line.
    pub fn from_spelling(spelling: &str) -> Option<Transport> {
        match spelling {
            "stdio" => Some(Transport::Stdio),
            "streamable-http" | "http" | "streamableHttp" | "streamable_http" => {
                Some(Transport::StreamableHttp)
            }
            "sse" => Some(Transport::Sse),
            _ => None,
        }
    }

    /// The canonical name shown in tables and `--json`.
    pub fn as_str(self) -> &'static str {
        match self {
            Transport::Stdio => "stdio",
            Transport::StreamableHttp => "streamable-http",
            Transport::Sse => "sse",
        }
    }

    /// True for the transports that reach a URL rather than spawn a process.
    pub fn is_remote(self) -> bool {
        !matches!(self, Transport::Stdio)
    }
}

impl std::fmt::Display for Transport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What to do when a supervised server exits on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RestartPolicy {
    /// Leave it `failed` (the default, like systemd's `Restart=no`).
    #[default]
    No,
    /// Restart with exponential backoff under a burst limit.
    OnFailure,
}

/// The launch half of a definition: a child process or a remote endpoint.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Launch {
    /// Spawn `command args…` and speak MCP over its stdio.
    Stdio {
        /// The launcher, a bare name found on PATH or a path.
        command: String,
        /// Arguments, verbatim (may contain `${VAR}`).
        args: Vec<String>,
        /// Extra environment for the child, verbatim (may contain `${VAR}`).
        env: IndexMap<String, String>,
        /// Working directory for the child; also advertised as its root.
        cwd: Option<PathBuf>,
    },
    /// Connect to `url` over Streamable HTTP or legacy SSE.
    Remote {
        /// Which HTTP transport to speak.
        transport: Transport,
        /// The endpoint, verbatim (may contain `${VAR}`).
        url: String,
        /// Extra request headers, verbatim (may contain `${VAR}`).
        headers: IndexMap<String, String>,
        /// A local process that serves `url` once started (a package whose
        /// transport is HTTP, such as server-everything's `streamableHttp`
        /// mode): mcpctl launches and owns it, and waits for the URL.
        process: Option<LocalProcess>,
    },
}

/// A local HTTP server's launch line, in a remote definition.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct LocalProcess {
    /// The launcher, a bare name found on PATH or a path.
    pub command: String,
    /// Arguments, verbatim (may contain `${VAR}`).
    pub args: Vec<String>,
    /// Extra environment, verbatim (may contain `${VAR}`).
    pub env: IndexMap<String, String>,
    /// Working directory.
    pub cwd: Option<PathBuf>,
}

/// The process mcpctl launches for a definition, whichever kind it is, so
/// that spawning, validation and display need one code path.
#[derive(Debug, Clone, Copy)]
pub struct ProcessRef<'a> {
    /// The launcher.
    pub command: &'a str,
    /// Its arguments.
    pub args: &'a [String],
    /// Its extra environment.
    pub env: &'a IndexMap<String, String>,
    /// Its working directory.
    pub cwd: Option<&'a std::path::Path>,
}

/// One MCP server as the operator defined it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ServerDef {
    /// The unique name across all sources.
    pub name: String,
    /// The transport, resolved from `transport`/`type` or from the fields.
    pub transport: Transport,
    /// True when the file gave a `url` but no `transport`/`type`: the
    /// transport is then found as the MCP spec's backwards-compatibility
    /// procedure says (Streamable HTTP first, legacy SSE on HTTP 400, 404
    /// or 405), and `transport` is only the first guess.
    pub transport_inferred: bool,
    /// How to reach the server.
    pub launch: Launch,
    /// A human-readable label.
    pub label: Option<String>,
    /// False when the file says `enabled: false` or `disabled: true`.
    pub enabled: bool,
    /// Whether the supervisor starts it when it boots.
    pub autostart: bool,
    /// Per-server budget for connect plus discovery; `None` means the default.
    pub connect_timeout: Option<Duration>,
    /// Forced protocol version, e.g. `2026-07-28` for stateless servers.
    pub protocol: Option<String>,
    /// What the supervisor does when the server exits on its own.
    pub restart: RestartPolicy,
    /// How to sign in to a remote server with OAuth (`auth: oauth`), if at all.
    pub auth: Option<OAuth>,
    /// The file this definition was read from.
    /// VS Code's `envFile`, verbatim: a dotenv file read at launch (see
    /// [`super::env_file`]); its values are never held here.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub env_file: Option<PathBuf>,
    /// The tools granted to `mcpctl serve`, per profile; empty unless an
    /// operator granted some (discovery never does).
    #[serde(skip_serializing_if = "super::grants::Grants::is_empty")]
    pub grants: super::grants::Grants,
    /// The `sandbox` policy as written; `None` (no field) runs the server
    /// unconfined as before, `Some(Sandbox::Off)` says so knowingly.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<crate::sandbox::Sandbox>,
    pub source: PathBuf,
}

impl ServerDef {
    /// A new, enabled definition with every optional field at its default,
    /// as `add`, the registry installer and `serve --write-config` create
    /// one before their own flags refine it.
    pub fn new(name: String, transport: Transport, launch: Launch, source: PathBuf) -> ServerDef {
        ServerDef {
            name,
            transport,
            transport_inferred: false,
            launch,
            label: None,
            enabled: true,
            autostart: false,
            connect_timeout: None,
            protocol: None,
            restart: RestartPolicy::No,
            auth: None,
            env_file: None,
            grants: Default::default(),
            sandbox: None,
            source,
        }
    }

    /// The default budget for connecting and discovering tools.
    pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

    /// The connect budget to use: the definition's own or the default.
    pub fn connect_budget(&self) -> Duration {
        self.connect_timeout
            .unwrap_or(Self::DEFAULT_CONNECT_TIMEOUT)
    }

    /// A one-line description of where the server is, for display: the
    /// command line or the URL (with the command that serves it, for local
    /// HTTP servers), URL userinfo masked.
    pub fn target(&self) -> String {
        crate::text::mask_userinfo(&self.target_as_written())
    }

    fn target_as_written(&self) -> String {
        let command_line = |p: ProcessRef<'_>| {
            std::iter::once(p.command)
                .chain(p.args.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(" ")
        };
        match (&self.launch, self.process()) {
            (Launch::Remote { url, .. }, Some(process)) => {
                format!("{url} (launches {})", command_line(process))
            }
            (Launch::Remote { url, .. }, None) => url.clone(),
            (Launch::Stdio { .. }, process) => process.map(command_line).unwrap_or_default(),
        }
    }

    /// True when `other` would run differently: any field but the grants
    /// (which only `mcpctl serve` reads), so granting a tool never marks a
    /// running server `changed`.
    pub fn differs_for_launch(&self, other: &ServerDef) -> bool {
        let mut a = self.clone();
        a.grants = other.grants.clone();
        a != *other
    }

    /// The process mcpctl must launch: the stdio server itself, or the local
    /// process behind a remote URL; `None` for a plain remote server.
    pub fn process(&self) -> Option<ProcessRef<'_>> {
        match &self.launch {
            Launch::Stdio {
                command,
                args,
                env,
                cwd,
            } => Some(ProcessRef {
                command,
                args,
                env,
                cwd: cwd.as_deref(),
            }),
            Launch::Remote {
                process: Some(process),
                ..
            } => Some(ProcessRef {
                command: &process.command,
                args: &process.args,
                env: &process.env,
                cwd: process.cwd.as_deref(),
            }),
            Launch::Remote { process: None, .. } => None,
        }
    }
}

/// Which OAuth grant gets a remote server's tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Grant {
    /// A person signs in in a browser (`mcpctl login`), with PKCE.
    #[default]
    AuthorizationCode,
    /// A machine client (CI) trades its own credentials for a token.
    ClientCredentials,
}

impl Grant {
    /// Parse the file's or the command line's spelling.
    pub fn from_spelling(spelling: &str) -> Option<Grant> {
        match spelling {
            "authorization_code" | "authorization-code" => Some(Grant::AuthorizationCode),
            "client_credentials" | "client-credentials" => Some(Grant::ClientCredentials),
            _ => None,
        }
    }

    /// The name written to files (RFC 6749's).
    pub fn as_str(self) -> &'static str {
        match self {
            Grant::AuthorizationCode => "authorization_code",
            Grant::ClientCredentials => "client_credentials",
        }
    }
}

/// How the client proves who it is at the token endpoint (RFC 7591 names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenEndpointAuth {
    /// HTTP Basic with `client_id:client_secret`.
    ClientSecretBasic,
    /// `client_id` and `client_secret` in the form body.
    ClientSecretPost,
    /// A public client: `client_id` only.
    None,
    /// A JWT signed with the client's private key (RFC 7523).
    PrivateKeyJwt,
}

impl TokenEndpointAuth {
    /// Parse the file's or the command line's spelling.
    pub fn from_spelling(spelling: &str) -> Option<TokenEndpointAuth> {
        match spelling {
            "client_secret_basic" | "basic" => Some(TokenEndpointAuth::ClientSecretBasic),
            "client_secret_post" | "post" => Some(TokenEndpointAuth::ClientSecretPost),
            "none" => Some(TokenEndpointAuth::None),
            "private_key_jwt" | "private-key-jwt" => Some(TokenEndpointAuth::PrivateKeyJwt),
            _ => None,
        }
    }

    /// The name written to files and sent in metadata.
    pub fn as_str(self) -> &'static str {
        match self {
            TokenEndpointAuth::ClientSecretBasic => "client_secret_basic",
            TokenEndpointAuth::ClientSecretPost => "client_secret_post",
            TokenEndpointAuth::None => "none",
            TokenEndpointAuth::PrivateKeyJwt => "private_key_jwt",
        }
    }
}

/// A remote definition's OAuth settings, as written: the secret and the key
/// are `${VAR}` references, never values, so the file holds no credential.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize)]
pub struct OAuth {
    /// The grant that gets tokens.
    pub grant: Grant,
    /// A client id registered with the authorization server out of band.
    pub client_id: Option<String>,
    /// `${VAR}` holding that client's secret.
    pub client_secret: Option<String>,
    /// The token endpoint authentication method (default: what the server
    /// advertises).
    pub token_endpoint_auth: Option<TokenEndpointAuth>,
    /// `${VAR}` holding a PEM private key, for `private_key_jwt`.
    pub client_key: Option<String>,
    /// Space-separated scopes to ask for, instead of the discovered ones.
    pub scope: Option<String>,
    /// The https URL of this client's metadata document (CIMD), used as its
    /// client id where the server supports that.
    pub client_metadata_url: Option<String>,
}

impl OAuth {
    /// The values that may hold `${VAR}` references (for expansion and
    /// redaction).
    pub fn secret_values(&self) -> impl Iterator<Item = &String> {
        self.client_secret.iter().chain(self.client_key.iter())
    }
}
