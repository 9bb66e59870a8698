//! Tokens and client registrations, one 0600 JSON file per user.
//!
//! The file lives in the state directory (`MCPCTL_STATE_DIR`, else
//! `$XDG_STATE_HOME/mcpctl`), never beside the definitions, so a definitions
//! file can be shared or committed. Tokens are keyed by issuer and resource
//! (the MCP server's URL): two definitions of one server share a sign-in,
//! and a server moved to another authorization server is not sent the old
//! one's token. Dynamic registrations are keyed by issuer and reused, so
//! signing in again does not register a new client each time.
//!
//! Every change takes an exclusive lock on `oauth.lock`, reads the file,
//! changes it, writes a temp file, fsyncs it and renames it over the old one
//! (then fsyncs the directory): a `check` refreshing a token while the
//! supervisor does the same never loses either write.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use oauth2::TokenResponse;
use rmcp::transport::auth::{
    AuthError, AuthorizationMetadata, CredentialRefreshGuard, CredentialStore, OAuthTokenResponse,
    StoredCredentials,
};
use serde::{Deserialize, Serialize};

use super::OAuthError;
use crate::defs::Grant;
use crate::defs::redact::register_secret;

/// The file's name in the state directory.
pub const FILE_NAME: &str = "oauth.json";

/// The directory of the token file: the persistent state directory
/// ([`crate::state_dir::persistent_dir`]: `MCPCTL_STATE_DIR` by the one rule
/// every layer follows, else the user's state directory; never the runtime
/// directory sockets use, which is emptied at logout).
pub fn dir() -> PathBuf {
    crate::state_dir::persistent_dir()
}

/// The token file's path.
pub fn path() -> PathBuf {
    dir().join(FILE_NAME)
}

/// One server's tokens and what is needed to refresh them without
/// discovering again.
#[derive(Clone, Serialize, Deserialize)]
pub struct TokenEntry {
    /// The authorization server's issuer (empty for a 2025-03-26-era server
    /// that publishes no metadata).
    pub issuer: String,
    /// The MCP server's URL the tokens are for (RFC 8707 resource).
    pub resource: String,
    /// The definition name that signed in last (for display only).
    pub server: String,
    /// The client the tokens were issued to.
    pub client_id: String,
    /// The grant that got them.
    pub grant: Grant,
    /// The authorization server's metadata at sign-in.
    pub metadata: AuthorizationMetadata,
    /// The token response (access token, refresh token, expiry, scope).
    pub token: OAuthTokenResponse,
    /// When the token response arrived (Unix seconds).
    pub received_at: u64,
    /// The scopes granted.
    #[serde(default)]
    pub granted_scopes: Vec<String>,
}

impl TokenEntry {
    /// Unix seconds at which the access token expires, if the server said.
    pub fn expires_at(&self) -> Option<u64> {
        self.token
            .expires_in()
            .map(|d| super::bounds::expires_at(self.received_at, d.as_secs()))
    }

    /// True when the access token expires within `margin` seconds (or has).
    pub fn expires_within(&self, margin: u64) -> bool {
        self.expires_at()
            .is_some_and(|at| at <= now().saturating_add(margin))
    }

    /// Register this entry's tokens with the redactor.
    pub fn register_secrets(&self) {
        register_secret(self.token.access_token().secret());
        if let Some(refresh) = self.token.refresh_token() {
            register_secret(refresh.secret());
        }
    }
}

/// A dynamic client registration, kept per issuer and reused.
#[derive(Clone, Serialize, Deserialize)]
pub struct Registration {
    /// The client id the server assigned.
    pub client_id: String,
    /// The secret it assigned, if any (a confidential registration).
    #[serde(default)]
    pub client_secret: Option<String>,
    /// The redirect URI registered (its port is tried first next time).
    pub redirect_uri: String,
}

/// The whole file.
#[derive(Default, Serialize, Deserialize)]
pub struct TokenFile {
    /// Format version.
    #[serde(default)]
    pub version: u32,
    /// `"<issuer> <resource>"` → tokens.
    #[serde(default)]
    pub tokens: BTreeMap<String, TokenEntry>,
    /// issuer → registration.
    #[serde(default)]
    pub registrations: BTreeMap<String, Registration>,
}

/// The map key of a token entry.
pub fn key(issuer: &str, resource: &str) -> String {
    format!("{issuer} {resource}")
}

/// Unix seconds now.
pub fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

