//! A secret said back in another form than it was written: percent-encoded
//! (as a URL path, a query or a form carries it, any mix of escaped and
//! plain characters, upper or lower case hex, `+` for a space; or twice, as
//! a URL inside another's query), escaped inside a JSON string (a server
//! that stringifies JSON into text output: `\"`, `\\`, `\/`, `\u00e9`, or
//! escaped twice), or as HTML text (`&quot;`, `&#47;`). Which characters an
//! encoder escapes differs from one library to the next, so the forms are
//! not listed: a [`Pattern`], built once per secret, accepts each character
//! of the secret in any of its forms, and [`super::redact::Redactor`] masks
//! whatever it matches as it masks the value.

/// One way a character of the secret may be written.
struct Form {
    bytes: Vec<u8>,
    /// Compared ignoring ASCII case (hex digits, entity names).
    any_case: bool,
}

/// A secret as it may be said back: for each of its characters, the
/// forms it may take.
pub struct Pattern {
    chars: Vec<Vec<Form>>,
    /// The bytes a match may start with.
    starts: [bool; 256],
}

impl Pattern {
    /// The pattern of `value`. It matches `value` itself and nothing
    /// shorter, so a form is never held to less than the value was.
    pub fn new(value: &str) -> Pattern {
        let chars: Vec<Vec<Form>> = value.chars().map(forms_of).collect();
        let mut starts = [false; 256];
        for form in chars.first().into_iter().flatten() {
            let b = form.bytes[0];
            starts[b as usize] = true;
            if form.any_case {
                starts[b.to_ascii_lowercase() as usize] = true;
                starts[b.to_ascii_uppercase() as usize] = true;
            }
        }
        Pattern { chars, starts }
    }

    /// `text` with every match replaced by `shown`; `None` when nothing
    /// matched.
    pub fn replace_all(&self, text: &str, shown: &str) -> Option<String> {
        let bytes = text.as_bytes();
        let mut out: Vec<u8> = Vec::new();
        let (mut i, mut copied, mut found) = (0, 0, false);
        while i < bytes.len() {
            let end = match self.starts[bytes[i] as usize] {
                true => self.match_at(bytes, i),
                false => None,
            };
            match end {
                Some(end) => {
                    out.extend_from_slice(&bytes[copied..i]);
                    out.extend_from_slice(shown.as_bytes());
                    (i, copied, found) = (end, end, true);
                }
                None => i += 1,
            }
        }
        if !found {
            return None;
        }
        out.extend_from_slice(&bytes[copied..]);
        // Matches start and end on character boundaries (every form is
        // whole characters), so this is UTF-8.
        Some(String::from_utf8_lossy(&out).into_owned())
    }

    /// The end of the longest match starting at `start`: the text
    /// positions each prefix of the secret can reach, step by step.
    fn match_at(&self, text: &[u8], start: usize) -> Option<usize> {
        if self.chars.is_empty() {
            return None;
        }
        let mut at = vec![start];
        for forms in &self.chars {
            let mut next: Vec<usize> = Vec::new();
            for &p in &at {
                for form in forms {
                    let Some(there) = text.get(p..p + form.bytes.len()) else {
                        continue;
                    };
                    let same = match form.any_case {
                        true => there.eq_ignore_ascii_case(&form.bytes),
                        false => there == form.bytes.as_slice(),
                    };
                    if same {
                        next.push(p + form.bytes.len());
                    }
                }
            }
            next.sort_unstable();
            next.dedup();
            if next.is_empty() {
                return None;
            }
            at = next;
        }
        at.last().copied()
    }
}

