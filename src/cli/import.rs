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

use std::path::PathBuf;

use super::Context;
use super::add::SaveFlags;
use crate::defs::clients::{self, ClientFile};
use crate::defs::{ServerDef, format, render, store};
use crate::error::{Diagnostic, ExitCode, Result, UsageError};
use crate::output::{self, sanitize};
use crate::validate::name;

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
    let from = source_file(&args.from)?;
    let text = store::read_text(&from)?.ok_or_else(|| {
        UsageError::new(
            format!("{} does not exist", from.display()),
            "`mcpctl clients` lists the client files found here",
        )
    })?;
    let parsed = format::parse(&from, &text)?;
    let chosen = choose(parsed.servers, &args.names, &from)?;
    let target = args.save.target(ctx)?;
    let catalog = ctx.catalog()?;
    let mut taken: Vec<String> = catalog.servers().iter().map(|d| d.name.clone()).collect();
    let mut plan = Vec::new();
    let mut conflicts = Vec::new();
    for mut def in chosen {
        let wanted = if name::check(&def.name).is_some() {
            name::suggest(&def.name)
        } else {
            def.name.clone()
        };
        match catalog.servers().iter().find(|d| d.name == wanted) {
            Some(existing) if same_launch(existing, &def) => {
                output::note(format!(
                    "`{}` is already defined the same way in {}; skipped",
                    sanitize(&wanted),
                    existing.source.display()
                ));
                continue;
            }
            Some(existing) if !args.replace => {
                conflicts.push(format!(
                    "`{}` differs from the one in {}",
                    sanitize(&wanted),
                    existing.source.display()
                ));
                continue;
            }
            Some(_) => def.name = wanted,
            None => {
                def.name = unique(&wanted, &taken);
                taken.push(def.name.clone());
            }
        }
        plan.push(def);
    }
    if !conflicts.is_empty() {
        return Err(ImportError::Conflicts(conflicts).into());
    }
    if plan.is_empty() {
        output::note("nothing to import");
        return Ok(ExitCode::Success);
    }
    for mut def in plan {
        // The entry as `add-json` takes it: `mcpServers` JSON.
        let as_json = format::Format {
            syntax: format::Syntax::Json,
            shape: format::Shape::McpServers,
        };
        let entry = render::entry_value(&def, as_json);
        output::note(format!(
            "mcpctl add-json --to {} {} {}",
            single_quoted(&target.display().to_string()),
            def.name,
            single_quoted(&entry.to_string())
        ));
        def.source = target.clone();
        let mut save = args.save.save(target.clone(), true);
        save.force |= args.replace;
        super::add::save_definition(ctx, &catalog, def, &save, &[])?;
    }
    Ok(ExitCode::Success)
}

/// The file `--from` names: a client's (its project file here, else its
/// user file) or a path.
fn source_file(from: &str) -> Result<PathBuf> {
    let files: Vec<ClientFile> = clients::known_here()
        .into_iter()
        .filter(|f| f.client == from && f.client != "mcpctl")
        .collect();
    if files.is_empty() {
        return Ok(PathBuf::from(from));
    }
    files
        .iter()
        .find(|f| f.scope == clients::Scope::Project && f.path.exists())
        .or_else(|| files.iter().find(|f| f.path.exists()))
        .map(|f| f.path.clone())
        .ok_or_else(|| {
            UsageError::new(
                format!("no {from} configuration file here"),
                "`mcpctl clients` lists the files found; or give --from PATH",
            )
            .into()
        })
}

/// The entries named (all when none), in the file's order.
fn choose(
    servers: Vec<ServerDef>,
    names: &[String],
    from: &std::path::Path,
) -> Result<Vec<ServerDef>> {
    if let Some(missing) = names
        .iter()
        .find(|n| !servers.iter().any(|d| &d.name == *n))
    {
        return Err(ImportError::NoSuchEntry {
            name: sanitize(missing).into_owned(),
            file: from.to_path_buf(),
        }
        .into());
    }
    Ok(servers
        .into_iter()
        .filter(|d| names.is_empty() || names.contains(&d.name))
        .collect())
}

/// Whether two definitions launch the same thing (names and files aside).
fn same_launch(a: &ServerDef, b: &ServerDef) -> bool {
    a.launch == b.launch && a.transport == b.transport
}

/// `base`, or `base-2`, `base-3`… when taken.
fn unique(base: &str, taken: &[String]) -> String {
    if !taken.iter().any(|t| t == base) {
        return base.to_string();
    }
    (2..)
        .map(|n| format!("{base}-{n}"))
        .find(|c| !taken.contains(c))
        .expect("some suffix is free")
}

/// Why nothing was imported.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// Entries that exist in the target with another definition.
    #[error("not imported: {}", .0.join("; "))]
    Conflicts(Vec<String>),
    /// A name given on the command line that the source file lacks.
    #[error("no server named `{name}` in {}", file.display())]
    NoSuchEntry {
        /// The name asked for, escaped.
        name: String,
        /// The source file.
        file: PathBuf,
    },
}

impl Diagnostic for ImportError {
    fn exit_code(&self) -> ExitCode {
        match self {
            ImportError::Conflicts(_) => ExitCode::Conflict,
            ImportError::NoSuchEntry { .. } => ExitCode::NotFound,
        }
    }

    fn hint(&self) -> Option<String> {
        Some(match self {
            ImportError::Conflicts(_) => {
                "pass --replace to overwrite them, or import the others by name".to_string()
            }
            ImportError::NoSuchEntry { file, .. } => {
                format!("`mcpctl --file {} list` shows its servers", file.display())
            }
        })
    }
}

/// `text` as one shell word, escaped for the terminal too.
fn single_quoted(text: &str) -> String {
    format!("'{}'", sanitize(text).replace('\'', r"'\''"))
}
