//! One Syzygy table file: its header parsed into index parameters, the
//! position-to-index encoding, and the decompression of one value.
//!
//! A file holds, for each side to move it stores (and for tables with pawns, for
//! each file a..d of the leading pawn), a sequence of values compressed with a
//! pair grammar: symbols stand for pairs of symbols, down to the stored values;
//! the symbol stream is Huffman-coded in fixed-size blocks. An index table every
//! `2^idx_bits` positions points into a table of block sizes, from which the
//! block of a position and its place in it are found.
//!
//! Every read is checked: a truncated or corrupt file gives an error, never a
//! panic or an endless loop.

use super::consts::*;
use super::source::Source;
use super::TbError;

/// The first four bytes of a WDL file.
pub(crate) const WDL_MAGIC: [u8; 4] = [0x71, 0xE8, 0x23, 0x5D];
/// The first four bytes of a DTZ file.
pub(crate) const DTZ_MAGIC: [u8; 4] = [0xD7, 0x66, 0x0C, 0xA5];

/// The most header bytes read when a table is opened; headers are far smaller
/// (the symbol tables take at most a few tens of kilobytes a side).
const HEAD_MAX: u64 = 1 << 20;

/// The largest block size exponent accepted (blocks of 32 bytes to 64 KiB are
/// what the generator writes).
const MAX_BLOCK_BITS: u8 = 20;

/// Which of the two table kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Wdl,
    Dtz,
}

/// The material of a position as a key: a 4-bit count for each colour and kind,
/// at bit `4 * (6 * colour + kind)` (kinds numbered pawn 0 ... king 5).
pub(crate) type MaterialKey = u64;

/// The key of the same material with the colours exchanged.
pub(crate) fn mirror_key(key: MaterialKey) -> MaterialKey {
    (key >> 24) | ((key & 0xFF_FFFF) << 24)
}

/// A position as the tables see it: the pieces by colour and kind, and the side
/// to move.
pub(crate) struct Pos {
    /// `bb[colour][kind]`, colour 0 white, kind 0 pawn ... 5 king.
    pub bb: [[u64; 6]; 2],
    pub white_to_move: bool,
}

impl Pos {
    /// The position's material key.
    pub(crate) fn key(&self) -> MaterialKey {
        let mut key = 0;
        for c in 0..2 {
            for k in 0..6 {
                key += u64::from(self.bb[c][k].count_ones()) << (4 * (6 * c + k));
            }
        }
        key
    }

    /// The number of pieces.
    pub(crate) fn count(&self) -> u32 {
        self.bb.iter().flatten().map(|b| b.count_ones()).sum()
    }
}

/// The header bytes of a file, read once, with checked little-endian reads.
struct Head(Vec<u8>);

