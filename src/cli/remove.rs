//! `mcpctl remove NAME…`: delete definitions (and the comment above each).

use serde_json::json;

use super::{Context, toggle};
use crate::defs::edit::Edit;
use crate::error::{ExitCode, Result, UsageError};
use crate::output;

const EXAMPLES: &str = "\
Examples:
  mcpctl remove time
  mcpctl rm everything billing --yes
  mcpctl remove old --file legacy.yaml --json";

/// Arguments of `mcpctl remove`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The servers to remove.
    #[arg(required = true, value_name = "NAME", add = clap_complete::engine::ArgValueCandidates::new(super::complete::server_names))]
    pub names: Vec<String>,
    /// Do not ask for confirmation on a terminal.
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Drop comments that an edit cannot keep.
    #[arg(long)]
    pub force: bool,
}

/// Remove the named servers from whichever files define them.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let catalog = ctx.catalog()?;
    let groups = toggle::group_by_file(&catalog, &args.names)?;
    if ctx.interactive && !args.yes && !ctx.json {
        let listing: Vec<String> = groups
            .iter()
            .flat_map(|(file, names)| {
                names
                    .iter()
                    .map(move |name| format!("`{name}` from {}", file.display()))
            })
            .collect();
        let confirmed = dialoguer::Confirm::new()
            .with_prompt(output::sanitize(&format!("Remove {}?", listing.join(", "))))
            .default(false)
            .interact()
            .map_err(|err| {
                UsageError::new(format!("cannot ask for confirmation: {err}"), "pass --yes")
            })?;
        if !confirmed {
            output::note("nothing removed");
            return Ok(ExitCode::Failed);
        }
    }
    let mut removed = Vec::new();
    for (file, names) in &groups {
        toggle::edit_file(file, names, args.force, |name| Edit::Remove {
            name: name.to_string(),
        })?;
        for name in names {
            removed.push(json!({"name": name, "file": file}));
            if !ctx.json {
                output::line(format!("removed `{name}` from {}", file.display()))?;
            }
        }
    }
    if ctx.json {
        output::print_json(&json!({ "removed": removed }))?;
    }
    Ok(ExitCode::Success)
}
