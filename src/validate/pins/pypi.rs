//! PyPI packages as `uvx` and `pipx run` name them (`pkg==ver`,
//! `--from pkg==ver`, `--spec`, `pkg@ver`), pinned when the version is one
//! exact PEP 440 version.

use std::str::FromStr;

use super::spec::{Ecosystem, PackageSpec, Pin, is_not_registry};

/// uv's flags that take a value, so their value is not taken for the package.
pub(super) const UV_VALUE_FLAGS: &[&str] = &[
    "--with",
    "-w",
    "--with-editable",
    "--with-requirements",
    "--python",
    "-p",
    "--index",
    "--index-url",
    "--extra-index-url",
    "--default-index",
    "--find-links",
    "-f",
    "--constraints",
    "-c",
    "--overrides",
    "--build-constraints",
    "-b",
    "--env-file",
    "--directory",
    "--project",
    "--config-file",
    "--cache-dir",
    "--python-platform",
    "--exclude-newer",
    "--resolution",
    "--prerelease",
    "--index-strategy",
    "--keyring-provider",
    "--link-mode",
    "--refresh-package",
    "--reinstall-package",
    "--upgrade-package",
    "-P",
    "--color",
    "--allow-insecure-host",
];

pub(super) fn pypi_spec(spec: &str) -> PackageSpec {
    let name_end = spec
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
        .unwrap_or(spec.len());
    let package = &spec[..name_end];
    let rest = spec[name_end..].trim();
    let rest = match rest.strip_prefix('[') {
        Some(extras) => extras.split_once(']').map_or("", |(_, after)| after.trim()),
        None => rest,
    };
    let pin = if is_not_registry(spec) || rest.starts_with("@ ") || rest.contains("://") {
        Pin::NotRegistry
    } else if rest.is_empty() {
        Pin::Missing
    } else if let Some(version) = rest.strip_prefix("===").or_else(|| rest.strip_prefix("==")) {
        pypi_exact(version.trim())
    } else if let Some(version) = rest.strip_prefix('@') {
        match version.trim() {
            "latest" => Pin::Latest,
            version => pypi_exact(version),
        }
    } else if pep440_rs::VersionSpecifiers::from_str(rest).is_ok() {
        Pin::Range(rest.to_string())
    } else {
        Pin::Invalid(format!("`{rest}` is not a PEP 440 version specifier"))
    };
    PackageSpec {
        ecosystem: Ecosystem::Pypi,
        package: package.to_string(),
        spec: spec.to_string(),
        pin,
    }
}

fn pypi_exact(version: &str) -> Pin {
    if version.contains('*') {
        return Pin::Range(format!("=={version}"));
    }
    match pep440_rs::Version::from_str(version) {
        Ok(_) => Pin::Exact(version.to_string()),
        Err(err) => Pin::Invalid(format!("`{version}` is not a PEP 440 version ({err})")),
    }
}