impl Head {
    fn u8(&self, at: usize) -> Result<u8, TbError> {
        self.0.get(at).copied().ok_or_else(|| short(at))
    }
    fn u16(&self, at: usize) -> Result<u16, TbError> {
        Ok(u16::from_le_bytes([self.u8(at)?, self.u8(at + 1)?]))
    }
    fn u32(&self, at: usize) -> Result<u32, TbError> {
        let b = self.bytes(at, 4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn bytes(&self, at: usize, n: usize) -> Result<&[u8], TbError> {
        at.checked_add(n)
            .and_then(|end| self.0.get(at..end))
            .ok_or_else(|| short(at))
    }
}

fn short(at: usize) -> TbError {
    TbError::Corrupt(format!("header ends before byte {at}"))
}

fn corrupt(what: &str) -> TbError {
    TbError::Corrupt(what.to_string())
}

/// The decompression parameters of one compressed sequence.
#[derive(Debug, Default)]
struct Pairs {
    /// The one value every position has (no compressed data), if so.
    constant: Option<u16>,
    idx_bits: u32,
    block_bits: u32,
    min_len: u32,
    num_indices: u64,
    /// Entries of the size table (real blocks plus padding).
    num_blocks: u64,
    real_blocks: u64,
    /// Offsets in the file.
    index_table: u64,
    size_table: u64,
    data: u64,
    /// The canonical Huffman code's first code of each length, left-aligned.
    base: Vec<u64>,
    /// The first symbol of each code length.
    offsets: Vec<u16>,
    /// For each symbol, one less than the number of values it expands to.
    symlen: Vec<u32>,
    /// Three bytes a symbol: two 12-bit children, or a value and 0xFFF.
    sympat: Vec<u8>,
}

impl Pairs {
    /// The children of a pair symbol, or `None` for a value.
    fn children(&self, sym: usize) -> Option<(usize, usize)> {
        let w = &self.sympat[3 * sym..3 * sym + 3];
        let right = (usize::from(w[2]) << 4) | usize::from(w[1] >> 4);
        if right == 0xFFF {
            return None;
        }
        let left = (usize::from(w[1] & 0xF) << 8) | usize::from(w[0]);
        Some((left, right))
    }

    /// The sizes in the file of the index table, the size table and the data.
    fn sizes(&self) -> (u64, u64, u64) {
        if self.constant.is_some() {
            return (0, 0, 0);
        }
        (
            6 * self.num_indices,
            2 * self.num_blocks,
            self.real_blocks << self.block_bits,
        )
    }
}

/// Parse the compression header at `at` for a sequence of `tb_size` values.
/// Returns the parameters, the header's flag byte and the offset after it.
fn setup_pairs(
    head: &Head,
    at: usize,
    tb_size: u64,
    kind: Kind,
) -> Result<(Pairs, u8, usize), TbError> {
    let flags = head.u8(at)?;
    if flags & 0x80 != 0 {
        // Every position has the same value.
        let value = match kind {
            Kind::Wdl => u16::from(head.u8(at + 1)?),
            Kind::Dtz => 0,
        };
        let p = Pairs {
            constant: Some(value),
            ..Pairs::default()
        };
        return Ok((p, flags, at + 2));
    }
    let block_bits = head.u8(at + 1)?;
    let idx_bits = head.u8(at + 2)?;
    if block_bits > MAX_BLOCK_BITS || idx_bits == 0 || idx_bits > 40 {
        return Err(corrupt("bad block or index size"));
    }
    let real_blocks = u64::from(head.u32(at + 4)?);
    let num_blocks = real_blocks + u64::from(head.u8(at + 3)?);
    let max_len = head.u8(at + 8)?;
    let min_len = head.u8(at + 9)?;
    // The decoder refills 32 bits at a time, so no code is longer than 32.
    if min_len == 0 || min_len > max_len || max_len > 32 {
        return Err(corrupt("bad code lengths"));
    }
    let h = usize::from(max_len - min_len) + 1;
    let num_syms = usize::from(head.u16(at + 10 + 2 * h)?);
    let offsets = (0..h)
        .map(|i| head.u16(at + 10 + 2 * i))
        .collect::<Result<Vec<u16>, TbError>>()?;
    let sympat = head.bytes(at + 12 + 2 * h, 3 * num_syms)?.to_vec();
    let next = at + 12 + 2 * h + 3 * num_syms + (num_syms & 1);

    let mut base = vec![0u64; h];
    for i in (0..h - 1).rev() {
        // Canonical Huffman: the first code of a length follows from the next
        // length's first code and the symbol counts (wrapping as in the
        // reference's unsigned arithmetic; valid files never wrap).
        base[i] = base[i + 1]
            .wrapping_add(u64::from(offsets[i]))
            .wrapping_sub(u64::from(offsets[i + 1]))
            / 2;
    }
    for (i, b) in base.iter_mut().enumerate() {
        let shift = 64 - (u32::from(min_len) + i as u32);
        *b = b.checked_shl(shift).unwrap_or(0);
    }

    let mut p = Pairs {
        constant: None,
        idx_bits: u32::from(idx_bits),
        block_bits: u32::from(block_bits),
        min_len: u32::from(min_len),
        num_indices: tb_size.div_ceil(1u64 << idx_bits),
        num_blocks,
        real_blocks,
        base,
        offsets,
        sympat,
        ..Pairs::default()
    };
    p.symlen = symbol_lengths(&p, num_syms)?;
    Ok((p, flags, next))
}

/// For every symbol, one less than the number of values it expands to; an error
/// for a child out of range or a cycle (without recursion, so a hostile file
/// cannot overflow the stack).
fn symbol_lengths(p: &Pairs, n: usize) -> Result<Vec<u32>, TbError> {
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let mut len = vec![0u32; n];
    let mut state = vec![NEW; n];
    let mut stack = Vec::new();
    for root in 0..n {
        stack.push(root);
        while let Some(&s) = stack.last() {
            if state[s] == DONE {
                stack.pop();
                continue;
            }
            match p.children(s) {
                None => {
                    state[s] = DONE;
                    stack.pop();
                }
                Some((a, b)) => {
                    if a >= n || b >= n {
                        return Err(corrupt("symbol out of range"));
                    }
                    if state[s] == NEW {
                        state[s] = OPEN;
                        for c in [a, b] {
                            match state[c] {
                                OPEN => return Err(corrupt("cyclic symbol")),
                                NEW => stack.push(c),
                                _ => {}
                            }
                        }
                    } else {
                        len[s] = len[a]
                            .checked_add(len[b])
                            .and_then(|x| x.checked_add(1))
                            .filter(|&x| x < 1 << 24)
                            .ok_or_else(|| corrupt("symbol too long"))?;
                        state[s] = DONE;
                        stack.pop();
                    }
                }
            }
        }
    }
    Ok(len)
}

/// The index parameters of one side (and leading-pawn file) of a table.
#[derive(Debug, Default)]
struct Side {
    /// The table's piece codes in index order (1..6 white pawn..king, +8 black).
    pieces: [u8; MAX_PIECES],
    /// At the first piece of each group of like pieces, the group's size.
    norm: [u8; MAX_PIECES],
    /// At the first piece of each group, the multiplier of its sub-index.
    factor: [u64; MAX_PIECES],
    tb_size: u64,
    pairs: Option<Pairs>,
}

/// A parsed table.
#[derive(Debug)]
pub(crate) struct Table {
    src: Source,
    kind: Kind,
    num: usize,
    /// Pawns of the leading colour and of the other (tables with pawns).
    pawns: [usize; 2],
    has_pawns: bool,
    /// 0: three unique pieces lead the index; 2: the two kings lead it.
    enc_type: u8,
    symmetric: bool,
    /// The material of the table's white pieces (from its piece list).
    key: MaterialKey,
    /// `files[f][side]`: one file for pawnless tables, four with pawns; a WDL
    /// table has both sides to move, a DTZ table one.
    files: Vec<Vec<Side>>,
    /// DTZ: the flags of each file (bit 0: the side stored is black).
    dtz_flags: Vec<u8>,
    /// DTZ: the value maps' bytes, and where each file's four maps start.
    map: Vec<u8>,
    map_idx: Vec<[usize; 4]>,
}

/// What a table file name says: its material, counted per colour and kind.
pub(crate) fn name_key(name: &str) -> Option<MaterialKey> {
    let (white, black) = name.split_once('v')?;
    let mut key: MaterialKey = 0;
    let mut counts = [0u32; 12];
    for (c, side) in [white, black].into_iter().enumerate() {
        if side.is_empty() || !side.starts_with('K') {
            return None;
        }
        for ch in side.chars() {
            let k = match ch {
                'P' => 0,
                'N' => 1,
                'B' => 2,
                'R' => 3,
                'Q' => 4,
                'K' => 5,
                _ => return None,
            };
            counts[6 * c + k] += 1;
            if counts[6 * c + k] > 15 {
                return None;
            }
            key += 1 << (4 * (6 * c + k));
        }
    }
    // Exactly one king a side, at most seven pieces.
    let pieces: u32 = counts.iter().sum();
    (counts[5] == 1 && counts[11] == 1 && (3..=MAX_PIECES as u32).contains(&pieces)).then_some(key)
}

fn count(key: MaterialKey, color: usize, kind: usize) -> usize {
    ((key >> (4 * (6 * color + kind))) & 15) as usize
}

impl Table {
    /// Open and parse the table at `path` holding the material `key` (as its
    /// name says).
    pub(crate) fn open(
        path: &std::path::Path,
        kind: Kind,
        key: MaterialKey,
    ) -> Result<Table, TbError> {
        let src =
            Source::open(path).map_err(|e| TbError::Io(format!("{}: {e}", path.display())))?;
        let len = src.len();
        if len % 64 != 16 {
            return Err(TbError::Corrupt(format!(
                "{}: the size ({len} bytes) is not a table's",
                path.display()
            )));
        }
        let mut head = vec![0u8; len.min(HEAD_MAX) as usize];
        src.read_at(0, &mut head)
            .map_err(|e| TbError::Io(format!("{}: {e}", path.display())))?;
        let magic = match kind {
            Kind::Wdl => WDL_MAGIC,
            Kind::Dtz => DTZ_MAGIC,
        };
        if head.get(..4) != Some(&magic[..]) {
            return Err(TbError::Corrupt(format!(
                "{}: not a Syzygy table (wrong magic)",
                path.display()
            )));
        }
        let num = (0..12).map(|i| ((key >> (4 * i)) & 15) as usize).sum();
        let (wp, bp) = (count(key, 0, 0), count(key, 1, 0));
        let pawns = if wp > 0 && (bp == 0 || wp <= bp) {
            [wp, bp]
        } else {
            [bp, wp]
        };
        let mut t = Table {
            src,
            kind,
            num,
            pawns,
            has_pawns: wp + bp > 0,
            enc_type: 0,
            symmetric: mirror_key(key) == key,
            key,
            files: Vec::new(),
            dtz_flags: Vec::new(),
            map: Vec::new(),
            map_idx: Vec::new(),
        };
        t.parse(&Head(head))
            .map_err(|e| TbError::Corrupt(format!("{}: {e}", path.display())))?;
        Ok(t)
    }

    /// Read the header: the piece lists and index factors, the compression
    /// headers, DTZ's value maps, and where each part of the data lies.
    fn parse(&mut self, head: &Head) -> Result<(), TbError> {
        let flags = head.u8(4)?;
        let split = flags & 1 != 0 && self.kind == Kind::Wdl;
        let nfiles = if flags & 2 != 0 { 4 } else { 1 };
        if self.has_pawns != (nfiles == 4) {
            return Err(corrupt("the header's pawn flag does not match the name"));
        }
        let mut at = self.parse_pieces(head, 5)?;
        at += at & 1;
        if !self.has_pawns {
            self.set_colours()?;
        }
        at = self.parse_pairs(head, at, nfiles, split)?;
        if self.kind == Kind::Dtz {
            at = self.parse_dtz_maps(head, at, nfiles)?;
            at += at & 1;
        }
        self.lay_out(at as u64, nfiles)
    }

    /// The piece lists and index factors of every file and side, from `at`;
    /// returns where they end.
    fn parse_pieces(&mut self, head: &Head, mut at: usize) -> Result<usize, TbError> {
        let sides = if self.kind == Kind::Wdl { 2 } else { 1 };
        let piece_files = if self.has_pawns { 4 } else { 1 };
        let lead = if self.has_pawns {
            1 + usize::from(self.pawns[1] > 0)
        } else {
            1
        };
        for f in 0..piece_files {
            let mut file = Vec::new();
            for s in 0..sides {
                let nib = |b: u8| if s == 0 { b & 15 } else { b >> 4 };
                let mut side = Side::default();
                for i in 0..self.num {
                    side.pieces[i] = nib(head.u8(at + lead + i)?);
                }
                let order = nib(head.u8(at)?);
                let order2 = if self.has_pawns && self.pawns[1] > 0 {
                    nib(head.u8(at + 1)?)
                } else {
                    15
                };
                self.check_pieces(&side.pieces)?;
                if self.has_pawns {
                    self.set_norm_pawn(&mut side);
                    side.tb_size = self.factors_pawn(&mut side, order, order2, f)?;
                } else {
                    self.enc_type = self.encoding(&side.pieces)?;
                    self.set_norm_piece(&mut side)?;
                    side.tb_size = self.factors_piece(&mut side, order)?;
                }
                file.push(side);
            }
            self.files.push(file);
            at += self.num + lead;
        }
        Ok(at)
    }

    /// A pawnless table's colours are those of its piece list, which is not
    /// always the order of its name: take the key from the list.
    fn set_colours(&mut self) -> Result<(), TbError> {
        let mut key: MaterialKey = 0;
        for &p in &self.files[0][0].pieces[..self.num] {
            key += 1 << (4 * (6 * usize::from(p >> 3) + usize::from(p & 7) - 1));
        }
        if key != self.key && key != mirror_key(self.key) {
            return Err(corrupt("the piece list does not match the name"));
        }
        self.key = key;
        Ok(())
    }

    /// The compression headers of the first `nfiles` files (one side each
    /// unless `split`), from `at`; returns where they end.
    fn parse_pairs(
        &mut self,
        head: &Head,
        mut at: usize,
        nfiles: usize,
        split: bool,
    ) -> Result<usize, TbError> {
        for file in self.files.iter_mut().take(nfiles) {
            for (s, side) in file.iter_mut().enumerate() {
                if s == 1 && !split {
                    break;
                }
                let (pairs, fl, next) = setup_pairs(head, at, side.tb_size, self.kind)?;
                side.pairs = Some(pairs);
                self.dtz_flags.push(fl);
                at = next;
            }
        }
        Ok(at)
    }

    /// DTZ: the maps from stored values to distances, from `at`; returns where
    /// they end.
    fn parse_dtz_maps(
        &mut self,
        head: &Head,
        mut at: usize,
        nfiles: usize,
    ) -> Result<usize, TbError> {
        let map_start = at;
        for f in 0..nfiles {
            let mut idx = [0usize; 4];
            let fl = self.dtz_flags[f];
            if fl & 2 != 0 {
                if fl & 16 == 0 {
                    for slot in &mut idx {
                        *slot = at + 1 - map_start;
                        at += 1 + usize::from(head.u8(at)?);
                    }
                } else {
                    if self.has_pawns {
                        at += at & 1;
                    }
                    for slot in &mut idx {
                        *slot = (at + 2 - map_start) / 2;
                        at += 2 + 2 * usize::from(head.u16(at)?);
                    }
                }
            }
            self.map_idx.push(idx);
        }
        self.map = head.bytes(map_start, at - map_start)?.to_vec();
        Ok(at)
    }

    /// Where the index tables, the size tables, then the 64-byte aligned data
    /// of the first `nfiles` files lie, from `pos` on.
    fn lay_out(&mut self, mut pos: u64, nfiles: usize) -> Result<(), TbError> {
        let live = |t: &mut Table, f: &mut dyn FnMut(&mut Pairs)| {
            for file in t.files.iter_mut().take(nfiles) {
                for side in file.iter_mut() {
                    if let Some(p) = side.pairs.as_mut() {
                        f(p);
                    }
                }
            }
        };
        live(self, &mut |p| {
            p.index_table = pos;
            pos += p.sizes().0;
        });
        live(self, &mut |p| {
            p.size_table = pos;
            pos += p.sizes().1;
        });
        live(self, &mut |p| {
            pos = (pos + 63) & !63;
            p.data = pos;
            pos += p.sizes().2;
        });
        if pos > self.src.len() {
            return Err(corrupt("the file is shorter than its header says"));
        }
        Ok(())
    }

    /// Every piece code is a real piece (1..6, 9..14).
    fn check_pieces(&self, pieces: &[u8; MAX_PIECES]) -> Result<(), TbError> {
        for &p in &pieces[..self.num] {
            if !(1..=6).contains(&(p & 7)) || p & 0xF0 != 0 {
                return Err(corrupt("bad piece code"));
            }
        }
        Ok(())
    }

    /// The encoding of a pawnless table: with three or more unique pieces they
    /// lead the index (type 0); with only the two kings unique, the kings do (2).
    fn encoding(&self, pieces: &[u8; MAX_PIECES]) -> Result<u8, TbError> {
        let list = &pieces[..self.num];
        let unique = list
            .iter()
            .filter(|&&p| list.iter().filter(|&&q| q == p).count() == 1)
            .count();
        match unique {
            0..=1 => Err(corrupt("no encoding for this material")),
            2 => Ok(2),
            _ => Ok(0),
        }
    }

    fn set_norm_piece(&self, side: &mut Side) -> Result<(), TbError> {
        side.norm = [0; MAX_PIECES];
        side.norm[0] = if self.enc_type == 0 { 3 } else { 2 };
        if usize::from(side.norm[0]) > self.num {
            return Err(corrupt("too few pieces"));
        }
        self.group_norms(side, usize::from(side.norm[0]));
        Ok(())
    }

    fn set_norm_pawn(&self, side: &mut Side) {
        side.norm = [0; MAX_PIECES];
        side.norm[0] = self.pawns[0] as u8;
        if self.pawns[1] > 0 {
            side.norm[self.pawns[0]] = self.pawns[1] as u8;
        }
        self.group_norms(side, self.pawns[0] + self.pawns[1]);
    }

    /// From `from` on, the size of each run of like pieces at its first piece.
    fn group_norms(&self, side: &mut Side, from: usize) {
        let mut i = from;
        while i < self.num {
            let mut j = i;
            while j < self.num && side.pieces[j] == side.pieces[i] {
                side.norm[i] += 1;
                j += 1;
            }
            i += usize::from(side.norm[i]);
        }
    }

    /// The factors of a pawnless side; returns the number of indices.
    fn factors_piece(&self, side: &mut Side, order: u8) -> Result<u64, TbError> {
        const LEAD_COUNT: [u64; 3] = [31332, 0, KK_COUNT];
        let order = usize::from(order);
        let mut n = 64 - usize::from(side.norm[0]);
        let mut f: u64 = 1;
        let mut i = usize::from(side.norm[0]);
        let mut k = 0;
        while i < self.num || k == order {
            if k == order {
                side.factor[0] = f;
                f = f.saturating_mul(LEAD_COUNT[usize::from(self.enc_type)]);
            } else {
                side.factor[i] = f;
                let g = usize::from(side.norm[i]);
                f = f.saturating_mul(binomial(n, g));
                n = n.checked_sub(g).ok_or_else(|| corrupt("too many pieces"))?;
                i += g;
            }
            k += 1;
        }
        Ok(f)
    }

    /// The factors of a side with pawns for leading-pawn file `file`.
    fn factors_pawn(
        &self,
        side: &mut Side,
        order: u8,
        order2: u8,
        file: usize,
    ) -> Result<u64, TbError> {
        let (order, order2) = (usize::from(order), usize::from(order2));
        let lead = usize::from(side.norm[0]);
        let mut i = lead;
        if order2 < 15 {
            i += usize::from(side.norm[i]);
        }
        let mut n = 64 - i;
        let mut f: u64 = 1;
        let mut k = 0;
        while i < self.num || k == order || k == order2 {
            if k == order {
                side.factor[0] = f;
                let pf = PAWN_FACTOR
                    .get(lead.wrapping_sub(1))
                    .ok_or_else(|| corrupt("too many pawns"))?[file];
                f = f.saturating_mul(pf);
            } else if k == order2 {
                side.factor[lead] = f;
                f = f.saturating_mul(binomial(48 - lead, usize::from(side.norm[lead])));
            } else {
                side.factor[i] = f;
                let g = usize::from(side.norm[i]);
                f = f.saturating_mul(binomial(n, g));
                n = n.checked_sub(g).ok_or_else(|| corrupt("too many pieces"))?;
                i += g;
            }
            k += 1;
        }
        Ok(f)
    }

    /// The stored value for `pos`: WDL -2..2 (WDL tables), or the DTZ table's
    /// distance for the given WDL, `None` when the file stores the other side to
    /// move only.
    pub(crate) fn probe(&self, pos: &Pos, wdl: i32) -> Result<Option<i32>, TbError> {
        let key = pos.key();
        let (cmirror, mirror, bside) = if !self.symmetric {
            if key != self.key {
                (8u8, 0x38usize, usize::from(pos.white_to_move))
            } else {
                (0, 0, usize::from(!pos.white_to_move))
            }
        } else if pos.white_to_move {
            (0, 0, 0)
        } else {
            (8, 0x38, 0)
        };
        let mut sq = [0usize; MAX_PIECES];
        let (f, side_index) = if self.has_pawns {
            let first = self.files[0][0].pieces[0] ^ cmirror;
            let mut i = fill(pos, first, &mut sq, 0, mirror)?;
            if i != self.pawns[0] {
                return Err(corrupt("the leading pawns do not match"));
            }
            let f = self.pawn_file(&mut sq);
            let side_index = if self.kind == Kind::Dtz { 0 } else { bside };
            let pieces = self.files[f][side_index].pieces;
            while i < self.num {
                i = fill(pos, pieces[i] ^ cmirror, &mut sq, i, mirror)?;
            }
            (f, side_index)
        } else {
            let side_index = if self.kind == Kind::Dtz { 0 } else { bside };
            let pieces = self.files[0][side_index].pieces;
            let mut i = 0;
            while i < self.num {
                i = fill(pos, pieces[i] ^ cmirror, &mut sq, i, 0)?;
            }
            (0, side_index)
        };
        if self.kind == Kind::Dtz {
            let fl = *self
                .dtz_flags
                .get(f)
                .ok_or_else(|| corrupt("missing file"))?;
            if usize::from(fl & 1) != bside && (self.has_pawns || !self.symmetric) {
                return Ok(None);
            }
        }
        let side = &self.files[f][side_index];
        let idx = if self.has_pawns {
            self.encode_pawn(side, &mut sq)?
        } else {
            self.encode_piece(side, &mut sq)?
        };
        let pairs = side
            .pairs
            .as_ref()
            .ok_or_else(|| corrupt("the side is not stored"))?;
        let value = self.decompress(pairs, idx)?;
        match self.kind {
            Kind::Wdl => Ok(Some(value as i32 - 2)),
            Kind::Dtz => {
                let fl = self.dtz_flags[f];
                let mut res = value as usize;
                if fl & 2 != 0 {
                    // WDL -2..2 to the map number: loss, blessed loss, win,
                    // cursed win.
                    const WDL_TO_MAP: [usize; 5] = [1, 3, 0, 2, 0];
                    let w = usize::try_from(wdl + 2).ok().filter(|&w| w < 5);
                    let m = self.map_idx[f][WDL_TO_MAP[w.ok_or_else(|| corrupt("wdl"))?]];
                    res = if fl & 16 == 0 {
                        usize::from(*self.map.get(m + res).ok_or_else(|| corrupt("map"))?)
                    } else {
                        let at = 2 * (m + res);
                        let b = self.map.get(at..at + 2).ok_or_else(|| corrupt("map"))?;
                        usize::from(u16::from_le_bytes([b[0], b[1]]))
                    };
                }
                // Stored in whole moves unless the flag for this result says
                // plies; cursed and blessed results always in moves.
                const PLY_FLAG: [u8; 5] = [8, 0, 0, 0, 4];
                let mut res = res as i32;
                if fl & PLY_FLAG[(wdl.clamp(-2, 2) + 2) as usize] == 0 || wdl & 1 != 0 {
                    res *= 2;
                }
                Ok(Some(res))
            }
        }
    }

    /// The folded file of the leading pawn, which is moved to `sq[0]`.
    fn pawn_file(&self, sq: &mut [usize; MAX_PIECES]) -> usize {
        for i in 1..self.pawns[0] {
            if FLAP[sq[0]] > FLAP[sq[i]] {
                sq.swap(0, i);
            }
        }
        FILE_TO_FILE[sq[0] & 7]
    }

    fn encode_piece(&self, side: &Side, sq: &mut [usize; MAX_PIECES]) -> Result<u64, TbError> {
        let n = self.num;
        let sq = &mut sq[..n];
        if sq[0] & 4 != 0 {
            sq.iter_mut().for_each(|s| *s ^= 7);
        }
        if sq[0] & 0x20 != 0 {
            sq.iter_mut().for_each(|s| *s ^= 0x38);
        }
        let lead = if self.enc_type == 0 { 3 } else { 2 };
        if let Some(i) = sq.iter().position(|&s| off_diag(s) != 0) {
            if i < lead && off_diag(sq[i]) > 0 {
                sq.iter_mut().for_each(|s| *s = flip_diag(*s));
            }
        }
        let idx: i64 = if self.enc_type == 0 {
            let (a, b, c) = (sq[0], sq[1], sq[2]);
            let i = i64::from(b > a);
            let j = i64::from(c > a) + i64::from(c > b);
            let (b64, c64) = (b as i64, c as i64);
            let tri = |s: usize| i64::from(TRIANGLE[s]);
            let dg = |s: usize| i64::from(DIAG[s]);
            let lw = |s: usize| i64::from(LOWER[s]);
            if off_diag(a) != 0 {
                tri(a) * 63 * 62 + (b64 - i) * 62 + (c64 - j)
            } else if off_diag(b) != 0 {
                6 * 63 * 62 + dg(a) * 28 * 62 + lw(b) * 62 + c64 - j
            } else if off_diag(c) != 0 {
                6 * 63 * 62 + 4 * 28 * 62 + dg(a) * 7 * 28 + (dg(b) - i) * 28 + lw(c)
            } else {
                6 * 63 * 62
                    + 4 * 28 * 62
                    + 4 * 7 * 28
                    + dg(a) * 7 * 6
                    + (dg(b) - i) * 6
                    + (dg(c) - j)
            }
        } else {
            i64::from(KK_IDX[usize::from(TRIANGLE[sq[0]])][sq[1]])
        };
        if idx < 0 {
            return Err(corrupt("no index for this placement"));
        }
        let idx = (idx as u64).wrapping_mul(side.factor[0]);
        self.encode_groups(side, sq, lead, idx)
    }

    /// Add the sub-indices of the groups of like pieces from `i` on.
    fn encode_groups(
        &self,
        side: &Side,
        sq: &mut [usize],
        mut i: usize,
        mut idx: u64,
    ) -> Result<u64, TbError> {
        let n = self.num;
        while i < n {
            let t = usize::from(side.norm[i]);
            if t == 0 || i + t > n {
                return Err(corrupt("bad piece groups"));
            }
            sq[i..i + t].sort_unstable();
            let mut s: u64 = 0;
            for m in i..i + t {
                let p = sq[m];
                let below = sq[..i].iter().filter(|&&q| p > q).count();
                s = s.wrapping_add(binomial(p - below, m - i + 1));
            }
            idx = idx.wrapping_add(s.wrapping_mul(side.factor[i]));
            i += t;
        }
        Ok(idx)
    }

    fn encode_pawn(&self, side: &Side, sq: &mut [usize; MAX_PIECES]) -> Result<u64, TbError> {
        let n = self.num;
        let sq = &mut sq[..n];
        if sq[0] & 4 != 0 {
            sq.iter_mut().for_each(|s| *s ^= 7);
        }
        let lead = self.pawns[0];
        // The other leading pawns, highest twist first.
        sq[1..lead].sort_unstable_by(|a, b| PTWIST[*b].cmp(&PTWIST[*a]));
        let t = lead - 1;
        let row = PAWN_IDX.get(t).ok_or_else(|| corrupt("too many pawns"))?;
        let mut idx = row[usize::from(FLAP[sq[0]])];
        for i in (1..=t).rev() {
            idx += binomial(usize::from(PTWIST[sq[i]]), t - i + 1);
        }
        idx = idx.wrapping_mul(side.factor[0]);
        // The other colour's pawns, on the 48 pawn squares less those taken.
        let mut i = lead;
        let end = lead + self.pawns[1];
        if end > i {
            sq[i..end].sort_unstable();
            let mut s: u64 = 0;
            for m in i..end {
                let p = sq[m];
                let below = sq[..i].iter().filter(|&&q| p > q).count();
                let rel = p
                    .checked_sub(below + 8)
                    .ok_or_else(|| corrupt("pawn on the first rank"))?;
                s = s.wrapping_add(binomial(rel, m - i + 1));
            }
            idx = idx.wrapping_add(s.wrapping_mul(side.factor[i]));
            i = end;
        }
        self.encode_groups(side, sq, i, idx)
    }

    /// The value at index `idx` of a compressed sequence.
    fn decompress(&self, d: &Pairs, idx: u64) -> Result<u16, TbError> {
        if let Some(v) = d.constant {
            return Ok(v);
        }
        let io = |e: std::io::Error| TbError::Io(e.to_string());
        let main = idx >> d.idx_bits;
        if main >= d.num_indices {
            return Err(corrupt("index out of range"));
        }
        let mut lit = (idx & ((1 << d.idx_bits) - 1)) as i64 - (1i64 << (d.idx_bits - 1));
        let mut entry = [0u8; 6];
        self.src
            .read_at(d.index_table + 6 * main, &mut entry)
            .map_err(io)?;
        let mut block = i64::from(u32::from_le_bytes([entry[0], entry[1], entry[2], entry[3]]));
        lit += i64::from(u16::from_le_bytes([entry[4], entry[5]]));
        let size = |b: i64| -> Result<i64, TbError> {
            if b < 0 || b as u64 >= d.num_blocks {
                return Err(corrupt("block out of range"));
            }
            let mut x = [0u8; 2];
            self.src
                .read_at(d.size_table + 2 * b as u64, &mut x)
                .map_err(io)?;
            Ok(i64::from(u16::from_le_bytes(x)))
        };
        while lit < 0 {
            block -= 1;
            lit += size(block)? + 1;
        }
        loop {
            let s = size(block)?;
            if lit <= s {
                break;
            }
            lit -= s + 1;
            block += 1;
        }
        if block as u64 >= d.real_blocks {
            return Err(corrupt("block out of range"));
        }
        let mut buf = vec![0u8; (1usize << d.block_bits) + 8];
        self.src
            .read_at(d.data + ((block as u64) << d.block_bits), &mut buf)
            .map_err(io)?;
        let be32 = |at: usize| -> u64 {
            let mut w = [0u8; 4];
            for (k, b) in w.iter_mut().enumerate() {
                *b = buf.get(at + k).copied().unwrap_or(0);
            }
            u64::from(u32::from_be_bytes(w))
        };
        let mut code = (be32(0) << 32) | be32(4);
        let mut next = 8;
        let mut bits = 0u32;
        let mut lit = lit as u64;
        let min = d.min_len;
        let mut sym;
        loop {
            let mut l = min;
            while code < d.base[(l - min) as usize] {
                l += 1;
            }
            let k = (l - min) as usize;
            sym = usize::from(d.offsets[k]) + ((code - d.base[k]) >> (64 - l)) as usize;
            let len = u64::from(*d.symlen.get(sym).ok_or_else(|| corrupt("bad symbol"))?);
            if lit < len + 1 {
                break;
            }
            lit -= len + 1;
            code = code.checked_shl(l).unwrap_or(0);
            bits += l;
            if bits >= 32 {
                bits -= 32;
                code |= be32(next) << bits;
                next += 4;
            }
        }
        // Walk down the pair tree to the value.
        while let Some((left, right)) = d.children(sym).filter(|_| d.symlen[sym] != 0) {
            let len = u64::from(d.symlen[left]);
            if lit < len + 1 {
                sym = left;
            } else {
                lit -= len + 1;
                sym = right;
            }
        }
        let w = &d.sympat[3 * sym..3 * sym + 2];
        Ok(match self.kind {
            Kind::Wdl => u16::from(w[0]),
            Kind::Dtz => (u16::from(w[1] & 0xF) << 8) | u16::from(w[0]),
        })
    }
}

/// Put the squares of the pieces with table code `code` (colour bit 8) into
/// `sq` from `i` on, each xor `mirror`; returns the next free slot.
fn fill(
    pos: &Pos,
    code: u8,
    sq: &mut [usize; MAX_PIECES],
    mut i: usize,
    mirror: usize,
) -> Result<usize, TbError> {
    let kind = usize::from(code & 7);
    let color = usize::from(code >> 3);
    if !(1..=6).contains(&kind) || color > 1 {
        return Err(corrupt("bad piece code"));
    }
    let mut bb = pos.bb[color][kind - 1];
    if bb == 0 {
        return Err(corrupt("the table's pieces do not match the position"));
    }
    while bb != 0 {
        let s = bb.trailing_zeros() as usize;
        bb &= bb - 1;
        *sq.get_mut(i).ok_or_else(|| corrupt("too many pieces"))? = s ^ mirror;
        i += 1;
    }
    Ok(i)
}
