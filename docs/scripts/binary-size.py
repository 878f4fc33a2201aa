#!/usr/bin/env python3
"""What brokkr's binary holds, from its symbol table: bytes per module and per
generic function with its number of instantiations.

    docs/scripts/binary-size.py target/release/brokkr            # modules, functions
    docs/scripts/binary-size.py target/release/brokkr --top 40

Reads `nm -S -C --size-sort` (binutils). Code symbols are grouped by the module
path after `brokkr::` (two levels), data symbols (the generated tables, the
embedded net) by their module; a function's generic arguments are dropped, so its
instantiations count as one row with their number. std, core and alloc code that
brokkr's generics pulled in shows under `other`. The file's size also holds what
no symbol covers (unwinding tables, the symbol table itself): the script prints
both. Python 3 standard library only.
"""

import argparse
import collections
import os
import re
import subprocess
import sys


def strip_generics(name):
    out, depth = [], 0
    for ch in name:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary")
    ap.add_argument("--top", type=int, default=25, help="rows per table (default 25)")
    a = ap.parse_args()
    try:
        text = subprocess.run(
            ["nm", "-S", "-C", "--size-sort", a.binary],
            check=True, capture_output=True, text=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f"binary-size: cannot read the symbols of {a.binary}: {e}")
    modules, functions, count = collections.Counter(), collections.Counter(), collections.Counter()
    total = 0
    for line in text.splitlines():
        parts = line.split(" ", 3)
        if len(parts) < 4:
            continue
        size, kind, name = int(parts[1], 16), parts[2], parts[3]
        total += size
        m = re.search(r"brokkr::([a-z_0-9]+)(?:::([a-z_0-9]+))?", name)
        module = (m.group(1) + ("::" + m.group(2) if m.group(2) else "")) if m else "other"
        if kind not in "tTwW":
            module = "data: " + module
        modules[module] += size
        if kind in "tTwW":
            f = strip_generics(name)
            functions[f] += size
            count[f] += 1
    file_size = os.path.getsize(a.binary)
    print(f"file {file_size / 1e6:.2f} MB, symbols {total / 1e6:.2f} MB")
    print(f"\n{'MB':>7}  module")
    for k, v in modules.most_common(a.top):
        print(f"{v / 1e6:7.3f}  {k}")
    print(f"\n{'MB':>7} {'copies':>6}  function (generic arguments dropped)")
    for k, v in functions.most_common(a.top):
        print(f"{v / 1e6:7.3f} {count[k]:6d}  {k[:110]}")


if __name__ == "__main__":
    main()
