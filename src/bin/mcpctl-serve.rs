//! The `mcpctl-serve` executable: `mcpctl serve` alone, which `mcpctl
//! serve --stdio|--http` hands over to (see `mcpctl::cli::serve_main`).
//!
//! It links only what serving needs (the supervisor's socket client, the
//! definitions' grants, rmcp's server side), so a `serve` process, which
//! lives as long as its agent's session, maps a fraction of mcpctl.

fn main() -> std::process::ExitCode {
    mcpctl::cli::serve_main()
}
