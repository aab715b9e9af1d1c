#!/usr/bin/env python3
"""Lists the C++ and Python source files longer than a limit (docs/architecture.md, "File length").

Usage: file_lengths.py [--max N] [--all] PATH...

PATH is a file or a directory, searched recursively for C++ (*.cpp, *.hpp,
*.ipp, *.h, *.cc) and Python (*.py) sources; folders named tests,
third_party or __pycache__ are not entered. A file's length is its number
of lines. Coefficient tables and generated code are exempt: such a file
says so in a comment within its first 10 lines,
  // file-length: exempt (<what it is, e.g. a coefficient table>)
(or `# file-length: ...` in Python); a marker without its reason in
parentheses exempts nothing. Code generated at build time is written into
the build tree and never read here.

Prints one line per file over the limit, longest first:
  LINES  path
With --all, every file (exempt ones marked). Exits 1 when a file is over
the limit, 0 otherwise, 2 on bad usage (a path that does not exist).
"""
import argparse
import re
import sys

from function_lengths import PY_SUFFIXES, SUFFIXES, sources

SKIP = ("tests", "third_party", "__pycache__")
EXEMPT = re.compile(r"(//|#)\s*file-length: exempt \(([^)]+)\)")
MARKER_LINES = 10


def file_length(path):
    """(number of lines, the exemption's reason or None) of the file at path."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    reason = next((m.group(2) for line in lines[:MARKER_LINES] for m in [EXEMPT.search(line)] if m), None)
    return len(lines), reason


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max", type=int, default=800, help="the limit in lines (default 800)")
    ap.add_argument("--all", action="store_true", help="list every file")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()
    rows = [(*file_length(p), p) for p in sources(args.paths, SUFFIXES + PY_SUFFIXES, SKIP)]
    rows.sort(key=lambda r: (-r[0], r[2]))
    over = [r for r in rows if r[0] > args.max and r[1] is None]
    for n, reason, path in rows if args.all else over:
        print(f"{n:5d}  {path}" + (f"  (exempt: {reason})" if reason else ""))
    exempt = sum(1 for r in rows if r[1] is not None)
    print(f"file_lengths.py: {len(rows)} files ({exempt} exempt), {len(over)} over {args.max} lines",
          file=sys.stderr)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
