//! What the CPU can do, read once with `cpufeatures` and `cpuid`.

use std::fmt;
use std::sync::atomic::{AtomicU8, Ordering};

cpufeatures::new!(has_bmi1, "bmi1");
cpufeatures::new!(has_bmi2, "bmi2");
cpufeatures::new!(has_popcnt, "popcnt");

/// Whether the CPU has BMI2 (`pext`), cached by `cpufeatures` after the first call.
#[inline(always)]
pub(crate) fn has_bmi2() -> bool {
    has_bmi2::get()
}

/// 0: not yet known; 1: the CPU has BMI1, LZCNT and POPCNT; 2: it lacks one.
static BMI_PATH: AtomicU8 = AtomicU8::new(0);

/// Whether the CPU runs every instruction of the `bmi` bit path (BMI1 `tzcnt`,
/// LZCNT `lzcnt`, POPCNT `popcnt`). Read once with `cpuid`, then one load and
/// compare per call.
#[inline(always)]
pub(crate) fn has_bmi_path() -> bool {
    match BMI_PATH.load(Ordering::Relaxed) {
        1 => true,
        0 => detect_bmi_path(),
        _ => false,
    }
}

#[cold]
#[inline(never)]
fn detect_bmi_path() -> bool {
    let mut cpu = Cpu::default();
    read_cpuid(&mut cpu);
    let ok = cfg!(target_arch = "x86_64") && has_bmi1::get() && has_popcnt::get() && cpu.lzcnt;
    BMI_PATH.store(if ok { 1 } else { 2 }, Ordering::Relaxed);
    ok
}

/// The CPU facts that decide brokkr's paths.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cpu {
    /// Vendor string from cpuid leaf 0 (`GenuineIntel`, `AuthenticAMD`, ...).
    pub vendor: String,
    /// Processor brand string, if the CPU reports one.
    pub brand: String,
    /// Display family (base + extended).
    pub family: u32,
    /// Display model (base + extended).
    pub model: u32,
    pub bmi1: bool,
    pub bmi2: bool,
    pub popcnt: bool,
    /// LZCNT (AMD's ABM bit, cpuid 0x8000_0001 ECX bit 5).
    pub lzcnt: bool,
}

impl Cpu {
    /// Read the CPU this process runs on.
    pub fn detect() -> Cpu {
        let mut cpu = Cpu {
            bmi1: has_bmi1::get(),
            bmi2: has_bmi2::get(),
            popcnt: has_popcnt::get(),
            ..Cpu::default()
        };
        read_cpuid(&mut cpu);
        cpu
    }

    /// PEXT is microcoded on AMD before Zen 3 (families 15h-17h) and on Hygon's
    /// Zen-based Dhyana (family 18h, vendor `HygonGenuine`): hundreds of cycles, far
    /// slower than a magic multiply.
    pub fn fast_pext(&self) -> bool {
        let zen_like = self.vendor == "AuthenticAMD" || self.vendor == "HygonGenuine";
        self.bmi2 && !(zen_like && (0x15..=0x18).contains(&self.family))
    }

    /// The detected features, space-separated.
    pub fn features(&self) -> String {
        let f = [
            ("popcnt", self.popcnt),
            ("bmi1", self.bmi1),
            ("lzcnt", self.lzcnt),
            ("bmi2", self.bmi2),
        ];
        let names: Vec<_> = f.iter().filter(|(_, on)| *on).map(|(n, _)| *n).collect();
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join(" ")
        }
    }
}

impl fmt::Display for Cpu {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}, family {:#x} model {:#x}), features: {}",
            if self.brand.is_empty() {
                "unknown CPU"
            } else {
                &self.brand
            },
            self.vendor,
            self.family,
            self.model,
            self.features()
        )
    }
}

#[cfg(target_arch = "x86_64")]
fn read_cpuid(cpu: &mut Cpu) {
    use core::arch::x86_64::__cpuid;
    // SAFETY: cpuid exists on every x86-64 CPU; it only reads processor state.
    #[allow(unused_unsafe)]
    let leaf = |n: u32| unsafe { __cpuid(n) };
    let l0 = leaf(0);
    let vendor: Vec<u8> = [l0.ebx, l0.edx, l0.ecx]
        .iter()
        .flat_map(|r| r.to_le_bytes())
        .collect();
    cpu.vendor = String::from_utf8_lossy(&vendor).into_owned();
    if l0.eax >= 1 {
        let eax = leaf(1).eax;
        let base_family = (eax >> 8) & 0xF;
        let base_model = (eax >> 4) & 0xF;
        cpu.family = base_family
            + if base_family == 0xF {
                (eax >> 20) & 0xFF
            } else {
                0
            };
        cpu.model = base_model
            | if base_family == 0x6 || base_family == 0xF {
                ((eax >> 16) & 0xF) << 4
            } else {
                0
            };
    }
    let max_ext = leaf(0x8000_0000).eax;
    if max_ext >= 0x8000_0001 {
        cpu.lzcnt = leaf(0x8000_0001).ecx & (1 << 5) != 0;
    }
    if max_ext >= 0x8000_0004 {
        let brand: Vec<u8> = (0x8000_0002..=0x8000_0004u32)
            .flat_map(|n| {
                let r = leaf(n);
                [r.eax, r.ebx, r.ecx, r.edx]
            })
            .flat_map(|r| r.to_le_bytes())
            .collect();
        cpu.brand = String::from_utf8_lossy(&brand)
            .trim_matches(|c: char| c == '\0' || c.is_whitespace())
            .to_string();
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn read_cpuid(_: &mut Cpu) {}
