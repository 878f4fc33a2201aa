//! The output file, and resuming it.
//!
//! The file is a header line (`# brokkr datagen v1: ...`, the settings that decide
//! the games), then each finished game: its position lines and a `# game N: ...`
//! line. A game is appended in one write, its `# game` line last, so whatever a
//! killed run leaves after the last `# game` line is an unfinished game or a torn
//! line, and only that.
//!
//! Opening the file again reads it once with bounded memory, collects the numbers
//! of the finished games, checks the header (games made with other settings are
//! not the same games, so a file is only resumed with its own settings), and cuts
//! the file after its last `# game` line. A file that does not start with a
//! datagen header is not touched. The file is locked while a run writes it, so two
//! runs cannot append the same games.
//!
//! A game may keep no position at all (every one was in check, had a capture for
//! its best move, or a mate score): it is still a finished game, recorded by its
//! `# game N: ..., 0 positions` line alone, so that a resumed run does not play
//! it again.

use super::game::Played;
use crate::cli::text::escape;
use crate::nnue::marlin;
use std::collections::HashSet;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, BufRead, BufReader, Seek, SeekFrom, Write};

/// The start of the header line; the version changes when the same settings
/// would give other games.
pub const HEADER_PREFIX: &str = "# brokkr datagen v1: ";

/// The start of the line that ends a game.
pub const GAME_PREFIX: &str = "# game ";

/// The output file, opened for appending after its finished games.
pub struct DataFile {
    file: File,
    /// The numbers of the games the file holds.
    pub done: HashSet<u64>,
    /// The position lines of those games.
    pub positions: u64,
    /// The `# game` lines of games that kept a position: in marlinformat, the
    /// records with a game-end mark (a game that kept none has no record to
    /// carry one).
    pub marked: u64,
}

/// What a scan of an existing file found.
#[derive(Debug, Default, PartialEq, Eq)]
struct Scan {
    /// The first line, if it is complete (up to [`KEPT`] bytes of it).
    header: Option<Vec<u8>>,
    /// The byte just after the last complete game (or the header).
    good_end: u64,
    /// The file's length.
    len: u64,
    done: HashSet<u64>,
    positions: u64,
    /// See [`DataFile::marked`].
    marked: u64,
    /// Position lines after the last game (an unfinished game).
    unfinished: u64,
    /// The kept bytes of a last line that has no line break (a torn line).
    torn: Vec<u8>,
}

/// The bytes of a line kept for reading it: enough for a header or a `# game`
/// line. Longer lines are counted, not kept, so memory stays bounded.
const KEPT: usize = 512;

/// Read `r` once: its header, finished games and where they end.
fn scan(mut r: impl BufRead) -> io::Result<Scan> {
    let mut s = Scan::default();
    let (mut line, mut lines, mut pending) = (Vec::new(), 0u64, 0u64);
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        let end = chunk.iter().position(|&b| b == b'\n');
        let part = &chunk[..end.unwrap_or(chunk.len())];
        let room = KEPT.saturating_sub(line.len());
        line.extend_from_slice(&part[..part.len().min(room)]);
        let used = part.len() + usize::from(end.is_some());
        r.consume(used);
        s.len += used as u64;
        if end.is_none() {
            continue;
        }
        if lines == 0 {
            s.header = Some(line.clone());
            s.good_end = s.len;
        } else if let Some(n) = game_number(&line) {
            s.done.insert(n);
            s.marked += u64::from(!keeps_nothing(&line));
            s.positions += pending;
            pending = 0;
            s.good_end = s.len;
        } else if !line.is_empty() && line[0] != b'#' {
            pending += 1;
        }
        line.clear();
        lines += 1;
    }
    s.unfinished = pending;
    s.torn = line;
    Ok(s)
}

/// The number of a `# game N...` line.
fn game_number(line: &[u8]) -> Option<u64> {
    let rest = line.strip_prefix(GAME_PREFIX.as_bytes())?;
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    let n = std::str::from_utf8(&rest[..digits]).ok()?.parse().ok()?;
    match rest.get(digits) {
        None | Some(b':') => Some(n),
        _ => None,
    }
}

/// Whether a `# game` line says that its game kept no position (it ends in
/// `, 0 positions`, as [`super::game`] writes it). A line that does not say
/// counts as a game that kept some: so did every game of the files written
/// before a game could be empty (their marlinformat records resumed only if
/// it did).
fn keeps_nothing(line: &[u8]) -> bool {
    line.ends_with(b", 0 positions")
}

