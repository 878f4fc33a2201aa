//! The protocols: UCI and xboard/CECP v2, as thin dialects over one
//! [`Controller`](controller::Controller).
//!
//! May not touch: the command line (the layers: docs/architecture.md).
//!
//! ```text
//! stdin ─► reader thread ─Msg─► dialect (uci | xboard) ─► controller ─► search thread
//! stdout ◄──────────────── lines, flushed one by one ◄───────────────────────┘
//! ```
//!
//! Once a search has started, input is read on its own thread and handed over as
//! [`Msg`]s, together with the search thread's "done" message, so the dialect loop
//! never blocks on either and `stop`, `?` and `quit` act at once. Before the first
//! search the dialect reads stdin itself ([`Inbox`]): the hand-off between two
//! threads costs a wake-up per line, which on a busy machine was most of the time
//! from spawn to `readyok`. A line longer than [`MAX_LINE`] bytes is reported and
//! dropped without being buffered whole; bytes that are not UTF-8 are replaced, so
//! they reach the dialect as an unknown command.

pub mod controller;
pub mod options;
pub mod uci;
pub mod xboard;

use crate::search::SearchResult;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Mutex;

/// The longest input line accepted, in bytes.
pub const MAX_LINE: usize = 1 << 20;

/// Which protocol to speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    Xboard,
}

/// What the dialect loop receives.
#[derive(Debug)]
pub enum Msg {
    /// One input line, without its line ending.
    Line(String),
    /// An input line longer than [`MAX_LINE`] bytes (dropped); its length.
    TooLong(usize),
    /// End of input (or a read error): quit.
    Eof,
    /// The search with this id finished.
    SearchDone(u64, SearchResult),
}

static STDOUT: Mutex<()> = Mutex::new(());

/// Whether the output goes to an xboard GUI, which must never see
/// [`XBOARD_FATAL`]'s phrases (set once the dialect is known).
static XBOARD_OUTPUT: AtomicBool = AtomicBool::new(false);

/// Phrases that XBoard takes, anywhere in any line the engine prints, for a
/// failed start: its backend (`HandleMachineMove` in `backend.c`) then shows
/// "Failed to start ... chess program" and waits for ever. Each is printed in
/// xboard mode as the words beside it, which say the same thing and match none
/// of them, in any case (the longer form of one goes first).
pub const XBOARD_FATAL: [(&str, &str); 7] = [
    ("unknown host", "unresolved host"),
    ("No remote directory", "remote folder missing"),
    ("not found", "missing"),
    ("No such file or directory", "does not exist"),
    ("No such file", "does not exist"),
    ("can't alloc", "cannot allocate"),
    ("Permission denied", "access refused"),
];

/// Mark the output as going to an xboard GUI: from now on [`emit`] rewords
/// [`XBOARD_FATAL`]'s phrases.
pub fn xboard_output() {
    XBOARD_OUTPUT.store(true, Ordering::Relaxed);
}

/// `line` with XBoard's failed-start phrases reworded (see [`XBOARD_FATAL`]).
/// XBoard compares them case-sensitively, as does this.
pub fn xboard_safe(line: &str) -> std::borrow::Cow<'_, str> {
    if !XBOARD_FATAL.iter().any(|(bad, _)| line.contains(bad)) {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut s = line.to_string();
    for (bad, good) in XBOARD_FATAL {
        s = s.replace(bad, good);
    }
    std::borrow::Cow::Owned(s)
}

/// Write a line (or several, joined by `\n`) to stdout in one write, and flush
/// it. A write error (the GUI has gone) ends the process quietly, as a closed
/// pipe would. To an xboard GUI, the phrases it takes for a failed start are
/// reworded first ([`xboard_safe`]).
pub fn emit(line: &str) {
    let line = if XBOARD_OUTPUT.load(Ordering::Relaxed) {
        xboard_safe(line)
    } else {
        std::borrow::Cow::Borrowed(line)
    };
    let mut text = String::with_capacity(line.len() + 1);
    text.push_str(&line);
    text.push('\n');
    let _guard = STDOUT.lock().unwrap_or_else(|e| e.into_inner());
    let mut out = std::io::stdout().lock();
    if out
        .write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .is_err()
    {
        std::process::exit(0);
    }
}

