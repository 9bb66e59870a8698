//! `mcpctl logout NAME`: revoke a server's tokens at its authorization
//! server (RFC 7009, best effort) and delete them here.

use std::time::Duration;

use serde_json::json;

use super::Context;
use crate::auth::flow::Target;
use crate::auth::revoke::{self, Revocation};
use crate::auth::store;
use crate::error::{ExitCode, Result};
use crate::output;

const EXAMPLES: &str = "\
Revocation is best effort: when the server has no revocation endpoint or
cannot be reached, the tokens are still deleted here, and the report says so.
A dynamic client registration is kept for the next `mcpctl login`.

Examples:
  mcpctl logout linear
  mcpctl logout linear --json";

/// Arguments of `mcpctl logout`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The server to sign out of.
    #[arg(add = clap_complete::engine::ArgValueCandidates::new(super::complete::server_names))]
    pub name: String,
}

/// Revoke and delete.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let catalog = ctx.catalog()?;
    let def = catalog.get(&args.name)?;
    let target = Target::from_def(def)?;
    let entry = store::read()?.for_resource(&target.url).cloned();
    let revocation = match &entry {
        Some(entry) => {
            let runtime = super::runtime()?;
            Some(super::interrupt::block_on(
                &runtime,
                revoke::revoke(&target, entry, Duration::from_secs(10)),
            )?)
        }
        None => None,
    };
    if let Some(entry) = &entry {
        let key = store::key(&entry.issuer, &entry.resource);
        store::modify(move |file| {
            file.tokens.remove(&key);
        })?;
    }
    if ctx.json {
        output::print_json(&json!({
            "server": target.server,
            "was_signed_in": entry.is_some(),
            "revocation": revocation,
            "deleted": entry.is_some(),
        }))?;
        return Ok(ExitCode::Success);
    }
    let name = output::sanitize(&target.server).into_owned();
    let text = match revocation {
        None => format!("`{name}` was not signed in; nothing to do"),
        Some(Revocation::Revoked) => {
            format!("signed out of `{name}`: tokens revoked at the server and deleted here")
        }
        Some(Revocation::Unsupported) => {
            format!("signed out of `{name}`: tokens deleted here (the server offers no revocation)")
        }
        Some(Revocation::Refused) => format!(
            "signed out of `{name}`: tokens deleted here, not sent for revocation (the revocation endpoint is plain http to a host that is not loopback)"
        ),
        Some(Revocation::Failed) => {
            format!("signed out of `{name}`: tokens deleted here (revocation at the server failed)")
        }
    };
    output::line(text)?;
    Ok(ExitCode::Success)
}
