//! `mcpctl grant NAME TOOL…|--all-current`: expose tools to `mcpctl serve`.
//!
//! A grant is written into the server's entry (`tools`, or
//! `profiles.<PROFILE>`) through `defs/`, keeping the file's shape, with
//! each tool's catalog hash as the supervisor lists it now.

use indexmap::IndexMap;
use serde_json::json;

use super::Context;
use super::lifecycle;
use super::toggle::edit_file;
use crate::defs::edit::Edit;
use crate::defs::grants::{self, PROFILES_KEY, TOOLS_KEY, ToolGrants};
use crate::error::{ExitCode, Result};
use crate::output;
use crate::serve::{ServeError, catalog, naming};
use crate::supervisor::protocol::{Body, HeldTool, Op, ToolInfo};

const EXAMPLES: &str = "\
Nothing is exposed by `mcpctl serve` until it is granted. A grant records
the tool's name and its catalog hash (title, description, schemas and
annotations, as the lockfile hashes them); if
the tool changes later, it is hidden and refused until granted again.
--all-current grants the tools the server lists now, never future ones.
The server must be running (`mcpctl start NAME`) so its catalog is known.

Exit codes: 0 granted, 2 a name agents would see breaks the MCP tool-name
rules, 3 unknown server or tool, 4 the server is not running, the tool
is held back for lockfile drift, or another server's granted tool would
be seen under the same name, 5 supervisor unreachable.

Examples:
  mcpctl grant everything echo get-sum
  mcpctl grant time --all-current
  mcpctl grant everything echo --profile reviewer
  mcpctl grant time get_current_time --json";

/// Arguments of `mcpctl grant`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The server.
    #[arg(value_name = "NAME", add = clap_complete::engine::ArgValueCandidates::new(super::complete::server_names))]
    pub name: String,
    /// The tools to grant.
    #[arg(value_name = "TOOL", required_unless_present = "all_current")]
    pub tools: Vec<String>,
    /// Grant every tool the server lists now (never tools that appear later).
    #[arg(long, conflicts_with = "tools")]
    pub all_current: bool,
    /// Grant to this profile (`serve --profile NAME`) instead of the default.
    #[arg(long, value_name = "PROFILE")]
    pub profile: Option<String>,
    /// The separator `serve` will put between server and tool (checked
    /// against the MCP tool-name rules).
    #[arg(long, value_name = "SEP", default_value = naming::DEFAULT_SEPARATOR)]
    pub separator: String,
}

/// Grant the tools.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    if let Some(why) = naming::separator_problem(&args.separator) {
        return Err(ServeError::Usage(why).into());
    }
    if let Some(profile) = &args.profile {
        check_profile(profile)?;
    }
    let catalog = ctx.catalog()?;
    let def = catalog.get(&args.name)?.clone();
    let (tools, held) = listed_now(ctx, &args.name)?;
    let chosen = pick(&args, &tools, &held)?;
    check_exposed_names(&catalog, &args, &chosen)?;
    let mut set: ToolGrants = def
        .grants
        .of(args.profile.as_deref())
        .cloned()
        .unwrap_or_default();
    let mut granted = Vec::new();
    for tool in &chosen {
        let hash = catalog::hash(tool);
        set.insert(tool.name.clone(), Some(hash.clone()));
        granted.push(json!({"tool": tool.name, "hash": hash,
            "exposed": naming::exposed(&args.name, &args.separator, &tool.name)}));
    }
    write(&def, args.profile.as_deref(), set)?;
    if ctx.json {
        output::print_json(&json!({
            "name": args.name,
            "profile": args.profile,
            "file": def.source,
            "granted": granted,
        }))?;
    } else {
        print_granted(&args, &def.source, &chosen)?;
    }
    Ok(ExitCode::Success)
}

/// The tools the supervisor lists for `name` now, and those it holds back.
fn listed_now(ctx: &Context, name: &str) -> Result<(Vec<ToolInfo>, Vec<HeldTool>)> {
    let Some(mut client) = lifecycle::connect_existing(ctx)? else {
        return Err(ServeError::NotRunning(name.to_string()).into());
    };
    let body = client
        .request(Op::Tools {
            name: name.to_string(),
        })
        .map_err(|e| match e {
            crate::supervisor::SupervisorError::Remote(w)
                if w.code == crate::supervisor::protocol::ErrorCode::Conflict =>
            {
                ServeError::NotRunning(name.to_string()).into()
            }
            other => crate::error::Error::from(other),
        })?;
    let Body::Tools { tools, held, .. } = body else {
        return Err(ServeError::Failed("unexpected answer from the supervisor".into()).into());
    };
    Ok((tools, held))
}

