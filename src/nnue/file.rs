//! The network file: one format for the net `build.rs` embeds, the nets
//! `EvalFile` loads, and the nets `brokkr train` exports. Std only, so that
//! `build.rs` can read it (it includes this file by path, beside `codegen/`).
//!
//! All numbers are little-endian. A 48-byte header, then the quantised weights:
//!
//! | offset | type | what |
//! |---|---|---|
//! | 0 | `[u8; 8]` | magic, `BRKKRNN1` |
//! | 8 | `u32` | format version, 2, or 3 for a net with king buckets (1 is read too: it is 2 without the PSQT block) |
//! | 12 | `u32` | inputs per king bucket, 768 (colour × kind × square, from each side's view) |
//! | 16 | `u32` | hidden neurons per perspective `H` (a multiple of 32, at most [`MAX_HIDDEN`]) |
//! | 20 | `u32` | output buckets `B` (1 to [`MAX_BUCKETS`]), chosen by the number of pieces |
//! | 24 | `u32` | activation, 1 = squared clipped ReLU |
//! | 28 | `u32` | `QA`, the accumulator's scale, 255 |
//! | 32 | `u32` | `QB`, the output weights' scale, 64 |
//! | 36 | `u32` | `SCALE`, centipawns per unit of output, 400 |
//! | 40 | `u64` | the checksum ([`checksum`]): FNV-1a 64 of everything after the header, and of `SCALE` when it is not 400 |
//! | 48 | `u32` | version 3 only: king buckets `K` (1 to [`MAX_KING_BUCKETS`]) |
//! | 52 | `u32` | version 3 only: flags, bit 0 = horizontal mirroring (the other bits 0) |
//! | 56 | `[u8; 32]` | version 3 only: the king layout, the bucket of each own-king square of files a–d, `rank × 4 + file` |
//! | 48 or 88 | `[i16; K × 768 × H]` | input weights, input-major (one row of `H` per input; king bucket `k`'s 768 rows are rows `k × 768 ..`) |
//! | … | `[i16; H]` | accumulator biases |
//! | … | `[i16; B × 2H]` | output weights per bucket: the side to move's half, then the other's |
//! | … | `[i32; B]` | output biases (scale `QA × QB`) |
//! | … | `[i32; K × 768 × B]` | PSQT weights, input-major (a row of `B` per input; scale `QA × QB`), each within ±[`PSQT_LIMIT`] |
//!
//! Versions 1 and 2 have no king block: they are `K` = 1 without mirroring,
//! and such a net is written in its own version again (version 3 only when it
//! has king buckets or mirroring), so today's nets keep their bytes and names.
//!
//! King buckets ([`KingLayout`]): each perspective's input set is chosen by
//! where its own king stands, seen from its own side (Black's view flips the
//! ranks). The layout gives a bucket to each of the 32 squares of files a–d; a
//! king on files e–h takes the bucket of its mirror square (file ^ 7), so the
//! buckets are always left-right symmetric. With mirroring, a perspective whose
//! own king stands on files e–h also sees every piece mirrored (square ^ 7):
//! the net then only ever sees its own king on files a–d. The input of a piece
//! is `bucket × 768 + own × 384 + kind × 64 + square`.
//!
//! The PSQT weights are a linear path beside the hidden layer, as Stockfish's
//! nets have: each side sums the rows of its inputs, and half the side to move's
//! sum less half the other's is added to the output. They carry what is linear in
//! the pieces (material, and where each piece stands best), which the hidden layer
//! would otherwise have to learn through its clipped activations.
//!
//! A file of another size, magic, version, shape, king layout or hash is
//! refused with a message that says which.
//!
//! A net is named by its file's checksum (the `u64` at 40), whatever the
//! version: a version-1 net keeps its version when written again, so that its
//! name is the checksum of the file it came from, as `nets/DEFAULT` records it.
//! The checksum covers `SCALE` too when it is not the trainer's 400, so a net
//! rescaled by `docs/scripts/net-rescale.py` (the same weights, evaluations
//! times a factor) has a name of its own, while every net with the scale the
//! trainer writes keeps the name it always had.

