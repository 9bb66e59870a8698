//! Dynamic shell completion (`source <(COMPLETE=bash mcpctl)`): server
//! names from the definition files, tool names from the running
//! supervisor. The static scripts in `completions/` complete commands and
//! flags only; these candidates are what changes from one machine to the
//! next.
//!
//! A completion runs on every Tab press, so it never prompts, never starts
//! a supervisor and never fails: anything it cannot read gives no
//! candidates. The definition files are those of `MCPCTL_FILE` or the
//! default file (a `--file` on the line being completed is not seen).

use clap_complete::engine::CompletionCandidate;

use crate::defs::{Catalog, Sources};
use crate::output::sanitize;
use crate::supervisor::client::Client;
use crate::supervisor::protocol::{Body, Op};

/// Answer a completion request and exit, when the shell asked for one
/// (`COMPLETE=<shell>` in the environment); otherwise return at once.
pub fn complete_if_asked() {
    clap_complete::CompleteEnv::with_factory(super::command).complete();
}

/// The defined server names, each with its label or target as help.
pub fn server_names() -> Vec<CompletionCandidate> {
    let Ok(catalog) = Catalog::load(&Sources::resolve(&[])) else {
        return Vec::new();
    };
    catalog
        .servers()
        .iter()
        .map(|def| {
            let help = def.label.clone().unwrap_or_else(|| def.target());
            CompletionCandidate::new(&def.name).help(Some(sanitize(&help).into_owned().into()))
        })
        .collect()
}

/// The tools of every server the supervisor has ready, each with its
/// server as help.
pub fn tool_names() -> Vec<CompletionCandidate> {
    let Ok(mut client) = Client::connect(&Sources::resolve(&[]), false) else {
        return Vec::new();
    };
    let Ok(Body::Servers { servers, .. }) = client.request(Op::Status { names: Vec::new() }) else {
        return Vec::new();
    };
    let mut candidates = Vec::new();
    for server in servers.iter().filter(|s| s.tools.is_some()) {
        let Ok(Body::Tools { tools, .. }) = client.request(Op::Tools {
            name: server.name.clone(),
        }) else {
            continue;
        };
        candidates.extend(tools.iter().map(|tool| {
            CompletionCandidate::new(sanitize(&tool.name).into_owned())
                .help(Some(server.name.clone().into()))
        }));
    }
    candidates
}
