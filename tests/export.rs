//! `brokkr tables`: the list, the standalone Rust and C exports, and bad input.
//!
//! The exports are compiled with `rustc` and the system C compiler and checked
//! against `brokkr::tables`: the Rust export by checksums of every table, the C
//! export by a checker that recomputes sample entries by walking the board.

mod common;

use brokkr::tables;
use common::{brokkr, brokkr_ok, run_ok, text, TempDir};
use std::fs;
use std::path::Path;
use std::process::Command;

// ---------------------------------------------------------------------------------
// Checksums of the statics in `brokkr::tables`, computed here

/// 64-bit FNV-1a, written out here rather than borrowed from brokkr.
struct Fnv {
    hash: u64,
    bytes: usize,
}

impl Fnv {
    fn new() -> Fnv {
        Fnv {
            hash: 0xcbf2_9ce4_8422_2325,
            bytes: 0,
        }
    }

    fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.hash = (self.hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        self.bytes += bytes.len();
    }
}

/// A table's elements, in row-major order, as little-endian bytes.
trait LeBytes {
    /// Rust name of the element type.
    const ELEM: &'static str;
    fn feed(&self, h: &mut Fnv);
    /// Dimensions, outermost first.
    fn dims(&self) -> Vec<usize>;
}

macro_rules! le_bytes {
    ($($t:ty),*) => {$(
        impl LeBytes for $t {
            const ELEM: &'static str = stringify!($t);
            fn feed(&self, h: &mut Fnv) {
                h.feed(&self.to_le_bytes());
            }
            fn dims(&self) -> Vec<usize> {
                Vec::new()
            }
        }
    )*};
}
le_bytes!(u8, u16, u32, u64);

impl<T: LeBytes, const N: usize> LeBytes for [T; N] {
    const ELEM: &'static str = T::ELEM;
    fn feed(&self, h: &mut Fnv) {
        for x in self {
            x.feed(h);
        }
    }
    fn dims(&self) -> Vec<usize> {
        let mut d = vec![N];
        d.extend(self.first().map(T::dims).unwrap_or_default());
        d
    }
}

/// What `--list` says about one table, computed from the static.
#[derive(Debug, PartialEq)]
struct Summary {
    name: &'static str,
    elem: &'static str,
    dims: Vec<usize>,
    bytes: usize,
    fnv: u64,
}

fn summary<T: LeBytes>(name: &'static str, t: &T) -> Summary {
    let mut h = Fnv::new();
    t.feed(&mut h);
    Summary {
        name,
        elem: T::ELEM,
        dims: t.dims(),
        bytes: h.bytes,
        fnv: h.hash,
    }
}

macro_rules! summaries {
    ($($name:ident),* $(,)?) => {
        vec![$(summary(stringify!($name), &tables::$name)),*]
    };
}

/// Every table in `brokkr::tables`, in the generators' order. A table added to
/// codegen must be added here too: `list_matches_the_statics` fails until it is.
fn statics() -> Vec<Summary> {
    summaries![
        ROTATED_RANK_ATTACKS,
        ROTATED_FILE_ATTACKS,
        ROTATED_DIAG_A1H8_ATTACKS,
        ROTATED_DIAG_H1A8_ATTACKS,
        ROTATED_DIAG_A1H8_INDEX,
        ROTATED_DIAG_H1A8_INDEX,
        FIRST_ONE,
        LAST_ONE,
        POPCOUNT_16,
        OLITHINK_RAYS,
        OLITHINK_BMASK45,
        OLITHINK_BMASK135,
        ROOK_MASK,
        ROOK_OFFSET,
        ROOK_MAGIC,
        ROOK_SHIFT,
        ROOK_MAGIC_ATTACKS,
        ROOK_PEXT_ATTACKS,
        BISHOP_MASK,
        BISHOP_OFFSET,
        BISHOP_MAGIC,
        BISHOP_SHIFT,
        BISHOP_MAGIC_ATTACKS,
        BISHOP_PEXT_ATTACKS,
        KNIGHT_ATTACKS,
        KING_ATTACKS,
        PAWN_ATTACKS,
        ROOK_PSEUDO_ATTACKS,
        BISHOP_PSEUDO_ATTACKS,
        BETWEEN,
        LINE,
        RAYS,
        FILE_MASKS,
        RANK_MASKS,
        FORWARD_SPAN,
        PASSED_PAWN_MASK,
        ISOLATED_PAWN_MASK,
        ZOBRIST_PIECES,
        ZOBRIST_CASTLING,
        ZOBRIST_EN_PASSANT,
        ZOBRIST_SIDE,
        POLYGLOT_RANDOM,
    ]
}

