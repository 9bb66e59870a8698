//! Keeping expanded secrets out of everything mcpctl prints or logs.
//!
//! A definition's `${VAR}`s are expanded only for the launch, but the
//! expanded values flow on into places that are printed: a spawn error names
//! the command, a connect error names the URL, and a server may echo a
//! header or an environment variable in its stderr or an error body. A
//! [`Redactor`] holds the secret values of one definition and rewrites any
//! text that leaves the connection, so output shows `${TOK}` (or `***` for a
//! literal secret) where the value would have been, and so for every
//! encoded form a server may say it back in (percent-encoded, escaped
//! inside a JSON string: [`super::encoded`]). URL userinfo
//! (`user:password@`) is always replaced by `***@`.

use std::sync::Arc;

use base64::Engine as _;

use super::encoded::Pattern;
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
    /// `(value, shown as)` while the redactor is built.
    found: Vec<(String, String)>,
    /// The secrets as matched, longest value first so a secret that
    /// contains another is replaced whole.
    secrets: Vec<Secret>,
}

/// One secret as it is matched (in any encoded form, see
/// [`super::encoded`]) and shown.
#[derive(Clone)]
struct Secret {
    /// The length of its value (what the payload rule is judged by).
    len: usize,
    /// What is shown in its place.
    shown: String,
    pattern: Arc<Pattern>,
}

impl Secret {
    fn new(value: &str, shown: &str) -> Secret {
        Secret {
            len: value.len(),
            shown: shown.to_string(),
            pattern: Arc::new(Pattern::new(value)),
        }
    }

