//! The save pipeline every kind of `add` shares (`add`, `add-json`,
//! `import`, `export`): name, validate, check by connecting, then write the
//! entry without touching anything else in the file, and report.

mod entry;
mod flags;
mod names;
mod report;
mod request;

use std::path::Path;

pub use self::flags::SaveFlags;
pub(super) use self::names::unique as unique_name;
use self::report::{note_if_outside_sources, report};
pub(super) use self::request::{RegistryNotes, Save};
use super::Context;
use crate::defs::catalog::ReadFile;
use crate::defs::edit::{self, Edit};
use crate::defs::format::{self, Format, ParsedFile};
use crate::defs::{Catalog, DefsError, Launch, ServerDef, Transport, store};
use crate::error::Result;
use crate::output;
use crate::registry::install::SecretValue;
use crate::validate::{Finding, Rule, Severity, ValidationError};

/// Validate, check and write `def` to `save.target`: the steps every kind of
/// `add` shares. `kept` is the target as the catalog read it, when it did
/// (see [`Catalog::load_keeping`]). Returns the definition as shown
/// (secrets masked) and the format written, or `None` for a dry run.
pub(super) fn save_definition(
    ctx: &Context,
    catalog: &Catalog,
    kept: Option<ReadFile>,
    mut def: ServerDef,
    save: &Save,
    stored_secrets: &[SecretValue],
) -> Result<Option<(ServerDef, Format)>> {
    let target = &save.target;
    let shown = |def: &ServerDef| {
        crate::registry::install::mask_secrets(def, stored_secrets, output::REDACTED)
    };
    if save.explicit_name {
        names::refuse_explicit(catalog, &def, target)?;
    }
    let warnings = validated(ctx, &def, save)?;
    let other_names: Vec<String> = catalog
        .servers()
        .iter()
        .filter(|d| d.source != *target)
        .map(|d| d.name.clone())
        .collect();
    // Every message names the entry as it will be saved (`x-2` when `x` is
    // taken), so the name is settled before the check prints it.
    let (existing, parsed, names) = read_target(target, kept)?;
    if !save.explicit_name {
        def.name = unique_name(&def.name, &names, &other_names);
    }
    print_registry_notes(save, &def);

    if save.dry_run {
        if save.explicit_name && names.contains(&def.name) && !save.force {
            return Err(exists(&def, target));
        }
        let format = Some(parsed.format);
        report(ctx, save, &shown(&def), "would add", &warnings, format)?;
        return Ok(None);
    }
    // An OAuth server is saved unchecked: it cannot answer before `login`.
    if !save.no_check && def.auth.is_none() {
        check_before_save(ctx, &mut def, save)?;
    }
    let read_before = (existing, parsed, names);
    let (action, written_format) = write(save, &mut def, &other_names, read_before)?;
    let def = shown(&def);
    report(ctx, save, &def, action, &warnings, None)?;
    if save.note_outside_sources && !ctx.json {
        note_if_outside_sources(ctx, target);
    }
    Ok(written_format.map(|format| (def, format)))
}

/// The findings of validation: errors refuse the save, warnings are
/// printed (on a terminal) and returned with the registry's own.
fn validated(ctx: &Context, def: &ServerDef, save: &Save) -> Result<Vec<Finding>> {
    let findings = validate_for_save(def, save);
    let (errors, mut warnings): (Vec<Finding>, Vec<Finding>) = findings
        .into_iter()
        .partition(|f| f.severity == Severity::Error);
    if !ctx.json {
        output::warn_findings(&warnings);
    }
    if !errors.is_empty() {
        return Err(ValidationError { findings: errors }.into());
    }
    warnings.extend(save.extra_warnings.iter().cloned());
    Ok(warnings)
}

/// Launcher, pin and URL rules; `--force` lets a missing launcher through.
fn validate_for_save(def: &ServerDef, save: &Save) -> Vec<Finding> {
    crate::defs::rules::check_definition(def, save.policy)
        .into_iter()
        .map(|mut finding| {
            if save.force && finding.rule == Rule::Launcher {
                finding.severity = Severity::Warning;
                finding.hint = format!("{} (saved anyway because of --force)", finding.hint);
            }
            finding
        })
        .collect()
}

/// The registry's notes, naming the entry as it will be saved.
fn print_registry_notes(save: &Save, def: &ServerDef) {
    if let Some((suggested, notes)) = &save.registry_notes {
        for note in notes {
            let note = note.replace(
                &format!("`mcpctl start {suggested}`"),
                &format!("`mcpctl start {}`", def.name),
            );
            output::note(format!("note: {note}"));
        }
    }
}

