//! PyPI: a project's releases, from PyPI's JSON API (`{base}/pypi/{name}/json`)
//! or from a simple index in its PEP 691 JSON form (`{index}/{name}/` with
//! `Accept: application/vnd.pypi.simple.v1+json`, which PyPI and the common
//! mirrors serve): each version's files, their sha256 and yanked flags.
//! The version chosen is the newest one that is neither yanked (every file
//! yanked, PEP 592) nor a pre-release, within the specifier if there is one.

use std::collections::BTreeMap;
use std::str::FromStr;

use pep440_rs::{Version, VersionSpecifiers};
use serde_json::Value;

use super::config::PypiIndex;
use super::fetch::{self, Fetched};
use super::{PackageError, Registries, Resolved};
use crate::validate::pins::{PackageSpec, Pin};

/// One distribution file of a release.
#[derive(Debug, Clone)]
struct File {
    name: String,
    sha256: String,
    yanked: bool,
}

/// A project's releases, by version.
#[derive(Debug, Default)]
struct Project {
    releases: BTreeMap<Version, Vec<File>>,
}

/// PEP 503 name normalization: lowercase, runs of `-_.` as one `-`.
pub fn normalize(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut dash = false;
    for c in name.chars() {
        if matches!(c, '-' | '_' | '.') {
            dash = true;
        } else {
            if dash && !out.is_empty() {
                out.push('-');
            }
            dash = false;
            out.push(c.to_ascii_lowercase());
        }
    }
    out
}

/// The version PyPI's launchers would install for `spec`, with the sha256
/// of each of its files.
pub async fn resolve(
    registries: &Registries,
    spec: &PackageSpec,
) -> Result<Resolved, PackageError> {
    let project = project(&registries.pypi, &spec.package).await?;
    let shown = registries.pypi.shown();
    let candidates = |filter: &dyn Fn(&Version) -> bool| -> Option<(Version, Vec<File>)> {
        project
            .releases
            .iter()
            .rev()
            .find(|(v, files)| filter(v) && !files.is_empty() && !files.iter().all(|f| f.yanked))
            .map(|(v, f)| (v.clone(), f.clone()))
    };
    let no_match = |wanted: &str| {
        let unyanked = project
            .releases
            .iter()
            .rev()
            .filter(|(_, files)| !files.iter().all(|f| f.yanked))
            .map(|(v, _)| v.to_string());
        PackageError::no_match(shown.clone(), &spec.package, wanted, unyanked)
    };
    let (version, files) = match &spec.pin {
        Pin::Exact(v) => {
            let wanted = Version::from_str(v).map_err(|_| no_match(v))?;
            let files = project
                .releases
                .get(&wanted)
                .cloned()
                .ok_or_else(|| no_match(&format!("=={v}")))?;
            (v.clone(), files)
        }
        Pin::Missing | Pin::Latest => {
            let (v, f) =
                candidates(&|v| !v.any_prerelease()).ok_or_else(|| no_match("any release"))?;
            (v.to_string(), f)
        }
        Pin::Range(range) => {
            let specifiers = VersionSpecifiers::from_str(range).map_err(|_| no_match(range))?;
            let pre_ok = specifiers.iter().any(|s| s.version().any_prerelease());
            let (v, f) = candidates(&|v| (pre_ok || !v.any_prerelease()) && specifiers.contains(v))
                .ok_or_else(|| no_match(range))?;
            (v.to_string(), f)
        }
        Pin::Tag(t) => return Err(no_match(t)),
        Pin::Invalid(_) | Pin::NotRegistry => return Err(no_match(&spec.spec)),
    };
    let mut integrity: Vec<(String, String)> = files
        .iter()
        .map(|f| (f.name.clone(), format!("sha256:{} {}", f.sha256, f.name)))
        .collect();
    integrity.sort();
    Ok(Resolved {
        version,
        integrity: integrity.into_iter().map(|(_, line)| line).collect(),
    })
}

/// The `mcp-name: <name>` marker in the project's description on PyPI's
/// JSON API (a simple index has no descriptions, so this always asks the
/// JSON API: `MCPCTL_PYPI_URL`, else `https://pypi.org`).
pub async fn mcp_name(
    registries: &Registries,
    package: &str,
) -> Result<Option<String>, PackageError> {
    let base = match &registries.pypi {
        PypiIndex::Json(base) => base.clone(),
        PypiIndex::Simple(_) => super::config::PYPI_DEFAULT.to_string(),
    };
    let url = format!("{base}/pypi/{}/json", fetch::encode(package));
    let doc = match fetch::get_json(&url, "application/json").await? {
        Fetched::Found(doc) => doc,
        Fetched::Missing => {
            return Err(PackageError::NoPackage {
                registry: crate::text::mask_userinfo(&base),
                package: package.to_string(),
            });
        }
    };
    let description = doc
        .pointer("/info/description")
        .and_then(Value::as_str)
        .unwrap_or("");
    Ok(marker(description))
}

