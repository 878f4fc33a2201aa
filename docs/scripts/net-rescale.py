#!/usr/bin/env python3
"""Scale a net's evaluations by a factor: the same weights, a new output scale.

    docs/scripts/net-rescale.py IN.nnue FACTOR OUT.nnue
    docs/scripts/net-rescale.py IN.nnue --match REF.nnue POSITIONS OUT.nnue

Writes IN with its header's `SCALE` (centipawns per unit of output, 400 in
every net the trainer writes) multiplied by FACTOR and rounded. The engine
computes `output x SCALE / (QA x QB)`, so OUT evaluates every position as IN
does times FACTOR, exactly but for that rounding of SCALE. Scaling the
quantised output weights instead would add their rounding a second time:
at `QB` = 64, 4.6 cp a position (standard deviation; up to 16 cp over 100
positions, measured on g7c).

OUT is another net with a name of its own: the checksum (the name) covers
the bytes after the header, and SCALE too when it is not the trainer's 400
(src/nnue/file.rs, `checksum`), so the script writes that checksum. OUT is
also a start for `brokkr train --init`, which folds the scale into the float
weights; the net that training writes has SCALE 400 again.

Why: each generation learns from the search scores of the one before, and a
search's score runs larger than the static evaluation it started from, so the
nets' scale grows link by link (g7c evaluates 1.11 times as large as g2a on
the same positions: docs/network.md, generation 6, second look). The search's
margins (futility, reverse futility, null-move reduction by eval) are in
centipawns and were fitted at g2a's scale or before it.

`--match REF POSITIONS` picks the factor: the least-squares slope, through
the origin, of REF's evaluation on IN's over the FENs in POSITIONS (one a
line; `FEN | ...` data lines are cut at the bar), as `brokkr eval` prints
them. BROKKR (the environment variable; target/release/brokkr by default)
does the evaluating. `brokkr train --scale-to REF` makes the same fit on its
validation positions and writes the trained net rescaled; this script is for
a net that exists.

Std only. The format is src/nnue/file.rs's.
"""
import os
import struct
import subprocess
import sys


TRAINED_SCALE = 400
HEADER = 48


def fnv1a(data: bytes, h: int = 0xCBF29CE484222325) -> int:
    for x in data:
        h = ((h ^ x) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def checksum(body: bytes, scale: int) -> int:
    """The name: FNV-1a 64 of the body, carried on over SCALE unless it is 400."""
    h = fnv1a(body)
    return h if scale == TRAINED_SCALE else fnv1a(struct.pack("<I", scale), h)


def rescale(raw: bytes, factor: float) -> tuple:
    """IN's bytes with SCALE times factor and the checksum for it, SCALE, the name."""
    b = bytearray(raw)
    if b[:8] != b"BRKKRNN1":
        sys.exit("net-rescale: not a brokkr net (no BRKKRNN1 magic)")
    scale = struct.unpack_from("<I", b, 36)[0]
    body = bytes(b[HEADER:])
    if struct.unpack_from("<Q", b, 40)[0] != checksum(body, scale):
        sys.exit("net-rescale: checksum mismatch: the file is damaged")
    new = round(scale * factor)
    if not 1 <= new <= 10_000:
        sys.exit(f"net-rescale: a scale of {new}; the format allows 1 to 10000")
    name = checksum(body, new)
    struct.pack_into("<I", b, 36, new)
    struct.pack_into("<Q", b, 40, name)
    return bytes(b), new, name


def evals(brokkr: str, net: str, fens: list) -> list:
    out = []
    for fen in fens:
        text = subprocess.run(
            [brokkr, "eval", "--fen", fen, "--net", net],
            capture_output=True, text=True, check=True,
        ).stdout
        line = next(l for l in text.splitlines() if l.startswith("Evaluation (white)"))
        out.append(int(line.split(":")[1].split()[0]))
    return out


def main() -> None:
    args = sys.argv[1:]
    if len(args) == 3:
        src, factor, dst = args[0], float(args[1]), args[2]
    elif len(args) == 5 and args[1] == "--match":
        src, ref, positions, dst = args[0], args[2], args[3], args[4]
        brokkr = os.environ.get("BROKKR", "target/release/brokkr")
        with open(positions) as f:
            fens = [l.split("|")[0].strip() for l in f if l.strip() and not l.startswith("#")]
        x, y = evals(brokkr, src, fens), evals(brokkr, ref, fens)
        factor = sum(a * c for a, c in zip(x, y)) / sum(a * a for a in x)
        print(f"{len(fens)} positions: {ref} = {factor:.4f} x {src}")
    else:
        sys.exit(__doc__.split("\n\n")[1])
    if not 0.1 <= factor <= 10:
        sys.exit(f"net-rescale: factor {factor}: must be 0.1 to 10")
    with open(src, "rb") as f:
        out, scale, name = rescale(f.read(), factor)
    with open(dst, "wb") as f:
        f.write(out)
    print(f"{dst}: {src} with SCALE {scale} (x {factor:.4f}), hash {name:016x}")


if __name__ == "__main__":
    main()
