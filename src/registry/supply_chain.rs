//! Supply-chain checks on `add NAME` from the MCP Registry: that the
//! package really belongs to the registry entry (the ownership marker the
//! MCP Registry defines), and that the name is not a near twin of a
//! better-established entry (a likely typo-squat).
//!
//! Ownership markers, per package registry:
//! - npm: `mcpName` in the version's package metadata;
//! - PyPI: `mcp-name: <name>` in the project description (JSON API);
//! - OCI: the image label `io.modelcontextprotocol.server.name`, from the
//!   image config the registry serves (OCI distribution API).

use crate::packages::{self, PackageError, Registries};
use crate::validate::pins::{Ecosystem, PackageSpec, Pin};

use super::RegistryClient;

/// What the package registry says about who owns the package.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ownership {
    /// The marker names the registry entry.
    Verified,
    /// The marker names another entry.
    Mismatch {
        /// The name the marker holds.
        found: String,
    },
    /// The package carries no marker.
    Missing,
    /// Not checked, and why.
    Unchecked(String),
}

/// Ask the package's registry for the ownership marker of `spec` and
/// compare it with `registry_name`.
pub async fn ownership(
    registries: &Registries,
    spec: &PackageSpec,
    registry_name: &str,
) -> Result<Ownership, PackageError> {
    let found = match (spec.ecosystem, &spec.pin) {
        (Ecosystem::Npm, Pin::Exact(version)) => {
            packages::npm::mcp_name(registries, &spec.package, version).await?
        }
        (Ecosystem::Npm, _) => {
            let version = packages::resolve(registries, spec).await?.version;
            packages::npm::mcp_name(registries, &spec.package, &version).await?
        }
        (Ecosystem::Pypi, _) => packages::pypi::mcp_name(registries, &spec.package).await?,
        (Ecosystem::Oci, _) => packages::oci::inspect(&spec.spec, true).await?.name_label,
    };
    Ok(match found {
        Some(name) if name == registry_name => Ownership::Verified,
        Some(name) => Ownership::Mismatch { found: name },
        None => Ownership::Missing,
    })
}

/// The largest edit distance that reads as a likely typo.
pub const TYPO_DISTANCE: usize = 2;

/// A registry name within [`TYPO_DISTANCE`] of `name` that has more
/// published versions: `(other name, its versions, name's versions)`.
pub async fn typo_twin(client: &RegistryClient, name: &str) -> Option<(String, usize, usize)> {
    let mut candidates: Vec<String> = super::install::near_candidates(client, name)
        .await
        .into_iter()
        .filter(|c| c != name && strsim::damerau_levenshtein(c, name) <= TYPO_DISTANCE)
        .collect();
    candidates.sort();
    candidates.dedup();
    if candidates.is_empty() {
        return None;
    }
    let count = |list: Option<super::ServerList>, of: &str| {
        list.map_or(0, |l| {
            l.servers.iter().filter(|e| e.server.name == of).count()
        })
    };
    let ours = count(client.versions(name).await.ok().flatten(), name);
    let mut best: Option<(String, usize, usize)> = None;
    for other in candidates {
        let theirs = count(client.versions(&other).await.ok().flatten(), &other);
        if theirs > ours && best.as_ref().is_none_or(|b| theirs > b.1) {
            best = Some((other, theirs, ours));
        }
    }
    best
}
