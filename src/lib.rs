//! mcpctl: manage, check and supervise Model Context Protocol servers.
//!
//! The binary is a thin shell over [`main_entry`]; every capability lives in
//! a module that owns one concern (see `ARCHITECTURE.md`): definition files
//! ([`defs`]), validation before save ([`validate`]), the MCP client
//! ([`mcp`]), the registry client ([`registry`]) and the command line
//! ([`cli`]) that ties them together.

pub mod auth;
pub mod cli;
pub mod defs;
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
pub mod serve;
pub mod state_dir;
pub mod supervisor;
pub mod text;
pub mod tls;
pub mod validate;

pub use error::{Diagnostic, Error, ExitCode, Result};

/// Run mcpctl with the process's own arguments and return its exit status.
///
/// Errors are printed as `error: …` with a `hint: …` line, and mapped to the
/// exit code table in the README.
pub fn main_entry() -> std::process::ExitCode {
    cli::complete_if_asked();
    let code = cli::run_from_env();
    std::process::ExitCode::from(code.code())
}
