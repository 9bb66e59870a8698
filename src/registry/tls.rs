//! Installs rustls's `ring` crypto provider before the first HTTPS client
//! is built: reqwest is compiled with `rustls-no-provider` to avoid the
//! aws-lc C build, so without this the first HTTPS request would panic.
//!
//! Private to the registry for now; `src/mcp/` has the same helper and the
//! two are to be merged into one.

/// Install the provider once per process; a provider installed earlier
/// (by this or any other module) is fine and is kept.
pub(crate) fn install_crypto_provider() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _already_installed = rustls::crypto::ring::default_provider().install_default();
    });
}