/// Where the dialect loop gets its messages: stdin read on the loop's own thread
/// until the first search, then a reader thread's [`Msg`]s.
///
/// Stdin keeps its buffer in the process-wide handle, so lines already read ahead
/// on this thread are not lost when the reader thread takes over.
pub struct Inbox {
    rx: Receiver<Msg>,
    tx: Sender<Msg>,
    threaded: bool,
    /// Commands from the command line (`brokkr "go depth 5" quit`), read
    /// instead of stdin; when they run out, the input ends.
    script: Option<std::collections::VecDeque<String>>,
}

impl Inbox {
    /// An inbox reading stdin on the caller's thread for now.
    pub fn new() -> Inbox {
        let (tx, rx) = channel();
        Inbox {
            rx,
            tx,
            threaded: false,
            script: None,
        }
    }

    /// An inbox that reads `lines` instead of stdin, as Stockfish reads its
    /// command-line arguments, then ends the input.
    pub fn scripted(lines: Vec<String>) -> Inbox {
        Inbox {
            script: Some(lines.into()),
            ..Inbox::new()
        }
    }

    /// Whether the input is a script: at its end a running search is waited
    /// for, not stopped, since nobody can send `stop`.
    pub fn is_scripted(&self) -> bool {
        self.script.is_some()
    }

    /// A sender for messages to the loop (the search's "done").
    pub fn sender(&self) -> Sender<Msg> {
        self.tx.clone()
    }

    /// The next message, waiting for it.
    pub fn recv(&mut self) -> Msg {
        if let Some(script) = &mut self.script {
            if let Ok(m) = self.rx.try_recv() {
                return m;
            }
            return script.pop_front().map_or(Msg::Eof, Msg::Line);
        }
        if self.threaded {
            return self.rx.recv().unwrap_or(Msg::Eof);
        }
        // No search has run yet, so nothing but stdin can have anything to say.
        if let Ok(m) = self.rx.try_recv() {
            return m;
        }
        read_line(&mut std::io::stdin().lock())
    }

    /// Read stdin on a thread of its own from now on, so input is read while a
    /// search runs. Call before starting one.
    pub fn read_in_background(&mut self) {
        if self.threaded || self.script.is_some() {
            return;
        }
        let tx = self.tx.clone();
        let spawned = std::thread::Builder::new()
            .name("brokkr-input".into())
            .spawn(move || {
                let mut input = std::io::stdin().lock();
                loop {
                    let msg = read_line(&mut input);
                    let eof = matches!(msg, Msg::Eof);
                    if tx.send(msg).is_err() || eof {
                        break;
                    }
                }
            });
        // Without the thread, stdin stays on this one: a search then cannot be
        // stopped by input, but it still ends by its own limits.
        self.threaded = spawned.is_ok();
    }
}

impl Default for Inbox {
    fn default() -> Inbox {
        Inbox::new()
    }
}

/// One line from `input`, at most [`MAX_LINE`] bytes kept.
pub fn read_line(input: &mut impl BufRead) -> Msg {
    let mut line = Vec::new();
    let mut total = 0usize;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return Msg::Eof,
        };
        if buf.is_empty() {
            if total == 0 {
                return Msg::Eof;
            }
            break;
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        total += chunk.len();
        if total <= MAX_LINE {
            line.extend_from_slice(chunk);
        }
        let used = done.unwrap_or(buf.len());
        input.consume(used);
        if done.is_some() {
            break;
        }
    }
    if total > MAX_LINE {
        return Msg::TooLong(total);
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Msg::Line(String::from_utf8_lossy(&line).into_owned())
}

