//! mcpctl's two executables and how each finds the other: `mcpctl`, which
//! does everything, and the small `mcpctl-serve` beside it, which only
//! serves agents (see [`crate::cli::serve_main`]). They are installed
//! together (`cargo install` installs both), so each looks for the other in
//! its own directory.

use std::path::PathBuf;

/// The file name of the main executable.
pub const MAIN_EXE: &str = "mcpctl";

/// The file name of the serve-only executable.
pub const SERVE_EXE: &str = "mcpctl-serve";

/// The main executable: this one, or, from `mcpctl-serve`, the `mcpctl`
/// beside it (the supervisor and the agent hosts' entries run that one).
pub fn main_exe() -> std::io::Result<PathBuf> {
    let me = std::env::current_exe()?;
    Ok(if me.file_name().is_some_and(|n| n == SERVE_EXE) {
        me.with_file_name(MAIN_EXE)
    } else {
        me
    })
}

/// The `mcpctl-serve` beside this executable, when it is there and
/// executable.
pub fn serve_exe() -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let path = std::env::current_exe().ok()?.with_file_name(SERVE_EXE);
    let meta = std::fs::metadata(&path).ok()?;
    (meta.is_file() && meta.permissions().mode() & 0o111 != 0).then_some(path)
}
