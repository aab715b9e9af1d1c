"""System.field: the vector field as a callable for SciPy and the user's loops.

References: System.accel at the same state (the same formulation and field
backend, bit for bit in double and string for string in mp50), `nhs run`
(the same motion integrated by SciPy's DOP853 on the field), and the
errors of the module (docs/python.md).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import mpmath
import numpy as np
import pytest
from scipy.integrate import solve_ivp

import nhs

SOURCE_DIR = Path(os.environ.get("NHS_SOURCE_DIR") or Path(__file__).resolve().parents[2])
KNIFE = SOURCE_DIR / "examples" / "knife-edge-incline.toml"


def systems():
    return [nhs.study(s) for s in ("skate", "rolling-disc", "coaxial-discs", "bipendulum")] + [nhs.load(KNIFE)]


@pytest.mark.parametrize("field", [None, "library"])
def test_field_is_accel_bit_for_bit(field):
    """f(t, x) = (qdot, qddot) with qddot = accel(q, qdot).qddot, the same
    backend (its name too), at each system's default state and t ignored."""
    for system in systems():
        a = system.accel(field=field)
        f = system.field(field=field)
        assert (f.n, f.formulation, f.field) == (system.n, a.formulation, a.field)
        x = np.concatenate([a.q, a.qdot])
        for t in (0.0, 17.5):
            out = f(t, x)
            assert out.dtype == np.float64 and out.shape == (2 * system.n,)
            assert np.array_equal(out[:system.n], a.qdot)
            assert np.array_equal(out[system.n:], a.qddot), system.name
        # a list, and a strided view, read as the array
        assert np.array_equal(f(0, list(x)), out)
        wide = np.zeros(4 * system.n)
        wide[::2] = x
        assert np.array_equal(f(0, wide[::2]), out)


def test_accel_batch_is_the_field_row_by_row():
    rng = np.random.default_rng(20261128)
    for system in systems():
        f = system.field()
        a = system.accel()
        Q = a.q + 0.01 * rng.standard_normal((50, system.n))
        Qd = np.tile(a.qdot, (50, 1))
        B = f.accel_batch(Q, Qd)
        assert B.shape == (50, system.n)
        for i in range(50):
            assert np.array_equal(B[i], f(0, np.concatenate([Q[i], Qd[i]]))[system.n:])


def test_mp50_field_is_accel_string_for_string():
    skate = nhs.study("skate")
    a = skate.accel(precision="mp50")
    f = skate.field(precision="mp50")
    out = f(0, list(a.q) + list(a.qdot))
    assert all(isinstance(v, mpmath.mpf) for v in out)
    assert [str(v) for v in out[skate.n:]] == [str(v) for v in a.qddot]
    batch = f.accel_batch([list(a.q)], [list(a.qdot)])
    assert [str(v) for v in batch[0]] == [str(v) for v in a.qddot]


def test_solve_ivp_on_the_field_follows_nhs_run():
    """SciPy's DOP853 on System.field and nhs's own run of the same motion
    agree to their tolerances (an independent integrator)."""
    for name in ("skate", "rolling-disc"):
        system = nhs.study(name)
        run = system.run(t_end=3, dt_out=3, rtol=1e-12, atol=1e-12)
        names = list(system.coordinates) + [c + "_dot" for c in system.coordinates]
        x0 = np.array([run[c][0] for c in names])
        sol = solve_ivp(system.field(), (0, 3), x0, method="DOP853", rtol=1e-12, atol=1e-12)
        assert sol.success
        end = np.array([run[c][-1] for c in names])
        assert np.max(np.abs(sol.y[:, -1] - end)) < 1e-8, name


