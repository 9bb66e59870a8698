//! Version pins, read from each launcher's own syntax.
//!
//! An unpinned package can change under an operator between two restarts,
//! so mcpctl reads the package spec the way the launcher would and decides
//! whether it names one exact version: semver for npm, PEP 440 for PyPI, a
//! tag other than `latest` (or a digest) for OCI images. Ranges, dist-tags,
//! `latest` and bare names are unpinned (a warning, or an error under
//! `--require-pin`); a version that does not parse is always an error.

mod npm;
mod oci;
mod pypi;
mod spec;

use std::path::Path;

use super::{Finding, Rule};

use npm::npm_spec;
use oci::{DOCKER_VALUE_FLAGS, image_spec};
use pypi::{UV_VALUE_FLAGS, pypi_spec};
pub use spec::{Ecosystem, PackageSpec, Pin};

/// Find the package a launch command installs, if the launcher is known.
pub fn find_package(command: &str, args: &[String]) -> Option<PackageSpec> {
    locate(command, args).map(|found| found.spec)
}

/// `spec` read as `ecosystem`'s launchers read it (`pkg@1.2.3` for npm,
/// `pkg==1.2.3` or `pkg@1.2.3` for PyPI), for a caller that has already
/// found the argument: the sandbox's fetch step.
pub fn read_spec(ecosystem: Ecosystem, spec: &str) -> PackageSpec {
    match ecosystem {
        Ecosystem::Npm => npm_spec(spec),
        Ecosystem::Pypi => pypi_spec(spec),
        Ecosystem::Oci => image_spec(spec),
    }
}

/// Where in the arguments a launch command names its package, so that
/// `mcpctl pin` can rewrite exactly that argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// The index in `args` of the argument holding the spec.
    pub index: usize,
    /// What precedes the spec in that argument (`--package=`), or nothing.
    pub prefix: String,
    /// The spec.
    pub spec: PackageSpec,
}

/// [`find_package`], with the position of the spec.
pub fn locate(command: &str, args: &[String]) -> Option<Located> {
    let base = Path::new(command).file_name()?.to_str()?;
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (skip, launcher) = match (base, args.first().copied()) {
        ("npx" | "bunx", _) => (0, &NPM),
        ("pnpm" | "yarn", Some("dlx")) | ("npm", Some("exec")) => (1, &NPM),
        ("uvx", _) => (0, &UV),
        ("uv", Some("tool")) if args.get(1) == Some(&"run") => (2, &UV),
        ("pipx", Some("run")) => (1, &PIPX),
        ("docker" | "podman", Some("run")) => (1, &CONTAINER),
        _ => return None,
    };
    let (index, prefix, spec) = launcher.find(args.get(skip..)?)?;
    Some(Located {
        index: index + skip,
        prefix,
        spec,
    })
}

/// The argument that pins `located` to exactly `version`, in the
/// launcher's syntax: `pkg@1.2.3` for npm (scoped names too), `pkg==1.2.3`
/// for PyPI (extras kept), `image:tag@sha256:…` for an image (`version` is
/// then the digest).
pub fn pinned_arg(located: &Located, version: &str) -> Option<String> {
    let spec = &located.spec;
    let pinned = match spec.ecosystem {
        Ecosystem::Npm => format!("{}@{version}", spec.package),
        Ecosystem::Pypi => {
            let rest = &spec.spec[spec.package.len()..];
            let extras = rest
                .trim_start()
                .strip_prefix('[')
                .and_then(|e| e.split_once(']'))
                .map(|(inside, _)| format!("[{inside}]"))
                .unwrap_or_default();
            format!("{}{extras}=={version}", spec.package)
        }
        // The tag stays readable; the digest is what runs.
        Ecosystem::Oci => format!("{}@{version}", spec.spec),
    };
    Some(format!("{}{pinned}", located.prefix))
}

/// How one launcher's command line names its package.
struct Launcher {
    /// Flags whose value is the package spec (`--from`, `--package`, …).
    spec_flags: &'static [&'static str],
    /// Flags that take a value that is *not* the package.
    value_flags: &'static [&'static str],
    /// Reads a spec in this ecosystem's syntax.
    parse: fn(&str) -> PackageSpec,
}

