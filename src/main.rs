//! The `mcpctl` binary: parse, run, map the outcome to an exit code.
//!
//! Everything else lives in the library so that tests can drive it directly.

fn main() -> std::process::ExitCode {
    mcpctl::cli::main_entry()
}
