//! What can go wrong asking a package registry. Every message names the
//! registry that was asked (credentials masked) and says what to do.

use crate::error::{Diagnostic, ExitCode};

/// A package registry problem.
#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    /// The registry could not be reached or answered something unusable.
    #[error("{registry}: {detail}")]
    Lookup {
        /// The URL asked (credentials masked).
        registry: String,
        /// What went wrong.
        detail: String,
    },
    /// The registry does not know the package (HTTP 404).
    #[error("{registry} has no package `{package}`")]
    NoPackage {
        /// The URL asked (credentials masked).
        registry: String,
        /// The package.
        package: String,
    },
    /// No published version satisfies what the definition asks for.
    #[error("no version of {package} matches {wanted} at {registry}; available: {available}")]
    NoMatch {
        /// The registry asked (credentials masked).
        registry: String,
        /// The package.
        package: String,
        /// The range, specifier or tag.
        wanted: String,
        /// The newest versions it does have.
        available: String,
    },
    /// The registry named, as the version to pin, something that is not
    /// one exact version it publishes (a URL, an alias, a path, a shell
    /// command): nothing is written.
    #[error(
        "{registry}: {package}: the registry claims `{claimed}` as the version to pin, {why}; nothing was written"
    )]
    NotAVersion {
        /// The registry asked (credentials masked).
        registry: String,
        /// The package.
        package: String,
        /// What the registry claimed, escaped and cut short for printing.
        claimed: String,
        /// Why it is refused.
        why: String,
    },
    /// The image's registry could not say which digest its tag points at.
    #[error("cannot pin docker image `{image}`: {detail}")]
    Oci {
        /// The image.
        image: String,
        /// Why (the registry asked, and what went wrong).
        detail: String,
    },
}

impl Diagnostic for PackageError {
    fn exit_code(&self) -> ExitCode {
        match self {
            PackageError::Lookup { .. }
            | PackageError::Oci { .. }
            | PackageError::NotAVersion { .. } => ExitCode::Failed,
            PackageError::NoPackage { .. } | PackageError::NoMatch { .. } => ExitCode::NotFound,
        }
    }

    fn hint(&self) -> Option<String> {
        Some(match self {
            PackageError::Lookup { .. } => "check the registry configuration (npm_config_registry, .npmrc; UV_DEFAULT_INDEX, UV_INDEX_URL, PIP_INDEX_URL) and the network, then run it again".into(),
            PackageError::NoPackage { .. } => "check the package name, or the registry it is asked from (a scoped package may need `@scope:registry=` in .npmrc)".into(),
            PackageError::NotAVersion { .. } => "the registry (or a mirror in between) answered something that is not a published version: check the registry configuration (npm_config_registry, .npmrc; UV_DEFAULT_INDEX, UV_INDEX_URL, PIP_INDEX_URL), or pin a version you have checked by hand".into(),
            PackageError::NoMatch { .. } => "widen the range in the definition, or pin one of the available versions by hand".into(),
            PackageError::Oci { .. } => "mcpctl pins an image only when its registry answers (the OCI distribution API, anonymous tokens only); otherwise pin it by hand: `docker pull IMAGE:TAG`, then use `IMAGE@sha256:…` from `docker inspect --format '{{index .RepoDigests 0}}' IMAGE:TAG`".into(),
        })
    }
}

impl PackageError {
    /// `claimed` refused as the version of `package` at `registry`, `why`;
    /// the claim is escaped and cut to 80 columns, since a hostile
    /// registry chose it.
    pub fn not_a_version(
        registry: String,
        package: &str,
        claimed: &str,
        why: &str,
    ) -> PackageError {
        PackageError::NotAVersion {
            registry,
            package: package.to_string(),
            claimed: crate::text::truncate(&crate::text::sanitize(claimed), 80),
            why: why.to_string(),
        }
    }

    /// No version of `package` at `registry` satisfies `wanted`; `newest`
    /// are the versions it does have, newest first (eight are shown).
    pub fn no_match(
        registry: String,
        package: &str,
        wanted: &str,
        newest: impl Iterator<Item = String>,
    ) -> PackageError {
        let available: Vec<String> = newest.take(8).collect();
        PackageError::NoMatch {
            registry,
            package: package.to_string(),
            wanted: wanted.to_string(),
            available: if available.is_empty() {
                "none".into()
            } else {
                available.join(", ")
            },
        }
    }
}
