//! `mcpctl export --to CLIENT|PATH [NAME…]`: write servers from mcpctl's
//! files into an agent host's own file, in that file's shape (VS Code's
//! `servers` with `type`, Codex's TOML tables, `mcpServers` for the rest),
//! editing it in place so its other settings and comments stay.

use super::Context;
use super::transfer;
use crate::defs::{Catalog, Sources};
use crate::error::{ExitCode, Result};

const EXAMPLES: &str = "\
--to takes a client (claude-code, claude-desktop, cursor, vscode, windsurf,
codex: its project file in the current directory when there is one or the
client has one, else its user file; see `mcpctl clients`) or a path. The
same rules as `import` apply: identical entries are skipped, differing ones
need --replace.

Examples:
  mcpctl export --to vscode time everything
  mcpctl export --to codex --dry-run
  mcpctl export --to ~/.cursor/mcp.json github --replace";

/// Arguments of `mcpctl export`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The client, or the path of its file.
    #[arg(long, value_name = "CLIENT|PATH")]
    pub to: String,
    /// The servers to export (default: all).
    #[arg(
        value_name = "NAME",
        add = clap_complete::engine::ArgValueCandidates::new(super::complete::server_names)
    )]
    pub names: Vec<String>,
    /// Overwrite entries of the same name that differ.
    #[arg(long)]
    pub replace: bool,
    /// Connect to each server before writing it, as `add` does.
    #[arg(long)]
    pub check: bool,
    /// Print what would be written, write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Show literal env and header values in the output.
    #[arg(long)]
    pub show_secrets: bool,
}

/// Export the chosen servers.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let catalog = ctx.catalog()?;
    let chosen = transfer::choose(
        catalog.servers().to_vec(),
        &args.names,
        catalog.sources.primary(),
    )?;
    let target = transfer::client_file(&args.to, transfer::Purpose::Write)?;
    warn_unconfined_there(&chosen, &args.to);
    // `sandbox` is mcpctl's field: another client neither reads it nor
    // needs to be told of it (a strict reader may refuse the entry).
    let chosen = chosen
        .into_iter()
        .map(|mut def| {
            def.sandbox = None;
            def
        })
        .collect();
    let against = Catalog::load(&Sources::resolve(std::slice::from_ref(&target)))?;
    let save = transfer::save_into(target, args.check, args.dry_run, args.show_secrets);
    transfer::copy(ctx, chosen, &against, &save, args.replace)
}

/// Another agent host launches what it reads itself and knows nothing of
/// mcpctl's `sandbox` field: say, per entry, that a sandboxed server will
/// run unconfined there.
fn warn_unconfined_there(chosen: &[crate::defs::ServerDef], client: &str) {
    use crate::defs::sandbox_kind::{SandboxKind, sandbox_kind};
    let client = crate::output::sanitize(client);
    for def in chosen {
        let Some(kind @ (SandboxKind::None | SandboxKind::Network | SandboxKind::Profile)) =
            sandbox_kind(def)
        else {
            continue;
        };
        crate::output::warn(
            &format!(
                "`{}` runs in a sandbox ({kind}) under mcpctl, but {client} launches it itself and does not read `sandbox`: there it runs unconfined",
                crate::output::sanitize(&def.name)
            ),
            Some(&format!(
                "to keep it contained, give {client} `mcpctl serve` instead (`mcpctl serve --write-config`), which reaches the server mcpctl launches"
            )),
        );
    }
}
