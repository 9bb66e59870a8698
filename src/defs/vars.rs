//! `${VAR}` and `${VAR:-default}` references in definition values, and the
//! client forms `${env:VAR}` (VS Code, Cursor) and `${input:ID}` (VS Code's
//! prompted inputs, read from `MCPCTL_INPUT_<ID>` or asked on a terminal).
//!
//! References stay verbatim in files and in everything mcpctl prints; they are
//! expanded from mcpctl's own environment only at the moment a server is
//! launched or connected to, so secrets never land on disk by accident.

use super::inputs::{INPUT_PREFIX, ask_input, input_variable};
use super::model::{Launch, ServerDef};
use crate::error::{Diagnostic, ExitCode};

/// A reference that cannot be expanded at launch time.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum VarError {
    /// `${NAME}` with no default, and `NAME` is not set.
    #[error("server `{server}` needs environment variable `{var}`, which is not set")]
    Unset {
        /// The server being launched.
        server: String,
        /// The missing variable.
        var: String,
    },
    /// `${` without a closing `}` or with an invalid name.
    #[error("server `{server}` has a malformed variable reference in `{value}`")]
    Malformed {
        /// The server being launched.
        server: String,
        /// The offending value, as written.
        value: String,
    },
}

impl Diagnostic for VarError {
    fn exit_code(&self) -> ExitCode {
        match self {
            VarError::Unset { .. } => ExitCode::Failed,
            VarError::Malformed { .. } => ExitCode::Usage,
        }
    }

    fn hint(&self) -> Option<String> {
        Some(match self {
            VarError::Unset { var, .. } if var.starts_with(INPUT_PREFIX) => format!(
                "export {var}=… (the value of the file's input) before running mcpctl, or run it on a terminal to be asked"
            ),
            VarError::Unset { var, .. } => {
                format!("export {var}=… before running mcpctl, or write ${{{var}:-default}}")
            }
            VarError::Malformed { .. } => {
                "write references as ${NAME} or ${NAME:-default}; NAME is letters, digits and _"
                    .to_string()
            }
        })
    }
}

/// One piece of a value: literal text or a reference.
#[derive(Debug, PartialEq, Eq)]
enum Piece<'a> {
    Text(&'a str),
    Var {
        /// The variable looked up: `VAR` for `${VAR}` and `${env:VAR}`,
        /// `MCPCTL_INPUT_<ID>` for `${input:ID}`.
        name: std::borrow::Cow<'a, str>,
        /// The reference as written between `${` and `}` (without a default),
        /// which is how output shows it.
        written: &'a str,
        default: Option<&'a str>,
    },
}

/// The variable a reference body (`VAR`, `env:VAR`, `input:ID`) is looked
/// up as; `None` when it is none of those.
fn reference_name(body: &str) -> Option<std::borrow::Cow<'_, str>> {
    if let Some(var) = body.strip_prefix("env:") {
        return is_var_name(var).then_some(std::borrow::Cow::Borrowed(var));
    }
    if let Some(id) = body.strip_prefix("input:") {
        let valid = !id.is_empty()
            && id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
        return valid.then(|| std::borrow::Cow::Owned(input_variable(id)));
    }
    is_var_name(body).then_some(std::borrow::Cow::Borrowed(body))
}

/// `value` with every plain `${VAR}` written `${env:VAR}`, the only form
/// VS Code expands; `${VAR:-default}` (which VS Code lacks), `${env:…}`,
/// `${input:…}` and malformed values are left as they are.
pub fn in_env_dialect(value: &str) -> String {
    let Some(pieces) = pieces(value) else {
        return value.to_string();
    };
    let mut out = String::with_capacity(value.len());
    for piece in pieces {
        match piece {
            Piece::Text(text) => out.push_str(text),
            Piece::Var {
                written,
                default: None,
                ..
            } if is_var_name(written) => out.push_str(&format!("${{env:{written}}}")),
            Piece::Var {
                written, default, ..
            } => match default {
                Some(default) => out.push_str(&format!("${{{written}:-{default}}}")),
                None => out.push_str(&format!("${{{written}}}")),
            },
        }
    }
    out
}

