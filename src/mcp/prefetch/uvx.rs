//! `uvx` and `uv tool run`: a virtual environment made by `uv venv` in a
//! tree of mcpctl's, the package installed into it by `uv pip install
//! --no-build` (wheels only, so no `setup.py` or build backend of the
//! package runs outside the sandbox), and its console script run directly
//! inside; `uv` itself never runs in there.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::{Refusal, plain_name};
use crate::validate::pins::{self, Ecosystem, Pin};

/// What a `uvx` launch asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Request {
    /// The requirement to install, in pip's syntax (`pkg==1.2`, `pkg[x]`).
    pub requirement: String,
    /// The console script to run: the positional with `--from`, else the
    /// package's name.
    pub command: String,
    /// `--with` requirements.
    pub with: Vec<String>,
    /// `--python`, passed on to `uv venv`.
    pub python: Option<String>,
    /// Index options, passed on to `uv pip install` as written.
    pub index: Vec<String>,
    /// `--offline`, passed on to both.
    pub offline: bool,
    /// The arguments after the package (or the command).
    pub rest: Vec<String>,
}

/// uv's index options: passed on with their value.
const INDEX_FLAGS: &[&str] = &[
    "--index",
    "--default-index",
    "--index-url",
    "-i",
    "--extra-index-url",
];

/// Options that change nothing about what is fetched or run.
const QUIET_FLAGS: &[&str] = &["-q", "--quiet", "--isolated", "-n", "--no-cache"];

/// Read `uvx`'s arguments (or `uv tool run`'s, after `tool run`).
pub(super) fn parse(args: &[String]) -> Result<Request, Refusal> {
    let mut from = None;
    let mut req = Request {
        requirement: String::new(),
        command: String::new(),
        with: Vec::new(),
        python: None,
        index: Vec::new(),
        offline: false,
        rest: Vec::new(),
    };
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if arg.starts_with("--") => (flag, Some(value.to_string())),
            _ => (arg.as_str(), None),
        };
        let takes_value = ["--from", "--with", "-w", "--python", "-p"].contains(&flag)
            || INDEX_FLAGS.contains(&flag);
        let value = match (takes_value, inline) {
            (true, Some(value)) => value,
            (true, None) => {
                i += 1;
                args.get(i)
                    .cloned()
                    .ok_or_else(|| Refusal::syntax(format!("`{flag}` needs a value")))?
            }
            (false, _) => String::new(),
        };
        match flag {
            "--from" => from = Some(value),
            "--with" | "-w" => req.with.push(value),
            "--python" | "-p" => req.python = Some(value),
            _ if INDEX_FLAGS.contains(&flag) => req.index.extend([flag.to_string(), value]),
            "--offline" => req.offline = true,
            _ if QUIET_FLAGS.contains(&flag) => {}
            "--" => {
                i += 1;
                break;
            }
            _ if arg.starts_with('-') => {
                return Err(Refusal::syntax(format!("the option `{arg}`")));
            }
            _ => break,
        }
        i += 1;
    }
    let target = args
        .get(i)
        .ok_or_else(|| Refusal::syntax("a launch that names no package".into()))?;
    let (written, package) = requirement(from.as_deref().unwrap_or(target))?;
    req.command = plain_name(if from.is_some() { target } else { &package })?;
    req.requirement = written;
    for with in &mut req.with {
        *with = requirement(with)?.0;
    }
    req.rest = args[i + 1..].to_vec();
    Ok(req)
}

impl Request {
    /// `mcp-server-time==1.2.3`, with its `--with`s.
    pub fn what(&self) -> String {
        let mut what = format!("PyPI package {}", self.requirement);
        for with in &self.with {
            what.push_str(&format!(" (with {with})"));
        }
        what
    }

    /// True unless the package and every `--with` name one exact version.
    pub fn floating(&self) -> bool {
        !std::iter::once(&self.requirement)
            .chain(&self.with)
            .all(|spec| matches!(pins::read_spec(Ecosystem::Pypi, spec).pin, Pin::Exact(_)))
    }

    /// `uv venv`'s arguments: an environment of its own in `dir`, no
    /// project's settings (as `uvx`).
    pub fn venv_args(&self, dir: &Path) -> Vec<OsString> {
        let mut args: Vec<OsString> = ["venv", "--quiet", "--no-project"]
            .map(OsString::from)
            .to_vec();
        if let Some(python) = &self.python {
            args.extend(["--python".into(), python.into()]);
        }
        if self.offline {
            args.push("--offline".into());
        }
        args.push(dir.into());
        args
    }

