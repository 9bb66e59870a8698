//! Where the launchers would download a package from, read the way they
//! read it, so that what mcpctl pins is what `npx` or `uvx` would run.
//!
//! npm: `MCPCTL_NPM_REGISTRY` (mcpctl's own override, for every scope), else
//! `npm_config_registry`, else `registry=` in the project's `.npmrc` (beside
//! the definitions file, then in the current directory), else in
//! `~/.npmrc`, else `https://registry.npmjs.org`; `@scope:registry=` lines
//! of those files win for their scope. Auth lines (`//host/:_authToken=`,
//! `_auth`, `_password` …) are not read at all, so they cannot be printed.
//!
//! PyPI: `MCPCTL_PYPI_URL` (a PyPI JSON API base, mcpctl's override), else
//! the first of `UV_DEFAULT_INDEX`, `UV_INDEX_URL`, `PIP_INDEX_URL` (a
//! *simple* index, asked with the PEP 691 JSON form), else PyPI's JSON API
//! at `https://pypi.org`. An index URL may carry credentials: they are sent
//! (as the launchers do) and masked in everything mcpctl prints.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where to ask, for every ecosystem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registries {
    /// npm.
    pub npm: NpmRegistries,
    /// PyPI.
    pub pypi: PypiIndex,
}

/// npm registries: the default one and per-scope overrides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NpmRegistries {
    /// Base URL without a trailing slash.
    pub default: String,
    /// `@scope` → base URL, from `.npmrc`.
    pub scoped: BTreeMap<String, String>,
}

impl NpmRegistries {
    /// The registry that serves `package` (`@scope/name` may have its own).
    pub fn for_package(&self, package: &str) -> &str {
        package
            .split_once('/')
            .filter(|(scope, _)| scope.starts_with('@'))
            .and_then(|(scope, _)| self.scoped.get(scope))
            .map_or(self.default.as_str(), String::as_str)
    }
}

/// A PyPI index and the API mcpctl speaks to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PypiIndex {
    /// PyPI's JSON API: `{base}/pypi/{name}/json`.
    Json(String),
    /// A simple index (PEP 503/691): `{index}/{normalized name}/`.
    Simple(String),
}

impl PypiIndex {
    /// The base URL, for messages (credentials masked).
    pub fn shown(&self) -> String {
        match self {
            PypiIndex::Json(base) => crate::text::mask_userinfo(base),
            PypiIndex::Simple(index) => crate::text::mask_userinfo(index),
        }
    }
}

/// The public npm registry.
pub const NPM_DEFAULT: &str = "https://registry.npmjs.org";
/// The public PyPI.
pub const PYPI_DEFAULT: &str = "https://pypi.org";

impl Registries {
    /// The registries for servers defined in `definitions` (its directory
    /// holds the project's `.npmrc`), from the process environment.
    pub fn for_file(definitions: &Path) -> Registries {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let dir = definitions.parent().map(Path::to_path_buf);
        Registries::from_sources(
            &var,
            dir,
            directories::BaseDirs::new().map(|b| b.home_dir().to_path_buf()),
        )
    }

    /// The registries for `lookup` (environment), the project directory
    /// and the home directory.
    pub fn from_sources(
        lookup: &dyn Fn(&str) -> Option<String>,
        project: Option<PathBuf>,
        home: Option<PathBuf>,
    ) -> Registries {
        let mut files: Vec<PathBuf> = Vec::new();
        if let Some(dir) = project {
            files.push(dir.join(".npmrc"));
        }
        if let Ok(cwd) = std::env::current_dir() {
            let here = cwd.join(".npmrc");
            if !files.contains(&here) {
                files.push(here);
            }
        }
        if let Some(home) = home {
            let user = home.join(".npmrc");
            if !files.contains(&user) {
                files.push(user);
            }
        }
        // mcpctl's own override wins over every scope too.
        let forced = lookup("MCPCTL_NPM_REGISTRY");
        if forced.is_some() {
            files.clear();
        }
        let mut default = forced.or_else(|| lookup("npm_config_registry"));
        let mut scoped = BTreeMap::new();
        for file in &files {
            let Ok(text) = std::fs::read_to_string(file) else {
                continue;
            };
            let rc = npmrc(&text, lookup);
            if default.is_none() {
                default = rc.registry;
            }
            for (scope, url) in rc.scoped {
                scoped.entry(scope).or_insert(url);
            }
        }
        let trim = |url: String| url.trim_end_matches('/').to_string();
        let pypi = match lookup("MCPCTL_PYPI_URL") {
            Some(base) => PypiIndex::Json(trim(base)),
            None => match lookup("UV_DEFAULT_INDEX")
                .or_else(|| lookup("UV_INDEX_URL"))
                .or_else(|| lookup("PIP_INDEX_URL"))
            {
                Some(index) => PypiIndex::Simple(trim(index)),
                None => PypiIndex::Json(PYPI_DEFAULT.into()),
            },
        };
        Registries {
            npm: NpmRegistries {
                default: trim(default.unwrap_or_else(|| NPM_DEFAULT.into())),
                scoped: scoped.into_iter().map(|(s, u)| (s, trim(u))).collect(),
            },
            pypi,
        }
    }
}

