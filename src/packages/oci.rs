//! OCI image registries, through the OCI distribution API: the digest a
//! tag points at now (`GET /v2/<repo>/manifests/<tag>`, its
//! `Docker-Content-Digest`), and the image's
//! `io.modelcontextprotocol.server.name` label (the manifest's config blob,
//! `GET /v2/<repo>/blobs/<digest>`). An anonymous bearer token is fetched
//! when the registry asks for one (`WWW-Authenticate: Bearer realm=…`), as
//! Docker Hub and ghcr.io do for public images; nothing else is sent.
//!
//! Image references follow Docker's rules: no registry host means Docker
//! Hub (`registry-1.docker.io`, `library/` for one-word names). A registry
//! on a loopback host is spoken to over plain HTTP, as Docker allows.

use serde_json::Value;

use super::PackageError;
use super::fetch::TIMEOUT;
use crate::text::mask_userinfo;

/// The label the MCP Registry reads an image's owner from.
pub const NAME_LABEL: &str = "io.modelcontextprotocol.server.name";

const MANIFEST_TYPES: &str = "application/vnd.oci.image.index.v1+json, application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.list.v2+json, application/vnd.docker.distribution.manifest.v2+json";

/// The largest manifest or config read.
const MAX_BLOB: usize = 4 * 1024 * 1024;

/// An image reference, split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageRef {
    /// `host[:port]`.
    pub registry: String,
    /// The repository path.
    pub repository: String,
    /// The tag or digest asked for.
    pub reference: String,
}

impl ImageRef {
    /// Split `image[:tag][@digest]` (a digest wins over a tag).
    pub fn parse(image: &str) -> ImageRef {
        let (rest, digest) = match image.split_once('@') {
            Some((rest, digest)) => (rest, Some(digest.to_string())),
            None => (image, None),
        };
        let last_slash = rest.rfind('/').map_or(0, |i| i + 1);
        let (name, tag) = match rest[last_slash..].rfind(':') {
            Some(colon) => (
                &rest[..last_slash + colon],
                Some(rest[last_slash + colon + 1..].to_string()),
            ),
            None => (rest, None),
        };
        let (registry, repository) = match name.split_once('/') {
            Some((host, path))
                if host.contains('.') || host.contains(':') || host == "localhost" =>
            {
                (host.to_string(), path.to_string())
            }
            _ => (
                "registry-1.docker.io".to_string(),
                if name.contains('/') {
                    name.to_string()
                } else {
                    format!("library/{name}")
                },
            ),
        };
        let registry = match registry.as_str() {
            "docker.io" | "index.docker.io" => "registry-1.docker.io".to_string(),
            _ => registry,
        };
        ImageRef {
            registry,
            repository,
            reference: digest.or(tag).unwrap_or_else(|| "latest".into()),
        }
    }

    fn base(&self) -> String {
        let host = self
            .registry
            .rsplit_once(':')
            .map_or(self.registry.as_str(), |(h, _)| h);
        let loopback = host == "localhost"
            || host
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_loopback())
            || host == "[::1]";
        let scheme = if loopback { "http" } else { "https" };
        format!("{scheme}://{}/v2/{}", self.registry, self.repository)
    }
}

/// What one image reference resolves to now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// The manifest (or index) digest, `sha256:…`.
    pub digest: String,
    /// The `io.modelcontextprotocol.server.name` label, when the image has one.
    pub name_label: Option<String>,
}