def test_bad_arguments_are_usage_errors():
    skate = nhs.study("skate")
    f = skate.field()
    with pytest.raises(nhs.UsageError, match=r"^x has 3 values, expected 2n = 6 \(q, qdot\)$"):
        f(0, np.zeros(3))
    with pytest.raises(nhs.UsageError, match=r"bytes are read as byte values"):
        f(0, b"123456")
    with pytest.raises(nhs.UsageError, match=r"masked array"):
        f(0, np.ma.masked_array(np.zeros(6), mask=[1, 0, 0, 0, 0, 0]))
    with pytest.raises(nhs.UsageError, match=r"^Q: expected an array of shape \(rows, 3\), got \(2, 2\)$"):
        f.accel_batch(np.zeros((2, 2)), np.zeros((2, 3)))
    with pytest.raises(nhs.UsageError, match=r"^Qdot has 1 rows, Q has 2$"):
        f.accel_batch(np.zeros((2, 3)), np.zeros((1, 3)))
    with pytest.raises(nhs.UsageError, match=r"unknown field backend 'fast'"):
        skate.field(field="fast")
    with pytest.raises(nhs.UsageError, match=r"built-in study 'skate'"):
        skate.field(field="traced")
    with pytest.raises(nhs.UsageError, match=r"unknown formulation"):
        skate.field(formulation="newton")


BATCH_NOT_REAL = [
    ("complex", np.array([[0, 0, 0.25 + 3j]]), r"^Q: expected an array of real numbers, got dtype complex128$"),
    ("bool", np.array([[True, False, True]]), r"^Q: expected an array of real numbers, got dtype bool$"),
    ("datetime64", np.zeros((1, 3), "M8[s]"), r"^Q: expected an array of real numbers, got dtype datetime64\[s\]$"),
    ("timedelta64", np.zeros((1, 3), "m8[s]"), r"^Q: expected an array of real numbers, got dtype timedelta64"),
    ("bytes", np.array([[b"0", b"1", b"0"]]), r"^Q: expected an array of real numbers, got dtype \|S1$"),
    ("complex-item", [[0, 0, 0.5 - 2j]], r"^Q\[0\]: expected a number .*\(complex\)$"),
    ("bool-item", [[0, True, 0]], r"^Q\[0\]: expected a number .*\(bool\)$"),
    ("complex-object", np.array([[0, 0, 1j]], dtype=object), r"^Q\[0\]: expected a number .*\(complex\)$"),
    ("a str", "0,0,0", r"^Q: expected a 2-D array of numbers \(rows, 3\), got str$"),
]


@pytest.mark.parametrize("precision", ["double", "long-double", "float128", "mp50", "mp100"])
@pytest.mark.parametrize("case", BATCH_NOT_REAL, ids=[c[0] for c in BATCH_NOT_REAL])
def test_accel_batch_refuses_what_is_not_real(precision, case):
    """As f(t, x) and every other vector argument: no silent cast (the
    imaginary part dropped, True read as 1, a date as its count)."""
    _, Q, message = case
    f = nhs.study("skate").field(precision=precision)
    with pytest.raises(nhs.UsageError, match=message):
        f.accel_batch(Q, np.array([[1.0, 0.0, 0.5]]))


@pytest.mark.parametrize("precision", ["double", "long-double", "float128", "mp50", "mp100"])
def test_accel_batch_shapes_in_every_precision(precision):
    """(N, n) for N = 0, 1, 3 rows, given as arrays or lists; each row is
    the field's own qddot."""
    f = nhs.study("rolling-disc").field(precision=precision)
    n = f.n
    a = nhs.study("rolling-disc").accel(precision=precision)
    for Q, Qd in ((np.zeros((0, n)), np.zeros((0, n))), ([], []), ([list(a.q)], [list(a.qdot)]),
                  ([list(a.q)] * 3, [list(a.qdot)] * 3)):
        B = f.accel_batch(Q, Qd)
        assert B.shape == (len(Q), n), (precision, B.shape)
        x = list(a.q) + list(a.qdot)
        for row in B:
            assert list(map(str, row)) == list(map(str, f(0, x)[n:]))