fn store_error(path: &Path, detail: impl std::fmt::Display) -> OAuthError {
    OAuthError::Store {
        path: path.to_path_buf(),
        detail: detail.to_string(),
        hint: None,
    }
}

/// The error for a state directory that could not be made or was refused
/// (with the refusal's own hint: what is wrong with which path).
fn dir_error(dir: &Path, error: std::io::Error) -> OAuthError {
    OAuthError::Store {
        path: dir.to_path_buf(),
        hint: crate::state_dir::refusal_hint(&error),
        detail: error.to_string(),
    }
}

impl TokenFile {
    /// The entry for `resource`, whichever issuer signed it (the most
    /// recent one when several did).
    pub fn for_resource(&self, resource: &str) -> Option<&TokenEntry> {
        self.tokens
            .values()
            .filter(|e| e.resource == resource)
            .max_by_key(|e| e.received_at)
    }
}

/// Read the token file (empty when it does not exist yet). Its directory
/// is checked first as the one state-dir rule requires: a planted one (a
/// link, another user's) is refused, never read from.
pub fn read() -> Result<TokenFile, OAuthError> {
    let dir = dir();
    crate::state_dir::check_private_dir(&dir).map_err(|e| dir_error(&dir, e))?;
    read_at(&path())
}

fn read_at(path: &Path) -> Result<TokenFile, OAuthError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(TokenFile::default()),
        Err(e) => return Err(store_error(path, e)),
    };
    let file: TokenFile = serde_json::from_str(&text).map_err(|e| {
        store_error(
            path,
            format!("unreadable ({e}); delete it to sign in again"),
        )
    })?;
    for entry in file.tokens.values() {
        entry.register_secrets();
    }
    for registration in file.registrations.values() {
        if let Some(secret) = &registration.client_secret {
            register_secret(secret);
        }
    }
    Ok(file)
}

/// An exclusive lock on the token file, released on drop.
pub struct Lock {
    _file: File,
}

/// Take the lock (blocking; every holder keeps it for one read-modify-write
/// or one refresh).
pub fn lock() -> Result<Lock, OAuthError> {
    let dir = dir();
    crate::state_dir::make_private_dir(&dir).map_err(|e| dir_error(&dir, e))?;
    let lock_path = dir.join("oauth.lock");
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .mode(0o600)
        .open(&lock_path)
        .map_err(|e| store_error(&lock_path, e))?;
    file.lock().map_err(|e| store_error(&lock_path, e))?;
    Ok(Lock { _file: file })
}

/// Read, change and write the token file under the lock.
pub fn modify<T>(change: impl FnOnce(&mut TokenFile) -> T) -> Result<T, OAuthError> {
    let _lock = lock()?;
    modify_locked(change)
}

/// [`modify`] for a caller that holds the lock already.
fn modify_locked<T>(change: impl FnOnce(&mut TokenFile) -> T) -> Result<T, OAuthError> {
    let path = path();
    let mut file = read_at(&path)?;
    let out = change(&mut file);
    file.version = 1;
    write_atomic(&path, &file)?;
    Ok(out)
}

fn write_atomic(path: &Path, file: &TokenFile) -> Result<(), OAuthError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let text = serde_json::to_vec_pretty(file).map_err(|e| store_error(path, e))?;
    let mut temp = tempfile::Builder::new()
        .prefix(".oauth.json.")
        .permissions(std::fs::Permissions::from_mode(0o600))
        .tempfile_in(dir)
        .map_err(|e| store_error(path, e))?;
    temp.write_all(&text).map_err(|e| store_error(path, e))?;
    temp.as_file()
        .sync_all()
        .map_err(|e| store_error(path, e))?;
    temp.persist(path).map_err(|e| store_error(path, e.error))?;
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// rmcp's [`CredentialStore`] over one entry of the token file: what the
/// authorization manager loads before a refresh and saves after a code or
/// refresh exchange.
#[derive(Clone)]
pub struct EntryStore {
    /// Issuer half of the key.
    pub issuer: String,
    /// Resource half of the key.
    pub resource: String,
    /// Definition name, for display.
    pub server: String,
    /// The grant in use.
    pub grant: Grant,
    /// The metadata to keep with the tokens.
    pub metadata: AuthorizationMetadata,
    /// Set while a refresh guard holds the file lock, so `load` and `save`
    /// inside it do not lock again.
    guarded: Arc<AtomicBool>,
}

