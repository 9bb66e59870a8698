//! What a definition launches, as the lock pins it: the package and its
//! exact version, with the integrity hash the package registry publishes
//! for it, or the URL of a remote server.
//!
//! Registries are asked through [`crate::packages`] (the same client and
//! configuration as `mcpctl pin`): npm's `dist.integrity` of the version,
//! and for PyPI the sha256 of every file of the version. OCI registries
//! are not asked: an image pinned by digest records that digest, and any
//! other image says so in the artifact's note. A lookup that fails is
//! recorded as a note, never guessed.

use super::file::Artifact;
use crate::defs::ServerDef;
pub use crate::packages::Registries;
use crate::validate::pins::{self, Ecosystem, PackageSpec, Pin};

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
    if spec.ecosystem == Ecosystem::Oci {
        match spec.spec.split_once("@sha256:") {
            Some((_, digest)) => artifact.integrity = vec![format!("sha256:{digest}")],
            None => {
                artifact.note = Some(
                    "no OCI digest: the lock records an image's digest only when the definition pins one; `mcpctl pin` writes it (image:tag@sha256:…)"
                        .into(),
                )
            }
        }
        return artifact;
    }
    let looked_up = crate::packages::resolve(registries, &spec)
        .await
        .map(|r| (r.version, r.integrity));
    match looked_up {
        Ok((version, integrity)) => {
            artifact.version = Some(version);
            artifact.integrity = integrity;
            if !artifact.pinned {
                artifact.note = Some(
                    "the definition does not pin this version; the launcher may run another (`mcpctl pin` writes it into the definition)"
                        .into(),
                );
            }
        }
        Err(why) => artifact.note = Some(format!("registry lookup failed: {why}")),
    }
    artifact
}