/// The tools named (or, with `--all-current`, every one listed); a held
/// or unknown name is refused.
fn pick<'a>(args: &Args, tools: &'a [ToolInfo], held: &[HeldTool]) -> Result<Vec<&'a ToolInfo>> {
    if args.all_current {
        return Ok(tools.iter().collect());
    }
    let mut chosen = Vec::new();
    for name in &args.tools {
        if let Some(h) = held.iter().find(|h| &h.name == name) {
            return Err(ServeError::Held {
                server: args.name.clone(),
                tool: name.clone(),
                reason: h.reason.clone(),
            }
            .into());
        }
        let Some(tool) = tools.iter().find(|t| &t.name == name) else {
            return Err(ServeError::NoSuchTool {
                server: args.name.clone(),
                tool: name.clone(),
                known: tools
                    .iter()
                    .map(|t| t.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            }
            .into());
        };
        chosen.push(tool);
    }
    Ok(chosen)
}

/// `granted N tools of `NAME` [to profile `P`] in FILE: …`.
fn print_granted(args: &Args, file: &std::path::Path, chosen: &[&ToolInfo]) -> Result<()> {
    let names: Vec<String> = chosen
        .iter()
        .map(|t| output::sanitize(&t.name).into_owned())
        .collect();
    let to = args
        .profile
        .as_deref()
        .map(|p| format!(" to profile `{p}`"))
        .unwrap_or_default();
    output::line(format!(
        "granted {} tool{} of `{}`{to} in {}: {}",
        names.len(),
        if names.len() == 1 { "" } else { "s" },
        args.name,
        file.display(),
        if names.is_empty() {
            "(it lists none)".to_string()
        } else {
            names.join(", ")
        }
    ))?;
    Ok(())
}

/// Refuse a tool whose exposed name breaks the MCP tool-name rules, or
/// that another server's granted tool (in the same profile) already has:
/// `serve` could expose only one of them.
fn check_exposed_names(
    catalog: &crate::defs::Catalog,
    args: &Args,
    chosen: &[&ToolInfo],
) -> Result<()> {
    for tool in chosen {
        let exposed = naming::exposed(&args.name, &args.separator, &tool.name);
        if let Some(why) = naming::problem(&exposed) {
            return Err(ServeError::BadName {
                server: args.name.clone(),
                tool: tool.name.clone(),
                exposed,
                why,
            }
            .into());
        }
    }
    let profile = args.profile.as_deref();
    for other in catalog.servers().iter().filter(|d| d.name != args.name) {
        let Some(set) = other.grants.of(profile) else {
            continue;
        };
        for other_tool in set.keys() {
            let taken = naming::exposed(&other.name, &args.separator, other_tool);
            if let Some(tool) = chosen
                .iter()
                .find(|t| naming::exposed(&args.name, &args.separator, &t.name) == taken)
            {
                return Err(ServeError::Collision {
                    server: args.name.clone(),
                    tool: output::sanitize(&tool.name).into_owned(),
                    exposed: output::sanitize(&taken).into_owned(),
                    other_server: other.name.clone(),
                    other_tool: output::sanitize(other_tool).into_owned(),
                }
                .into());
            }
        }
    }
    Ok(())
}

/// A profile name is a file key and shows in logs: keep it to the server
/// name rules.
pub fn check_profile(profile: &str) -> Result<()> {
    if let Some(finding) = crate::validate::name::check(profile) {
        return Err(ServeError::Usage(format!(
            "invalid profile name: {}",
            finding.message.replace("server name", "profile name")
        ))
        .into());
    }
    Ok(())
}

/// Write `set` as the grants of `profile` in `def`'s entry (removing the
/// key when it is empty).
pub fn write(def: &crate::defs::ServerDef, profile: Option<&str>, set: ToolGrants) -> Result<()> {
    let edit = match profile {
        None => Edit::SetField {
            name: def.name.clone(),
            key: TOOLS_KEY,
            value: (!set.is_empty()).then(|| grants::tool_grants_value(&set)),
        },
        Some(profile) => {
            let mut profiles: IndexMap<String, ToolGrants> = def.grants.profiles.clone();
            if set.is_empty() {
                profiles.shift_remove(profile);
            } else {
                profiles.insert(profile.to_string(), set);
            }
            Edit::SetField {
                name: def.name.clone(),
                key: PROFILES_KEY,
                value: (!profiles.is_empty()).then(|| grants::profiles_value(&profiles)),
            }
        }
    };
    edit_file(&def.source, std::slice::from_ref(&def.name), false, |_| {
        edit.clone()
    })
}
