//! Quoting for messages: every value a message shows from its input (a token, a field of a
//! record) goes through [`quote`], so that a control character, an ESC that would drive the
//! terminal, a bidirectional override or a megabyte-long value reads as text, short.
//!
//! A leaf: it imports nothing from the crate, so every room can use it.

/// The most characters of a token shown in a message; longer ones end in `…`.
pub const QUOTE_CHARS: usize = 60;

/// A token as shown in a message: at most [`QUOTE_CHARS`] characters, then `…`, with control
/// characters, NUL, invisible format characters (U+FEFF, U+200B, ...) escaped Rust-style
/// (`\0`, `\t`, `\u{feff}`).
pub fn quote(token: &str) -> String {
    let mut out = String::new();
    for (k, c) in token.chars().enumerate() {
        if k == QUOTE_CHARS {
            out.push('…');
            break;
        }
        push_escaped(&mut out, c);
    }
    out
}

/// [`quote`] for bytes that may not be UTF-8: an invalid byte shows as `\xNN`.
pub fn quote_bytes(token: &[u8]) -> String {
    let mut out = String::new();
    let mut shown = 0;
    for chunk in token.utf8_chunks() {
        for c in chunk.valid().chars() {
            if shown == QUOTE_CHARS {
                out.push('…');
                return out;
            }
            push_escaped(&mut out, c);
            shown += 1;
        }
        for b in chunk.invalid() {
            if shown == QUOTE_CHARS {
                out.push('…');
                return out;
            }
            out.push_str(&format!("\\x{b:02x}"));
            shown += 1;
        }
    }
    out
}

/// A whole message built by another library (serde's, csv's) that may quote input verbatim:
/// [`quote`]'s escapes, without shortening (its own pieces are short).
pub fn escape(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    for c in message.chars() {
        push_escaped(&mut out, c);
    }
    out
}

fn push_escaped(out: &mut String, c: char) {
    match c {
        '\0' => out.push_str("\\0"),
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        c if c.is_control() || is_invisible(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        c => out.push(c),
    }
}

/// Format characters that show as nothing (or reorder text) in a terminal.
fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{206f}' | '\u{feff}' | '\u{fff9}'..='\u{fffb}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_short_and_escaped() {
        assert_eq!(quote("abc"), "abc");
        assert_eq!(quote("a\0b\u{feff}\t"), "a\\0b\\u{feff}\\t");
        let long = "x".repeat(10_000);
        let q = quote(&long);
        assert_eq!(q.chars().count(), QUOTE_CHARS + 1);
        assert!(q.ends_with('…'));
        assert_eq!(quote_bytes(b"a\xff\x00"), "a\\xff\\0");
    }

    #[test]
    fn escapes_terminal_controls_and_invisible_marks() {
        assert_eq!(quote("a\u{1b}[31mb"), "a\\u{1b}[31mb");
        assert_eq!(quote("\u{85}\u{202e}\u{feff}"), "\\u{85}\\u{202e}\\u{feff}");
        let long = format!("unknown variant `qu\u{1b}[2J{}`", "e".repeat(100));
        assert_eq!(escape(&long), long.replace('\u{1b}', "\\u{1b}"));
    }
}
