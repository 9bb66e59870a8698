//! `add`'s command line: every flag, its help, and the examples.

use std::path::PathBuf;

use crate::cli::save::SaveFlags;

const EXAMPLES: &str = "\
Claude Code's syntax works as typed: `add NAME -- CMD ARGS…` (a name followed
by -- or a command is the server's name, not a registry lookup),
`add -t http NAME URL`, -e/--env, -H/--header, -t/--transport and -s/--scope.
Scopes: local (the default) writes where `add` always does (--to, else the
first definition file); user writes the per-user file
(~/.config/mcpctl/servers.json) whatever --file says; project writes
.mcp.json in the current directory (mcpServers shape, what Claude Code and
other clients read); read it back with `mcpctl --file .mcp.json list`.

Plain http:// is accepted for loopback without a word, and with a warning for
private (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7), link-local
(169.254/16, fe80::/10), single-label (http://mcp-gateway:8080/mcp) and
.internal/.local/.home.arpa hosts; a public host needs --allow-http.

OAuth: --auth oauth saves a remote server that signs in with OAuth (no
connection check; run `mcpctl login NAME` next). Without --auth, a server that
answers 401 with `WWW-Authenticate: Bearer` gets an offer to sign in at once on
a terminal; without one nothing is saved. --client-secret and --client-key take
only '${VAR}' references.

Examples:
  # a local server over stdio (everything after -- is passed to the command)
  mcpctl add everything -- npx -y @modelcontextprotocol/server-everything@2026.8.31
  mcpctl add -s project -e API_KEY='${API_KEY}' myserver -- node server.js
  mcpctl add --name everything --command npx -- -y @modelcontextprotocol/server-everything@2026.8.31
  mcpctl add --command uvx --args=mcp-server-time==2026.10.19
  # a remote server; ${VAR} references stay in the file and expand at launch
  mcpctl add --url https://mcp.example.com/mcp --header 'Authorization: Bearer ${MCP_TOKEN}'
  mcpctl add --name legacy --url http://127.0.0.1:3001/sse --transport sse
  mcpctl add -t http -H 'Authorization: Bearer ${TOKEN}' gateway http://mcp-gateway:8080/mcp
  # OAuth: sign in with a browser, or with client credentials in CI
  mcpctl add --name linear --url https://mcp.linear.app/mcp --auth oauth && mcpctl login linear
  mcpctl add --name ci --url https://mcp.example.com/mcp --auth oauth --grant client-credentials \
      --client-id ci-bot --client-secret '${CI_CLIENT_SECRET}'
  # write to a specific file, refuse unpinned packages, preview only
  mcpctl add --to .mcp.json --require-pin --dry-run --command npx --args=-y,pkg@1.2.3
  # write the exact version the registry serves now (npx -y pkg → pkg@1.2.3)
  mcpctl add --pin time -- uvx mcp-server-time
  # from the official MCP Registry, by exact name (see `mcpctl search`)
  mcpctl add io.github.modelcontextprotocol/server-everything --package npm:stdio
  mcpctl add io.github.github/github-mcp-server@0.20.2 --env GITHUB_PERSONAL_ACCESS_TOKEN=…
  mcpctl add com.example/acme-analytics --remote --header 'X-API-Key: …'
  mcpctl add com.example/hybrid --remote=sse";

/// The transports `-t/--transport` accepts (Claude Code's `stdio`, `http`
/// and `sse`, plus mcpctl's own spelling of Streamable HTTP).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RemoteTransport {
    /// A local process over stdin/stdout (the default with a command).
    Stdio,
    /// Streamable HTTP (the current MCP transport; the default with a URL).
    #[value(name = "streamable-http", alias = "http")]
    StreamableHttp,
    /// Legacy HTTP+SSE.
    Sse,
}

