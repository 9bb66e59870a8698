//! What `import` and `export` share: naming a client's file, and copying
//! definitions into a file the way `add-json` would, with the same rules
//! for names, conflicts and the command shown before each write.

use std::path::PathBuf;

use super::Context;
use super::save::Save;
use crate::defs::clients::{self, ClientFile};
use crate::defs::{Catalog, ServerDef, format, render};
use crate::error::{Diagnostic, ExitCode, Result, UsageError};
use crate::output::{self, sanitize};
use crate::validate::{Policy, name};

/// Whether a client's file is wanted to read from or to write into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// It must exist.
    Read,
    /// It may be created (the project file, for a client that has one).
    Write,
}

/// The file `client_or_path` names: a client's (its project file here when
/// it exists, else its user file) or a path.
pub fn client_file(client_or_path: &str, purpose: Purpose) -> Result<PathBuf> {
    let files: Vec<ClientFile> = clients::known_here()
        .into_iter()
        .filter(|f| f.client == client_or_path && f.client != "mcpctl")
        .collect();
    if files.is_empty() {
        return Ok(PathBuf::from(client_or_path));
    }
    let existing = files
        .iter()
        .find(|f| f.scope == clients::Scope::Project && f.path.exists())
        .or_else(|| files.iter().find(|f| f.path.exists()));
    let new = || {
        files
            .iter()
            .find(|f| f.scope == clients::Scope::Project)
            .or(files.first())
    };
    match (existing, purpose) {
        (Some(found), _) => Ok(found.path.clone()),
        (None, Purpose::Write) => Ok(new().expect("a known client has a file").path.clone()),
        (None, Purpose::Read) => Err(UsageError::new(
            format!("no {client_or_path} configuration file here"),
            "`mcpctl clients` lists the files found; or give a path",
        )
        .into()),
    }
}

/// How [`copy`] saves into `target`: entries that are mcpctl's already
/// (validated when they were added), so no pin is required, under the name
/// they have, connected first only when `check`.
pub(super) fn save_into(target: PathBuf, check: bool, dry_run: bool, show_secrets: bool) -> Save {
    Save {
        target,
        explicit_name: true,
        force: false,
        policy: Policy {
            require_pin: false,
            allow_http: true,
        },
        no_check: !check,
        dry_run,
        show_secrets,
        entry: None,
        note_outside_sources: false,
        registry_notes: None,
        extra_warnings: Vec::new(),
    }
}

/// Copy `defs` into `save.target`, checking names against `against` (the
/// definitions the target's readers see): an invalid name becomes the
/// suggested one, a taken one gets a suffix, an identical definition is
/// skipped, and a different one is a conflict unless `replace`.
pub fn copy(
    ctx: &Context,
    defs: Vec<ServerDef>,
    against: &Catalog,
    save: &Save,
    replace: bool,
) -> Result<ExitCode> {
    let mut taken: Vec<String> = against.servers().iter().map(|d| d.name.clone()).collect();
    let mut plan = Vec::new();
    let mut conflicts = Vec::new();
    for mut def in defs {
        let wanted = if name::check(&def.name).is_some() {
            name::suggest(&def.name)
        } else {
            def.name.clone()
        };
        match against.servers().iter().find(|d| d.name == wanted) {
            Some(existing) if same_launch(existing, &def) => {
                output::note(format!(
                    "`{}` is already defined the same way in {}; skipped",
                    sanitize(&wanted),
                    existing.source.display()
                ));
                continue;
            }
            Some(existing) if !replace => {
                conflicts.push(format!(
                    "`{}` differs from the one in {}",
                    sanitize(&wanted),
                    existing.source.display()
                ));
                continue;
            }
            Some(_) => def.name = wanted,
            None => {
                def.name = super::save::unique_name(&wanted, &taken, &[]);
                taken.push(def.name.clone());
            }
        }
        plan.push(def);
    }
    if !conflicts.is_empty() {
        return Err(TransferError::Conflicts(conflicts).into());
    }
    if plan.is_empty() {
        output::note("nothing to copy");
        return Ok(ExitCode::Success);
    }
    // The entry as `add-json` takes it: `mcpServers` JSON.
    let as_json = format::Format {
        syntax: format::Syntax::Json,
        shape: format::Shape::McpServers,
        dialect: format::Dialect::Common,
    };
    let save = Save {
        force: save.force || replace,
        registry_notes: None,
        extra_warnings: Vec::new(),
        entry: None,
        target: save.target.clone(),
        ..*save
    };
    for mut def in plan {
        output::note(format!(
            "mcpctl add-json --to {} {} {}",
            single_quoted(&save.target.display().to_string()),
            def.name,
            single_quoted(
                &render::entry_value(&output::shown_def(&def, save.show_secrets), as_json)
                    .to_string()
            )
        ));
        def.source = save.target.clone();
        super::save::save_definition(ctx, against, None, def, &save, &[])?;
    }
    Ok(ExitCode::Success)
}

/// The entries of `servers` named in `names` (all when none), in their
/// order; a name `servers` lacks is an error naming `from`.
pub fn choose(
    servers: Vec<ServerDef>,
    names: &[String],
    from: &std::path::Path,
) -> Result<Vec<ServerDef>> {
    if let Some(missing) = names
        .iter()
        .find(|n| !servers.iter().any(|d| &d.name == *n))
    {
        return Err(TransferError::NoSuchEntry {
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

/// Whether two definitions launch the same thing (names and files aside),
/// `${VAR}` and `${env:VAR}` being the same reference.
fn same_launch(a: &ServerDef, b: &ServerDef) -> bool {
    fn normalized(def: &ServerDef) -> serde_json::Value {
        let mut value = serde_json::to_value(&def.launch).unwrap_or_default();
        render::strings_in_env_dialect(&mut value);
        value
    }
    a.transport == b.transport && normalized(a) == normalized(b)
}

/// `text` as one shell word, escaped for the terminal too.
fn single_quoted(text: &str) -> String {
    format!("'{}'", sanitize(text).replace('\'', r"'\''"))
}

/// Why nothing was copied.
#[derive(Debug, thiserror::Error)]
pub enum TransferError {
    /// Entries that exist in the target with another definition.
    #[error("not copied: {}", .0.join("; "))]
    Conflicts(Vec<String>),
    /// A name given on the command line that the source lacks.
    #[error("no server named `{name}` in {}", file.display())]
    NoSuchEntry {
        /// The name asked for, escaped.
        name: String,
        /// The source file.
        file: PathBuf,
    },
}

impl Diagnostic for TransferError {
    fn exit_code(&self) -> ExitCode {
        match self {
            TransferError::Conflicts(_) => ExitCode::Conflict,
            TransferError::NoSuchEntry { .. } => ExitCode::NotFound,
        }
    }

    fn hint(&self) -> Option<String> {
        Some(match self {
            TransferError::Conflicts(_) => {
                "pass --replace to overwrite them, or name the others".to_string()
            }
            TransferError::NoSuchEntry { file, .. } => {
                format!("`mcpctl --file {} list` shows its servers", file.display())
            }
        })
    }
}