/// Split a value into literal text and references; `None` when malformed.
fn pieces(value: &str) -> Option<Vec<Piece<'_>>> {
    let mut out = Vec::new();
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        if start > 0 {
            out.push(Piece::Text(&rest[..start]));
        }
        let after = &rest[start + 2..];
        let end = after.find('}')?;
        let body = &after[..end];
        let (written, default) = match body.split_once(":-") {
            Some((name, default)) => (name, Some(default)),
            None => (body, None),
        };
        let name = reference_name(written)?;
        out.push(Piece::Var {
            name,
            written,
            default,
        });
        rest = &after[end + 1..];
    }
    if !rest.is_empty() {
        out.push(Piece::Text(rest));
    }
    Some(out)
}

fn is_var_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// True when `value` contains at least one well-formed `${…}` reference.
///
/// Output code uses this to show references as written while redacting
/// literal secrets.
pub fn has_reference(value: &str) -> bool {
    pieces(value).is_some_and(|p| p.iter().any(|piece| matches!(piece, Piece::Var { .. })))
}

/// True when `value` is one `${VAR}` reference and nothing else (no
/// default, no text around it): how a secret is named in a definition.
pub fn is_single_reference(value: &str) -> bool {
    matches!(
        pieces(value).as_deref(),
        Some([Piece::Var { default: None, .. }])
    )
}

/// The names of every variable `value` refers to, for diagnostics.
pub fn referenced_names(value: &str) -> Vec<String> {
    pieces(value)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|piece| match piece {
            Piece::Var { name, .. } => Some(name.into_owned()),
            Piece::Text(_) => None,
        })
        .collect()
}

/// Each reference in `value` as (variable looked up, reference as written),
/// so output can show `${input:key}` rather than the variable behind it.
pub fn references(value: &str) -> Vec<(String, String)> {
    pieces(value)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|piece| match piece {
            Piece::Var { name, written, .. } => {
                Some((name.into_owned(), format!("${{{written}}}")))
            }
            Piece::Text(_) => None,
        })
        .collect()
}

/// The `:-` defaults written in `value`'s references (literal text that
/// may be a secret, so output redacts it).
pub fn defaults(value: &str) -> Vec<String> {
    pieces(value)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|piece| match piece {
            Piece::Var {
                default: Some(d), ..
            } => Some(d.to_string()),
            _ => None,
        })
        .collect()
}

/// `value` with its literal text and reference defaults replaced by `mask`,
/// keeping `${NAME}` references and a leading auth scheme (`Bearer ` …), so
/// output shows where a secret comes from but never the secret.
pub fn redacted(value: &str, mask: &str) -> String {
    let Some(pieces) = pieces(value).filter(|p| p.iter().any(|x| matches!(x, Piece::Var { .. })))
    else {
        return mask.to_string();
    };
    let mut out = String::new();
    for (index, piece) in pieces.iter().enumerate() {
        match piece {
            Piece::Text(text) if index == 0 && is_auth_scheme(text) => out.push_str(text),
            Piece::Text(_) => out.push_str(mask),
            Piece::Var {
                written,
                default: None,
                ..
            } => out.push_str(&format!("${{{written}}}")),
            Piece::Var {
                written,
                default: Some(_),
                ..
            } => {
                out.push_str(&format!("${{{written}:-{mask}}}"));
            }
        }
    }
    out
}

fn is_auth_scheme(text: &str) -> bool {
    matches!(
        text.trim_end(),
        "Bearer" | "Basic" | "Token" | "token" | "bearer"
    ) && text.ends_with(' ')
}

/// Expand every reference in `value`, looking variables up with `lookup`.
///
/// `server` names the definition in errors. An empty variable counts as set,
/// except with `:-`, which (as in POSIX shells) falls back on empty too.
pub fn expand_with(
    server: &str,
    value: &str,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Result<String, VarError> {
    let pieces = pieces(value).ok_or_else(|| VarError::Malformed {
        server: server.to_string(),
        value: value.to_string(),
    })?;
    let mut out = String::with_capacity(value.len());
    for piece in pieces {
        match piece {
            Piece::Text(text) => out.push_str(text),
            Piece::Var { name, default, .. } => match (lookup(&name), default) {
                (Some(found), Some(default)) if found.is_empty() => out.push_str(default),
                (Some(found), _) => out.push_str(&found),
                (None, Some(default)) => out.push_str(default),
                (None, None) => {
                    return Err(VarError::Unset {
                        server: server.to_string(),
                        var: name.into_owned(),
                    });
                }
            },
        }
    }
    Ok(out)
}

/// Values this process knows for variables its environment lacks: the
/// secrets typed into `add NAME` for a registry entry, which are written as
/// `${VAR}` references but must still reach the server during the check
/// before save. Held in memory only; never written, never printed.
static PROVIDED: std::sync::Mutex<Vec<(String, String)>> = std::sync::Mutex::new(Vec::new());

/// Make `value` the expansion of `${name}` for the rest of this process,
/// unless the environment already sets `name`.
pub fn provide(name: &str, value: &str) {
    let mut provided = PROVIDED.lock().unwrap_or_else(|e| e.into_inner());
    provided.retain(|(n, _)| n != name);
    provided.push((name.to_string(), value.to_string()));
}

/// The variables a supervised launch is expanded from: the values the CLI
/// that asked for the launch sent for the names its definition references.
/// Held in memory only; its `Debug` shows the names, never the values.
#[derive(Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct LaunchEnv(pub std::collections::BTreeMap<String, String>);

impl std::fmt::Debug for LaunchEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.0.keys()).finish()
    }
}