impl Launcher {
    /// The spec named by a spec flag, else the first positional argument:
    /// its index, what precedes it in that argument, and the spec.
    fn find(&self, args: &[&str]) -> Option<(usize, String, PackageSpec)> {
        let mut iter = args.iter().enumerate();
        while let Some((i, arg)) = iter.next() {
            if let Some((flag, value)) = arg.split_once('=').filter(|_| arg.starts_with('-')) {
                if self.spec_flags.contains(&flag) {
                    return Some((i, format!("{flag}="), (self.parse)(value)));
                }
                continue;
            }
            if self.spec_flags.contains(arg) {
                return iter
                    .next()
                    .map(|(i, value)| (i, String::new(), (self.parse)(value)));
            }
            if self.value_flags.contains(arg) {
                iter.next();
                continue;
            }
            if arg.starts_with('-') {
                continue;
            }
            return Some((i, String::new(), (self.parse)(arg)));
        }
        None
    }
}

const NPM: Launcher = Launcher {
    spec_flags: &["-p", "--package"],
    value_flags: &[],
    parse: npm_spec,
};

const UV: Launcher = Launcher {
    spec_flags: &["--from"],
    value_flags: UV_VALUE_FLAGS,
    parse: pypi_spec,
};

const PIPX: Launcher = Launcher {
    spec_flags: &["--spec"],
    value_flags: &["--python", "--index-url", "-i", "--pip-args", "--backend"],
    parse: pypi_spec,
};

const CONTAINER: Launcher = Launcher {
    spec_flags: &[],
    value_flags: DOCKER_VALUE_FLAGS,
    parse: image_spec,
};

