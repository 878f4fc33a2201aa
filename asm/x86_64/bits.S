/* Out-of-line bitscan and popcount for x86-64 (System V ABI: argument in rdi,
 * result in eax). They let `brokkr paths` and the bits bench measure the cost of a
 * call beside the inline-asm forms of the same instructions.
 *
 * The bsf, bsr and tzcnt functions take a NON-ZERO argument only: for zero Intel
 * leaves the destination of bsf/bsr undefined, and a CPU without BMI1 runs tzcnt
 * as bsf. Their one caller, src/bits/impls.rs, answers zero (64 or 127) itself
 * and never calls them with it. */

#ifdef __APPLE__
#define SYM(name) _##name
#else
#define SYM(name) name
#endif

    .text

/* Index of the least significant set bit of a non-zero word. */
    .globl SYM(brokkr_lsb_bsf)
    .p2align 4
SYM(brokkr_lsb_bsf):
    bsfq    %rdi, %rax
    ret

/* Index of the most significant set bit of a non-zero word. */
    .globl SYM(brokkr_msb_bsr)
    .p2align 4
SYM(brokkr_msb_bsr):
    bsrq    %rdi, %rax
    ret

/* Number of set bits by Kernighan's loop (clear the lowest bit until none is left). */
    .globl SYM(brokkr_popcount_kernighan)
    .p2align 4
SYM(brokkr_popcount_kernighan):
    xorl    %eax, %eax
    testq   %rdi, %rdi
    je      2f
1:
    incl    %eax
    leaq    -1(%rdi), %rcx
    andq    %rcx, %rdi
    jne     1b
2:
    ret

/* BMI1 tzcnt: index of the least significant set bit of a non-zero word (the
 * same on a CPU without BMI1, which runs it as bsf). */
    .globl SYM(brokkr_lsb_tzcnt)
    .p2align 4
SYM(brokkr_lsb_tzcnt):
    tzcntq  %rdi, %rax
    ret

/* LZCNT: index of the most significant set bit, as 63 ^ lzcnt (127 for zero,
 * where lzcnt gives 64). Called only on a CPU with LZCNT, which defines zero. */
    .globl SYM(brokkr_msb_lzcnt)
    .p2align 4
SYM(brokkr_msb_lzcnt):
    lzcntq  %rdi, %rax
    xorl    $63, %eax
    ret

/* POPCNT. */
    .globl SYM(brokkr_popcount_popcnt)
    .p2align 4
SYM(brokkr_popcount_popcnt):
    popcntq %rdi, %rax
    ret

#if defined(__linux__) && defined(__ELF__)
    .section .note.GNU-stack,"",@progbits
#endif
