//! The HTTP side of the registry: builds `v0.1` URLs, fetches them with
//! timeouts, serves fresh answers from the cache, and turns transport
//! failures into [`RegistryError`]s that say what to do.
//!
//! The reqwest client is built lazily, on the first request that actually
//! goes to the network, so a search answered from the cache never pays for
//! TLS set-up.

use std::sync::OnceLock;
use std::time::Duration;

use url::Url;

use super::cache::Cache;
use super::error::RegistryError;
use super::types::{ServerEntry, ServerList};

/// The official MCP Registry.
pub const DEFAULT_REGISTRY_URL: &str = "https://registry.modelcontextprotocol.io";
/// Environment variable that points mcpctl at another registry.
pub const REGISTRY_URL_ENV: &str = "MCPCTL_REGISTRY_URL";
/// Environment variable that overrides the per-request timeout, in seconds.
pub const REGISTRY_TIMEOUT_ENV: &str = "MCPCTL_REGISTRY_TIMEOUT";
/// How long one request may take before the registry counts as unreachable.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(15);
/// The largest page the official registry serves.
pub const MAX_PAGE_SIZE: usize = 100;
/// A guard against a registry whose cursor never ends.
pub const MAX_PAGES: usize = 500;
/// The largest response read from the registry: a full page of 100
/// `server.json` documents is well under a megabyte.
pub const MAX_RESPONSE: usize = 16 * 1024 * 1024;

/// How to reach the registry; built from flags and the environment.
#[derive(Debug, Clone)]
pub struct ClientOptions {
    /// The base URL (`--registry`), else `MCPCTL_REGISTRY_URL`, else the
    /// official registry.
    pub registry: Option<String>,
    /// Skip the cache for reads (`--refresh`); fresh answers are still
    /// written back.
    pub refresh: bool,
    /// Where responses are cached; `None` disables caching.
    pub cache: Option<Cache>,
    /// Per-request timeout.
    pub timeout: Duration,
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions {
            registry: None,
            refresh: false,
            cache: None,
            timeout: DEFAULT_TIMEOUT,
        }
    }
}

impl ClientOptions {
    /// Options the way the CLI wants them: the flag, then
    /// `MCPCTL_REGISTRY_URL`, the default cache location
    /// (`MCPCTL_CACHE_DIR` or the platform cache dir) and
    /// `MCPCTL_REGISTRY_TIMEOUT`.
    pub fn from_env(registry_flag: Option<String>, refresh: bool) -> ClientOptions {
        let registry = registry_flag.or_else(|| {
            std::env::var(REGISTRY_URL_ENV)
                .ok()
                .filter(|v| !v.trim().is_empty())
        });
        let timeout = std::env::var(REGISTRY_TIMEOUT_ENV)
            .ok()
            .and_then(|v| v.trim().parse::<f64>().ok())
            .and_then(|secs| crate::validate::seconds::duration(REGISTRY_TIMEOUT_ENV, secs).ok())
            .unwrap_or(DEFAULT_TIMEOUT);
        ClientOptions {
            registry,
            refresh,
            cache: Cache::default_location(),
            timeout,
        }
    }
}

/// One page request of `GET /v0.1/servers`.
#[derive(Debug, Clone, Default)]
pub struct ListQuery {
    /// Case-insensitive substring of the name.
    pub search: Option<String>,
    /// Page size hint.
    pub limit: Option<usize>,
    /// Cursor from the previous page.
    pub cursor: Option<String>,
}

/// The result of following the cursor for a search.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct SearchOutcome {
    /// The entries to show, in registry order.
    pub servers: Vec<super::types::ServerEntry>,
    /// Skipped-entry warnings from every page.
    pub warnings: Vec<String>,
    /// Pages fetched (or read from the cache).
    pub pages: usize,
    /// Deprecated or deleted entries left out.
    pub hidden: usize,
    /// True when more results exist beyond the limit.
    pub more: bool,
}

/// A client for one registry.
#[derive(Debug)]
pub struct RegistryClient {
    base: Url,
    refresh: bool,
    cache: Option<Cache>,
    timeout: Duration,
    http: OnceLock<Result<reqwest::Client, String>>,
}

