//! The inputs an entry declares (environment variables, headers,
//! arguments): taken from flags, prompted for on a terminal, or reported
//! missing all at once; secrets become `${VAR}` references.

use super::forms::oci_image;
use super::launcher_args;
use super::*;

/// What an input resolved to.
pub(super) enum Value {
    /// Written as is.
    Literal(String),
    /// Written as `${NAME}`.
    Reference(String),
    /// Left out.
    Absent,
}

impl Value {
    /// The text written into the definition, `None` when left out.
    fn written(self) -> Option<String> {
        match self {
            Value::Literal(v) => Some(v),
            Value::Reference(r) => Some(format!("${{{r}}}")),
            Value::Absent => None,
        }
    }
}

/// Which flag supplies an input, for lookups and for error messages.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Env,
    Header,
    Argument,
    Variable,
}

impl Kind {
    fn label(self) -> &'static str {
        match self {
            Kind::Env => "environment variable",
            Kind::Header => "header",
            Kind::Argument => "argument",
            Kind::Variable => "variable",
        }
    }
}

/// `(command, args, env)` of a stdio launch.
pub(super) type StdioParts = (String, Vec<String>, IndexMap<String, String>);

pub(super) struct Inputs<'r, 'p> {
    pub(super) req: &'r InstallRequest,
    pub(super) prompter: Option<&'p mut dyn Prompter>,
    pub(super) missing: Vec<MissingInput>,
    pub(super) secret_env: IndexMap<String, SecretValue>,
    pub(super) references: Vec<String>,
    /// Values the operator typed or passed as flags: the only place a
    /// `${VAR}` other than mcpctl's own secret references may come from.
    pub(super) user_values: Vec<String>,
    /// Secret values written literally because of `--store-secret`.
    pub(super) stored_secrets: Vec<SecretValue>,
    /// Values known so far, by every name they may be referred to by, for
    /// `{…}` substitution in a package's transport URL.
    pub(super) resolved: IndexMap<String, String>,
}