    /// `text` with this secret, in any form, replaced; `None` when absent.
    fn replace(&self, text: &str) -> Option<String> {
        self.pattern.replace_all(text, &self.shown)
    }
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
                    r.found.push((value, MASK.to_string()));
                }
            }
        }
        if let Some(auth) = &def.auth {
            auth.secret_values()
                .for_each(|v| r.add_references(v, lookup));
        }
        if let Launch::Remote { url, headers, .. } = &def.launch {
            r.add_references(url, lookup);
            r.add_userinfo(&def.name, url, lookup);
            for value in headers.values() {
                r.add_references(value, lookup);
                r.add_literal(value);
                r.add_credential_words(value);
            }
        }
        r.compiled()
    }

    /// The credential inside a literal header value (`Bearer sk-…`,
    /// `token …`): a server may echo the token alone, and only the whole
    /// value was masked. For `Basic`, the password inside the base64 too.
    fn add_credential_words(&mut self, value: &str) {
        if vars::has_reference(value) {
            return;
        }
        let words: Vec<&str> = value.split_whitespace().collect();
        for word in &words {
            if word.len() >= MIN_LITERAL_SECRET && *word != value {
                self.found.push((word.to_string(), MASK.to_string()));
            }
        }
        if let [scheme, encoded] = words[..]
            && scheme.eq_ignore_ascii_case("basic")
            && let Ok(decoded) = base64::engine::general_purpose::STANDARD.decode(encoded)
            && let Ok(decoded) = String::from_utf8(decoded)
            && let Some((_, password)) = decoded.split_once(':')
            && password.len() >= MIN_VAR_SECRET
        {
            self.found.push((password.to_string(), MASK.to_string()));
        }
    }

    /// A URL's `user:password@` goes out as a `Basic` credential: its
    /// base64 (and the password itself) are secrets, however a server
    /// echoes them.
    fn add_userinfo(&mut self, server: &str, url: &str, lookup: &dyn Fn(&str) -> Option<String>) {
        let Ok(expanded) = vars::expand_with(server, url, lookup) else {
            return;
        };
        let Ok(parsed) = url::Url::parse(&expanded) else {
            return;
        };
        let Some(password) = parsed.password() else {
            return;
        };
        let decode = |s: &str| {
            percent_encoding::percent_decode_str(s)
                .decode_utf8_lossy()
                .into_owned()
        };
        let (user, password) = (decode(parsed.username()), decode(password));
        if password.len() >= MIN_VAR_SECRET {
            let basic =
                base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"));
            self.found.push((basic, MASK.to_string()));
            self.found.push((password, MASK.to_string()));
        }
    }

    /// The secrets found, longest first and once each, built into the
    /// patterns that match their encoded forms too (once, here).
    fn compiled(mut self) -> Redactor {
        let mut found = std::mem::take(&mut self.found);
        found.sort_by_key(|(value, _)| (std::cmp::Reverse(value.len()), value.clone()));
        found.dedup_by(|a, b| a.0 == b.0);
        self.secrets = found
            .iter()
            .map(|(v, shown)| Secret::new(v, shown))
            .collect();
        self
    }

    fn add_references(&mut self, value: &str, lookup: &dyn Fn(&str) -> Option<String>) {
        for (name, shown) in vars::references(value) {
            if let Some(found) = lookup(&name)
                && found.len() >= MIN_VAR_SECRET
            {
                self.found.push((found, shown));
            }
        }
        for default in vars::defaults(value) {
            if default.len() >= MIN_LITERAL_SECRET {
                self.found.push((default, MASK.to_string()));
            }
        }
    }

    fn add_literal(&mut self, value: &str) {
        if !vars::has_reference(value) && value.len() >= MIN_LITERAL_SECRET {
            self.found.push((value.to_string(), MASK.to_string()));
        }
    }

    /// How many bytes at the end of a cut text may hold the start of a
    /// secret (in its longest encoded form, six bytes a character as a
    /// `\uXXXX` escape): a text cut short drops that much after it is
    /// redacted, so no prefix of a secret survives the cut.
    pub fn cut_guard(&self) -> usize {
        let longest = self.all_secrets().iter().map(|s| s.len).max().unwrap_or(0);
        longest.saturating_mul(6)
    }

    /// `text` with every secret replaced and URL userinfo masked.
    pub fn apply(&self, text: &str) -> String {
        let mut out = text.to_string();
        for secret in &self.secrets {
            if let Some(masked) = secret.replace(&out) {
                out = masked;
            }
        }
        mask_userinfo(&mask_session_secrets(&out))
    }

    /// Redact what a server sent back (a call's result, a tool error) in
    /// place: every secret value in every string and object key of `value`
    /// is replaced as [`Redactor::apply`] replaces it, run-time secrets
    /// included. URL userinfo is left as the server wrote it (it is the
    /// content, not ours). In the binary payloads the spec makes base64
    /// (an image or audio block's `data`, a resource's `blob`), where a
    /// short secret could match by chance and corrupt the bytes, only
    /// secrets of [`MIN_PAYLOAD_SECRET`] characters or more are redacted.
    /// Only those: a `data` key anywhere else (`structuredContent.data`,
    /// `_meta.data`) is text like any other, and so is a "payload" that is
    /// not base64 at all.
    pub fn apply_json(&self, value: &mut serde_json::Value) {
        let secrets = self.all_secrets();
        if !secrets.is_empty() {
            replace_in_json(&secrets, value, Payloads::Kept);
        }
    }

    /// `item` redacted through its JSON form, as [`Redactor::apply_json`]
    /// redacts, every string and key of it but its top-level `keep` fields
    /// (identifiers such as a tool's `name`, which a call must name as the
    /// server does). A listing carries no binary payloads, so none are
    /// spared. `item` comes back untouched when it quotes no secret, and
    /// `None` when its redacted form no longer reads as a `T` (a secret
    /// equal to an enum's word, say) or when a `keep` field quotes a secret
    /// (a tool named after the key): the caller withholds it rather than
    /// show the secret.
    pub fn apply_typed<T>(&self, item: T, keep: &[&str]) -> Option<T>
    where
        T: serde::Serialize + serde::de::DeserializeOwned,
    {
        let secrets = self.all_secrets();
        if secrets.is_empty() {
            return Some(item);
        }
        let mut value = serde_json::to_value(&item).ok()?;
        let kept: Vec<(String, serde_json::Value)> = match &mut value {
            serde_json::Value::Object(map) => keep
                .iter()
                .filter_map(|k| map.remove(*k).map(|v| (k.to_string(), v)))
                .collect(),
            _ => Vec::new(),
        };
        // An identifier that quotes a secret cannot be shown, nor masked
        // (a call must name it as the server does): the item is withheld.
        let mut identifiers =
            serde_json::Value::Array(kept.iter().map(|(_, v)| v.clone()).collect());
        if replace_in_json(&secrets, &mut identifiers, Payloads::Redacted) {
            return None;
        }
        if !replace_in_json(&secrets, &mut value, Payloads::Redacted) {
            return Some(item);
        }
        if let serde_json::Value::Object(map) = &mut value {
            map.extend(kept);
        }
        serde_json::from_value(value).ok()
    }

    /// [`Redactor::apply_typed`] on each item of a listing (tools,
    /// prompts, resource templates), keeping each one's `name`; an item
    /// that cannot be redacted is left out.
    pub fn apply_listed<T>(&self, items: Vec<T>) -> Vec<T>
    where
        T: serde::Serialize + serde::de::DeserializeOwned,
    {
        items
            .into_iter()
            .filter_map(|item| self.apply_typed(item, &["name"]))
            .collect()
    }

    /// The definition's secrets and the run-time ones, longest first.
    fn all_secrets(&self) -> Vec<Secret> {
        let mut secrets = self.secrets.clone();
        {
            let session = SESSION_SECRETS.lock().unwrap_or_else(|e| e.into_inner());
            secrets.extend(session.iter().map(|(_, s)| s.clone()));
        }
        secrets.sort_by_key(|s| std::cmp::Reverse(s.len));
        secrets
    }

    /// [`Redactor::apply`] on each line.
    pub fn apply_all(&self, lines: &[String]) -> Vec<String> {
        lines.iter().map(|l| self.apply(l)).collect()
    }
}

