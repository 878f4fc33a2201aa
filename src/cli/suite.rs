//! Reading a perft suite file line by line, for `brokkr perft --epd`.
//!
//! A suite is read as it is checked, never whole, and no line is held longer than
//! [`MAX_LINE`] bytes: a longer one is reported and skipped while the reader runs
//! past it, so a huge line, or a file that never ends, cannot exhaust memory. A
//! NUL byte ends the run (`/dev/zero` and other binary files are not suites), as
//! does a malformed count. The formats are those of
//! [`crate::board::perft::parse_suite`]: `FEN ;D1 n ;D2 n ...` lines, or `epd FEN`
//! lines each followed by `perft DEPTH n` lines; `#` comments, `id` lines and blank
//! lines are skipped, and so is a UTF-8 byte-order mark at the start.

use super::args::parse_count;
use super::lines::MAX_LINE;
use super::lines::{Line, LineReader};
use super::text::escape_short;
use crate::board::perft::MAX_DEPTH;
use std::collections::VecDeque;
use std::io::BufRead;

/// After this many skipped lines the file is taken not to be a suite.
pub const MAX_SKIPPED: usize = 100;

/// One position of a suite with its expected counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// 1-based line number where the position starts.
    pub line: usize,
    pub fen: String,
    /// (depth, expected leaf count).
    pub counts: Vec<(u32, u64)>,
}

/// What the reader yields.
#[derive(Debug, PartialEq, Eq)]
pub enum Item {
    /// A position with all its counts.
    Position(Position),
    /// A line that was skipped, with the reason (already escaped and short).
    Skipped { line: usize, why: String },
}

/// A streaming suite parser over any buffered reader. Errors (`Err`) end the
/// run; they read `LINE: message`.
pub struct SuiteReader<R> {
    lines: LineReader<R>,
    /// The number of the line being parsed.
    line: usize,
    /// The `epd` block being read, waiting for its `perft` lines.
    open: Option<Position>,
    /// Skip `perft` lines until the next position: their `epd` line was skipped.
    orphaned: bool,
    ready: VecDeque<Item>,
    skipped: usize,
    done: bool,
}

impl<R: BufRead> SuiteReader<R> {
    /// A reader of the suite in `reader`.
    pub fn new(reader: R) -> SuiteReader<R> {
        SuiteReader {
            lines: LineReader::new(reader),
            line: 0,
            open: None,
            orphaned: false,
            ready: VecDeque::new(),
            skipped: 0,
            done: false,
        }
    }

    /// Close the open `epd` block, if any.
    fn close(&mut self) {
        if let Some(p) = self.open.take() {
            self.ready.push_back(Item::Position(p));
        }
    }

    fn skip(&mut self, why: String) -> Result<(), String> {
        self.close();
        self.orphaned = true;
        self.skipped += 1;
        self.ready.push_back(Item::Skipped {
            line: self.line,
            why,
        });
        if self.skipped > MAX_SKIPPED {
            return Err(format!(
                "{}: more than {MAX_SKIPPED} lines skipped: this does not look like a perft suite",
                self.line
            ));
        }
        Ok(())
    }

    /// Read lines until at least one item is ready or the input ends.
    fn advance(&mut self) -> Result<(), String> {
        while self.ready.is_empty() {
            let read = self.lines.read_line()?;
            self.line = self.lines.number();
            let text = match read {
                None => {
                    self.close();
                    self.done = true;
                    return Ok(());
                }
                Some(Line::TooLong(n)) => {
                    self.skip(format!(
                        "line of {n} bytes is longer than {MAX_LINE}: skipped"
                    ))?;
                    continue;
                }
                Some(Line::NotUtf8(lossy)) => {
                    self.skip(format!("not UTF-8 text: '{}'", escape_short(&lossy)))?;
                    continue;
                }
                Some(Line::Text(t)) => t,
            };
            self.parse_line(text.trim())?;
        }
        Ok(())
    }

    fn parse_line(&mut self, line: &str) -> Result<(), String> {
        let n = self.line;
        if line.is_empty() || line.starts_with('#') || line.starts_with("id ") {
            return Ok(());
        }
        if let Some(fen) = line.strip_prefix("epd ") {
            self.close();
            self.orphaned = false;
            self.open = Some(Position {
                line: n,
                fen: fen.trim().to_string(),
                counts: vec![],
            });
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let count = parse_depth_count(rest).map_err(|e| format!("{n}: {e}"))?;
            match &mut self.open {
                Some(p) => p.counts.push(count),
                None if self.orphaned => {}
                None => return Err(format!("{n}: 'perft' line before any 'epd' line")),
            }
        } else {
            self.close();
            self.orphaned = false;
            let mut parts = line.split(';');
            let fen = parts.next().unwrap_or("").trim().to_string();
            let counts = parts
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(|p| parse_depth_count(p.strip_prefix('D').unwrap_or(p)))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| format!("{n}: {e}"))?;
            self.ready.push_back(Item::Position(Position {
                line: n,
                fen,
                counts,
            }));
        }
        Ok(())
    }
}