/// The name after the first `mcp-name:` in a description.
fn marker(description: &str) -> Option<String> {
    let at = description.find("mcp-name:")?;
    let name: String = description[at + "mcp-name:".len()..]
        .trim_start()
        .chars()
        .take_while(|c| !c.is_whitespace() && !matches!(c, '<' | '>' | '`' | '"' | '\'' | ')'))
        .collect();
    (!name.is_empty()).then_some(name)
}

async fn project(index: &PypiIndex, package: &str) -> Result<Project, PackageError> {
    let (url, accept) = match index {
        PypiIndex::Json(base) => (
            format!("{base}/pypi/{}/json", fetch::encode(package)),
            "application/json",
        ),
        PypiIndex::Simple(index) => (
            format!("{index}/{}/", normalize(package)),
            "application/vnd.pypi.simple.v1+json",
        ),
    };
    let doc = match fetch::get_json(&url, accept).await? {
        Fetched::Found(doc) => doc,
        Fetched::Missing => {
            return Err(PackageError::NoPackage {
                registry: index.shown(),
                package: package.to_string(),
            });
        }
    };
    let bad = |detail: String| PackageError::Lookup {
        registry: index.shown(),
        detail: format!("{package}: {detail}"),
    };
    let mut project = Project::default();
    match index {
        PypiIndex::Json(_) => {
            let releases = doc
                .get("releases")
                .and_then(Value::as_object)
                .ok_or_else(|| bad("the JSON has no `releases`".into()))?;
            for (version, files) in releases {
                let Ok(version) = Version::from_str(version) else {
                    continue;
                };
                let mut list = Vec::new();
                for f in files.as_array().into_iter().flatten() {
                    list.push(file(f, f.pointer("/digests/sha256")).map_err(&bad)?);
                }
                project.releases.insert(version, list);
            }
        }
        PypiIndex::Simple(_) => {
            let files = doc.get("files").and_then(Value::as_array).ok_or_else(|| {
                bad("the simple index answered no `files` (does it serve PEP 691 JSON?)".into())
            })?;
            for version in doc
                .get("versions")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(v) = version.as_str().and_then(|v| Version::from_str(v).ok()) {
                    project.releases.entry(v).or_default();
                }
            }
            for f in files {
                let parsed = file(f, f.pointer("/hashes/sha256")).map_err(&bad)?;
                if let Some(version) = file_version(&parsed.name) {
                    project.releases.entry(version).or_default().push(parsed);
                }
            }
        }
    }
    Ok(project)
}

/// One file entry: its name, sha256 and yanked flag (`true` or a reason).
fn file(entry: &Value, digest: Option<&Value>) -> Result<File, String> {
    let name = entry.get("filename").and_then(Value::as_str).unwrap_or("");
    let sha256 = digest.and_then(Value::as_str).unwrap_or("");
    if name.is_empty()
        || name.chars().any(|c| c.is_control() || c.is_whitespace())
        || sha256.len() != 64
        || !sha256.bytes().all(|b| b.is_ascii_hexdigit())
    {
        return Err("a file has no usable name or sha256".into());
    }
    let yanked = match entry.get("yanked") {
        Some(Value::Bool(b)) => *b,
        Some(Value::String(_)) => true,
        _ => false,
    };
    Ok(File {
        name: name.to_string(),
        sha256: sha256.to_ascii_lowercase(),
        yanked,
    })
}

/// The version in a distribution's file name: a wheel's second
/// `-`-separated field, an sdist's text after its last `-`.
fn file_version(name: &str) -> Option<Version> {
    let version = if let Some(stem) = name.strip_suffix(".whl") {
        stem.split('-').nth(1)?
    } else {
        let stem = [".tar.gz", ".zip", ".tar.bz2", ".tgz", ".egg"]
            .iter()
            .find_map(|ext| name.strip_suffix(ext))?;
        stem.rsplit_once('-')?.1
    };
    Version::from_str(version).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_files_and_markers() {
        assert_eq!(normalize("Mcp_Server.Time"), "mcp-server-time");
        assert_eq!(
            file_version("mcp_server_time-2026.10.19-py3-none-any.whl"),
            Version::from_str("2026.10.19").ok()
        );
        assert_eq!(
            file_version("mcp-server-time-0.6.2.tar.gz"),
            Version::from_str("0.6.2").ok()
        );
        assert_eq!(
            marker("# Time\n\n<!-- mcp-name: io.github.modelcontextprotocol/server-time -->\n")
                .as_deref(),
            Some("io.github.modelcontextprotocol/server-time")
        );
        assert_eq!(marker("no marker"), None);
    }
}
