//! Keeping expanded secrets out of everything mcpctl prints or logs.
//!
//! A definition's `${VAR}`s are expanded only for the launch, but the
//! expanded values flow on into places that are printed: a spawn error names
//! the command, a connect error names the URL, and a server may echo a
//! header or an environment variable in its stderr or an error body. A
//! [`Redactor`] holds the secret values of one definition and rewrites any
//! text that leaves the connection, so output shows `${TOK}` (or `***` for a
//! literal secret) where the value would have been. URL userinfo
//! (`user:password@`) is always replaced by `***@`.

use super::model::{Launch, ServerDef};
use super::vars;

/// The shortest value of a referenced variable that is redacted; shorter
/// ones would turn ordinary words of an error message into `${VAR}`.
pub const MIN_VAR_SECRET: usize = 4;

/// The shortest literal header or env value that is redacted as `***`:
/// longer than flags such as `true`, `1` or `info`.
pub const MIN_LITERAL_SECRET: usize = 8;

/// The mask for a literal secret (the same everywhere, see [`crate::text`]).
pub use crate::text::MASK;
/// Kept under its old name for the callers that mask a URL beside a
/// definition's secrets; the function itself is a pure string one.
pub use crate::text::mask_userinfo;

/// The secret values of one definition and what each is shown as.
#[derive(Clone, Default)]
pub struct Redactor {
    /// `(value, shown as)`, longest value first so a secret that contains
    /// another is replaced whole.
    secrets: Vec<(String, String)>,
}

impl std::fmt::Debug for Redactor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Redactor")
            .field("secrets", &self.secrets.len())
            .finish()
    }
}

impl Redactor {
    /// The secrets of `def`, with variables looked up as a launch would.
    pub fn for_def(def: &ServerDef) -> Redactor {
        Self::for_def_with(def, &vars::lookup)
    }

    /// [`Redactor::for_def`] with an explicit variable lookup (for tests).
    pub fn for_def_with(def: &ServerDef, lookup: &dyn Fn(&str) -> Option<String>) -> Redactor {
        let mut r = Redactor::default();
        let mut expanded = |value: &str| r.add_references(value, lookup);
        if let Some(p) = def.process() {
            expanded(p.command);
            p.args.iter().for_each(|a| expanded(a));
            p.env.values().for_each(|v| expanded(v));
            if let Some(cwd) = p.cwd {
                expanded(&cwd.to_string_lossy());
            }
            p.env.values().for_each(|v| r.add_literal(v));
            // Every value of an envFile is a secret, however it looks.
            for (_, value) in super::env_file::load(def).unwrap_or_default() {
                if value.len() >= MIN_VAR_SECRET {
                    r.secrets.push((value, MASK.to_string()));
                }
            }
        }
        if let Some(auth) = &def.auth {
            auth.secret_values()
                .for_each(|v| r.add_references(v, lookup));
        }
        if let Launch::Remote { url, headers, .. } = &def.launch {
            r.add_references(url, lookup);
            for value in headers.values() {
                r.add_references(value, lookup);
                r.add_literal(value);
            }
        }
        r.secrets
            .sort_by_key(|(value, _)| (std::cmp::Reverse(value.len()), value.clone()));
        r.secrets.dedup_by(|a, b| a.0 == b.0);
        r
    }

    fn add_references(&mut self, value: &str, lookup: &dyn Fn(&str) -> Option<String>) {
        for (name, shown) in vars::references(value) {
            if let Some(found) = lookup(&name)
                && found.len() >= MIN_VAR_SECRET
            {
                // A URL carries the value percent-encoded; redact that too.
                for encoded in encodings(&found) {
                    self.secrets.push((encoded, shown.clone()));
                }
                self.secrets.push((found, shown));
            }
        }
        for default in vars::defaults(value) {
            if default.len() >= MIN_LITERAL_SECRET {
                self.secrets.push((default, MASK.to_string()));
            }
        }
    }

    fn add_literal(&mut self, value: &str) {
        if !vars::has_reference(value) && value.len() >= MIN_LITERAL_SECRET {
            self.secrets.push((value.to_string(), MASK.to_string()));
        }
    }

    /// `text` with every secret replaced and URL userinfo masked.
    pub fn apply(&self, text: &str) -> String {
        let mut out = text.to_string();
        for (secret, shown) in &self.secrets {
            if out.contains(secret.as_str()) {
                out = out.replace(secret.as_str(), shown);
            }
        }
        mask_userinfo(&mask_session_secrets(&out))
    }

    /// Redact what a server sent back (a call's result, a tool error) in
    /// place: every secret value in every string and object key of `value`
    /// is replaced as [`Redactor::apply`] replaces it, run-time secrets
    /// included. URL userinfo is left as the server wrote it (it is the
    /// content, not ours), and so are base64 payloads (`data`, `blob`),
    /// where a short secret could match by chance and corrupt the bytes.
    pub fn apply_json(&self, value: &mut serde_json::Value) {
        let mut secrets = self.secrets.clone();
        {
            let session = SESSION_SECRETS.lock().unwrap_or_else(|e| e.into_inner());
            secrets.extend(session.iter().map(|s| (s.clone(), MASK.to_string())));
        }
        if secrets.is_empty() {
            return;
        }
        secrets.sort_by_key(|(value, _)| std::cmp::Reverse(value.len()));
        replace_in_json(&secrets, value);
    }

    /// [`Redactor::apply`] on each line.
    pub fn apply_all(&self, lines: &[String]) -> Vec<String> {
        lines.iter().map(|l| self.apply(l)).collect()
    }
}

