//! `mcpctl revoke NAME [TOOL…]`: take tools back from `mcpctl serve`.
//!
//! Needs no supervisor: it only edits the entry's grants. A running
//! `serve` notices the file change, hides the tools and tells its agents.

use serde_json::json;

use super::Context;
use super::grant::{check_profile, write};
use crate::error::{ExitCode, Result};
use crate::output;

const EXAMPLES: &str = "\
Without TOOL, every tool of the server is revoked for that profile.
Revoking a tool that is not granted changes nothing and succeeds.

Exit codes: 0 revoked, 2 invalid profile name, 3 unknown server.

Examples:
  mcpctl revoke everything get-sum
  mcpctl revoke time
  mcpctl revoke everything --profile reviewer";

/// Arguments of `mcpctl revoke`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The server.
    #[arg(value_name = "NAME", add = clap_complete::engine::ArgValueCandidates::new(super::complete::server_names))]
    pub name: String,
    /// The tools to revoke (default: all of the server's).
    #[arg(value_name = "TOOL")]
    pub tools: Vec<String>,
    /// Revoke from this profile instead of the default.
    #[arg(long, value_name = "PROFILE")]
    pub profile: Option<String>,
}

/// Revoke the tools.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    if let Some(profile) = &args.profile {
        check_profile(profile)?;
    }
    let catalog = ctx.catalog()?;
    let def = catalog.get(&args.name)?.clone();
    let before = def
        .grants
        .of(args.profile.as_deref())
        .cloned()
        .unwrap_or_default();
    let mut set = before.clone();
    if args.tools.is_empty() {
        set.clear();
    } else {
        for tool in &args.tools {
            set.shift_remove(tool);
        }
    }
    let revoked: Vec<String> = before
        .keys()
        .filter(|k| !set.contains_key(*k))
        .cloned()
        .collect();
    if !revoked.is_empty() {
        write(&def, args.profile.as_deref(), set)?;
    }
    if ctx.json {
        output::print_json(&json!({
            "name": args.name,
            "profile": args.profile,
            "file": def.source,
            "revoked": revoked,
        }))?;
    } else if revoked.is_empty() {
        output::line(format!("nothing to revoke for `{}`", args.name))?;
    } else {
        let names: Vec<String> = revoked
            .iter()
            .map(|t| output::sanitize(t).into_owned())
            .collect();
        output::line(format!(
            "revoked {} of `{}` in {}",
            names.join(", "),
            args.name,
            def.source.display()
        ))?;
    }
    Ok(ExitCode::Success)
}
