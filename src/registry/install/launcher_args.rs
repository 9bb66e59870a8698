//! What a registry entry may put on its launcher's command line.
//!
//! A publisher's `runtimeArguments` go between the launcher and the
//! package (`npx -y [here] pkg@1.2.3`, `docker run -i --rm [here] image`),
//! where they are the launcher's own options: `--registry` or `-p
//! other-pkg` change what npx fetches, `--privileged` or `-v /:/host` what
//! a container may touch, and the package checks (its ownership marker,
//! its pin) look at the package alone. So each launcher has an allow-list
//! of the options known to be harmless, with the values they may take;
//! anything else is refused before anything is written or run. The same
//! goes for a declared environment variable that configures the launcher
//! itself (`NPM_CONFIG_REGISTRY`, `UV_INDEX_URL`, `DOCKER_HOST`, …) with a
//! value the operator did not give.

/// `command args…` as one line a shell would read back (a token with a
/// space, quote or other shell character single-quoted), for showing what
/// is written before it is.
pub fn command_line(command: &str, args: &[String]) -> String {
    std::iter::once(command)
        .chain(args.iter().map(String::as_str))
        .map(|token| {
            let plain = !token.is_empty()
                && token
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "@%+=:,./_-{}$".contains(c));
            if plain {
                token.to_string()
            } else {
                format!("'{}'", token.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Why one argument may not be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// The argument as published (e.g. `--registry`, `-v /:/host`).
    pub argument: String,
    /// What it would do.
    pub why: String,
}

/// The package being launched, and what the operator typed.
pub(super) struct Subject<'a> {
    /// The package (npm or PyPI name, image).
    pub identifier: &'a str,
    /// Its pinned version.
    pub version: &'a str,
    /// Values the operator typed or passed as flags: a host path mounted
    /// into a container is allowed when it is one of them.
    pub operator: &'a [String],
}

/// What an allowed option's value may be.
#[derive(Clone, Copy)]
enum Rule {
    /// A flag without a value.
    Flag,
    /// Any value.
    Any,
    /// One of these.
    OneOf(&'static [&'static str]),
    /// A Python version such as `3.12`.
    PythonVersion,
    /// The package being launched itself (or, as the last option, nothing:
    /// the package spec mcpctl writes next is its value).
    ThisPackage,
    /// A container port publication.
    Port,
    /// A container volume: a named volume, a container path, or a host
    /// path the operator gave.
    Volume,
    /// A `--mount` specification, judged as [`Rule::Volume`].
    Mount,
}

/// One allowed option, under all its spellings.
type Allowed = (&'static [&'static str], Rule);

const PYPI_INDEX: &[&str] = &["https://pypi.org/simple", "https://pypi.org/simple/"];

const NPX: &[Allowed] = &[
    (
        &["-y", "--yes", "-q", "--quiet", "--silent", "--no"],
        Rule::Flag,
    ),
    (
        &[
            "--prefer-offline",
            "--prefer-online",
            "--no-audit",
            "--no-fund",
        ],
        Rule::Flag,
    ),
    (
        &["--loglevel"],
        Rule::OneOf(&["silent", "error", "warn", "notice", "http", "info"]),
    ),
    (&["-p", "--package"], Rule::ThisPackage),
];

const BUNX: &[Allowed] = &[
    (
        &["--bun", "--silent", "--verbose", "--no-install"],
        Rule::Flag,
    ),
    (&["-p", "--package"], Rule::ThisPackage),
];

const UVX: &[Allowed] = &[
    (
        &["-q", "--quiet", "-v", "--verbose", "--no-progress"],
        Rule::Flag,
    ),
    (
        &[
            "--offline",
            "--isolated",
            "--no-cache",
            "-n",
            "--native-tls",
        ],
        Rule::Flag,
    ),
    (&["--no-python-downloads", "--refresh"], Rule::Flag),
    (&["-p", "--python"], Rule::PythonVersion),
    (&["--from"], Rule::ThisPackage),
    (
        &["--default-index", "--index-url", "-i"],
        Rule::OneOf(PYPI_INDEX),
    ),
];

