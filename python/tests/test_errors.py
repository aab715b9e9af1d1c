"""Each error type, with its message.

Reference: the CLI on the same input. Its exit code says which exception
(2 usage -> nhs.UsageError, 3 invalid state -> nhs.InvalidState,
4 integration -> nhs.IntegrationError; README/docs/cli.md) and its
`nhs: error: ...` line is the message (docs/python.md: "the same text as the
tool's `nhs: error: ...` line").
"""

from __future__ import annotations

import inspect
import math
import os

import numpy as np
import pytest

import nhs

SKATE = nhs.study("skate")
SLEIGH = nhs.load(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples",
                               "chaplygin-sleigh.toml"))
HALF_PI = repr(math.pi / 2)

# (id, the CLI's arguments, the same call from Python, the expected class,
#  the expected InvalidState.condition or None)
CASES = [
    ("unknown-study", ["accel", "skates"], lambda t: nhs.study("skates"), nhs.UsageError, None),
    ("unknown-formulation", ["accel", "skate", "--formulation", "third-kind"],
     lambda t: SKATE.accel(formulation="third-kind"), nhs.UsageError, None),
    ("unknown-precision", ["accel", "skate", "--precision", "mp60"],
     lambda t: SKATE.accel(precision="mp60"), nhs.UsageError, None),
    ("unknown-precision-run", ["run", "skate", "--precision", "quad"],
     lambda t: SKATE.run(precision="quad"), nhs.UsageError, None),
    ("unknown-stepper", ["run", "skate", "--stepper", "rk4"],
     lambda t: SKATE.run(stepper="rk4"), nhs.UsageError, None),
    ("malformed-number", ["accel", "skate", "--q", "1.2.3,0,0", "--qdot", "1,0,0"],
     lambda t: SKATE.accel(q=["1.2.3", 0, 0], qdot=[1, 0, 0]), nhs.UsageError, None),
    ("malformed-number-mp50", ["accel", "skate", "--precision", "mp50", "--q", "0,0,0", "--qdot", "1,0,1e"],
     lambda t: SKATE.accel(q=[0, 0, 0], qdot=["1", "0", "1e"], precision="mp50"), nhs.UsageError, None),
    ("malformed-parameter", ["accel", "skate", "--param", "m=abc"],
     lambda t: SKATE.accel(params={"m": "abc"}), nhs.UsageError, None),
    ("wrong-length-q", ["accel", "skate", "--q", "0,0", "--qdot", "1,0,0"],
     lambda t: SKATE.accel(q=[0, 0], qdot=[1, 0, 0]), nhs.UsageError, None),
    ("wrong-length-z", ["accel", "skate", "--q", "0,0,0", "--z", "1,0,0"],
     lambda t: SKATE.accel(q=[0, 0, 0], z=[1, 0, 0]), nhs.UsageError, None),
    ("wrong-length-q0-run", ["run", "skate", "--q", "0,0,0,0", "--qdot", "1,0,0"],
     lambda t: SKATE.run(q0=[0, 0, 0, 0], qdot0=[1, 0, 0]), nhs.UsageError, None),
    ("unknown-parameter", ["accel", "skate", "--param", "mass=2"],
     lambda t: SKATE.accel(params={"mass": 2}), nhs.UsageError, None),
    ("non-positive-dt-out", ["run", "skate", "--dt-out", "-1"],
     lambda t: SKATE.run(dt_out=-1), nhs.UsageError, None),
    ("missing-file", ["accel", "/nonexistent/system.toml"],
     lambda t: nhs.load("/nonexistent/system.toml"), nhs.UsageError, None),
    ("off-C", ["accel", "skate", "--q", "0,0,0", "--qdot", "0,1,0"],
     lambda t: SKATE.accel(q=[0, 0, 0], qdot=[0, 1, 0]), nhs.InvalidState, "off the constraint manifold C"),
    ("off-C-mp50", ["accel", "skate", "--precision", "mp50", "--q", "0,0,0", "--qdot", "1,1e-9,0"],
     lambda t: SKATE.accel(q=[0, 0, 0], qdot=["1", "1e-9", "0"], precision="mp50"), nhs.InvalidState,
     "off the constraint manifold C"),
    ("off-C-run", ["run", "skate", "--q", "0,0,0", "--qdot", "0,1,0"],
     lambda t: SKATE.run(q0=[0, 0, 0], qdot0=[0, 1, 0]), nhs.InvalidState, "off the constraint manifold C"),
    # docs/studies.md: the skate's Voronec split y_dot = tan(theta) x_dot is
    # singular at cos(theta) = 0
    ("singular-voronec", ["accel", "skate", "--formulation", "voronec", "--q", f"0,0,{HALF_PI}", "--z", "1,0.5"],
     lambda t: SKATE.accel(q=[0, 0, math.pi / 2], z=[1, 0.5], formulation="voronec"), nhs.InvalidState,
     "singular dependent block of dC/dqdot"),
    # docs/studies.md: the rolling sphere's Euler-angle chart at sin(theta) = 0
    ("singular-sphere", ["accel", "rolling-sphere", "--q", "0,0,0,0,0", "--z", "1,0.5,0.25"],
     lambda t: nhs.study("rolling-sphere").accel(q=[0, 0, 0, 0, 0], z=[1, 0.5, 0.25]), nhs.InvalidState,
     "Euler-angle chart singular (sin theta = 0: phi and psi turn about one axis)"),
    # docs/studies.md: parallel points at rest, v1 = v2 = 0
    ("singular-rank-loss", ["accel", "parallel-points", "--q", "0,0,0,1", "--qdot", "0,0,0,0"],
     lambda t: nhs.study("parallel-points").accel(q=[0, 0, 0, 1], qdot=[0, 0, 0, 0]), nhs.InvalidState,
     "rank loss of dC/dqdot"),
    # docs/studies.md: linear-bipendulum at m0 = 0, y0 undetermined
    ("singular-undetermined", ["accel", "linear-bipendulum", "--formulation", "udwadia-kalaba", "--param", "m0=0"],
     lambda t: nhs.study("linear-bipendulum").accel(formulation="udwadia-kalaba", params={"m0": 0}),
     nhs.InvalidState, None),
    ("max-rhs-calls", ["run", "skate", "--t-end", "10", "--max-rhs-calls", "100"],
     lambda t: SKATE.run(t_end=10, max_rhs_calls=100), nhs.IntegrationError, None),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_error_equals_cli(tools, case):
    _, args, call, expected, condition = case
    p = tools.cli(*args)
    assert tools.exit_exception.get(p.returncode) is expected, (p.returncode, p.stderr)
    message = tools.error_line(p.stderr)
    with pytest.raises(expected) as e:
        r = call(tools)
        getattr(r, "qddot", None)
    assert type(e.value) is expected
    assert isinstance(e.value, nhs.Error)
    assert isinstance(e.value, ArithmeticError if expected is nhs.IntegrationError else ValueError)
    assert str(e.value) == message
    if expected is nhs.InvalidState:
        assert isinstance(e.value.condition, str) and e.value.condition
        if condition is not None:
            assert e.value.condition == condition
        assert e.value.condition in str(e.value) or e.value.condition == "off the constraint manifold C"


def test_messages_name_what_is_wrong(tools):
    """The messages themselves (not only their equality with the CLI's)."""
    with pytest.raises(nhs.UsageError, match=r"^unknown study 'skates' \(known: skate, rolling-disc,"):
        nhs.study("skates")
    with pytest.raises(nhs.UsageError, match=r"^unknown formulation 'third-kind' \(known: first-kind,"):
        SKATE.accel(formulation="third-kind")
    with pytest.raises(nhs.UsageError, match=r"^unknown precision 'mp60' \(known: double, long-double, "
                                              r"float128, mp50, mp100\)$"):
        SKATE.accel(precision="mp60")
    with pytest.raises(nhs.UsageError, match=r"malformed number '1\.2\.3'"):
        SKATE.accel(q="1.2.3,0,0", qdot="1,0,0")
    with pytest.raises(nhs.UsageError, match=r"has 2 values, study 'skate' has n = 3 \(x, y, theta\)"):
        SKATE.accel(q=[0, 0], qdot=[1, 0, 0])
    with pytest.raises(nhs.UsageError, match=r"^study 'skate' has no parameter 'mass' \(known: m, I, g\)$"):
        SKATE.accel(params={"mass": 2})
    with pytest.raises(nhs.InvalidState, match=r"^state off the constraint manifold C: C = \(-1\) exceeds "
                                               r"the tolerance"):
        SKATE.accel(q=[0, 0, 0], qdot=[0, 1, 0])


@pytest.mark.parametrize("value,shown", [(True, r"True \(bool\)"), (None, r"None \(NoneType\)")])
def test_python_only_argument_errors(value, shown):
    """Arguments the CLI cannot be given: bool and None items."""
    expected = r"expected a number \(an int, a float, a decimal str or an mpmath.mpf\), got "
    with pytest.raises(nhs.UsageError, match=rf"^q: {expected}{shown}$"):
        SKATE.accel(q=[value, 0, 0], qdot=[1, 0, 0])
    with pytest.raises(nhs.UsageError, match=rf"^q0: {expected}{shown}$"):
        SKATE.run(q0=[value, 0, 0], qdot0=[1, 0, 0])
    with pytest.raises(nhs.UsageError, match=r"^q: empty vector$"):
        SKATE.accel(q=[], qdot=[1, 0, 0])
    with pytest.raises(nhs.UsageError, match=r"^field: unknown field backend 'fast' \(known: library, generated, traced, compiled\)"):
        SKATE.accel(field="fast")
    with pytest.raises(nhs.UsageError, match=r"a system file's name ends in \.toml$"):
        nhs.load("/tmp/system.txt")


def _kept_rows_equal(tools, run, csv_path):
    header, rows = tools.read_csv(csv_path)
    assert header == run.columns
    assert len(rows) == len(run) >= 2
    for k, c in enumerate(header):
        values = [float(r[k]) for r in rows]
        assert np.array(values).tobytes() == run[c].tobytes(), c


def test_integration_error_keeps_rows(tools, tmp_path):
    """max_rhs_calls: nhs.IntegrationError whose .run holds the rows computed
    before, the rows `nhs run --out` keeps."""
    with pytest.raises(nhs.IntegrationError) as e:
        SKATE.run(t_end=10, dt_out=0.1, max_rhs_calls=200)
    run = e.value.run
    assert isinstance(run, nhs.Run)
    assert run.summary["completed"] is False and run.summary["failure"] == str(e.value)
    assert str(e.value).startswith("more than 200 vector-field evaluations before t = ")
    assert run.summary["rhs_calls"] == 201
    assert len(run) == run.summary["samples"] and 0 < float(run.t[-1]) < 10
    out = tmp_path / "kept.csv"
    p = tools.cli("run", "skate", "--t-end", "10", "--dt-out", "0.1", "--max-rhs-calls", "200", "--out", out)
    assert p.returncode == 4 and tools.error_line(p.stderr) == str(e.value)
    _kept_rows_equal(tools, run, out)


def test_wall_time_budget_keeps_rows():
    """max_wall_time: a run that would take hours in mp50 (skate to t = 1e6)
    stops with nhs.IntegrationError naming the budget, the rows before it in
    .run, as `nhs run --max-wall-time` exits 4 with its rows kept. The
    budget is what ends it: the run's RHS budget and row budget are far."""
    with pytest.raises(nhs.IntegrationError) as e:
        SKATE.run(t_end=1e6, dt_out=1, precision="mp50", max_wall_time=1)
    run = e.value.run
    assert "wall-time budget of 1 s (--max-wall-time) exceeded" in str(e.value)
    assert run.summary["completed"] is False and run.summary["failure"] == str(e.value)
    assert len(run) == run.summary["samples"] >= 1
    assert float(run.t[-1]) < 1e6


def test_singular_set_reached_during_run(tools, tmp_path):
    """A run that reaches a singular set: nhs.InvalidState with .condition and
    .run. The bipendulum's default-like motion under g = 2.2 (docs/cli.md)
    has margin_72b = max(|y1d|, |y2d|) = 0.72 at t = 0, falling below 0.65
    before t = 20."""
    bip = nhs.study("bipendulum")
    kwargs = dict(t_end=20, dt_out=0.5, params={"g": "2.2"}, q0=[1.2, 0.3, -0.9, -0.5], z0=[0.4, 0.6, -0.8],
                  singular_margin=0.65)
    with pytest.raises(nhs.InvalidState) as e:
        bip.run(**kwargs)
    assert e.value.condition == "P0 undefined (000 eq. 72b: y1d = y2d = 0)"
    run = e.value.run
    assert run.summary["completed"] is False and run.summary["condition"] == e.value.condition
    assert min(run["margin_72b"]) > 0.65 and run["margin_72b"][0] == pytest.approx(0.72)
    out = tmp_path / "kept.csv"
    p = tools.cli("run", "bipendulum", "--param", "g=2.2", "--q", "1.2,0.3,-0.9,-0.5", "--z", "0.4,0.6,-0.8",
                  "--t-end", "20", "--dt-out", "0.5", "--singular-margin", "0.65", "--out", out)
    assert p.returncode == 3 and tools.error_line(p.stderr) == str(e.value)
    _kept_rows_equal(tools, run, out)


def test_bad_toml_is_a_usage_error_with_position(tools, tmp_path):
    # TOML syntax: an array left open
    bad = tmp_path / "syntax.toml"
    bad.write_text('name = "bad"\ncoordinates = ["x", "y"\n')
    with pytest.raises(nhs.UsageError) as e:
        nhs.load(bad)
    assert str(e.value).startswith(f"{bad}:2:") and "TOML syntax" in str(e.value)
    p = tools.cli("accel", bad)
    assert p.returncode == 2 and tools.error_line(p.stderr) == str(e.value)
    # an unknown name inside an expression: placed at its first character
    text = (tools.source_dir / "examples" / "knife-edge-incline.toml").read_text()
    good = 'blade = "x_dot*sin(theta) - y_dot*cos(theta)"'
    assert good in text
    text = text.replace(good, good.replace("cos(theta)", "cos(thet)"))
    line_no = next(k for k, l in enumerate(text.splitlines(), 1) if l.startswith("blade = "))
    col = text.splitlines()[line_no - 1].index("thet)") + 1
    bad = tmp_path / "name.toml"
    bad.write_text(text)
    with pytest.raises(nhs.UsageError) as e:
        nhs.System(str(bad))
    assert str(e.value).startswith(f"{bad}:{line_no}:{col}: constraint blade: unknown name 'thet'")
    p = tools.cli("accel", bad)
    assert p.returncode == 2 and tools.error_line(p.stderr) == str(e.value)


def test_check_output_that_cannot_be_written_is_an_io_error(tools, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    knife = nhs.load(tools.path("examples/knife-edge-incline.toml"))
    with pytest.raises(nhs.IOError) as e:
        knife.check(precision="double", states=2, quick=True, out_dir=blocker / "sub")
    assert isinstance(e.value, OSError) and isinstance(e.value, nhs.Error)
    assert str(blocker / "sub") in str(e.value) and "cannot create" in str(e.value)


# --- arguments of the wrong kind (docs/python.md, "Numbers", "Errors") --------

# Vectors that Python could iterate, but whose items are not the numbers
# written: bytes give byte values (b"123" -> 49, 50, 51), a dict its keys, a
# set an order of its own, a masked array its data under the mask.
WRONG_VECTORS = [
    (b"123", r"got bytes \(bytes are read as byte values"),
    (bytearray(b"123"), r"got bytearray"),
    ({0.0: 1, 0.5: 2, 0.25: 3}, r"got dict \(a vector is ordered: give a list\)"),
    ({0.0, 0.5, 0.25}, r"got set \(a vector is ordered: give a list\)"),
    (np.ma.array([0.0, 0.5, 0.25], mask=[False, True, False]), r"got a masked array \(its mask would be ignored"),
    (np.ma.array([0.0, 0.5, 0.25]), r"got a masked array"),
    (np.array([[0.0, 0.5, 0.25]]), r"expected a vector, got an array of 2 dimensions"),
    (np.array([0, 0.5, 0.25], dtype=complex), r"got an array of dtype complex128"),
    (np.array([True, False, True]), r"got an array of dtype bool"),
    (np.array([b"0", b"0", b"1"]), r"got an array of dtype \|S1"),
    (3.0, r"got float"),
    ((x for x in [0.0, 0.5, 0.25]), r"got generator"),
]


@pytest.mark.parametrize("value,message", WRONG_VECTORS, ids=[type(v).__name__ + str(k)
                                                             for k, (v, _) in enumerate(WRONG_VECTORS)])
def test_a_vector_of_the_wrong_kind_is_refused_by_name(value, message):
    with pytest.raises(nhs.UsageError, match=r"^q: (expected a list, tuple or 1-D NumPy array of numbers, )?"
                                             + message):
        SKATE.accel(q=value, z=[1, 0.5])
    with pytest.raises(nhs.UsageError, match=r"^q0: (expected a list, tuple or 1-D NumPy array of numbers, )?"
                                             + message):
        SKATE.run(q0=value, z0=[1, 0.5], t_end=0.5)


@pytest.mark.parametrize("item,shown", [(b"1", r"b'1' \(bytes\)"), (1 + 2j, r"\(1\+2j\) \(complex\)"),
                                        ([1], r"\[1\] \(list\)"), (np.bool_(True), r"True \(numpy.bool_\)"),
                                        (np.complex128(1), r"\(1\+0j\) \(numpy.complex128\)")])
def test_an_item_that_is_not_a_number_is_refused_by_name(item, shown):
    with pytest.raises(nhs.UsageError, match=r"^qdot: expected a number \(an int, a float, a decimal str or an "
                                             r"mpmath.mpf\), got " + shown + "$"):
        SKATE.accel(q=[0, 0, 0], qdot=[1, 0, item])
    with pytest.raises(nhs.UsageError, match=r"^qdot: an item holds a comma, '0,5': give one number an item$"):
        SKATE.accel(q=[0, 0, 0], qdot=[1, "0,5"])


def test_vectors_of_the_right_kind_read_the_same_numbers():
    """lists, tuples, NumPy arrays of ints, floats (float32, float64, long
    double) or decimal strings, mixed items, and the CLI's comma-separated
    text: the same state."""
    reference = SKATE.accel(q=[0, 0.5, 0.25], z=[1, 0.5]).strings
    for q in ((0, 0.5, 0.25), np.array([0, 0.5, 0.25]), np.array([0, 0.5, 0.25], dtype=np.float32),
              np.array([0, 0.5, 0.25], dtype=np.longdouble), np.array(["0", "0.5", "0.25"]),
              np.array([0, 0.5, 0.25], dtype=object), [np.int64(0), np.float64(0.5), "0.25"], "0,0.5,0.25"):
        assert SKATE.accel(q=q, z=np.array([1, 0.5])).strings == reference, repr(q)
    assert SKATE.accel(q=np.array([0, 2, 1]), z=(1, 0)).strings["q"] == ["0", "2", "1"]


WRONG_TYPES = [
    ("formulation", lambda: SKATE.accel(formulation=3), r"^formulation: expected a str, got int$"),
    ("formulation-run", lambda: SKATE.run(formulation=3), r"^formulation: expected a str, got int$"),
    ("precision", lambda: SKATE.accel(precision=50), r"^precision: expected a str, got int$"),
    ("precision-run", lambda: SKATE.run(precision=None), r"^precision: expected a str, got NoneType$"),
    ("stepper", lambda: SKATE.run(stepper=5), r"^stepper: expected a str, got int$"),
    ("field", lambda: SKATE.accel(field=True), r"^field: expected a str, got bool$"),
    ("project", lambda: SKATE.run(project="no"), r"^project: expected a bool, got str$"),
    ("max_rhs_calls", lambda: SKATE.run(max_rhs_calls=1.5), r"^max_rhs_calls: expected an int, got float$"),
    ("max_rhs_calls-str", lambda: SKATE.run(max_rhs_calls="100"), r"^max_rhs_calls: expected an int, got str$"),
    ("max_rows", lambda: SKATE.run(max_rows=0), r"^max_rows: expected an int of at least 1, got 0$"),
    ("max_wall_time", lambda: SKATE.run(max_wall_time=-1),
     r"^max_wall_time: expected a positive number of seconds, got '-1'$"),
    ("max_wall_time-str", lambda: SKATE.run(max_wall_time="soon"), r"^max_wall_time: "),
    ("motion", lambda: SKATE.run(motion=1.0), r"^motion: expected a str \(a motion's name\) or an int"),
    ("t_end", lambda: SKATE.run(t_end=[1]), r"^t_end: expected a number .*, got \[1\] \(list\)$"),
    ("dt_out", lambda: SKATE.run(dt_out=None), r"^dt_out: expected a number .*, got None \(NoneType\)$"),
    ("rtol", lambda: SKATE.run(rtol=b"1e-9"), r"^rtol: expected a number .*, got b'1e-9' \(bytes\)$"),
    ("params", lambda: SKATE.accel(params=[("m", 2)]), r"^params: expected a dict \{name: value\}, got list$"),
    ("params-key", lambda: SKATE.accel(params={1: 2}), r"^params: a parameter's name is a str, got 1$"),
    ("params-value", lambda: SKATE.accel(params={"m": b"2"}), r"^params\[m\]: expected a number"),
    ("system", lambda: nhs.System(3), r"^name: expected a str \(a study id or a system file's path\), got int$"),
    ("study", lambda: nhs.study(b"skate"), r"^name: expected a str"),
    ("load", lambda: nhs.load(3), r"^path: expected a str or os.PathLike, got int$"),
    ("states", lambda: SKATE.check(states="5"), r"^states: expected an int, got str$"),
    ("quick", lambda: SKATE.check(quick="yes"), r"^quick: expected a bool, got str$"),
    ("jobs", lambda: SKATE.check(jobs=-1), r"^jobs: expected an int of at least 0, got -1$"),
    ("check-precision", lambda: SKATE.check(precision=["double"]), r"^precision: expected a str, got list$"),
    ("out_dir", lambda: SKATE.check(out_dir=3), r"^out_dir: expected a str or os.PathLike, got int$"),
    ("linearize-steady", lambda: SLEIGH.linearize(3, at={"V": 1}), r"^steady: expected a str, got int$"),
    ("linearize-at", lambda: SLEIGH.linearize("straight", at=[("V", 1)]),
     r"^at: expected a dict \{name: value\}, got list$"),
    ("linearize-at-bool", lambda: SLEIGH.linearize("straight", at={"V": True}),
     r"^at\[V\]: expected a number .*, got True \(bool\)$"),
    ("linearize-at-zero", lambda: SLEIGH.linearize("straight", at=0), r"^at: expected a dict \{name: value\}, got int$"),
    ("linearize-formulation", lambda: SLEIGH.linearize("straight", at={"V": 1}, formulation=None),
     r"^formulation: expected a str, got NoneType$"),
    ("linearize-precision", lambda: SLEIGH.linearize("straight", at={"V": 1}, precision=50),
     r"^precision: expected a str, got int$"),
    ("stability-points-float", lambda: SLEIGH.stability("straight", -1, 1, points=10.0),
     r"^points: expected an int, got float$"),
    ("stability-points-huge", lambda: SLEIGH.stability("straight", -1, 1, points=2**64),
     r"^points: expected an int of at least 1 and at most 9223372036854775807, got 18446744073709551616$"),
    ("stability-vary", lambda: SLEIGH.stability("straight", -1, 1, vary=["V"]), r"^vary: expected a str, got list$"),
    ("stability-csv", lambda: SLEIGH.stability("straight", -1, 1, csv=3), r"^csv: expected a str, got int$"),
    ("stability-start", lambda: SLEIGH.stability("straight", None, 1), r"^start: expected a number"),
    ("accel-unknown-keyword", lambda: SKATE.accel(qdot0=[1, 0, 0]),
     r"^accel\(\): got an unexpected keyword argument 'qdot0' \(its arguments: q, qdot, z, formulation,"),
    ("run-unknown-keyword", lambda: SKATE.run(x0=[0, 0, 0]),
     r"^run\(\): got an unexpected keyword argument 'x0' \(its arguments: t_end, dt_out,"),
    ("linearize-missing", lambda: SLEIGH.linearize(), r"^linearize\(\): missing a required argument: 'steady'"),
    ("field-surplus", lambda: SKATE.field(None, "double", None, None, 5), r"^field\(\): too many positional"),
    ("run-q-and-q0", lambda: SKATE.run(q=[0, 0, 0], q0=[0, 0, 0]),
     r"^run\(\): q0 and q are one argument \(the initial q\): give one$"),
    ("run-z-type", lambda: SKATE.run(z={1, 2}), r"^z: expected a list, tuple or 1-D NumPy array of numbers, got set"),
]


@pytest.mark.parametrize("case", WRONG_TYPES, ids=[c[0] for c in WRONG_TYPES])
def test_an_argument_of_the_wrong_type_is_a_usage_error_naming_it(case):
    """Not pybind11's RuntimeError("Unable to cast ...") or TypeError: the
    module's UsageError, naming the argument and the type expected."""
    _, call, message = case
    with pytest.raises(nhs.UsageError, match=message):
        call()


def test_run_takes_accels_names_for_the_state():
    """run(q=, qdot=) and run(q=, z=) are run(q0=, qdot0=) and run(q0=, z0=):
    the same rows."""
    a = SKATE.accel(q=[0, 0.5, 0.25], z=[1.5, -0.5])
    by_z = SKATE.run(t_end=0.5, dt_out=0.25, q=[0, 0.5, 0.25], z=[1.5, -0.5])
    by_z0 = SKATE.run(t_end=0.5, dt_out=0.25, q0=[0, 0.5, 0.25], z0=[1.5, -0.5])
    by_qdot = SKATE.run(t_end=0.5, dt_out=0.25, q=a.q, qdot=a.qdot)
    for c in by_z.columns:
        assert list(by_z[c]) == list(by_z0[c]) == list(by_qdot[c]), c


def test_methods_have_python_signatures():
    """inspect.signature works on the methods (accel and field are Python
    methods over the C++ ones) and names accel's arguments in order."""
    accel = inspect.signature(nhs.System.accel)
    assert list(accel.parameters) == ["self", "q", "qdot", "z", "formulation", "precision", "params", "field",
                                      "manifold_tol", "singular_margin", "jacobian", "t"]
    assert accel.parameters["precision"].default == "double"
    assert "The accelerations at a state" in nhs.System.accel.__doc__
    assert list(inspect.signature(nhs.System.field).parameters) == ["self", "formulation", "precision", "params",
                                                                   "field"]
    run = inspect.signature(nhs.System.run)
    assert {"q0", "qdot0", "z0", "q", "qdot", "z"} <= set(run.parameters)


def test_docstrings_name_exceptions_that_exist():
    """Every nhs.<Name> that a docstring of the module names is an attribute
    of nhs (classify's named nhs.SingularState, which is not)."""
    import re
    named = set()
    for obj in [nhs, nhs.System, nhs.Run] + [getattr(nhs.System, k) for k in dir(nhs.System)]:
        named |= set(re.findall(r"\bnhs\.([A-Z][A-Za-z_]+)", getattr(obj, "__doc__", None) or ""))
    assert named and all(hasattr(nhs, name) for name in named), sorted(n for n in named if not hasattr(nhs, n))
