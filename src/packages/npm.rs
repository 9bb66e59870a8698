//! npm: the packument (`GET {registry}/{name}`, every version and the
//! dist-tags) to choose a version the way npm does, and the version
//! document (`GET {registry}/{name}/{version}`) for `dist.integrity` and
//! the `mcpName` ownership marker.

use serde_json::Value;

use super::fetch::{self, Fetched};
use super::{PackageError, Registries, Resolved};
use crate::text::mask_userinfo;
use crate::validate::pins::{Ecosystem, PackageSpec, Pin};

/// The URL of `package` (a scoped name's `/` as `%2F`, as npm sends it).
fn url(registries: &Registries, package: &str, version: Option<&str>) -> String {
    let base = registries.npm.for_package(package);
    let name = package.replace('/', "%2F");
    match version {
        Some(v) => format!("{base}/{name}/{}", fetch::encode(v)),
        None => format!("{base}/{name}"),
    }
}

async fn document(
    registries: &Registries,
    package: &str,
    version: Option<&str>,
) -> Result<Value, PackageError> {
    let url = url(registries, package, version);
    match fetch::get_json(&url, "application/json").await? {
        Fetched::Found(doc) => Ok(doc),
        Fetched::Missing => Err(PackageError::NoPackage {
            registry: shown(registries, package),
            package: match version {
                Some(v) => format!("{package}@{v}"),
                None => package.to_string(),
            },
        }),
    }
}

/// The version npm would install for `spec`, with its `dist.integrity`.
pub async fn resolve(
    registries: &Registries,
    spec: &PackageSpec,
) -> Result<Resolved, PackageError> {
    if let Pin::Exact(version) = &spec.pin {
        let doc = document(registries, &spec.package, Some(version)).await?;
        return resolved(registries, &spec.package, version, &doc);
    }
    let doc = document(registries, &spec.package, None).await?;
    let version = choose(registries, spec, &doc)?;
    let refuse = |why: &str| {
        PackageError::not_a_version(
            shown(registries, &spec.package),
            &spec.package,
            &version,
            why,
        )
    };
    // A dist-tag is free text to the registry: it must be one exact
    // version, and one the packument lists, before anything is asked of
    // it or written.
    if !super::is_exact_version(Ecosystem::Npm, &version) {
        return Err(refuse("which is not an exact semver version"));
    }
    let version_doc = doc
        .get("versions")
        .and_then(|v| v.get(&version))
        .ok_or_else(|| refuse("which is not among the versions it lists"))?;
    resolved(registries, &spec.package, &version, version_doc)
}

/// The registry as shown in messages (credentials masked).
fn shown(registries: &Registries, package: &str) -> String {
    mask_userinfo(registries.npm.for_package(package))
}

/// `mcpName` of one version of `package` (the MCP Registry's ownership
/// marker for npm), `None` when the version has none.
pub async fn mcp_name(
    registries: &Registries,
    package: &str,
    version: &str,
) -> Result<Option<String>, PackageError> {
    let doc = document(registries, package, Some(version)).await?;
    Ok(doc
        .get("mcpName")
        .and_then(Value::as_str)
        .map(str::to_string))
}

/// The version `doc` (a version document) describes, which must be
/// exactly `expected` (the version asked for, or the one a tag named),
/// with its integrity.
fn resolved(
    registries: &Registries,
    package: &str,
    expected: &str,
    doc: &Value,
) -> Result<Resolved, PackageError> {
    let bad = |detail: &str| PackageError::Lookup {
        registry: shown(registries, package),
        detail: format!("{package}: {detail}"),
    };
    let version = fetch::text_field(doc, &["version"])
        .ok_or_else(|| bad("the version document has no usable `version`"))?;
    if version != expected {
        return Err(PackageError::not_a_version(
            shown(registries, package),
            package,
            expected,
            &format!(
                "but its version document says `{}`",
                crate::text::truncate(&crate::text::sanitize(&version), 80)
            ),
        ));
    }
    let integrity = match doc.pointer("/dist/integrity").and_then(Value::as_str) {
        Some(i) if is_sri(i) => vec![i.to_string()],
        Some(_) => return Err(bad("`dist.integrity` is not an integrity string")),
        None => Vec::new(),
    };
    Ok(Resolved { version, integrity })
}

/// npm's choice: a dist-tag's version; for a range, the `latest` tag when
/// it satisfies the range, else the highest satisfying version.
fn choose(
    registries: &Registries,
    spec: &PackageSpec,
    doc: &Value,
) -> Result<String, PackageError> {
    let tag = |name: &str| {
        doc.get("dist-tags")
            .and_then(|t| t.get(name))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let versions: Vec<semver::Version> = doc
        .get("versions")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|v| v.keys())
        .filter_map(|k| semver::Version::parse(k).ok())
        .collect();
    let no_match = |wanted: &str| {
        let mut sorted = versions.clone();
        sorted.sort();
        PackageError::no_match(
            shown(registries, &spec.package),
            &spec.package,
            wanted,
            sorted.iter().rev().map(|v| v.to_string()),
        )
    };
    match &spec.pin {
        Pin::Missing | Pin::Latest => tag("latest").ok_or_else(|| no_match("latest")),
        Pin::Tag(name) => tag(name).ok_or_else(|| no_match(name)),
        Pin::Range(range) => {
            let req = semver::VersionReq::parse(range).map_err(|_| no_match(range))?;
            if let Some(latest) = tag("latest")
                && semver::Version::parse(&latest).is_ok_and(|v| req.matches(&v))
            {
                return Ok(latest);
            }
            versions
                .iter()
                .filter(|v| req.matches(v))
                .max()
                .map(|v| v.to_string())
                .ok_or_else(|| no_match(range))
        }
        Pin::Exact(v) => Ok(v.clone()),
        Pin::Invalid(_) | Pin::NotRegistry => Err(no_match(&spec.spec)),
    }
}

/// A Subresource Integrity string as npm publishes it (`sha512-<base64>`).
fn is_sri(text: &str) -> bool {
    text.split_once('-').is_some_and(|(algo, b64)| {
        matches!(algo, "sha512" | "sha384" | "sha256" | "sha1")
            && !b64.is_empty()
            && b64
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
    })
}
