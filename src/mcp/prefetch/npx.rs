//! `npx` and `npm exec`: the package installed by `npm install
//! --ignore-scripts` into a tree of mcpctl's (no install script of it or
//! of its dependencies runs), and its bin, chosen as `npx` chooses it, run
//! directly inside the sandbox; `npm` itself never runs in there.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::{Refusal, plain_name};
use crate::validate::pins::{self, Ecosystem, Pin};

/// What an `npx` launch asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Request {
    /// The packages to install: the one positional, or every `-p`.
    pub packages: Vec<String>,
    /// The bin to run when named (`npx -p pkg bin`); else the package's own.
    pub command: Option<String>,
    /// `--registry URL`, passed on to npm.
    pub registry: Option<String>,
    /// The arguments after the package (or the bin).
    pub rest: Vec<String>,
}

/// Read `npx`'s arguments (or `npm exec`'s, after `exec`): the options
/// mcpctl understands, then the package (or bin) and what follows it.
pub(super) fn parse(args: &[String]) -> Result<Request, Refusal> {
    let mut packages = Vec::new();
    let mut registry = None;
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        let value = |i: usize| {
            args.get(i + 1)
                .cloned()
                .ok_or_else(|| Refusal::syntax(format!("`{arg}` needs a value")))
        };
        match arg.as_str() {
            "-y" | "--yes" | "-q" | "--quiet" | "--silent" => {}
            "-p" | "--package" => {
                packages.push(value(i)?);
                i += 1;
            }
            "--registry" => {
                registry = Some(value(i)?);
                i += 1;
            }
            "--" => {
                i += 1;
                break;
            }
            _ => match arg.split_once('=') {
                Some(("--package", spec)) => packages.push(spec.to_string()),
                Some(("--registry", url)) => registry = Some(url.to_string()),
                _ if arg.starts_with('-') => {
                    return Err(Refusal::syntax(format!("the option `{arg}`")));
                }
                _ => break,
            },
        }
        i += 1;
    }
    let first = args
        .get(i)
        .ok_or_else(|| Refusal::syntax("a launch that names no package".into()))?;
    let command = if packages.is_empty() {
        packages.push(first.clone());
        None
    } else {
        Some(plain_name(first)?)
    };
    for spec in &packages {
        registry_spec(spec)?;
    }
    Ok(Request {
        packages,
        command,
        registry,
        rest: args[i + 1..].to_vec(),
    })
}

impl Request {
    /// `@scope/pkg@1.2.3`, or the list of them.
    pub fn what(&self) -> String {
        format!("npm package {}", self.packages.join(" "))
    }

    /// True unless every package names one exact version.
    pub fn floating(&self) -> bool {
        !self
            .packages
            .iter()
            .all(|spec| matches!(pins::read_spec(Ecosystem::Npm, spec).pin, Pin::Exact(_)))
    }

    /// `npm install`'s arguments, filling `dir` without running a script.
    pub fn install_args(&self, dir: &Path) -> Vec<OsString> {
        let mut args: Vec<OsString> = ["install", "--prefix"].map(OsString::from).to_vec();
        args.push(dir.into());
        args.extend(
            [
                "--ignore-scripts",
                "--no-audit",
                "--no-fund",
                "--no-save",
                "--loglevel=error",
            ]
            .map(OsString::from),
        );
        if let Some(registry) = &self.registry {
            args.push(format!("--registry={registry}").into());
        }
        args.push("--".into());
        args.extend(self.packages.iter().map(OsString::from));
        args
    }

