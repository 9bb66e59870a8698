//! `mcpctl start NAME…|--all`: start servers under the supervisor.

use super::Context;
use super::lifecycle::{self, Names};
use crate::error::{ExitCode, Result};
use crate::supervisor::protocol::Op;

const EXAMPLES: &str = "\
Starting a ready, unchanged server does nothing and succeeds. The whole
start (spawn, initialize, every tools/list page) has one budget: the
definition's connect_timeout, else 180 s. Ready means discovery is complete.

Exit codes: 0 all ready, 1 a start failed, 3 unknown name, 4 disabled,
busy or changed (restart it), 5 supervisor unreachable.

Examples:
  mcpctl start time
  mcpctl start --all --json
  MCPCTL_NO_SPAWN=1 mcpctl start billing   # fail if no supervisor runs";

/// Arguments of `mcpctl start`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    #[command(flatten)]
    names: Names,
}

/// Start the servers and wait until each is ready or failed.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    lifecycle::run_launch(ctx, &args.names, Op::Start)
}
