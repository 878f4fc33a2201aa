//! Every bitscan/popcount path this CPU can run agrees with the others and with a
//! naive bit-by-bit loop.

mod common;

use brokkr::bits::{BitPath, Bits, Cpu};
use brokkr::with_bits;
use common::bit_paths as available;
use quickcheck::{QuickCheck, TestResult};

fn naive_lsb(b: u64) -> u32 {
    (0..64).find(|i| b >> i & 1 != 0).expect("non-zero")
}

fn naive_msb(b: u64) -> u32 {
    (0..64).rev().find(|i| b >> i & 1 != 0).expect("non-zero")
}

fn naive_popcount(b: u64) -> u32 {
    (0..64).filter(|i| b >> i & 1 != 0).count() as u32
}

/// (lsb, msb, popcount) of `b` by `path`; lsb and msb only for non-zero `b`.
fn run(path: BitPath, b: u64) -> (Option<u32>, Option<u32>, u32) {
    with_bits!(path, B => {
        assert_eq!(B::PATH, path, "with_bits! bound the wrong type");
        let scans = (b != 0).then(|| (B::lsb(b), B::msb(b)));
        (scans.map(|s| s.0), scans.map(|s| s.1), B::popcount(b))
    })
}

/// pop_lsb drains the board lowest bit first, in `popcount` steps.
fn drain(path: BitPath, mut b: u64) -> Vec<u32> {
    with_bits!(path, B => {
        let mut out = Vec::new();
        while b != 0 {
            out.push(B::pop_lsb(&mut b));
        }
        out
    })
}

fn check(b: u64) -> Result<(), String> {
    let want = (
        (b != 0).then(|| naive_lsb(b)),
        (b != 0).then(|| naive_msb(b)),
        naive_popcount(b),
    );
    let want_drain: Vec<u32> = (0..64).filter(|i| b >> i & 1 != 0).collect();
    for path in available() {
        let got = run(path, b);
        if got != want {
            return Err(format!("{path} on {b:#018x}: got {got:?}, want {want:?}"));
        }
        if drain(path, b) != want_drain {
            return Err(format!("{path} pop_lsb on {b:#018x}"));
        }
    }
    Ok(())
}

#[test]
fn paths_agree_on_edge_cases() {
    let mut cases = vec![0, u64::MAX, 1 << 63 | 1, 0x8000_0000_0000_0000 - 1];
    cases.extend((0..64).map(|i| 1u64 << i));
    cases.extend((0..64).map(|i| !(1u64 << i)));
    // One bit in each 16-bit word, and words alone: the edges of the table path.
    cases.extend((0..4).map(|w| 0xFFFFu64 << (16 * w)));
    cases.extend((0..4).map(|w| 0x8001u64 << (16 * w)));
    for b in cases {
        check(b).unwrap();
    }
}

#[test]
fn paths_agree_quickcheck() {
    fn prop(a: u64, b: u64, c: u64) -> TestResult {
        // Several densities: uniform words have about 32 bits set, real boards fewer.
        for x in [a, a & b, a & b & c, a | b, a >> (c % 64)] {
            if let Err(e) = check(x) {
                return TestResult::error(e);
            }
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(2000)
        .quickcheck(prop as fn(u64, u64, u64) -> TestResult);
}

#[test]
fn path_names_round_trip() {
    for p in BitPath::ALL {
        assert_eq!(p.name().parse::<BitPath>(), Ok(p));
        assert_eq!(p.name().to_uppercase().parse::<BitPath>(), Ok(p));
        assert_eq!(p.to_string(), p.name());
    }
    let names: std::collections::HashSet<_> = BitPath::ALL.iter().map(|p| p.name()).collect();
    assert_eq!(names.len(), BitPath::ALL.len(), "two paths share a name");
}

#[test]
fn bad_path_name_is_a_clear_error() {
    for bad in ["", "bmi2", "popcnt", "extern_bmi", " asm"] {
        let err = bad.parse::<BitPath>().unwrap_err();
        assert!(
            err.contains(&format!("'{bad}'")),
            "error names the input: {err}"
        );
        for p in BitPath::ALL {
            assert!(err.contains(p.name()), "error lists '{}': {err}", p.name());
        }
    }
}

#[test]
fn default_path_is_available() {
    let cpu = common::cpu();
    let (path, why) = BitPath::default_for(cpu);
    assert!(
        path.available(cpu),
        "{path} chosen but not available on {cpu}"
    );
    assert!(!why.is_empty());
    assert_eq!(BitPath::detect(), path);
}

#[test]
fn fast_pext_only_where_pext_is_not_microcoded() {
    let cpu = |vendor: &str, family: u32, bmi2: bool| Cpu {
        vendor: vendor.to_string(),
        family,
        bmi2,
        ..Cpu::default()
    };
    // Microcoded: AMD families 15h-17h (Excavator, Zen 1/2) and Hygon's Zen-based 18h.
    for family in [0x15, 0x16, 0x17] {
        assert!(
            !cpu("AuthenticAMD", family, true).fast_pext(),
            "AMD {family:#x}"
        );
    }
    assert!(!cpu("HygonGenuine", 0x18, true).fast_pext(), "Hygon Dhyana");
    // Native: Zen 3 and later, Intel.
    assert!(cpu("AuthenticAMD", 0x19, true).fast_pext());
    assert!(cpu("AuthenticAMD", 0x1A, true).fast_pext());
    assert!(cpu("GenuineIntel", 6, true).fast_pext());
    // No BMI2, no PEXT at all.
    assert!(!cpu("GenuineIntel", 6, false).fast_pext());
}

/// Zero has a defined answer on every path: lsb(0) = 64, msb(0) = 127
/// (`63 ^ 64`). The inline bsf/bsr forms used to return register garbage.
#[test]
fn zero_scans_are_defined_on_every_path() {
    for path in available() {
        with_bits!(path, B => {
            assert_eq!(B::lsb(0), 64, "{path}: lsb(0)");
            assert_eq!(B::msb(0), 127, "{path}: msb(0)");
            assert_eq!(B::popcount(0), 0, "{path}: popcount(0)");
            let mut z = 0u64;
            assert_eq!(B::pop_lsb(&mut z), 64, "{path}: pop_lsb(0)");
            assert_eq!(z, 0);
            // Twice in a row: a `pure` asm block must give the same answer.
            let (a, b) = (B::lsb(std::hint::black_box(0)), B::lsb(std::hint::black_box(0)));
            assert_eq!(a, b, "{path}");
        });
    }
}

/// Every path the dispatch may pick runs its instructions on this CPU, and the
/// check the witnesses rely on says so.
#[test]
fn available_paths_pass_their_cpu_check() {
    for path in available() {
        with_bits!(path, B => {
            assert!(B::cpu_supports(), "{path}");
            // SAFETY: just checked.
            let n = unsafe { B::popcount_unchecked(0xF0F0) };
            assert_eq!(n, 8, "{path}");
            let c = brokkr::moves::Counter::<B>::new();
            assert_eq!(c.0, 0);
        });
    }
}
