//! `mcpctl pin`: rewrite an unpinned or ranged launch (`npx -y pkg`,
//! `uvx pkg`, `pkg@latest`, `pkg@^1.2`, `pkg>=1`) to the exact version its
//! registry serves today, in place in the definitions file, and record the
//! new artifact in the lockfile when there is one. Also the same
//! resolution for `add --pin`, before the definition is first written.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::Context;
use crate::defs::edit::{self, Edit};
use crate::defs::{DefsError, Launch, ServerDef, format, store};
use crate::error::{ExitCode, Result, UsageError};
use crate::packages::{self, PackageError, Registries, Resolved};
use crate::validate::pins::{self, Ecosystem, Located, Pin};
use crate::{lock, output};

const LONG_ABOUT: &str = "\
Resolve each server's unpinned or ranged package launch to the exact version
its registry serves today, and write that version into the definition:
npx/bunx/pnpm dlx/yarn dlx get `pkg@1.2.3` (scoped names too), uvx/uv tool
run/pipx run get `pkg==1.2.3` (the `--from`/`--spec`/`--package` argument
when there is one). Only that one argument changes; comments, key order and
unknown fields stay.

npm: the `latest` dist-tag; for a range, `latest` when it satisfies the
range, else the highest satisfying version; for another dist-tag, its
version. PyPI: the newest version that is not yanked and not a pre-release
(within the specifier, if any).

Registries, as the launchers read them: npm from npm_config_registry, else
registry= in .npmrc (beside the definitions file, the current directory,
then ~/.npmrc; `@scope:registry=` lines for their scope), else
https://registry.npmjs.org; PyPI from UV_DEFAULT_INDEX, UV_INDEX_URL or
PIP_INDEX_URL (a simple index, asked with PEP 691 JSON), else
https://pypi.org. MCPCTL_NPM_REGISTRY and MCPCTL_PYPI_URL (a JSON API)
override both. Credentials in an index URL are sent and never printed;
.npmrc auth lines are not read.

When the definitions file has a lockfile and the server has a block in it,
the block's artifact gets the new version and its integrity hashes (run
`mcpctl lock NAME` for a server not locked yet). A docker/podman image
gets the digest its tag points at now (`image:tag@sha256:…`), asked of its
registry through the OCI distribution API (anonymous tokens only; a
loopback registry over plain HTTP); when the registry cannot be asked, the
error says so and nothing is written.

Nothing is written unless every named server resolves. What a registry
names is written only when it is one exact version in the ecosystem's own
syntax (semver for npm, PEP 440 for PyPI, a sha256 digest for an image)
and, for npm, one the packument lists whose version document says that
same version; anything else (an alias, a URL, a path, a shell command) is
refused, escaped in the error, and nothing is written.

Exit status: 0 pinned (or already pinned); 1 a registry could not be asked
or named no exact version;
2 a server has nothing to pin (a local command, a URL); 3 no version
matches, or the registry has no such package.";

const EXAMPLES: &str = "\
Examples:
  mcpctl pin everything             # npx -y @scope/pkg → @scope/pkg@2026.8.31
  mcpctl pin --all --dry-run        # show what every unpinned server would get
  mcpctl pin time --json            # uvx mcp-server-time → mcp-server-time==2026.10.19
  UV_INDEX_URL=https://mirror.example/simple mcpctl pin time
  mcpctl add --pin --name fs --command npx -- -y @modelcontextprotocol/server-filesystem /tmp";

/// Arguments of `mcpctl pin`.
#[derive(Debug, clap::Args)]
#[command(long_about = LONG_ABOUT, after_long_help = EXAMPLES)]
pub struct Args {
    /// Servers to pin.
    #[arg(value_name = "NAME", required_unless_present = "all", conflicts_with = "all",
        add = clap_complete::engine::ArgValueCandidates::new(super::complete::server_names))]
    pub names: Vec<String>,

    /// Pin every server whose package launch is not pinned yet.
    #[arg(long)]
    pub all: bool,

    /// Resolve and print what would change, but write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// One server's pin, resolved.
