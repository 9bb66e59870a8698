//! The one catalog agents see: every granted tool of every supervised
//! server, named `<server><separator><tool>`, with the server's own
//! title, description, schemas and annotations.
//!
//! A tool is in it only when its entry grants it to the profile being
//! served and, for a grant that recorded a catalog hash, when the tool
//! still hashes the same (the lockfile's canonical hash: description and
//! schemas). Tools the supervisor holds back for lockfile drift never
//! reach `serve` at all, and a tool that appears after a refresh is not
//! granted, so both stay hidden and uncallable.

use std::path::PathBuf;
use std::time::SystemTime;

use indexmap::IndexMap;
use serde_json::Value;

use super::naming;
use super::upstream::Upstream;
use crate::defs::grants::ToolGrants;
use crate::defs::{Catalog, Sources};
use crate::lock::canonical::{Pinned, TOOL_FIELDS};
use crate::supervisor::protocol::{Body, Op, ToolInfo};

/// One tool as agents see it, and where it really lives.
#[derive(Debug, Clone)]
pub struct Exposed {
    /// The server.
    pub server: String,
    /// The tool's own name on that server.
    pub tool: String,
    /// The catalog the tool was listed from; calls name it, so a call
    /// after the catalog changed is refused before dispatch.
    pub catalog_id: String,
    /// The catalog hash of the tool's definition.
    pub hash: String,
    /// The server's description and schema, as listed.
    pub info: ToolInfo,
}

/// What is granted to the profile being served, per server.
#[derive(Debug, Clone, Default)]
pub struct Granted {
    /// Server name → its grants, in file order (enabled servers only).
    pub servers: IndexMap<String, ToolGrants>,
    /// Servers that may be started by `serve` (all of them unless
    /// `--no-start`, then none; `autostart` ones start with the supervisor).
    pub startable: Vec<String>,
    /// The definition files and their modification times when read.
    pub stamps: Vec<(PathBuf, Option<SystemTime>)>,
}

/// When each source file was last modified (`None`: unreadable).
pub fn stamps(sources: &Sources) -> Vec<(PathBuf, Option<SystemTime>)> {
    sources
        .files
        .iter()
        .map(|f| {
            let modified = std::fs::metadata(f).and_then(|m| m.modified()).ok();
            (f.clone(), modified)
        })
        .collect()
}

impl Granted {
    /// Read the grants of `profile` from the definitions.
    pub fn load(
        sources: &Sources,
        profile: Option<&str>,
        start_all: bool,
    ) -> Result<Granted, crate::defs::DefsError> {
        let stamps = stamps(sources);
        let catalog = Catalog::load(sources)?;
        let mut granted = Granted {
            stamps,
            ..Granted::default()
        };
        for def in catalog.servers().iter().filter(|d| d.enabled) {
            let Some(set) = def.grants.of(profile).filter(|s| !s.is_empty()) else {
                continue;
            };
            granted.servers.insert(def.name.clone(), set.clone());
            if start_all {
                granted.startable.push(def.name.clone());
            }
        }
        Ok(granted)
    }

    /// True when a definition file changed since these grants were read.
    pub fn outdated(&self, sources: &Sources) -> bool {
        stamps(sources) != self.stamps
    }
}

/// The exposed catalog at one moment.
#[derive(Debug, Clone, Default)]
pub struct View {
    /// Exposed name → tool, in server then catalog order.
    pub tools: IndexMap<String, Exposed>,
    /// Server → catalog id, for every granted server that is listed.
    pub catalogs: IndexMap<String, String>,
}

impl View {
    /// Ask the supervisor for each granted server's catalog and keep the
    /// granted tools. A server that is not running contributes nothing.
    pub fn build(upstream: &Upstream, granted: &Granted, separator: &str) -> View {
        let mut view = View::default();
        // Exposed names two tools would have: neither is exposed.
        let mut collided = std::collections::HashSet::new();
        for (server, grants) in &granted.servers {
            let Ok(Body::Tools {
                catalog_id, tools, ..
            }) = upstream.request_blocking(Op::Tools {
                name: server.clone(),
            })
            else {
                continue;
            };
            view.catalogs.insert(server.clone(), catalog_id.clone());
            for info in tools {
                let hash = hash(&info);
                let allowed = grants
                    .get(&info.name)
                    .is_some_and(|g| g.as_deref().is_none_or(|h| h == hash));
                let name = naming::exposed(server, separator, &info.name);
                if !allowed || naming::problem(&name).is_some() || collided.contains(&name) {
                    continue;
                }
                if let Some(first) = view.tools.shift_remove(&name) {
                    crate::output::warn(
                        &format!(
                            "not serving `{}`: it is the name of `{}` of `{}` and of `{}` of `{server}`",
                            crate::output::sanitize(&name),
                            crate::output::sanitize(&first.tool),
                            first.server,
                            crate::output::sanitize(&info.name),
                        ),
                        Some("revoke one of them, or serve with another --separator"),
                    );
                    collided.insert(name);
                    continue;
                }
                view.tools.insert(
                    name,
                    Exposed {
                        server: server.clone(),
                        tool: info.name.clone(),
                        catalog_id: catalog_id.clone(),
                        hash,
                        info,
                    },
                );
            }
        }
        view
    }

    /// The servers whose prompts and resources pass through (those with a
    /// listed tool), each with its catalog id, in catalog order.
    pub fn passed_through(&self) -> Vec<(&str, &str)> {
        let mut servers: Vec<(&str, &str)> = Vec::new();
        for exposed in self.tools.values() {
            if !servers.iter().any(|(s, _)| *s == exposed.server) {
                servers.push((&exposed.server, &exposed.catalog_id));
            }
        }
        servers
    }

    /// What agents would notice: the exposed names, their hashes and the
    /// catalogs they come from.
    pub fn fingerprint(&self) -> Vec<(String, String, String)> {
        self.tools
            .iter()
            .map(|(name, t)| (name.clone(), t.hash.clone(), t.catalog_id.clone()))
            .collect()
    }
}

/// The catalog hash of a listed tool: the lockfile's canonical hash (title,
/// description, both schemas, annotations), so a grant and a lock agree.
pub fn hash(info: &ToolInfo) -> String {
    Pinned::of(
        &serde_json::to_value(info).unwrap_or(Value::Null),
        TOOL_FIELDS,
    )
    .hash
}
