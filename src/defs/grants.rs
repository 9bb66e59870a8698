//! Which tools of a server an operator granted to `mcpctl serve`.
//!
//! Discovery never grants anything: a tool is exposed to agents only when
//! its entry names it, under `tools` (the default profile) or under
//! `profiles.<PROFILE>` (another agent's set). Each grant records the
//! tool's catalog hash at grant time (`"tools": {"echo": "sha256:…"}`), so
//! a tool whose definition changed afterwards is hidden until granted
//! again; a hand-written list of names (`"tools": ["echo"]`) grants by name
//! alone.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The entry key holding the default profile's grants.
pub const TOOLS_KEY: &str = "tools";
/// The entry key holding the named profiles' grants.
pub const PROFILES_KEY: &str = "profiles";

/// One profile's grants: tool name → the catalog hash it was granted at
/// (`None` when granted by name only).
pub type ToolGrants = IndexMap<String, Option<String>>;

/// A server's grants, per profile.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Grants {
    /// The default profile (`serve` without `--profile`).
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub tools: ToolGrants,
    /// Named profiles (`serve --profile NAME`).
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub profiles: IndexMap<String, ToolGrants>,
}

impl Grants {
    /// True when nothing is granted to anyone.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty() && self.profiles.is_empty()
    }

    /// The grants of `profile` (`None`: the default profile).
    pub fn of(&self, profile: Option<&str>) -> Option<&ToolGrants> {
        match profile {
            None => Some(&self.tools),
            Some(name) => self.profiles.get(name),
        }
    }

    /// Whether `tool` with catalog hash `hash` is granted to `profile`.
    pub fn allows(&self, profile: Option<&str>, tool: &str, hash: &str) -> bool {
        self.of(profile)
            .and_then(|set| set.get(tool))
            .is_some_and(|granted| granted.as_deref().is_none_or(|h| h == hash))
    }
}

/// A profile's grants as written: a list of names or a map of name → hash.
#[derive(Deserialize)]
#[serde(
    untagged,
    expecting = "a list of tool names or a map of tool name to catalog hash"
)]
pub(super) enum RawToolGrants {
    /// `["echo", "get-sum"]`.
    Names(Vec<String>),
    /// `{"echo": "sha256:…"}`.
    Hashed(IndexMap<String, Option<String>>),
}

impl RawToolGrants {
    pub(super) fn into_grants(self) -> ToolGrants {
        match self {
            RawToolGrants::Names(names) => names.into_iter().map(|n| (n, None)).collect(),
            RawToolGrants::Hashed(map) => map,
        }
    }
}

/// Build [`Grants`] from an entry's `tools` and `profiles` fields.
pub(super) fn from_raw(
    tools: Option<RawToolGrants>,
    profiles: Option<IndexMap<String, RawToolGrants>>,
) -> Grants {
    Grants {
        tools: tools.map(RawToolGrants::into_grants).unwrap_or_default(),
        profiles: profiles
            .unwrap_or_default()
            .into_iter()
            .map(|(name, set)| (name, set.into_grants()))
            .collect(),
    }
}

/// One profile's grants as written back: a map of name → hash (or `null`).
pub fn tool_grants_value(set: &ToolGrants) -> Value {
    Value::Object(
        set.iter()
            .map(|(name, hash)| {
                let hash = hash.clone().map_or(Value::Null, Value::String);
                (name.clone(), hash)
            })
            .collect(),
    )
}

/// The `profiles` field as written back.
pub fn profiles_value(profiles: &IndexMap<String, ToolGrants>) -> Value {
    Value::Object(
        profiles
            .iter()
            .map(|(name, set)| (name.clone(), tool_grants_value(set)))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_pins_the_grant_and_a_bare_name_does_not() {
        let mut grants = Grants::default();
        grants.tools.insert("echo".into(), Some("sha256:a".into()));
        grants.tools.insert("sum".into(), None);
        assert!(grants.allows(None, "echo", "sha256:a"));
        assert!(!grants.allows(None, "echo", "sha256:b"));
        assert!(grants.allows(None, "sum", "sha256:anything"));
        assert!(!grants.allows(None, "other", "sha256:a"));
        assert!(!grants.allows(Some("review"), "echo", "sha256:a"));
    }
}