struct Planned {
    def: ServerDef,
    located: Located,
    /// The argument as it will be written.
    new_arg: String,
    resolved: Resolved,
    /// The registry asked (credentials masked).
    registry: String,
}

/// What `pin` found for one server.
enum Found {
    Plan(Box<Planned>),
    AlreadyPinned(ServerDef, String),
    Skipped(ServerDef, String),
}

/// Pin the named servers (or every unpinned one).
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let catalog = ctx.catalog()?;
    let defs: Vec<ServerDef> = if args.all {
        ctx.report_refused(&catalog);
        catalog.servers().to_vec()
    } else {
        let mut picked: Vec<ServerDef> = Vec::new();
        for name in &args.names {
            let def = catalog.get(name)?.clone();
            if !picked.iter().any(|d| d.name == def.name) {
                picked.push(def);
            }
        }
        picked
    };
    let mut found = Vec::new();
    let mut failures: Vec<crate::Error> = Vec::new();
    let runtime = super::runtime()?;
    for def in defs {
        match plan(&runtime, &def) {
            Ok(f) => found.push(f),
            Err(PlanError::Nothing(why)) if args.all => found.push(Found::Skipped(def, why)),
            Err(PlanError::Nothing(why)) => failures.push(
                UsageError::new(
                    format!("`{}`: {why}", def.name),
                    "pin names only servers launched from npm or PyPI (npx, uvx, pipx …)",
                )
                .into(),
            ),
            Err(PlanError::Oci(err)) if args.all => {
                found.push(Found::Skipped(def, err.to_string()))
            }
            Err(PlanError::Oci(err)) | Err(PlanError::Registry(err)) => {
                failures.push(NamedError(def.name.clone(), err).into())
            }
        }
    }
    if let Some(last) = failures.pop() {
        for err in &failures {
            output::error(&err.to_string(), err.hint().as_deref());
        }
        if !failures.is_empty() || !found.is_empty() {
            output::note("nothing was written: every named server must resolve");
        }
        return Err(last);
    }
    let mut written: BTreeMap<PathBuf, Vec<&Planned>> = BTreeMap::new();
    for f in &found {
        if let Found::Plan(p) = f {
            written.entry(p.def.source.clone()).or_default().push(p);
        }
    }
    let mut lockfiles: BTreeMap<String, Value> = BTreeMap::new();
    if !args.dry_run {
        for (file, plans) in &written {
            ctx.require_trusted(file)?;
            write_file(file, plans)?;
            if let Some((path, locked)) = record_in_lock(file, plans, ctx.allow_insecure_file)? {
                for name in locked {
                    lockfiles.insert(name, json!(path));
                }
            }
        }
        if !written.is_empty()
            && let Some(problem) = crate::supervisor::client::notify_reload(&ctx.sources)
        {
            output::warn(
                &format!("the running supervisor did not reload: {problem}"),
                Some("run `mcpctl supervisor stop`; the next command starts a fresh one"),
            );
        }
    }
    report(ctx, &found, &lockfiles, args.dry_run)?;
    Ok(ExitCode::Success)
}

/// A registry error that names the server it was for.
#[derive(Debug, thiserror::Error)]
#[error("`{0}`: {1}")]
struct NamedError(String, PackageError);

impl crate::Diagnostic for NamedError {
    fn exit_code(&self) -> ExitCode {
        crate::Diagnostic::exit_code(&self.1)
    }
    fn hint(&self) -> Option<String> {
        crate::Diagnostic::hint(&self.1)
    }
}

enum PlanError {
    /// Nothing to pin: a local command, a URL, a git or path spec.
    Nothing(String),
    /// An image whose registry could not be asked.
    Oci(PackageError),
    /// The registry could not say.
    Registry(PackageError),
}

