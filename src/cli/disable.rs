//! `mcpctl disable NAME…`: keep the definition, mark it disabled.

use super::{Context, toggle};
use crate::error::{ExitCode, Result};

const EXAMPLES: &str = "\
Examples:
  mcpctl disable time
  mcpctl disable everything billing --json
  mcpctl enable time   # undo";

/// Arguments of `mcpctl disable`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The servers to disable.
    #[arg(required = true, value_name = "NAME", add = clap_complete::engine::ArgValueCandidates::new(super::complete::server_names))]
    pub names: Vec<String>,
}

/// Disable the named servers, in each file's own vocabulary.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    toggle::set_enabled(ctx, &args.names, false)
}
