//! Reading a text file line by line with bounded memory, for the suite commands
//! (`perft --epd`, `epd`).
//!
//! No line is held longer than [`MAX_LINE`] bytes: a longer one is returned as
//! [`Line::TooLong`] while the reader runs past it, so a huge line, or a file that
//! never ends, cannot exhaust memory. A NUL byte is an error (`/dev/zero` and other
//! binary files are not text), and so is a failed read; both read `LINE: message`.
//! A UTF-8 byte-order mark at the start is dropped.

use std::io::{self, BufRead};

/// The longest line kept, in bytes; a suite line is under a few hundred.
pub const MAX_LINE: usize = 64 * 1024;

/// One physical line as read, without its line break.
pub enum Line {
    /// A line of UTF-8 text.
    Text(String),
    /// A line longer than [`MAX_LINE`] bytes, with its length; its text is dropped.
    TooLong(u64),
    /// A line that is not UTF-8, decoded lossily (for the message only).
    NotUtf8(String),
}

impl Line {
    /// The line's text, or why it has none (for a message about the line).
    pub fn into_text(self) -> Result<String, String> {
        match self {
            Line::Text(t) => Ok(t),
            Line::TooLong(n) => Err(format!("line of {n} bytes is longer than {MAX_LINE}")),
            Line::NotUtf8(lossy) => Err(format!(
                "not UTF-8 text: '{}'",
                super::text::escape_short(&lossy)
            )),
        }
    }
}

/// A bounded line reader over any buffered reader.
pub struct LineReader<R> {
    reader: R,
    line: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    /// A reader of the lines of `reader`.
    pub fn new(reader: R) -> LineReader<R> {
        LineReader {
            reader,
            line: 0,
            buf: Vec::new(),
        }
    }

    /// The 1-based number of the last line read (0 before the first).
    pub fn number(&self) -> usize {
        self.line
    }

    /// Read the next line, keeping at most [`MAX_LINE`] bytes; `None` at the end
    /// of the input.
    pub fn read_line(&mut self) -> Result<Option<Line>, String> {
        self.buf.clear();
        let (mut length, mut any) = (0u64, false);
        loop {
            let chunk = match self.reader.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(format!("{}: cannot read: {e}", self.line + 1)),
            };
            if chunk.is_empty() {
                if !any {
                    return Ok(None);
                }
                break;
            }
            any = true;
            let end = chunk.iter().position(|&b| b == b'\n');
            let part = &chunk[..end.unwrap_or(chunk.len())];
            if part.contains(&0) {
                return Err(format!(
                    "{}: NUL byte: this is not a text file",
                    self.line + 1
                ));
            }
            if length + part.len() as u64 <= MAX_LINE as u64 {
                self.buf.extend_from_slice(part);
            } else {
                self.buf.clear();
            }
            length += part.len() as u64;
            let used = part.len() + usize::from(end.is_some());
            self.reader.consume(used);
            if end.is_some() {
                break;
            }
        }
        self.line += 1;
        if length > MAX_LINE as u64 {
            return Ok(Some(Line::TooLong(length)));
        }
        let mut bytes = &self.buf[..];
        if self.line == 1 {
            bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        }
        Ok(Some(match std::str::from_utf8(bytes) {
            Ok(s) => Line::Text(s.to_string()),
            Err(_) => Line::NotUtf8(String::from_utf8_lossy(bytes).into_owned()),
        }))
    }
}
