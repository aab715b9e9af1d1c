#!/usr/bin/env python3
"""The engines of `nhs sweep` measured on this machine (docs/sweeps.md):

- speed-up of 2 threads over 1 on a sweep of real cases
  (examples/sweeps/bipendulum-singular-map.toml in mp50: 81 motions, a
  few seconds in all);
- mpirun -n 2, 4, 8 --oversubscribe on the same spec: the same cases.csv
  and cases.jsonl as the threads, byte for byte, and the wall time;
- the overhead per case: a sweep of 3000 cases that do almost nothing
  (the skate to t = 1e-3), on 1 thread and on mpirun -n 2 (1 worker): the
  difference per case is the MPI path's cost (a unit out, a row back, the
  master's write), and mpirun -n 3 (2 workers) shows whether the master
  keeps up;
- the message sizes: a unit is 8 bytes a case; a row is measured.

Every rank on this machine, traffic kept to loopback and shared memory.
Writes reports/bench/sweep_engines.{json,md}.

  /usr/bin/python3 bench/sweep_engines.py [--nhs build/nhs] [--out-dir reports/bench]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from sweep_driver import MPI_ENV as ENV, MPI_LOCAL

TRIVIAL = """# 3000 cases that do almost nothing: the engines' cost per case
[run]
t_end = 0.001
dt_out = 0.001
[[axis]]
name = "m"
random = { from = 0.5, to = 2, count = 3000, seed = 1 }
[sweep]
metrics = ["rhs_calls", "max_C"]
"""


def sweep(nhs, system, spec, out, jobs=None, ranks=None):
    cmd = [nhs, "sweep", system, spec, "--out", out, "--restart"]
    if ranks:
        cmd = ["mpirun", "-n", str(ranks), *MPI_LOCAL, *cmd]
    else:
        cmd += ["--jobs", str(jobs)]
    t0 = time.monotonic()
    subprocess.run(cmd, check=True, env=ENV, stderr=subprocess.DEVNULL)
    return time.monotonic() - t0


def same(a, b):
    return all(open(os.path.join(a, f), "rb").read() == open(os.path.join(b, f), "rb").read()
               for f in ("cases.csv", "cases.jsonl"))


def real_cases(nhs, tmp, spec, repeats, result):
    """The mp50 singular map on 1 and 2 threads (best of repeats, interleaved) and on
    mpirun -n 2, 4, 8: wall times and whether the rows are the same, into result."""
    # Speed-up 1 -> 2 threads: the best of `repeats` runs each, interleaved.
    times = {1: [], 2: []}
    for _ in range(repeats):
        for j in (1, 2):
            times[j].append(sweep(nhs, "bipendulum", spec, f"{tmp}/t{j}", jobs=j))
    result["threads"] = {str(j): min(v) for j, v in times.items()}
    result["speedup_2_threads"] = min(times[1]) / min(times[2])
    result["threads_same_rows"] = same(f"{tmp}/t1", f"{tmp}/t2")
    with open(f"{tmp}/t1/cases.csv") as f:
        lines = f.read().splitlines()[1:]
    result["cases"] = len(lines)
    result["row_bytes_mean"] = sum(len(l) for l in lines) / len(lines)
    # mpirun -n 2, 4, 8: identical rows and wall time.
    result["mpi"] = {}
    for n in (2, 4, 8):
        w = sweep(nhs, "bipendulum", spec, f"{tmp}/m{n}", ranks=n)
        result["mpi"][str(n)] = {"wall_s": w, "workers": n - 1, "same_rows_as_threads": same(f"{tmp}/t1", f"{tmp}/m{n}")}


def trivial_cases(nhs, tmp, repeats, result):
    """The engines' cost per case: 3000 trivial cases per engine, less the start-up of
    a one-case sweep; the rows' size and the master's time per case, into result["trivial"]."""
    # Overhead per case.
    trivial = f"{tmp}/trivial.toml"
    with open(trivial, "w") as f:
        f.write(TRIVIAL)
    per = {"threads_1": [], "mpi_2": [], "mpi_3": [], "threads_2": []}
    for _ in range(repeats):
        per["threads_1"].append(sweep(nhs, "skate", trivial, f"{tmp}/o1", jobs=1))
        per["threads_2"].append(sweep(nhs, "skate", trivial, f"{tmp}/o2", jobs=2))
        per["mpi_2"].append(sweep(nhs, "skate", trivial, f"{tmp}/o3", ranks=2))
        per["mpi_3"].append(sweep(nhs, "skate", trivial, f"{tmp}/o4", ranks=3))
    # mpirun's own start-up and MPI_Init: a sweep of one trivial case.
    one = f"{tmp}/one.toml"
    with open(one, "w") as f:
        f.write(TRIVIAL.replace("count = 3000", "count = 1"))
    start = [sweep(nhs, "skate", one, f"{tmp}/s{k}", ranks=2) for k in range(repeats)]
    start_threads = [sweep(nhs, "skate", one, f"{tmp}/u{k}", jobs=1) for k in range(repeats)]
    n = 3000
    best = {k: min(v) for k, v in per.items()}
    result["trivial"] = {"cases": n, "wall_s": best, "mpirun_startup_s": min(start),
                         "threads_startup_s": min(start_threads),
                         "per_case_us": {
                             "threads_1": 1e6 * (best["threads_1"] - min(start_threads)) / n,
                             "mpi_1_worker": 1e6 * (best["mpi_2"] - min(start)) / n,
                             "mpi_2_workers": 1e6 * (best["mpi_3"] - min(start)) / n,
                             "threads_2": 1e6 * (best["threads_2"] - min(start_threads)) / n},
                         "unit_bytes": 8}
    pc = result["trivial"]["per_case_us"]
    result["trivial"]["mpi_overhead_per_case_us"] = pc["mpi_1_worker"] - pc["threads_1"]
    with open(f"{tmp}/o1/cases.csv") as f:
        rows = f.read().splitlines()[1:]
    result["trivial"]["row_bytes_mean"] = sum(len(r) for r in rows) / len(rows)
    # The master's own time per case (in handing out units and writing
    # rows; sweep.json's master_busy_s): what bounds the ranks it serves.
    with open(f"{tmp}/o4/sweep.json") as f:
        result["trivial"]["master_us_per_case"] = 1e6 * json.load(f)["master_busy_s"] / n


def markdown(result):
    """sweep_engines.md (lines) from the result."""
    t = result["trivial"]
    md = [f"# nhs sweep: engines on this machine ({result['machine_cores']} cores)", "",
          f"Made by `{result['command']}`; best of {result['repeats']} runs.", "",
          f"**Real cases** ({result['spec']}, {result['cases']} motions):", "",
          "| engine | wall [s] | rows as the threads' |", "|---|---|---|",
          f"| 1 thread | {result['threads']['1']:.2f} | (reference) |",
          f"| 2 threads | {result['threads']['2']:.2f} | {result['threads_same_rows']} |"]
    for k, v in result["mpi"].items():
        md.append(f"| mpirun -n {k} ({v['workers']} workers, --oversubscribe) | {v['wall_s']:.2f} | {v['same_rows_as_threads']} |")
    md += ["", f"Speed-up of 2 threads over 1: {result['speedup_2_threads']:.2f}.", "",
           f"**Cost per case** ({t['cases']} cases of a skate to t = 1e-3), after start-up "
           f"(mpirun and MPI_Init: {t['mpirun_startup_s']:.2f} s; the tool alone: {t['threads_startup_s']:.3f} s):", "",
           "| engine | µs per case |", "|---|---|"]
    for k, v in t["per_case_us"].items():
        md.append(f"| {k.replace('_', ' ')} | {v:.1f} |")
    md += ["", f"MPI path's overhead per case (1 worker against 1 thread): {t['mpi_overhead_per_case_us']:.1f} µs. "
               f"Messages per case: a unit of 8 bytes out, a row of {t['row_bytes_mean']:.0f} bytes back "
               f"({result['row_bytes_mean']:.0f} bytes for the singular map's rows), plus an empty 'ready'. "
               f"The master's own time per case (a unit out, a row written to both files and flushed): "
               f"{t['master_us_per_case']:.1f} µs.", ""]
    return md


def main():
    """Runs the engines, writes sweep_engines.json and .md into --out-dir."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--nhs", default="build/nhs")
    p.add_argument("--out-dir", default="reports/bench")
    p.add_argument("--repeats", type=int, default=3)
    args = p.parse_args()
    if not shutil.which("mpirun"):
        sys.exit("sweep_engines: no mpirun (install openmpi-bin)")
    tmp = tempfile.mkdtemp(prefix="nhs_sweep_engines_")
    example = "examples/sweeps/bipendulum-singular-map.toml"
    spec = f"{tmp}/map-mp50.toml"
    with open(example) as f:
        text = f.read()
    with open(spec, "w") as f:
        f.write(text.replace("[run]\n", "[run]\nprecision = \"mp50\"\n", 1))
    result = {"command": "bench/sweep_engines.py " + " ".join(sys.argv[1:]), "machine_cores": os.cpu_count(),
              "spec": example + " with precision = \"mp50\"", "system": "bipendulum", "repeats": args.repeats}
    try:
        real_cases(args.nhs, tmp, spec, args.repeats, result)
        trivial_cases(args.nhs, tmp, args.repeats, result)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(args.out_dir, exist_ok=True)
    with open(os.path.join(args.out_dir, "sweep_engines.json"), "w") as f:
        json.dump(result, f, indent=1)
    md = markdown(result)
    with open(os.path.join(args.out_dir, "sweep_engines.md"), "w") as f:
        f.write("\n".join(md))
    print("\n".join(md))


if __name__ == "__main__":
    main()