const PIPX: &[Allowed] = &[
    (
        &["-q", "--quiet", "-v", "--verbose", "--no-cache"],
        Rule::Flag,
    ),
    (&["--python"], Rule::PythonVersion),
    (&["--spec"], Rule::ThisPackage),
    (&["--index-url", "-i"], Rule::OneOf(PYPI_INDEX)),
];

const CONTAINER: &[Allowed] = &[
    (
        &["-i", "--interactive", "--rm", "-t", "--tty", "-it", "-ti"],
        Rule::Flag,
    ),
    (&["--init", "--read-only"], Rule::Flag),
    (&["-e", "--env"], Rule::Any),
    (&["-w", "--workdir", "-u", "--user", "--name"], Rule::Any),
    (&["-l", "--label", "--tmpfs", "--cap-drop"], Rule::Any),
    (&["-m", "--memory", "--cpus", "--platform"], Rule::Any),
    (&["--pull"], Rule::OneOf(&["always", "missing", "never"])),
    (&["--network", "--net"], Rule::OneOf(&["none", "bridge"])),
    (
        &["--security-opt"],
        Rule::OneOf(&["no-new-privileges", "no-new-privileges:true"]),
    ),
    (&["-p", "--publish"], Rule::Port),
    (&["-v", "--volume"], Rule::Volume),
    (&["--mount"], Rule::Mount),
];

/// The allow-list of `command`, and what a stray positional would be
/// taken as.
fn allowed(command: &str) -> (&'static [Allowed], &'static str) {
    match command {
        "npx" => (NPX, "the package to run"),
        "bunx" => (BUNX, "the package to run"),
        "uvx" => (UVX, "the tool to run"),
        "pipx" => (PIPX, "the app to run"),
        _ => (CONTAINER, "the image to run"),
    }
}

/// What a well-known dangerous option does, for the refusal.
fn known_harm(name: &str) -> Option<&'static str> {
    Some(match name {
        "--registry" | "--index" | "--extra-index-url" | "--find-links" | "-f" => {
            "fetches packages from a place the publisher chose"
        }
        "--index-url" | "-i" | "--default-index" => "fetches packages from another index",
        "--userconfig" | "--globalconfig" | "--prefix" | "--config-file" | "--cache" => {
            "makes the launcher read or write files the publisher chose"
        }
        "-c" | "--call" | "--node-options" | "--script-shell" | "--entrypoint" => {
            "runs a command the publisher chose instead of the package"
        }
        "--with" | "-w" | "--with-editable" | "--with-requirements" | "-r" => {
            "installs other packages beside the one checked"
        }
        "--privileged" | "--cap-add" | "--device" | "--security-opt" => {
            "gives the container powers over the host"
        }
        "--pid" | "--ipc" | "--uts" | "--userns" | "--network" | "--net" | "--cgroupns" => {
            "shares a namespace of the host (or of another container)"
        }
        "--env-file" | "--label-file" => "reads a file on the host",
        "--volumes-from" => "mounts another container's volumes",
        _ => return None,
    })
}

/// Check `tokens`, the publisher's runtime arguments as rendered for
/// `command`; `Err` names the first one refused.
pub(super) fn check(
    command: &str,
    tokens: &[String],
    subject: &Subject<'_>,
) -> Result<(), Refused> {
    let (list, positional) = allowed(command);
    let mut rest = tokens.iter().enumerate();
    while let Some((index, token)) = rest.next() {
        if !token.starts_with('-') || token == "-" {
            return Err(refused(token, format!("would be taken as {positional}")));
        }
        let (name, inline) = match token.split_once('=').filter(|_| token.starts_with("--")) {
            Some((name, value)) => (name, Some(value.to_string())),
            None => (token.as_str(), None),
        };
        let Some(&(_, rule)) = list.iter().find(|(names, _)| names.contains(&name)) else {
            let why = known_harm(name).unwrap_or("is not an option mcpctl knows to be safe here");
            return Err(refused(token, why.to_string()));
        };
        if matches!(rule, Rule::Flag) {
            if inline.is_some() {
                return Err(refused(token, "takes no value".into()));
            }
            continue;
        }
        let last = index + 1 == tokens.len();
        let value = match inline {
            Some(value) => Some(value),
            None => rest.next().map(|(_, v)| v.clone()),
        };
        let shown = match &value {
            Some(v) if !token.contains('=') => format!("{token} {v}"),
            _ => token.clone(),
        };
        match value {
            Some(value) => {
                value_allowed(name, rule, &value, subject).map_err(|why| refused(&shown, why))?
            }
            // `--from` / `-p` last: the package spec written next is its value.
            None if last && matches!(rule, Rule::ThisPackage) => {}
            None => return Err(refused(token, "has no value".into())),
        }
    }
    Ok(())
}