/// The forms of one character: itself, percent-encoded (once or twice;
/// `+` too for a space), JSON-escaped (once and twice), and as an HTML
/// character reference.
fn forms_of(c: char) -> Vec<Form> {
    let exact = |s: &str| Form {
        bytes: s.as_bytes().to_vec(),
        any_case: false,
    };
    let any_case = |s: String| Form {
        bytes: s.into_bytes(),
        any_case: true,
    };
    // A letter in either case: a server that upper-cases what it quotes
    // (an error code, a header name's value) still quotes the secret.
    let mut forms = vec![match c.is_ascii_alphabetic() {
        true => any_case(c.to_string()),
        false => exact(c.encode_utf8(&mut [0; 4])),
    }];
    // Twice (`%252F`), as a URL inside another URL's query carries it;
    // a letter's other case escaped too.
    let mut cases = vec![c];
    if c.is_ascii_alphabetic() {
        cases.push(if c.is_ascii_lowercase() {
            c.to_ascii_uppercase()
        } else {
            c.to_ascii_lowercase()
        });
    }
    for c in cases {
        let utf8 = c.to_string();
        let percent =
            |prefix: &str| -> String { utf8.bytes().map(|b| format!("{prefix}{b:02X}")).collect() };
        forms.extend([percent("%"), percent("%25")].map(any_case));
    }
    let utf16: String = c
        .encode_utf16(&mut [0; 2])
        .iter()
        .map(|u| format!("\\u{u:04X}"))
        .collect();
    forms.push(any_case(utf16));
    forms.push(any_case(format!("&#{};", c as u32)));
    forms.push(any_case(format!("&#x{:X};", c as u32)));
    let short = match c {
        ' ' => vec!["+"],
        '"' => vec!["\\\"", "\\\\\\\"", "&quot;"],
        '\\' => vec!["\\\\", "\\\\\\\\"],
        '/' => vec!["\\/"],
        '&' => vec!["&amp;"],
        '<' => vec!["&lt;"],
        '>' => vec!["&gt;"],
        '\'' => vec!["&apos;"],
        '\n' => vec!["\\n"],
        '\r' => vec!["\\r"],
        '\t' => vec!["\\t"],
        '\u{8}' => vec!["\\b"],
        '\u{c}' => vec!["\\f"],
        _ => vec![],
    };
    forms.extend(short.into_iter().map(exact));
    forms
}

#[cfg(test)]
mod tests {
    use super::*;

    fn masked(value: &str, text: &str) -> String {
        Pattern::new(value)
            .replace_all(text, "***")
            .unwrap_or_else(|| text.to_string())
    }

    #[test]
    fn each_form_a_server_may_say_a_secret_back_in() {
        let secret = "a/b+c=d e\"f\\gé";
        for said in [
            secret,
            "a/b+c%3Dd%20e%22f%5Cg%C3%A9",
            "a%2Fb%2Bc%3Dd+e%22f%5Cg%C3%A9",
            "a%2fb%2bc%3dd%20e%22f%5cg%c3%a9",
            "a/b%2Bc%3Dd%20e%22f%5Cg%C3%A9",
            "%61%2F%62%2B%63%3D%64%20%65%22%66%5C%67%C3%A9",
            r#"a/b+c=d e\"f\\gé"#,
            r#"a/b+c=d e\"f\\g\u00e9"#,
            r#"a\/b+c=d e\"f\\g\u00E9"#,
            r#"a/b+c=d e\\\"f\\\\gé"#,
            "a/b+c=d e&quot;f\\gé",
            "a%252Fb%252Bc=d%2520e%2522f%255Cg%25C3%25A9",
            "a&#47;b&#x2b;c=d e&#34;f&#92;g&#xE9;",
        ] {
            assert_eq!(masked(secret, &format!("<{said}>")), "<***>", "{said}");
        }
    }

    #[test]
    fn only_the_secret_matches_and_the_rest_is_kept() {
        // Letters in either case (attack4: a server upper-cased it).
        assert_eq!(masked("Tok1", "tok1 TOK1 Tok2 Tok"), "*** *** Tok2 Tok");
        assert_eq!(masked("Tok1", "x%54ok1y é Tok1"), "x***y é ***");
        // A lower-case hex escape is an escape of its own letter.
        assert_eq!(masked("Ab", "%41b %61B ab"), "*** *** ***");
        assert_eq!(Pattern::new("abcd").replace_all("nothing", "***"), None);
        // Astral characters as a JSON surrogate pair.
        assert_eq!(masked("k\u{1F600}y", r"k\ud83d\ude00y"), "***");
    }
}