/// Ask the image's registry for its digest and, with `labels`, its name label.
pub async fn inspect(image: &str, labels: bool) -> Result<Image, PackageError> {
    let image_ref = ImageRef::parse(image);
    let base = image_ref.base();
    let shown = mask_userinfo(&format!("{}/{}", image_ref.registry, image_ref.repository));
    let fail = |detail: String| PackageError::Lookup {
        registry: shown.clone(),
        detail: mask_userinfo(&detail),
    };
    let client = crate::http_client::builder(crate::http_client::Redirects::AnyOrigin)
        .timeout(TIMEOUT)
        .build()
        .map_err(|e| fail(e.to_string()))?;
    let mut session = Session {
        client,
        token: None,
    };
    let url = format!("{base}/manifests/{}", image_ref.reference);
    let (headers, body) = session
        .get(&url, MANIFEST_TYPES)
        .await
        .map_err(&fail)?
        .ok_or_else(|| PackageError::NoPackage {
            registry: shown.clone(),
            package: format!("{}:{}", image_ref.repository, image_ref.reference),
        })?;
    let digest = manifest_digest(&headers, &body);
    let name_label = if labels {
        session.name_label(&base, &body, &fail).await?
    } else {
        None
    };
    Ok(Image { digest, name_label })
}

/// The digest the registry gives for a manifest, else the one its bytes
/// hash to.
fn manifest_digest(headers: &reqwest::header::HeaderMap, body: &[u8]) -> String {
    match headers
        .get("docker-content-digest")
        .and_then(|v| v.to_str().ok())
    {
        Some(d) if is_digest(d) => d.to_string(),
        _ => {
            use sha2::Digest;
            let hex: String = sha2::Sha256::digest(body)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            format!("sha256:{hex}")
        }
    }
}

