//! `mcpctl auth status [NAME]`: which OAuth servers are signed in, with
//! issuer, scopes and expiry; never a token.

use serde_json::json;

use super::Context;
use crate::auth::flow::Target;
use crate::auth::store;
use crate::error::{ExitCode, Result};
use crate::output;

const EXAMPLES: &str = "\
Examples:
  mcpctl auth status
  mcpctl auth status linear
  mcpctl auth status --json | jq '.servers[] | select(.signed_in | not) | .name'";

/// `mcpctl auth …`.
#[derive(Debug, clap::Subcommand)]
pub enum Verb {
    /// Show, per OAuth server, whether it is signed in, the issuer, the
    /// scopes and when the token expires.
    #[command(after_long_help = EXAMPLES)]
    Status(StatusArgs),
}

/// Arguments of `mcpctl auth status`.
#[derive(Debug, clap::Args)]
pub struct StatusArgs {
    /// Only this server (default: every server with `auth: oauth`).
    #[arg(add = clap_complete::engine::ArgValueCandidates::new(super::complete::server_names))]
    pub name: Option<String>,
}

/// Run an `auth` verb.
pub fn run(ctx: &Context, verb: Verb) -> Result<ExitCode> {
    match verb {
        Verb::Status(args) => status(ctx, args),
    }
}

fn status(ctx: &Context, args: StatusArgs) -> Result<ExitCode> {
    let catalog = ctx.catalog()?;
    let defs: Vec<_> = match &args.name {
        Some(name) => vec![catalog.get(name)?],
        None => catalog
            .servers()
            .iter()
            .filter(|d| d.auth.is_some())
            .collect(),
    };
    let file = store::read()?;
    let mut rows = Vec::new();
    for def in defs {
        let target = Target::from_def(def)?;
        let entry = file.for_resource(&target.url);
        let mut row = match entry {
            Some(entry) => super::login::entry_json(entry),
            None => json!({}),
        };
        row["name"] = json!(def.name);
        row["grant"] = json!(target.oauth.grant);
        row["signed_in"] = json!(entry.is_some());
        rows.push(row);
    }
    if ctx.json {
        output::print_json(&json!({ "servers": rows }))?;
        return Ok(ExitCode::Success);
    }
    if rows.is_empty() {
        output::line("no server uses OAuth (add one with `mcpctl add --url URL --auth oauth`)")?;
        return Ok(ExitCode::Success);
    }
    let mut table = output::Table::new(&["NAME", "SIGNED IN", "ISSUER", "SCOPES", "EXPIRES"]);
    for row in &rows {
        let text = |key: &str| row[key].as_str().map(str::to_string).unwrap_or_default();
        let signed_in = if row["signed_in"] == json!(true) {
            if row["expired"] == json!(true) {
                "expired"
            } else {
                "yes"
            }
        } else {
            "no"
        };
        let scopes = row["scopes"]
            .as_array()
            .map(|s| {
                s.iter()
                    .filter_map(|v| v.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_default();
        table.row(vec![
            output::sanitize(&text("name")).into_owned(),
            signed_in.to_string(),
            output::sanitize(&text("issuer")).into_owned(),
            output::sanitize(&scopes).into_owned(),
            text("expires_at"),
        ]);
    }
    table.print()?;
    Ok(ExitCode::Success)
}
