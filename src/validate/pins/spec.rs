//! What a launcher's arguments name: the package, its ecosystem and how
//! exactly its version is pinned. The types every launcher's reader
//! returns, below those readers.

/// The package ecosystem a launcher installs from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Ecosystem {
    /// npm packages (npx, bunx, pnpm dlx, yarn dlx).
    Npm,
    /// PyPI packages (uvx, uv tool run, pipx run).
    Pypi,
    /// OCI images (docker run, podman run).
    Oci,
}

/// What a package spec says about its version.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "state", content = "value", rename_all = "kebab-case")]
pub enum Pin {
    /// Exactly one version (or an image digest/tag).
    Exact(String),
    /// A range such as `^1.2` or `>=1.0`.
    Range(String),
    /// A dist-tag or moving tag such as `next`.
    Tag(String),
    /// `latest`, explicitly.
    Latest,
    /// No version at all.
    Missing,
    /// Something that is not a version (reason inside).
    Invalid(String),
    /// Not a registry package (a git URL, a local path): cannot be pinned here.
    NotRegistry,
}

/// A package spec found in a launch command.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PackageSpec {
    /// Where the package comes from.
    pub ecosystem: Ecosystem,
    /// The package (or image) name.
    pub package: String,
    /// The spec as written.
    pub spec: String,
    /// What the version part says.
    pub pin: Pin,
}

/// True for a spec that names no registry package at all: a path, a URL,
/// a git or GitHub source (npm's `owner/repo` shorthand too).
pub(super) fn is_not_registry(spec: &str) -> bool {
    spec.starts_with('.')
        || spec.starts_with('/')
        || spec.starts_with("file:")
        || spec.starts_with("git")
        || spec.starts_with("http:")
        || spec.starts_with("https:")
        || spec.starts_with("github:")
        || (!spec.starts_with('@') && spec.contains('/'))
}