impl DataFile {
    /// Open (or create) `path` for a run whose header line is `header` (without
    /// its line break): lock it, keep its finished games and cut what follows them.
    pub fn open(path: &str, header: &str) -> Result<DataFile, String> {
        let name = escape(path, 200);
        let fail = |what: &str, e: io::Error| format!("cannot {what} '{name}': {e}");
        let mut file = open_locked(path)?;
        let s = scan(BufReader::new(&file)).map_err(|e| fail("read", e))?;
        let fresh = match &s.header {
            // Empty, or a header cut short by a killed run: start again.
            None if s.len == s.torn.len() as u64 && header.as_bytes().starts_with(&s.torn) => true,
            None => return Err(not_ours(&name)),
            Some(h) if h.as_slice() == header.as_bytes() => false,
            Some(h) if h.starts_with(HEADER_PREFIX.as_bytes()) => {
                return Err(format!(
                    "'{name}' was written with other settings:\n  {}\nthis run's are\n  {}\n\
                     resume it with the same --seed, --nodes, --hash, --random-plies and \
                     --book, or write to another file",
                    escape(&String::from_utf8_lossy(h), 300),
                    escape(header, 300)
                ))
            }
            Some(_) => return Err(not_ours(&name)),
        };
        if fresh {
            file.set_len(0).map_err(|e| fail("write", e))?;
            file.seek(SeekFrom::Start(0))
                .map_err(|e| fail("write", e))?;
            file.write_all(format!("{header}\n").as_bytes())
                .map_err(|e| fail("write", e))?;
            return Ok(DataFile {
                file,
                done: HashSet::new(),
                positions: 0,
                marked: 0,
            });
        }
        if s.good_end < s.len {
            noteln!(
                "brokkr: {name}: dropped the end of an unfinished game ({} position line(s){}, {} bytes)",
                s.unfinished,
                if s.torn.is_empty() { "" } else { " and a torn line" },
                s.len - s.good_end
            );
            file.set_len(s.good_end).map_err(|e| fail("write", e))?;
        }
        file.seek(SeekFrom::End(0)).map_err(|e| fail("write", e))?;
        Ok(DataFile {
            file,
            done: s.done,
            positions: s.positions,
            marked: s.marked,
        })
    }

    /// Append one finished game (its lines and its `# game` line) in one write.
    pub fn append(&mut self, text: &str) -> io::Result<()> {
        self.file.write_all(text.as_bytes())?;
        self.file.flush()
    }
}

/// The marlinformat output: 32-byte records in `FILE` (see
/// [`crate::nnue::marlin`]; each game's last one marked in byte 31), and beside
/// it `FILE.games`, the text output without its position lines: the header line
/// and one `# game N: ...` line a game, in the order of the records. A game's
/// records are written first and its line second, so reopening keeps the games
/// the index lists and cuts the records after the last of them (an unfinished
/// game, or one whose line a killed run did not write). A game that kept no
/// position has its line and no record, so the records hold one game end for
/// each line of a game that kept some ([`DataFile::marked`]).
pub struct MarlinFile {
    records: File,
    index: DataFile,
}

impl MarlinFile {
    /// Open (or create) `path` and its index for a run whose header is
    /// `header`: lock both, keep their finished games and cut what follows.
    pub fn open(path: &str, header: &str) -> Result<MarlinFile, String> {
        let name = escape(path, 200);
        let index_path = format!("{path}.games");
        let fail = |what: &str, e: io::Error| format!("cannot {what} '{name}': {e}");
        let len_of = |p: &str| std::fs::metadata(p).map_or(0, |m| m.len());
        if len_of(path) > 0 && len_of(&index_path) == 0 {
            return Err(format!(
                "'{name}' holds data but has no index '{}' listing its games: not touching it",
                escape(&index_path, 200)
            ));
        }
        let index = DataFile::open(&index_path, header)?;
        let mut records = open_locked(path)?;
        // Only the games that kept a position end with a marked record.
        let games = index.marked;
        let (found, good_end, len) =
            scan_records(BufReader::new(&records), games).map_err(|e| fail("read", e))?;
        if found < games {
            return Err(format!(
                "'{name}' holds {found} whole games but its index lists {games} that kept \
                 positions: the two files do not belong together"
            ));
        }
        if good_end < len {
            noteln!(
                "brokkr: {name}: dropped the end of an unfinished game ({} bytes)",
                len - good_end
            );
            records.set_len(good_end).map_err(|e| fail("write", e))?;
        }
        records
            .seek(SeekFrom::End(0))
            .map_err(|e| fail("write", e))?;
        let mut index = index;
        index.positions = good_end / marlin::SIZE as u64;
        Ok(MarlinFile { records, index })
    }

    /// Append one finished game: its records, then its `# game` line.
    pub fn append(&mut self, records: &[u8], game_line: &str) -> io::Result<()> {
        self.records.write_all(records)?;
        self.records.flush()?;
        self.index.append(game_line)
    }
}

