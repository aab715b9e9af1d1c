"""One nhs.Field shared by threads, in every precision (docs/python.md,
"The vector field"): each thread's values equal the single-thread values
exactly (the same bytes in double and long double, the same mpmath
mantissas above), and the calls never hang.

The reference is the same Field called from one thread before the threads
start. A Field serializes its calls with a mutex; a thread that held it
while making its mpmath results (Python code, which lets the GIL go) hung
against a thread that held the GIL and waited for the mutex.

Each workload runs in a child interpreter whose switch interval is 1 µs,
so that the GIL changes hands inside nearly every conversion. A hang holds
the GIL, so the child cannot time itself out from Python: the C watchdog
of faulthandler (dump_traceback_later(exit=True)) prints every thread's
stack and ends the child, and the test fails with that stack. It is a
deadlock detector, set minutes beyond the seconds the work takes, not a
timing assertion.

The generator draws a workload from a seed (studies and system files,
formulations, precisions, thread counts, states near the default one, and
which calls: f(t, x), accel_batch, jac); the quick suite replays FIXED_SEEDS,
`ctest -L fuzz` (PythonFieldThreadsRandomSeed) a new seed each run, printed,
and NHS_FUZZ_SEED=N replays it.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SOURCE_DIR = Path(os.environ.get("NHS_SOURCE_DIR") or Path(__file__).resolve().parents[2])
PRECISIONS = ["double", "long-double", "float128", "mp50", "mp100"]
# Small systems, built-in and files (a file's traced field runs the
# interpreter, whose registers the Field's mutex guards).
SYSTEMS = ["skate", "rolling-disc", "coaxial-discs", "bipendulum",
           str(SOURCE_DIR / "examples" / "knife-edge-incline.toml"),
           str(SOURCE_DIR / "examples" / "chaplygin-sleigh.toml")]
FIXED_SEEDS = [11, 2024, 90125]
# Seconds after which the child is taken to hang (the work takes seconds).
WATCHDOG = 600

CHILD = textwrap.dedent("""
    import faulthandler, json, random, sys, threading
    faulthandler.dump_traceback_later(float(sys.argv[2]), exit=True)
    sys.setswitchinterval(1e-6)
    import mpmath
    import numpy as np
    import nhs

    def exact(value):
        # The exact identity of a result: each float's shortest round-trip
        # digits in its own dtype (a long double's bytes hold padding), the
        # (sign, mantissa, exponent) of each mpmath number.
        a = np.asarray(value)
        if a.dtype != object:
            return [str(a.dtype), list(a.shape),
                    [np.format_float_scientific(v, unique=True) for v in a.ravel()]]
        return [list(a.shape), [repr(v._mpf_) for v in a.ravel()]]

    def evaluate(f, op, x):
        n = f.n
        try:
            if op == "call":
                return exact(f(0, x))
            if op == "batch":
                return exact(f.accel_batch([x[:n], x[:n]], [x[n:], x[n:]]))
            return exact(f.jac(0, x))
        except nhs.Error as e:  # the same refusal in every thread
            return [type(e).__name__, str(e)]

    failures = []
    for case in json.loads(sys.argv[1]):
        f = nhs.System(case["system"]).field(formulation=case["formulation"], precision=case["precision"])
        ops = [op for op in case["ops"] if op != "jac" or f.formulation.startswith("second-kind")]
        work = [(op, x) for x in case["states"] for op in ops]
        expected = [evaluate(f, op, x) for op, x in work]
        barrier = threading.Barrier(case["threads"])

        def thread(k):
            order = list(range(len(work))) * case["rounds"]
            random.Random(k).shuffle(order)
            barrier.wait()
            try:
                for i in order:
                    got = evaluate(f, *work[i])
                    if got != expected[i]:
                        failures.append(f"{case}: thread {k}, {work[i][0]} at x = {work[i][1]}: "
                                        f"{got} != {expected[i]}")
                        return
            except Exception as e:  # not a refusal of the module: reported
                failures.append(f"{case}: thread {k}: {e!r}")

        threads = [threading.Thread(target=thread, args=(k,)) for k in range(case["threads"])]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    print(json.dumps(failures), flush=True)
