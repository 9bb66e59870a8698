//! Fetching a sandboxed launch's package outside its sandbox (issue 22):
//! "fetching a package is not the server's business". For a confined
//! entry launched by `npx` (`npm exec`) or `uvx` (`uv tool run`), mcpctl
//! runs the launcher's own installer first, as the user, with the user's
//! registry configuration (`~/.npmrc`, uv's settings, the entry's `env`)
//! and without the package's install scripts or builds, into a tree of
//! its cache ([`store`]); the server then runs that tree's bin inside the
//! sandbox, which reads the tree and nothing of the launcher's cache.
//! Other launchers (`node`, `python`, a binary) are left as they are.

mod local;
mod npx;
mod step;
mod store;
mod uvx;
mod why;

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::error::ConnectError;
use crate::defs::ServerDef;
use crate::defs::redact::Redactor;
use why::Why;

/// A launch rewritten to run what was fetched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fetched {
    /// The package's own bin or console script, in the fetched tree.
    pub program: PathBuf,
    /// Its arguments: the launch's, after the package.
    pub args: Vec<String>,
    /// What the sandbox grants read-only besides its defaults: the tree,
    /// and the interpreter prefix a Python environment links to.
    pub read: Vec<PathBuf>,
    /// True when the spec names no exact version (fetched again daily).
    pub floating: bool,
}

/// Everything about one launch the fetch needs, as the spawn computed it.
#[derive(Debug)]
pub struct Launch<'a> {
    /// The launcher, resolved on the child's `PATH`.
    pub program: &'a Path,
    /// The launch's arguments, `${VAR}`s expanded.
    pub args: &'a [String],
    /// The child's environment (the inherited names and the entry's own).
    pub env: &'a [(String, String)],
    /// The child's working directory.
    pub cwd: &'a Path,
    /// When the connect budget ends.
    pub deadline: Instant,
}

/// Why a launch is not fetched as asked.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// An option or form mcpctl does not reproduce faithfully.
    Syntax(String),
    /// A path, URL or git source instead of a registry package.
    NotRegistry { spec: String },
    /// The fetched tree lacks what the launch runs.
    Missing { detail: String },
}

impl Refusal {
    /// A form not reproduced; `what` quotes the launch, so it is sanitized.
    fn syntax(what: String) -> Refusal {
        Refusal::Syntax(crate::text::sanitize(&what).into_owned())
    }
}

/// A bin or command name as a launch may give it: no path, no `..`.
fn plain_name(name: &str) -> Result<String, Refusal> {
    if name.is_empty() || name.contains('/') || name == "." || name == ".." || name.contains('\0') {
        return Err(Refusal::syntax(format!("the bin or command name `{name}`")));
    }
    Ok(name.to_string())
}

/// The parsed request of a launcher mcpctl fetches for.
enum Request {
    Npm(npx::Request),
    Uv(uvx::Request),
}

/// The request `program args` makes, if its launcher is one mcpctl fetches
/// for: `npx`, `npm exec`, `uvx`, `uv tool run`.
fn request(program: &Path, args: &[String]) -> Option<Result<Request, Refusal>> {
    let base = program.file_name()?.to_str()?;
    let first = args.first().map(String::as_str);
    Some(match (base, first) {
        ("npx", _) => npx::parse(args).map(Request::Npm),
        ("npm", Some("exec")) => npx::parse(&args[1..]).map(Request::Npm),
        ("uvx", _) => uvx::parse(args).map(Request::Uv),
        ("uv", Some("tool")) if args.get(1).is_some_and(|a| a == "run") => {
            uvx::parse(&args[2..]).map(Request::Uv)
        }
        _ => return None,
    })
}

/// The fetched launch of a confined `def`, or `None` when its launcher is
/// not one mcpctl fetches for (or the entry is unconfined). The fetch is
/// bounded by the launch's deadline and cached per exact request.
pub async fn prepare(def: &ServerDef, launch: Launch<'_>) -> Result<Option<Fetched>, ConnectError> {
    let confined = def
        .sandbox
        .as_ref()
        .is_some_and(|s| *s != crate::sandbox::Sandbox::Off);
    if !confined {
        return Ok(None);
    }
    let Some(request) = request(launch.program, launch.args) else {
        return local_launch(def, &launch).map_err(|why| why.error(&def.name));
    };
    fetched(def, request, &launch)
        .await
        .map(Some)
        .map_err(|why| why.error(&def.name))
}

/// A launch with nothing to fetch, and the directories its interpreter
/// and script need (see [`local`]); `None` when it needs none.
fn local_launch(def: &ServerDef, launch: &Launch<'_>) -> Result<Option<Fetched>, Why> {
    let read = local::grants(launch.program, launch.args, launch.cwd);
    if read.is_empty() {
        return Ok(None);
    }
    let home = env_var(launch.env, "HOME").map(Path::new);
    if let Some(dir) = read.iter().find(|dir| !grantable(dir, home, &def.source)) {
        return Err(why::ungrantable("the script it runs", dir));
    }
    Ok(Some(Fetched {
        program: launch.program.to_path_buf(),
        args: launch.args.to_vec(),
        read,
        floating: false,
    }))
}

