//! Lossless edits of a definition file's text.
//!
//! Files are read into the typed model with serde, but written by editing a
//! syntax tree that keeps every byte mcpctl does not touch: comments, key
//! order, indentation and unknown fields. JSON goes through `jsonc-parser`'s
//! CST, YAML through `yaml-edit`, Codex's TOML through `toml_edit` (one
//! module each), and the common case of one new JSON entry by splicing text
//! (`append`). After every edit the result is parsed again and compared
//! with what was intended (`verify`); a mismatch, or a comment that went
//! missing, stops the write instead of losing data. A splice is proved
//! more cheaply (`splice_proof`), reading only what it can have changed;
//! whatever that proof cannot show right gets the full one.

mod append;
mod json;
mod splice_proof;
mod toml;
mod verify;
mod yaml;

use std::path::Path;

use serde_json::Value;

use super::error::DefsError;
use super::format::ParsedFile;
use super::layout::Layout;
use super::syntax::{Shape, Syntax};

/// One change to one entry.
#[derive(Debug, Clone)]
pub enum Edit {
    /// Append a new entry (the name must not exist yet).
    Add {
        /// The entry's name.
        name: String,
        /// The entry's fields, in the file's vocabulary.
        value: Value,
    },
    /// Replace an existing entry's fields wholesale (`add --force`).
    Replace {
        /// The entry's name.
        name: String,
        /// The new fields.
        value: Value,
    },
    /// Delete an entry and the comment lines directly above it.
    Remove {
        /// The entry's name.
        name: String,
    },
    /// Replace one string of an entry's `args`, in place (`mcpctl pin`):
    /// the array keeps its layout and comments.
    SetArg {
        /// The entry's name.
        name: String,
        /// The index in `args`.
        index: usize,
        /// The new argument.
        value: String,
    },
    /// Flip the enabled state, using the key the entry or file already uses.
    SetEnabled {
        /// The entry's name.
        name: String,
        /// The state to set.
        enabled: bool,
    },
    /// Set one field of an existing entry (`None` removes it), leaving the
    /// entry's other fields and their order as they are; `grant` and
    /// `revoke` write `tools` and `profiles` this way.
    SetField {
        /// The entry's name.
        name: String,
        /// The field.
        key: &'static str,
        /// Its new value, or `None` to remove it.
        value: Option<Value>,
    },
}

impl Edit {
    /// The entry this edit touches.
    pub fn name(&self) -> &str {
        match self {
            Edit::Add { name, .. }
            | Edit::Replace { name, .. }
            | Edit::Remove { name }
            | Edit::SetArg { name, .. }
            | Edit::SetEnabled { name, .. }
            | Edit::SetField { name, .. } => name,
        }
    }
}

/// Apply `edits` to `text` (a file of `format`) and return the new text.
///
/// The edit works on the text without its BOM and with `\n` line endings;
/// the result gets the file's [`Layout`] back and ends with a newline. It
/// has been re-read and checked (a splice only where it can have changed):
/// untouched entries are identical, and no comment was lost unless
/// `allow_comment_loss`.
pub fn apply(
    path: &Path,
    text: &str,
    before: &ParsedFile,
    edits: &[Edit],
    allow_comment_loss: bool,
) -> Result<String, DefsError> {
    let format = before.format;
    let (layout, body) = Layout::of(text);
    let appended = match (format.syntax, edits) {
        (Syntax::Json, [Edit::Add { name, value }]) => {
            append::json(&body, format.shape, name, value)
        }
        _ => None,
    };
    let spliced = appended.is_some();
    let (edited, may_drop_comments) = match appended {
        Some(edited) => (edited, false),
        None => match format.syntax {
            Syntax::Json => (json::apply(path, &body, format.shape, edits)?, true),
            Syntax::Yaml => (yaml::apply(path, &body, format.shape, edits)?, true),
            Syntax::Toml => (toml::apply(path, &body, edits)?, true),
        },
    };
    let new_text = layout.restore(&edited);
    let proved =
        spliced && splice_proof::proves_append(path, before, text, &new_text, edits[0].name());
    if !proved {
        let check_comments = may_drop_comments && !allow_comment_loss;
        verify::verify(path, before, text, &new_text, edits, check_comments)?;
    }
    Ok(new_text)
}

/// The keys to write so an entry reads as `enabled`, in its own vocabulary:
/// whichever of `enabled`/`disabled` it already has (both, if both), else
/// the file shape's usual key, and nothing at all to enable an entry that
/// has neither (it is enabled already).
fn enabled_keys(
    has_enabled: bool,
    has_disabled: bool,
    shape: Shape,
    enabled: bool,
) -> Vec<(&'static str, bool)> {
    let mut keys = Vec::new();
    if has_enabled {
        keys.push(("enabled", enabled));
    }
    if has_disabled {
        keys.push(("disabled", !enabled));
    }
    if keys.is_empty() && !enabled {
        keys.push(match shape {
            Shape::Flat | Shape::McpServersTables => ("enabled", false),
            Shape::McpServers | Shape::Servers | Shape::ClaudeProject => ("disabled", true),
        });
    }
    keys
}
