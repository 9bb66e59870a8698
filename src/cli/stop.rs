//! `mcpctl stop NAME…|--all`: stop supervised servers.

use super::Context;
use super::lifecycle::{self, Names};
use crate::error::{ExitCode, Result};
use crate::supervisor::protocol::Op;

const EXAMPLES: &str = "\
Stopping closes admission, fails calls in flight (they are not retried),
sends TERM to the server's process group, waits 5 s, sends KILL and reaps
every process. Stopping a stopped server succeeds.

Exit codes: 0 stopped, 3 unknown name, 5 supervisor unreachable.

Examples:
  mcpctl stop time
  mcpctl stop --all
  mcpctl stop billing --json | jq '.results[0].status.state'";

/// Arguments of `mcpctl stop`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    #[command(flatten)]
    names: Names,
}

/// Stop the servers.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    lifecycle::run(ctx, &args.names, Op::Stop)
}
