//! The flags `add`, `add-json` and `import` share: which file to write, and
//! how strictly to validate and check before writing it.

use std::path::PathBuf;

use super::request::Save;
use crate::cli::Context;
use crate::error::{Result, UsageError};
use crate::validate::Policy;

/// `-s/--scope`, as Claude Code spells it, mapped onto mcpctl's files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Scope {
    /// The file `add` writes without a scope: `--to`, else the first
    /// definition file (Claude Code's default scope too).
    Local,
    /// The per-user mcpctl file (`~/.config/mcpctl/servers.json`).
    User,
    /// `.mcp.json` in the current directory, shared with the project.
    Project,
}

/// The flags `add` and `add-json` share: which file to write, and how
/// strictly to validate and check before writing it.
#[derive(Debug, clap::Args)]
pub struct SaveFlags {
    /// File to write (default: the first definition file).
    #[arg(long, value_name = "FILE")]
    pub to: Option<PathBuf>,
    /// Which file to write, as Claude Code names it: local (the default:
    /// --to, else the first definition file), user (the per-user mcpctl
    /// file), project (.mcp.json here).
    #[arg(
        short = 's',
        long,
        value_enum,
        value_name = "SCOPE",
        conflicts_with = "to"
    )]
    pub scope: Option<Scope>,
    /// Accept plain http:// to a public host (private, link-local,
    /// single-label and .internal/.local hosts need no flag).
    #[arg(long)]
    pub allow_http: bool,
    /// Replace an existing server of that name; accept a launcher that is
    /// not installed here; drop comments an edit cannot keep.
    #[arg(long)]
    pub force: bool,
    /// Treat unpinned package versions as errors (MCPCTL_REQUIRE_PIN takes
    /// 1/0, true/false, yes/no or on/off).
    #[arg(
        long,
        env = "MCPCTL_REQUIRE_PIN",
        value_parser = clap::builder::BoolishValueParser::new()
    )]
    pub require_pin: bool,
    /// Do not connect to the server before saving.
    #[arg(long)]
    pub no_check: bool,
    /// Validate and print what would be written, but write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Show literal env and header values in the output.
    #[arg(long)]
    pub show_secrets: bool,
}

impl SaveFlags {
    /// The file `-s/--scope` (or `--to`, or the first source) names.
    pub(crate) fn target(&self, ctx: &Context) -> Result<PathBuf> {
        Ok(match self.scope {
            None | Some(Scope::Local) => self
                .to
                .clone()
                .unwrap_or_else(|| ctx.sources.primary().to_path_buf()),
            Some(Scope::User) => crate::defs::sources::default_file(),
            Some(Scope::Project) => std::env::current_dir()
                .map_err(UsageError::from)?
                .join(".mcp.json"),
        })
    }

    /// How to save to `target` (an entry rendered from the definition, no
    /// registry notes).
    pub(crate) fn save(&self, target: PathBuf, explicit_name: bool) -> Save {
        Save {
            target,
            explicit_name,
            force: self.force,
            policy: Policy {
                require_pin: self.require_pin,
                allow_http: self.allow_http,
            },
            no_check: self.no_check,
            dry_run: self.dry_run,
            show_secrets: self.show_secrets,
            entry: None,
            note_outside_sources: self.scope.is_some(),
            registry_notes: None,
            extra_warnings: Vec::new(),
        }
    }
}