fn refused(argument: &str, why: String) -> Refused {
    Refused {
        argument: argument.to_string(),
        why,
    }
}

/// Whether `value` fits `rule`; `Err` says why not.
fn value_allowed(name: &str, rule: Rule, value: &str, subject: &Subject<'_>) -> Result<(), String> {
    let ok = match rule {
        Rule::Flag | Rule::Any => true,
        Rule::OneOf(values) => values.contains(&value),
        Rule::PythonVersion => {
            let parts: Vec<&str> = value.split('.').collect();
            parts.len() <= 3
                && parts
                    .iter()
                    .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
        }
        Rule::ThisPackage => names_package(value, subject),
        Rule::Port => value
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, ':' | '.' | '/' | '-' | '[' | ']')),
        Rule::Volume => {
            volume_source_allowed(value.split(':').next().unwrap_or(""), value, subject)
        }
        Rule::Mount => mount_allowed(value, subject),
    };
    if ok {
        return Ok(());
    }
    Err(match rule {
        Rule::ThisPackage => format!(
            "names `{value}`, not the package checked (`{}`)",
            subject.identifier
        ),
        Rule::Volume | Rule::Mount => {
            "mounts a host path the publisher chose (give the path yourself with --arg/--env, or mount a named volume)".into()
        }
        _ => known_harm(name)
            .map(|h| format!("with this value {h}"))
            .unwrap_or_else(|| format!("does not allow the value `{value}`")),
    })
}

/// Whether a launcher's package option names the package being launched:
/// the bare name, or the name at its pinned version (`pkg@1.2.3`,
/// `pkg==1.2.3`, extras allowed).
fn names_package(value: &str, subject: &Subject<'_>) -> bool {
    let id = subject.identifier.to_ascii_lowercase();
    let value = value.to_ascii_lowercase();
    let without_extras = match (value.find('['), value.find(']')) {
        (Some(open), Some(close)) if open < close => {
            format!("{}{}", &value[..open], &value[close + 1..])
        }
        _ => value.clone(),
    };
    let version = subject.version.to_ascii_lowercase();
    [
        id.clone(),
        format!("{id}@{version}"),
        format!("{id}=={version}"),
    ]
    .contains(&without_extras)
}

/// A `-v` source: a container path alone (an anonymous volume), a named
/// volume, or a host path the operator typed.
fn volume_source_allowed(source: &str, whole: &str, subject: &Subject<'_>) -> bool {
    let anonymous = !whole.contains(':') && whole.starts_with('/');
    let named = source
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric())
        && source
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
    anonymous || named || subject.operator.iter().any(|v| v == source)
}

/// A `--mount`: `type=volume` and `type=tmpfs` stay inside docker; a bind
/// mount's source must be a host path the operator typed.
fn mount_allowed(value: &str, subject: &Subject<'_>) -> bool {
    let field = |keys: &[&str]| {
        value.split(',').find_map(|part| {
            let (k, v) = part.split_once('=')?;
            keys.contains(&k.trim()).then(|| v.trim().to_string())
        })
    };
    match field(&["type"]).as_deref() {
        Some("volume") | Some("tmpfs") => {
            let source = field(&["source", "src"]).unwrap_or_default();
            source.is_empty() || volume_source_allowed(&source, &source, subject)
        }
        Some("bind") => {
            field(&["source", "src"]).is_some_and(|source| subject.operator.contains(&source))
        }
        _ => false,
    }
}

