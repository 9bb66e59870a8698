//! Text as it is shown: the bottom floor every layer may print through.
//!
//! The one way a long string is cut to fit (with `…`), the one terminal
//! sanitizer ([`sanitize`] and its variants: text from outside can never
//! move the cursor or plant a hyperlink), and [`mask_userinfo`] for URLs
//! with credentials. Pure string functions: this module imports nothing of
//! mcpctl's, so `defs`, `output` and everything above can use it.

use std::borrow::Cow;

/// The mask that stands for a hidden secret (a URL's userinfo, a literal
/// header value).
pub const MASK: &str = "***";

/// `text` cut to at most `width` terminal columns, ending in `…` when cut.
///
/// Columns, not bytes or chars: a wide character counts twice and an ANSI
/// style sequence not at all, so tables stay aligned; a cut never splits
/// a character.
pub fn truncate(text: &str, width: usize) -> String {
    console::truncate_str(text, width, "…").into_owned()
}

/// `text` in the style of an environment variable name: ASCII letters
/// upper-cased, digits kept, anything else `_` (`x-api-key` → `X_API_KEY`).
pub fn env_style(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect()
}

/// `text` with every character that a terminal could act on written as a
/// visible escape, for one line of output (a table cell, a name, a label).
///
/// Escaped: the C0 controls (U+0000–U+001F, newline and tab included), DEL,
/// the C1 controls (U+0080–U+009F, which some terminals obey as CSI, OSC …),
/// the line and paragraph separators U+2028/U+2029, and the bidirectional
/// controls (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069) that can make
/// text read differently from what it is. Newline, carriage return and tab
/// become `\n`, `\r` and `\t`; every other one becomes `\u{hex}` as in
/// Rust (ESC is `\u{1b}`). Backslashes are left alone, so sanitizing twice
/// changes nothing and Windows paths and regexes stay readable; the exact
/// text is always available with `--json`.
pub fn sanitize(text: &str) -> Cow<'_, str> {
    escape(text, false)
}

/// [`sanitize`] for a block of text printed as several lines (tool output,
/// stderr tails, error messages): newline and tab are kept, and a CR right
/// before a newline is dropped (a CRLF line end, not an overwrite).
pub fn sanitize_block(text: &str) -> Cow<'_, str> {
    escape(text, true)
}

/// [`sanitize`], and also every character that shows as nothing or
/// changes nothing on screen: format characters (zero-width space and
/// joiners, the Unicode tag characters that can spell a hidden text, a
/// byte-order mark, a soft hyphen …), variation selectors, the combining
/// grapheme joiner and the Hangul fillers. For the lines of a drift, where
/// a change made only of such characters must not read as no change.
pub fn sanitize_invisible(text: &str) -> Cow<'_, str> {
    escape_where(text, false, is_invisible)
}

/// [`sanitize`], and every character outside ASCII too: for two lines
/// that differ yet look alike (`é` against `e` and a combining accent).
pub fn sanitize_ascii(text: &str) -> Cow<'_, str> {
    escape_where(text, false, |c| !c.is_ascii())
}

/// True for the characters [`sanitize_invisible`] adds to [`sanitize`]'s.
pub fn is_invisible(c: char) -> bool {
    use unicode_general_category::{GeneralCategory, get_general_category};
    matches!(c,
        '\u{34f}'
        | '\u{115f}' | '\u{1160}' | '\u{3164}' | '\u{ffa0}'
        | '\u{180b}'..='\u{180f}'
        | '\u{fe00}'..='\u{fe0f}'
        | '\u{e0100}'..='\u{e01ef}')
        || get_general_category(c) == GeneralCategory::Format
}

/// True for the characters that show as a blank yet are not the space
/// U+0020: every other space (no-break, en, em, ideographic …), the
/// braille pattern blank U+2800 and the Hangul fillers. A drift writes them
/// out, so `a\u{a0}b` never reads as `a b`.
pub fn is_blank(c: char) -> bool {
    use unicode_general_category::{GeneralCategory, get_general_category};
    matches!(
        c,
        '\u{2800}' | '\u{115f}' | '\u{1160}' | '\u{3164}' | '\u{ffa0}'
    ) || (c != ' ' && get_general_category(c) == GeneralCategory::SpaceSeparator)
}

/// `c` written out as the sanitizers write what they escape: `\n`, `\r`
/// and `\t`, else `\u{hex}` as in Rust (ESC is `\u{1b}`). For a caller
/// that picks the characters itself (the drift renderer).
pub fn escaped(c: char) -> String {
    match c {
        '\n' => "\\n".into(),
        '\r' => "\\r".into(),
        '\t' => "\\t".into(),
        c => format!("\\u{{{:x}}}", c as u32),
    }
}

/// True for the characters [`sanitize`] escapes: those a terminal could act on.
pub fn is_unsafe(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}'
        | '\u{7f}'..='\u{9f}'
        | '\u{61c}'
        | '\u{200e}'
        | '\u{200f}'
        | '\u{2028}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}')
}