/// The first eight bytes of every net file.
pub const MAGIC: &[u8; 8] = b"BRKKRNN1";
/// The format version of the nets this code makes without king buckets (it
/// reads, and writes again, version 1 as well).
pub const VERSION: u32 = 2;
/// The format version of nets with king buckets or mirroring: version 2 with
/// the king block after the header.
pub const VERSION_KINGS: u32 = 3;
/// The most king buckets a file may declare.
pub const MAX_KING_BUCKETS: usize = 16;
/// Bytes in version 3's king block (`K`, the flags, the 32-entry layout).
pub const KING_BLOCK: usize = 40;
/// The largest PSQT weight a file may hold: 32 of them still add up within `i32`.
pub const PSQT_LIMIT: i32 = 1 << 24;
/// Inputs per perspective: 2 colours × 6 kinds × 64 squares.
pub const INPUTS: usize = 768;
/// The largest hidden layer a file may declare.
pub const MAX_HIDDEN: usize = 1024;
/// The most output buckets a file may declare.
pub const MAX_BUCKETS: usize = 8;
/// The activation code for squared clipped ReLU, the only one the engine runs.
pub const SCRELU: u32 = 1;
/// The accumulator's quantisation: 1.0 in the float net is `QA` in the engine.
pub const QA: i32 = 255;
/// The output weights' quantisation.
pub const QB: i32 = 64;
/// Bytes in the header.
pub const HEADER: usize = 48;

/// The output bucket for a position with `pieces` men on the board (kings and
/// pawns included, 2 to 32) in a net with `buckets` buckets: equal slices of the
/// piece count, so with 8 buckets it is `(pieces - 2) / 4`, bullet's
/// `MaterialCount<8>`.
#[inline(always)]
pub const fn bucket(pieces: u32, buckets: usize) -> usize {
    let per = 32usize.div_ceil(buckets);
    let b = (pieces as usize).saturating_sub(2) / per;
    if b < buckets {
        b
    } else {
        buckets - 1
    }
}

/// For a net grown from `before` output buckets to `after`, the old bucket each
/// new one copies: the one its numbers of men fell in. Each new bucket must fall
/// within one old one (8 grow from 1, 2 or 4, not from 3), or no copy keeps the
/// evaluation; that is refused with the reason, as are fewer buckets than
/// `before` or more than [`MAX_BUCKETS`].
pub fn bucket_sources(before: usize, after: usize) -> Result<Vec<usize>, String> {
    if before == 0 || after < before || after > MAX_BUCKETS {
        return Err(format!("cannot grow {before} output bucket(s) to {after}"));
    }
    let mut source = vec![0; after];
    for men in 2..=32 {
        let (new, was) = (bucket(men, after), bucket(men, before));
        if men > 2 && bucket(men - 1, after) == new && source[new] != was {
            return Err(format!(
                "{after} buckets do not each fall within one of {before}: bucket {new} would \
                 hold positions of old buckets {} and {was}",
                source[new]
            ));
        }
        source[new] = was;
    }
    Ok(source)
}

/// Which inputs each perspective uses, by where its own king stands: the
/// king buckets and the horizontal mirroring (see the module's doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KingLayout {
    /// King buckets, 1 to [`MAX_KING_BUCKETS`]: the net has this many sets of
    /// 768 inputs.
    pub buckets: usize,
    /// Whether a perspective whose own king is on files e–h sees the board
    /// mirrored left to right.
    pub mirrored: bool,
    /// The bucket of an own king on each square of files a–d, from its own
    /// side: entry `rank × 4 + file` (rank 0 is the perspective's first rank).
    pub table: [u8; 32],
}

impl KingLayout {
    /// One bucket, no mirroring: the inputs of the nets before king buckets.
    pub const NONE: KingLayout = KingLayout {
        buckets: 1,
        mirrored: false,
        table: [0; 32],
    };

    /// Whether this is [`KingLayout::NONE`] (a net of version 1 or 2).
    pub fn is_none(&self) -> bool {
        *self == KingLayout::NONE
    }

    /// Inputs per perspective: 768 per king bucket.
    pub const fn inputs(&self) -> usize {
        self.buckets * INPUTS
    }

