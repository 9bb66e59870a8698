//! `mcpctl login NAME`: sign in to a remote server with OAuth and store the
//! tokens (never the definition file).

use std::time::Duration;

use serde_json::json;

use super::Context;
use crate::auth::flow::{self, Deadline, LoginOptions, Target};
use crate::auth::store::TokenEntry;
use crate::error::{ExitCode, Result, UsageError};
use crate::output;

const EXAMPLES: &str = "\
The server's definition needs `auth: oauth` (`mcpctl add --url URL --auth oauth`).
With the authorization-code grant (the default) mcpctl listens on 127.0.0.1 for
the redirect, prints the sign-in URL and opens it with $BROWSER when set, else
xdg-open (open on macOS); without a terminal it prints the URL and waits, and
never prompts. With `grant: client_credentials` no browser is involved: the
client's secret or key (`${VAR}` in the definition) is exchanged for a token.
Tokens are stored in the state directory (MCPCTL_STATE_DIR, else
~/.local/state/mcpctl/oauth.json, mode 0600) and refreshed by check, call and
the supervisor.

Examples:
  mcpctl add --name linear --url https://mcp.linear.app/mcp --auth oauth
  mcpctl login linear
  mcpctl login linear --no-browser          # print the URL only
  mcpctl login linear --scope 'read write'  # ask for these scopes
  BROWSER=firefox mcpctl login linear
  mcpctl login ci-server --json             # client credentials, no browser";

/// Arguments of `mcpctl login`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The server to sign in to.
    #[arg(add = clap_complete::engine::ArgValueCandidates::new(super::complete::server_names))]
    pub name: String,
    /// Scopes to ask for, space-separated (default: the definition's
    /// `scope`, else what the server's challenge or metadata names, else none).
    #[arg(long, value_name = "SCOPES")]
    pub scope: Option<String>,
    /// Only print the sign-in URL; do not open a browser.
    #[arg(long)]
    pub no_browser: bool,
    /// Seconds allowed for the whole sign-in, browser included.
    #[arg(long, value_name = "SECONDS", default_value_t = 300.0)]
    pub timeout: f64,
}

/// Sign in and store the tokens.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let catalog = ctx.catalog()?;
    let def = catalog.get(&args.name)?;
    let target = Target::from_def(def)?;
    let timeout = crate::validate::seconds::duration("--timeout", args.timeout)
        .map_err(|m| UsageError::new(m, "give a number of seconds, e.g. --timeout 120"))?;
    let entry = sign_in(&target, None, args.scope.clone(), !args.no_browser, timeout)?;
    report(ctx, &target, &entry.0, entry.1)?;
    Ok(ExitCode::Success)
}

/// Run the sign-in of `target` (also `add`'s "sign in now"), printing the
/// URL on stderr.
pub(super) fn sign_in(
    target: &Target,
    challenge: Option<String>,
    scope: Option<String>,
    open_browser: bool,
    timeout: Duration,
) -> Result<(TokenEntry, &'static str)> {
    let server = target.server.clone();
    let opts = LoginOptions {
        scope,
        open_browser,
        deadline: Deadline::after(timeout),
        show_url: Box::new(move |url| {
            // Always printed, even with --quiet or --json: it is the one
            // thing a person must act on.
            eprintln!(
                "Sign in to {} by opening this URL in a browser:\n  {}",
                output::sanitize(&server),
                output::sanitize(url)
            );
        }),
        note: Box::new(|text| output::note(text)),
    };
    let runtime = super::runtime()?;
    let signed =
        super::interrupt::block_on(&runtime, flow::login(target, challenge.as_deref(), &opts))??;
    Ok((signed.entry, signed.client))
}

/// The `--json` view of a stored entry: never a token.
pub(super) fn entry_json(entry: &TokenEntry) -> serde_json::Value {
    json!({
        "issuer": (!entry.issuer.is_empty()).then_some(&entry.issuer),
        "resource": entry.resource,
        "client_id": entry.client_id,
        "grant": entry.grant,
        "scopes": entry.granted_scopes,
        "expires_at": entry.expires_at().map(rfc3339),
        "expired": entry.expires_within(0),
        "refreshable": oauth2::TokenResponse::refresh_token(&entry.token).is_some()
            || entry.grant == crate::defs::Grant::ClientCredentials,
    })
}

/// Unix seconds as RFC 3339 UTC.
pub(super) fn rfc3339(secs: u64) -> String {
    chrono::DateTime::from_timestamp(secs as i64, 0)
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
        .unwrap_or_default()
}

fn report(ctx: &Context, target: &Target, entry: &TokenEntry, client: &str) -> Result<()> {
    if ctx.json {
        let mut doc = entry_json(entry);
        doc["server"] = json!(target.server);
        doc["signed_in"] = json!(true);
        doc["client"] = json!(client);
        output::print_json(&doc)?;
        return Ok(());
    }
    let scopes = if entry.granted_scopes.is_empty() {
        "no scopes".to_string()
    } else {
        format!("scopes {}", entry.granted_scopes.join(" "))
    };
    let expiry = entry
        .expires_at()
        .map(|at| format!(", expires {}", rfc3339(at)))
        .unwrap_or_default();
    let issuer = if entry.issuer.is_empty() {
        String::new()
    } else {
        format!(" at {}", entry.issuer)
    };
    output::line(output::sanitize(&format!(
        "signed in to `{}`{issuer} ({scopes}{expiry}; client {client})",
        target.server
    )))?;
    Ok(())
}
