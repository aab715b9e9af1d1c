#!/usr/bin/env python3
"""A scaling model of `nhs sweep`'s MPI engine (docs/sweeps.md), from
measured costs: the expected parallel efficiency at 16 ... 1024 ranks for
(a) the mp50 work-precision sweep and (b) a parameter map of 1e5 cases.

The model is a discrete-event simulation of the master-worker protocol
of apps/nhs/mpi/sweep_mpi.c:
- P - 1 workers. A worker asks for its next unit when it starts one; the
  master answers at once while more units are left than workers, else when
  the worker says it is idle. A worker that ends a unit sends its k rows.
  Every message takes the latency L.
- The master is a single server. It takes m per row (its measured time
  per case in handing out units and writing rows, both files flushed),
  plus 0.5 us to receive any message (assumed), in the order the messages
  arrive.
- Unit costs are measured: each unit's cases' wall_s, from a finished
  sweep's cases.csv. For (a), a unit is a chain along stop_after_budget.
  For (b), the cases of a real double-precision map, resampled to 1e5
  with a fixed seed.

Efficiency = (total case time) / (P x makespan), counting the master as
one of the P ranks. Start-up (mpirun, MPI_Init) is left out; it was
measured once here (sweep_engines.json) and is a fixed cost.

m comes from sweep_engines.json (master_us_per_case, measured on this
machine). L is 1 us (shared memory, this machine), 5 us (InfiniBand-class)
or 50 us (TCP over Ethernet). The last two are assumptions, not
measurements.

  /usr/bin/python3 bench/sweep_scaling.py --wp-runs runs/work-precision \\
      --map-csv runs/map/cases.csv [--engines reports/bench/sweep_engines.json]
Writes reports/bench/sweep_scaling.{json,md}.
"""
import argparse
import csv
import glob
import heapq
import json
import os
import random
import sys

RANKS = [16, 32, 64, 128, 256, 512, 1024]
# The master's cost of receiving one message (MPI_Iprobe, MPI_Recv), on top
# of m for a row: an assumption, of the order of the MPI path's measured
# overhead per case (sweep_engines.json, about 2 us for three messages).
RECEIVE = 0.5e-6
LATENCIES_US = [1, 5, 50]


def units_from_csv(path, chain_axis=None):
    """Unit costs [(seconds, cases)] of one sweep: each case, or each chain
    (the cases equal in every axis but chain_axis)."""
    with open(path) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return []
    header = list(rows[0].keys())
    axes = header[1:header.index("status")]
    units = {}
    for r in rows:
        key = r["case"] if chain_axis is None else tuple(r[a] for a in axes if a != chain_axis)
        cost, n = units.get(key, (0.0, 0))
        units[key] = (cost + (float(r["wall_s"]) if r.get("wall_s") else 0.0), n + 1)
    return [units[k] for k in sorted(units, key=lambda k: (len(k), k) if isinstance(k, tuple) else int(k))]


def simulate(units, ranks, m, latency):
    """Makespan of the protocol of apps/nhs/mpi/sweep_mpi.c (see the module's
    docstring): READY from an idle worker; PREFETCH when a worker starts a
    unit, answered at once while more units are left than workers, else
    held until the worker's IDLE; a row per case when a unit ends."""
    workers = ranks - 1
    left = len(units)
    nxt = 0
    events = []  # (time, seq, kind, worker, payload)
    seq = 0

    def push(t, kind, w, payload=None):
        nonlocal seq
        heapq.heappush(events, (t, seq, kind, w, payload))
        seq += 1

    master_free = 0.0
    busy_until = [0.0] * workers      # when the running unit ends
    queued = [None] * workers         # (arrival, unit) of an answer not yet started
    deferred = [False] * workers
    stopped = [False] * workers
    end = 0.0

    def answer(t, w):
        nonlocal nxt, left
        if nxt < len(units):
            u = units[nxt]
            nxt += 1
            left -= 1
            push(t + latency, "unit", w, u)
        else:
            push(t + latency, "stop", w)

    for w in range(workers):
        push(latency, "m_ready", w)
    while events:
        t, _, kind, w, payload = heapq.heappop(events)
        if kind.startswith("m_"):  # a message reaches the master
            start = max(t, master_free)
            master_free = start + RECEIVE + (m if kind == "m_row" else 0.0)
            end = max(end, master_free)
            if kind == "m_ready":
                answer(master_free, w)
            elif kind == "m_prefetch":
                if left == 0 or left > workers:
                    answer(master_free, w)
                else:
                    deferred[w] = True
            elif kind == "m_idle" and deferred[w]:
                deferred[w] = False
                answer(master_free, w)
        elif kind in ("unit", "stop"):  # an answer reaches a worker
            if kind == "stop":
                stopped[w] = True
                continue
            if busy_until[w] <= t and queued[w] is None:
                push(t, "start", w, payload)
            else:
                queued[w] = payload
        elif kind == "start":
            cost, n = payload
            push(t + latency, "m_prefetch", w)
            busy_until[w] = t + cost
            push(t + cost, "finish", w, n)
        elif kind == "finish":
            for _ in range(payload):  # its rows
                push(t + latency, "m_row", w)
            if queued[w] is not None:
                u, queued[w] = queued[w], None
                push(t, "start", w, u)
            elif not stopped[w]:
                push(t + latency, "m_idle", w)
    return end