/// Arguments of `mcpctl add`.
#[derive(Debug, clap::Args)]
#[command(
    after_long_help = EXAMPLES,
    group(clap::ArgGroup::new("launch").required(true)
            .multiple(true).args(["registry_name", "url", "command"]))
)]
pub struct Args {
    /// A registry entry's exact name, optionally with an exact version; or,
    /// followed by a command, a URL or `--`, the new server's name.
    #[arg(value_name = "NAME[@VERSION]")]
    pub registry_name: Option<String>,
    /// After NAME: the command to launch, or (an http(s) URL, or with
    /// -t http|sse) the server's URL.
    #[arg(value_name = "COMMAND|URL")]
    pub command_or_url: Option<String>,
    /// After NAME COMMAND: the command's arguments (or put them after --).
    #[arg(value_name = "ARGS")]
    pub positional_args: Vec<String>,
    /// Registry: install this package kind (npm, pypi, oci), optionally
    /// with its transport (npm:stdio, npm:streamable-http).
    #[arg(
        long,
        value_name = "KIND[:TRANSPORT]",
        requires = "registry_name",
        conflicts_with = "remote"
    )]
    pub package: Option<String>,
    /// Registry: install the hosted endpoint (optionally of this transport).
    #[arg(
        long,
        value_name = "TRANSPORT",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "",
        requires = "registry_name"
    )]
    pub remote: Option<String>,
    /// Registry: store a package that serves HTTP as a remote URL instead
    /// of a process for the supervisor to start.
    #[arg(long, requires = "registry_name")]
    pub as_remote: bool,
    /// Registry: a package argument or URL variable, as NAME=value (repeatable).
    #[arg(long = "arg", value_name = "NAME=VALUE", requires = "registry_name")]
    pub registry_args: Vec<String>,
    /// Registry: install a version its publisher deprecated.
    #[arg(long, requires = "registry_name")]
    pub allow_deprecated: bool,
    /// Registry: write launcher options and settings the publisher gave
    /// that change what is fetched or widen what runs (--registry, another
    /// package, --privileged, a host path), instead of refusing them.
    #[arg(long, requires = "registry_name")]
    pub trust_runtime_args: bool,
    /// Registry: write secret values literally instead of ${VAR} references.
    #[arg(long, requires = "registry_name")]
    pub store_secret: bool,
    /// Registry: ask the registry again instead of using cached answers.
    #[arg(long, requires = "registry_name")]
    pub refresh: bool,
    /// Registry base URL (used only when adding by registry name).
    // No `requires`: clap counts the variable as the flag, so a mirror set
    // in the environment would refuse every `--command` and `--url` add.
    #[arg(long, value_name = "URL", env = "MCPCTL_REGISTRY_URL")]
    pub registry: Option<String>,
    /// Remote server endpoint (https, or http to localhost). With --command,
    /// a local HTTP server: mcpctl launches the command, then connects here.
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// Transport: stdio for a command; for a URL, streamable-http (alias
    /// http) or sse (default: found by connecting, as the MCP spec says:
    /// Streamable HTTP, else legacy SSE; the one that answered is saved).
    #[arg(short = 't', long, value_enum, value_name = "TRANSPORT")]
    pub transport: Option<RemoteTransport>,
    /// Request header for a URL, as 'Name: value' (repeatable).
    #[arg(short = 'H', long = "header", value_name = "'NAME: VALUE'")]
    pub headers: Vec<String>,
    /// Program to launch for a stdio server (on PATH, or a path).
    #[arg(long, value_name = "CMD")]
    pub command: Option<String>,
    /// Arguments for --command, comma-separated (or put them after --).
    #[arg(
        long,
        value_name = "A,B,…",
        value_delimiter = ',',
        allow_hyphen_values = true,
        requires = "command"
    )]
    pub args: Vec<String>,
    /// The command's arguments, verbatim; after `NAME --`, the command and
    /// its arguments.
    #[arg(last = true, value_name = "ARG")]
    pub trailing: Vec<String>,
    /// Environment variable for the child, as NAME=value (repeatable).
    #[arg(short = 'e', long = "env", value_name = "NAME=VALUE")]
    pub env: Vec<String>,
    /// Working directory for the child process.
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Server name (default: derived from the package or host).
    #[arg(long)]
    pub name: Option<String>,
    /// Human-readable label.
    #[arg(long)]
    pub label: Option<String>,
    /// Add it disabled.
    #[arg(long)]
    pub disabled: bool,
    /// Start it when the supervisor starts.
    #[arg(long)]
    pub autostart: bool,
    /// Restart it on failure when supervised.
    #[arg(long, value_name = "POLICY", value_parser = ["no", "on-failure"])]
    pub restart: Option<String>,
    /// Seconds allowed for connecting and listing tools (default 30).
    #[arg(long, value_name = "SECONDS")]
    pub connect_timeout: Option<f64>,
    /// The MCP protocol version to speak, instead of offering 2025-11-25
    /// and falling back to the stateless 2026-07-28.
    #[arg(long, value_name = "VERSION", value_parser = [
        crate::mcp::client::OFFERED_VERSION,
        crate::mcp::client::STATELESS_VERSION,
    ])]
    pub protocol: Option<String>,
    /// Resolve an unpinned or ranged npm/PyPI package to the exact version
    /// its registry serves now, and write that (see `mcpctl pin --help`).
    #[arg(long)]
    pub pin: bool,
    /// OAuth sign-in for a URL.
    #[command(flatten)]
    pub oauth: crate::cli::add_oauth::OAuthFlags,
    /// The sandbox of a local server.
    #[command(flatten)]
    pub sandbox: super::sandbox::SandboxFlags,
    /// Where to write, and how strictly.
    #[command(flatten)]
    pub save: SaveFlags,
}
