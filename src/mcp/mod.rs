//! The MCP client layer: connect to a server from its [`ServerDef`], discover
//! what it offers, call its tools, and always clean up after it.
//!
//! Built on rmcp, with mcpctl owning what rmcp's defaults get wrong for an
//! operator tool: the child process tree, the protocol version,
//! budgets, pagination, the legacy SSE transport, and schema linting.
//!
//! - [`discover`] is one complete check of a server (used by `check`, `add`).
//! - [`Connection`] is a live connection (for the supervisor).
//!
//! [`ServerDef`]: crate::defs::ServerDef

pub mod child;
pub mod client;
pub mod connection;
pub mod discover;
pub mod error;
pub mod escapes;
pub mod given_roots;
pub mod groups;
pub mod in_order;
pub mod interim;
pub mod leftovers;
pub mod lint;
pub mod listing;
pub mod prefetch;
pub mod reply_ids;
pub mod sse;
pub mod stderr;
pub mod stdio_lines;
pub mod stdout_tap;
pub mod talk;
pub mod watchdog;

pub use connection::{ConnectOptions, Connection, PageEnd, ToolPages};
pub use discover::{DiscoverOptions, DiscoveryReport, Timings, discover};
pub use error::{ConnectError, Phase};
pub use lint::{Lint, Severity};
