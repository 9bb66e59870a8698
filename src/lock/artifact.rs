//! What a definition launches, as the lock pins it: the package and its
//! exact version, with the integrity hash the package registry publishes
//! for it, or the URL of a remote server.
//!
//! Registries are asked over HTTP(S) with mcpctl's one client builder:
//! npm at `MCPCTL_NPM_REGISTRY` (else `npm_config_registry`, else
//! `https://registry.npmjs.org`), its version document's `dist.integrity`;
//! PyPI's JSON API at `MCPCTL_PYPI_URL` (else `https://pypi.org`), the
//! sha256 of every file of the version. OCI registries are not asked: an
//! image pinned by digest records that digest, and any other image says so
//! in the artifact's note. A lookup that fails is recorded as a note, never
//! guessed.

use std::time::Duration;

use serde_json::Value;

use super::file::Artifact;
use crate::defs::ServerDef;
use crate::validate::pins::{self, Ecosystem, PackageSpec, Pin};

/// How long one registry request may take.
pub const LOOKUP_TIMEOUT: Duration = Duration::from_secs(20);

/// The registries to ask, from the environment.
#[derive(Debug, Clone)]
pub struct Registries {
    /// npm registry base URL, without a trailing slash.
    pub npm: String,
    /// PyPI base URL (the JSON API is under `/pypi/`), without a trailing slash.
    pub pypi: String,
}

impl Registries {
    /// `MCPCTL_NPM_REGISTRY`, `npm_config_registry`, `MCPCTL_PYPI_URL`, or
    /// the public registries.
    pub fn from_env() -> Registries {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let npm = var("MCPCTL_NPM_REGISTRY")
            .or_else(|| var("npm_config_registry"))
            .unwrap_or_else(|| "https://registry.npmjs.org".into());
        let pypi = var("MCPCTL_PYPI_URL").unwrap_or_else(|| "https://pypi.org".into());
        Registries {
            npm: npm.trim_end_matches('/').to_string(),
            pypi: pypi.trim_end_matches('/').to_string(),
        }
    }
}

/// The artifact as far as the definition alone says it (no network):
/// what `check --locked` compares.
pub fn offline(def: &ServerDef) -> Artifact {
    match package(def) {
        Some(spec) => {
            let (version, pinned) = match &spec.pin {
                Pin::Exact(v) => (Some(v.clone()), true),
                _ => (None, false),
            };
            Artifact {
                kind: kind(spec.ecosystem).into(),
                source: spec.package.clone(),
                version,
                pinned,
                integrity: Vec::new(),
                note: None,
            }
        }
        None => match (&def.launch, def.process()) {
            (crate::defs::Launch::Remote { url, .. }, _) => Artifact {
                kind: "url".into(),
                source: crate::defs::redact::mask_userinfo(url),
                version: None,
                pinned: false,
                integrity: Vec::new(),
                note: None,
            },
            (_, process) => Artifact {
                kind: "command".into(),
                source: process.map(|p| p.command.to_string()).unwrap_or_default(),
                version: None,
                pinned: false,
                integrity: Vec::new(),
                note: Some("a local command: no package registry to ask".into()),
            },
        },
    }
}

/// The package the definition's launch line installs, if any.
pub fn package(def: &ServerDef) -> Option<PackageSpec> {
    let process = def.process()?;
    pins::find_package(process.command, process.args)
        .filter(|spec| !matches!(spec.pin, Pin::NotRegistry | Pin::Invalid(_)))
}

fn kind(ecosystem: Ecosystem) -> &'static str {
    match ecosystem {
        Ecosystem::Npm => "npm",
        Ecosystem::Pypi => "pypi",
        Ecosystem::Oci => "oci",
    }
}

/// The artifact with the registry's version and integrity filled in.
pub async fn resolve(def: &ServerDef, registries: &Registries) -> Artifact {
    let mut artifact = offline(def);
    let Some(spec) = package(def) else {
        return artifact;
    };
    let looked_up = match spec.ecosystem {
        Ecosystem::Npm => npm(registries, &spec).await,
        Ecosystem::Pypi => pypi(registries, &spec).await,
        Ecosystem::Oci => {
            match spec.spec.split_once("@sha256:") {
                Some((_, digest)) => artifact.integrity = vec![format!("sha256:{digest}")],
                None => {
                    artifact.note = Some(
                        "no OCI digest: mcpctl does not query image registries; pin the image by digest (image@sha256:…) to lock it"
                            .into(),
                    )
                }
            }
            return artifact;
        }
    };
    match looked_up {
        Ok((version, integrity)) => {
            artifact.version = Some(version);
            artifact.integrity = integrity;
            if !artifact.pinned {
                artifact.note = Some(
                    "the definition does not pin this version; the launcher may run another (`mcpctl pin` is not built yet: pin it in the definition)"
                        .into(),
                );
            }
        }
        Err(why) => artifact.note = Some(format!("registry lookup failed: {why}")),
    }
    artifact
}

fn client() -> Result<reqwest::Client, String> {
    crate::http_client::builder(crate::http_client::Redirects::AnyOrigin)
        .timeout(LOOKUP_TIMEOUT)
        .build()
        .map_err(|e| e.to_string())
}