fn plan(
    runtime: &tokio::runtime::Runtime,
    def: &ServerDef,
) -> std::result::Result<Found, PlanError> {
    let Some(process) = def.process() else {
        return Err(PlanError::Nothing("a remote URL: no package to pin".into()));
    };
    let Some(located) = pins::locate(process.command, process.args) else {
        return Err(PlanError::Nothing(format!(
            "`{}` is not a package launcher (npx, uvx, pipx …): nothing to pin",
            output::sanitize(process.command)
        )));
    };
    match &located.spec.pin {
        Pin::Exact(v) => return Ok(Found::AlreadyPinned(def.clone(), v.clone())),
        Pin::NotRegistry => {
            return Err(PlanError::Nothing(format!(
                "`{}` is not a registry package",
                output::sanitize(&located.spec.spec)
            )));
        }
        Pin::Invalid(why) => {
            return Err(PlanError::Nothing(format!(
                "`{}` has an invalid version: {why}",
                output::sanitize(&located.spec.spec)
            )));
        }
        _ => {}
    }
    let registries = Registries::for_file(&def.source);
    let registry = shown_registry(&registries, &located);
    let resolved = runtime
        .block_on(packages::resolve(&registries, &located.spec))
        .map_err(|err| match err {
            PackageError::Oci { .. } => PlanError::Oci(err),
            other => PlanError::Registry(other),
        })?;
    let new_arg = pins::pinned_arg(&located, &resolved.version).unwrap_or_default();
    Ok(Found::Plan(Box::new(Planned {
        def: def.clone(),
        located,
        new_arg,
        resolved,
        registry,
    })))
}

fn shown_registry(registries: &Registries, located: &Located) -> String {
    match located.spec.ecosystem {
        Ecosystem::Npm => {
            crate::defs::redact::mask_userinfo(registries.npm.for_package(&located.spec.package))
        }
        Ecosystem::Pypi => registries.pypi.shown(),
        Ecosystem::Oci => {
            let image = packages::oci::ImageRef::parse(&located.spec.spec);
            crate::defs::redact::mask_userinfo(&format!("{}/{}", image.registry, image.repository))
        }
    }
}

/// Rewrite each planned argument in `file`, under its lock.
fn write_file(file: &Path, plans: &[&Planned]) -> Result<()> {
    store::modify_existing(file, |text| {
        let parsed = format::parse(file, text)?;
        let mut edits = Vec::new();
        for p in plans {
            // The file may have changed since it was read: pin only what is
            // still there, as it was.
            let now = parsed.servers.iter().find(|d| d.name == p.def.name);
            let same = now
                .and_then(ServerDef::process)
                .and_then(|proc| proc.args.get(p.located.index))
                == p.def
                    .process()
                    .and_then(|proc| proc.args.get(p.located.index));
            if now.is_none() || !same {
                return Err(DefsError::Invalid {
                    path: file.to_path_buf(),
                    message: format!("`{}` changed while it was being pinned", p.def.name),
                    hint: "run `mcpctl pin` again".into(),
                }
                .into());
            }
            edits.push(Edit::SetArg {
                name: p.def.name.clone(),
                index: p.located.index,
                value: p.new_arg.clone(),
            });
        }
        let new_text = edit::apply(file, text, &parsed, &edits, false)?;
        Ok(Some((new_text, ())))
    })?;
    Ok(())
}

/// Give each pinned server that has a block in `file`'s lockfile its new
/// artifact. Returns the lockfile and the servers recorded, `None` when
/// there is no lockfile.
fn record_in_lock(
    file: &Path,
    plans: &[&Planned],
    allow_insecure_file: bool,
) -> Result<Option<(PathBuf, Vec<String>)>> {
    let Some((path, current)) = lock::file::load(file, allow_insecure_file)? else {
        return Ok(None);
    };
    let mut blocks = Vec::new();
    for p in plans {
        match current.servers.get(&p.def.name) {
            Some(block) => {
                let mut block = block.clone();
                block.artifact.kind = match p.located.spec.ecosystem {
                    Ecosystem::Npm => "npm",
                    Ecosystem::Pypi => "pypi",
                    Ecosystem::Oci => "oci",
                }
                .into();
                block.artifact.source = p.located.spec.package.clone();
                block.artifact.version = Some(p.resolved.version.clone());
                block.artifact.pinned = true;
                block.artifact.integrity = p.resolved.integrity.clone();
                block.artifact.note = None;
                blocks.push((p.def.name.clone(), block));
            }
            None => output::note(format!(
                "`{}` is not in {}: run `mcpctl lock {}` to lock it",
                p.def.name,
                path.display(),
                p.def.name
            )),
        }
    }
    if blocks.is_empty() {
        return Ok(None);
    }
    super::lock::write_blocks(file, &blocks, None)?;
    Ok(Some((path, blocks.into_iter().map(|(n, _)| n).collect())))
}

