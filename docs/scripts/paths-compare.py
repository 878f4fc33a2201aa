#!/usr/bin/env python3
"""Gather `brokkr paths --json` results from several CPUs into one comparison page.

Usage:
    brokkr paths --json > zen4.json          # on each machine
    docs/scripts/paths-compare.py zen4.json skylake.json ... > paths.html
    docs/scripts/paths-compare.py --markdown *.json           # the docs/speed.md table

The page has one summary row per CPU (model, fast PEXT, brokkr's pick, the fastest
search row, the ratio between them with its interval, rounds and whether every
interval met its target) and, per table, a chart with one group of bars per row
label and one bar per CPU (speed relative to that CPU's pick, with the 95% interval).

Reads schema `brokkr-paths` version 2 (docs/speed.md describes it); refuses other
schemas and versions with a message. Python 3 standard library only.
"""

import argparse
import html
import json
import sys

SCHEMA, VERSION = "brokkr-paths", 2
TABLES = ["search", "perft", "bitscan", "network"]
COLOURS = ["#4a78b0", "#e07b39", "#5a9e5a", "#b04a6e", "#8a6bb8", "#a08040", "#3aa0a0", "#707070"]


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"paths-compare: {path}: {e}")
    if data.get("schema") != SCHEMA or data.get("version") != VERSION:
        sys.exit(
            f"paths-compare: {path}: schema {data.get('schema')!r} version {data.get('version')!r},"
            f" expected {SCHEMA!r} version {VERSION}"
        )
    data["_file"] = path
    return data


def name(d):
    c = d["cpu"]
    return f"{c['brand'] or 'unknown'} ({c['vendor']} {c['family']:#x}/{c['model']:#x})"


def pct(x):
    return "-" if x is None else f"{(x - 1) * 100:+.1f}%"


def summary(d):
    """(pick label, fastest label, its ratio estimate) of the search table."""
    rows = [r for r in d["rows"] if r["table"] == "search"]
    pick = next((r for r in rows if r["pick"]), None)
    fastest = max(rows, key=lambda r: r["ratio"]["median"] or 0, default=None)
    return pick, fastest


def fastest_text(fastest):
    """The fastest row's label, or that the pick itself was the fastest."""
    if fastest is None:
        return "-", "-"
    if fastest["pick"]:
        return f"{fastest['label']} (the pick)", "-"
    r = fastest["ratio"]
    return fastest["label"], f"{pct(r['median'])} ({pct(r['low'])} to {pct(r['high'])})"


def markdown(results):
    out = [
        "| CPU | family/model | fast PEXT | pick (search) | fastest (search) | fastest / pick, 95% interval | rounds | within target |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for d in results:
        pick, fastest = summary(d)
        c, run = d["cpu"], d["run"]
        label, interval = fastest_text(fastest)
        out.append(
            f"| {c['brand'] or 'unknown'} | {c['family']:#x}/{c['model']:#x} | {'yes' if c['fast_pext'] else 'no'} "
            f"| {pick['label'] if pick else '-'} | {label} | {interval} "
            f"| {run['rounds']} | {'yes' if run['converged'] else 'no'} |"
        )
    return "\n".join(out) + "\n"


def chart(results, table):
    labels = []
    for d in results:
        for r in d["rows"]:
            if r["table"] == table and r["label"] not in labels:
                labels.append(r["label"])
    if not labels:
        return ""
    n = len(results)
    bar, gap, left, span = 10, 8, 260, 520
    top = max(
        [1.0]
        + [r["ratio"]["high"] or 0 for d in results for r in d["rows"] if r["table"] == table]
    ) * 1.05
    height = 30 + len(labels) * (n * bar + gap) + 20 + 16 * n
    x = lambda v: left + span * min(max(v or 0, 0) / top, 1)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + span + 40}" height="{height}" font-family="sans-serif">',
        f'<text x="8" y="18" font-size="15" font-weight="bold">{html.escape(table)}</text>',
    ]
    y = 30
    for label in labels:
        parts.append(
            f'<text x="{left - 8}" y="{y + n * bar / 2 + 4}" font-size="12" text-anchor="end">{html.escape(label)}</text>'
        )
        for k, d in enumerate(results):
            row = next((r for r in d["rows"] if r["table"] == table and r["label"] == label), None)
            if row is None:
                continue
            e = row["ratio"]
            yy = y + k * bar
            parts.append(
                f'<rect class="bar" x="{left}" y="{yy}" width="{x(e["median"]) - left:.1f}" height="{bar - 1}" '
                f'fill="{COLOURS[k % len(COLOURS)]}"><title>{html.escape(name(d))}: {e["median"]:.3f} '
                f'({(e["low"] or 0):.3f} to {(e["high"] or 0):.3f}) {html.escape(row["verdict"])}</title></rect>'
            )
            if not row["pick"] and e["low"] is not None and e["high"] is not None:
                parts.append(
                    f'<path d="M{x(e["low"]):.1f} {yy + bar / 2:.1f}H{x(e["high"]):.1f}" stroke="#222" stroke-width="1.2"/>'
                )
        y += n * bar + gap
    parts.append(f'<line x1="{x(1):.1f}" y1="26" x2="{x(1):.1f}" y2="{y}" stroke="#444" stroke-dasharray="4 3"/>')
    for k, d in enumerate(results):
        yy = y + 12 + 16 * k
        parts.append(f'<rect x="{left}" y="{yy - 9}" width="10" height="10" fill="{COLOURS[k % len(COLOURS)]}"/>')
        parts.append(f'<text x="{left + 16}" y="{yy}" font-size="12">{html.escape(name(d))}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def page(results):
    rows = []
    for d in results:
        pick, fastest = summary(d)
        label, interval = fastest_text(fastest)
        rows.append(
            "<tr>"
            + "".join(
                f"<td>{html.escape(str(v))}</td>"
                for v in [
                    name(d),
                    "yes" if d["cpu"]["fast_pext"] else "no",
                    pick["label"] if pick else "-",
                    label,
                    interval,
                    d["run"]["rounds"],
                    "yes" if d["run"]["converged"] else "no",
                    d["_file"],
                ]
            )
            + "</tr>"
        )
    charts = "\n".join(f"<h2>{t}</h2>\n{chart(results, t)}" for t in TABLES)
    return f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>brokkr paths across CPUs</title>
<style>body{{font-family:sans-serif;margin:2em}} table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:4px 8px;text-align:left}}</style></head>
<body><h1>brokkr paths across CPUs</h1>
<p>Speed relative to each CPU's own pick (1.0), median of interleaved rounds, with the 95% interval.
The search table decides the pick.</p>
<table><tr><th>CPU</th><th>fast PEXT</th><th>pick (search)</th><th>fastest (search)</th>
<th>fastest / pick, 95% interval</th><th>rounds</th><th>within target</th><th>file</th></tr>
{''.join(rows)}</table>
{charts}
</body></html>
"""


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("files", nargs="+", help="`brokkr paths --json` outputs")
    p.add_argument("--markdown", action="store_true", help="print the summary as a Markdown table")
    a = p.parse_args()
    results = [load(f) for f in a.files]
    sys.stdout.write(markdown(results) if a.markdown else page(results))


if __name__ == "__main__":
    main()