impl LaunchEnv {
    /// The values this process's environment has for every `${VAR}` that
    /// `defs` reference (unset ones are left out, so the launch reports them).
    pub fn capture<'a>(defs: impl IntoIterator<Item = &'a ServerDef>) -> LaunchEnv {
        let mut map = std::collections::BTreeMap::new();
        for def in defs {
            for name in def_references(def) {
                if let Some(value) = lookup(&name) {
                    map.insert(name, value);
                }
            }
        }
        LaunchEnv(map)
    }
}

/// Every value of a definition's launch that may hold `${VAR}`s.
fn launch_values(def: &ServerDef) -> Vec<String> {
    let mut values: Vec<String> = Vec::new();
    if let Launch::Remote { url, headers, .. } = &def.launch {
        values.push(url.clone());
        values.extend(headers.values().cloned());
    }
    if let Some(auth) = &def.auth {
        values.extend(auth.secret_values().cloned());
    }
    if let Some(p) = def.process() {
        values.push(p.command.to_string());
        values.extend(p.args.iter().cloned());
        values.extend(p.env.values().cloned());
        if let Some(cwd) = p.cwd {
            values.push(cwd.to_string_lossy().into_owned());
        }
    }
    values
}

/// Every variable name a definition's launch refers to.
pub fn def_references(def: &ServerDef) -> Vec<String> {
    let mut names: Vec<String> = launch_values(def)
        .iter()
        .flat_map(|v| referenced_names(v))
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Why a launch of `def` could not expand its `${VAR}`s now, if it could
/// not: checked before a restart stops what runs, so a missing variable
/// leaves the server running instead of stopped.
pub fn first_missing(def: &ServerDef) -> Option<VarError> {
    launch_values(def)
        .iter()
        .find_map(|v| expand(&def.name, v).err())
}

tokio::task_local! {
    static LAUNCH_ENV: std::sync::Arc<LaunchEnv>;
}

/// Run `launch` with `${VAR}`s expanded from `env` alone instead of this
/// process's environment (the supervisor launching for a CLI); `None`
/// keeps this process's environment.
pub async fn with_launch_env<F: std::future::Future>(
    env: Option<std::sync::Arc<LaunchEnv>>,
    launch: F,
) -> F::Output {
    match env {
        Some(env) => LAUNCH_ENV.scope(env, launch).await,
        None => launch.await,
    }
}

/// The value a launch would expand `${name}` to: the asking CLI's values
/// when the supervisor launches for one, else the environment, then any
/// value [`provide`]d to this process, and for a VS Code `${input:ID}`
/// with none of those, an answer typed at the terminal (asked once).
pub fn lookup(name: &str) -> Option<String> {
    if let Ok(found) = LAUNCH_ENV.try_with(|env| env.0.get(name).cloned()) {
        return found;
    }
    let known = std::env::var(name).ok().or_else(|| {
        let provided = PROVIDED.lock().unwrap_or_else(|e| e.into_inner());
        provided
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    });
    known.or_else(|| {
        let answer = name.starts_with(INPUT_PREFIX).then(|| ask_input(name))??;
        provide(name, &answer);
        Some(answer)
    })
}

/// Ask, before any progress display starts, for every `${input:ID}` that
/// `defs` use and nothing supplies (only on a terminal), so prompts never
/// interleave with a spinner; the answers are kept for this process only.
pub fn ask_inputs<'a>(defs: impl IntoIterator<Item = &'a ServerDef>) {
    for def in defs {
        for name in def_references(def) {
            if name.starts_with(INPUT_PREFIX) {
                let _ = lookup(&name);
            }
        }
    }
}