impl<R: BufRead> Iterator for SuiteReader<R> {
    type Item = Result<Item, String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.ready.is_empty() && !self.done {
            if let Err(e) = self.advance() {
                self.done = true;
                self.ready.clear();
                return Some(Err(e));
            }
        }
        self.ready.pop_front().map(Ok)
    }
}

/// A perft depth from 0 to [`MAX_DEPTH`], with the message for anything else
/// (shared by the suite reader and the command line's `perft DEPTH`).
pub(super) fn parse_depth(d: &str) -> Result<u32, String> {
    d.parse::<u32>()
        .ok()
        .filter(|&d| d <= MAX_DEPTH)
        .ok_or_else(|| {
            format!(
                "bad depth '{}': expected a whole number from 0 to {MAX_DEPTH}",
                escape_short(d)
            )
        })
}

/// `DEPTH COUNT`, each checked with its own message.
fn parse_depth_count(text: &str) -> Result<(u32, u64), String> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let [depth, count] = fields[..] else {
        return Err(format!(
            "expected 'DEPTH COUNT', got '{}'",
            escape_short(text.trim())
        ));
    };
    let depth = parse_depth(depth)?;
    let count = parse_count(count).map_err(|why| format!("bad count at depth {depth}: {why}"))?;
    Ok((depth, count))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::perft::parse_suite;

    fn read(text: &[u8]) -> Vec<Result<Item, String>> {
        SuiteReader::new(text).collect()
    }

    #[test]
    fn reads_the_data_files_as_parse_suite_does() {
        for name in [
            "standard.epd",
            "cpw.epd",
            "tricky.perft",
            "fischer.epd",
            "random.perft",
        ] {
            let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap();
            let expected: Vec<Item> = parse_suite(&text)
                .unwrap()
                .into_iter()
                .map(|e| {
                    Item::Position(Position {
                        line: e.line,
                        fen: e.fen,
                        counts: e.counts,
                    })
                })
                .collect();
            let got: Vec<Item> = read(text.as_bytes())
                .into_iter()
                .map(Result::unwrap)
                .collect();
            assert!(!got.is_empty(), "{name}");
            assert_eq!(got, expected, "{name}");
        }
    }

    #[test]
    fn skips_a_bom_and_long_lines_and_stops_at_nul() {
        let mut text = b"\xEF\xBB\xBF8/8/8/8/8/8/8/K6k w - - ;D1 3\n".to_vec();
        text.extend(vec![b'x'; MAX_LINE + 1]);
        text.extend(b"\nepd 8/8/8/8/8/8/8/K6k w - -\nperft 1 3\n");
        let items = read(&text);
        assert_eq!(items.len(), 3, "{items:?}");
        assert!(
            matches!(&items[0], Ok(Item::Position(p)) if p.fen.starts_with("8/8") && p.line == 1)
        );
        assert!(
            matches!(&items[1], Ok(Item::Skipped { line: 2, why }) if why.contains("65537 bytes"))
        );
        assert!(matches!(&items[2], Ok(Item::Position(p)) if p.counts == vec![(1, 3)]));
        let items = read(b"8/8/8/8/8/8/8/K6k w - - ;D1 3\n\0\0\0");
        assert!(matches!(&items[1], Err(e) if e.starts_with("2: NUL byte")));
    }

    #[test]
    fn perft_lines_of_a_skipped_position_are_dropped() {
        let items = read(b"epd \xff\nperft 1 3\nperft 2 9\n");
        assert_eq!(items.len(), 1, "{items:?}");
        assert!(matches!(&items[0], Ok(Item::Skipped { line: 1, .. })));
    }

    #[test]
    fn counts_have_clear_messages() {
        let err = |t: &str| read(t.as_bytes()).pop().unwrap().unwrap_err();
        let e = err("8/8/8/8/8/8/8/K6k w - - ;D1 99999999999999999999\n");
        assert!(
            e.contains("bad count at depth 1") && e.contains("too large"),
            "{e}"
        );
        let e = err("8/8/8/8/8/8/8/K6k w - - ;D21 5\n");
        assert!(e.contains("bad depth '21'"), "{e}");
        let e = err("perft 1 3\n");
        assert!(e.contains("before any 'epd'"), "{e}");
    }
}