async fn get_json(url: &str) -> Result<Value, String> {
    let response = client()?
        .get(url)
        .header("accept", "application/json")
        .send()
        .await
        .map_err(|e| format!("{url}: {}", without_url(&e)))?;
    let status = response.status();
    if !status.is_success() {
        return Err(format!("{url}: HTTP {}", status.as_u16()));
    }
    let bytes = response
        .bytes()
        .await
        .map_err(|e| format!("{url}: {}", without_url(&e)))?;
    if bytes.len() > MAX_DOCUMENT {
        return Err(format!(
            "{url}: the document is larger than {MAX_DOCUMENT} bytes"
        ));
    }
    serde_json::from_slice(&bytes).map_err(|e| format!("{url}: not JSON ({e})"))
}

/// The largest registry document read (PyPI's JSON for a busy project is
/// a few MB).
const MAX_DOCUMENT: usize = 32 * 1024 * 1024;

fn without_url(err: &reqwest::Error) -> String {
    let mut text = err.to_string();
    if let Some(url) = err.url() {
        text = text.replace(&format!(" ({url})"), "");
    }
    text
}

/// npm: `GET {registry}/{name}/{version or tag}`, or the whole document
/// for a range; the version and `dist.integrity`.
async fn npm(registries: &Registries, spec: &PackageSpec) -> Result<(String, Vec<String>), String> {
    let name = spec.package.replace('/', "%2F");
    let doc = match &spec.pin {
        Pin::Range(range) => {
            let req = semver::VersionReq::parse(range).map_err(|e| e.to_string())?;
            let all = get_json(&format!("{}/{name}", registries.npm)).await?;
            let best = all
                .get("versions")
                .and_then(Value::as_object)
                .into_iter()
                .flat_map(|v| v.keys())
                .filter_map(|k| semver::Version::parse(k).ok())
                .filter(|v| req.matches(v))
                .max()
                .ok_or_else(|| format!("no version of {} matches {range}", spec.package))?;
            all["versions"][best.to_string()].clone()
        }
        Pin::Exact(v) | Pin::Tag(v) => {
            get_json(&format!("{}/{name}/{}", registries.npm, encode(v))).await?
        }
        _ => get_json(&format!("{}/{name}/latest", registries.npm)).await?,
    };
    let version = text_field(&doc, &["version"])?;
    let integrity = match doc.pointer("/dist/integrity").and_then(Value::as_str) {
        Some(i) if is_sri(i) => vec![i.to_string()],
        Some(_) => return Err("`dist.integrity` is not an integrity string".into()),
        None => Vec::new(),
    };
    Ok((version, integrity))
}

/// PyPI: `GET {base}/pypi/{name}/json`; the version asked for (or the
/// current one) and the sha256 of each of its files.
async fn pypi(
    registries: &Registries,
    spec: &PackageSpec,
) -> Result<(String, Vec<String>), String> {
    let doc = get_json(&format!(
        "{}/pypi/{}/json",
        registries.pypi,
        encode(&spec.package)
    ))
    .await?;
    let version = match &spec.pin {
        Pin::Exact(v) => v.clone(),
        _ => text_field(&doc, &["info", "version"])?,
    };
    let releases = doc
        .get("releases")
        .and_then(Value::as_object)
        .ok_or("the JSON has no `releases`")?;
    let wanted = version.parse::<pep440_rs::Version>().ok();
    let files = releases
        .iter()
        .find(|(key, _)| {
            *key == &version
                || (wanted.is_some() && key.parse::<pep440_rs::Version>().ok() == wanted)
        })
        .map(|(_, files)| files)
        .ok_or_else(|| format!("PyPI lists no version {version} of {}", spec.package))?;
    let mut integrity = Vec::new();
    for file in files.as_array().into_iter().flatten() {
        let name = file.get("filename").and_then(Value::as_str).unwrap_or("");
        let digest = file
            .pointer("/digests/sha256")
            .and_then(Value::as_str)
            .unwrap_or("");
        if name.is_empty()
            || name.chars().any(|c| c.is_control() || c.is_whitespace())
            || digest.len() != 64
            || !digest.bytes().all(|b| b.is_ascii_hexdigit())
        {
            return Err("a file of the version has no usable name or sha256".into());
        }
        integrity.push(format!("sha256:{} {name}", digest.to_ascii_lowercase()));
    }
    integrity.sort_by(|a, b| {
        a.split_once(' ')
            .map(|x| x.1)
            .cmp(&b.split_once(' ').map(|x| x.1))
    });
    Ok((version, integrity))
}

fn text_field(doc: &Value, path: &[&str]) -> Result<String, String> {
    let mut at = doc;
    for key in path {
        at = at
            .get(*key)
            .ok_or_else(|| format!("the document has no `{}`", path.join(".")))?;
    }
    match at.as_str() {
        Some(s) if !s.is_empty() && s.len() <= 256 && !s.chars().any(char::is_control) => {
            Ok(s.to_string())
        }
        _ => Err(format!("`{}` is not a version", path.join("."))),
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

fn encode(segment: &str) -> String {
    url::form_urlencoded::byte_serialize(segment.as_bytes()).collect()
}
