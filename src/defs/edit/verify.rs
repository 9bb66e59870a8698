//! The proof after every edit: the edited text is parsed again and
//! compared with what was intended. An entry the edit did not touch that
//! changed, an edit not done as asked, or a comment that went missing
//! stops the write instead of losing data.

use std::path::Path;

use super::Edit;
use crate::defs::error::DefsError;
use crate::defs::format::{self, ParsedFile};
use crate::defs::layout;
use crate::defs::model::ServerDef;
use crate::defs::syntax::{Syntax, jsonc_options};

/// Re-parse the edited text and prove the edit did only what it meant to.
pub(super) fn verify(
    path: &Path,
    before: &ParsedFile,
    old_text: &str,
    new_text: &str,
    edits: &[Edit],
    check_comments: bool,
) -> Result<(), DefsError> {
    let format = before.format;
    let broken = |message: String| DefsError::Invalid {
        path: path.to_path_buf(),
        message: format!(
            "internal error: the edited file would be wrong ({message}); nothing was written"
        ),
        hint: "please report this with the file; edit the file by hand meanwhile".to_string(),
    };
    let after = format::parse(path, new_text).map_err(|err| broken(err.to_string()))?;
    let touched: Vec<&str> = edits.iter().map(Edit::name).collect();
    // Compared in place: cloning a 1,000-entry file's definitions twice
    // cost more than the comparison.
    if !untouched(&before.servers, &touched).eq(untouched(&after.servers, &touched)) {
        return Err(broken(
            "an entry the edit did not touch changed".to_string(),
        ));
    }
    for edit in edits {
        let found = after.servers.iter().find(|def| def.name == edit.name());
        let ok = match edit {
            Edit::Remove { .. } => found.is_none(),
            Edit::SetEnabled { enabled, .. } => found.is_some_and(|def| def.enabled == *enabled),
            Edit::SetArg { index, value, .. } => found
                .and_then(ServerDef::process)
                .is_some_and(|p| p.args.get(*index) == Some(value)),
            Edit::Add { .. } | Edit::Replace { .. } | Edit::SetField { .. } => found.is_some(),
        };
        if !ok {
            return Err(broken(format!(
                "entry `{}` was not edited as asked",
                edit.name()
            )));
        }
    }
    if check_comments {
        let expected_loss = edits
            .iter()
            .filter(|edit| matches!(edit, Edit::Remove { .. } | Edit::Replace { .. }))
            .count();
        let lost = count_comments(old_text, format.syntax)
            .saturating_sub(count_comments(new_text, format.syntax));
        if lost > 0 && expected_loss == 0 {
            return Err(DefsError::WouldLoseComments {
                path: path.to_path_buf(),
                lost,
            });
        }
    }
    Ok(())
}

/// The entries of `servers` that no edit names, in order.
fn untouched<'a>(
    servers: &'a [ServerDef],
    touched: &'a [&str],
) -> impl Iterator<Item = &'a ServerDef> + 'a {
    servers
        .iter()
        .filter(move |def| !touched.contains(&def.name.as_str()))
}

/// Count the comments in a document, so edits can prove none were dropped.
fn count_comments(text: &str, syntax: Syntax) -> usize {
    let text = layout::without_bom(text);
    match syntax {
        Syntax::Json => {
            let options = jsonc_parser::CollectOptions {
                comments: jsonc_parser::CommentCollectionStrategy::AsTokens,
                tokens: false,
            };
            jsonc_parser::parse_to_ast(text, &options, &jsonc_options())
                .ok()
                .and_then(|result| result.comments)
                .map_or(0, |comments| comments.values().map(|list| list.len()).sum())
        }
        Syntax::Yaml => yaml_edit::YamlFile::parse(text).tree().comments().count(),
        Syntax::Toml => super::toml::count_comments(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Diagnostic;

    #[test]
    fn an_edit_that_drops_a_comment_is_refused() {
        let path = Path::new("c.yaml");
        let old = "# keep me\nmcpServers:\n  a:\n    command: sh\n";
        let new = "mcpServers:\n  a:\n    command: sh\n    disabled: true\n";
        let before = format::parse(path, old).unwrap();
        let edits = [Edit::SetEnabled {
            name: "a".into(),
            enabled: false,
        }];
        let err = verify(path, &before, old, new, &edits, true).unwrap_err();
        assert_eq!(
            err.to_string(),
            "c.yaml: editing this file would lose 1 comment line(s)"
        );
        assert_eq!(
            err.hint().unwrap(),
            "edit the file by hand, or pass --force to write it without those comments"
        );
        assert!(verify(path, &before, old, new, &edits, false).is_ok());
    }

    #[test]
    fn an_edit_that_changes_another_entry_is_refused() {
        let path = Path::new("c.json");
        let old = r#"{"mcpServers": {"a": {"command": "sh"}, "b": {"command": "sh"}}}"#;
        let new = r#"{"mcpServers": {"a": {"command": "sh", "disabled": true}, "b": {"command": "cat"}}}"#;
        let before = format::parse(path, old).unwrap();
        let edits = [Edit::SetEnabled {
            name: "a".into(),
            enabled: false,
        }];
        let err = verify(path, &before, old, new, &edits, true).unwrap_err();
        assert!(
            err.to_string()
                .contains("an entry the edit did not touch changed"),
            "{err}"
        );
    }
}
