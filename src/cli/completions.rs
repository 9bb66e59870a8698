//! `mcpctl completions SHELL`: print a completion script.
//!
//! The same scripts are committed under `completions/`; a test fails when
//! they drift from the command tree.

use clap_complete::Shell;

use crate::error::{ExitCode, Result};

const EXAMPLES: &str = "\
These scripts complete commands and flags. To complete server and tool
names too, let mcpctl answer each Tab: `source <(COMPLETE=bash mcpctl)`
(zsh: COMPLETE=zsh; fish: `COMPLETE=fish mcpctl | source`).

Examples:
  mcpctl completions bash > ~/.local/share/bash-completion/completions/mcpctl
  mcpctl completions zsh > ~/.zfunc/_mcpctl
  mcpctl completions fish > ~/.config/fish/completions/mcpctl.fish";

/// Arguments of `mcpctl completions`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The shell to generate for.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Write the script to stdout.
pub fn run(args: Args) -> Result<ExitCode> {
    let mut command = super::command();
    clap_complete::generate(args.shell, &mut command, "mcpctl", &mut std::io::stdout());
    Ok(ExitCode::Success)
}
