#!/usr/bin/python3
"""What the Python module `nhs` adds over its C++: accel per call, and run.

(a) accel: `System.accel(q=q, qdot=qdot, formulation=f)` timed from Python
    with timeit (and again with `.qddot` read, which builds the NumPy array),
    against `System._bench_accel(repeats, q, qdot, f)`: the same C++ work
    (make_problem and accelerations_at on the typed problem that accel
    builds) in a C++ loop, without Python. The overhead is the difference,
    per call; batches of ~50 ms, the three measurements interleaved (C++,
    Python, Python + .qddot, C++, ...) and the median of the paired
    differences quoted.
    Studies skate, rolling-disc, n-trailer at their default states;
    formulations second-kind and first-kind. Goal: at most 2 µs.
(b) run: `build/nhs run STUDY --t-end T --dt-out D --out /dev/null` (wall
    time of subprocess.run, process start-up included) against
    `System.run(t_end=T, dt_out=D, precision=P)` (wall time of the call,
    the rows converted to NumPy / mpmath included), the default state,
    formulation, field, stepper and tolerances of both, for 3 studies x
    (double, mp50), T chosen so that a run takes about --target seconds
    (0.1-2 s) and D = T/200 (201 rows). The CLI and Python runs alternate
    (A, B, A, B, ...), --repeats of each (>= 5), medians; the ratio Python /
    CLI is quoted from this one run. Goal: within 1.1x. Both are checked to
    integrate the same motion (same RHS calls, same last row).

The machine has 2 cores and may be busy: compare within one run.

Output: <out-dir>/python_overhead.md and .json, with the command.

Usage (from the repository root, with the module and the CLI built):
  PYTHONPATH=build/python /usr/bin/python3 bench/python_overhead.py [--quick]
      [--nhs build/nhs] [--out-dir reports/bench] [--repeats 7] [--target 0.4]
"""
import argparse
import json
import math
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
import timeit

import nhs

STUDIES = ["skate", "rolling-disc", "n-trailer"]
FORMULATIONS = ["second-kind", "first-kind"]
PRECISIONS = ["double", "mp50"]
ACCEL_GOAL_US = 2.0
RUN_GOAL = 1.1
ROWS = 200  # output intervals per run: D = T / ROWS


# -------------------------------------------------------------- (a) accel
def accel_overhead(study, formulation, repeats, batch_s):
    s = nhs.study(study)
    a = s.accel(formulation=formulation)
    q, qd = [float(v) for v in a.q], [float(v) for v in a.qdot]
    label = s.accel(q=q, qdot=qd, formulation=formulation).formulation
    py = lambda: s.accel(q=q, qdot=qd, formulation=formulation)
    pyq = lambda: s.accel(q=q, qdot=qd, formulation=formulation).qddot
    one = min(timeit.repeat(py, number=20, repeat=3)) / 20
    number = max(10, int(batch_s / one))
    cpp, pyt, pyqt = [], [], []
    for _ in range(repeats):
        c1 = s._bench_accel(number, q, qd, formulation)
        p = timeit.timeit(py, number=number) / number
        pq = timeit.timeit(pyq, number=number) / number
        c2 = s._bench_accel(number, q, qd, formulation)
        cpp.append((c1 + c2) / 2)  # the C++ baseline around the two Python batches
        pyt.append(p)
        pyqt.append(pq)
    diff = [p - c for p, c in zip(pyt, cpp)]
    diffq = [p - c for p, c in zip(pyqt, cpp)]
    med = statistics.median
    return {"study": study, "formulation": formulation, "field": label, "n": s.n, "r": s.r,
            "calls_per_batch": number, "repeats": repeats,
            "cpp_us": med(cpp) * 1e6, "python_us": med(pyt) * 1e6, "python_qddot_us": med(pyqt) * 1e6,
            "overhead_us": med(diff) * 1e6, "overhead_qddot_us": med(diffq) * 1e6,
            "overhead_us_all": [d * 1e6 for d in diff], "overhead_qddot_us_all": [d * 1e6 for d in diffq],
            "goal_met": med(diff) * 1e6 <= ACCEL_GOAL_US,
            "goal_met_qddot": med(diffq) * 1e6 <= ACCEL_GOAL_US}