/// Expand every reference in `value` from mcpctl's own environment (and
/// any values [`provide`]d to this process).
pub fn expand(server: &str, value: &str) -> Result<String, VarError> {
    expand_with(server, value, &lookup)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(name: &str) -> Option<String> {
        match name {
            "TOKEN" => Some("s3cret".into()),
            "EMPTY" => Some(String::new()),
            _ => None,
        }
    }

    #[test]
    fn expands_set_variables_and_defaults() {
        assert_eq!(
            expand_with("s", "Bearer ${TOKEN}", &env).unwrap(),
            "Bearer s3cret"
        );
        assert_eq!(expand_with("s", "${MISSING:-x}", &env).unwrap(), "x");
        assert_eq!(
            expand_with("s", "${EMPTY:-fallback}", &env).unwrap(),
            "fallback"
        );
        assert_eq!(expand_with("s", "${EMPTY}", &env).unwrap(), "");
        assert_eq!(
            expand_with("s", "plain $TOKEN", &env).unwrap(),
            "plain $TOKEN"
        );
    }

    #[test]
    fn unset_variable_names_variable_and_server() {
        let err = expand_with("billing", "${API_KEY}", &env).unwrap_err();
        assert_eq!(
            err.to_string(),
            "server `billing` needs environment variable `API_KEY`, which is not set"
        );
        assert!(err.hint().unwrap().contains("export API_KEY="));
    }

    #[test]
    fn malformed_reference_is_an_error() {
        assert!(matches!(
            expand_with("s", "${OPEN", &env),
            Err(VarError::Malformed { .. })
        ));
        assert!(matches!(
            expand_with("s", "${1BAD}", &env),
            Err(VarError::Malformed { .. })
        ));
    }

    #[test]
    fn provided_values_expand_when_the_environment_lacks_them() {
        let name = "MCPCTL_TEST_PROVIDED_ONLY";
        assert!(expand("s", &format!("${{{name}}}")).is_err());
        provide(name, "typed-secret");
        assert_eq!(
            expand("s", &format!("Bearer ${{{name}}}")).unwrap(),
            "Bearer typed-secret"
        );
    }

    #[test]
    fn client_forms_expand_and_redact_as_written() {
        let lookup = |name: &str| match name {
            "TOKEN" => Some("s3cret".to_string()),
            "MCPCTL_INPUT_API_KEY" => Some("typed".to_string()),
            _ => None,
        };
        assert_eq!(
            expand_with("s", "Bearer ${env:TOKEN}", &lookup).unwrap(),
            "Bearer s3cret"
        );
        assert_eq!(
            expand_with("s", "${input:api-key}", &lookup).unwrap(),
            "typed"
        );
        assert_eq!(
            referenced_names("${env:TOKEN} ${input:api-key}"),
            vec!["TOKEN", "MCPCTL_INPUT_API_KEY"]
        );
        assert_eq!(
            redacted("Bearer ${env:TOKEN}", "***"),
            "Bearer ${env:TOKEN}"
        );
        assert_eq!(redacted("${input:api-key}", "***"), "${input:api-key}");
        let err = expand_with("s", "${input:other}", &lookup).unwrap_err();
        assert!(
            err.hint().unwrap().contains("MCPCTL_INPUT_OTHER"),
            "{err:?}"
        );
        assert!(matches!(
            expand_with("s", "${env:1X}", &lookup),
            Err(VarError::Malformed { .. })
        ));
    }

    #[test]
    fn detects_references() {
        assert!(has_reference("${A}"));
        assert!(!has_reference("literal"));
        assert_eq!(referenced_names("${A}-${B:-x}"), vec!["A", "B"]);
    }

    #[test]
    fn plain_references_take_the_env_dialect_and_others_stay() {
        assert_eq!(in_env_dialect("Bearer ${TOKEN}"), "Bearer ${env:TOKEN}");
        assert_eq!(in_env_dialect("${env:A}-${input:k}"), "${env:A}-${input:k}");
        assert_eq!(in_env_dialect("${A:-x}"), "${A:-x}");
        assert_eq!(in_env_dialect("${unclosed"), "${unclosed");
        assert_eq!(in_env_dialect("plain"), "plain");
    }
}