/// Environment variables that configure a launcher itself (where it
/// fetches from, what it loads), by prefix or exact name, uppercase.
const LAUNCHER_ENV: &[&str] = &[
    "NPM_CONFIG_",
    "NODE_OPTIONS",
    "NODE_PATH",
    "BUN_",
    "UV_",
    "PIP_",
    "PIPX_",
    "PYTHON",
    "DOCKER_",
    "CONTAINER_",
    "CONTAINERS_",
    "LD_",
    "DYLD_",
    "PATH",
    "HOME",
    "XDG_CONFIG_HOME",
    "SSL_CERT_",
    "REQUESTS_CA_BUNDLE",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "NO_PROXY",
];

/// Settings under those prefixes that only change how output looks.
const HARMLESS_ENV: &[&str] = &[
    "PYTHONUNBUFFERED",
    "PYTHONIOENCODING",
    "PYTHONDONTWRITEBYTECODE",
    "PYTHONUTF8",
];

/// A declared environment variable that configures the launcher, with a
/// value the operator did not give: `Err` names it. For a container the
/// launcher is the docker CLI, whose own environment this is too.
pub(super) fn check_env<'a>(
    env: impl IntoIterator<Item = (&'a String, &'a String)>,
    operator: &[String],
) -> Result<(), Refused> {
    for (name, value) in env {
        let upper = name.to_ascii_uppercase();
        let configures = !HARMLESS_ENV.contains(&upper.as_str())
            && LAUNCHER_ENV.iter().any(|p| {
                if p.ends_with('_') {
                    upper.starts_with(p)
                } else {
                    upper == *p || (*p == "PYTHON" && upper.starts_with(p))
                }
            });
        if configures && !operator.iter().any(|v| v == value) {
            return Err(refused(
                &format!("{name}={value}"),
                "configures the launcher itself (where it fetches from, what it loads)".into(),
            ));
        }
    }
    Ok(())
}