/// What one `.npmrc` says about registries.
#[derive(Debug, Default, PartialEq, Eq)]
struct Npmrc {
    registry: Option<String>,
    scoped: Vec<(String, String)>,
}

/// Read `registry=` and `@scope:registry=` from an `.npmrc` (ini: `;` and
/// `#` comments, optional quotes, `${VAR}` from the environment as npm
/// expands it). Every other key, auth included, is skipped unread.
fn npmrc(text: &str, lookup: &dyn Fn(&str) -> Option<String>) -> Npmrc {
    let mut rc = Npmrc::default();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with([';', '#']) {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let key = key.trim();
        let value = value.trim().trim_matches('"').trim_matches('\'');
        let value = expand(value, lookup);
        if value.is_empty() || !(value.starts_with("http://") || value.starts_with("https://")) {
            continue;
        }
        if key == "registry" {
            rc.registry = Some(value);
        } else if let Some(scope) = key.strip_suffix(":registry")
            && scope.starts_with('@')
            && scope.len() > 1
        {
            rc.scoped.push((scope.to_string(), value));
        }
    }
    rc
}

/// npm's `${VAR}` expansion in `.npmrc` values (an unset one stays as written).
fn expand(value: &str, lookup: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::new();
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        match rest[start + 2..].find('}') {
            Some(end) => {
                let name = &rest[start + 2..start + 2 + end];
                match lookup(name) {
                    Some(v) => out.push_str(&v),
                    None => out.push_str(&rest[start..start + 3 + end]),
                }
                rest = &rest[start + 3 + end..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn npmrc_reads_registries_and_skips_auth() {
        let env = |name: &str| (name == "MIRROR").then(|| "mirror.example".to_string());
        let rc = npmrc(
            "; comment\n# other\nregistry = \"https://${MIRROR}/npm/\"\n@acme:registry=https://npm.acme.test\n//npm.acme.test/:_authToken=s3cret\nalways-auth=true\n",
            &env,
        );
        assert_eq!(rc.registry.as_deref(), Some("https://mirror.example/npm/"));
        assert_eq!(
            rc.scoped,
            vec![("@acme".to_string(), "https://npm.acme.test".to_string())]
        );
    }

    #[test]
    fn env_beats_npmrc_and_scopes_pick_their_registry() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(".npmrc"),
            "registry=https://project.test/\n@acme:registry=https://acme.test/\n",
        )
        .unwrap();
        let none = |_: &str| None;
        let r = Registries::from_sources(&none, Some(dir.path().into()), None);
        assert_eq!(r.npm.default, "https://project.test");
        assert_eq!(r.npm.for_package("@acme/x"), "https://acme.test");
        assert_eq!(r.npm.for_package("@other/x"), "https://project.test");
        assert_eq!(r.pypi, PypiIndex::Json(PYPI_DEFAULT.into()));
        let env = |name: &str| match name {
            "npm_config_registry" => Some("https://env.test".to_string()),
            "UV_INDEX_URL" => Some("https://u:p@mirror.test/simple/".to_string()),
            _ => None,
        };
        let r = Registries::from_sources(&env, Some(dir.path().into()), None);
        assert_eq!(r.npm.default, "https://env.test");
        assert_eq!(r.npm.for_package("@acme/x"), "https://acme.test");
        assert_eq!(
            r.pypi,
            PypiIndex::Simple("https://u:p@mirror.test/simple".into())
        );
        assert_eq!(r.pypi.shown(), "https://***@mirror.test/simple");
    }
}
