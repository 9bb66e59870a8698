//! `mcpctl show NAME`: one definition, every field, secrets redacted.

use super::Context;
use crate::defs::{Launch, OAuth, ServerDef};
use crate::error::{ExitCode, Result};
use crate::output::{self, sanitize, shown_secret};

const EXAMPLES: &str = "\
Examples:
  mcpctl show time
  mcpctl get billing --json
  mcpctl show billing --show-secrets";

/// Arguments of `mcpctl show`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The server to show.
    #[arg(add = clap_complete::engine::ArgValueCandidates::new(super::complete::server_names))]
    pub name: String,
    /// Show literal env and header values instead of <redacted>.
    #[arg(long)]
    pub show_secrets: bool,
}

/// Print one server's definition.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let catalog = ctx.catalog()?;
    ctx.warn_untrusted();
    let def = catalog.get(&args.name)?;
    if ctx.json {
        output::print_json(&output::server_json(def, args.show_secrets))?;
        return Ok(ExitCode::Success);
    }
    // Every field on its own line, escaped: a definitions file cannot
    // reach the terminal or add lines.
    let mut lines = vec![
        format!("name:       {}", sanitize(&def.name)),
        format!("transport:  {}", def.transport),
        format!("enabled:    {}", if def.enabled { "yes" } else { "no" }),
        format!("autostart:  {}", if def.autostart { "yes" } else { "no" }),
    ];
    if let Some(label) = &def.label {
        lines.push(format!("label:      {}", sanitize(label)));
    }
    launch_lines(def, args.show_secrets, &mut lines);
    sandbox_lines(def, &mut lines);
    lines.push(format!(
        "timeout:    {}s (connect and discovery)",
        def.connect_budget().as_secs_f64()
    ));
    if let Some(protocol) = &def.protocol {
        lines.push(format!("protocol:   {}", sanitize(protocol)));
    }
    if let Some(auth) = &def.auth {
        auth_lines(auth, &mut lines);
    }
    lines.push(format!(
        "source:     {}",
        sanitize(&def.source.display().to_string())
    ));
    output::line(lines.join("\n"))?;
    Ok(ExitCode::Success)
}

/// What runs and where it is reached: command, args, cwd, env; URL, headers.
fn launch_lines(def: &ServerDef, show_secrets: bool, lines: &mut Vec<String>) {
    if let Some(process) = def.process() {
        lines.push(format!("command:    {}", sanitize(process.command)));
        if !process.args.is_empty() {
            lines.push(format!("args:       {}", sanitize(&process.args.join(" "))));
        }
        if let Some(cwd) = process.cwd {
            lines.push(format!(
                "cwd:        {}",
                sanitize(&cwd.display().to_string())
            ));
        }
        if !process.env.is_empty() {
            lines.push("env:".to_string());
            for (key, value) in process.env {
                lines.push(format!(
                    "  {}={}",
                    sanitize(key),
                    sanitize(&shown_secret(value, show_secrets))
                ));
            }
        }
    }
    if let Launch::Remote { url, headers, .. } = &def.launch {
        lines.push(format!(
            "url:        {}",
            sanitize(&crate::output::shown_url(url, show_secrets))
        ));
        if !headers.is_empty() {
            lines.push("headers:".to_string());
            for (key, value) in headers {
                lines.push(format!(
                    "  {}: {}",
                    sanitize(key),
                    sanitize(&shown_secret(value, show_secrets))
                ));
            }
        }
    }
}

/// The effective sandbox: its kind in words, a profile's paths and
/// network, and where the full rules are printed.
fn sandbox_lines(def: &ServerDef, lines: &mut Vec<String>) {
    use crate::defs::sandbox_kind::{SandboxKind, container_runtime, sandbox_kind};
    use crate::sandbox::Sandbox;
    let Some(kind) = sandbox_kind(def) else {
        return;
    };
    let name = sanitize(&def.name);
    let said = match kind {
        SandboxKind::None => "none (files contained; no network at all)".to_string(),
        SandboxKind::Network => "network (files contained; outbound network open)".to_string(),
        SandboxKind::Profile => "profile (files contained; the paths and hosts below)".to_string(),
        SandboxKind::Off => "off (unconfined, knowingly)".to_string(),
        SandboxKind::Unset => format!(
            "unset (unconfined): the entry has no sandbox field; add one with `mcpctl sandbox {name} --set network`"
        ),
        SandboxKind::Container => {
            let runtime = def
                .process()
                .and_then(|p| container_runtime(p.command))
                .unwrap_or("its runtime");
            format!("container (contained by {runtime}; mcpctl does not nest a sandbox)")
        }
    };
    lines.push(format!("sandbox:    {said}"));
    if let Some(Sandbox::Profile(profile)) = &def.sandbox {
        for (key, list) in [("read", &profile.read), ("write", &profile.write)] {
            if !list.is_empty() {
                lines.push(format!("  {key}: {}", sanitize(&list.join(", "))));
            }
        }
        let out = &profile.outbound;
        let network = if out.insecure_allow_all {
            "outbound open (insecure_allow_all)".to_string()
        } else if out.allow_host.is_empty() {
            "none".to_string()
        } else {
            format!("only {}", sanitize(&out.allow_host.join(", ")))
        };
        lines.push(format!("  network: {network}"));
    }
    if matches!(
        kind,
        SandboxKind::None | SandboxKind::Network | SandboxKind::Profile
    ) {
        lines.push(format!(
            "  rules: `mcpctl sandbox {name}` prints what it may read, write and reach"
        ));
    }
}

/// The OAuth settings, as the file holds them.
fn auth_lines(auth: &OAuth, lines: &mut Vec<String>) {
    lines.push(format!("auth:       oauth ({})", auth.grant.as_str()));
    let fields = [
        ("client_id", auth.client_id.as_deref()),
        ("client_secret", auth.client_secret.as_deref()),
        ("token_auth", auth.token_endpoint_auth.map(|m| m.as_str())),
        ("client_key", auth.client_key.as_deref()),
        ("scope", auth.scope.as_deref()),
        ("client_md", auth.client_metadata_url.as_deref()),
    ];
    for (key, value) in fields {
        if let Some(value) = value {
            lines.push(format!("  {key}: {}", sanitize(value)));
        }
    }
}
