"""System.run equals `nhs run`'s CSV.

Reference: the CSV the CLI writes with the same options (docs/cli.md,
`run`): the same columns in the same order, the same number of rows, and
the same values: in double bit for bit (each cell parsed by float()), in
long double each cell parsed by np.longdouble, in mp50 each mpf equal to
its cell parsed by mpmath at 168 bits. The summary's counts equal those of
the CLI's summary line on stderr.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap

import mpmath
import numpy as np
import pytest

import nhs

SUMMARY = re.compile(r"(\d+) rows to t = \S+, (\d+) steps, (\d+) RHS calls")


def compare(tools, run, csv_path, stderr, precision):
    header, rows = tools.read_csv(csv_path)
    assert run.columns == header
    assert len(run) == len(rows) >= 2
    for k, c in enumerate(header):
        cells = [r[k] for r in rows]
        col = run[c]
        if precision == "double":
            assert col.dtype == np.float64
            assert np.array([float(s) if s else np.nan for s in cells]).tobytes() == col.tobytes(), c
        elif precision == "long-double":
            assert col.dtype == np.longdouble
            for s, v in zip(cells, col):
                assert (np.isnan(v) if s == "" else np.longdouble(s) == v), (c, s, v)
        else:
            assert col.dtype == object
            for s, v in zip(cells, col):
                assert (v is None if s == "" else (isinstance(v, mpmath.mpf) and v == tools.mpf(s, precision))), \
                    (c, s, v)
    m = SUMMARY.search(stderr)
    assert m, stderr
    rows_, steps, rhs = map(int, m.groups())
    assert (rows_, steps, rhs) == (run.summary["samples"], run.summary["steps"], run.summary["rhs_calls"])
    assert run.summary["completed"] is True and run.summary["precision"] == precision
    assert f"with {run.summary['formulation']} in {precision}, stepper {run.summary['stepper']}:" in stderr


RUNS = [
    # (id, system, precision, CLI options, run keyword arguments)
    ("skate-double", "skate", "double",
     ["--param", "g=0.7", "--q", "0.5,-0.2,0", "--qdot", "0.7,0,-0.4", "--t-end", "3", "--dt-out", "0.25"],
     dict(params={"g": 0.7}, q0=[0.5, -0.2, 0], qdot0=[0.7, "0", -0.4], t_end=3, dt_out=0.25)),
    ("skate-defaults", "skate", "double", [], {}),  # t_end 10, dt_out 0.1, the default state
    ("coaxial-first-kind-library", "coaxial-discs", "double",
     ["--formulation", "first-kind", "--library", "--t-end", "2", "--dt-out", "0.5"],
     dict(formulation="first-kind", field="library", t_end=2, dt_out=0.5)),
    ("bipendulum-dopri5-project", "bipendulum", "double",
     ["--stepper", "dopri5", "--project", "--rtol", "1e-9", "--t-end", "2", "--dt-out", "0.5"],
     dict(stepper="dopri5", project=True, rtol=1e-9, t_end=2, dt_out=0.5)),
    ("knife-file-double", "examples/knife-edge-incline.toml", "double",
     ["--t-end", "3", "--dt-out", "0.25"], dict(t_end=3, dt_out=0.25)),
    ("knife-file-maggi-z", "examples/knife-edge-incline.toml", "double",
     ["--formulation", "maggi", "--q", "0.1,0.2,0.3", "--z", "0.8,-0.6", "--param", "g=1.5", "--t-end", "2",
      "--dt-out", "0.5"],
     dict(formulation="maggi", q0=[0.1, 0.2, 0.3], z0=[0.8, -0.6], params={"g": "1.5"}, t_end=2, dt_out=0.5)),
    ("skate-long-double", "skate", "long-double", ["--t-end", "1", "--dt-out", "0.25"],
     dict(t_end=1, dt_out=0.25)),
    ("knife-file-mp50", "examples/knife-edge-incline.toml", "mp50", ["--t-end", "1", "--dt-out", "0.5"],
     dict(t_end=1, dt_out=0.5)),
    ("skate-mp50", "skate", "mp50", ["--t-end", "1", "--dt-out", "0.5", "--param", "g=3"],
     dict(t_end=1, dt_out=0.5, params={"g": 3})),
    # a special motion: its parameters, state and t_end, and the "error" column
    ("skate-motion-2", "skate", "double", ["--motion", "2", "--dt-out", "0.3"], dict(motion=2, dt_out=0.3)),
    ("sleigh-exact-mp50", "examples/chaplygin-sleigh.toml", "mp50",
     ["--motion", "1", "--t-end", "1", "--dt-out", "0.5"], dict(motion=1, t_end=1, dt_out=0.5)),
]


@pytest.mark.parametrize("case", RUNS, ids=[c[0] for c in RUNS])
def test_run_equals_cli_csv(tools, tmp_path, case):
    _, system, precision, options, kwargs = case
    name = tools.path(system) if system.endswith(".toml") else system
    out = tmp_path / "run.csv"
    p = tools.cli("run", name, "--precision", precision, *options, "--out", out)
    assert p.returncode == 0, p.stderr
    run = nhs.System(name).run(precision=precision, **kwargs)
    compare(tools, run, out, p.stderr, precision)


def test_run_columns_and_summary():
    skate = nhs.study("skate")
    run = skate.run(t_end=1, dt_out=0.25)
    assert run.columns[:7] == ["t", "x", "y", "theta", "x_dot", "y_dot", "theta_dot"]
    assert run.columns[7:9] == ["energy", "C1"]
    assert np.array_equal(run.t, [0, 0.25, 0.5, 0.75, 1])
    assert len(run) == 5 == run.summary["samples"]
    with pytest.raises(KeyError, match="no column 'z'"):
        run["z"]
    # omega = theta_dot is conserved exactly by the skate (docs/studies.md)
    assert run.summary["invariants"]["omega"]["conserved"] is True
    assert float(run.summary["max_C"]) < 1e-12
    assert "Run(skate, second-kind (generated), double" in repr(run)


def test_a_motion_is_run_with_its_error():
    """System.run(motion=...) starts from the motion's state at its
    parameters and reports the error against its closed form (the skate's
    motions, docs/special-motions.md): below 1e-9 at the default rtol."""
    skate = nhs.study("skate")
    names = skate.motions()
    assert len(names) == 3
    run = skate.run(motion=names[0], dt_out=2)
    assert run.columns[-1] == "error" and run.summary["motion"] == names[0]
    assert float(run.t[-1]) == 20.0
    assert 0 <= float(run.summary["max_error"]) == float(np.max(run["error"])) < 1e-9
    with pytest.raises(nhs.UsageError, match="has no motion 'none'"):
        skate.run(motion="none")
    with pytest.raises(nhs.UsageError, match="--motion sets the parameters"):
        skate.run(motion=1, params={"g": 1})


def test_to_pandas():
    pd = pytest.importorskip("pandas")
    run = nhs.study("skate").run(t_end=1, dt_out=0.5)
    df = run.to_pandas()
    assert list(df.columns) == run.columns and len(df) == 3
    assert isinstance(df, pd.DataFrame)
    for c in run.columns:
        assert df[c].to_numpy().tobytes() == run[c].tobytes(), c


def test_to_pandas_without_pandas_names_the_package():
    """pandas is optional: without it (hidden here), to_pandas raises
    ModuleNotFoundError naming Debian's python3-pandas, and the run's
    columns stay readable."""
    script = textwrap.dedent("""
        import sys
        sys.modules["pandas"] = None  # as if not installed
        import nhs
        run = nhs.study("skate").run(t_end=1, dt_out=0.5)
        try:
            run.to_pandas()
        except ModuleNotFoundError as e:
            print(type(e).__name__, e.name, str(e), sep="|")
        print(len(run["x"]))
    """)
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                       env=dict(os.environ))
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    kind, name, message = lines[0].split("|")
    assert kind == "ModuleNotFoundError" and name == "pandas"
    assert "Run.to_pandas() needs pandas" in message and "apt-get install python3-pandas" in message
    assert lines[1] == "3"


def test_a_grid_beyond_the_row_budget_is_refused_before_any_step():
    """run keeps its rows in memory: t_end / dt_out + 1 rows beyond max_rows
    (default nhs.MAX_ROWS) are refused up front, by count and budget. The
    issue's case, dt_out = 1e-9 to t = 0.5 (5e8 rows), grew to 18.5 GB."""
    assert nhs.MAX_ROWS == 10_000_000
    oscillator = nhs.study("contact-oscillator")
    for precision in ("double", "mp50"):
        with pytest.raises(nhs.UsageError) as e:
            oscillator.run(t_end=0.5, dt_out=1e-9, precision=precision)
        message = str(e.value)
        assert message.startswith("t_end / dt_out = 5e+08: the run would keep 500000001 rows of ")
        assert "more than max_rows = 10000000" in message and "run(..., max_rows=N)" in message
        assert "nhs run --out" in message
    # the budget counts the rows exactly: 0, 0.1, ..., 1 is 11 rows
    skate = nhs.study("skate")
    with pytest.raises(nhs.UsageError, match=r"keep 11 rows of \d+ columns in memory, more than max_rows = 10 "):
        skate.run(t_end=1, dt_out=0.1, max_rows=10)
    assert len(skate.run(t_end=1, dt_out=0.1, max_rows=11)) == 11
    assert len(skate.run(t_end=1, dt_out=0.1, max_rows=11, precision="mp50")) == 11


def test_run_does_not_depend_on_dt_out_for_its_success():
    """rolling-sphere, default state, double: to t = 400 with dt_out = 100 the
    run completes (margin_sin_theta >= 0.44 all along); with dt_out = 400 it
    fails at once ("non-finite value: ... at t = 23.5", 0 steps)."""
    sphere = nhs.study("rolling-sphere")
    fine = sphere.run(t_end=400, dt_out=100)
    assert fine.summary["completed"]
    coarse = sphere.run(t_end=400, dt_out=400)
    assert coarse.summary["completed"]
    for c in ("phi", "theta", "psi", "x", "y"):
        assert float(coarse[c][-1]) == pytest.approx(float(fine[c][-1]), rel=1e-6, abs=1e-6)
