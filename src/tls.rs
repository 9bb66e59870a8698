//! Installs rustls's `ring` crypto provider before the first HTTPS client
//! is built (MCP over HTTP/SSE, the registry): reqwest is compiled without
//! a provider to avoid the aws-lc C build, so without this the first HTTPS
//! request would panic.

/// Install the provider once per process; a provider installed earlier
/// (by this or any other module) is fine and is kept.
pub fn install_crypto_provider() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _already_installed = rustls::crypto::ring::default_provider().install_default();
    });
}
