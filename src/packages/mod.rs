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
    match spec.ecosystem {
        Ecosystem::Npm => npm::resolve(registries, spec).await,
        Ecosystem::Pypi => pypi::resolve(registries, spec).await,
        Ecosystem::Oci => {
            let image = oci::inspect(&spec.spec, false)
                .await
                .map_err(|err| PackageError::Oci {
                    image: spec.spec.clone(),
                    detail: format!("its registry could not be asked ({err})"),
                })?;
            Ok(Resolved {
                version: image.digest.clone(),
                integrity: vec![image.digest],
            })
        }
    }
}