/// A line shortened and escaped for an error message.
pub fn shown(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i == 60 {
            out.push('…');
            break;
        }
        if c.is_control() || c == '\u{FFFD}' {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Run the engine on stdin/stdout, or on the lines of `script` instead of
/// stdin. `forced` skips the detection from the first command; `switches`
/// makes UCI's `uci` answer list the hidden feature and term-group switches
/// too. Returns the exit code.
pub fn run(forced: Option<Protocol>, switches: bool, script: Option<Vec<String>>) -> i32 {
    let mut inbox = script.map_or_else(Inbox::new, Inbox::scripted);
    let (protocol, first) = match forced {
        Some(p) => (p, None),
        // The deciding line is handed back to the dialect.
        None => match detect(&mut inbox) {
            Some(found) => found,
            None => return 0,
        },
    };
    match protocol {
        Protocol::Uci => uci::run(inbox, first, switches),
        Protocol::Xboard => {
            xboard_output();
            xboard::run(inbox, first)
        }
    }
}

/// Wait for the first command: `xboard` or `protover` means xboard, anything else
/// UCI. Empty lines are skipped; `quit` or EOF before any command ends the process.
fn detect(inbox: &mut Inbox) -> Option<(Protocol, Option<String>)> {
    loop {
        match inbox.recv() {
            Msg::Line(l) => {
                let word = l.split_whitespace().next().unwrap_or("");
                match word {
                    "" => continue,
                    "quit" => return None,
                    "xboard" | "protover" => return Some((Protocol::Xboard, Some(l))),
                    _ => return Some((Protocol::Uci, Some(l))),
                }
            }
            Msg::TooLong(n) => {
                emit(&format!(
                    "info string ignored an input line of {n} bytes (the limit is {MAX_LINE})"
                ));
            }
            Msg::Eof => return None,
            Msg::SearchDone(..) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<String> {
        let mut r = std::io::BufReader::with_capacity(7, input);
        let mut out = vec![];
        loop {
            match read_line(&mut r) {
                Msg::Line(l) => out.push(l),
                Msg::TooLong(n) => out.push(format!("<{n}>")),
                Msg::Eof => return out,
                Msg::SearchDone(..) => unreachable!(),
            }
        }
    }

    #[test]
    fn reads_lines_across_buffer_boundaries() {
        assert_eq!(
            lines(b"uci\r\nisready\n\nposition startpos moves e2e4\nlast"),
            ["uci", "isready", "", "position startpos moves e2e4", "last"]
        );
    }

    #[test]
    fn drops_overlong_lines_and_keeps_going() {
        let mut input = vec![b'x'; MAX_LINE + 5];
        input.extend_from_slice(b"\nisready\n");
        assert_eq!(
            lines(&input),
            [format!("<{}>", MAX_LINE + 5), "isready".into()]
        );
    }

    #[test]
    fn replaces_bytes_that_are_not_utf8() {
        assert_eq!(lines(b"go\xff\xfe\n"), ["go\u{FFFD}\u{FFFD}"]);
    }

    #[test]
    fn xboard_never_reads_a_failed_start_phrase() {
        let line = "# SyzygyPath: /EGT/Syzygy: No such file or directory; not found; \
                    Permission denied; can't alloc; unknown host; No remote directory";
        let safe = xboard_safe(line);
        for (bad, _) in XBOARD_FATAL {
            let bad = bad.to_ascii_lowercase();
            assert!(!safe.to_ascii_lowercase().contains(&bad), "{safe}");
        }
        assert!(matches!(
            xboard_safe("move e2e4"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn shown_escapes_and_shortens() {
        assert_eq!(shown("a\u{1b}[2Jb"), "a\\u{1b}[2Jb");
        assert!(shown(&"y".repeat(500)).chars().count() <= 61);
    }
}