    /// The bin to run from the filled `dir`, inside it.
    pub fn bin(&self, dir: &Path) -> Result<PathBuf, Refusal> {
        let name = match &self.command {
            Some(command) => command.clone(),
            None => {
                let package = pins::read_spec(Ecosystem::Npm, &self.packages[0]).package;
                bin_of(&dir.join("node_modules").join(&package), &package)?
            }
        };
        let link = dir.join("node_modules/.bin").join(plain_name(&name)?);
        let real = link.canonicalize().map_err(|_| Refusal::Missing {
            detail: format!(
                "the package installs no bin `{}`",
                crate::text::sanitize(&name)
            ),
        })?;
        let root = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        if !real.starts_with(&root) {
            return Err(Refusal::Missing {
                detail: format!(
                    "the bin `{}` points outside the fetched tree",
                    crate::text::sanitize(&name)
                ),
            });
        }
        Ok(real)
    }
}

/// The bin `npx` runs for a package: its only one (or the one all its
/// names point at), else the one named like the package without scope.
fn bin_of(package_dir: &Path, package: &str) -> Result<String, Refusal> {
    use std::io::Read;
    let unscoped = package.rsplit('/').next().unwrap_or(package).to_string();
    let mut text = String::new();
    std::fs::File::open(package_dir.join("package.json"))
        .and_then(|f| f.take(1 << 20).read_to_string(&mut text))
        .map_err(|e| Refusal::Missing {
            detail: format!("reading its package.json: {e}"),
        })?;
    let manifest: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    match &manifest["bin"] {
        serde_json::Value::String(_) => return Ok(unscoped),
        serde_json::Value::Object(bins) => {
            let targets: std::collections::BTreeSet<_> =
                bins.values().map(|v| v.to_string()).collect();
            if targets.len() == 1 {
                return Ok(bins.keys().next().cloned().unwrap_or_default());
            }
            if bins.contains_key(&unscoped) {
                return Ok(unscoped);
            }
        }
        _ => {}
    }
    Err(Refusal::Missing {
        detail: "npx could not tell which of its bins to run (none, or several and none named like the package)".into(),
    })
}

/// Only packages from a registry are fetched: a path, a URL or a git
/// source would run code (its `prepare`) or read files outside.
fn registry_spec(spec: &str) -> Result<(), Refusal> {
    let read = pins::read_spec(Ecosystem::Npm, spec);
    match read.pin {
        _ if spec.starts_with('-') || spec.is_empty() => Err(Refusal::syntax(format!(
            "the package `{}`",
            crate::text::sanitize(spec)
        ))),
        Pin::NotRegistry | Pin::Invalid(_) => Err(Refusal::NotRegistry {
            spec: crate::text::sanitize(spec).into_owned(),
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn reads_the_forms_npx_takes() {
        let r = parse(&args(&["-y", "@s/p@1.2.3", "stdio", "--x"])).unwrap();
        assert_eq!(r.packages, ["@s/p@1.2.3"]);
        assert_eq!((r.command, r.rest), (None, args(&["stdio", "--x"])));
        assert!(
            !Request {
                ..parse(&args(&["@s/p@1.2.3"])).unwrap()
            }
            .floating()
        );
        let r = parse(&args(&[
            "--yes",
            "--package=a@1.0.0",
            "-p",
            "b@2.0.0",
            "--",
            "tool",
            "-v",
        ]))
        .unwrap();
        assert_eq!(r.packages, ["a@1.0.0", "b@2.0.0"]);
        assert_eq!(r.command.as_deref(), Some("tool"));
        assert_eq!(r.rest, ["-v"]);
        assert!(parse(&args(&["-y", "pkg"])).unwrap().floating());
        let r = parse(&args(&["--registry", "https://r.example/", "p@1.0.0"])).unwrap();
        assert_eq!(r.registry.as_deref(), Some("https://r.example/"));
    }

    #[test]
    fn refuses_what_it_would_not_fetch_faithfully() {
        for bad in [
            &["-c", "echo hi"][..],
            &["--no-install", "p"],
            &["--ignore-scripts=false", "p@1.0.0"],
            &["-y"],
            &["-p", "a@1.0.0", "../../bin/sh"],
            &["./local-dir"],
            &["git+https://example.com/x.git"],
            &["github:owner/repo"],
            &["-p"],
        ] {
            assert!(parse(&args(bad)).is_err(), "{bad:?}");
        }
    }
}
