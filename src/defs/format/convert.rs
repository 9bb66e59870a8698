//! Raw entries into typed definitions: each entry's fields checked
//! against each other, with errors that point at the entry's key.

use std::path::{Path, PathBuf};
use std::time::Duration;

use indexmap::IndexMap;

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
    /// This entry as the definition `name`, its fields checked against each
    /// other in the order a person reads them: transport, OAuth, launch,
    /// timeout, restart policy.
    fn into_def(
        mut self,
        name: String,
        path: &Path,
        text: &str,
        syntax: Syntax,
    ) -> Result<ServerDef, DefsError> {
        let fail = |message: String| entry_error(path, text, syntax, &name, message);
        self.fold_client_spellings(&fail)?;
        let (transport, implied) = self.transport(&fail)?;
        let auth = oauth_fields(&self, transport, &fail)?;
        let launch = match transport {
            Transport::Stdio => self.stdio_launch(&fail)?,
            remote => self.remote_launch(remote, &fail)?,
        };
        let connect_timeout = connect_timeout(self.connect_timeout.take(), &fail)?;
        let restart = restart_policy(self.restart.as_deref(), &fail)?;
        let sandbox = sandbox_policy(self.sandbox.as_ref(), &launch, &fail)?;
        Ok(ServerDef {
            name,
            transport,
            transport_inferred: implied && transport.is_remote(),
            launch,
            label: self.label,
            enabled: self.enabled.unwrap_or(true) && !self.disabled.unwrap_or(false),
            autostart: self.autostart.unwrap_or(false),
            connect_timeout,
            protocol: self.protocol,
            restart,
            auth,
            env_file: self.env_file,
            grants: crate::defs::grants::from_raw(self.tools, self.profiles),
            sandbox,
            source: path.to_path_buf(),
        })
    }

    /// The transport the entry names (`transport` or `type`), else the one
    /// its `command` or `url` implies; `true` beside it when implied.
    fn transport(
        &self,
        fail: &dyn Fn(String) -> DefsError,
    ) -> Result<(Transport, bool), DefsError> {
        let Some(spelling) = self.transport.as_deref().or(self.kind.as_deref()) else {
            return match (&self.command, &self.url) {
                (Some(_), _) => Ok((Transport::Stdio, true)),
                (None, Some(_)) => Ok((Transport::StreamableHttp, true)),
                (None, None) => Err(fail("has neither `command` nor `url`".to_string())),
            };
        };
        let transport = Transport::from_spelling(spelling).ok_or_else(|| {
            fail(format!(
                "unknown transport `{spelling}`; use stdio, streamable-http (or http) or sse"
            ))
        })?;
        Ok((transport, false))
    }

    /// A stdio server's launch: its `command`, and never a `url`.
    fn stdio_launch(&mut self, fail: &dyn Fn(String) -> DefsError) -> Result<Launch, DefsError> {
        if self.url.is_some() {
            return Err(fail("a stdio server cannot have a `url`".to_string()));
        }
        let command = self
            .command
            .take()
            .ok_or_else(|| fail("stdio server has no `command`".to_string()))?;
        let (args, env, cwd) = self.take_process_fields();
        Ok(Launch::Stdio {
            command,
            args,
            env,
            cwd,
        })
    }

    /// A remote server's launch: its `url` and `headers`, and the local
    /// process to start first when the entry has a `command`.
    fn remote_launch(
        &mut self,
        remote: Transport,
        fail: &dyn Fn(String) -> DefsError,
    ) -> Result<Launch, DefsError> {
        let process = self.local_process(remote, fail)?;
        let url = self
            .url
            .take()
            .ok_or_else(|| fail(format!("{remote} server has no `url`")))?;
        let headers = self
            .headers
            .take()
            .map(UniqueMap::into_index_map)
            .unwrap_or_default();
        Ok(Launch::Remote {
            transport: remote,
            url,
            headers,
            process,
        })
    }

    /// The process a remote entry launches, if it has a `command`; `args`,
    /// `env` or `cwd` without one are refused rather than ignored.
    fn local_process(
        &mut self,
        remote: Transport,
        fail: &dyn Fn(String) -> DefsError,
    ) -> Result<Option<LocalProcess>, DefsError> {
        let Some(command) = self.command.take() else {
            if self.args.is_some() || self.env.is_some() || self.cwd.is_some() {
                return Err(fail(format!(
                    "a {remote} server has `args`, `env` or `cwd` but no `command` to launch"
                )));
            }
            return Ok(None);
        };
        let (args, env, cwd) = self.take_process_fields();
        Ok(Some(LocalProcess {
            command,
            args,
            env,
            cwd,
        }))
    }

    /// `args`, `env` and `cwd`, as a launch holds them.
    fn take_process_fields(&mut self) -> (Vec<String>, IndexMap<String, String>, Option<PathBuf>) {
        (
            self.args.take().unwrap_or_default(),
            self.env
                .take()
                .map(UniqueMap::into_index_map)
                .unwrap_or_default(),
            self.cwd.take(),
        )
    }
}

/// The error for entry `name`, at its key's line and column when found.
fn entry_error(path: &Path, text: &str, syntax: Syntax, name: &str, message: String) -> DefsError {
    let (line, column) = crate::defs::locate::key(text, name, syntax).unwrap_or((1, 1));
    DefsError::Malformed {
        path: path.to_path_buf(),
        line,
        column,
        message: format!("server `{name}`: {message}"),
    }
}

/// `connect_timeout` as a duration, refused when it is not a sane number
/// of seconds.
fn connect_timeout(
    seconds: Option<Seconds>,
    fail: &dyn Fn(String) -> DefsError,
) -> Result<Option<Duration>, DefsError> {
    seconds
        .map(|Seconds(secs)| {
            crate::validate::seconds::duration("`connect_timeout`", secs).map_err(fail)
        })
        .transpose()
}

/// The `sandbox` policy, only on an entry that launches a process.
fn sandbox_policy(
    value: Option<&serde_json::Value>,
    launch: &Launch,
    fail: &dyn Fn(String) -> DefsError,
) -> Result<Option<crate::sandbox::Sandbox>, DefsError> {
    let Some(value) = value else {
        return Ok(None);
    };
    if matches!(launch, Launch::Remote { process: None, .. }) {
        return Err(fail(
            "has `sandbox` but launches no process; remove it (a remote server runs elsewhere)"
                .to_string(),
        ));
    }
    crate::sandbox::policy::parse(value)
        .map(Some)
        .map_err(|e| fail(e.to_string()))
}

/// The restart policy as written (`no`/`never`, `on-failure`; none is `no`).
fn restart_policy(
    spelling: Option<&str>,
    fail: &dyn Fn(String) -> DefsError,
) -> Result<RestartPolicy, DefsError> {
    match spelling {
        None | Some("no") | Some("never") => Ok(RestartPolicy::No),
        Some("on-failure") => Ok(RestartPolicy::OnFailure),
        Some(other) => Err(fail(format!(
            "unknown restart policy `{other}`; use `no` or `on-failure`"
        ))),
    }
}
