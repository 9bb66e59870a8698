//! `add NAME` from the official MCP Registry: resolve the entry into a
//! definition, then issue 11's supply-chain checks on the package chosen.

use std::path::Path;

use super::args::Args;
use super::flags::{apply_common_flags, parse_pairs};
use crate::cli::Context;
use crate::cli::save::RegistryNotes;
use crate::defs::{ServerDef, vars};
use crate::error::Result;
use crate::output;
use crate::registry::RegistryClient;
use crate::registry::install::InstallPlan;
use crate::registry::supply_chain::{self, Ownership};
use crate::validate::{Finding, Rule, name, pins};

/// What the registry path of `add` hands back: the definition, the secrets
/// stored literally, the notes, and the supply-chain warnings.
pub(super) type RegistryDefinition = (
    ServerDef,
    Vec<crate::registry::install::SecretValue>,
    RegistryNotes,
    Vec<Finding>,
);

/// Resolve a registry entry into a definition (issue 4): exact name,
/// chosen package or remote, inputs from flags or prompts, `${VAR}` secrets.
pub(super) fn registry_definition(
    ctx: &Context,
    args: &Args,
    spec: &str,
    target: &Path,
) -> Result<RegistryDefinition> {
    use crate::registry::ClientOptions;
    use crate::registry::install::{self, InstallRequest, Selector};

    let mut req = InstallRequest::from_spec(spec);
    req.selector = match (&args.package, &args.remote) {
        (Some(kind), _) => Some(Selector::parse_package(kind)?),
        (None, Some(transport)) => Some(Selector::parse_remote(Some(transport))?),
        (None, None) => None,
    };
    req.as_remote = args.as_remote;
    req.env = parse_pairs(&args.env, '=', "--env", "NAME=value")?;
    req.headers = parse_pairs(&args.headers, ':', "--header", "'X-API-Key: …'")?;
    req.args = parse_pairs(&args.registry_args, '=', "--arg", "name=value")?;
    req.allow_deprecated = args.allow_deprecated;
    req.store_secret = args.store_secret;
    req.trust_runtime_args = args.trust_runtime_args;
    req.interactive = ctx.interactive;

    let client = RegistryClient::new(ClientOptions::from_env(args.registry.clone(), args.refresh))?;
    let runtime = crate::cli::runtime()?;
    let plan = runtime.block_on(install::plan_install(&client, &req))?;
    // On stderr even with --json: the notes (secrets to export, HTTP
    // packages to start first) matter to scripts too.
    output::note(format!(
        "{}@{} from {}: {}",
        output::sanitize(&plan.registry_name),
        output::sanitize(&plan.version),
        client.base_url(),
        plan.chosen
    ));
    if let Some(process) = plan.def.process() {
        // What runs, before anything is written or run.
        output::note(format!(
            "command: {}",
            install::command_line(process.command, process.args)
        ));
    }
    let supply = supply_chain_checks(&runtime, &client, &plan, target, args.save.force)?;
    let notes = (plan.suggested_name.clone(), plan.notes);
    let mut def = plan.def;
    def.name = args
        .name
        .clone()
        .unwrap_or_else(|| name::suggest(&plan.suggested_name));
    apply_common_flags(&mut def, args, target)?;
    // The file gets `${VAR}` references; the check before save still needs
    // the values the operator just typed or passed.
    for (name, value) in &plan.secret_env {
        vars::provide(name, value.expose());
    }
    Ok((def, plan.stored_secrets, notes, supply))
}

/// Issue 11's registry checks on the package `add NAME` chose: its
/// ownership marker must name the entry (refused unless `--force`), and a
/// near-identical name with more versions is a warning. A package registry
/// that cannot be asked is a warning: nothing was verified either way.
fn supply_chain_checks(
    runtime: &tokio::runtime::Runtime,
    client: &RegistryClient,
    plan: &InstallPlan,
    target: &Path,
    force: bool,
) -> Result<Vec<Finding>> {
    let mut warnings = Vec::new();
    if let Some(spec) = crate::lock::artifact::package(&plan.def) {
        let registries = crate::packages::Registries::for_file(target);
        let ownership = runtime.block_on(supply_chain::ownership(
            &registries,
            &spec,
            &plan.registry_name,
        ));
        warnings.extend(ownership_warning(ownership, &spec, plan, force)?);
    }
    if let Some((other, theirs, ours)) =
        runtime.block_on(supply_chain::typo_twin(client, &plan.registry_name))
    {
        warnings.push(warn(
            format!(
                "`{}` is within edit distance {} of `{other}`, which has more versions ({theirs} to {ours}): a likely typo-squat",
                plan.registry_name,
                supply_chain::TYPO_DISTANCE
            ),
            "check the name; if you meant the other, `mcpctl add` it instead",
        ));
    }
    if !warnings.is_empty() {
        // Printed now, before the check connects: the operator may want to stop.
        output::warn_findings(&warnings);
    }
    Ok(warnings)
}

/// A supply-chain warning with its hint.
fn warn(message: String, hint: &str) -> Finding {
    Finding::warning(Rule::Registry, message, hint.to_string())
}

/// What the package's ownership marker says: verified (a note), not the
/// entry's (refused unless `force`, then a warning), or not checked.
fn ownership_warning(
    ownership: std::result::Result<Ownership, crate::packages::PackageError>,
    spec: &pins::PackageSpec,
    plan: &InstallPlan,
    force: bool,
) -> Result<Option<Finding>> {
    let package = format!(
        "{}:{}",
        serde_json::to_value(spec.ecosystem)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default(),
        spec.spec
    );
    let marker = match spec.ecosystem {
        pins::Ecosystem::Npm => "mcpName",
        pins::Ecosystem::Pypi => "mcp-name",
        pins::Ecosystem::Oci => "label io.modelcontextprotocol.server.name",
    };
    // Refused unless --force; with it, a warning.
    let not_theirs = |says: &str, found: String| -> Result<Option<Finding>> {
        if !force {
            return Err(crate::registry::RegistryError::NotOwned {
                name: plan.registry_name.clone(),
                package: package.clone(),
                found,
            }
            .into());
        }
        Ok(Some(warn(
            format!(
                "{package} {says} `{}`: {found} (added anyway because of --force)",
                plan.registry_name
            ),
            "check you have the right server",
        )))
    };
    Ok(match ownership {
        Ok(Ownership::Verified) => {
            output::note(format!(
                "ownership verified: {} names `{}` ({marker})",
                output::sanitize(&package),
                output::sanitize(&plan.registry_name)
            ));
            None
        }
        Ok(Ownership::Mismatch { found }) => {
            not_theirs("does not belong to", format!("{marker} is `{found}`"))?
        }
        Ok(Ownership::Missing) => not_theirs("does not name", format!("it has no {marker}"))?,
        Ok(Ownership::Unchecked(why)) => Some(warn(why, "check the image's publisher by hand")),
        Err(err) => Some(warn(
            format!("the ownership of {package} was not verified: {err}"),
            "check the package registry configuration; `mcpctl pin --help` lists it",
        )),
    })
}
