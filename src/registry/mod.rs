//! The official MCP Registry: a client for its `v0.1` API, a response
//! cache, and the installer that turns an entry into a pinned definition.
//!
//! - [`types`]: the `server.json` model, parsed defensively;
//! - [`client`]: URLs, timeouts, paging and typed errors;
//! - [`cache`]: five-minute on-disk cache of response bodies;
//! - [`install`]: entry → [`crate::defs::ServerDef`] for `mcpctl add NAME`;
//! - [`error`]: what can go wrong, with exit codes and hints.

pub mod cache;
pub mod client;
pub mod error;
pub mod install;
pub mod supply_chain;
pub mod types;

pub use cache::Cache;
pub use client::{ClientOptions, ListQuery, RegistryClient, SearchOutcome};
pub use error::RegistryError;
pub use install::{InstallPlan, InstallRequest, Selector, plan_install};
pub use types::{ServerEntry, ServerList, Status};