# ---------------------------------------------------------------- (b) run
def nice(x):
    """The value of {1, 2, 5} x 10^k nearest x (in log), as a decimal string."""
    k = math.floor(math.log10(x))
    best = min((m * 10.0 ** e for e in (k - 1, k, k + 1) for m in (1, 2, 5)),
               key=lambda v: abs(math.log(v / x)))
    return ("%.10f" % best).rstrip("0").rstrip(".")


def dec_div(text, n):
    """text / n as a short decimal string (exact for T in {1, 2, 5} x 10^k, n = 200)."""
    from decimal import Decimal
    return format((Decimal(text) / n).normalize(), "f")


def cli_cmd(nhs_bin, study, T, D, precision, out="/dev/null"):
    return [nhs_bin, "run", study, "--t-end", T, "--dt-out", D, "--precision", precision, "--out", out]


def wall(cmd):
    """(wall seconds of the process, the wall time it reports for itself on stderr)."""
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    t = time.perf_counter() - t0
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
    own = re.search(r"wall time ([0-9.e+-]+) s", p.stderr)
    return t, float(own.group(1)) if own else None


def choose_t_end(s, precision, target):
    """T in {1, 2, 5} x 10^k, at least 1, whose run takes about `target` seconds (the C++
    wall time of System.run). The cost is not proportional to T (in mp50 the steps end on
    the output times, so 200 rows cost 200 steps at least): the candidate nearest the
    target in log is kept."""
    T, tried = 20.0, {}
    for _ in range(6):
        t = nice(T)
        if t in tried:
            break
        r = s.run(t_end=t, dt_out=dec_div(t, ROWS), precision=precision)
        w = tried[t] = max(float(r.summary["wall_seconds"]), 1e-4)
        if 0.6 * target <= w <= 1.6 * target:
            break
        T = max(1.0, float(t) * target / w)  # no shorter motion than t = 1
    return min(tried, key=lambda t: abs(math.log(tried[t] / target)))


