//! YAML text into raw entries, with errors that name the file, line and
//! column.

use std::path::Path;

use super::raw::{Entries, RawEntry, Top, UniqueMap};
use crate::defs::error::DefsError;
use crate::defs::syntax::Shape;

/// The shape and raw entries of a YAML document.
pub(super) fn parse(path: &Path, text: &str) -> Result<(Shape, Entries), DefsError> {
    let top = yaml_serde::from_str::<Top>(text).map_err(|err| yaml_error(path, &err))?;
    top.resolve(path, |_| {
        yaml_serde::from_str::<UniqueMap<RawEntry>>(text)
            .map(|map| map.0)
            .map_err(|err| yaml_error(path, &err))
    })
}

fn yaml_error(path: &Path, err: &yaml_serde::Error) -> DefsError {
    let message = err.to_string();
    let message = match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message,
    };
    let (line, column) = err
        .location()
        .map_or((1, 1), |loc| (loc.line(), loc.column()));
    DefsError::Malformed {
        path: path.to_path_buf(),
        line,
        column,
        message,
    }
}