    /// `uv pip install`'s arguments: wheels only, into `dir`'s environment,
    /// compiled to bytecode here (compiling imports nothing), since the
    /// server cannot write its `__pycache__` into the read-only tree.
    pub fn install_args(&self, dir: &Path) -> Vec<OsString> {
        let mut args: Vec<OsString> = [
            "pip",
            "install",
            "--quiet",
            "--no-build",
            "--compile-bytecode",
            "--python",
        ]
        .map(OsString::from)
        .to_vec();
        args.push(dir.join("bin/python").into());
        if self.offline {
            args.push("--offline".into());
        }
        args.extend(self.index.iter().map(OsString::from));
        args.push("--".into());
        args.push(self.requirement.clone().into());
        args.extend(self.with.iter().map(OsString::from));
        args
    }

    /// The console script to run from the filled `dir`, and the prefix of
    /// the interpreter its environment links to (read from `pyvenv.cfg`:
    /// nothing of the package is imported to learn it).
    pub fn script(&self, dir: &Path) -> Result<(PathBuf, PathBuf), Refusal> {
        let script = dir.join("bin").join(&self.command);
        if !script.is_file() {
            return Err(Refusal::Missing {
                detail: format!(
                    "the package installs no command `{}` (name it with `--from PACKAGE COMMAND`)",
                    crate::text::sanitize(&self.command)
                ),
            });
        }
        let (_, prefix) =
            super::local::venv_of(&dir.join("bin/python")).ok_or_else(|| Refusal::Missing {
                detail: "its environment's pyvenv.cfg names no interpreter (`home`)".into(),
            })?;
        Ok((script, prefix))
    }
}

/// `pkg@1.2` (uvx's own spelling) as pip's `pkg==1.2`, `pkg@latest` as
/// `pkg`; the package's name beside. Only registry packages: a path or a
/// URL would be built or read from outside.
fn requirement(spec: &str) -> Result<(String, String), Refusal> {
    if spec.starts_with('-') || spec.is_empty() {
        return Err(Refusal::syntax(format!(
            "the package `{}`",
            crate::text::sanitize(spec)
        )));
    }
    let read = pins::read_spec(Ecosystem::Pypi, spec);
    if matches!(read.pin, Pin::NotRegistry | Pin::Invalid(_)) || spec.contains("://") {
        return Err(Refusal::NotRegistry {
            spec: crate::text::sanitize(spec).into_owned(),
        });
    }
    let written = match spec.split_once('@') {
        Some((name, "latest")) => name.to_string(),
        Some((name, version)) => format!("{name}=={version}"),
        None => spec.to_string(),
    };
    Ok((written, read.package))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn reads_the_forms_uvx_takes() {
        let r = parse(&args(&[
            "mcp-server-time==2026.10.19",
            "--local-timezone",
            "UTC",
        ]))
        .unwrap();
        assert_eq!(r.requirement, "mcp-server-time==2026.10.19");
        assert_eq!(r.command, "mcp-server-time");
        assert_eq!(r.rest, ["--local-timezone", "UTC"]);
        assert!(!r.floating());
        let r = parse(&args(&[
            "--from",
            "pkg[extra]@1.0",
            "--with=dep==2",
            "tool",
            "x",
        ]))
        .unwrap();
        assert_eq!(
            (r.requirement.as_str(), r.command.as_str()),
            ("pkg[extra]==1.0", "tool")
        );
        assert_eq!(r.with, ["dep==2"]);
        assert!(parse(&args(&["pkg@latest"])).unwrap().floating());
        assert!(parse(&args(&["pkg"])).unwrap().floating());
        let r = parse(&args(&[
            "--index-url",
            "https://mirror/simple",
            "-q",
            "p==1",
        ]))
        .unwrap();
        assert_eq!(r.index, ["--index-url", "https://mirror/simple"]);
    }

    #[test]
    fn refuses_what_it_would_not_fetch_faithfully() {
        for bad in [
            &["--with-editable", ".", "p==1"][..],
            &["--from", "./local", "tool"],
            &["--from", "git+https://example.com/x", "tool"],
            &["--from", "p==1", "../../bin/sh"],
            &["/abs/path/pkg"],
            &["--build-constraint", "c.txt", "p"],
            &[],
        ] {
            assert!(parse(&args(bad)).is_err(), "{bad:?}");
        }
    }
}