""")


def run_workload(cases):
    """Runs the cases in a child interpreter; returns the failures (a hang
    fails the test with the child's thread stacks)."""
    env = dict(os.environ)
    try:
        p = subprocess.run([sys.executable, "-c", CHILD, json.dumps(cases), str(WATCHDOG)], capture_output=True,
                           text=True, env=env, timeout=WATCHDOG + 60)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"the threads hung (the child outlived its watchdog): {e.stderr}")
    if p.returncode != 0 or not p.stdout.strip():
        pytest.fail(f"the child ended with exit {p.returncode} (a hang ends it through faulthandler's "
                    f"watchdog, with every thread's stack):\n{p.stderr[-6000:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def default_state(system):
    """The system's default (q, qdot) as decimal strings (exact in every
    precision)."""
    import nhs
    a = nhs.System(system).accel(precision="double")
    return [repr(float(v)) for v in list(a.q) + list(a.qdot)]


@pytest.mark.parametrize("precision", PRECISIONS)
def test_a_field_shared_by_threads_gives_the_single_thread_values(precision):
    """Six threads on one rolling-disc Field and four on a system file's
    traced Field, each calling f(t, x), accel_batch and jac."""
    cases = [dict(system=system, formulation=None, precision=precision, threads=threads, rounds=40,
                  ops=["call", "batch", "jac"], states=[default_state(system)])
             for system, threads in (("rolling-disc", 6), (SYSTEMS[4], 4))]
    assert run_workload(cases) == []


def workload(seed):
    """The cases of one seed: 3 of them, each a system, a formulation (the
    default or one that applies), a precision, 2 to 8 threads, 1 to 3 states
    near the default one (some off C, where the formulations still evaluate;
    some singular, refused the same way by every thread) and the calls."""
    import nhs
    rng = random.Random(seed)
    cases = []
    for _ in range(3):
        system = rng.choice(SYSTEMS)
        formulations = nhs.System(system).formulations()
        formulation = rng.choice([None, None] + formulations)
        precision = rng.choice(PRECISIONS)
        x0 = [float(v) for v in default_state(system)]
        states = [[repr(v + rng.choice([0.0, rng.uniform(-0.5, 0.5)])) for v in x0]
                  for _ in range(rng.randint(1, 3))]
        ops = rng.sample(["call", "batch", "jac"], rng.randint(1, 3))
        cases.append(dict(system=system, formulation=formulation, precision=precision,
                          threads=rng.randint(2, 8), rounds=rng.randint(2, 12), ops=ops, states=states))
    return cases


@pytest.mark.parametrize("seed", FIXED_SEEDS)
def test_threads_fixed_seeds(seed):
    cases = workload(seed)
    failures = run_workload(cases)
    assert failures == [], f"seed {seed} (NHS_FUZZ_SEED={seed} replays it): {failures[:5]}"


@pytest.mark.skipif(not os.environ.get("NHS_PYTHON_FUZZ"),
                    reason="a new seed each run: ctest -L fuzz (PythonFieldThreadsRandomSeed)")
def test_threads_random_seed():
    seed = int(os.environ.get("NHS_FUZZ_SEED") or random.SystemRandom().randrange(2**32))
    cases_count = int(os.environ.get("NHS_FUZZ_CASES") or 10)
    print(f"fuzz: seed {seed} (NHS_FUZZ_SEED={seed} replays it)", flush=True)
    cases = [c for k in range(cases_count) for c in workload(seed * 1000 + k)]
    failures = run_workload(cases)
    assert failures == [], f"seed {seed} (NHS_FUZZ_SEED={seed} replays it): {failures[:5]}"