/// The shortest secret redacted inside a base64 payload: 16 base64
/// characters match a given string by chance once in 64^16 (7.9e28)
/// places, never in any real image, while a shorter `${VAR}` value (4
/// characters may be one) would corrupt every image it happened to match.
pub const MIN_PAYLOAD_SECRET: usize = 16;

/// Whether [`replace_in_json`] spares the spec's base64 payloads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Payloads {
    /// Left as sent (a call's result: an image's bytes).
    Kept,
    /// Redacted like any string (a listing, which has none).
    Redacted,
}

/// `secrets` (longest first) replaced in every string and key of `value`
/// but, when `payloads` says so, the base64 payloads; see
/// [`Redactor::apply_json`]. True when anything was replaced.
fn replace_in_json(secrets: &[Secret], value: &mut serde_json::Value, payloads: Payloads) -> bool {
    use serde_json::Value;
    let replace = |text: &str| -> Option<String> {
        let mut out: Option<String> = None;
        for secret in secrets {
            let current = out.as_deref().unwrap_or(text);
            if let Some(masked) = secret.replace(current) {
                out = Some(masked);
            }
        }
        out
    };
    match value {
        Value::String(text) => match replace(text) {
            Some(masked) => {
                *text = masked;
                true
            }
            None => false,
        },
        Value::Array(items) => items.iter_mut().fold(false, |changed, v| {
            replace_in_json(secrets, v, payloads) | changed
        }),
        Value::Object(map) => {
            let mut changed = false;
            if map.keys().any(|k| replace(k).is_some()) {
                changed = true;
                let old = std::mem::take(map);
                for (key, v) in old {
                    map.insert(replace(&key).unwrap_or(key), v);
                }
            }
            let spared = match payloads {
                Payloads::Kept => base64_payload(map),
                Payloads::Redacted => None,
            };
            for (key, v) in map.iter_mut() {
                if spared != Some(key.as_str()) {
                    changed |= replace_in_json(secrets, v, payloads);
                } else {
                    // Long secrets cannot match base64 by chance: a
                    // payload that quotes one is redacted too.
                    let long: Vec<Secret> = secrets
                        .iter()
                        .filter(|secret| secret.len >= MIN_PAYLOAD_SECRET)
                        .cloned()
                        .collect();
                    changed |= replace_in_json(&long, v, payloads);
                }
            }
            changed
        }
        _ => false,
    }
}

/// The key of `block`'s binary payload, when it is one the spec makes
/// base64 and it reads as base64: an image or audio content block's
/// `data`, a resource's (`uri` beside it) `blob`.
fn base64_payload(block: &serde_json::Map<String, serde_json::Value>) -> Option<&'static str> {
    let kind = block.get("type").and_then(|t| t.as_str());
    let key = if matches!(kind, Some("image" | "audio")) {
        "data"
    } else if block.get("uri").is_some_and(|u| u.is_string()) {
        "blob"
    } else {
        return None;
    };
    let payload = block.get(key)?.as_str()?;
    let base64 = payload
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'\r' | b'\n'));
    base64.then_some(key)
}

/// Secrets that exist only while mcpctl runs (OAuth access and refresh
/// tokens, authorization codes, PKCE verifiers, client secrets from
/// registration): not in any definition, so registered as they appear.
static SESSION_SECRETS: std::sync::Mutex<Vec<(String, Secret)>> = std::sync::Mutex::new(Vec::new());

/// Register a secret that appeared at run time, so every [`Redactor`]
/// (and [`mask_session_secrets`]) shows it as `***` from now on.
pub fn register_secret(value: &str) {
    if value.len() < MIN_VAR_SECRET {
        return;
    }
    let mut secrets = SESSION_SECRETS.lock().unwrap_or_else(|e| e.into_inner());
    if !secrets.iter().any(|(s, _)| s == value) {
        secrets.push((value.to_string(), Secret::new(value, MASK)));
        secrets.sort_by_key(|(s, _)| std::cmp::Reverse(s.len()));
    }
}

