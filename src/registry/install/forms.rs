//! How a package is written and launched: the install forms `search`
//! shows (`npm:pkg@1.2.3`, `pypi:pkg==1.0`, `oci:image:tag`), the pinned
//! version, and the launcher a `runtimeHint` may choose.

use super::*;

/// How a package or remote is written in `search` output:
/// `npm:@scope/pkg@1.2.3`, `pypi:pkg==1.0`, `oci:image:tag`.
pub fn install_form(package: &Package, version: Option<&str>) -> String {
    let version = version
        .or(package.version.as_deref())
        .filter(|v| !v.is_empty());
    match (package.registry_type.as_str(), version) {
        ("npm", Some(v)) => format!("npm:{}@{v}", package.identifier),
        ("pypi", Some(v)) => format!("pypi:{}=={v}", package.identifier),
        ("oci", v) => format!("oci:{}", oci_image(&package.identifier, v)),
        (kind, Some(v)) => format!("{kind}:{}@{v}", package.identifier),
        (kind, None) => format!("{kind}:{}", package.identifier),
    }
}

/// `remote: streamable-http https://…`.
pub fn remote_form(remote: &Remote) -> String {
    format!("remote: {} {}", remote.kind, remote.url)
}

pub(super) fn oci_image(identifier: &str, version: Option<&str>) -> String {
    let last = identifier.rsplit('/').next().unwrap_or(identifier);
    if identifier.contains('@') || last.contains(':') {
        identifier.to_string()
    } else {
        match version {
            Some(v) => format!("{identifier}:{v}"),
            None => identifier.to_string(),
        }
    }
}

pub(super) fn package_version(
    entry: &ServerEntry,
    package: &Package,
    notes: &mut Vec<String>,
) -> Result<String, RegistryError> {
    if let Some(v) = package
        .version
        .as_deref()
        .map(str::trim)
        .filter(|v| !v.is_empty() && *v != "latest")
    {
        return Ok(v.to_string());
    }
    if package.registry_type == "oci"
        && package
            .identifier
            .rsplit('/')
            .next()
            .is_some_and(|l| l.contains(':') || l.contains('@'))
    {
        let image = &package.identifier;
        let tag = image
            .rsplit_once('@')
            .map(|(_, d)| d)
            .or_else(|| {
                image
                    .rsplit('/')
                    .next()
                    .and_then(|l| l.split_once(':'))
                    .map(|(_, t)| t)
            })
            .unwrap_or("");
        if tag != "latest" {
            return Ok(tag.to_string());
        }
    }
    let server_version = entry.server.version.trim();
    if !server_version.is_empty() && server_version != "latest" {
        notes.push(format!(
            "the package gives no version; using the server version {server_version}"
        ));
        return Ok(server_version.to_string());
    }
    Err(RegistryError::NoVersion {
        name: entry.server.name.clone(),
        package: package.identifier.clone(),
    })
}

/// The launcher for a package: the publisher's `runtimeHint` when it is
/// one mcpctl knows how to drive for this registry type, else the default
/// (an unknown hint such as `python` would need arguments mcpctl cannot
/// know, so it is reported and not guessed at).
pub(super) fn launcher(
    hint: Option<&str>,
    default: &str,
    known: &[&str],
    notes: &mut Vec<String>,
) -> String {
    match hint {
        None => default.to_string(),
        Some(h) if known.contains(&h) => h.to_string(),
        Some(h) => {
            notes.push(format!(
                "the publisher suggests `{h}` to run it; mcpctl uses `{default}`, which runs this kind of package as published"
            ));
            default.to_string()
        }
    }
}