def test_non_finite_qddot_is_an_integration_error():
    f = nhs.study("skate").field()
    with pytest.raises(nhs.IntegrationError, match=r"qddot"):
        f(0, [0, 0, 0, 1e200, 0, 1e200])


def test_calls_from_threads_agree():
    """One Field shared by threads: batches without the GIL and calls with
    it, serialized by the Field, give the single-thread values."""
    f = nhs.load(KNIFE).field()  # a traced field: its interpreter has registers
    a = nhs.load(KNIFE).accel()
    Q, Qd = np.tile(a.q, (2000, 1)), np.tile(a.qdot, (2000, 1))
    expected = f.accel_batch(Q, Qd)
    x = np.concatenate([a.q, a.qdot])
    errors = []

    def work():
        try:
            for _ in range(5):
                if not np.array_equal(f.accel_batch(Q, Qd), expected):
                    errors.append("batch differs")
                if not np.array_equal(f(0, x)[len(a.q):], expected[0]):
                    errors.append("call differs")
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_jac_is_the_derivative_of_the_field():
    """Field.jac against central differences of the field itself (double,
    h = 1e-6: truncation ~1e-12, rounding ~1e-10), on a system file and a
    built-in study, at a state off the default one."""
    for name in (str(KNIFE), "rolling-disc"):
        f = nhs.System(name).field(formulation="second-kind")
        n = f.n
        rng = np.random.default_rng(7)
        x = rng.uniform(-1, 1, 2 * n)
        J = f.jac(0.0, x)
        assert J.shape == (2 * n, 2 * n) and J.dtype == np.float64
        h = 1e-6
        for j in range(2 * n):
            e = np.zeros(2 * n)
            e[j] = h
            column = (f(0.0, x + e) - f(0.0, x - e)) / (2 * h)
            assert np.allclose(J[:, j], column, rtol=1e-7, atol=1e-7), (name, j)
        # The top block is [0 I]: d(qdot)/d(q, qdot).
        assert np.array_equal(J[:n, :n], np.zeros((n, n)))
        assert np.array_equal(J[:n, n:], np.eye(n))


def test_jac_in_mp50_and_refused_for_another_formulation():
    f = nhs.System(str(KNIFE)).field(formulation="second-kind", precision="mp50")
    x = [mpmath.mpf("0.1"), mpmath.mpf("0.2"), mpmath.mpf("0.3"), mpmath.mpf("0.4"), mpmath.mpf("-0.1"), mpmath.mpf("0.5")]
    J = f.jac(0, x)
    assert J.shape == (6, 6) and J.dtype == object and isinstance(J[3, 0], mpmath.mpf)
    d = nhs.System(str(KNIFE)).field(formulation="second-kind")
    Jd = d.jac(0.0, np.array([float(v) for v in x]))
    assert np.allclose(np.array(J, dtype=float), Jd, rtol=1e-14, atol=1e-14)
    with pytest.raises(nhs.UsageError, match="Field.jac: the Jacobian is the second kind's"):
        nhs.System(str(KNIFE)).field(formulation="maggi").jac(0.0, np.zeros(6))


def test_radau_with_jac_follows_dop853():
    """An implicit method with the exact Jacobian reaches the same motion
    as DOP853 at tight tolerances, and calls jac."""
    f = nhs.System(str(KNIFE)).field(formulation="second-kind")
    a = nhs.System(str(KNIFE)).accel()
    x0 = np.concatenate([a.q, a.qdot])
    calls = []

    def jac(t, x):
        calls.append(t)
        return f.jac(t, x)

    ref = solve_ivp(f, (0, 2), x0, method="DOP853", rtol=1e-12, atol=1e-12)
    rad = solve_ivp(f, (0, 2), x0, method="Radau", jac=jac, rtol=1e-9, atol=1e-9)
    assert ref.success and rad.success
    assert calls
    assert np.allclose(rad.y[:, -1], ref.y[:, -1], rtol=1e-6, atol=1e-6)