/// `secrets` (longest first) replaced in every string and key of `value`
/// but the base64 payloads; see [`Redactor::apply_json`].
fn replace_in_json(secrets: &[(String, String)], value: &mut serde_json::Value) {
    use serde_json::Value;
    let replace = |text: &str| -> Option<String> {
        let mut out: Option<String> = None;
        for (secret, shown) in secrets {
            let current = out.as_deref().unwrap_or(text);
            if current.contains(secret.as_str()) {
                out = Some(current.replace(secret.as_str(), shown));
            }
        }
        out
    };
    match value {
        Value::String(text) => {
            if let Some(masked) = replace(text) {
                *text = masked;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| replace_in_json(secrets, v)),
        Value::Object(map) => {
            if map.keys().any(|k| replace(k).is_some()) {
                let old = std::mem::take(map);
                for (key, v) in old {
                    map.insert(replace(&key).unwrap_or(key), v);
                }
            }
            for (key, v) in map.iter_mut() {
                if !(matches!(key.as_str(), "data" | "blob") && v.is_string()) {
                    replace_in_json(secrets, v);
                }
            }
        }
        _ => {}
    }
}

/// Secrets that exist only while mcpctl runs (OAuth access and refresh
/// tokens, authorization codes, PKCE verifiers, client secrets from
/// registration): not in any definition, so registered as they appear.
static SESSION_SECRETS: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// Register a secret that appeared at run time, so every [`Redactor`]
/// (and [`mask_session_secrets`]) shows it as `***` from now on.
pub fn register_secret(value: &str) {
    if value.len() < MIN_VAR_SECRET {
        return;
    }
    let mut secrets = SESSION_SECRETS.lock().unwrap_or_else(|e| e.into_inner());
    if !secrets.iter().any(|s| s == value) {
        secrets.push(value.to_string());
        secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
    }
}

/// `text` with every registered run-time secret shown as `***`.
pub fn mask_session_secrets(text: &str) -> String {
    let secrets = SESSION_SECRETS.lock().unwrap_or_else(|e| e.into_inner());
    let mut out = text.to_string();
    for secret in secrets.iter() {
        if out.contains(secret.as_str()) {
            out = out.replace(secret.as_str(), MASK);
        }
    }
    out
}

/// The forms other than `value` itself in which a URL may carry it: path
/// and query percent-encoding.
fn encodings(value: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Ok(mut url) = url::Url::parse("http://x/") {
        url.set_path(value);
        out.push(url.path().trim_start_matches('/').to_string());
    }
    out.push(url::form_urlencoded::byte_serialize(value.as_bytes()).collect());
    out.retain(|e| e != value && e.len() >= MIN_VAR_SECRET);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use indexmap::IndexMap;

    fn env(name: &str) -> Option<String> {
        match name {
            "TOK" => Some("tok-value-1234".into()),
            "SHORT" => Some("ab".into()),
            _ => None,
        }
    }

    fn remote(url: &str, headers: &[(&str, &str)]) -> ServerDef {
        ServerDef {
            name: "s".into(),
            transport: crate::defs::Transport::StreamableHttp,
            transport_inferred: false,
            launch: Launch::Remote {
                transport: crate::defs::Transport::StreamableHttp,
                url: url.into(),
                headers: headers
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect::<IndexMap<_, _>>(),
                process: None,
            },
            label: None,
            enabled: true,
            autostart: false,
            connect_timeout: None,
            protocol: None,
            restart: Default::default(),
            auth: None,
            env_file: None,
            grants: Default::default(),
            sandbox: None,
            source: "x.json".into(),
        }
    }

    #[test]
    fn values_show_as_their_reference_and_literals_as_a_mask() {
        let def = remote(
            "http://127.0.0.1:1/${TOK}/${SHORT}",
            &[("X-Key", "literal-secret-99"), ("X-Flag", "true")],
        );
        let r = Redactor::for_def_with(&def, &env);
        assert_eq!(
            r.apply("GET http://127.0.0.1:1/tok-value-1234/ab said literal-secret-99 true"),
            "GET http://127.0.0.1:1/${TOK}/ab said *** true"
        );
    }

    #[test]
    fn a_result_is_redacted_in_every_string_but_its_base64_payloads() {
        let def = remote(
            "http://127.0.0.1:1/${TOK}",
            &[("X-Key", "literal-secret-99")],
        );
        let r = Redactor::for_def_with(&def, &env);
        let mut result = serde_json::json!({
            "content": [
                {"type": "text", "text": "token tok-value-1234, key literal-secret-99"},
                {"type": "image", "data": "tok-value-1234", "mimeType": "image/png"}
            ],
            "structuredContent": {"echo": ["x tok-value-1234"], "tok-value-1234": 1,
                "see": "https://me:pw@host/"},
            "isError": true
        });
        r.apply_json(&mut result);
        assert_eq!(result["content"][0]["text"], "token ${TOK}, key ***");
        assert_eq!(
            result["content"][1]["data"], "tok-value-1234",
            "base64 kept"
        );
        let structured = &result["structuredContent"];
        assert_eq!(structured["echo"][0], "x ${TOK}");
        assert_eq!(structured["${TOK}"], 1, "keys too: {structured}");
        assert_eq!(
            structured["see"], "https://me:pw@host/",
            "content's own URL"
        );
        assert_eq!(result["isError"], true);
    }

    #[test]
    fn a_percent_encoded_value_is_redacted_too() {
        let def = remote("http://127.0.0.1:1/${SPACED}", &[]);
        let env = |name: &str| (name == "SPACED").then(|| "two words here".to_string());
        let r = Redactor::for_def_with(&def, &env);
        assert_eq!(
            r.apply("error for url (http://127.0.0.1:1/two%20words%20here)"),
            "error for url (http://127.0.0.1:1/${SPACED})"
        );
    }
}
