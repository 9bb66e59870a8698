//! The byte-level conventions of a file that an edit must keep: a leading
//! UTF-8 byte-order mark, CRLF line endings, and a final newline.
//!
//! Editors on Windows write BOMs and CRLF; the syntax-tree editors insert
//! plain `\n`. So an edit works on the text with those conventions taken
//! off ([`Layout::of`]) and puts them back on the result
//! ([`Layout::restore`]), which also ends every written file with a newline.

use std::borrow::Cow;

/// The UTF-8 byte-order mark, as a character.
const BOM: char = '\u{feff}';

/// How a file's text is laid out, beside its content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// The file starts with a UTF-8 BOM.
    pub bom: bool,
    /// The file's lines end with `\r\n` (judged by its first line ending).
    pub crlf: bool,
}

/// `text` without a leading byte-order mark, which serde parsers refuse.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix(BOM).unwrap_or(text)
}

impl Layout {
    /// The layout of `text`, and the text to edit: without a BOM, and with
    /// `\n` line endings when the file uses CRLF.
    pub fn of(text: &str) -> (Layout, Cow<'_, str>) {
        let body = without_bom(text);
        let crlf = body.find('\n').is_some_and(|at| body[..at].ends_with('\r'));
        let layout = Layout {
            bom: body.len() != text.len(),
            crlf,
        };
        let body = if crlf {
            Cow::Owned(body.replace("\r\n", "\n"))
        } else {
            Cow::Borrowed(body)
        };
        (layout, body)
    }

    /// Put the layout back on edited text (written with `\n` endings), and
    /// end it with a newline.
    pub fn restore(self, edited: &str) -> String {
        let mut out = String::with_capacity(edited.len() + edited.len() / 16 + 4);
        if self.bom {
            out.push(BOM);
        }
        if self.crlf {
            // Normalise first, so a `\r\n` that survived the edit is not doubled.
            out.push_str(&edited.replace("\r\n", "\n").replace('\n', "\r\n"));
        } else {
            out.push_str(edited);
        }
        if !out.ends_with('\n') {
            out.push_str(if self.crlf { "\r\n" } else { "\n" });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_and_crlf_round_trip() {
        let text = "\u{feff}{\r\n  \"a\": 1\r\n}";
        let (layout, body) = Layout::of(text);
        assert_eq!(
            layout,
            Layout {
                bom: true,
                crlf: true
            }
        );
        assert_eq!(body, "{\n  \"a\": 1\n}");
        assert_eq!(
            layout.restore(&format!("{body}\n")),
            "\u{feff}{\r\n  \"a\": 1\r\n}\r\n"
        );
    }

    #[test]
    fn plain_text_gets_only_a_final_newline() {
        let (layout, body) = Layout::of("{}");
        assert!(matches!(body, Cow::Borrowed("{}")));
        assert_eq!(layout.restore("{}"), "{}\n");
        assert_eq!(layout.restore("{}\n"), "{}\n");
    }
}
