//! Showing text that came from a file or the command line, safely: a line of a
//! suite file may be megabytes long or hold terminal escape sequences, and must
//! reach the terminal neither whole nor raw.

/// How many characters of a quoted input [`escape_short`] keeps.
pub const SHOWN_CHARS: usize = 80;

/// `s` with control and non-printable characters escaped (`\x1b`, `\u{202e}`) and
/// backslashes doubled, cut after [`SHOWN_CHARS`] characters with `…`.
pub fn escape_short(s: &str) -> String {
    escape(s, SHOWN_CHARS)
}

/// `s` escaped as [`escape_short`] does, cut after `max_chars` characters.
pub fn escape(s: &str, max_chars: usize) -> String {
    let mut out = String::new();
    for (shown, c) in s.chars().enumerate() {
        if shown == max_chars {
            out.push('…');
            break;
        }
        push_escaped(&mut out, c);
    }
    out
}

/// Push `c`, escaped if it is not a plain printable character.
fn push_escaped(out: &mut String, c: char) {
    match c {
        '\\' => out.push_str("\\\\"),
        c if c.is_ascii_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
        c if c.is_ascii() => out.push(c),
        // Rust's own table of printable characters: it escapes the other controls,
        // format characters (bidi overrides, zero-width ones, the BOM) and
        // unassigned code points as \u{..}.
        c => out.extend(c.escape_debug()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_controls_and_invisible_characters() {
        assert_eq!(escape_short("a\x1b[31mb\tc\\"), "a\\x1b[31mb\\x09c\\\\");
        assert_eq!(escape_short("\u{feff}x\u{202e}é"), "\\u{feff}x\\u{202e}é");
    }

    #[test]
    fn shortens_long_text() {
        let long = "x".repeat(1000);
        let shown = escape_short(&long);
        assert_eq!(shown.chars().count(), SHOWN_CHARS + 1);
        assert!(shown.ends_with('…'));
        assert_eq!(
            escape_short(&"y".repeat(SHOWN_CHARS)),
            "y".repeat(SHOWN_CHARS)
        );
    }
}
