#!/usr/bin/python3
"""Fitted exponent p of cost ~ n^p from bench_scaling's Google Benchmark JSON.

Usage: /usr/bin/python3 bench/fit_scaling.py reports/bench/scaling.json
Writes <input stem>_fit.json and <input stem>_fit.md next to the input and
prints the markdown. For every series (scaling/<formulation>, part/<name>):
the table of CPU time per call (microseconds; the machine is shared, so
CPU time rather than wall time) against N and n, and
the least-squares slope of log(time) against log(n), over all sizes and
over the large sizes only (N >= 10), where fixed per-call overheads no
longer dominate.
"""
import json
import math
import sys
from collections import OrderedDict
from pathlib import Path

TO_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}


def slope(points):
    """Least-squares slope of log(t) against log(n); None for < 2 points."""
    if len(points) < 2:
        return None
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(t) for _, t in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx


def main(path):
    data = json.loads(Path(path).read_text())
    series = OrderedDict()
    for b in data["benchmarks"]:
        if b.get("run_type", "iteration") != "iteration" or "error_occurred" in b:
            continue
        name = b["name"]
        key = name.rsplit("/N=", 1)[0]
        unit = TO_US[b.get("time_unit", "ns")]
        series.setdefault(key, []).append(
            (int(b["N"]), int(b["n"]), b["cpu_time"] * unit, b["real_time"] * unit))

    out = OrderedDict()
    for key, rows in series.items():
        rows.sort()
        out[key] = {
            "rows": [{"N": N, "n": n, "cpu_time_us": t, "real_time_us": w}
                     for N, n, t, w in rows],
            "exponent_all": slope([(n, t) for _, n, t, _ in rows]),
            "exponent_N_ge_10": slope([(n, t) for N, n, t, _ in rows if N >= 10]),
        }

    context = data.get("context", {})
    md = ["# RHS cost against n (N-trailer, double)", ""]
    md.append("Source: `%s` (%s, %s CPUs, load average %s; the Google Benchmark "
              "library itself built as %s)." % (path, context.get("date", "?"),
                                                context.get("num_cpus", "?"),
                                                context.get("load_avg", "?"),
                                                context.get("library_build_type", "?")))
    md.append("CPU time per call in microseconds; p: least-squares slope of "
              "log(time) against log(n), over all N and over N >= 10.")
    md.append("")
    sizes = sorted({(r["N"], r["n"]) for s in out.values() for r in s["rows"]})
    md.append("| series | " + " | ".join("N=%d (n=%d)" % s for s in sizes) +
              " | p (all) | p (N >= 10) |")
    md.append("|---|" + "---|" * (len(sizes) + 2))
    fmt = lambda p: "—" if p is None else "%.2f" % p
    for key, s in out.items():
        by = {(r["N"], r["n"]): r["cpu_time_us"] for r in s["rows"]}
        cells = ["%.4g" % by[sz] if sz in by else "—" for sz in sizes]
        md.append("| %s | %s | %s | %s |" % (key, " | ".join(cells), fmt(s["exponent_all"]),
                                            fmt(s["exponent_N_ge_10"])))
    stem = Path(path).with_suffix("")
    Path(str(stem) + "_fit.json").write_text(json.dumps(out, indent=2) + "\n")
    Path(str(stem) + "_fit.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: fit_scaling.py <bench_scaling JSON>")
    main(sys.argv[1])
