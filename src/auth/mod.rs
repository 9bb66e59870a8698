//! OAuth 2.1 for remote servers, the client side of the MCP authorization
//! specification, built on rmcp's `auth` module.
//!
//! rmcp does discovery (RFC 9728 protected-resource metadata from the
//! `WWW-Authenticate` challenge or the well-known paths, RFC 8414 and OpenID
//! Connect metadata with issuer checks, the 2025-03-26 fallback endpoints),
//! dynamic client registration, PKCE, the code and refresh exchanges and the
//! client-credentials grant with a secret. This module adds what a command
//! line tool needs around it:
//!
//! - [`store`]: tokens and registrations in one 0600 file per user, keyed by
//!   issuer and resource, written atomically under a lock;
//! - [`loopback`] and [`browser`]: the RFC 8252 redirect listener and opening
//!   the authorization URL after checking its scheme;
//! - [`probe`]: asking the server for its sign-in challenge first (and
//!   saying so when it does not use OAuth);
//! - [`flow`]: `login`, refresh and client credentials (with [`jwt`] for
//!   `private_key_jwt`), for a [`target`]; [`client`]: which client id, in
//!   the spec's order, remembering a dynamic registration per issuer;
//!   [`revoke`]: revocation at `logout`;
//! - [`trust`] and [`bounds`]: what is accepted from a server's metadata
//!   (the resource must be this server; every endpoint https or loopback
//!   http; only Bearer tokens; every field, body and error text bounded),
//!   enforced for each request in [`http`];
//! - [`layer`]: the Streamable HTTP client layer that puts the stored token
//!   on every request, refreshes it before expiry and once on a 401, and
//!   redoes a step-up once on a 403 `insufficient_scope`.
//!
//! No token, code, verifier or secret is ever printed: each is registered
//! with [`crate::defs::redact::register_secret`] as soon as it appears.

pub mod bounds;
pub mod browser;
pub mod client;
pub mod error;
pub mod flow;
pub mod http;
pub mod jwt;
pub mod layer;
pub mod loopback;
pub mod probe;
pub mod revoke;
pub mod store;
pub mod target;
pub mod trust;

pub use error::OAuthError;
