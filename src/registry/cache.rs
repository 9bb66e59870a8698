//! A small on-disk cache of registry responses, so that repeated searches
//! are instant and work for a while without the network.
//!
//! Entries are keyed by the full request URL and live for [`TTL`]. Only
//! registry response bodies are stored: no user input ever goes into a
//! request, so nothing secret can land here. Files are written atomically
//! (temp file in the same directory, then rename), so a second mcpctl never
//! reads a torn entry; an entry that does not parse is treated as a miss.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How long a cached response is fresh.
pub const TTL: Duration = Duration::from_secs(5 * 60);

/// Environment variable that moves the cache (tests, CI, read-only homes).
pub const CACHE_DIR_ENV: &str = "MCPCTL_CACHE_DIR";

/// A directory of cached response bodies.
#[derive(Debug, Clone)]
pub struct Cache {
    dir: PathBuf,
    ttl: Duration,
}

impl Cache {
    /// A cache in `dir` (created on first write).
    pub fn new(dir: impl Into<PathBuf>) -> Cache {
        Cache {
            dir: dir.into(),
            ttl: TTL,
        }
    }

    /// The default location: `$MCPCTL_CACHE_DIR`, else the platform cache
    /// dir (`~/.cache/mcpctl/registry` on Linux). `None` when neither exists.
    pub fn default_location() -> Option<Cache> {
        if let Some(dir) = std::env::var_os(CACHE_DIR_ENV).filter(|d| !d.is_empty()) {
            return Some(Cache::new(PathBuf::from(dir).join("registry")));
        }
        directories::ProjectDirs::from("", "", "mcpctl")
            .map(|dirs| Cache::new(dirs.cache_dir().join("registry")))
    }

    /// Use a different freshness window (tests).
    pub fn with_ttl(mut self, ttl: Duration) -> Cache {
        self.ttl = ttl;
        self
    }

    /// The directory entries are written to.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file that holds the response for `url`.
    pub fn path_for(&self, url: &str) -> PathBuf {
        self.dir
            .join(format!("{:016x}.json", crate::hash::fnv1a(url.as_bytes())))
    }

    /// The cached body for `url`, if present, for this exact URL and fresh.
    pub fn get(&self, url: &str) -> Option<Vec<u8>> {
        let raw = std::fs::read(self.path_for(url)).ok()?;
        let entry: CacheEntry = serde_json::from_slice(&raw).ok()?;
        if entry.url != url {
            return None;
        }
        let now = SystemTime::now().duration_since(UNIX_EPOCH).ok()?.as_secs();
        if now.saturating_sub(entry.fetched_at) >= self.ttl.as_secs() || entry.fetched_at > now + 60
        {
            return None;
        }
        Some(entry.body.into_bytes())
    }

    /// Store `body` for `url`. Failures are returned for the caller to
    /// report as a warning; a cache must never break a command.
    pub fn put(&self, url: &str, body: &[u8]) -> std::io::Result<()> {
        let body = String::from_utf8_lossy(body).into_owned();
        let fetched_at = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let entry = CacheEntry {
            url: url.to_string(),
            fetched_at,
            body,
        };
        let bytes = serde_json::to_vec(&entry).map_err(std::io::Error::other)?;
        std::fs::create_dir_all(&self.dir)?;
        let mut tmp = tempfile::NamedTempFile::new_in(&self.dir)?;
        tmp.write_all(&bytes)?;
        // No fsync: after a crash a cache entry may be lost or empty, and
        // an unreadable entry is simply a miss, so durability buys nothing
        // here while an fsync per page would slow every paged search.
        tmp.persist(self.path_for(url)).map_err(|e| e.error)?;
        Ok(())
    }
}

#[derive(serde::Serialize, serde::Deserialize)]
struct CacheEntry {
    url: String,
    fetched_at: u64,
    body: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fresh_entry_is_returned_and_an_expired_one_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path());
        cache.put("http://x/a", b"{\"servers\":[]}").unwrap();
        assert_eq!(cache.get("http://x/a").unwrap(), b"{\"servers\":[]}");
        assert!(cache.get("http://x/b").is_none());
        let stale = Cache::new(dir.path()).with_ttl(Duration::ZERO);
        assert!(stale.get("http://x/a").is_none());
    }

    #[test]
    fn writes_leave_no_temp_files_behind() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path());
        cache.put("http://x/a", b"1").unwrap();
        cache.put("http://x/a", b"2").unwrap();
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
        assert_eq!(cache.get("http://x/a").unwrap(), b"2");
    }
}