fn report(
    ctx: &Context,
    found: &[Found],
    lockfiles: &BTreeMap<String, Value>,
    dry_run: bool,
) -> Result<()> {
    let mut entries = Vec::new();
    for f in found {
        match f {
            Found::Plan(p) => {
                let old = &p
                    .def
                    .process()
                    .map(|proc| proc.args[p.located.index].clone());
                if ctx.json {
                    entries.push(json!({
                        "name": p.def.name,
                        "file": p.def.source,
                        "status": if dry_run { "would_pin" } else { "pinned" },
                        "ecosystem": p.located.spec.ecosystem,
                        "package": p.located.spec.package,
                        "from": old,
                        "to": p.new_arg,
                        "version": p.resolved.version,
                        "integrity": p.resolved.integrity,
                        "registry": p.registry,
                        "lockfile": lockfiles.get(&p.def.name),
                    }));
                } else {
                    let mut text = format!(
                        "{} {}: {} → {} (from {})",
                        if dry_run { "would pin" } else { "pinned" },
                        p.def.name,
                        output::sanitize(old.as_deref().unwrap_or("")),
                        output::sanitize(&p.new_arg),
                        output::sanitize(&p.registry),
                    );
                    if !dry_run {
                        text.push_str(&format!(" in {}", p.def.source.display()));
                    }
                    if let Some(lock) = lockfiles.get(&p.def.name).and_then(Value::as_str) {
                        text.push_str(&format!("; {lock} updated"));
                    }
                    output::line(text)?;
                }
            }
            Found::AlreadyPinned(def, version) => {
                if ctx.json {
                    entries.push(json!({"name": def.name, "file": def.source,
                        "status": "already_pinned", "version": version}));
                } else {
                    output::line(format!(
                        "{} is already pinned to {}",
                        def.name,
                        output::sanitize(version)
                    ))?;
                }
            }
            Found::Skipped(def, why) => {
                if ctx.json {
                    entries.push(json!({"name": def.name, "file": def.source,
                        "status": "skipped", "reason": why}));
                } else {
                    output::note(format!("skipped {}: {}", def.name, output::sanitize(why)));
                }
            }
        }
    }
    if ctx.json {
        output::print_json(&json!({"schema_version": 1, "dry_run": dry_run, "servers": entries}))?;
    } else if found.is_empty() {
        output::note("no servers to pin");
    }
    Ok(())
}

/// `add --pin`: resolve the launch of a new definition and write the exact
/// version into it before it is saved. Returns a note saying what changed
/// (`None`: already pinned). An image, a URL or a local command is an error.
pub(super) fn pin_definition(def: &mut ServerDef, target: &Path) -> Result<Option<String>> {
    let mut probe = def.clone();
    probe.source = target.to_path_buf();
    let runtime = super::runtime()?;
    let planned = match plan(&runtime, &probe) {
        Ok(Found::Plan(p)) => p,
        Ok(_) => return Ok(None),
        Err(PlanError::Nothing(why)) => {
            return Err(UsageError::new(
                format!("--pin: {why}"),
                "drop --pin, or launch a package from npm or PyPI (npx, uvx, pipx …)",
            )
            .into());
        }
        Err(PlanError::Oci(err)) | Err(PlanError::Registry(err)) => {
            return Err(NamedError(def.name.clone(), err).into());
        }
    };
    let args = match &mut def.launch {
        Launch::Stdio { args, .. } => args,
        Launch::Remote {
            process: Some(process),
            ..
        } => &mut process.args,
        Launch::Remote { process: None, .. } => return Ok(None),
    };
    let old = std::mem::replace(&mut args[planned.located.index], planned.new_arg.clone());
    Ok(Some(format!(
        "pinned {} → {} ({})",
        output::sanitize(&old),
        output::sanitize(&planned.new_arg),
        output::sanitize(&planned.registry)
    )))
}