impl EntryStore {
    /// A store for the entry of (`issuer`, `resource`).
    pub fn new(
        issuer: &str,
        resource: &str,
        server: &str,
        grant: Grant,
        metadata: AuthorizationMetadata,
    ) -> EntryStore {
        EntryStore {
            issuer: issuer.to_string(),
            resource: resource.to_string(),
            server: server.to_string(),
            grant,
            metadata,
            guarded: Arc::new(AtomicBool::new(false)),
        }
    }

    fn key(&self) -> String {
        key(&self.issuer, &self.resource)
    }

    fn with_file<T>(&self, change: impl FnOnce(&mut TokenFile) -> T) -> Result<T, OAuthError> {
        if self.guarded.load(Ordering::SeqCst) {
            modify_locked(change)
        } else {
            modify(change)
        }
    }

    /// The entry as stored now.
    pub fn entry(&self) -> Result<Option<TokenEntry>, OAuthError> {
        Ok(read()?.tokens.get(&self.key()).cloned())
    }

    /// Store a token response directly (the `private_key_jwt` exchange,
    /// which rmcp does not do here).
    pub fn put(
        &self,
        client_id: &str,
        token: OAuthTokenResponse,
        granted_scopes: Vec<String>,
    ) -> Result<TokenEntry, OAuthError> {
        if let Some(detail) = super::bounds::token_refusal(&token) {
            return Err(OAuthError::SignIn {
                server: self.server.clone(),
                detail,
            });
        }
        let entry = TokenEntry {
            issuer: self.issuer.clone(),
            resource: self.resource.clone(),
            server: self.server.clone(),
            client_id: client_id.to_string(),
            grant: self.grant,
            metadata: self.metadata.clone(),
            token,
            received_at: now(),
            granted_scopes,
        };
        entry.register_secrets();
        let key = self.key();
        let stored = entry.clone();
        self.with_file(move |file| {
            file.tokens.insert(key, stored);
        })?;
        Ok(entry)
    }
}

fn to_auth_error(e: OAuthError) -> AuthError {
    AuthError::CredentialStoreError(e.to_string())
}

struct GuardReset {
    _lock: Lock,
    guarded: Arc<AtomicBool>,
}

impl Drop for GuardReset {
    fn drop(&mut self) {
        self.guarded.store(false, Ordering::SeqCst);
    }
}

#[async_trait::async_trait]
impl CredentialStore for EntryStore {
    async fn load(&self) -> Result<Option<StoredCredentials>, AuthError> {
        let entry = if self.guarded.load(Ordering::SeqCst) {
            read_at(&path()).map(|f| f.tokens.get(&self.key()).cloned())
        } else {
            self.entry()
        }
        .map_err(to_auth_error)?;
        Ok(entry.map(|e| {
            StoredCredentials::new(
                e.client_id,
                Some(e.token),
                e.granted_scopes,
                Some(e.received_at),
            )
            .with_issuer(Some(e.issuer).filter(|i| !i.is_empty()))
        }))
    }

    async fn save(&self, credentials: StoredCredentials) -> Result<(), AuthError> {
        let Some(token) = credentials.token_response else {
            return self.clear().await;
        };
        register_secret(token.access_token().secret());
        if let Some(detail) = super::bounds::token_refusal(&token) {
            return Err(AuthError::CredentialStoreError(detail));
        }
        let entry = TokenEntry {
            issuer: self.issuer.clone(),
            resource: self.resource.clone(),
            server: self.server.clone(),
            client_id: credentials.client_id,
            grant: self.grant,
            metadata: self.metadata.clone(),
            token,
            received_at: credentials.token_received_at.unwrap_or_else(now),
            granted_scopes: credentials.granted_scopes,
        };
        entry.register_secrets();
        let key = self.key();
        self.with_file(move |file| {
            file.tokens.insert(key, entry);
        })
        .map_err(to_auth_error)
    }

    async fn clear(&self) -> Result<(), AuthError> {
        let key = self.key();
        self.with_file(move |file| {
            file.tokens.remove(&key);
        })
        .map_err(to_auth_error)
    }

    async fn acquire_refresh_guard(&self) -> Result<Option<CredentialRefreshGuard>, AuthError> {
        let lock = tokio::task::spawn_blocking(lock)
            .await
            .map_err(|e| AuthError::CredentialStoreError(e.to_string()))?
            .map_err(to_auth_error)?;
        self.guarded.store(true, Ordering::SeqCst);
        Ok(Some(CredentialRefreshGuard::new(GuardReset {
            _lock: lock,
            guarded: self.guarded.clone(),
        })))
    }
}
