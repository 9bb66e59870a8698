//! `mcpctl sandbox NAME`: the effective rules of a server's sandbox, as
//! the launch would build them (what it reads and writes, its private
//! directories, its network, what is hidden, the kernel's Landlock ABI and
//! user namespaces, and "would refuse: …" when it cannot be set up here);
//! with `--set`, a new policy written into the entry (see `sandbox_set`).

use std::path::Path;

use serde_json::json;

use super::Context;
use crate::defs::ServerDef;
use crate::defs::sandbox_kind::{SandboxKind, container_runtime, sandbox_kind};
use crate::error::{ExitCode, Result};
use crate::output::{self, sanitize};
use crate::sandbox::explain::Rules;

const EXAMPLES: &str = "\
Without --set, prints the rules a launch of NAME gets now, worked out as the
launch works them out (its PATH, HOME and program), and exits 1 when the
sandbox could not be set up on this machine (the server would not start).

--set writes the `sandbox` field of NAME's entry, in its own file, keeping
the file's comments: none (no network), network (files contained, outbound
open), off (unconfined, knowingly), or a ToolHive permission-profile JSON
file (checked, and written inline). --allow-read, --allow-write and
--allow-host make a profile, as with `add`.

Examples:
  mcpctl sandbox time
  mcpctl sandbox time --json | jq .rules.read
  mcpctl sandbox time --set none
  mcpctl sandbox files --set none --allow-write ~/notes
  mcpctl sandbox fetcher --set ./profile.json";

/// Arguments of `mcpctl sandbox`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The server.
    #[arg(add = clap_complete::engine::ArgValueCandidates::new(super::complete::server_names))]
    pub name: String,
    /// Write this policy into the entry: none, network, off or PROFILE.json.
    #[arg(long, value_name = "none|network|off|PROFILE.json")]
    pub set: Option<String>,
    /// With --set, or alone to widen the policy it has.
    #[command(flatten)]
    pub allow: super::add::sandbox::AllowFlags,
}

/// Print the rules, or write a new policy.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let catalog = ctx.catalog()?;
    ctx.warn_untrusted();
    let def = catalog.get(&args.name)?.clone();
    if args.set.is_some() || args.allow.any() {
        let flags = super::add::sandbox::SandboxFlags {
            sandbox: args.set,
            allow: args.allow,
        };
        return super::sandbox_set::run(ctx, &def, flags);
    }
    let kind = sandbox_kind(&def);
    let rules = match kind {
        Some(SandboxKind::None | SandboxKind::Network | SandboxKind::Profile) => {
            crate::mcp::child::sandbox_rules(&def).map_err(crate::error::Error::from)?
        }
        _ => None,
    };
    let refused = rules.as_ref().is_some_and(|r| r.would_refuse.is_some());
    if ctx.json {
        output::print_json(&json!({
            "name": def.name,
            "kind": kind,
            "definitions": def.source,
            "rules": rules,
        }))?;
    } else {
        output::line(lines(&def, kind, rules.as_ref()).join("\n"))?;
    }
    Ok(if refused {
        ExitCode::Failed
    } else {
        ExitCode::Success
    })
}

/// The whole view, a line per fact, every path escaped.
fn lines(def: &ServerDef, kind: Option<SandboxKind>, rules: Option<&Rules>) -> Vec<String> {
    let name = sanitize(&def.name);
    let head = match kind {
        None => {
            return vec![format!(
                "{name}: a remote server: it runs elsewhere, nothing is launched here to sandbox"
            )];
        }
        Some(SandboxKind::Off) => "off: runs unconfined, knowingly (no rules)".to_string(),
        Some(SandboxKind::Unset) => format!(
            "unset: runs unconfined (the entry has no sandbox field)\n  hint: add one with `mcpctl sandbox {name} --set network` (or none, or a PROFILE.json)"
        ),
        Some(SandboxKind::Container) => {
            let runtime = def.process().and_then(|p| container_runtime(p.command));
            format!(
                "container: contained by {}; mcpctl does not nest a sandbox",
                runtime.unwrap_or("its runtime")
            )
        }
        Some(other) => other.as_str().to_string(),
    };
    let mut out = vec![format!("sandbox of {name}: {head}")];
    if let Some(rules) = rules {
        rules_lines(def, rules, &mut out);
    }
    out
}

fn paths(title: &str, list: &[std::path::PathBuf], out: &mut Vec<String>) {
    out.push(format!("{title}:"));
    if list.is_empty() {
        out.push("  (none)".to_string());
    }
    for path in list {
        out.push(format!("  {}", shown(path)));
    }
}

fn shown(path: &Path) -> String {
    sanitize(&path.display().to_string()).into_owned()
}

/// The rules themselves: paths, private directories, network, hidden
/// directories, the kernel, and the verdict.
fn rules_lines(def: &ServerDef, rules: &Rules, out: &mut Vec<String>) {
    paths("read (and execute)", &rules.read, out);
    paths("write", &rules.write, out);
    if let (Some(tmp), Some(data)) = (&rules.tmp, &rules.data) {
        out.push(format!("private tmp:  {} (its TMPDIR)", shown(tmp)));
        out.push(format!(
            "private data: {} (${})",
            shown(data),
            crate::sandbox::DATA_VAR
        ));
    }
    let network = match rules.network {
        "none" => {
            "none (a network namespace of its own: no route, UDP and DNS included)".to_string()
        }
        "open" => "open (outbound to any host)".to_string(),
        "proxied" => {
            let ports = if rules.ports.is_empty() {
                String::new()
            } else {
                let list: Vec<String> = rules.ports.iter().map(u16::to_string).collect();
                format!(", ports {}", list.join(", "))
            };
            format!(
                "proxied: only {}{ports}, through mcpctl's egress proxy; every other host refused",
                sanitize(&rules.hosts.join(", "))
            )
        }
        other => other.to_string(),
    };
    out.push(format!("network:      {network}"));
    let hidden: Vec<String> = rules.hidden.iter().map(|p| shown(p)).collect();
    out.push(format!(
        "hidden:       {} (an empty read-only tmpfs over each)",
        if hidden.is_empty() {
            "-".to_string()
        } else {
            hidden.join(", ")
        }
    ));
    out.push(format!(
        "denied:       everything else, $HOME included; never the definitions file {}",
        shown(&def.source)
    ));
    out.push(format!(
        "kernel:       Landlock ABI {}{}, user namespaces {}",
        rules.landlock_abi,
        if rules.landlock_abi > 6 {
            " (rules use 6)"
        } else {
            ""
        },
        if rules.user_namespaces { "yes" } else { "no" }
    ));
    match &rules.would_refuse {
        Some(refusal) => {
            out.push(format!("would refuse: {}", sanitize(&refusal.message)));
            out.push(format!("  hint: {}", sanitize(&refusal.hint)));
        }
        None => out.push("verdict:      it would start confined by these rules".to_string()),
    }
}