impl RegistryClient {
    /// Validate the base URL and set up; nothing touches the network yet.
    pub fn new(options: ClientOptions) -> Result<RegistryClient, RegistryError> {
        let raw = options
            .registry
            .unwrap_or_else(|| DEFAULT_REGISTRY_URL.to_string());
        let mut base = Url::parse(raw.trim()).map_err(|err| RegistryError::InvalidBaseUrl {
            url: raw.clone(),
            reason: err.to_string(),
        })?;
        if !matches!(base.scheme(), "http" | "https") {
            return Err(RegistryError::InvalidBaseUrl {
                url: raw,
                reason: "only http and https are supported".into(),
            });
        }
        if base.query().is_some() || base.fragment().is_some() {
            return Err(RegistryError::InvalidBaseUrl {
                url: raw,
                reason: "a registry URL has no query or fragment".into(),
            });
        }
        if !base.path().ends_with('/') {
            let path = format!("{}/", base.path());
            base.set_path(&path);
        }
        Ok(RegistryClient {
            base,
            refresh: options.refresh,
            cache: options.cache,
            timeout: options.timeout,
            http: OnceLock::new(),
        })
    }

    /// The registry base URL, for messages (userinfo masked).
    pub fn base_url(&self) -> String {
        crate::defs::redact::mask_userinfo(self.base.as_str().trim_end_matches('/'))
    }

    /// The cache in use, if any.
    pub fn cache(&self) -> Option<&Cache> {
        self.cache.as_ref()
    }

    /// `GET /v0.1/servers?search=&limit=&cursor=&version=latest`: one page.
    pub async fn list_page(&self, query: &ListQuery) -> Result<ServerList, RegistryError> {
        let mut url = self.endpoint("v0.1/servers")?;
        {
            let mut pairs = url.query_pairs_mut();
            if let Some(search) = query.search.as_deref().filter(|s| !s.is_empty()) {
                pairs.append_pair("search", search);
            }
            if let Some(limit) = query.limit {
                pairs.append_pair("limit", &limit.to_string());
            }
            if let Some(cursor) = &query.cursor {
                pairs.append_pair("cursor", cursor);
            }
            pairs.append_pair("version", "latest");
        }
        self.fetch(&url, ServerList::parse)
            .await?
            .ok_or_else(|| RegistryError::HttpStatus {
                url: crate::defs::redact::mask_userinfo(url.as_str()),
                status: 404,
            })
    }

    /// Follow the cursor for `term` until `limit` visible entries (all of
    /// them when `None`), hiding deprecated and deleted entries unless
    /// `include_deprecated`. `on_page` is called after each page with the
    /// number of entries collected so far (drives the spinner).
    pub async fn search(
        &self,
        term: &str,
        limit: Option<usize>,
        include_deprecated: bool,
        on_page: &mut dyn FnMut(usize),
    ) -> Result<SearchOutcome, RegistryError> {
        let page_size = limit.unwrap_or(MAX_PAGE_SIZE).clamp(1, MAX_PAGE_SIZE);
        let mut outcome = SearchOutcome::default();
        let mut cursor: Option<String> = None;
        let mut seen_cursors = std::collections::HashSet::new();
        loop {
            let page = self
                .list_page(&ListQuery {
                    search: Some(term.to_string()),
                    limit: Some(page_size),
                    cursor: cursor.clone(),
                })
                .await?;
            outcome.pages += 1;
            outcome.warnings.extend(page.warnings);
            let mut entries = page.servers.into_iter();
            for entry in entries.by_ref() {
                if !include_deprecated && entry.status().is_hidden_by_default() {
                    outcome.hidden += 1;
                    continue;
                }
                // A registry that ignores `version=latest` lists every
                // version: keep one row per name, preferring the latest.
                if let Some(existing) = outcome
                    .servers
                    .iter_mut()
                    .find(|e| e.server.name == entry.server.name)
                {
                    if entry.official.is_latest == Some(true)
                        && existing.official.is_latest != Some(true)
                    {
                        *existing = entry;
                    }
                    continue;
                }
                outcome.servers.push(entry);
                if limit.is_some_and(|l| outcome.servers.len() >= l) {
                    break;
                }
            }
            on_page(outcome.servers.len());
            let full = limit.is_some_and(|l| outcome.servers.len() >= l);
            let next = page.next_cursor;
            if full {
                outcome.more = entries.next().is_some() || next.is_some();
                break;
            }
            match next {
                Some(next) if seen_cursors.insert(next.clone()) => {
                    if outcome.pages >= MAX_PAGES {
                        outcome.warnings.push(format!(
                            "stopped after {MAX_PAGES} pages; narrow the search term"
                        ));
                        outcome.more = true;
                        break;
                    }
                    cursor = Some(next);
                }
                Some(repeated) => {
                    outcome.warnings.push(format!(
                        "the registry repeated the cursor `{repeated}`; stopped paging"
                    ));
                    break;
                }
                None => break,
            }
        }
        Ok(outcome)
    }

    /// `GET /v0.1/servers/{name}/versions`; `None` when the name is unknown.
    pub async fn versions(&self, name: &str) -> Result<Option<ServerList>, RegistryError> {
        let url = self.endpoint(&format!("v0.1/servers/{}/versions", encode(name)))?;
        self.fetch(&url, ServerList::parse).await
    }