fn escape(text: &str, block: bool) -> Cow<'_, str> {
    escape_where(text, block, |_| false)
}

/// [`escape`], also escaping every character `extra` picks.
fn escape_where(text: &str, block: bool, extra: impl Fn(char) -> bool) -> Cow<'_, str> {
    let is_unsafe = |c: char| is_unsafe(c) || extra(c);
    let kept = |c: char| block && (c == '\n' || c == '\t');
    if !text.chars().any(|c| is_unsafe(c) && !kept(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            c if !is_unsafe(c) || kept(c) => out.push(c),
            '\r' if block && chars.peek() == Some(&'\n') => {}
            c => out.push_str(&escaped(c)),
        }
    }
    Cow::Owned(out)
}

/// `text` with the userinfo of every `scheme://user:pass@host` in it
/// replaced by `***`, so a URL with credentials can be printed anywhere.
pub fn mask_userinfo(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("://") {
        let (head, tail) = rest.split_at(at + 3);
        out.push_str(head);
        let authority_end = tail
            .find(|c: char| matches!(c, '/' | '?' | '#') || c.is_whitespace())
            .unwrap_or(tail.len());
        let authority = &tail[..authority_end];
        match authority.rfind('@') {
            Some(userinfo_end) if userinfo_end > 0 => {
                out.push_str(MASK);
                rest = &tail[userinfo_end..];
            }
            _ => rest = tail,
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_kept_whole() {
        assert_eq!(truncate("hello", 5), "hello");
        assert_eq!(truncate("", 3), "");
    }

    #[test]
    fn long_text_is_cut_to_the_width_with_an_ellipsis() {
        assert_eq!(truncate("hello world", 6), "hello…");
        assert_eq!(console::measure_text_width(&truncate("hello world", 6)), 6);
    }

    #[test]
    fn wide_characters_count_as_two_columns_and_are_not_split() {
        let cut = truncate("日本語のテキスト", 7);
        assert!(console::measure_text_width(&cut) <= 7, "{cut}");
        assert!(cut.ends_with('…'), "{cut}");
    }

    #[test]
    fn invisible_characters_are_written_out_only_where_asked() {
        let family = "\u{1f469}\u{200d}\u{1f467}";
        assert_eq!(sanitize(family), family, "plain output keeps emoji whole");
        assert_eq!(sanitize_invisible(family), "\u{1f469}\\u{200d}\u{1f467}");
        assert_eq!(
            sanitize_invisible("a\u{e0041}\u{ad}\u{fe0f}"),
            "a\\u{e0041}\\u{ad}\\u{fe0f}"
        );
        assert_eq!(sanitize_invisible("caf\u{e9}\u{1b}"), "caf\u{e9}\\u{1b}");
        assert_eq!(sanitize_ascii("cafe\u{301}"), "cafe\\u{301}");
    }

    #[test]
    fn every_terminal_control_is_made_visible() {
        let hostile = "a\u{1b}]8;;http://x\u{7}b\u{1b}[2J\u{1b}P1\u{1b}\\c\rd\u{8}e\u{9b}31mf\u{7f}\u{202e}g\u{2028}h\u{0}";
        let shown = sanitize(hostile);
        assert_eq!(
            shown,
            "a\\u{1b}]8;;http://x\\u{7}b\\u{1b}[2J\\u{1b}P1\\u{1b}\\c\\rd\\u{8}e\\u{9b}31mf\\u{7f}\\u{202e}g\\u{2028}h\\u{0}"
        );
        assert!(!shown.chars().any(is_unsafe));
        assert_eq!(sanitize("two\nlines\tx"), "two\\nlines\\tx");
    }

    #[test]
    fn blocks_keep_newlines_and_tabs_and_read_crlf_as_a_line_end() {
        assert_eq!(sanitize_block("a\tb\r\nc\rd\n"), "a\tb\nc\\rd\n");
        assert_eq!(sanitize_block("x\u{1b}[2Jy\n"), "x\\u{1b}[2Jy\n");
    }

    #[test]
    fn clean_text_is_borrowed_and_sanitizing_twice_changes_nothing() {
        let clean = "C:\\tools\\x  é 日本 ✓ \\u{1b}";
        assert!(matches!(sanitize(clean), Cow::Borrowed(_)));
        let once = sanitize("\u{1b}[1m\\").into_owned();
        assert_eq!(sanitize(&once), once);
    }

    #[test]
    fn userinfo_is_masked_wherever_a_url_appears() {
        assert_eq!(
            mask_userinfo("see https://me:pw@host:8/p?x=1 and http://host/a@b"),
            "see https://***@host:8/p?x=1 and http://host/a@b"
        );
        assert_eq!(mask_userinfo("no url here"), "no url here");
    }
}