fn names() -> Vec<&'static str> {
    statics().iter().map(|s| s.name).collect()
}

// ---------------------------------------------------------------------------------
// --list

#[test]
fn list_matches_the_statics() {
    let out = brokkr_ok(&["tables", "--list"]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("name"), "no header line: {}", lines[0]);
    let listed: Vec<Vec<&str>> = lines[1..]
        .iter()
        .map(|l| l.split_whitespace().collect())
        .collect();
    let listed_names: Vec<&str> = listed.iter().map(|f| f[0]).collect();
    assert_eq!(
        listed_names,
        names(),
        "--list and the statics checked here disagree on the tables"
    );

    for (fields, s) in listed.iter().zip(statics()) {
        assert_eq!(fields.len(), 5, "line for {}: {fields:?}", s.name);
        let dims = if s.dims.is_empty() {
            "scalar".to_string()
        } else {
            s.dims.iter().map(|d| format!("[{d}]")).collect()
        };
        assert_eq!(fields[1], s.elem, "element type of {}", s.name);
        assert_eq!(fields[2], dims, "dimensions of {}", s.name);
        assert_eq!(fields[3], s.bytes.to_string(), "size of {}", s.name);
        assert_eq!(
            fields[4],
            format!("0x{:016x}", s.fnv),
            "FNV-1a checksum of {}",
            s.name
        );
    }

    // Aligned columns: every field starts where the header's does (the size column
    // is right-aligned, so it ends where the header's ends).
    let starts = |l: &str| -> Vec<usize> {
        let mut v = Vec::new();
        let mut prev = ' ';
        for (i, c) in l.char_indices() {
            if c != ' ' && prev == ' ' {
                v.push(i);
            }
            prev = c;
        }
        v
    };
    let head = starts(lines[0]);
    let size_end = lines[0].find("bytes").unwrap() + "bytes".len();
    for l in &lines[1..] {
        let s = starts(l);
        assert_eq!(
            (s[0], s[1], s[2], s[4]),
            (head[0], head[1], head[2], head[4]),
            "misaligned: {l}"
        );
        assert_eq!(l[..s[4]].trim_end().len(), size_end, "misaligned: {l}");
    }
}

#[test]
fn list_only_selects_tables() {
    let out = brokkr_ok(&["tables", "--list", "--only", "between,knight_attacks"]);
    let names: Vec<&str> = out
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    // The generators' order, whatever the order asked for.
    assert_eq!(names, ["KNIGHT_ATTACKS", "BETWEEN"]);
}

// ---------------------------------------------------------------------------------
// Rust export

/// A trait and function the generated checker program uses to checksum a table; the
/// same algorithm as [`Fnv`] above, written again so the program stands alone.
const RUST_CHECKSUM: &str = r#"
trait Le {
    fn walk(&self, f: &mut dyn FnMut(&[u8]));
}
macro_rules! le {
    ($($t:ty),*) => {$(
        impl Le for $t {
            fn walk(&self, f: &mut dyn FnMut(&[u8])) {
                f(&self.to_le_bytes());
            }
        }
    )*};
}
le!(u8, u16, u32, u64);
impl<T: Le, const N: usize> Le for [T; N] {
    fn walk(&self, f: &mut dyn FnMut(&[u8])) {
        for x in self {
            x.walk(f);
        }
    }
}
fn fnv<T: Le>(t: &T) -> (u64, usize) {
    let (mut h, mut n) = (0xcbf29ce484222325u64, 0usize);
    t.walk(&mut |bytes| {
        for &b in bytes {
            h = (h ^ b as u64).wrapping_mul(0x100000001b3);
        }
        n += bytes.len();
    });
    (h, n)
}
"#;