/// `sha256:` and 64 hex digits.
fn is_digest(text: &str) -> bool {
    text.strip_prefix("sha256:")
        .is_some_and(|hex| hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Requests to one registry, with the anonymous token once it asked for one.
struct Session {
    client: reqwest::Client,
    token: Option<String>,
}

impl Session {
    /// The image's `io.modelcontextprotocol.server.name` label: from the
    /// manifest `body` (an index is resolved to its linux/amd64 manifest
    /// first) to the config blob, which holds the labels.
    async fn name_label(
        &mut self,
        base: &str,
        body: &[u8],
        fail: &dyn Fn(String) -> PackageError,
    ) -> Result<Option<String>, PackageError> {
        let manifest: Value = serde_json::from_slice(body)
            .map_err(|e| fail(format!("the manifest is not JSON ({e})")))?;
        let manifest = match manifest.get("manifests").and_then(Value::as_array) {
            Some(list) => self.platform_manifest(base, list, fail).await?,
            None => manifest,
        };
        let config = manifest
            .pointer("/config/digest")
            .and_then(Value::as_str)
            .filter(|d| is_digest(d))
            .ok_or_else(|| fail("the manifest has no config digest".into()))?;
        let (_, blob) = self
            .get(&format!("{base}/blobs/{config}"), "application/json")
            .await
            .map_err(fail)?
            .ok_or_else(|| fail(format!("config blob {config} is missing")))?;
        let config: Value = serde_json::from_slice(&blob)
            .map_err(|e| fail(format!("the image config is not JSON ({e})")))?;
        Ok(config
            .pointer("/config/Labels")
            .and_then(|l| l.get(NAME_LABEL))
            .and_then(Value::as_str)
            .map(str::to_string))
    }

    /// The manifest an image index lists for linux/amd64 (else its first).
    async fn platform_manifest(
        &mut self,
        base: &str,
        list: &[Value],
        fail: &dyn Fn(String) -> PackageError,
    ) -> Result<Value, PackageError> {
        let pick = list
            .iter()
            .find(|m| {
                m.pointer("/platform/os").and_then(Value::as_str) == Some("linux")
                    && m.pointer("/platform/architecture").and_then(Value::as_str) == Some("amd64")
            })
            .or(list.first())
            .and_then(|m| m.get("digest"))
            .and_then(Value::as_str)
            .filter(|d| is_digest(d))
            .ok_or_else(|| fail("the image index lists no manifest".into()))?;
        let (_, body) = self
            .get(&format!("{base}/manifests/{pick}"), MANIFEST_TYPES)
            .await
            .map_err(fail)?
            .ok_or_else(|| fail(format!("manifest {pick} is missing")))?;
        serde_json::from_slice(&body).map_err(|e| fail(format!("the manifest is not JSON ({e})")))
    }

    /// GET `url`; `None` on 404. Fetches an anonymous token on a bearer
    /// challenge and tries once more.
    async fn get(
        &mut self,
        url: &str,
        accept: &str,
    ) -> Result<Option<(reqwest::header::HeaderMap, Vec<u8>)>, String> {
        for attempt in 0..2 {
            let mut request = self.client.get(url).header("accept", accept);
            if let Some(token) = &self.token {
                request = request.bearer_auth(token);
            }
            let response = request
                .send()
                .await
                .map_err(|e| super::fetch::without_url(&e))?;
            let status = response.status().as_u16();
            if status == 401 && attempt == 0 {
                let challenge = response
                    .headers()
                    .get("www-authenticate")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("")
                    .to_string();
                self.token = Some(self.anonymous_token(&challenge).await?);
                continue;
            }
            if status == 404 {
                return Ok(None);
            }
            if !(200..300).contains(&status) {
                return Err(format!("HTTP {status}"));
            }
            let headers = response.headers().clone();
            let body = super::fetch::read_body(response, MAX_BLOB, "a document").await?;
            return Ok(Some((headers, body)));
        }
        Err("HTTP 401 (the registry refused the anonymous token)".into())
    }

    /// The anonymous token a `Bearer realm=…,service=…,scope=…` challenge offers.
    async fn anonymous_token(&self, challenge: &str) -> Result<String, String> {
        let params = challenge
            .strip_prefix("Bearer ")
            .ok_or("HTTP 401 without a bearer challenge (the image is private)")?;
        let mut realm = None;
        let mut query = Vec::new();
        for part in params.split(',') {
            let Some((key, value)) = part.trim().split_once('=') else {
                continue;
            };
            let value = value.trim_matches('"').to_string();
            match key {
                "realm" => realm = Some(value),
                "service" | "scope" => query.push((key.to_string(), value)),
                _ => {}
            }
        }
        let realm = realm.ok_or("the bearer challenge names no realm")?;
        let mut url =
            url::Url::parse(&realm).map_err(|e| format!("the token realm is not a URL ({e})"))?;
        url.query_pairs_mut().extend_pairs(&query);
        let response = self
            .client
            .get(url)
            .send()
            .await
            .map_err(|e| super::fetch::without_url(&e))?;
        if !response.status().is_success() {
            return Err(format!(
                "the token service answered HTTP {}",
                response.status().as_u16()
            ));
        }
        let body =
            super::fetch::read_body(response, MAX_BLOB, "the token service's answer").await?;
        let doc: Value = serde_json::from_slice(&body)
            .map_err(|e| format!("the token service answered no JSON ({e})"))?;
        doc.get("token")
            .or_else(|| doc.get("access_token"))
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| "the token service answered no token".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_follow_dockers_rules() {
        let r = ImageRef::parse("ghcr.io/github/github-mcp-server:0.20.2");
        assert_eq!(
            (
                r.registry.as_str(),
                r.repository.as_str(),
                r.reference.as_str()
            ),
            ("ghcr.io", "github/github-mcp-server", "0.20.2")
        );
        let r = ImageRef::parse("mcp/time");
        assert_eq!(
            (
                r.registry.as_str(),
                r.repository.as_str(),
                r.reference.as_str()
            ),
            ("registry-1.docker.io", "mcp/time", "latest")
        );
        let r = ImageRef::parse("alpine");
        assert_eq!(r.repository, "library/alpine");
        let r = ImageRef::parse("127.0.0.1:5000/x/y:1@sha256:abc");
        assert_eq!(r.reference, "sha256:abc");
        assert_eq!(r.base(), "http://127.0.0.1:5000/v2/x/y");
        assert_eq!(
            ImageRef::parse("localhost:5000/y").base(),
            "http://localhost:5000/v2/y"
        );
    }
}
