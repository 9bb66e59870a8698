//! Package registries (npm and PyPI) as the launchers see them: where to
//! ask (the operator's own registry configuration, since many sit behind a
//! mirror), and what a registry answers about a package: its versions, the
//! exact version a launcher would run today, the integrity hashes of that
//! version's files, and the ownership marker an MCP Registry entry claims.
//!
//! One client for every caller: `mcpctl lock` (the artifact), `mcpctl pin`
//! and `add --pin` (the version to write), and `add NAME` (the ownership
//! check). `config` owns where to ask, `fetch` the HTTP side, `npm` and
//! `pypi` the documents, `oci` image registries (digests and labels).

pub mod config;
pub mod error;
pub mod fetch;
pub mod npm;
pub mod oci;
pub mod pypi;

pub use config::Registries;
pub use error::PackageError;

use crate::validate::pins::{Ecosystem, PackageSpec};

/// A version a registry serves, with the integrity hashes it publishes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The exact version.
    pub version: String,
    /// npm: `dist.integrity`; PyPI: one `sha256:<hex> <file name>` per file.
    pub integrity: Vec<String>,
}

/// The exact version a launcher would run for `spec` today, from its
/// registry: npm's `latest` dist-tag (or the highest version satisfying a
/// range, or the version a dist-tag names), PyPI's newest version that is
/// neither yanked nor a pre-release (satisfying the specifier, if any). An
/// exact pin resolves to itself, with its hashes. An image resolves to the
/// digest its tag points at now.
pub async fn resolve(
    registries: &Registries,
    spec: &PackageSpec,
) -> Result<Resolved, PackageError> {
    let resolved = match spec.ecosystem {
        Ecosystem::Npm => npm::resolve(registries, spec).await?,
        Ecosystem::Pypi => pypi::resolve(registries, spec).await?,
        Ecosystem::Oci => {
            let image = oci::inspect(&spec.spec, false)
                .await
                .map_err(|err| PackageError::Oci {
                    image: spec.spec.clone(),
                    detail: format!("its registry could not be asked ({err})"),
                })?;
            Resolved {
                version: image.digest.clone(),
                integrity: vec![image.digest],
            }
        }
    };
    // Whatever the path, what is written into a launch command is one
    // exact version in the ecosystem's own syntax, never a registry's
    // free text.
    if !is_exact_version(spec.ecosystem, &resolved.version) {
        let registry = match spec.ecosystem {
            Ecosystem::Npm => crate::text::mask_userinfo(registries.npm.for_package(&spec.package)),
            Ecosystem::Pypi => registries.pypi.shown(),
            Ecosystem::Oci => crate::text::mask_userinfo(&spec.spec),
        };
        return Err(PackageError::not_a_version(
            registry,
            &spec.package,
            &resolved.version,
            exact_rule(spec.ecosystem),
        ));
    }
    Ok(resolved)
}

/// True when `version` is exactly one version, written as the ecosystem
/// writes it: a semver version for npm (no range, tag, alias, URL or
/// path), a PEP 440 version for PyPI (no specifier), a `sha256:` digest of
/// 64 hex digits for an image. What a launcher would read as anything else
/// is refused.
pub fn is_exact_version(ecosystem: Ecosystem, version: &str) -> bool {
    use std::str::FromStr;
    let plain = !version.is_empty()
        && version.len() <= 128
        && version
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+' | '_' | '!' | ':'));
    plain
        && match ecosystem {
            Ecosystem::Npm => semver::Version::parse(version).is_ok(),
            Ecosystem::Pypi => pep440_rs::Version::from_str(version).is_ok(),
            Ecosystem::Oci => version
                .strip_prefix("sha256:")
                .is_some_and(|hex| hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit())),
        }
}

/// What [`is_exact_version`] accepts, for an error message.
fn exact_rule(ecosystem: Ecosystem) -> &'static str {
    match ecosystem {
        Ecosystem::Npm => "which is not an exact semver version",
        Ecosystem::Pypi => "which is not an exact PEP 440 version",
        Ecosystem::Oci => "which is not a sha256 digest",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_exact_versions_in_the_ecosystems_syntax_are_accepted() {
        for hostile in [
            "npm:evil-pkg@6.6.6",
            "https://attacker.example/evil.tgz",
            "1.0.0 & calc.exe",
            "../../../etc/passwd",
            "1.0.0\u{202e}",
            "^1.0.0",
            "latest",
            "",
        ] {
            for ecosystem in [Ecosystem::Npm, Ecosystem::Pypi, Ecosystem::Oci] {
                assert!(!is_exact_version(ecosystem, hostile), "{hostile:?}");
            }
        }
        assert!(is_exact_version(Ecosystem::Npm, "2026.8.31"));
        assert!(is_exact_version(Ecosystem::Npm, "1.0.0-rc.1+build.5"));
        assert!(!is_exact_version(Ecosystem::Npm, "v1.0.0"));
        assert!(is_exact_version(Ecosystem::Pypi, "2026.10.19"));
        assert!(is_exact_version(Ecosystem::Pypi, "1!2.0.post1"));
        assert!(!is_exact_version(Ecosystem::Pypi, ">=1.0"));
        let digest = format!("sha256:{}", "a".repeat(64));
        assert!(is_exact_version(Ecosystem::Oci, &digest));
        assert!(!is_exact_version(Ecosystem::Oci, "sha256:abc"));
    }
}