#[test]
fn rust_export_compiles_and_equals_the_crate_tables() {
    let dir = TempDir::new("rust");
    let out = brokkr_ok(&[
        "tables",
        "--lang",
        "rust",
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    assert!(out.contains("brokkr_tables.rs"), "{out}");
    let module = fs::read_to_string(dir.path().join("brokkr_tables.rs")).unwrap();
    assert!(
        !module.contains("brokkr::"),
        "the export must not depend on brokkr"
    );

    let mut main = String::from("mod brokkr_tables;\nuse brokkr_tables::*;\n");
    main.push_str(RUST_CHECKSUM);
    main.push_str("fn main() {\n");
    for name in names() {
        main.push_str(&format!(
            "    let (h, n) = fnv(&{name});\n    println!(\"{name} {{h:016x}} {{n}}\");\n"
        ));
    }
    main.push_str("}\n");
    fs::write(dir.path().join("main.rs"), main).unwrap();

    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let exe = dir
        .path()
        .join(format!("check{}", std::env::consts::EXE_SUFFIX));
    run_ok(
        Command::new(&rustc)
            .current_dir(dir.path())
            .args(["--edition", "2021", "-D", "warnings", "-C", "debuginfo=0"])
            .arg("main.rs")
            .arg("-o")
            .arg(&exe),
    );
    let printed = run_ok(&mut Command::new(&exe));
    let expected: String = statics()
        .iter()
        .map(|s| format!("{} {:016x} {}\n", s.name, s.fnv, s.bytes))
        .collect();
    assert_eq!(printed, expected);

    // As a crate of its own, with every table documented.
    run_ok(
        Command::new(&rustc)
            .current_dir(dir.path())
            .args(["--edition", "2021", "--crate-type", "lib", "--crate-name"])
            .args(["brokkr_tables", "-D", "warnings", "-D", "missing-docs"])
            .arg("brokkr_tables.rs")
            .arg("--out-dir")
            .arg(dir.path()),
    );
}

// ---------------------------------------------------------------------------------
// C export

/// A C99 program that recomputes table entries by walking the board and compares.
/// `checker --flip` corrupts its first expectation, to show a mismatch is caught.
const C_CHECKER: &str = r#"
#include <stdio.h>
#include <string.h>
#include "brokkr_tables.h"

static long checks, failures;
static int flip;

static void expect(const char *table, long i, long j, uint64_t got, uint64_t want)
{
    if (flip) {
        want ^= 1;
        flip = 0;
    }
    checks++;
    if (got != want) {
        failures++;
        if (failures <= 10)
            printf("MISMATCH %s[%ld][%ld]: table 0x%016llx, expected 0x%016llx\n", table,
                   i, j, (unsigned long long)got, (unsigned long long)want);
    }
}

static uint64_t bit(int sq) { return (uint64_t)1 << sq; }

static int on_board(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }

/* From sq by (df, dr): the squares up to and including the first occupied one. */
static uint64_t walk(int sq, int df, int dr, uint64_t occ)
{
    uint64_t att = 0;
    int f = sq % 8 + df, r = sq / 8 + dr;
    while (on_board(f, r)) {
        att |= bit(r * 8 + f);
        if (occ & bit(r * 8 + f))
            break;
        f += df;
        r += dr;
    }
    return att;
}

/* From sq by (df, dr): the second occupied square, or 0. */
static uint64_t second(int sq, int df, int dr, uint64_t occ)
{
    int seen = 0, f = sq % 8 + df, r = sq / 8 + dr;
    while (on_board(f, r)) {
        if ((occ & bit(r * 8 + f)) && ++seen == 2)
            return bit(r * 8 + f);
        f += df;
        r += dr;
    }
    return 0;
}

/* The four lines (rank, file, a1-h8, h1-a8) as one direction each; the other
   direction of a line is the opposite step. */
static const int LINE_DF[4] = {1, 0, 1, 1}, LINE_DR[4] = {0, 1, 1, -1};

static uint64_t line_attacks(int line, int sq, uint64_t occ)
{
    return walk(sq, LINE_DF[line], LINE_DR[line], occ) |
           walk(sq, -LINE_DF[line], -LINE_DR[line], occ);
}

static uint64_t rook(int sq, uint64_t occ) { return line_attacks(0, sq, occ) | line_attacks(1, sq, occ); }
static uint64_t bishop(int sq, uint64_t occ) { return line_attacks(2, sq, occ) | line_attacks(3, sq, occ); }

/* The squares of a line through sq (sq included). */
static uint64_t line_mask(int line, int sq)
{
    uint64_t m = bit(sq);
    int k;
    for (k = -7; k <= 7; k++) {
        int f = sq % 8 + k * LINE_DF[line], r = sq / 8 + k * LINE_DR[line];
        if (on_board(f, r))
            m |= bit(r * 8 + f);
    }
    return m;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * UINT64_C(0x2545F4914F6CDD1D);
}

static uint64_t pext(uint64_t occ, uint64_t mask)
{
    uint64_t r = 0, out = 1;
    for (; mask; mask &= mask - 1, out <<= 1)
        if (occ & mask & (~mask + 1))
            r |= out;
    return r;
}

static void leapers(void)
{
    static const int KN[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    int sq, i, c;
    for (sq = 0; sq < 64; sq++) {
        uint64_t n = 0, k = 0, p[2] = {0, 0};
        for (i = 0; i < 8; i++) {
            int f = sq % 8 + KN[i][0], r = sq / 8 + KN[i][1];
            if (on_board(f, r))
                n |= bit(r * 8 + f);
        }
        for (i = 0; i < 9; i++) {
            int f = sq % 8 + i % 3 - 1, r = sq / 8 + i / 3 - 1;
            if (i != 4 && on_board(f, r))
                k |= bit(r * 8 + f);
        }
        for (c = 0; c < 2; c++)
            for (i = -1; i <= 1; i += 2)
                if (on_board(sq % 8 + i, sq / 8 + (c ? -1 : 1)))
                    p[c] |= bit(sq + (c ? -8 : 8) + i);
        expect("KNIGHT_ATTACKS", sq, 0, KNIGHT_ATTACKS[sq], n);
        expect("KING_ATTACKS", sq, 0, KING_ATTACKS[sq], k);
        expect("PAWN_ATTACKS", 0, sq, PAWN_ATTACKS[0][sq], p[0]);
        expect("PAWN_ATTACKS", 1, sq, PAWN_ATTACKS[1][sq], p[1]);
    }
}

static void rays_between_line(void)
{
    static const int DF[8] = {0, 1, 1, 1, 0, -1, -1, -1}, DR[8] = {1, 1, 0, -1, -1, -1, 0, 1};
    int a, b, d;
    for (a = 0; a < 64; a++) {
        for (d = 0; d < 8; d++)
            expect("RAYS", d, a, RAYS[d][a], walk(a, DF[d], DR[d], 0));
        for (b = 0; b < 64; b++) {
            uint64_t between = 0, line = 0;
            for (d = 0; d < 8; d++) {
                uint64_t ray = walk(a, DF[d], DR[d], bit(b));
                if (a != b && (ray & bit(b))) {
                    between = ray & ~bit(b);
                    line = bit(a) | walk(a, DF[d], DR[d], 0) | walk(a, -DF[d], -DR[d], 0);
                }
            }
            expect("BETWEEN", a, b, BETWEEN[a][b], between);
            expect("LINE", a, b, LINE[a][b], line);
        }
    }
}

/* Every square and every 8-bit line occupancy of the four rotated tables. */
static void rotated(void)
{
    const uint64_t (*tables[4])[256] = {ROTATED_RANK_ATTACKS, ROTATED_FILE_ATTACKS,
                                        ROTATED_DIAG_A1H8_ATTACKS, ROTATED_DIAG_H1A8_ATTACKS};
    static const char *names[4] = {"ROTATED_RANK_ATTACKS", "ROTATED_FILE_ATTACKS",
                                   "ROTATED_DIAG_A1H8_ATTACKS", "ROTATED_DIAG_H1A8_ATTACKS"};
    int line, sq, occ8, k;
    for (line = 0; line < 4; line++)
        for (sq = 0; sq < 64; sq++)
            for (occ8 = 0; occ8 < 256; occ8++) {
                /* bit i of occ8 is the line's square on file i (rank i for files) */
                uint64_t occ = 0;
                for (k = -7; k <= 7; k++) {
                    int f = sq % 8 + k * LINE_DF[line], r = sq / 8 + k * LINE_DR[line];
                    if (on_board(f, r) && (occ8 >> (line == 1 ? r : f) & 1))
                        occ |= bit(r * 8 + f);
                }
                expect(names[line], sq, occ8, tables[line][sq][occ8], line_attacks(line, sq, occ));
            }
    for (sq = 0; sq < 64; sq++) {
        expect("ROTATED_DIAG_A1H8_INDEX", sq, 0, ROTATED_DIAG_A1H8_INDEX[sq], 7 - sq / 8 + sq % 8);
        expect("ROTATED_DIAG_H1A8_INDEX", sq, 0, ROTATED_DIAG_H1A8_INDEX[sq], sq / 8 + sq % 8);
    }
}

/* The relevant occupancy of a slider: its rays without their last square. */
static uint64_t relevant(int sq, int first_line)
{
    uint64_t m = 0;
    int line, sign;
    for (line = first_line; line < first_line + 2; line++)
        for (sign = -1; sign <= 1; sign += 2) {
            int df = sign * LINE_DF[line], dr = sign * LINE_DR[line];
            int f = sq % 8 + df, r = sq / 8 + dr;
            while (on_board(f + df, r + dr)) {
                m |= bit(r * 8 + f);
                f += df;
                r += dr;
            }
        }
    return m;
}

/* Every occupancy of every line through OliThink's keys, with random pieces off
   the line. */
static void olithink(void)
{
    const uint64_t FILE_A = UINT64_C(0x0101010101010101), FILE_H = FILE_A << 7;
    const uint64_t EDGE_RANKS = UINT64_C(0xFF000000000000FF);
    int sq, line;
    for (sq = 0; sq < 64; sq++) {
        expect("OLITHINK_BMASK45", sq, 0, OLITHINK_BMASK45[sq], line_mask(2, sq));
        expect("OLITHINK_BMASK135", sq, 0, OLITHINK_BMASK135[sq], line_mask(3, sq));
        for (line = 0; line < 4; line++) {
            uint64_t mask = line_mask(line, sq) & ~bit(sq), sub = 0;
            /* x-rays: squares the key cannot see count as occupied */
            uint64_t unseen = line_mask(line, sq) &
                              (line == 0 ? FILE_A | FILE_H : line == 1 ? EDGE_RANKS : FILE_H);
            do {
                uint64_t occ = sub | (rng() & ~mask), key, full, xray;
                unsigned idx;
                switch (line) {
                case 0: key = (occ >> (sq & 56)) & 0x7E; break;
                case 1: key = (((occ >> (sq & 7)) & FILE_A) * UINT64_C(0x0080402010080400)) >> 57; break;
                case 2: key = ((occ & OLITHINK_BMASK45[sq]) * UINT64_C(0x0202020202020202)) >> 57; break;
                default: key = ((occ & OLITHINK_BMASK135[sq]) * UINT64_C(0x0202020202020202)) >> 57; break;
                }
                idx = (unsigned)(line << 13 | sq << 7) | (unsigned)key;
                full = occ | unseen;
                xray = second(sq, LINE_DF[line], LINE_DR[line], full) |
                       second(sq, -LINE_DF[line], -LINE_DR[line], full);
                expect("OLITHINK_RAYS", line, sq, OLITHINK_RAYS[idx], line_attacks(line, sq, occ));
                expect("OLITHINK_RAYS x-ray", line, sq, OLITHINK_RAYS[idx | 0x8000], xray);
                sub = (sub - mask) & mask;
            } while (sub);
        }
    }
}

/* Every relevant occupancy of every square through the magic and PEXT indexing,
   with random pieces elsewhere. */
static void magic(void)
{
    int sq, piece;
    for (piece = 0; piece < 2; piece++)
        for (sq = 0; sq < 64; sq++) {
            const char *name = piece ? "BISHOP_MASK" : "ROOK_MASK";
            uint64_t mask = relevant(sq, piece ? 2 : 0), sub = 0;
            long n = 0; /* the number of the relevant occupancy, for messages */
            uint64_t table_mask = piece ? BISHOP_MASK[sq] : ROOK_MASK[sq];
            expect(name, sq, 0, table_mask, mask);
            do {
                uint64_t occ = sub | (rng() & ~mask);
                if (piece) {
                    uint64_t want = bishop(sq, occ);
                    uint64_t i = ((occ & BISHOP_MASK[sq]) * BISHOP_MAGIC[sq]) >> BISHOP_SHIFT[sq];
                    expect("BISHOP_MAGIC_ATTACKS", sq, n,
                           BISHOP_MAGIC_ATTACKS[BISHOP_OFFSET[sq] + i], want);
                    expect("BISHOP_PEXT_ATTACKS", sq, n,
                           BISHOP_PEXT_ATTACKS[BISHOP_OFFSET[sq] + pext(occ, BISHOP_MASK[sq])], want);
                } else {
                    uint64_t want = rook(sq, occ);
                    uint64_t i = ((occ & ROOK_MASK[sq]) * ROOK_MAGIC[sq]) >> ROOK_SHIFT[sq];
                    expect("ROOK_MAGIC_ATTACKS", sq, n,
                           ROOK_MAGIC_ATTACKS[ROOK_OFFSET[sq] + i], want);
                    expect("ROOK_PEXT_ATTACKS", sq, n,
                           ROOK_PEXT_ATTACKS[ROOK_OFFSET[sq] + pext(occ, ROOK_MASK[sq])], want);
                }
                n++;
                sub = (sub - mask) & mask;
            } while (sub);
        }
}

static void bitscan(void)
{
    long v;
    for (v = 0; v < 65536; v++) {
        int first = 16, last = 16, count = 0, b;
        for (b = 0; b < 16; b++)
            if (v >> b & 1) {
                if (last == 16)
                    last = b;
                first = b;
                count++;
            }
        expect("FIRST_ONE", v, 0, FIRST_ONE[v], (uint64_t)first);
        expect("LAST_ONE", v, 0, LAST_ONE[v], (uint64_t)last);
        expect("POPCOUNT_16", v, 0, POPCOUNT_16[v], (uint64_t)count);
    }
}

int main(int argc, char **argv)
{
    flip = argc > 1 && strcmp(argv[1], "--flip") == 0;
    leapers();
    rays_between_line();
    rotated();
    olithink();
    magic();
    bitscan();
    if (failures) {
        printf("FAILED: %ld of %ld checks\n", failures, checks);
        return 1;
    }
    printf("ok: %ld checks\n", checks);
    return 0;
}
"#;

/// The C compiler: `$CC`, else `cc`; `None` if it cannot be run.
fn c_compiler() -> Option<String> {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let works = Command::new(&cc)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    works.then_some(cc)
}

#[test]
fn c_export_compiles_warning_free_and_checks_out() {
    let Some(cc) = c_compiler() else {
        println!(
            "SKIPPED c_export_compiles_warning_free_and_checks_out: no C compiler (cc or $CC)"
        );
        return;
    };
    let dir = TempDir::new("c");
    let out = brokkr_ok(&[
        "tables",
        "--lang",
        "c",
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    assert!(
        out.contains("brokkr_tables.h") && out.contains("brokkr_tables.c"),
        "{out}"
    );
    fs::write(dir.path().join("checker.c"), C_CHECKER).unwrap();
    let exe = dir.path().join("checker");
    run_ok(
        Command::new(&cc)
            .current_dir(dir.path())
            .args([
                "-std=c99",
                "-Wall",
                "-Wextra",
                "-pedantic",
                "-Werror",
                "-O1",
            ])
            .args(["checker.c", "brokkr_tables.c", "-o"])
            .arg(&exe),
    );
    let report = run_ok(&mut Command::new(&exe));
    let checks: u64 = report
        .trim()
        .strip_prefix("ok: ")
        .and_then(|r| r.strip_suffix(" checks"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("unexpected checker report: {report}"));
    // About 530,000: leapers 256, rays and lines 8704, rotated 65664, OliThink
    // 43144, magic and PEXT 215424, bitscan 196608.
    assert!(checks >= 500_000, "too few checks: {report}");

    // The checker does catch a wrong entry.
    let flipped = Command::new(&exe).arg("--flip").output().unwrap();
    assert!(!flipped.status.success());
    assert!(text(&flipped.stdout).contains("MISMATCH KNIGHT_ATTACKS[0][0]"));
}

// ---------------------------------------------------------------------------------
// Output: comments, --only, determinism

/// Each table declared in an export, with the comment right above its declaration:
/// the `///` lines in Rust, the `/* ... */` block in C.
fn documented(source: &str, c: bool) -> Vec<(String, String)> {
    let lines: Vec<&str> = source.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let name = if c {
            line.strip_prefix("extern const ")
                .and_then(|rest| rest.split_whitespace().nth(1))
                .map(|decl| decl.split(['[', ';']).next().unwrap())
        } else {
            line.strip_prefix("pub static ")
                .map(|rest| rest.split(':').next().unwrap())
        };
        let Some(name) = name else { continue };
        let above = lines[..i].iter().rev();
        let comment: Vec<&str> = if c {
            let mut block: Vec<&str> = above.take_while(|l| **l != "/*").copied().collect();
            block.reverse();
            block
        } else {
            let mut block: Vec<&str> = above
                .take_while(|l| l.starts_with("///"))
                .copied()
                .collect();
            block.reverse();
            block
        };
        out.push((name.to_string(), comment.join("\n")));
    }
    out
}

#[test]
fn every_exported_table_says_how_to_use_it() {
    let dir = TempDir::new("docs");
    let d = dir.path().to_str().unwrap();
    brokkr_ok(&["tables", "--lang", "c", "--out", d]);
    brokkr_ok(&["tables", "--lang", "rust", "--out", d]);
    let header = fs::read_to_string(dir.path().join("brokkr_tables.h")).unwrap();
    let rust = fs::read_to_string(dir.path().join("brokkr_tables.rs")).unwrap();
    let statics = statics();
    for (source, c) in [(&header, true), (&rust, false)] {
        let tables = documented(source, c);
        let found: Vec<&str> = tables.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(found, names());
        for ((name, comment), s) in tables.iter().zip(&statics) {
            for needle in ["Layout:", "Origin:", "FNV-1a"] {
                assert!(
                    comment.contains(needle),
                    "{name}: no {needle:?} in\n{comment}"
                );
            }
            if !s.dims.is_empty() {
                assert!(
                    comment.contains("indexed"),
                    "{name}: no indexing in\n{comment}"
                );
            }
            if s.elem == "u64" || s.dims.contains(&64) {
                assert!(
                    comment.contains("a1 = 0") && comment.contains("h8 = 63"),
                    "{name}: no square numbering in\n{comment}"
                );
            }
            assert!(
                comment.contains(&format!("{:016X}", s.fnv)),
                "{name}: wrong checksum in\n{comment}"
            );
        }
    }
    // Rust examples stay out of C; in the standalone Rust they are shown, not run.
    assert!(!header.contains("assert_eq!"));
    assert!(rust.contains("```ignore"));
}

#[test]
fn only_exports_the_named_tables() {
    let dir = TempDir::new("only");
    let d = dir.path().to_str().unwrap();
    brokkr_ok(&[
        "tables",
        "--lang",
        "rust",
        "--out",
        d,
        "--only",
        "BETWEEN, knight_attacks",
    ]);
    brokkr_ok(&[
        "tables",
        "--lang",
        "c",
        "--out",
        d,
        "--only=between,KNIGHT_ATTACKS",
    ]);
    let rust = fs::read_to_string(dir.path().join("brokkr_tables.rs")).unwrap();
    let statics: Vec<&str> = rust
        .lines()
        .filter_map(|l| l.strip_prefix("pub static "))
        .map(|l| l.split(':').next().unwrap())
        .collect();
    assert_eq!(statics, ["KNIGHT_ATTACKS", "BETWEEN"]);
    let header = fs::read_to_string(dir.path().join("brokkr_tables.h")).unwrap();
    let externs: Vec<&str> = header
        .lines()
        .filter(|l| l.starts_with("extern const"))
        .collect();
    assert_eq!(
        externs,
        [
            "extern const uint64_t KNIGHT_ATTACKS[64];",
            "extern const uint64_t BETWEEN[64][64];"
        ]
    );
}

#[test]
fn exports_are_deterministic_and_create_the_directory() {
    let dir = TempDir::new("determinism");
    let one = dir.path().join("one");
    let two = dir.path().join("nested/two/levels");
    for lang in ["rust", "c"] {
        for out in [&one, &two] {
            brokkr_ok(&["tables", "--lang", lang, "--out", out.to_str().unwrap()]);
        }
    }
    for file in ["brokkr_tables.rs", "brokkr_tables.h", "brokkr_tables.c"] {
        let a = fs::read(one.join(file)).unwrap();
        let b = fs::read(two.join(file)).unwrap();
        assert!(a == b, "{file} differs between two runs");
    }
}

/// The module docs of `brokkr::tables` give an overview of every table.
#[test]
fn module_overview_lists_every_table() {
    let source = include_str!("../src/tables.rs");
    let overview: String = source
        .lines()
        .filter(|l| l.starts_with("//! |"))
        .collect::<Vec<_>>()
        .join("\n");
    for name in names() {
        assert!(
            overview.contains(&format!("[`{name}`]")),
            "{name} is missing from the overview in src/tables.rs"
        );
    }
}

// ---------------------------------------------------------------------------------
// Bad input

/// Run `brokkr` with `args`, expecting a clear failure whose message names every one
/// of `needles`.
fn fails_with(args: &[&str], needles: &[&str]) {
    let out = brokkr(args);
    let err = text(&out.stderr);
    assert!(!out.status.success(), "brokkr {args:?} succeeded");
    assert!(!err.contains("panicked"), "brokkr {args:?} panicked: {err}");
    for needle in needles {
        assert!(
            err.contains(needle),
            "brokkr {args:?}: {needle:?} not in the message: {err}"
        );
    }
}

#[test]
fn bad_input_fails_clearly() {
    let dir = TempDir::new("bad");
    let d = dir.path().to_str().unwrap();
    fails_with(
        &["tables", "--lang", "fortran", "--out", d],
        &["fortran", "'rust'", "'c'"],
    );
    fails_with(
        &[
            "tables",
            "--lang",
            "c",
            "--out",
            d,
            "--only",
            "KNIGHT_ATTACKS,NOPE",
        ],
        &["'NOPE'", "KNIGHT_ATTACKS", "--list"],
    );
    fails_with(&["tables", "--list", "--only", ","], &["--only", "--list"]);
    fails_with(&["tables", "--lang", "rust"], &["--out"]);
    fails_with(&["tables", "--lang"], &["--lang", "value"]);
    fails_with(&["tables", "--out", d], &["--lang"]);
    fails_with(&["tables"], &["--list", "--lang"]);
    fails_with(
        &["tables", "--frobnicate"],
        &["unknown option --frobnicate"],
    );
    fails_with(&["tables", "extra"], &["unexpected argument 'extra'"]);
    fails_with(&["tables", "--list", "--lang", "c"], &["--list", "--lang"]);

    // A directory under a regular file cannot be created.
    let file = dir.path().join("a-file");
    fs::write(&file, "not a directory").unwrap();
    let under = file.join("sub");
    fails_with(
        &["tables", "--lang", "c", "--out", under.to_str().unwrap()],
        &["cannot create directory", under.to_str().unwrap()],
    );
    assert!(!under.exists());
}

/// The names in `dir`, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_failed_export_leaves_nothing_behind() {
    let dir = TempDir::new("atomic");
    let d = dir.path().to_str().unwrap();
    // The .c target is a directory: the .h must not appear without it.
    fs::create_dir(dir.path().join("brokkr_tables.c")).unwrap();
    fails_with(
        &["tables", "--lang", "c", "--out", d, "--only", "BETWEEN"],
        &["brokkr_tables.c", "is a directory", "nothing was written"],
    );
    assert_eq!(entries(dir.path()), ["brokkr_tables.c"]);
    assert_eq!(
        entries(&dir.path().join("brokkr_tables.c")),
        [] as [String; 0]
    );

    // An earlier good export is left whole, not half replaced.
    let good = TempDir::new("atomic-good");
    let g = good.path().to_str().unwrap();
    brokkr_ok(&["tables", "--lang", "c", "--out", g, "--only", "BETWEEN"]);
    let header = fs::read(good.path().join("brokkr_tables.h")).unwrap();
    fs::remove_file(good.path().join("brokkr_tables.c")).unwrap();
    fs::create_dir(good.path().join("brokkr_tables.c")).unwrap();
    fails_with(
        &[
            "tables",
            "--lang",
            "c",
            "--out",
            g,
            "--only",
            "KNIGHT_ATTACKS",
        ],
        &["is a directory"],
    );
    assert_eq!(entries(good.path()), ["brokkr_tables.c", "brokkr_tables.h"]);
    assert_eq!(
        fs::read(good.path().join("brokkr_tables.h")).unwrap(),
        header
    );
}
