//! `mcpctl import --from CLIENT|PATH [NAME…]`: copy servers from an agent
//! host's own file into mcpctl's, each saved as `add-json` would save it
//! (validated, checked unless `--no-check`, rendered in the target file's
//! shape), so a client's setup moves over without retyping it.
//!
//! A name that is not a valid server name (`Perplexity`, `my server`) is
//! imported under the name mcpctl suggests for it, made unique in the
//! target. An entry that exists in the target with another definition is a
//! conflict: all conflicts are shown and nothing is written unless
//! `--replace`. `${VAR}` references are kept as written, never expanded.
//! The `mcpctl add-json` command that reproduces each entry is printed
//! before it is written.

use super::Context;
use super::save::SaveFlags;
use super::transfer;
use crate::defs::{format, store};
use crate::error::{ExitCode, Result, UsageError};

const EXAMPLES: &str = "\
--from takes a client (claude-code, claude-desktop, cursor, vscode,
windsurf, codex: its project file in the current directory when there is
one, else its user file; see `mcpctl clients`) or a path.

Examples:
  mcpctl import --from vscode
  mcpctl import --from ~/.cursor/mcp.json github linear --no-check
  mcpctl import --from claude-desktop --dry-run
  mcpctl import --from codex --replace --to ops.json";

/// Arguments of `mcpctl import`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The client, or the path of its file.
    #[arg(long, value_name = "CLIENT|PATH")]
    pub from: String,
    /// The servers to import (default: all).
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,
    /// Overwrite entries of the same name that differ.
    #[arg(long)]
    pub replace: bool,
    /// Where to write, and how strictly.
    #[command(flatten)]
    pub save: SaveFlags,
}

/// Import the chosen servers.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let from = transfer::client_file(&args.from, transfer::Purpose::Read)?;
    let text = store::read_text(&from)?.ok_or_else(|| {
        UsageError::new(
            format!("{} does not exist", from.display()),
            "`mcpctl clients` lists the client files found here",
        )
    })?;
    let parsed = format::parse(&from, &text)?;
    let chosen = transfer::choose(parsed.servers, &args.names, &from)?;
    let target = args.save.target(ctx)?;
    let catalog = ctx.catalog()?;
    transfer::copy(
        ctx,
        chosen,
        &catalog,
        &args.save.save(target, true),
        args.replace,
    )
}
