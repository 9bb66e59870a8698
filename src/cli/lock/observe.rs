//! What the servers show now, for `lock`, `lock --check` and `approve`:
//! which servers, their lockfiles read once, every server connected to
//! (full catalogs) and every artifact asked of its registry.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::check;
use crate::cli::Context;
use crate::defs::ServerDef;
use crate::error::{Result, UsageError};
use crate::lock::artifact::{self, Registries};
use crate::lock::{LockError, LockFile, ServerLock, file};
use crate::mcp::{self, ConnectError, DiscoverOptions};
use crate::output;

/// The named servers, or every enabled one; each from a file we may launch from.
pub(crate) fn pick(
    ctx: &Context,
    catalog: &crate::defs::Catalog,
    names: &[String],
) -> Result<Vec<ServerDef>> {
    let defs: Vec<ServerDef> = if names.is_empty() {
        ctx.report_refused(catalog);
        catalog
            .servers()
            .iter()
            .filter(|d| d.enabled)
            .cloned()
            .collect()
    } else {
        let mut picked: Vec<ServerDef> = Vec::new();
        for name in names {
            let def = catalog.get(name)?.clone();
            if !picked.iter().any(|d| d.name == def.name) {
                picked.push(def);
            }
        }
        picked
    };
    for def in &defs {
        ctx.require_trusted(&def.source)?;
    }
    crate::defs::vars::ask_inputs(&defs);
    Ok(defs)
}

pub(crate) fn parse_timeout(seconds: Option<f64>) -> Result<Option<Duration>> {
    Ok(match seconds {
        Some(s) => Some(
            crate::validate::seconds::duration("--timeout", s)
                .map_err(|why| UsageError::new(why, "e.g. --timeout 10"))?,
        ),
        None => None,
    })
}

/// What a server shows now, as a lock block (artifact from the registries).
pub(crate) type Observed = (ServerDef, std::result::Result<ServerLock, ConnectError>);

/// Connect to every server (full catalogs), and ask the registries.
pub(crate) fn observe(
    defs: Vec<ServerDef>,
    timeout: Option<Duration>,
    jobs: Option<u16>,
) -> Result<Vec<Observed>> {
    let mut opts = DiscoverOptions::default();
    opts.connect.budget = timeout;
    opts.full_catalog = true;
    let jobs = check::jobs(jobs, defs.len());
    let runtime = check::runtime().map_err(UsageError::Output)?;
    let sigpipe = mcp::child::ignore_sigpipe();
    let work = async {
        let outcomes = check::check_all(defs, opts, jobs, None).await;
        let artifacts = futures::future::join_all(outcomes.iter().map(|o| async move {
            artifact::resolve(&o.def, &Registries::for_file(&o.def.source)).await
        }))
        .await;
        outcomes
            .into_iter()
            .zip(artifacts)
            .map(|(o, a)| {
                let result = match o.result {
                    Some(Ok(report)) => Ok(crate::lock::block(&report, a)),
                    Some(Err(e)) => Err(e),
                    None => Err(ConnectError::Transport {
                        server: o.def.name.clone(),
                        phase: mcp::Phase::Spawn,
                        detail: "not checked".into(),
                    }),
                };
                (o.def, result)
            })
            .collect::<Vec<_>>()
    };
    let observed = crate::cli::interrupt::block_on(&runtime, work);
    drop(runtime);
    drop(sigpipe);
    Ok(observed?)
}

/// Print each failure with its hint; how many there were.
pub(crate) fn report_failures(observed: &[Observed]) -> usize {
    let mut failed = 0;
    for (_, result) in observed {
        if let Err(err) = result {
            failed += 1;
            output::error(
                &format!("FAILED {err}"),
                crate::error::Diagnostic::hint(err).as_deref(),
            );
        }
        if let Ok(block) = result
            && let Some(note) = &block.artifact.note
            && note.starts_with("registry lookup failed")
        {
            output::warn(&output::sanitize(note), None);
        }
    }
    failed
}

/// Lockfiles by definitions file, each read once.
pub(crate) struct Locks {
    read: BTreeMap<PathBuf, (PathBuf, Option<LockFile>)>,
    allow_insecure_file: bool,
}

impl Locks {
    /// No lockfile read yet; `allow_insecure_file` reads one another user
    /// could change.
    pub(crate) fn new(allow_insecure_file: bool) -> Locks {
        Locks {
            read: BTreeMap::new(),
            allow_insecure_file,
        }
    }

    /// The lockfile path and content for `source` (`None`: no lockfile).
    pub(crate) fn get(
        &mut self,
        source: &Path,
    ) -> std::result::Result<&(PathBuf, Option<LockFile>), LockError> {
        if !self.read.contains_key(source) {
            let entry = match file::load(source, self.allow_insecure_file)? {
                Some((path, lock)) => (path, Some(lock)),
                None => (file::path_for(source)?, None),
            };
            self.read.insert(source.to_path_buf(), entry);
        }
        Ok(&self.read[source])
    }
}