    /// For an own king on `square` (0 to 63, from the perspective's own side:
    /// Black's ranks already flipped), its bucket and whether the perspective
    /// sees the board mirrored.
    #[inline(always)]
    pub const fn of(&self, square: usize) -> (usize, bool) {
        let file = square & 7;
        let right = file >= 4;
        let near = if right { 7 - file } else { file };
        let bucket = self.table[(square >> 3) * 4 + near] as usize;
        (bucket, right && self.mirrored)
    }

    /// The layout is well formed: 1 to [`MAX_KING_BUCKETS`] buckets, every
    /// entry one of them, and every bucket used by some square.
    pub fn check(&self) -> Result<(), String> {
        let k = self.buckets;
        if k == 0 || k > MAX_KING_BUCKETS {
            return Err(format!("{k} king buckets: must be 1 to {MAX_KING_BUCKETS}"));
        }
        if let Some(i) = self.table.iter().position(|&b| b as usize >= k) {
            return Err(format!(
                "king layout entry {i} (rank {}, file {}) is bucket {}, beyond the {k} king buckets",
                i / 4 + 1,
                (b'a' + (i % 4) as u8) as char,
                self.table[i]
            ));
        }
        if let Some(b) = (0..k).find(|&b| !self.table.iter().any(|&e| e as usize == b)) {
            return Err(format!(
                "king bucket {b} of {k} has no square in the king layout"
            ));
        }
        Ok(())
    }
}

/// A net as its file holds it: the format version, the shape and the
/// quantised weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetFile {
    /// The format version of the file it was read from, [`VERSION`] for a net
    /// made here: [`NetFile::to_bytes`] writes this version (while it can hold
    /// the weights), so that a file read and written again is the same bytes
    /// and [`NetFile::hash`] is its checksum.
    pub version: u32,
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// Output buckets.
    pub buckets: usize,
    /// The king buckets and mirroring ([`KingLayout::NONE`] before version 3).
    pub kings: KingLayout,
    /// Centipawns per unit of the output.
    pub scale: i32,
    /// `kings.buckets × INPUTS × hidden`, input-major.
    pub ft_weights: Vec<i16>,
    /// `hidden`.
    pub ft_bias: Vec<i16>,
    /// `buckets × 2 × hidden`.
    pub out_weights: Vec<i16>,
    /// `buckets`.
    pub out_bias: Vec<i32>,
    /// `kings.buckets × INPUTS × buckets`, input-major (zeros in a version-1
    /// file).
    pub psqt: Vec<i32>,
}

/// FNV-1a, 64 bits (not a cryptographic hash; it finds a damaged or
/// truncated file, and names a net in `info string`s).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_from(0xcbf2_9ce4_8422_2325, bytes)
}

