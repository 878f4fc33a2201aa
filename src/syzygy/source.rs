//! Positioned reads from a table file: `read_at` on Unix, `seek_read` on
//! Windows, a locked seek-and-read elsewhere. No memory map, no `unsafe`.

use std::fs::File;
use std::io;

/// An open table file.
#[derive(Debug)]
pub(crate) struct Source {
    #[cfg(any(unix, windows))]
    file: File,
    #[cfg(not(any(unix, windows)))]
    file: std::sync::Mutex<File>,
    len: u64,
}

impl Source {
    /// Open `path` for reading.
    pub(crate) fn open(path: &std::path::Path) -> io::Result<Source> {
        let file = File::open(path)?;
        let len = file.metadata()?.len();
        #[cfg(not(any(unix, windows)))]
        let file = std::sync::Mutex::new(file);
        Ok(Source { file, len })
    }

    /// The file's length in bytes.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// Fill `buf` from `offset`; bytes past the end of the file read as 0 (the
    /// decoder looks a few bytes ahead of the last block).
    pub(crate) fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        buf.fill(0);
        if offset >= self.len {
            return Ok(());
        }
        let avail = (self.len - offset).min(buf.len() as u64) as usize;
        let mut done = 0;
        while done < avail {
            let n = self.read_some(offset + done as u64, &mut buf[done..avail])?;
            if n == 0 {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the file is shorter than it was when opened",
                ));
            }
            done += n;
        }
        Ok(())
    }

    #[cfg(unix)]
    fn read_some(&self, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        use std::os::unix::fs::FileExt;
        self.file.read_at(buf, offset)
    }

    #[cfg(windows)]
    fn read_some(&self, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        use std::os::windows::fs::FileExt;
        self.file.seek_read(buf, offset)
    }

    #[cfg(not(any(unix, windows)))]
    fn read_some(&self, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        use std::io::{Read, Seek, SeekFrom};
        let mut f = self
            .file
            .lock()
            .map_err(|_| io::Error::other("a reader panicked"))?;
        f.seek(SeekFrom::Start(offset))?;
        f.read(buf)
    }
}
