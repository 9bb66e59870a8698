//! `mcpctl refresh NAME…|--all`: re-list the tools of ready servers.

use super::Context;
use super::lifecycle::{self, Names};
use crate::error::{ExitCode, Result};
use crate::supervisor::protocol::Op;

const EXAMPLES: &str = "\
Only a ready server can be refreshed. Every page of tools/list must arrive
within 30 s; only a complete catalog is published, under a new catalog id.
On failure the old catalog stays, marked stale. Servers that send
notifications/tools/list_changed are refreshed automatically.

Exit codes: 0 refreshed, 1 the refresh failed (old catalog kept),
3 unknown name, 4 not ready, 5 supervisor unreachable.

Examples:
  mcpctl refresh everything
  mcpctl refresh --all --json";

/// Arguments of `mcpctl refresh`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    #[command(flatten)]
    names: Names,
}

/// Refresh the servers' catalogs.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    lifecycle::run(ctx, &args.names, Op::Refresh)
}
