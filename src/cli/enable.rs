//! `mcpctl enable NAME…`: keep the definition, mark it enabled.

use super::{Context, toggle};
use crate::error::{ExitCode, Result};

const EXAMPLES: &str = "\
Examples:
  mcpctl enable time
  mcpctl enable everything billing --json
  mcpctl disable time   # undo";

/// Arguments of `mcpctl enable`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The servers to enable.
    #[arg(required = true, value_name = "NAME", add = clap_complete::engine::ArgValueCandidates::new(super::complete::server_names))]
    pub names: Vec<String>,
}

/// Enable the named servers, in each file's own vocabulary.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    toggle::set_enabled(ctx, &args.names, true)
}
