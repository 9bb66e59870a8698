//! npm packages as `npx`, `bunx`, `pnpm dlx` and `yarn dlx` name them
//! (`pkg@ver`, `--package=pkg@ver`), pinned when the version is exact
//! semver.

use super::spec::{Ecosystem, PackageSpec, Pin, is_not_registry};

/// The package and pin an npm spec (`pkg@ver`, `@scope/pkg@ver`) names.
pub(super) fn npm_spec(spec: &str) -> PackageSpec {
    let (package, version) = split_npm(spec);
    let pin = if is_not_registry(spec) {
        Pin::NotRegistry
    } else {
        match version {
            None => Pin::Missing,
            Some(version) => npm_pin(version),
        }
    };
    PackageSpec {
        ecosystem: Ecosystem::Npm,
        package: package.to_string(),
        spec: spec.to_string(),
        pin,
    }
}

/// Split `@scope/name@ver` / `name@ver` into name and version.
fn split_npm(spec: &str) -> (&str, Option<&str>) {
    let search_from = usize::from(spec.starts_with('@'));
    match spec[search_from..].find('@') {
        Some(at) => {
            let at = at + search_from;
            (&spec[..at], Some(&spec[at + 1..]))
        }
        None => (spec, None),
    }
}

fn npm_pin(version: &str) -> Pin {
    let version = version.trim();
    if version.is_empty() {
        return Pin::Invalid("the version after `@` is empty".to_string());
    }
    if version == "latest" {
        return Pin::Latest;
    }
    let bare = version.strip_prefix('=').unwrap_or(version);
    if semver::Version::parse(bare).is_ok() {
        return Pin::Exact(bare.to_string());
    }
    if semver::VersionReq::parse(version).is_ok()
        || version.contains("||")
        || version.contains(" - ")
    {
        return Pin::Range(version.to_string());
    }
    let first = version.chars().next().unwrap_or('0');
    if first.is_ascii_alphabetic()
        && version
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
    {
        return Pin::Tag(version.to_string());
    }
    Pin::Invalid(format!(
        "`{version}` is not a semver version, range or dist-tag"
    ))
}