    /// `GET /v0.1/servers/{name}/versions/{version}` (`latest` allowed);
    /// `None` when there is no such name or version.
    pub async fn get_version(
        &self,
        name: &str,
        version: &str,
    ) -> Result<Option<ServerEntry>, RegistryError> {
        let url = self.endpoint(&format!(
            "v0.1/servers/{}/versions/{}",
            encode(name),
            encode(version)
        ))?;
        self.fetch(&url, ServerEntry::parse).await
    }

    fn endpoint(&self, path: &str) -> Result<Url, RegistryError> {
        self.base
            .join(path)
            .map_err(|err| RegistryError::InvalidBaseUrl {
                url: self.base.to_string(),
                reason: err.to_string(),
            })
    }

    fn http(&self) -> Result<&reqwest::Client, RegistryError> {
        let built = self.http.get_or_init(|| {
            // The registry sends no definition headers, so a redirect to a
            // mirror is followed (never to plain http, never more than 5).
            let mut builder = crate::http_client::builder(crate::http_client::Redirects::AnyOrigin)
                .timeout(self.timeout)
                .connect_timeout(self.timeout.min(Duration::from_secs(10)));
            // A registry on this machine is never reached through a proxy
            // from HTTP_PROXY/HTTPS_PROXY.
            let loopback = match self.base.host() {
                Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
                Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
                Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
                None => false,
            };
            if loopback {
                builder = builder.no_proxy();
            }
            builder.build().map_err(|err| err.to_string())
        });
        built.as_ref().map_err(|reason| RegistryError::Unreachable {
            base: self.base_url(),
            reason: format!("cannot set up HTTP: {reason}"),
        })
    }

    /// Fetch `url` (from the cache when fresh) and `parse` it, once;
    /// `None` for a 404. Only a body that parses is cached: errors and
    /// unreadable bodies never are.
    async fn fetch<T>(
        &self,
        url: &Url,
        parse: fn(&[u8]) -> Result<T, String>,
    ) -> Result<Option<T>, RegistryError> {
        let key = url.as_str();
        if !self.refresh
            && let Some(body) = self.cache.as_ref().and_then(|c| c.get(key))
            && let Ok(parsed) = parse(&body)
        {
            return Ok(Some(parsed));
        }
        let response = self
            .http()?
            .get(url.clone())
            .header(reqwest::header::ACCEPT, "application/json")
            .send()
            .await
            .map_err(|err| self.transport_error(url, err))?;
        let status = response.status();
        if status == reqwest::StatusCode::NOT_FOUND {
            return Ok(None);
        }
        if status.is_server_error() {
            return Err(RegistryError::ServerError {
                url: crate::defs::redact::mask_userinfo(key),
                status: status.as_u16(),
            });
        }
        if !status.is_success() {
            return Err(RegistryError::HttpStatus {
                url: crate::defs::redact::mask_userinfo(key),
                status: status.as_u16(),
            });
        }
        let body = match crate::http_client::read_capped(response, MAX_RESPONSE).await {
            Ok(body) => body,
            Err(crate::http_client::BodyError::Transport(err)) => {
                return Err(self.transport_error(url, err));
            }
            Err(too_large) => {
                return Err(RegistryError::BadJson {
                    url: crate::defs::redact::mask_userinfo(key),
                    reason: too_large.to_string(),
                });
            }
        };
        let parsed = parse(&body).map_err(|reason| RegistryError::BadJson {
            url: crate::defs::redact::mask_userinfo(key),
            reason,
        })?;
        if let Some(cache) = &self.cache
            && let Err(err) = cache.put(key, &body)
        {
            crate::output::warn(
                &format!(
                    "cannot write the registry cache in {}: {err}",
                    cache.dir().display()
                ),
                None,
            );
        }
        Ok(Some(parsed))
    }

    fn transport_error(&self, url: &Url, err: reqwest::Error) -> RegistryError {
        if err.is_timeout() {
            return RegistryError::Timeout {
                base: self.base_url(),
                url: crate::defs::redact::mask_userinfo(url.as_str()),
                secs: self.timeout.as_secs().max(1),
            };
        }
        if let Some(refused) = crate::http_client::RedirectRefused::find(&err) {
            return RegistryError::Redirect {
                base: self.base_url(),
                refused: refused.clone(),
            };
        }
        RegistryError::Unreachable {
            base: self.base_url(),
            reason: crate::defs::redact::mask_userinfo(&crate::error::chain(&err)),
        }
    }
}

/// Percent-encode one path segment (`/` becomes `%2F`, `+` becomes `%2B`).
fn encode(segment: &str) -> String {
    url::form_urlencoded::byte_serialize(segment.as_bytes())
        .collect::<String>()
        .replace('+', "%20")
}