def same_motion(nhs_bin, s, study, T, D, precision):
    """The CLI's CSV and System.run: the RHS calls and the last row."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "run.csv")
        p = subprocess.run(cli_cmd(nhs_bin, study, T, D, precision, path), capture_output=True, text=True)
        calls = int(re.search(r"(\d+) RHS calls", p.stderr).group(1))
        with open(path) as f:
            lines = f.read().split()
    header, last = lines[0].split(","), lines[-1].split(",")
    r = s.run(t_end=T, dt_out=D, precision=precision)
    py_last = [r[c][-1] for c in header]
    convert = float if precision == "double" else nhs._mp_converter(precision)  # as Run converts
    dev = 0.0
    for a, b in zip(last, py_last):
        if a == "" or b is None or (isinstance(b, float) and math.isnan(b)):
            continue
        dev = max(dev, float(abs(convert(a) - b)))
    return {"cli_rhs_calls": calls, "python_rhs_calls": r.summary["rhs_calls"],
            "rows": len(r), "columns": len(header), "last_row_max_abs_diff": dev,
            "stepper": r.summary["stepper"], "formulation": r.summary["formulation"],
            "same": calls == r.summary["rhs_calls"] and dev == 0.0}


def run_overhead(nhs_bin, study, precision, repeats, target):
    s = nhs.study(study)
    T = choose_t_end(s, precision, target)
    D = dec_div(T, ROWS)
    check = same_motion(nhs_bin, s, study, T, D, precision)
    cmd = cli_cmd(nhs_bin, study, T, D, precision)
    wall(cmd)  # warm-up (page cache)
    s.run(t_end=T, dt_out=D, precision=precision)
    cli, cli_own, py, inner = [], [], [], []
    for _ in range(repeats):  # A, B, A, B, ...
        w, own = wall(cmd)
        cli.append(w)
        cli_own.append(own)
        t0 = time.perf_counter()
        r = s.run(t_end=T, dt_out=D, precision=precision)
        py.append(time.perf_counter() - t0)
        inner.append(float(r.summary["wall_seconds"]))
    med = statistics.median
    return {"study": study, "precision": precision, "t_end": T, "dt_out": D, "repeats": repeats,
            "command": " ".join(["build/nhs"] + cmd[1:]),
            "python_call": "System('%s').run(t_end='%s', dt_out='%s', precision='%s')" % (study, T, D, precision),
            "cli_s": med(cli), "python_s": med(py), "python_cpp_wall_s": med(inner),
            "cli_own_wall_s": med(cli_own) if None not in cli_own else None,
            "cpp_ratio_module_over_cli": (med(i / c for i, c in zip(inner, cli_own))
                                          if None not in cli_own and min(cli_own) > 0 else None),
            "cli_all_s": cli, "cli_own_all_s": cli_own, "python_all_s": py, "python_cpp_wall_all_s": inner,
            "ratio": med(py) / med(cli), "ratio_pairs_median": med(p / c for p, c in zip(py, cli)),
            "conversion_s": med(p - i for p, i in zip(py, inner)),
            "in_range": all(0.1 <= x <= 2.0 for x in (med(cli), med(py))),
            "goal_met": med(p / c for p, c in zip(py, cli)) <= RUN_GOAL, "check": check}


# ----------------------------------------------------------------- report
def markdown(rep):
    L = ["# What the Python module adds over the C++ (`bench/python_overhead.py`)", "",
         "Generated by `%s` on %s (repository HEAD %s%s). Python %s, numpy %s, mpmath %s; module "
         "`%s`; CLI `%s`. Load average at the start: %s, at the end: %s (2 cores, shared)."
         % (rep["command"], rep["date"], rep["git_head"], ", working tree modified" if rep["git_dirty"] else "",
            rep["python"], rep["numpy"], rep["mpmath"], rep["nhs_module"], rep["nhs"], rep["load_avg"],
            rep["load_avg_end"]), "",
         "## (a) System.accel: Python call against the same C++ call", "",
         "Per call, double, the study's default state. *C++* = `System._bench_accel(N, q, qdot, f)`: "
         "the session's make_problem and accelerations_at<double> (the whole `nhs accel` computation: "
         "set-up, admission of the state, the formulation, margins, Gauss's Z) N times in a C++ loop; *Python* = "
         "`timeit` of `sys.accel(q=q, qdot=qdot, formulation=f)` (q, qdot lists of floats), and "
         "the same with `.qddot` read (the NumPy array built). Batches of %d–%d calls (~%g ms), "
         "C++ / Python / Python+.qddot / C++ interleaved, %d repeats; overhead = median of the "
         "paired differences (Python − mean of the two C++ batches around it). "
         "**Goal: at most %g µs.**"
         % (min(x["calls_per_batch"] for x in rep["accel"]), max(x["calls_per_batch"] for x in rep["accel"]),
            rep["batch_s"] * 1e3, rep["accel_repeats"], ACCEL_GOAL_US), "",
         "| study | formulation (field) | C++ call (µs) | Python call (µs) | overhead (µs) | goal ≤ %g µs | "
         "with .qddot (µs) | overhead with .qddot (µs) | goal ≤ %g µs |" % (ACCEL_GOAL_US, ACCEL_GOAL_US),
         "|---|---|---|---|---|---|---|---|---|"]
    for a in rep["accel"]:
        L.append("| %s | %s | %.2f | %.2f | %.2f (%.2f–%.2f) | %s | %.2f | %.2f (%.2f–%.2f) | %s |" % (
            a["study"], a["field"], a["cpp_us"], a["python_us"], a["overhead_us"],
            min(a["overhead_us_all"]), max(a["overhead_us_all"]), "met" if a["goal_met"] else "**not met**",
            a["python_qddot_us"], a["overhead_qddot_us"], min(a["overhead_qddot_us_all"]),
            max(a["overhead_qddot_us_all"]), "met" if a["goal_met_qddot"] else "**not met**"))
    L += ["", "(in parentheses: the range of the paired differences over the repeats)", "",
          "## (b) System.run against `nhs run`", "",
          "The default state, formulation, field, stepper and tolerances of both; T chosen "
          "(in {1, 2, 5} × 10^k) so that a run takes about %g s, D = T/%d (%d rows). *CLI* = wall "
          "time of `subprocess.run` of `build/nhs run STUDY --t-end T --dt-out D --precision P "
          "--out /dev/null` (process start-up and CSV formatting included; a null run `%s` takes "
          "%s); *Python* = wall time of `sys.run(t_end=T, dt_out=D, precision=P)` (the rows "
          "converted to a NumPy array, or to mpmath.mpf in mp50, included); *C++ inside Python* = "
          "the summary's wall_seconds (the integration alone); *C++ inside the CLI* = the wall time "
          "`nhs run` reports on stderr (its integration alone, ms resolution). CLI and Python alternate "
          "(A, B, A, B, …), %d of each; times are medians, and the ratios are the medians of the "
          "ratios of adjacent pairs (robust to a change of the machine's load during the "
          "measurement; the ratio of the medians in parentheses). **Goal: Python / CLI within "
          "%gx.** Both integrate the same motion (checked: RHS calls and the last row)."
          % (rep["target_s"], ROWS, ROWS + 1, rep["null_command"], "%.2f ms" % (rep["null_run_s"] * 1e3),
             rep["run_repeats"], RUN_GOAL), "",
          "| study | precision | T | D | CLI | Python | ratio Python / CLI | goal ≤ %gx | C++ inside Python | "
          "Python − C++ (conversion) | C++ inside the CLI | C++ module / CLI | same motion |" % RUN_GOAL,
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rep["runs"]:
        c = r["check"]
        L.append("| %s | %s | %s | %s | %.3f s | %.3f s | %.3f (%.3f) | %s | %.3f s | %.1f ms | %s | %s | %s |" % (
            r["study"], r["precision"], r["t_end"], r["dt_out"], r["cli_s"], r["python_s"],
            r["ratio_pairs_median"], r["ratio"], "met" if r["goal_met"] else "**not met**", r["python_cpp_wall_s"],
            r["conversion_s"] * 1e3,
            "%.3f s" % r["cli_own_wall_s"] if r["cli_own_wall_s"] is not None else "—",
            "%.3f" % r["cpp_ratio_module_over_cli"] if r["cpp_ratio_module_over_cli"] else "—",
            ("yes (%d RHS calls, %s)" % (c["cli_rhs_calls"], c["stepper"])) if c["same"] else
            "**no**: RHS calls %d vs %d, last row differs by %.1e" % (
                c["cli_rhs_calls"], c["python_rhs_calls"], c["last_row_max_abs_diff"])))
    slow = [r for r in rep["runs"] if (r["cpp_ratio_module_over_cli"] or 0) > 1.05]
    if slow:
        L += ["", "Where the integration itself (C++ inside Python against C++ inside the CLI) is "
              "more than 5%% slower in the module (%s): the CLI is linked with static MPFR and GMP "
              "(`NHS_STATIC_TOOL`, docs/cli.md \"Start-up\"), the module with the shared libmpfr "
              "and libgmp. A `perf record` of the skate's mp50 run (made while writing this "
              "script) shows the same MPFR/GMP functions in both, plus `__tls_get_addr` (3.5%% of "
              "the samples: MPFR's thread-local state reached through the dynamic TLS of a "
              "shared library) and PLT calls in the module only; LD_PRELOAD of libmpfr.so "
              "changed nothing. Double runs, which call no MPFR, do not show it."
              % ", ".join("%s %s: %.3f" % (r["study"], r["precision"], r["cpp_ratio_module_over_cli"])
                          for r in slow)]
    L += ["", "Runs outside 0.1–2 s: %s." % (", ".join("%s %s" % (r["study"], r["precision"])
                                                        for r in rep["runs"] if not r["in_range"]) or "none"),
          "", "Total time of the script: %.0f s." % rep["total_s"]]
    return "\n".join(L) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="a smoke test (< 1 min): 3 accel repeats of 20 ms batches, 5 runs of ~0.15 s")
    ap.add_argument("--nhs", default="build/nhs")
    ap.add_argument("--out-dir", default="reports/bench")
    ap.add_argument("--repeats", type=int, default=7, help="runs of each of CLI and Python (>= 5)")
    ap.add_argument("--accel-repeats", type=int, default=15)
    ap.add_argument("--batch", type=float, default=0.03, help="seconds per accel batch")
    ap.add_argument("--target", type=float, default=0.4, help="seconds per run (0.1-2)")
    args = ap.parse_args()
    if args.quick:
        args.accel_repeats, args.batch, args.repeats, args.target = 3, 0.02, 5, 0.15
    args.repeats = max(args.repeats, 5)
    cmdline = ("PYTHONPATH=build/python /usr/bin/python3 bench/python_overhead.py " + " ".join(sys.argv[1:])).strip()
    here = os.path.dirname(os.path.abspath(__file__))
    git = lambda *a: subprocess.run(["git", *a], capture_output=True, text=True, cwd=here).stdout.strip()
    import mpmath
    import numpy as np
    rep = {"date": time.strftime("%Y-%m-%d %H:%M"), "command": cmdline, "quick": args.quick,
           "git_head": git("rev-parse", "--short", "HEAD"),
           "git_dirty": bool(git("status", "--porcelain", "--untracked-files=no")),
           "python": platform.python_version(), "numpy": np.__version__, "mpmath": mpmath.__version__,
           "nhs_module": os.path.relpath(os.path.dirname(nhs.__file__)), "nhs": args.nhs,
           "load_avg": " ".join("%.2f" % x for x in os.getloadavg()),
           "accel_repeats": args.accel_repeats, "batch_s": args.batch, "run_repeats": args.repeats,
           "target_s": args.target, "accel_goal_us": ACCEL_GOAL_US, "run_goal_ratio": RUN_GOAL,
           "accel": [], "runs": []}
    nhs_bin = os.path.abspath(args.nhs)
    t_start = time.time()
    for study in STUDIES:
        for f in FORMULATIONS:
            a = accel_overhead(study, f, args.accel_repeats, args.batch)
            rep["accel"].append(a)
            print("accel %-12s %-12s C++ %7.2f µs  Python %7.2f µs  overhead %5.2f µs  (.qddot %5.2f µs)"
                  % (study, f, a["cpp_us"], a["python_us"], a["overhead_us"], a["overhead_qddot_us"]),
                  file=sys.stderr, flush=True)
    null = [nhs_bin, "run", "skate", "--t-end", "1e-9", "--dt-out", "1e-9", "--out", "/dev/null"]
    wall(null)
    rep["null_command"] = " ".join(["build/nhs"] + null[1:])
    rep["null_run_s"] = statistics.median(wall(null)[0] for _ in range(11))
    for study in STUDIES:
        for precision in PRECISIONS:
            r = run_overhead(nhs_bin, study, precision, args.repeats, args.target)
            rep["runs"].append(r)
            print("run   %-12s %-6s T %-6s CLI %.3f s  Python %.3f s  ratio %.3f  (C++ in Python %.3f s) same %s"
                  % (study, precision, r["t_end"], r["cli_s"], r["python_s"], r["ratio_pairs_median"],
                     r["python_cpp_wall_s"], r["check"]["same"]), file=sys.stderr, flush=True)
    rep["total_s"] = time.time() - t_start
    rep["load_avg_end"] = " ".join("%.2f" % x for x in os.getloadavg())
    os.makedirs(args.out_dir, exist_ok=True)
    with open(os.path.join(args.out_dir, "python_overhead.json"), "w") as f:
        json.dump(rep, f, indent=1)
    with open(os.path.join(args.out_dir, "python_overhead.md"), "w") as f:
        f.write(markdown(rep))
    print("python_overhead: %.0f s; %s" % (rep["total_s"], os.path.join(args.out_dir, "python_overhead.md")),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
