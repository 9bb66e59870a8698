//! mcpctl: manage, check and supervise Model Context Protocol servers.
//!
//! The binary is a thin shell over [`cli::main_entry`]; every capability lives in
//! a module that owns one concern (see `ARCHITECTURE.md`): definition files
//! ([`defs`]), validation before save ([`validate`]), the MCP client
//! ([`mcp`]), the check engine ([`check`]), the registry client
//! ([`registry`]) and the command line
//! ([`cli`]) that ties them together.

pub mod auth;
pub mod check;
pub mod cli;
pub mod defs;
pub mod env_flag;
pub mod error;
pub mod exe;
pub mod hash;
pub mod http_client;
pub mod lock;
pub mod mcp;
pub mod output;
pub mod packages;
pub mod procfs;
pub mod registry;
pub mod sandbox;
pub mod serve;
pub mod state_dir;
pub mod supervisor;
pub mod text;
pub mod tls;
pub mod validate;

pub use error::{Diagnostic, Error, ExitCode, Result};