/// Check the pin of whatever package `command args` installs.
pub fn check(command: &str, args: &[String], require_pin: bool) -> Vec<Finding> {
    let Some(spec) = find_package(command, args) else {
        return Vec::new();
    };
    let pin_hint = |spec: &PackageSpec| match spec.ecosystem {
        Ecosystem::Npm => format!("pin an exact version, e.g. `{}@1.2.3`", spec.package),
        Ecosystem::Pypi => format!("pin an exact version, e.g. `{}==1.2.3`", spec.package),
        Ecosystem::Oci => format!(
            "pin a tag or digest, e.g. `{}:1.2.3` or `{}@sha256:…`",
            spec.package, spec.package
        ),
    };
    let unpinned = |what: String| {
        let hint = format!("{}; or drop --require-pin to allow it", pin_hint(&spec));
        if require_pin {
            Finding::error(Rule::Pin, format!("{what} (--require-pin)"), hint)
        } else {
            Finding::warning(Rule::Pin, what, pin_hint(&spec))
        }
    };
    let finding = match &spec.pin {
        Pin::Exact(_) => return Vec::new(),
        Pin::Range(range) => unpinned(format!(
            "`{}` asks for a version range `{range}`, not an exact version",
            spec.spec
        )),
        Pin::Tag(tag) => unpinned(format!(
            "`{}` uses the moving tag `{tag}`, not an exact version",
            spec.spec
        )),
        Pin::Latest => unpinned(format!(
            "`{}` follows `latest`, not an exact version",
            spec.spec
        )),
        Pin::Missing => unpinned(format!("`{}` has no version pin", spec.spec)),
        Pin::NotRegistry => unpinned(format!(
            "`{}` is not a registry package, so its version cannot be pinned or checked",
            spec.spec
        )),
        Pin::Invalid(reason) => Finding::error(
            Rule::Pin,
            format!("`{}` has an invalid version: {reason}", spec.spec),
            pin_hint(&spec),
        ),
    };
    vec![finding]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pin(command: &str, args: &[&str]) -> Pin {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        find_package(command, &args).expect("package found").pin
    }

    #[test]
    fn npm_launchers() {
        assert_eq!(
            pin(
                "npx",
                &["-y", "@modelcontextprotocol/server-everything@2026.8.31"]
            ),
            Pin::Exact("2026.8.31".into())
        );
        assert_eq!(
            pin("npx", &["-y", "--package=@a/b@1.2.3", "b-bin"]),
            Pin::Exact("1.2.3".into())
        );
        assert_eq!(
            pin("npx", &["-p", "x@^1.2", "x"]),
            Pin::Range("^1.2".into())
        );
        assert_eq!(pin("npx", &["-y", "x@latest"]), Pin::Latest);
        assert_eq!(pin("npx", &["x@next"]), Pin::Tag("next".into()));
        assert_eq!(pin("npx", &["-y", "@scope/x"]), Pin::Missing);
        assert!(matches!(pin("npx", &["x@1.2.3.4.5!"]), Pin::Invalid(_)));
        assert_eq!(pin("bunx", &["x@1.0.0"]), Pin::Exact("1.0.0".into()));
        assert_eq!(pin("pnpm", &["dlx", "x@1.0.0"]), Pin::Exact("1.0.0".into()));
        assert_eq!(pin("yarn", &["dlx", "x@~1.0"]), Pin::Range("~1.0".into()));
        assert_eq!(
            pin("/usr/bin/npx", &["-y", "github:org/repo"]),
            Pin::NotRegistry
        );
    }

    #[test]
    fn pypi_launchers() {
        assert_eq!(
            pin("uvx", &["mcp-server-time==2026.10.19"]),
            Pin::Exact("2026.10.19".into())
        );
        assert_eq!(
            pin("uvx", &["mcp-server-time@2026.10.19"]),
            Pin::Exact("2026.10.19".into())
        );
        assert_eq!(
            pin(
                "uvx",
                &["--from", "mcp-server-time==1.0", "mcp-server-time"]
            ),
            Pin::Exact("1.0".into())
        );
        assert_eq!(
            pin("uvx", &["--python", "3.12", "pkg>=1.0"]),
            Pin::Range(">=1.0".into())
        );
        assert_eq!(pin("uvx", &["pkg@latest"]), Pin::Latest);
        assert_eq!(pin("uvx", &["pkg"]), Pin::Missing);
        assert_eq!(pin("uvx", &["pkg[cli]==2.0.1"]), Pin::Exact("2.0.1".into()));
        assert!(matches!(
            pin("uvx", &["pkg==not.a.version!"]),
            Pin::Invalid(_)
        ));
        assert_eq!(
            pin("uv", &["tool", "run", "pkg==1.0"]),
            Pin::Exact("1.0".into())
        );
        assert_eq!(pin("pipx", &["run", "pkg==1.0"]), Pin::Exact("1.0".into()));
        assert_eq!(
            pin("pipx", &["run", "--spec", "pkg~=1.0", "cmd"]),
            Pin::Range("~=1.0".into())
        );
    }

    #[test]
    fn oci_launchers() {
        let digest = format!("img@sha256:{}", "a".repeat(64));
        assert_eq!(
            pin(
                "docker",
                &["run", "-i", "--rm", "-e", "TOKEN", "ghcr.io/org/img:1.4.0"]
            ),
            Pin::Exact("1.4.0".into())
        );
        assert_eq!(
            pin("docker", &["run", "-i", &digest]),
            Pin::Exact(format!("sha256:{}", "a".repeat(64)))
        );
        assert_eq!(pin("docker", &["run", "-i", "img:latest"]), Pin::Latest);
        assert_eq!(pin("docker", &["run", "localhost:5000/img"]), Pin::Missing);
        assert!(matches!(
            pin("docker", &["run", "img@sha256:xyz"]),
            Pin::Invalid(_)
        ));
        assert!(find_package("docker", &["ps".to_string()]).is_none());
    }

    #[test]
    fn pinned_args_keep_the_launcher_syntax() {
        let at = |command: &str, args: &[&str]| {
            let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
            locate(command, &args).expect("package found")
        };
        let found = at("npx", &["-y", "--package=@a/b@^1", "b"]);
        assert_eq!(found.index, 1);
        assert_eq!(pinned_arg(&found, "1.4.0").unwrap(), "--package=@a/b@1.4.0");
        let found = at("uvx", &["--from", "pkg[cli]>=1", "cmd"]);
        assert_eq!(found.index, 1);
        assert_eq!(pinned_arg(&found, "2.0").unwrap(), "pkg[cli]==2.0");
        let found = at("uv", &["tool", "run", "pkg@latest"]);
        assert_eq!(found.index, 2);
        assert_eq!(pinned_arg(&found, "3").unwrap(), "pkg==3");
        assert_eq!(
            pinned_arg(&at("docker", &["run", "-i", "img:latest"]), "sha256:ab").unwrap(),
            "img:latest@sha256:ab"
        );
    }

    #[test]
    fn findings_text() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(check("npx", &args(&["-y", "x@1.0.0"]), true).is_empty());
        let warn = &check("npx", &args(&["-y", "x@latest"]), false)[0];
        assert_eq!(warn.severity, crate::validate::Severity::Warning);
        assert_eq!(
            warn.message,
            "`x@latest` follows `latest`, not an exact version"
        );
        assert_eq!(warn.hint, "pin an exact version, e.g. `x@1.2.3`");
        let err = &check("uvx", &args(&["pkg>=1"]), true)[0];
        assert_eq!(err.severity, crate::validate::Severity::Error);
        assert_eq!(
            err.message,
            "`pkg>=1` asks for a version range `>=1`, not an exact version (--require-pin)"
        );
        let invalid = &check("npx", &args(&["x@1..2"]), false)[0];
        assert_eq!(invalid.severity, crate::validate::Severity::Error);
        assert!(
            invalid
                .message
                .starts_with("`x@1..2` has an invalid version"),
            "{}",
            invalid.message
        );
    }
}
