#!/usr/bin/python3
"""Ratio table generic / closed form from bench_closed_form's JSON output.

Reads the Google Benchmark JSON (run with --benchmark_repetitions=N
--benchmark_report_aggregates_only=true: medians are used; a run without
repetitions uses the single measurement) and writes
reports/bench/closed_form_ratios.md and .json next to it (or --out-dir):
per study and scalar, the closed form's time, each generic formulation's
time and ratio, the best formulation and whether it meets the issue's
target (<= 2x in double).

  /usr/bin/python3 bench/closed_form_ratios.py reports/bench/closed_form.json
"""
import argparse
import json
import os
import sys

TARGET = 2.0
UNIT = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def fmt_ratio(r):
    return "%.1f" % r if r < 10 else "%.0f" % r


def load(path):
    data = json.load(open(path))
    times, diffs = {}, {}
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        if b.get("error_occurred"):
            continue
        parts = b["run_name"].split("/")
        ns = b["cpu_time"] * UNIT[b.get("time_unit", "ns")]
        if parts[0] == "closed-form":
            key = (parts[1], parts[2], "closed-form")
        elif parts[0] == "generated":
            key = (parts[1], parts[3], "generated " + parts[2])
        else:
            key = (parts[1], parts[3], parts[2])
        times[key] = ns
        if "rel_diff_vs_closed_form" in b:
            diffs[key] = b["rel_diff_vs_closed_form"]
    return data.get("context", {}), times, diffs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bench_json")
    ap.add_argument("--out-dir", default=None)
    args = ap.parse_args()
    out_dir = args.out_dir or os.path.dirname(args.bench_json) or "."
    context, times, diffs = load(args.bench_json)
    studies = sorted({k[0] for k in times}, key=lambda s: ["skate", "rolling-disc", "coaxial-discs",
                                                           "parallel-points", "bipendulum"].index(s)
                     if s in ["skate", "rolling-disc", "coaxial-discs", "parallel-points",
                              "bipendulum"] else 99)
    scalars = sorted({k[1] for k in times}, key=lambda s: (s != "double", s))
    formulations = sorted({k[2] for k in times if k[2] != "closed-form"},
                          key=lambda f: (f.startswith("generated "), f))
    rows = []
    md = ["# Generic formulations against the hand-written closed forms", "",
          "CPU time of one `Formulation::acceleration()` divided by the CPU time of the closed-form "
          "qddot (`nhs/studies/closed_forms.hpp`) at the study's default state, same run; "
          "the columns \"generated ...\" time the straight-line fields of "
          "`nhs/generated.hpp` (second-kind from (q, qdot), first-kind and gibbs-appell "
          "from (q, z)) "
          "(medians of %s repetitions; CPU time, since wall time on the shared machine includes "
          "waiting for a core). Target of the issue: best formulation <= %gx in double."
          % (context.get("repetitions", "?") if "repetitions" in context else "the",
             TARGET), "",
          "Source: `%s` (%s, %s CPUs, load average %s)." % (
              os.path.basename(args.bench_json), context.get("date", "?"),
              context.get("num_cpus", "?"), context.get("load_avg", "?")), ""]
    for scalar in scalars:
        md += ["## %s" % scalar, "",
               "| study | closed form (ns) | " + " | ".join(formulations) +
               " | best library | best generated | target met |",
               "|---|---:|" + "---:|" * len(formulations) + "---|---|---|"]
        for study in studies:
            cf = times.get((study, scalar, "closed-form"))
            if cf is None:
                continue
            cells, ratios = [], {}
            for f in formulations:
                t = times.get((study, scalar, f))
                if t is None:
                    cells.append("—")
                    continue
                ratios[f] = t / cf
                cells.append(fmt_ratio(ratios[f]))
            best = min(ratios, key=ratios.get) if ratios else None
            met = best is not None and ratios[best] <= TARGET
            lib = {f: r for f, r in ratios.items() if not f.startswith("generated ")}
            gen = {f: r for f, r in ratios.items() if f.startswith("generated ")}
            best_lib = min(lib, key=lib.get) if lib else None
            best_gen = min(gen, key=gen.get) if gen else None
            md.append("| %s | %.1f | %s | %s | %s | %s |" % (
                study, cf, " | ".join(cells),
                "%s (%sx)" % (best_lib, fmt_ratio(lib[best_lib])) if best_lib else "—",
                "%s (%sx)" % (best_gen[len("generated "):], fmt_ratio(gen[best_gen]))
                if best_gen else "—",
                "yes" if met else "no"))
            rows.append({"study": study, "scalar": scalar, "closed_form_ns": cf,
                         "generic_ns": {f: times[(study, scalar, f)] for f in ratios},
                         "ratio": ratios, "best": best, "best_ratio": ratios.get(best),
                         "best_library": best_lib,
                         "best_library_ratio": lib.get(best_lib) if best_lib else None,
                         "best_generated": best_gen,
                         "best_generated_ratio": gen.get(best_gen) if best_gen else None,
                         "target": TARGET, "target_met": met,
                         "rel_diff_vs_closed_form": {f: diffs.get((study, scalar, f))
                                                     for f in ratios}})
        md.append("")
    worst = max((d for d in diffs.values() if d is not None), default=None)
    md += ["Largest relative difference of a generic or generated qddot from the closed form at the "
           "benchmarked states: %s." % ("%.1e" % worst if worst is not None else "n/a"), ""]
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "closed_form_ratios.md"), "w") as f:
        f.write("\n".join(md))
    with open(os.path.join(out_dir, "closed_form_ratios.json"), "w") as f:
        json.dump({"context": context, "rows": rows}, f, indent=2)
    print("\n".join(md))


if __name__ == "__main__":
    sys.exit(main())
