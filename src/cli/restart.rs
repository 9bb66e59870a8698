//! `mcpctl restart NAME…|--all`: stop, then start.

use super::Context;
use super::lifecycle::{self, Names};
use crate::error::{ExitCode, Result};
use crate::supervisor::protocol::Op;

const EXAMPLES: &str = "\
Restart is stop then start (not atomic): the server gets a new process, a
new binding id and a new catalog id, and picks up a changed definition.
Calls in flight fail and are never replayed.

Exit codes: 0 ready, 1 the start failed, 3 unknown name, 4 disabled,
5 supervisor unreachable.

Examples:
  mcpctl restart billing
  mcpctl restart --all --json";

/// Arguments of `mcpctl restart`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    #[command(flatten)]
    names: Names,
}

/// Restart the servers.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    lifecycle::run_launch(ctx, &args.names, Op::Restart)
}