/// An environment-variable-style name for a reference: `X-API-Key` → `X_API_KEY`.
pub(super) fn reference_name(name: &str) -> String {
    let mut out = crate::text::env_style(name.trim_start_matches('-'));
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

impl<'r, 'p> Inputs<'r, 'p> {
    /// Nothing resolved yet; `prompter` is `None` off a terminal.
    pub(super) fn new(req: &'r InstallRequest, prompter: Option<&'p mut dyn Prompter>) -> Self {
        Inputs {
            req,
            prompter,
            missing: Vec::new(),
            secret_env: IndexMap::new(),
            references: Vec::new(),
            user_values: Vec::new(),
            stored_secrets: Vec::new(),
            resolved: IndexMap::new(),
        }
    }
}

impl Inputs<'_, '_> {
    fn supplied(&self, kind: Kind, keys: &[&str]) -> Option<String> {
        let maps: Vec<&IndexMap<String, String>> = match kind {
            Kind::Env => vec![&self.req.env],
            Kind::Header => vec![&self.req.headers],
            Kind::Argument | Kind::Variable => vec![&self.req.args, &self.req.env],
        };
        for map in maps {
            for key in keys {
                if let Some(v) = map.get(*key) {
                    return Some(v.clone());
                }
                if kind == Kind::Header
                    && let Some((_, v)) = map.iter().find(|(k, _)| k.eq_ignore_ascii_case(key))
                {
                    return Some(v.clone());
                }
            }
        }
        None
    }

    fn flag_for(kind: Kind, name: &str) -> String {
        match kind {
            Kind::Env => format!("--env {name}=…"),
            Kind::Header => format!("--header '{name}: …'"),
            Kind::Argument | Kind::Variable => format!("--arg {name}=…"),
        }
    }

    /// Resolve one input. `keys[0]` is the name the user types; `reference`
    /// is the `${NAME}` used for a secret.
    fn value(
        &mut self,
        kind: Kind,
        keys: &[&str],
        reference: &str,
        input: &Input,
    ) -> Result<Value, RegistryError> {
        let display = keys[0];
        let supplied = self.supplied(kind, keys);
        let prompt_text = match &input.description {
            Some(d) => format!("{display} ({d})"),
            None => display.to_string(),
        };
        if input.is_secret {
            return self.secret_value(kind, display, supplied, &prompt_text, reference, input);
        }
        let prompt_text = match &input.placeholder {
            Some(example) => format!("{prompt_text}, e.g. {example}"),
            None => prompt_text,
        };
        let value = match supplied {
            Some(v) => {
                self.user_values.push(v.clone());
                Some(v)
            }
            None => self.default_or_asked(&prompt_text, input)?,
        };
        match value {
            Some(v) => {
                if !input.choices.is_empty() && !input.choices.contains(&v) {
                    return Err(RegistryError::InvalidChoice {
                        input: display.to_string(),
                        choices: input.choices.clone(),
                    });
                }
                Ok(Value::Literal(v))
            }
            None if input.is_required => {
                self.push_missing(kind, display, input);
                Ok(Value::Absent)
            }
            None => Ok(Value::Absent),
        }
    }

    /// A plain input no flag supplied: its default, or (when required, on a
    /// terminal) one of its choices or what the operator types.
    fn default_or_asked(
        &mut self,
        prompt_text: &str,
        input: &Input,
    ) -> Result<Option<String>, RegistryError> {
        Ok(match (&input.default, input.is_required) {
            (Some(d), _) => Some(d.clone()),
            (None, true) => match self.prompter.as_deref_mut() {
                Some(p) if !input.choices.is_empty() => {
                    let i = p.select(prompt_text, &input.choices)?;
                    input.choices.get(i).cloned()
                }
                Some(p) => {
                    let typed = p.input(prompt_text, None)?;
                    self.user_values.push(typed.clone());
                    Some(typed)
                }
                None => None,
            },
            (None, false) => None,
        })
    }

    /// A secret input: a reference to a variable already exported, the
    /// supplied or typed value kept for the check only (written as
    /// `${reference}`), or written literally with `--store-secret`.
    fn secret_value(
        &mut self,
        kind: Kind,
        display: &str,
        supplied: Option<String>,
        prompt_text: &str,
        reference: &str,
        input: &Input,
    ) -> Result<Value, RegistryError> {
        let value = match supplied {
            Some(v) => Some(v),
            None if !self.req.store_secret && std::env::var_os(reference).is_some() => {
                self.references.push(reference.to_string());
                return Ok(Value::Reference(reference.to_string()));
            }
            None if input.is_required => match self.prompter.as_deref_mut() {
                Some(p) => Some(p.secret(prompt_text)?),
                None => None,
            },
            None => None,
        };
        Ok(match value {
            Some(v) if self.req.store_secret => {
                self.user_values.push(v.clone());
                self.stored_secrets.push(SecretValue(v.clone()));
                Value::Literal(v)
            }
            Some(v) => {
                self.secret_env
                    .insert(reference.to_string(), SecretValue(v));
                if !self.references.iter().any(|r| r == reference) {
                    self.references.push(reference.to_string());
                }
                Value::Reference(reference.to_string())
            }
            None if input.is_required => {
                self.push_missing(kind, display, input);
                Value::Absent
            }
            None => Value::Absent,
        })
    }

    fn push_missing(&mut self, kind: Kind, name: &str, input: &Input) {
        if self.missing.iter().any(|m| m.name == name) {
            return;
        }
        self.missing.push(MissingInput {
            name: name.to_string(),
            kind: kind.label(),
            description: input.description.clone(),
            flag: Self::flag_for(kind, name),
            secret: input.is_secret,
        });
    }

    /// Substitute `{var}` in a publisher-fixed `template` from `variables`.
    /// Returns `None` when a required variable is missing.
    ///
    /// `parent` is the input the template belongs to. A secret parent makes
    /// every part secret (`Bearer {token}` in a secret header). For env
    /// vars and headers (`implicit`), an undeclared `{name}` is an input of
    /// its own, with the parent's description; elsewhere it stays as it is,
    /// as the schema says.
    fn template(
        &mut self,
        template: &str,
        variables: &IndexMap<String, Input>,
        kind: Kind,
        parent: &Input,
        implicit: bool,
    ) -> Result<Option<String>, RegistryError> {
        let mut out = String::new();
        let mut rest = template;
        let mut complete = true;
        while let Some(start) = rest.find('{') {
            let Some(len) = rest[start + 1..].find('}') else {
                break;
            };
            let var = &rest[start + 1..start + 1 + len];
            out.push_str(&rest[..start]);
            let is_name = !var.is_empty()
                && var
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            let declared = match variables.get(var) {
                Some(input) => Some(input.clone()),
                None if implicit && is_name => Some(Input {
                    description: parent.description.clone(),
                    is_required: true,
                    ..Input::default()
                }),
                None => None,
            };
            let declared = declared.map(|mut input| {
                input.is_secret |= parent.is_secret;
                input
            });
            match declared.as_ref() {
                Some(input) => {
                    // `KEY={var}` names the reference after KEY.
                    let prefix = &rest[..start];
                    let key = prefix
                        .strip_suffix('=')
                        .filter(|k| {
                            !k.is_empty()
                                && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                                && out.len() == prefix.len()
                        })
                        .map(str::to_string);
                    let reference = key.clone().unwrap_or_else(|| reference_name(var));
                    let keys: Vec<&str> = match &key {
                        Some(k) => vec![k.as_str(), var],
                        None => vec![var, reference.as_str()],
                    };
                    // `KEY={var}` is an environment variable for the child (e.g.
                    // `docker run -e KEY={var}`): supplied with `--env KEY=…`.
                    let kind = if key.is_some() {
                        Kind::Env
                    } else if kind == Kind::Header {
                        Kind::Variable
                    } else {
                        kind
                    };
                    match self.value(kind, &keys, &reference, input)?.written() {
                        Some(v) => out.push_str(&v),
                        None => complete = false,
                    }
                }
                None => out.push_str(&rest[start..start + len + 2]),
            }
            rest = &rest[start + len + 2..];
        }
        out.push_str(rest);
        Ok(complete.then_some(out))
    }

    /// Replace `{name}` with values resolved so far (for a package's URL).
    pub(super) fn substitute_known(&self, template: &str) -> String {
        let mut out = template.to_string();
        for (name, value) in &self.resolved {
            out = out.replace(&format!("{{{name}}}"), value);
        }
        out
    }

    fn remember(&mut self, names: &[&str], value: &str) {
        for n in names {
            self.resolved.insert(n.to_string(), value.to_string());
        }
    }

    /// Environment variables: literal values, `${VAR}` for secrets.
    fn env(&mut self, vars: &[KeyValueInput]) -> Result<IndexMap<String, String>, RegistryError> {
        let mut env = IndexMap::new();
        for var in vars {
            let written = match &var.input.value {
                Some(template) => {
                    self.template(template, &var.variables, Kind::Env, &var.input, true)?
                }
                None => self
                    .value(Kind::Env, &[&var.name], &var.name, &var.input)?
                    .written(),
            };
            if let Some(v) = written {
                self.remember(&[&var.name], &v);
                env.insert(var.name.clone(), v);
            }
        }
        Ok(env)
    }

    /// Headers for a remote: literal values, `${VAR}` for secrets.
    pub(super) fn headers(
        &mut self,
        headers: &[KeyValueInput],
    ) -> Result<IndexMap<String, String>, RegistryError> {
        let mut out = IndexMap::new();
        for header in headers {
            let reference = reference_name(&header.name);
            let written = match &header.input.value {
                // A user-supplied header replaces the template wholesale.
                Some(_) if self.supplied(Kind::Header, &[&header.name]).is_some() => self
                    .value(Kind::Header, &[&header.name], &reference, &header.input)?
                    .written(),
                Some(template) => self.template(
                    template,
                    &header.variables,
                    Kind::Header,
                    &header.input,
                    true,
                )?,
                None => self
                    .value(Kind::Header, &[&header.name], &reference, &header.input)?
                    .written(),
            };
            if let Some(v) = written {
                out.insert(header.name.clone(), v);
            }
        }
        Ok(out)
    }

    pub(super) fn remote(
        &mut self,
        remote: &Remote,
    ) -> Result<(Transport, String, IndexMap<String, String>), RegistryError> {
        let transport = Transport::from_spelling(&remote.kind).unwrap_or(Transport::StreamableHttp);
        let url = self
            .template(
                &remote.url,
                &remote.variables,
                Kind::Variable,
                &Input::default(),
                false,
            )?
            .unwrap_or_else(|| remote.url.clone());
        let headers = self.headers(&remote.headers)?;
        Ok((transport, url, headers))
    }

    /// Render arguments into `out`; `skip` drops ones mcpctl already emits.
    fn arguments(
        &mut self,
        args: &[Argument],
        out: &mut Vec<String>,
        skip: &dyn Fn(usize, &Argument) -> bool,
    ) -> Result<(), RegistryError> {
        for (index, arg) in args.iter().enumerate() {
            if skip(index, arg) {
                continue;
            }
            let flag_name = arg.name.clone().unwrap_or_default();
            let label = if arg.is_named() {
                flag_name.trim_start_matches('-').to_string()
            } else {
                arg.value_hint
                    .clone()
                    .unwrap_or_else(|| format!("arg{}", index + 1))
            };
            let value = match &arg.input.value {
                Some(template) => {
                    self.template(template, &arg.variables, Kind::Argument, &arg.input, false)?
                }
                None => {
                    let reference = reference_name(&label);
                    self.value(Kind::Argument, &[&label], &reference, &arg.input)?
                        .written()
                }
            };
            let Some(value) = value else { continue };
            self.remember(&[&label, &flag_name], &value);
            if arg.is_named() {
                if flag_name.is_empty() {
                    continue;
                }
                if arg.input.format.as_deref() == Some("boolean") {
                    if value == "true" {
                        out.push(flag_name);
                    }
                    continue;
                }
                out.push(flag_name);
            }
            out.push(value);
        }
        Ok(())
    }

    /// Map a package to `(command, args, env)`: its environment, then the
    /// launcher and runtime arguments of its registry type, then its own
    /// package arguments.
    pub(super) fn package(
        &mut self,
        package: &Package,
        version: &str,
        notes: &mut Vec<String>,
    ) -> Result<StdioParts, RegistryError> {
        let env = self.env(&package.environment_variables)?;
        let hint = package
            .runtime_hint
            .as_deref()
            .map(str::trim)
            .filter(|h| !h.is_empty());
        let mut launch = PackageLaunch {
            package,
            version,
            hint,
            args: Vec::new(),
            runtime: Vec::new(),
            notes,
        };
        let command = match package.registry_type.as_str() {
            "npm" => self.npm_launch(&mut launch)?,
            "pypi" => self.pypi_launch(&mut launch)?,
            _ => self.oci_launch(&mut launch, &env)?,
        };
        let mut args = std::mem::take(&mut launch.args);
        self.arguments(&package.package_arguments, &mut args, &|_, _| false)?;
        self.vet_launch(&command, &args, &env, &mut launch)?;
        Ok((command, args, env))
    }

    /// Refuse (or, with `--trust-runtime-args`, note) what the publisher
    /// put on the launcher's command line or in its environment that
    /// changes what is fetched or widens what runs (see
    /// [`launcher_args`]).
    fn vet_launch(
        &self,
        command: &str,
        args: &[String],
        env: &IndexMap<String, String>,
        launch: &mut PackageLaunch<'_>,
    ) -> Result<(), RegistryError> {
        let subject = launcher_args::Subject {
            identifier: &launch.package.identifier,
            version: launch.version,
            operator: &self.user_values,
        };
        let verdict = launcher_args::check_spec(&launch.package.registry_type, &subject)
            .and_then(|()| launcher_args::check(command, &launch.runtime, &subject))
            .and_then(|()| launcher_args::check_env(env, &self.user_values));
        let Err(refused) = verdict else {
            return Ok(());
        };
        if !self.missing.is_empty() {
            // The plan ends with every missing input listed; once they
            // are given, this refuses the complete line.
            return Ok(());
        }
        if self.req.trust_runtime_args {
            launch.notes.push(format!(
                "written as published because of --trust-runtime-args: `{}` {}",
                refused.argument, refused.why
            ));
            return Ok(());
        }
        Err(RegistryError::UnsafeLaunch {
            name: self.req.name.clone(),
            argument: refused.argument,
            why: refused.why,
            command: launcher_args::command_line(command, args),
        })
    }

    /// `npx -y [runtime args] pkg@version` (or `bunx`); returns the command.
    fn npm_launch(&mut self, to: &mut PackageLaunch<'_>) -> Result<String, RegistryError> {
        let command = launcher(to.hint, "npx", &["npx", "bunx"], to.notes);
        let mut runtime = Vec::new();
        self.arguments(&to.package.runtime_arguments, &mut runtime, &|_, _| false)?;
        if command == "npx" && !runtime.iter().any(|a| a == "-y" || a == "--yes") {
            to.args.push("-y".to_string());
        }
        to.args.extend(runtime.iter().cloned());
        to.runtime = runtime;
        to.args
            .push(format!("{}@{}", to.package.identifier, to.version));
        Ok(command)
    }

    /// `uvx [runtime args] pkg==version` (or `pipx run`); returns the command.
    fn pypi_launch(&mut self, to: &mut PackageLaunch<'_>) -> Result<String, RegistryError> {
        let command = launcher(to.hint, "uvx", &["uvx", "pipx"], to.notes);
        if command == "pipx" {
            to.args.push("run".to_string());
        }
        let mut runtime = Vec::new();
        self.arguments(&to.package.runtime_arguments, &mut runtime, &|_, _| false)?;
        to.args.extend(runtime.iter().cloned());
        to.runtime = runtime;
        to.args
            .push(format!("{}=={}", to.package.identifier, to.version));
        Ok(command)
    }

    /// `docker run -i --rm [runtime args] -e NAME… image:tag` (or podman),
    /// leaving out runtime arguments mcpctl writes itself; returns the
    /// command.
    fn oci_launch(
        &mut self,
        to: &mut PackageLaunch<'_>,
        env: &IndexMap<String, String>,
    ) -> Result<String, RegistryError> {
        let command = launcher(to.hint, "docker", &["docker", "podman"], to.notes);
        let image = oci_image(&to.package.identifier, Some(to.version));
        to.args.extend(["run", "-i", "--rm"].map(String::from));
        let mut runtime = Vec::new();
        let dropped = std::cell::RefCell::new(Vec::new());
        let redundant = oci_redundant(&to.package.identifier, &image);
        let skip = |index: usize, arg: &Argument| {
            let skipped = redundant(index, arg);
            if skipped {
                let value = arg.input.value.as_deref().unwrap_or("");
                let shown = arg.name.as_deref().unwrap_or(value);
                dropped.borrow_mut().push(shown.to_string());
            }
            skipped
        };
        self.arguments(&to.package.runtime_arguments, &mut runtime, &skip)?;
        let dropped = dropped.into_inner();
        if !dropped.is_empty() {
            to.notes.push(format!(
                "left out runtime arguments mcpctl already writes ({}): the launch is `docker run -i --rm … {image}`",
                dropped.join(", ")
            ));
        }
        to.args.extend(runtime.iter().cloned());
        to.runtime = runtime.clone();
        // The container sees only what `-e` passes through.
        for name in env.keys() {
            let passed = runtime.windows(2).any(|w| {
                (w[0] == "-e" || w[0] == "--env")
                    && (w[1] == *name || w[1].starts_with(&format!("{name}=")))
            });
            if !passed {
                to.args.push("-e".to_string());
                to.args.push(name.clone());
            }
        }
        to.args.push(image);
        Ok(command)
    }
}

/// One package being mapped to its launch: what each registry type's
/// launcher reads (the package, its pinned version, its runtime hint) and
/// writes (the arguments so far, the notes).
struct PackageLaunch<'a> {
    package: &'a Package,
    version: &'a str,
    hint: Option<&'a str>,
    args: Vec<String>,
    /// The publisher's runtime arguments as written, for [`launcher_args`].
    runtime: Vec<String>,
    notes: &'a mut Vec<String>,
}

/// Whether a runtime argument of an OCI package repeats what mcpctl writes
/// itself (`run`, `-i`, `--rm`, the image in any spelling): publishers often
/// list the whole `docker run` line.
fn oci_redundant(identifier: &str, image: &str) -> impl Fn(usize, &Argument) -> bool + use<> {
    let bare = identifier.split('@').next().unwrap_or_default().to_string();
    let bare_no_tag = match bare.rsplit_once(':') {
        Some((repo, tag)) if !tag.contains('/') => repo.to_string(),
        _ => bare.clone(),
    };
    let image = image.to_string();
    move |index: usize, arg: &Argument| {
        let value = arg.input.value.as_deref().unwrap_or("");
        if arg.is_named() {
            let name = arg.name.as_deref().unwrap_or("");
            matches!(name, "-i" | "--interactive" | "--rm") && (value.is_empty() || value == "true")
        } else {
            (index == 0 && value == "run")
                || value == bare_no_tag
                || value == bare
                || value == image
        }
    }
}
