/* Out-of-line bitscan and popcount for x86-64 (System V ABI: argument in rdi,
 * result in eax). They let `brokkr paths` and the bits bench measure the cost of a
 * call beside the inline-asm forms of the same instructions. */

#ifdef __APPLE__
#define SYM(name) _##name
#else
#define SYM(name) name
#endif

    .text

/* Index of the least significant set bit; 64 for zero (bsf leaves the preloaded
 * destination unchanged when the source is zero). */
    .globl SYM(brokkr_lsb_bsf)
    .p2align 4
SYM(brokkr_lsb_bsf):
    movl    $64, %eax
    bsfq    %rdi, %rax
    ret

/* Index of the most significant set bit; 127 for zero (63 ^ 64, as the lzcnt
 * path gives; bsr leaves the preloaded destination unchanged for zero). */
    .globl SYM(brokkr_msb_bsr)
    .p2align 4
SYM(brokkr_msb_bsr):
    movl    $127, %eax
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

/* BMI1 tzcnt: index of the least significant set bit (64 for zero). */
    .globl SYM(brokkr_lsb_tzcnt)
    .p2align 4
SYM(brokkr_lsb_tzcnt):
    movl    $64, %eax       /* without BMI1 tzcnt runs as bsf: keep 64 for zero */
    tzcntq  %rdi, %rax
    ret

/* LZCNT: index of the most significant set bit, as 63 - lzcnt. */
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