/// Read records from `r` until `games` game ends: how many game ends there were
/// (at most `games`), the byte after the last of them, and the length of `r`.
fn scan_records(mut r: impl BufRead, games: u64) -> io::Result<(u64, u64, u64)> {
    let (mut found, mut good_end, mut len) = (0, 0, 0u64);
    let mut record = [0u8; marlin::SIZE];
    let mut filled = 0;
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok((found, good_end, len));
        }
        let take = chunk.len().min(marlin::SIZE - filled);
        record[filled..filled + take].copy_from_slice(&chunk[..take]);
        r.consume(take);
        filled += take;
        len += take as u64;
        if filled == marlin::SIZE {
            filled = 0;
            if found < games && marlin::Record(record).is_game_end() {
                found += 1;
                good_end = len;
            }
        }
    }
}

/// Where datagen writes: text or marlinformat.
pub enum Output {
    Text(DataFile),
    Marlin(MarlinFile),
}

impl Output {
    /// Open `path` as text or (`marlin`) as marlinformat with its index.
    pub fn open(path: &str, header: &str, marlin: bool) -> Result<Output, String> {
        Ok(if marlin {
            Output::Marlin(MarlinFile::open(path, header)?)
        } else {
            Output::Text(DataFile::open(path, header)?)
        })
    }

    fn data(&mut self) -> &mut DataFile {
        match self {
            Output::Text(d) => d,
            Output::Marlin(m) => &mut m.index,
        }
    }

    /// The numbers of the games the file holds (taken out).
    pub fn take_done(&mut self) -> HashSet<u64> {
        std::mem::take(&mut self.data().done)
    }

    /// The positions of those games.
    pub fn positions(&mut self) -> u64 {
        self.data().positions
    }

    /// Append one finished game.
    pub fn append(&mut self, g: &Played) -> io::Result<()> {
        match self {
            Output::Text(d) => d.append(&g.text),
            Output::Marlin(m) => m.append(&g.marlin, &g.summary),
        }
    }
}

fn not_ours(name: &str) -> String {
    format!(
        "'{name}' is not a brokkr datagen file (its first line is not `{}...`): \
         not touching it",
        HEADER_PREFIX.trim_end()
    )
}

