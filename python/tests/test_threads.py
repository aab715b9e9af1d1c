"""Ctrl-C during a run, and the GIL (docs/python.md, "Threads and interrupts").

- SIGINT delivered to the process during a long run (main thread) raises
  KeyboardInterrupt within about 20 ms plus a step; the interpreter stays
  usable: accel and run afterwards give the same numbers as before.
- run releases the GIL: another Python thread runs while it integrates.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import nhs

# Long runs if not interrupted (bounded, so that a failure costs seconds,
# not the suite): rolling-sphere in mp50 to t = 300 takes about 12 s on one
# core, in double to t = 1e5 about 7 s (dt_out = 50: see test_run_cli.py
# test_run_does_not_depend_on_dt_out_for_its_success).
LONG_RUNS = [
    ("rolling-sphere", dict(t_end=300, dt_out=1, precision="mp50")),
    ("rolling-sphere", dict(t_end=100000, dt_out=50, precision="double")),
]


@pytest.fixture
def default_sigint():
    """Python's own SIGINT handler (raises KeyboardInterrupt) for the test."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)


@pytest.mark.parametrize("study,kwargs", LONG_RUNS, ids=["mp50", "double"])
def test_keyboard_interrupt_stops_a_run(default_sigint, study, kwargs):
    assert threading.current_thread() is threading.main_thread()
    system = nhs.study(study)
    before_accel = system.accel(precision="mp50").strings
    before_run = system.run(t_end=1, dt_out=0.5, precision="mp50")
    fired = []

    def fire():
        fired.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(0.3, fire)
    try:
        started = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            timer.start()
            try:
                system.run(**kwargs)
            finally:
                ended = time.monotonic()
    finally:
        timer.cancel()
        timer.join()
    assert fired, "the run ended before the signal"
    assert ended - fired[0] < 2.0, f"KeyboardInterrupt {ended - fired[0]:.2f} s after SIGINT"
    assert ended - started < 5.0
    # the interpreter is usable: the same numbers as before the interrupt
    assert system.accel(precision="mp50").strings == before_accel
    after_run = system.run(t_end=1, dt_out=0.5, precision="mp50")
    assert after_run.columns == before_run.columns
    assert all(list(after_run[c]) == list(before_run[c]) for c in before_run.columns)
    assert nhs.study("skate").accel().strings["qddot"] == ["0", "0.5", "0"]


def _progress_during(call):
    """Runs call() in this thread while another Python thread counts; returns
    (seconds, result, how many counter stamps fell in each fifth of the call)."""
    stop = threading.Event()
    stamps = []

    def count():
        k = 0
        while not stop.is_set():
            k += 1
            if k % 200 == 0:
                stamps.append(time.monotonic())

    counter = threading.Thread(target=count, daemon=True)
    counter.start()
    try:
        time.sleep(0.05)
        t0 = time.monotonic()
        result = call()
        t1 = time.monotonic()
    finally:
        stop.set()
        counter.join()
    fifths = [0] * 5
    for s in stamps:
        if t0 < s < t1:
            fifths[min(4, int(5 * (s - t0) / (t1 - t0)))] += 1
    return t1 - t0, result, fifths


def test_run_releases_the_gil():
    """A Python thread counting while the main thread runs a ~0.5 s run: it
    must record progress all through the run, not only before and after."""
    sphere = nhs.study("rolling-sphere")
    seconds, run, fifths = _progress_during(lambda: sphere.run(t_end=3000, dt_out=100))
    assert run.summary["completed"]
    assert seconds > 0.1, "the run was too short to tell"
    assert all(n > 0 for n in fifths), f"counter progress per fifth of the run: {fifths}"


def test_gil_control_a_call_that_holds_the_gil_stops_the_counter():
    """The control of the test above: accel in double keeps the GIL (docs:
    only run, check and accel above double release it); the benchmark hook
    repeats it in C++, and the counter must then stall."""
    skate = nhs.study("skate")
    if not hasattr(skate, "_bench_accel"):
        pytest.skip("no benchmark hook")
    seconds, _, fifths = _progress_during(lambda: skate._bench_accel(40000, [0, 0, 0], [1, 0, 0.5]))
    assert seconds > 0.1, "the call was too short to tell"
    assert sum(fifths[1:4]) == 0, f"counter progress per fifth of a GIL-holding call: {fifths}"


def test_runs_in_parallel_threads_equal_serial_runs():
    """Several runs in parallel threads (docs/python.md) give the numbers of
    the same runs one after the other."""
    jobs = [("skate", "double"), ("rolling-disc", "mp50"), ("coaxial-discs", "long-double"),
            ("n-trailer", "float128")]

    def go(study, precision):
        r = nhs.study(study).run(t_end=1, dt_out=0.5, precision=precision)
        return [list(map(str, r[c])) for c in r.columns]

    serial = {j: go(*j) for j in jobs}
    results, errors = {}, []

    def work(j):
        try:
            results[j] = go(*j)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append((j, e))

    threads = [threading.Thread(target=work, args=(j,)) for j in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors and results == serial


DEADLOCK_SCRIPT = textwrap.dedent("""
    import os, sys, threading
    import nhs
    assert "mpmath" not in sys.modules
    skate = nhs.study("skate")
    barrier = threading.Barrier(2)
    def work():
        barrier.wait()
        skate.run(t_end=0.5, dt_out=0.5, precision="mp50")
    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads: t.start()
    for t in threads: t.join()
    print("ok", flush=True)
""")


def test_first_mp_conversion_in_two_threads_does_not_deadlock():
    """Two mp50 runs in two threads of a fresh interpreter that has not
    imported mpmath yet (`import nhs` does not): both finish their steps and
    convert their results at once. Run in a child process with a timeout:
    the hang holds the GIL, so the child cannot even time itself out."""
    try:
        p = subprocess.run([sys.executable, "-c", DEADLOCK_SCRIPT], capture_output=True, text=True, timeout=8,
                           env=dict(os.environ))
    except subprocess.TimeoutExpired:
        pytest.fail("two threads converting their first mp50 results hung (killed after 8 s)")
    assert p.returncode == 0 and p.stdout.strip() == "ok", p.stderr


PARALLEL_FIRST_ARRAYS_SCRIPT = textwrap.dedent("""
    import threading
    import nhs
    skate = nhs.study("skate")
    barrier = threading.Barrier(8)
    def work():
        barrier.wait()
        skate.run(t_end=0.2, precision="long-double")
    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads: t.start()
    for t in threads: t.join()
    print("ok", flush=True)
""")


def test_first_numpy_results_in_eight_threads_do_not_deadlock():
    """Eight long-double runs in eight threads of a fresh interpreter, each
    making its first NumPy array as its GIL-less run ends. pybind11 looked up
    NumPy's C API in a C++ static whose initializer imports numpy (releasing
    the GIL): the threads hung for ever. The module now does it at import.
    In a child process: each run takes milliseconds, 120 s is only a
    watchdog for the hang."""
    try:
        p = subprocess.run([sys.executable, "-c", PARALLEL_FIRST_ARRAYS_SCRIPT], capture_output=True, text=True,
                           timeout=120, env=dict(os.environ))
    except subprocess.TimeoutExpired:
        pytest.fail("eight threads making their first NumPy results hung (killed after 120 s)")
    assert p.returncode == 0 and p.stdout.strip() == "ok", p.stderr
