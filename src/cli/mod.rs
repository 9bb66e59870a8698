//! The command line: clap definitions and dispatch, one file per verb.

use crate::error::ExitCode;

/// Parse the process arguments, run the command, print any error.
pub fn run_from_env() -> ExitCode {
    ExitCode::Success
}
