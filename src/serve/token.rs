//! The bearer token agents must present to `serve --http`: 32 random
//! bytes, hex, generated on first use and kept 0600 beside the
//! supervisor's socket (`<digest>.serve-token`), replaced by
//! `--rotate-token`. It authenticates agents to mcpctl only; it never
//! travels further (calls go to the supervisor over its socket).

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use ring::rand::SecureRandom;

use super::ServeError;

/// Where the token of the supervisor at `socket` is kept.
pub fn path_for(socket: &Path) -> PathBuf {
    socket.with_extension("serve-token")
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> ServeError + '_ {
    move |source| ServeError::Token {
        path: path.to_path_buf(),
        source,
    }
}

/// A fresh token.
fn generate() -> Result<String, ServeError> {
    let mut bytes = [0u8; 32];
    ring::rand::SystemRandom::new()
        .fill(&mut bytes)
        .map_err(|_| ServeError::Failed("the system random source failed".into()))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Write `token` atomically, 0600, in a 0700 directory.
fn store(path: &Path, token: &str) -> Result<(), ServeError> {
    if let Some(dir) = path.parent() {
        crate::state_dir::make_private_dir(dir).map_err(io(path))?;
    }
    let tmp = path.with_extension("serve-token.tmp");
    let _ = std::fs::remove_file(&tmp);
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&tmp)
        .map_err(io(&tmp))?;
    file.write_all(format!("{token}\n").as_bytes())
        .and_then(|_| file.sync_all())
        .map_err(io(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io(path))
}

/// The token, generated and stored if there is none yet.
pub fn load_or_create(path: &Path) -> Result<String, ServeError> {
    match std::fs::read_to_string(path) {
        Ok(text) if !text.trim().is_empty() => Ok(text.trim().to_string()),
        Ok(_) => rotate(path),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => rotate(path),
        Err(e) => Err(io(path)(e)),
    }
}

/// Replace the token with a new one and return it.
pub fn rotate(path: &Path) -> Result<String, ServeError> {
    let token = generate()?;
    store(path, &token)?;
    Ok(token)
}

/// Compare in time independent of where the strings differ.
pub fn matches(expected: &str, given: &str) -> bool {
    let (a, b) = (expected.as_bytes(), given.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
