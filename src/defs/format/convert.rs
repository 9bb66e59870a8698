//! Raw entries into typed definitions: each entry's fields checked
//! against each other, with errors that point at the entry's key.

use std::path::Path;

use super::oauth::oauth_fields;
use super::raw::{Entries, RawEntry, Seconds, UniqueMap};
use super::vscode::{substitute_workspace_folder, workspace_folder};
use crate::defs::error::DefsError;
use crate::defs::model::{Launch, LocalProcess, RestartPolicy, ServerDef, Transport};
use crate::defs::syntax::Syntax;

/// Type-check the raw entries of a file against each other.
pub(in crate::defs) fn entries_into_defs(
    path: &Path,
    text: &str,
    syntax: Syntax,
    entries: Entries,
) -> Result<Vec<ServerDef>, DefsError> {
    let mut workspace = None;
    entries
        .into_iter()
        .map(|(name, raw)| {
            let mut def = raw.into_def(name, path, text, syntax)?;
            substitute_workspace_folder(&mut def, || {
                workspace
                    .get_or_insert_with(|| workspace_folder(path))
                    .to_string_lossy()
                    .into_owned()
            });
            Ok(def)
        })
        .collect()
}

impl RawEntry {
    fn into_def(
        self,
        name: String,
        path: &Path,
        text: &str,
        syntax: Syntax,
    ) -> Result<ServerDef, DefsError> {
        let fail = |message: String| {
            let (line, column) = locate_key(text, &name, syntax).unwrap_or((1, 1));
            DefsError::Malformed {
                path: path.to_path_buf(),
                line,
                column,
                message: format!("server `{name}`: {message}"),
            }
        };
        let mut this = self;
        this.fold_client_spellings(&fail)?;
        let this = this;
        let spelling = this.transport.as_deref().or(this.kind.as_deref());
        let transport = match spelling {
            Some(spelling) => Transport::from_spelling(spelling).ok_or_else(|| {
                fail(format!(
                    "unknown transport `{spelling}`; use stdio, streamable-http (or http) or sse"
                ))
            })?,
            None if this.command.is_some() => Transport::Stdio,
            None if this.url.is_some() => Transport::StreamableHttp,
            None => return Err(fail("has neither `command` nor `url`".to_string())),
        };
        let auth = oauth_fields(&this, transport, &fail)?;
        let launch = match transport {
            Transport::Stdio => {
                if this.url.is_some() {
                    return Err(fail("a stdio server cannot have a `url`".to_string()));
                }
                Launch::Stdio {
                    command: this
                        .command
                        .ok_or_else(|| fail("stdio server has no `command`".to_string()))?,
                    args: this.args.unwrap_or_default(),
                    env: this.env.map(UniqueMap::into_index_map).unwrap_or_default(),
                    cwd: this.cwd,
                }
            }
            remote => {
                let process = match this.command {
                    Some(command) => Some(LocalProcess {
                        command,
                        args: this.args.unwrap_or_default(),
                        env: this.env.map(UniqueMap::into_index_map).unwrap_or_default(),
                        cwd: this.cwd,
                    }),
                    None if this.args.is_some() || this.env.is_some() || this.cwd.is_some() => {
                        return Err(fail(format!(
                            "a {remote} server has `args`, `env` or `cwd` but no `command` to launch"
                        )));
                    }
                    None => None,
                };
                Launch::Remote {
                    transport: remote,
                    url: this
                        .url
                        .ok_or_else(|| fail(format!("{remote} server has no `url`")))?,
                    headers: this
                        .headers
                        .map(UniqueMap::into_index_map)
                        .unwrap_or_default(),
                    process,
                }
            }
        };
        let connect_timeout = match this.connect_timeout {
            None => None,
            Some(Seconds(secs)) => {
                Some(crate::validate::seconds::duration("`connect_timeout`", secs).map_err(fail)?)
            }
        };
        let restart = match this.restart.as_deref() {
            None | Some("no") | Some("never") => RestartPolicy::No,
            Some("on-failure") => RestartPolicy::OnFailure,
            Some(other) => {
                return Err(fail(format!(
                    "unknown restart policy `{other}`; use `no` or `on-failure`"
                )));
            }
        };
        Ok(ServerDef {
            name,
            transport,
            transport_inferred: spelling.is_none() && transport.is_remote(),
            launch,
            label: this.label,
            enabled: this.enabled.unwrap_or(true) && !this.disabled.unwrap_or(false),
            autostart: this.autostart.unwrap_or(false),
            connect_timeout,
            protocol: this.protocol,
            restart,
            auth,
            env_file: this.env_file,
            grants: crate::defs::grants::from_raw(this.tools, this.profiles),
            source: path.to_path_buf(),
        })
    }
}

/// Best-effort position of an entry's key, so semantic errors point at it.
fn locate_key(text: &str, name: &str, syntax: Syntax) -> Option<(usize, usize)> {
    crate::defs::locate::key(text, name, syntax)
}