def efficiency(units, ranks, m, latency):
    total = sum(c for c, _ in units)
    return total / (ranks * simulate(units, ranks, m, latency))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--wp-runs", default="runs/work-precision", help="the work-precision sweeps' output dirs")
    p.add_argument("--wp-precision", default="mp50")
    p.add_argument("--map-csv", required=True, help="cases.csv of a double-precision parameter map")
    p.add_argument("--engines", default="reports/bench/sweep_engines.json")
    p.add_argument("--out-dir", default="reports/bench")
    p.add_argument("--map-cases", type=int, default=100000)
    args = p.parse_args()
    with open(args.engines) as f:
        engines = json.load(f)
    m = engines["trivial"]["master_us_per_case"] * 1e-6
    wp = []
    check = []  # the model against the measured wall time of each sweep (2 workers or threads)
    for d in sorted(glob.glob(os.path.join(args.wp_runs, f"*-{args.wp_precision}"))):
        units = units_from_csv(os.path.join(d, "cases.csv"), chain_axis="tol")
        wp += units
        with open(os.path.join(d, "sweep.json")) as f:
            meta = json.load(f)
        if units and meta.get("wall_s"):
            check.append({"sweep": os.path.basename(d), "engine": meta.get("engine"), "measured_s": meta["wall_s"],
                          "model_s": simulate(units, 3, m, 1e-6)})
    if not wp:
        sys.exit(f"sweep_scaling: no {args.wp_precision} work-precision sweep under {args.wp_runs}")
    cases = [c for c, _ in units_from_csv(args.map_csv)]
    rng = random.Random(1)
    big = [(rng.choice(cases), 1) for _ in range(args.map_cases)]
    out = {"command": "bench/sweep_scaling.py " + " ".join(sys.argv[1:]), "master_s_per_case": m,
           "latencies_us": LATENCIES_US, "ranks": RANKS,
           "work_precision": {"units": len(wp), "cases": sum(n for _, n in wp), "total_s": sum(c for c, _ in wp),
                              "longest_unit_s": max(c for c, _ in wp), "efficiency": {}},
           "map": {"cases": len(big), "source": args.map_csv, "source_cases": len(cases),
                   "mean_case_s": sum(cases) / len(cases), "total_s": sum(c for c, _ in big), "efficiency": {}}}
    for name, units in (("work_precision", wp), ("map", big)):
        for lat in LATENCIES_US:
            out[name]["efficiency"][str(lat)] = {str(r): efficiency(units, r, m, lat * 1e-6) for r in RANKS}
    out["model_check"] = check
    os.makedirs(args.out_dir, exist_ok=True)
    with open(os.path.join(args.out_dir, "sweep_scaling.json"), "w") as f:
        json.dump(out, f, indent=1)
    w, mp = out["work_precision"], out["map"]
    md = ["# nhs sweep: expected efficiency at 16-1024 ranks", "",
          f"Made by `{out['command']}` (model: the script's docstring). Master's cost per case "
          f"m = {m * 1e6:.1f} µs (measured, sweep_engines.json).", "",
          f"**(a) The {args.wp_precision} work-precision sweep**: {w['cases']} cases in {w['units']} chains, "
          f"{w['total_s']:.0f} s of case time; the longest chain {w['longest_unit_s']:.0f} s, so no number of "
          f"ranks ends it sooner than that (speed-up at most {w['total_s'] / w['longest_unit_s']:.1f}).", "",
          f"**(b) A map of {mp['cases']} cases** resampled from {mp['source_cases']} measured double-precision "
          f"cases (mean {mp['mean_case_s'] * 1e3:.2f} ms a case, {mp['total_s']:.0f} s in all).", "",
          "| ranks | " + " | ".join(f"(a) L = {l} µs" for l in LATENCIES_US) + " | "
          + " | ".join(f"(b) L = {l} µs" for l in LATENCIES_US) + " |",
          "|---" * (1 + 2 * len(LATENCIES_US)) + "|"]
    for r in RANKS:
        md.append(f"| {r} | " + " | ".join(f"{w['efficiency'][str(l)][str(r)]:.2f}" for l in LATENCIES_US) + " | "
                  + " | ".join(f"{mp['efficiency'][str(l)][str(r)]:.2f}" for l in LATENCIES_US) + " |")
    md += ["", "The model against measurement: each work-precision sweep's wall time, measured on this "
           "machine's 2 cores, and the model's for 2 workers (its unit costs are that run's case times):", "",
           "| sweep | engine | measured [s] | model [s] |", "|---|---|---|---|"]
    for c in check:
        md.append(f"| {c['sweep']} | {c['engine']} | {c['measured_s']:.1f} | {c['model_s']:.1f} |")
    md.append("")
    with open(os.path.join(args.out_dir, "sweep_scaling.md"), "w") as f:
        f.write("\n".join(md))
    print("\n".join(md))


if __name__ == "__main__":
    main()