/// Open `path` for reading and writing (created if missing), as a regular file,
/// locked against a second run writing it at the same time. Resuming reads the
/// file and cuts it: a device or a pipe (`/dev/zero` would never end) cannot be
/// resumed.
fn open_locked(path: &str) -> Result<File, String> {
    let name = escape(path, 200);
    let fail = |what: &str, e: io::Error| format!("cannot {what} '{name}': {e}");
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| fail("open", e))?;
    if !file.metadata().map_err(|e| fail("read", e))?.is_file() {
        return Err(format!("'{name}' is not a regular file"));
    }
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(TryLockError::WouldBlock) => Err(format!(
            "'{name}' is being written by another run (it is locked)"
        )),
        Err(TryLockError::Error(e)) => Err(fail("lock", e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scanned(text: &str) -> Scan {
        scan(io::Cursor::new(text.as_bytes())).unwrap()
    }

    #[test]
    fn game_lines_are_recognised_exactly() {
        assert_eq!(game_number(b"# game 12: 1-0 by checkmate"), Some(12));
        assert_eq!(game_number(b"# game 3"), Some(3));
        assert_eq!(game_number(b"# game 12x"), None);
        assert_eq!(game_number(b"# game "), None);
        assert_eq!(game_number(b"# games 3"), None);
        assert_eq!(game_number(b"# game 99999999999999999999999"), None);
    }

    #[test]
    fn a_scan_keeps_finished_games_and_finds_the_unfinished_end() {
        let head = "# brokkr datagen v1: x\n";
        let game = "a | 1 | 1.0\nb | 2 | 1.0\n# game 4: 1-0\n";
        let s = scanned(&format!("{head}{game}c | 3 | 0.5\nd | 4 | 0."));
        assert_eq!(s.header.as_deref(), Some(&b"# brokkr datagen v1: x"[..]));
        assert_eq!(s.good_end, (head.len() + game.len()) as u64);
        assert_eq!(s.done, HashSet::from([4]));
        assert_eq!((s.positions, s.unfinished), (2, 1));
        assert_eq!(s.torn, b"d | 4 | 0.");
        assert_eq!(s.len, (head.len() + game.len() + 22) as u64);
        // Only the header, torn: no header at all.
        let s = scanned("# brokkr data");
        assert_eq!((s.header, s.len, s.good_end), (None, 13, 0));
        assert_eq!(s.torn, b"# brokkr data");
        let s = scanned("");
        assert_eq!(s, Scan::default());
    }

    /// A game of `n` records (the last marked) as bytes.
    fn game_bytes(n: usize) -> Vec<u8> {
        let board = crate::board::Board::<crate::attacks::Magic>::startpos();
        let mut out = Vec::new();
        for i in 0..n {
            let mut r = marlin::Record::from_board(&board, i as i32, marlin::DRAW);
            r.set_game_end(i + 1 == n);
            out.extend_from_slice(&r.0);
        }
        out
    }

    #[test]
    fn marlin_output_resumes_after_its_last_whole_game() {
        let dir = std::env::temp_dir().join(format!("brokkr-marlin-out-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("d.bin").to_string_lossy().into_owned();
        let index = format!("{path}.games");
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_file(&index);
        let head = "# brokkr datagen v1: x";
        {
            let mut f = MarlinFile::open(&path, head).unwrap();
            f.append(&game_bytes(3), "# game 2: 1-0\n").unwrap();
            f.append(&game_bytes(2), "# game 1: 0-1\n").unwrap();
            // A game whose line was never written, then half a record.
            f.records.write_all(&game_bytes(4)).unwrap();
            f.records.write_all(&[1, 2, 3]).unwrap();
        }
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 9 * 32 + 3);
        let mut out = Output::open(&path, head, true).unwrap();
        assert_eq!(out.take_done(), HashSet::from([1, 2]));
        assert_eq!(out.positions(), 5);
        assert_eq!(
            std::fs::read(&path).unwrap(),
            [game_bytes(3), game_bytes(2)].concat()
        );
        drop(out);
        // Other settings, or an index that lists more games than the records
        // hold, are refused; so are records without an index.
        let refused = |head: &str| match MarlinFile::open(&path, head) {
            Ok(_) => panic!("opened"),
            Err(e) => e,
        };
        assert!(refused("# brokkr datagen v1: y").contains("other settings"));
        std::fs::write(&index, format!("{head}\n# game 1\n# game 2\n# game 3\n")).unwrap();
        assert!(refused(head).contains("do not belong together"));
        std::fs::remove_file(&index).unwrap();
        assert!(refused(head).contains("no index"));
        assert_eq!(
            std::fs::metadata(&path).unwrap().len(),
            5 * 32,
            "not touched"
        );
    }

    #[test]
    fn marlin_output_resumes_after_a_game_that_kept_no_position() {
        let dir = std::env::temp_dir().join(format!("brokkr-marlin-empty-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("d.bin").to_string_lossy().into_owned();
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_file(format!("{path}.games"));
        let head = "# brokkr datagen v1: x";
        let line =
            |n: u64, kept: usize| format!("# game {n}: 1/2-1/2 by x, 9 plies, {kept} positions\n");
        {
            let mut f = MarlinFile::open(&path, head).unwrap();
            f.append(&game_bytes(3), &line(1, 3)).unwrap();
            f.append(&[], &line(2, 0)).unwrap();
            f.append(&game_bytes(10), &line(3, 10)).unwrap();
            f.append(&[], &line(4, 0)).unwrap();
            // An unfinished game after them.
            f.records.write_all(&game_bytes(2)).unwrap();
        }
        let mut out = Output::open(&path, head, true).unwrap();
        assert_eq!(out.take_done(), HashSet::from([1, 2, 3, 4]));
        assert_eq!(out.positions(), 13);
        assert_eq!(
            std::fs::read(&path).unwrap(),
            [game_bytes(3), game_bytes(10)].concat()
        );
        drop(out);
        // The index's games that kept positions must all be there.
        std::fs::write(&path, game_bytes(3)).unwrap();
        match MarlinFile::open(&path, head) {
            Ok(_) => panic!("opened"),
            Err(e) => assert!(
                e.contains("holds 1 whole games but its index lists 2"),
                "{e}"
            ),
        }
        assert!(keeps_nothing(
            b"# game 7: 1-0 by checkmate, 3 plies, 0 positions"
        ));
        assert!(!keeps_nothing(
            b"# game 7: 1-0 by checkmate, 3 plies, 10 positions"
        ));
        assert!(!keeps_nothing(b"# game 7"));
    }

    #[test]
    fn long_lines_are_counted_not_kept() {
        let long = "x".repeat(10 * KEPT);
        let s = scanned(&format!("h\n{long}\n# game 1\n{long}"));
        assert_eq!(s.done, HashSet::from([1]));
        assert_eq!(s.len, (2 + long.len() + 1 + 9 + long.len()) as u64);
        assert_eq!(s.torn.len(), KEPT);
    }
}