/// FNV-1a 64 carried on from the state `h` over more bytes.
pub(crate) fn fnv1a_from(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The output scale every net the trainer writes has: centipawns per unit.
pub const TRAINED_SCALE: u32 = 400;

/// The largest output scale a file may hold (the smallest is 1).
pub const MAX_SCALE: u32 = 10_000;

/// The checksum a file stores at offset 40, which names the net: FNV-1a 64 of
/// `body` (everything after the header), carried on over `scale`'s four
/// bytes when the scale is not [`TRAINED_SCALE`]. The weights alone would give
/// a rescaled net its parent's name although it evaluates differently; the
/// scale only when it differs keeps the names of all nets made before.
pub fn checksum(body: &[u8], scale: u32) -> u64 {
    let h = fnv1a(body);
    if scale == TRAINED_SCALE {
        h
    } else {
        fnv1a_from(h, &scale.to_le_bytes())
    }
}

/// The size of a file of format `version` holding a net of this shape (one
/// king bucket).
pub fn file_size(version: u32, hidden: usize, buckets: usize) -> usize {
    file_size_kings(version, hidden, buckets, 1)
}

/// The size of a file of format `version` holding a net of this shape with
/// `kings` king buckets.
pub fn file_size_kings(version: u32, hidden: usize, buckets: usize, kings: usize) -> usize {
    let inputs = kings * INPUTS;
    let psqt = if version >= 2 {
        4 * inputs * buckets
    } else {
        0
    };
    let block = if version >= VERSION_KINGS {
        KING_BLOCK
    } else {
        0
    };
    HEADER + block + 2 * (inputs * hidden + hidden + buckets * 2 * hidden) + 4 * buckets + psqt
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

impl NetFile {
    /// Read a net from a file's bytes.
    pub fn parse(bytes: &[u8]) -> Result<NetFile, String> {
        if bytes.len() < HEADER {
            return Err(format!(
                "not a brokkr net: {} bytes, shorter than the {HEADER}-byte header",
                bytes.len()
            ));
        }
        if &bytes[..8] != MAGIC {
            return Err("not a brokkr net: the file does not start with BRKKRNN1".to_string());
        }
        let field = |i: usize| u32_at(bytes, 8 + 4 * i);
        let (version, inputs, hidden, buckets) = (field(0), field(1), field(2), field(3));
        let (activation, qa, qb, scale) = (field(4), field(5), field(6), field(7));
        if !(1..=VERSION_KINGS).contains(&version) {
            return Err(format!(
                "net format version {version}; this brokkr reads versions 1 to {VERSION_KINGS}"
            ));
        }
        if inputs as usize != INPUTS {
            return Err(format!(
                "a net for {inputs} inputs; brokkr's architecture has {INPUTS}"
            ));
        }
        let (hidden, buckets) = (hidden as usize, buckets as usize);
        if hidden == 0 || !hidden.is_multiple_of(32) || hidden > MAX_HIDDEN {
            return Err(format!(
                "hidden layer of {hidden}: must be a multiple of 32 from 32 to {MAX_HIDDEN}"
            ));
        }
        if buckets == 0 || buckets > MAX_BUCKETS {
            return Err(format!(
                "{buckets} output buckets: must be 1 to {MAX_BUCKETS}"
            ));
        }
        if activation != SCRELU {
            return Err(format!(
                "activation {activation}: brokkr runs squared clipped ReLU (1) only"
            ));
        }
        if qa as i32 != QA || qb as i32 != QB {
            return Err(format!(
                "quantisation QA={qa} QB={qb}: brokkr's inference uses QA={QA} QB={QB}"
            ));
        }
        if !(1..=MAX_SCALE).contains(&scale) {
            return Err(format!("output scale {scale}: must be 1 to {MAX_SCALE}"));
        }
        let kings = if version >= VERSION_KINGS {
            if bytes.len() < HEADER + KING_BLOCK {
                return Err(format!(
                    "{} bytes: a version-{version} net ends inside its king block",
                    bytes.len()
                ));
            }
            let (k, flags) = (u32_at(bytes, HEADER), u32_at(bytes, HEADER + 4));
            if flags > 1 {
                return Err(format!(
                    "king flags {flags:#x}: only bit 0 (mirroring) is defined"
                ));
            }
            let layout = KingLayout {
                buckets: k as usize,
                mirrored: flags == 1,
                table: bytes[HEADER + 8..HEADER + KING_BLOCK]
                    .try_into()
                    .expect("32 bytes"),
            };
            layout.check()?;
            layout
        } else {
            KingLayout::NONE
        };
        let want = file_size_kings(version, hidden, buckets, kings.buckets);
        if bytes.len() != want {
            return Err(format!(
                "{} bytes where a net with {hidden} hidden neurons, {buckets} buckets and {} \
                 king bucket(s) has {want}: truncated, or another shape",
                bytes.len(),
                kings.buckets
            ));
        }
        let stored = u64::from_le_bytes(bytes[40..48].try_into().expect("8 bytes"));
        let actual = checksum(&bytes[HEADER..], scale);
        if stored != actual {
            return Err(format!(
                "checksum mismatch (header {stored:016x}, contents {actual:016x}): the file is damaged"
            ));
        }
        let inputs = kings.inputs();
        let mut at = HEADER
            + if version >= VERSION_KINGS {
                KING_BLOCK
            } else {
                0
            };
        let mut i16s = |n: usize| -> Vec<i16> {
            let v = bytes[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * n;
            v
        };
        let ft_weights = i16s(inputs * hidden);
        let ft_bias = i16s(hidden);
        let out_weights = i16s(buckets * 2 * hidden);
        let i32s = |from: usize, n: usize| -> Vec<i32> {
            bytes[from..from + 4 * n]
                .chunks_exact(4)
                .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        };
        let out_bias = i32s(at, buckets);
        let psqt = if version >= 2 {
            i32s(at + 4 * buckets, inputs * buckets)
        } else {
            vec![0; inputs * buckets]
        };
        if let Some(w) = psqt.iter().find(|w| w.abs() > PSQT_LIMIT) {
            return Err(format!(
                "a PSQT weight of {w}, beyond the limit of {PSQT_LIMIT}: not a net brokkr wrote"
            ));
        }
        Ok(NetFile {
            version,
            hidden,
            buckets,
            kings,
            scale: scale as i32,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
            psqt,
        })
    }

    /// The version [`NetFile::to_bytes`] writes: the net's own, unless that
    /// has no room for its weights: version 1 has no PSQT weights, 1 and 2 no
    /// king buckets or mirroring.
    pub fn written_version(&self) -> u32 {
        let needed = if !self.kings.is_none() {
            VERSION_KINGS
        } else if self.psqt.iter().any(|&w| w != 0) {
            2
        } else {
            1
        };
        self.version.clamp(needed, VERSION_KINGS)
    }

    /// The file's bytes, header and checksum included, in the format
    /// [`NetFile::written_version`] says.
    pub fn to_bytes(&self) -> Vec<u8> {
        let version = self.written_version();
        let mut body = Vec::with_capacity(file_size_kings(
            version,
            self.hidden,
            self.buckets,
            self.kings.buckets,
        ));
        if version >= VERSION_KINGS {
            body.extend_from_slice(&(self.kings.buckets as u32).to_le_bytes());
            body.extend_from_slice(&(self.kings.mirrored as u32).to_le_bytes());
            body.extend_from_slice(&self.kings.table);
        }
        for w in self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(&self.out_weights)
        {
            body.extend_from_slice(&w.to_le_bytes());
        }
        let psqt: &[i32] = if version >= 2 { &self.psqt } else { &[] };
        for b in self.out_bias.iter().chain(psqt) {
            body.extend_from_slice(&b.to_le_bytes());
        }
        let mut out = Vec::with_capacity(HEADER + body.len());
        out.extend_from_slice(MAGIC);
        for v in [
            version,
            INPUTS as u32,
            self.hidden as u32,
            self.buckets as u32,
            SCRELU,
            QA as u32,
            QB as u32,
            self.scale as u32,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&checksum(&body, self.scale as u32).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// This net with `hidden` neurons and `buckets` output buckets, computing the
    /// same: the new neurons' weights are all zero (a neuron at zero adds
    /// nothing through the squared clipped ReLU), and each new bucket is a copy
    /// of the old one its numbers of men fell in ([`bucket_sources`]), so every
    /// position meets the weights it met.
    /// `examples/widen_net.rs` writes one to measure what width costs in speed
    /// alone. It is no start for training a wider net: a neuron whose weights
    /// are all zero sits at zero, where the squared clipped ReLU's slope is
    /// zero, so it never learns. `brokkr train --init` grows a net with random
    /// input weights for the new neurons instead (`Net::grown`).
    ///
    /// # Errors
    /// If `hidden` is below the net's, above [`MAX_HIDDEN`] or not a multiple
    /// of 32, or the buckets cannot grow so ([`bucket_sources`]).
    pub fn widened(&self, hidden: usize, buckets: usize) -> Result<NetFile, String> {
        let net = self;
        if !(net.hidden..=MAX_HIDDEN).contains(&hidden) || !hidden.is_multiple_of(32) {
            return Err(format!(
                "cannot widen {} neurons to {hidden} (a multiple of 32 up to {MAX_HIDDEN})",
                net.hidden
            ));
        }
        let source = bucket_sources(net.buckets, buckets)?;
        let (h, b) = (net.hidden, net.buckets);
        // Input weights: one row of `h` per input, each padded to `hidden`.
        let ft_weights = net
            .ft_weights
            .chunks(h)
            .flat_map(|row| {
                row.iter()
                    .copied()
                    .chain(std::iter::repeat_n(0, hidden - h))
            })
            .collect();
        let pad = |v: &[i16]| -> Vec<i16> {
            v.iter()
                .copied()
                .chain(std::iter::repeat_n(0, hidden - h))
                .collect()
        };
        let ft_bias = pad(&net.ft_bias);
        let out_weights = source
            .iter()
            .flat_map(|&was| {
                let w = &net.out_weights[was * 2 * h..(was + 1) * 2 * h];
                let mut both = pad(&w[..h]);
                both.extend(pad(&w[h..]));
                both
            })
            .collect();
        let out_bias = source.iter().map(|&was| net.out_bias[was]).collect();
        let psqt = net
            .psqt
            .chunks(b)
            .flat_map(|row| source.iter().map(move |&was| row[was]))
            .collect();
        Ok(NetFile {
            version: net.version,
            hidden,
            buckets,
            kings: net.kings,
            scale: net.scale,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
            psqt,
        })
    }

    /// This net with its output scale (centipawns per unit) multiplied by
    /// `factor` and rounded: the same weights, so every evaluation is this
    /// net's times `factor` but for that rounding. Scaling the quantised
    /// output weights instead would round them a second time. The result has
    /// a name of its own ([`checksum`]); `docs/scripts/net-rescale.py` writes
    /// the same file.
    ///
    /// # Errors
    /// If the new scale falls outside the format's 1 to 10,000 (or `factor`
    /// is not a number).
    pub fn rescaled(&self, factor: f64) -> Result<NetFile, String> {
        let scale = (f64::from(self.scale) * factor).round();
        if !(1.0..=f64::from(MAX_SCALE)).contains(&scale) {
            return Err(format!(
                "an output scale of {scale} ({} x {factor:.4}): the format allows 1 to {MAX_SCALE}",
                self.scale
            ));
        }
        Ok(NetFile {
            scale: scale as i32,
            ..self.clone()
        })
    }

    /// The checksum that names this net: its file's (the one it was read from,
    /// or the one [`NetFile::to_bytes`] writes, which is the same).
    pub fn hash(&self) -> u64 {
        let bytes = self.to_bytes();
        u64::from_le_bytes(bytes[40..48].try_into().expect("8 bytes"))
    }

    /// Static Rust for the embedded net: the weights as arrays, aligned to 64
    /// bytes for the vector paths, and their shape as constants.
    pub fn rust_source(&self, origin: &str) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "// Generated by brokkr's build.rs from {origin}. Do not edit."
        );
        let _ = writeln!(s, "pub const HIDDEN: usize = {};", self.hidden);
        let _ = writeln!(s, "pub const BUCKETS: usize = {};", self.buckets);
        let _ = writeln!(s, "pub const KING_BUCKETS: usize = {};", self.kings.buckets);
        let _ = writeln!(
            s,
            "pub const KING_MIRRORED: bool = {};",
            self.kings.mirrored
        );
        let _ = writeln!(
            s,
            "pub const KING_TABLE: [u8; 32] = {:?};",
            self.kings.table
        );
        let _ = writeln!(s, "pub const SCALE: i32 = {};", self.scale);
        let _ = writeln!(s, "pub const HASH: u64 = 0x{:016x};", self.hash());
        let mut array = |name: &str, ty: &str, values: &mut dyn Iterator<Item = String>| {
            let v: Vec<String> = values.collect();
            let _ = writeln!(
                s,
                "pub static {name}: Aligned<[{ty}; {}]> = Aligned([",
                v.len()
            );
            for line in v.chunks(24) {
                let _ = writeln!(s, "{},", line.join(","));
            }
            let _ = writeln!(s, "]);");
        };
        array(
            "FT_WEIGHTS",
            "i16",
            &mut self.ft_weights.iter().map(|x| x.to_string()),
        );
        array(
            "FT_BIAS",
            "i16",
            &mut self.ft_bias.iter().map(|x| x.to_string()),
        );
        array(
            "OUT_WEIGHTS",
            "i16",
            &mut self.out_weights.iter().map(|x| x.to_string()),
        );
        array(
            "OUT_BIAS",
            "i32",
            &mut self.out_bias.iter().map(|x| x.to_string()),
        );
        array("PSQT", "i32", &mut self.psqt.iter().map(|x| x.to_string()));
        s
    }
}
