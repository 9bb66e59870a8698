//! `mcpctl tools NAME`: a running server's current tool catalog.

use super::Context;
use super::lifecycle;
use crate::error::{ExitCode, Result, UsageError};
use crate::lock::shown;
use crate::output::{self, Table};
use crate::supervisor::protocol::{Body, HeldTool, Op, ToolInfo};

const EXAMPLES: &str = "\
--json adds the binding id and catalog id; pass the catalog id to
`mcpctl call --catalog-id` to refuse a call if the catalog changed since.

Never starts the supervisor: without one, every server is stopped (exit 4).

Exit codes: 0 ok, 3 unknown name, 4 not running, 5 supervisor unreachable.

Examples:
  mcpctl tools time
  mcpctl tools everything --json | jq -r '.catalog_id'";

/// Arguments of `mcpctl tools`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The server.
    #[arg(value_name = "NAME", add = clap_complete::engine::ArgValueCandidates::new(super::complete::server_names))]
    pub name: String,
}

/// The `--json` document, written as it is serialised (a catalog can be
/// megabytes; it is not copied into a second document first).
#[derive(serde::Serialize)]
struct Doc<'a> {
    schema_version: u64,
    name: &'a str,
    binding_id: &'a str,
    catalog_id: &'a str,
    stale: bool,
    tools: &'a [ToolInfo],
    held: &'a [HeldTool],
}

/// Print the catalog.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let Some(mut client) = lifecycle::connect_existing(ctx)? else {
        return Err(lifecycle::stopped_without_supervisor(ctx, &args.name));
    };
    let body = client.request(Op::Tools { name: args.name })?;
    let Body::Tools {
        name,
        binding_id,
        catalog_id,
        stale,
        tools,
        held,
    } = body
    else {
        return Err(UsageError::new("unexpected answer", "restart the supervisor").into());
    };
    if ctx.json {
        output::print_json_streamed(&Doc {
            schema_version: output::SCHEMA_VERSION,
            name: &name,
            binding_id: &binding_id,
            catalog_id: &catalog_id,
            stale,
            tools: &tools,
            held: &held,
        })?;
        return Ok(ExitCode::Success);
    }
    if stale {
        output::warn(
            "the last refresh failed; this catalog may be out of date",
            Some(&format!("run `mcpctl refresh {name}`")),
        );
    }
    if !held.is_empty() {
        let names: Vec<_> = held.iter().map(|h| shown::name(&h.name)).collect();
        output::warn(
            &format!(
                "{} tool{} held back: {} drifted from the lockfile or lists them twice ({})",
                held.len(),
                if held.len() == 1 { "" } else { "s" },
                name,
                names.join(", ")
            ),
            Some(&format!(
                "review with `mcpctl approve {name} --dry-run`, then `mcpctl approve {name}`"
            )),
        );
    }
    let mut table = Table::new(&["TOOL", "DESCRIPTION"]);
    for t in &tools {
        let first = t
            .description
            .as_deref()
            .unwrap_or("")
            .lines()
            .next()
            .unwrap_or("");
        // Escape before cutting, so the cut is measured on what is printed.
        let desc = crate::text::truncate(&output::sanitize(first), 80);
        table.row(vec![t.name.clone(), desc]);
    }
    table.print()?;
    Ok(ExitCode::Success)
}
