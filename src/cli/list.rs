//! `mcpctl list`: every server, where it comes from, and whether it is on.

use serde_json::json;

use super::Context;
use crate::error::{ExitCode, Result};
use crate::output::{self, Table};

const EXAMPLES: &str = "\
Examples:
  mcpctl list
  mcpctl ls --file .mcp.json --file ops.yaml
  mcpctl list --json | jq -r '.servers[] | select(.enabled) | .name'";

/// Arguments of `mcpctl list`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// Show literal env and header values instead of <redacted> (JSON only).
    #[arg(long)]
    pub show_secrets: bool,
}

/// Print the servers as a table, or the documented JSON document.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let catalog = ctx.catalog()?;
    if ctx.json {
        let servers: Vec<_> = catalog
            .servers()
            .iter()
            .map(|def| output::server_json(def, args.show_secrets))
            .collect();
        output::print_json(&json!({
            "schema_version": 1,
            "sources": catalog.files,
            "servers": servers,
        }))?;
        return Ok(ExitCode::Success);
    }
    for missing in catalog.files.iter().filter(|f| !f.exists) {
        eprintln!("note: {} does not exist yet", missing.path.display());
    }
    if catalog.servers().is_empty() {
        eprintln!(
            "no servers defined in {}; add one with `mcpctl add --command …` or `mcpctl add --url …`",
            catalog.sources.describe()
        );
        return Ok(ExitCode::Success);
    }
    let mut table = Table::new(&["NAME", "TRANSPORT", "TARGET", "ENABLED", "SOURCE"]);
    for def in catalog.servers() {
        table.row(vec![
            def.name.clone(),
            def.transport.to_string(),
            // Long targets are cut so the table stays readable; `show` has the rest.
            crate::text::truncate(&def.target(), 60),
            if def.enabled { "yes" } else { "no" }.to_string(),
            def.source.display().to_string(),
        ]);
    }
    table.print()?;
    Ok(ExitCode::Success)
}