/// Connect and list tools before saving (issue 3); refuse on failure
/// unless --force. The budget is the definition's connect_timeout. A server
/// that asks for a bearer token gets an offer to sign in on a terminal.
fn check_before_save(ctx: &Context, def: &mut ServerDef, save: &Save) -> Result<()> {
    ctx.require_trusted(&save.target)?;
    let checked = match super::check::check_one(def, None)? {
        Err(err) if !save.force => match super::add_oauth::bearer_challenge(&err) {
            Some(challenge) => super::add_oauth::offer_sign_in(ctx, def, challenge)?,
            None => Err(err),
        },
        other => other,
    };
    match checked {
        Ok(found) => {
            output::note(format!(
                "{}: {}",
                output::sanitize(&def.name),
                crate::check::summary(&found)
            ));
            settle_transport(def, found.transport);
        }
        Err(err) if save.force => output::warn(
            &format!("{err} (saving anyway because of --force)"),
            crate::error::Diagnostic::hint(&err).as_deref(),
        ),
        Err(err) => return Err(super::check::NotSaved(err).into()),
    }
    Ok(())
}

/// Save the transport that answered the check when `--transport` was not
/// given, so the entry needs no detection at the next launch.
fn settle_transport(def: &mut ServerDef, answered: Transport) {
    if !def.transport_inferred {
        return;
    }
    def.transport = answered;
    def.transport_inferred = false;
    if let Launch::Remote { transport, .. } = &mut def.launch {
        *transport = answered;
    }
}

/// Add (or, with `--force` and an explicit name, replace) the entry under
/// the file's lock, read afresh: the action taken and the format written.
fn write(
    save: &Save,
    def: &mut ServerDef,
    other_names: &[String],
    read_before: ReadBefore,
) -> Result<(&'static str, Option<Format>)> {
    let target = &save.target;
    let mut action = "added";
    let mut written_format = None;
    let mut read_before = Some(read_before);
    store::modify(target, |current| {
        let (parsed, names) = state_under_lock(target, current, read_before.take())?;
        let format = parsed.format;
        written_format = Some(format);
        let value = entry::planned(save, def, format);
        let edit = if save.explicit_name && names.contains(&def.name) {
            if !save.force {
                return Err(exists(def, target));
            }
            action = "replaced";
            Edit::Replace {
                name: def.name.clone(),
                value,
            }
        } else {
            if !save.explicit_name {
                def.name = unique_name(&def.name, &names, other_names);
            }
            Edit::Add {
                name: def.name.clone(),
                value,
            }
        };
        let text = current.unwrap_or("");
        let new_text = edit::apply(target, text, &parsed, &[edit], save.force)?;
        Ok(Some((new_text, ())))
    })?;
    Ok((action, written_format))
}

/// `def`'s name is already in `target`.
fn exists(def: &ServerDef, target: &Path) -> crate::error::Error {
    DefsError::Exists {
        name: def.name.clone(),
        path: target.to_path_buf(),
    }
    .into()
}

/// The file as read before the check, its parse and its names.
type ReadBefore = (Option<String>, ParsedFile, Vec<String>);

/// `target` as the catalog kept it, else as read now: its text, parse
/// and names.
fn read_target(target: &Path, kept: Option<ReadFile>) -> Result<ReadBefore> {
    let (existing, parsed) = match kept {
        Some(ReadFile { text, parsed }) => (text, parsed),
        None => {
            let existing = store::read_text(target)?;
            let parsed = parse_or_empty(target, existing.as_deref())?;
            (existing, parsed)
        }
    };
    let names = names_of(&parsed);
    Ok((existing, parsed, names))
}

/// `current`'s parse and names under the lock: the parse made before the
/// check when the file has not changed since (a 1,000-server file is not
/// parsed twice for nothing), else a new one.
fn state_under_lock(
    target: &Path,
    current: Option<&str>,
    read_before: Option<ReadBefore>,
) -> Result<(ParsedFile, Vec<String>)> {
    match read_before {
        Some((text, parsed, names)) if text.as_deref() == current => Ok((parsed, names)),
        _ => file_state(target, current),
    }
}

/// `target` as parsed now and the names it already holds.
fn file_state(target: &Path, current: Option<&str>) -> Result<(ParsedFile, Vec<String>)> {
    let parsed = parse_or_empty(target, current)?;
    let names = names_of(&parsed);
    Ok((parsed, names))
}

/// `current` parsed, or an empty file of `target`'s format when missing.
fn parse_or_empty(target: &Path, current: Option<&str>) -> Result<ParsedFile> {
    Ok(match current {
        Some(text) => format::parse(target, text)?,
        None => ParsedFile {
            format: Format::for_new_file(target),
            servers: Vec::new(),
        },
    })
}

/// The names of a parsed file's entries, in file order.
fn names_of(parsed: &ParsedFile) -> Vec<String> {
    parsed.servers.iter().map(|d| d.name.clone()).collect()
}