/// Whether the package name or version would be read as something other
/// than a plain package spec (an option, a URL, an alias, a path);
/// `Err` says which.
pub(super) fn check_spec(registry_type: &str, subject: &Subject<'_>) -> Result<(), Refused> {
    let plain = |s: &str, extra: &[char]| {
        !s.is_empty()
            && !s.starts_with(['-', '.', '/'])
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-+".contains(c) || extra.contains(&c))
    };
    let identifier_ok = match registry_type {
        "npm" => {
            let bare = subject
                .identifier
                .strip_prefix('@')
                .unwrap_or(subject.identifier);
            bare.split_once('/')
                .map_or(plain(bare, &['~']), |(scope, name)| {
                    plain(scope, &['~']) && plain(name, &['~'])
                })
        }
        "pypi" => plain(subject.identifier, &[]),
        _ => plain(subject.identifier, &['/', ':', '@']),
    };
    if !identifier_ok {
        return Err(refused(
            subject.identifier,
            "is not a plain package name: the launcher could read it as an option, a URL or a path"
                .into(),
        ));
    }
    let version_extra: &[char] = if registry_type == "oci" { &[':'] } else { &[] };
    if !plain(subject.version, version_extra) {
        return Err(refused(
            subject.version,
            "is not a plain version: the launcher could read it as an alias, a URL or an option"
                .into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn subject<'a>(operator: &'a [String]) -> Subject<'a> {
        Subject {
            identifier: "good-pkg",
            version: "1.0.0",
            operator,
        }
    }

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn what_real_entries_use_is_allowed() {
        let none: Vec<String> = Vec::new();
        let s = subject(&none);
        assert_eq!(check("npx", &args(&["-y"]), &s), Ok(()));
        assert_eq!(
            check("uvx", &args(&["--python", "3.12", "--from"]), &s),
            Ok(())
        );
        assert_eq!(
            check(
                "uvx",
                &args(&["--default-index", "https://pypi.org/simple"]),
                &s
            ),
            Ok(())
        );
        let docker = args(&[
            "-e",
            "TOKEN=${TOKEN}",
            "-p",
            "8080:8080",
            "-v",
            "data:/data",
        ]);
        assert_eq!(check("docker", &docker, &s), Ok(()));
        let typed = vec!["/home/me/docs".to_string()];
        let mount = args(&["--mount", "type=bind,src=/home/me/docs,dst=/project"]);
        assert_eq!(check("docker", &mount, &subject(&typed)), Ok(()));
    }

    #[test]
    fn options_that_fetch_elsewhere_or_widen_what_runs_are_refused() {
        let none: Vec<String> = Vec::new();
        let s = subject(&none);
        let cases: [(&str, &[&str], &str); 20] = [
            ("npx", &["--REGISTRY", "http://x/"], "--REGISTRY"),
            ("docker", &["-v/:/host"], "-v/:/host"),
            (
                "docker",
                &["--mount", "type=bind,src=/,dst=/h"],
                "--mount type=bind,src=/,dst=/h",
            ),
            ("docker", &["--network=host"], "--network=host"),
            (
                "docker",
                &["--security-opt=seccomp=unconfined"],
                "--security-opt=seccomp=unconfined",
            ),
            ("docker", &["--entrypoint", "sh"], "--entrypoint"),
            (
                "uvx",
                &["--from", "git+https://x.example/evil"],
                "--from git+https://x.example/evil",
            ),
            ("uvx", &["-p", "/usr/bin/evil"], "-p /usr/bin/evil"),
            (
                "npx",
                &["--registry", "http://attacker.example/npm/"],
                "--registry",
            ),
            ("npx", &["--registry=http://x/"], "--registry=http://x/"),
            ("npx", &["-p", "evil-pkg@6.6.6"], "-p evil-pkg@6.6.6"),
            ("npx", &["--package=evil"], "--package=evil"),
            ("npx", &["evil-pkg"], "evil-pkg"),
            ("npx", &["-c", "sh"], "-c"),
            (
                "uvx",
                &["--index-url", "http://x/"],
                "--index-url http://x/",
            ),
            ("uvx", &["--with", "evil"], "--with"),
            ("uvx", &["--python", "/tmp/evil"], "--python /tmp/evil"),
            ("docker", &["--privileged"], "--privileged"),
            ("docker", &["-v", "/:/host"], "-v /:/host"),
            ("docker", &["--network", "host"], "--network host"),
        ];
        for (command, list, argument) in cases {
            let err = check(command, &args(list), &s).unwrap_err();
            assert_eq!(err.argument, argument, "{command} {list:?}: {err:?}");
        }
    }

    #[test]
    fn launcher_settings_in_the_environment_need_the_operator() {
        let env = [("NPM_CONFIG_REGISTRY".to_string(), "http://x/".to_string())];
        assert!(check_env(env.iter().map(|(k, v)| (k, v)), &[]).is_err());
        let typed = vec!["http://x/".to_string()];
        assert!(check_env(env.iter().map(|(k, v)| (k, v)), &typed).is_ok());
        let docker = [("DOCKER_HOST".to_string(), "tcp://x:2375".to_string())];
        assert!(check_env(docker.iter().map(|(k, v)| (k, v)), &[]).is_err());
        let fine = [("API_KEY".to_string(), "k".to_string())];
        assert!(check_env(fine.iter().map(|(k, v)| (k, v)), &[]).is_ok());
    }

    #[test]
    fn a_package_name_or_version_that_is_an_option_is_refused() {
        let none: Vec<String> = Vec::new();
        for (kind, id, version) in [
            ("npm", "--registry=http://x", "1.0.0"),
            ("npm", "good-pkg", "npm:evil@6.6.6"),
            ("pypi", "good", "1.0 --index-url"),
            ("oci", "-v", "1"),
        ] {
            let s = Subject {
                identifier: id,
                version,
                operator: &none,
            };
            assert!(check_spec(kind, &s).is_err(), "{kind} {id} {version}");
        }
        let s = Subject {
            identifier: "@modelcontextprotocol/server-everything",
            version: "2026.8.31",
            operator: &none,
        };
        assert_eq!(check_spec("npm", &s), Ok(()));
    }
}
