//! The table model every generator produces and every writer consumes.

/// The element type of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    U8,
    U16,
    U32,
    U64,
}

impl Elem {
    pub fn bytes(self) -> usize {
        match self {
            Elem::U8 => 1,
            Elem::U16 => 2,
            Elem::U32 => 4,
            Elem::U64 => 8,
        }
    }

    pub fn rust(self) -> &'static str {
        match self {
            Elem::U8 => "u8",
            Elem::U16 => "u16",
            Elem::U32 => "u32",
            Elem::U64 => "u64",
        }
    }

    pub fn c(self) -> &'static str {
        match self {
            Elem::U8 => "uint8_t",
            Elem::U16 => "uint16_t",
            Elem::U32 => "uint32_t",
            Elem::U64 => "uint64_t",
        }
    }
}

/// One generated table: its name, shape, documentation and data (row-major,
/// every element widened to `u64`).
#[derive(Clone, Debug)]
pub struct Table {
    pub name: String,
    pub elem: Elem,
    /// Dimensions, outermost first; empty for a scalar.
    pub dims: Vec<usize>,
    /// Which engine's technique the table comes from.
    pub origin: &'static str,
    /// Layout, indexing and meaning, in plain text (one paragraph per line).
    pub doc: String,
    pub data: Vec<u64>,
    /// Compile-time assertions about the data (Rust items, such as
    /// `const _: () = assert!(...);`), written after the table in the crate's own
    /// module, so that the build fails when the data breaks an invariant that
    /// `unsafe` code relies on. Standalone exports leave them out.
    pub checks: Vec<String>,
}

impl Table {
    pub fn new(
        name: impl Into<String>,
        elem: Elem,
        dims: &[usize],
        origin: &'static str,
        doc: impl Into<String>,
        data: Vec<u64>,
    ) -> Table {
        let name = name.into();
        let len: usize = dims.iter().product();
        assert_eq!(
            len,
            data.len(),
            "table {name}: data does not fit its dimensions"
        );
        let max = match elem {
            Elem::U8 => u8::MAX as u64,
            Elem::U16 => u16::MAX as u64,
            Elem::U32 => u32::MAX as u64,
            Elem::U64 => u64::MAX,
        };
        assert!(
            data.iter().all(|&v| v <= max),
            "table {name}: value too wide"
        );
        Table {
            name,
            elem,
            dims: dims.to_vec(),
            origin,
            doc: doc.into(),
            data,
            checks: Vec::new(),
        }
    }

    /// The table with one more compile-time assertion (see [`Table::checks`]).
    pub fn with_check(mut self, item: impl Into<String>) -> Table {
        self.checks.push(item.into());
        self
    }

    /// Size of the table in bytes.
    pub fn size_bytes(&self) -> usize {
        self.data.len() * self.elem.bytes()
    }

    /// The dimensions written as `[64][256]` (empty for a scalar).
    pub fn dims_text(&self) -> String {
        self.dims.iter().map(|d| format!("[{d}]")).collect()
    }

    /// 64-bit FNV-1a over the table's little-endian bytes.
    pub fn fnv1a(&self) -> u64 {
        let mut h = FNV_OFFSET;
        for &v in &self.data {
            h = fnv1a_extend(h, &v.to_le_bytes()[..self.elem.bytes()]);
        }
        h
    }
}

pub const FNV_OFFSET: u64 = 0xCBF2_9CE4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01B3;

/// Feed `bytes` into a running FNV-1a hash.
pub fn fnv1a_extend(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(FNV_PRIME);
    }
    h
}
