//! `mcpctl approve NAME`: accept a server's drift. Shows what changed since
//! the lock, then writes the server's new block, which releases the tools
//! the supervisor held back. When a supervisor runs the server, the tools
//! approved are the ones it holds (its catalog is what runs); otherwise
//! they come from a direct connection, as `check` makes.

use serde_json::json;

use super::Context;
use super::lock::drift::print_changes;
use super::lock::observe::{Locks, observe, parse_timeout, report_failures};
use super::lock::write_blocks;
use crate::error::{ExitCode, Result};
use crate::lock::diff::{Change, capabilities_note, compare};
use crate::output;
use crate::supervisor::protocol::{Body, Op};

const LONG_ABOUT: &str = "\
Connect to the server (as `check` does), compare it with its block in the
lockfile (its tools as the running supervisor holds them, when it runs the
server), show every difference (descriptions diffed line by line, schemas by
the JSON paths that changed, tools added, removed or renamed, versions), and
write the server's new block. A running supervisor releases the held tools at
its next `tools` or `call`: it re-reads the lockfile when it changes.

Approving is the operator's decision to trust what the server now says;
--dry-run only shows the difference.

Exit status: 0 approved (or nothing to approve); 1 the server failed;
2 the lockfile is malformed (it is left as it is); 3 no such server.";

const EXAMPLES: &str = "\
Examples:
  mcpctl approve time --dry-run     # what changed since the lock
  mcpctl approve time               # accept it; servers.lock is updated";

/// Arguments of `mcpctl approve`.
#[derive(Debug, clap::Args)]
#[command(long_about = LONG_ABOUT, after_long_help = EXAMPLES)]
pub struct Args {
    /// The server whose drift to accept.
    #[arg(value_name = "NAME", add = clap_complete::engine::ArgValueCandidates::new(super::complete::server_names))]
    pub name: String,

    /// Show the difference; write nothing.
    #[arg(long)]
    pub dry_run: bool,

    /// Budget in seconds, overriding the server's connect_timeout.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
}

/// Show the drift of one server and write its new block.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let catalog = ctx.catalog()?;
    let defs = super::lock::observe::pick(ctx, &catalog, std::slice::from_ref(&args.name))?;
    let mut locks = Locks::new(ctx.allow_insecure_file);
    let (path, lock) = locks.get(&defs[0].source)?.clone();
    let observed = observe(defs, parse_timeout(args.timeout)?, None)?;
    if report_failures(&observed) > 0 {
        return Ok(ExitCode::Failed);
    }
    let Some((def, Ok(mut block))) = observed.into_iter().next() else {
        return Ok(ExitCode::Failed);
    };
    let held_by_supervisor = match supervised_tools(ctx, &def.name)? {
        Some(tools) => {
            block.tools = crate::lock::tools(&tools);
            true
        }
        None => false,
    };
    let locked = lock.as_ref().and_then(|l| l.servers.get(&def.name));
    let changes = match locked {
        Some(locked) => compare(locked, &block, false),
        None => vec![Change::NotLocked],
    };
    let note = locked.and_then(|locked| capabilities_note(locked, &changes));
    let approved = !changes.is_empty() && !args.dry_run;
    if approved {
        write_blocks(&def.source, &[(def.name.clone(), block)], None)?;
    }
    if ctx.json {
        output::print_json(&json!({
            "schema_version": 1,
            "name": def.name,
            "lockfile": path,
            "changes": changes,
            "approved": approved,
            "tools_from": if held_by_supervisor { "supervisor" } else { "direct" },
        }))?;
        return Ok(ExitCode::Success);
    }
    if held_by_supervisor {
        output::note(format!(
            "{}: tools as the running supervisor holds them",
            def.name
        ));
    }
    if changes.is_empty() {
        output::line(format!(
            "{} matches {}; nothing to approve",
            def.name,
            path.display()
        ))?;
        return Ok(ExitCode::Success);
    }
    output::line(format!(
        "{} ({}): {} change{}",
        def.name,
        path.display(),
        changes.len(),
        if changes.len() == 1 { "" } else { "s" }
    ))?;
    print_changes(&changes)?;
    if let Some(note) = note {
        output::line(format!("  note: {note}"))?;
    }
    output::line(if approved {
        format!("approved: {} updated", path.display())
    } else {
        "dry run: nothing was written".to_string()
    })?;
    Ok(ExitCode::Success)
}

/// Every tool of `name`'s catalog as a running supervisor holds it (the
/// held ones too); `None` when no supervisor runs it (not running, not
/// ready, or a supervisor older than the `catalog` request).
fn supervised_tools(ctx: &Context, name: &str) -> Result<Option<Vec<rmcp::model::Tool>>> {
    let Some(mut client) = super::lifecycle::connect_existing(ctx)? else {
        return Ok(None);
    };
    let Ok(Body::Tools { tools, .. }) = client.request(Op::Catalog {
        name: name.to_string(),
    }) else {
        return Ok(None);
    };
    let tools = tools
        .into_iter()
        .filter_map(|t| serde_json::to_value(t).ok())
        .filter_map(|v| serde_json::from_value(v).ok())
        .collect();
    Ok(Some(tools))
}