/// `text` with every registered run-time secret shown as `***`.
pub fn mask_session_secrets(text: &str) -> String {
    let secrets = SESSION_SECRETS.lock().unwrap_or_else(|e| e.into_inner());
    let mut out = text.to_string();
    for (_, secret) in secrets.iter() {
        if let Some(masked) = secret.replace(&out) {
            out = masked;
        }
    }
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
    fn the_token_of_a_literal_header_is_a_secret_on_its_own() {
        // attack3 S1: only "Bearer sk-…" as a whole was masked.
        let def = remote(
            "https://h/mcp",
            &[
                ("Authorization", "Bearer sk-live-literal-123456"),
                ("X-Basic", "Basic YWxpY2U6aHVudGVyMjIy"),
            ],
        );
        let r = Redactor::for_def_with(&def, &env);
        let shown = r.apply("echo: sk-live-literal-123456 and hunter222");
        assert!(!shown.contains("sk-live-literal-123456"), "{shown}");
        assert!(!shown.contains("hunter222"), "{shown}");
    }

    #[test]
    fn a_url_password_is_a_secret_in_its_basic_form_too() {
        // attack3 S2: the server echoed the Authorization it was sent.
        let def = remote("http://alice:${TOK}@127.0.0.1:1/mcp", &[]);
        let r = Redactor::for_def_with(&def, &env);
        let basic = base64::engine::general_purpose::STANDARD.encode("alice:tok-value-1234");
        let shown = r.apply(&format!("auth: Basic {basic}"));
        assert!(!shown.contains(&basic), "{shown}");
        let literal = remote("http://bob:pa%24%24word-99@127.0.0.1:1/mcp", &[]);
        let r = Redactor::for_def_with(&literal, &env);
        let basic = base64::engine::general_purpose::STANDARD.encode("bob:pa$$word-99");
        let shown = r.apply(&format!("{basic} / pa$$word-99"));
        assert!(
            !shown.contains(&basic) && !shown.contains("pa$$word-99"),
            "{shown}"
        );
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
            &[("X-Key", "literal-secret-99"), ("X-Raw", "QUJDREVGR0hJ")],
        );
        let r = Redactor::for_def_with(&def, &env);
        let mut result = serde_json::json!({
            "content": [
                {"type": "text", "text": "token tok-value-1234, key literal-secret-99"},
                {"type": "image", "data": "AAAAQUJDREVGR0hJAAAA", "mimeType": "image/png"},
                {"type": "audio", "data": "the key QUJDREVGR0hJ", "mimeType": "audio/wav"},
                {"type": "resource", "resource": {"uri": "x:/", "blob": "QUJDREVGR0hJ"}}
            ],
            "structuredContent": {"echo": ["x tok-value-1234"], "tok-value-1234": 1,
                "see": "https://me:pw@host/", "data": "QUJDREVGR0hJ"},
            "_meta": {"blob": "QUJDREVGR0hJ"},
            "isError": true
        });
        r.apply_json(&mut result);
        assert_eq!(result["content"][0]["text"], "token ${TOK}, key ***");
        let content = &result["content"];
        assert_eq!(content[1]["data"], "AAAAQUJDREVGR0hJAAAA", "base64 kept");
        // A long secret that reads as base64 is redacted in a payload too.
        let long = remote("http://127.0.0.1:1/", &[("X-Key", "Zk9vQmFyU2VjcmV0MTIz")]);
        let mut quoted = serde_json::json!({"content": [
            {"type": "image", "data": "AAAAZk9vQmFyU2VjcmV0MTIzAAAA", "mimeType": "image/png"},
            {"type": "resource", "resource": {"uri": "x:/", "blob": "Zk9vQmFyU2VjcmV0MTIz"}}
        ]});
        Redactor::for_def_with(&long, &env).apply_json(&mut quoted);
        assert_eq!(quoted["content"][0]["data"], "AAAA***AAAA", "{quoted}");
        assert_eq!(quoted["content"][1]["resource"]["blob"], "***", "{quoted}");
        assert_eq!(content[2]["data"], "the key ***", "not base64: {content}");
        assert_eq!(content[3]["resource"]["blob"], "QUJDREVGR0hJ", "{content}");
        let structured = &result["structuredContent"];
        assert_eq!(structured["echo"][0], "x ${TOK}");
        assert_eq!(structured["${TOK}"], 1, "keys too: {structured}");
        assert_eq!(
            structured["see"], "https://me:pw@host/",
            "content's own URL"
        );
        assert_eq!(structured["data"], "***", "not a payload: {structured}");
        assert_eq!(result["_meta"]["blob"], "***", "no uri beside it");
        assert_eq!(result["isError"], true);
    }

    #[test]
    fn a_listing_is_redacted_but_its_name_and_kept_untouched_without_secrets() {
        let def = remote("http://127.0.0.1:1/${TOK}", &[("X-Raw", "QUJDREVGR0hJ")]);
        let r = Redactor::for_def_with(&def, &env);
        let tool = serde_json::json!({"name": "tool", "description": "key QUJDREVGR0hJ",
            "inputSchema": {"type": "object", "properties": {"k": {"default": "tok-value-1234",
                "type": "image", "data": "QUJDREVGR0hJ"}}}});
        let listed = r.apply_listed(vec![tool]);
        let tool = &listed[0];
        assert_eq!(tool["name"], "tool", "an identifier");
        assert_eq!(tool["description"], "key ***");
        let k = &tool["inputSchema"]["properties"]["k"];
        assert_eq!(k["default"], "${TOK}");
        assert_eq!(k["data"], "***", "a listing has no payloads: {k}");
        let plain = serde_json::json!({"name": "n", "description": "nothing secret"});
        assert_eq!(r.apply_listed(vec![plain.clone()]), vec![plain]);
    }

    #[test]
    fn an_item_that_no_longer_reads_after_redaction_is_withheld() {
        #[derive(serde::Serialize, serde::Deserialize)]
        enum Role {
            #[serde(rename = "tok-value-1234")]
            Odd,
        }
        let def = remote("http://127.0.0.1:1/${TOK}", &[]);
        let r = Redactor::for_def_with(&def, &env);
        assert!(r.apply_typed(Role::Odd, &[]).is_none());
    }

    /// Attack (fresh pass, issue 20): a tool or prompt named after a
    /// secret showed it in `tools`, the lockfile, grants and serve.
    #[test]
    fn an_item_whose_name_quotes_a_secret_is_withheld() {
        let def = remote("http://127.0.0.1:1/${TOK}", &[]);
        let r = Redactor::for_def_with(&def, &env);
        let named = |name: &str| serde_json::json!({"name": name, "description": "d"});
        let listed = r.apply_listed(vec![named("ktok-value-1234"), named("echo")]);
        assert_eq!(listed, vec![named("echo")]);
    }

    #[test]
    fn a_json_escaped_value_is_redacted_as_the_decoded_string() {
        let def = remote("http://127.0.0.1:1/${TOK}", &[]);
        let r = Redactor::for_def_with(&def, &env);
        let text = r#"{"said": "\u0074ok-value-1234", "\u0074ok-value-1234": 1}"#;
        let mut said: serde_json::Value = serde_json::from_str(text).unwrap();
        r.apply_json(&mut said);
        assert_eq!(said, serde_json::json!({"said": "${TOK}", "${TOK}": 1}));
    }

    /// Attack (second pass, issue 20, L3): a literal secret said back
    /// percent-encoded or JSON-escaped is masked like the value; a form
    /// that reads as base64 is held to the payload rule by its own length
    /// (the value's, as a form's `+` for a space keeps it).
    #[test]
    fn encoded_forms_of_a_literal_are_masked_but_not_inside_a_short_payload() {
        let def = remote("http://127.0.0.1:1/", &[("X-Key", "ab cd\"ef/gh")]);
        let r = Redactor::for_def_with(&def, &env);
        assert_eq!(
            r.apply(r#"got ab%20cd%22ef%2Fgh, ab+cd%22ef%2Fgh and {"k":"ab cd\"ef/gh"}"#),
            r#"got ***, *** and {"k":"***"}"#
        );
        let spaced = remote("http://127.0.0.1:1/", &[("X-Key", "ab cd ef gh")]);
        let mut image = serde_json::json!({"content": [
            {"type": "image", "data": "AAAAab+cd+ef+ghAAAA", "mimeType": "image/png"},
            {"type": "text", "text": "key=ab+cd+ef+gh"}
        ]});
        Redactor::for_def_with(&spaced, &env).apply_json(&mut image);
        assert_eq!(image["content"][0]["data"], "AAAAab+cd+ef+ghAAAA");
        assert_eq!(image["content"][1]["text"], "key=***");
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
