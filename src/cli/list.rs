//! `mcpctl list`: every server, where it comes from, and whether it is on.

use serde_json::json;

use super::Context;
use crate::error::{ExitCode, Result};
use crate::output::{self, Table};

const EXAMPLES: &str = "\
Columns: NAME, TRANSPORT, TARGET (what it runs or reaches), ENABLED and
SOURCE (the file it comes from). Whether a server runs is `mcpctl status`.

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

/// Print the servers as a table, or the documented JSON document. Entries
/// refused for their name are shown with their error (and make the exit
/// code 2); the others are listed as usual.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let catalog = ctx.catalog()?;
    ctx.warn_untrusted();
    let code = if catalog.refused().is_empty() {
        ExitCode::Success
    } else {
        ExitCode::Usage
    };
    if ctx.json {
        let servers: Vec<_> = catalog
            .servers()
            .iter()
            .map(|def| output::server_json(def, args.show_secrets))
            .collect();
        let invalid: Vec<_> = catalog
            .refused()
            .iter()
            .map(|r| {
                json!({
                    "name": r.name,
                    "source": r.path,
                    "line": r.line,
                    "column": r.column,
                    "error": r.problem,
                    "suggestion": r.suggestion,
                })
            })
            .collect();
        output::print_json(&json!({
            "schema_version": 1,
            "sources": catalog.files,
            "servers": servers,
            "invalid": invalid,
        }))?;
        return Ok(code);
    }
    ctx.report_refused(&catalog);
    for missing in catalog.files.iter().filter(|f| !f.exists) {
        output::note(format!(
            "note: {} does not exist yet",
            missing.path.display()
        ));
    }
    if catalog.servers().is_empty() && catalog.refused().is_empty() {
        output::note(format!(
            "no servers defined in {}; add one with `mcpctl add --command …` or `mcpctl add --url …`",
            catalog.sources.describe()
        ));
        return Ok(ExitCode::Success);
    }
    let mut table = Table::new(&["NAME", "TRANSPORT", "TARGET", "ENABLED", "SOURCE"]);
    // On a terminal long targets are cut so the table stays readable (`show`
    // has the rest); into a pipe or file they are whole, for grep and awk.
    let cut = output::stdout_is_tty();
    for def in catalog.servers() {
        let target = output::sanitize(&def.target()).into_owned();
        table.row(vec![
            def.name.clone(),
            def.transport.to_string(),
            if cut {
                crate::text::truncate(&target, 60)
            } else {
                target
            },
            if def.enabled { "yes" } else { "no" }.to_string(),
            def.source.display().to_string(),
        ]);
    }
    for refused in catalog.refused() {
        table.row(vec![
            refused.name.escape_debug().to_string(),
            "-".to_string(),
            format!("(invalid name; try `{}`)", refused.suggestion),
            "no".to_string(),
            refused.path.display().to_string(),
        ]);
    }
    table.print()?;
    Ok(code)
}