/// [`prepare`] once the launcher is known to be one mcpctl fetches for.
async fn fetched(
    def: &ServerDef,
    request: Result<Request, Refusal>,
    launch: &Launch<'_>,
) -> Result<Fetched, Why> {
    let request = request.map_err(|r| why::refused(launch.program, r))?;
    let what = match &request {
        Request::Npm(r) => r.what(),
        Request::Uv(r) => r.what(),
    };
    let redactor = Redactor::for_def(def);
    let fetched = fetch(&request, launch, &redactor)
        .await
        .map_err(|e| match e {
            Failure::Step(failed) => why::step(&what, failed, matches!(request, Request::Npm(_))),
            Failure::Io(detail) => why::io(&what, detail),
            Failure::Refused(r) => why::refused(launch.program, r),
        })?;
    let home = env_var(launch.env, "HOME").map(Path::new);
    match fetched
        .read
        .iter()
        .find(|dir| !grantable(dir, home, &def.source))
    {
        Some(dir) => Err(why::ungrantable(&what, dir)),
        None => Ok(fetched),
    }
}

/// What went wrong in [`fetch`].
enum Failure {
    Step(step::Failed),
    Io(String),
    Refused(Refusal),
}

/// Claim the request's tree, fill it unless it is complete, and name what
/// to run from it.
async fn fetch(
    request: &Request,
    launch: &Launch<'_>,
    redactor: &Redactor,
) -> Result<Fetched, Failure> {
    let (readable, described, floating) = match request {
        Request::Npm(r) => (r.packages.join("+"), format!("{r:?}"), r.floating()),
        Request::Uv(r) => (r.requirement.clone(), format!("{r:?}"), r.floating()),
    };
    let launcher = match request {
        Request::Npm(_) => "npm",
        Request::Uv(_) => "uv",
    };
    let key = store::key(launcher, &readable, &described, floating);
    let io = |e: std::io::Error| Failure::Io(e.to_string());
    let mut slot = store::claim(&key, launch.deadline).await.map_err(io)?;
    if !slot.ready {
        fill(request, &slot.dir, launch, redactor).await?;
        locate(request, &slot.dir, floating)?;
        slot.complete(&readable).map_err(io)?;
    }
    locate(request, &slot.dir, floating)
}

/// Run the launcher's installer steps into `dir`.
async fn fill(
    request: &Request,
    dir: &Path,
    launch: &Launch<'_>,
    redactor: &Redactor,
) -> Result<(), Failure> {
    let (tool, steps) = match request {
        Request::Npm(r) => ("npm", vec![r.install_args(dir)]),
        Request::Uv(r) => ("uv", vec![r.venv_args(dir), r.install_args(dir)]),
    };
    let program = sibling_tool(launch, tool)?;
    let mut env = launch.env.to_vec();
    env.extend(
        [
            ("npm_config_update_notifier", "false"),
            ("npm_config_fund", "false"),
            ("npm_config_audit", "false"),
            ("UV_NO_PROGRESS", "1"),
        ]
        .map(|(k, v)| (k.to_string(), v.to_string())),
    );
    for args in steps {
        let step = step::Step {
            program: &program,
            args,
            env: env.clone(),
            cwd: launch.cwd,
        };
        step::run(step, launch.deadline, redactor)
            .await
            .map_err(Failure::Step)?;
    }
    Ok(())
}

/// What to run from a filled `dir`.
fn locate(request: &Request, dir: &Path, floating: bool) -> Result<Fetched, Failure> {
    let (program, args, mut read) = match request {
        Request::Npm(r) => (r.bin(dir), r.rest.clone(), vec![dir.to_path_buf()]),
        Request::Uv(r) => match r.script(dir) {
            Ok((script, prefix)) => (Ok(script), r.rest.clone(), vec![dir.to_path_buf(), prefix]),
            Err(e) => (Err(e), Vec::new(), Vec::new()),
        },
    };
    read.dedup();
    Ok(Fetched {
        program: program.map_err(Failure::Refused)?,
        args,
        read,
        floating,
    })
}

/// The launcher's own tool (`npm` beside `npx`, `uv` beside `uvx`), else
/// the one on the child's `PATH`.
fn sibling_tool(launch: &Launch<'_>, tool: &str) -> Result<PathBuf, Failure> {
    let beside = launch.program.with_file_name(tool);
    if beside.is_file() {
        return Ok(beside);
    }
    which::which_in(tool, env_var(launch.env, "PATH"), launch.cwd).map_err(|_| {
        Failure::Io(format!(
            "`{tool}` is on neither the launcher's directory nor PATH"
        ))
    })
}

fn env_var<'a>(env: &'a [(String, String)], name: &str) -> Option<&'a str> {
    env.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

/// True when `dir` may be granted: not `/`, holding neither the home
/// directory nor the definitions file (mcpctl's state is checked by the
/// sandbox itself, as for every `read` path).
fn grantable(dir: &Path, home: Option<&Path>, definitions: &Path) -> bool {
    let defs = definitions
        .canonicalize()
        .unwrap_or_else(|_| definitions.to_path_buf());
    dir != Path::new("/")
        && !home.is_some_and(|h| h.starts_with(dir))
        && !definitions.starts_with(dir)
        && !defs.starts_with(dir)
}
