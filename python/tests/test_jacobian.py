"""System.accel(jacobian=True): the Jacobian of the first-order field.

References: the Chaplygin sleigh's straight-line rate d(omegadot)/d(omega)
= -m a v / (I + m a^2) (Neimark and Fufaev 1972, ch. III §3) in double and
mp50; the second kind's top block d(qdot)/d(q, qdot) = [0 I]; and central
differences of System.field, the same field evaluated as given, in double.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

import nhs

HERE = os.path.dirname(os.path.abspath(__file__))
SLEIGH = os.path.join(HERE, "..", "..", "examples", "chaplygin-sleigh.toml")


def test_sleigh_straight_line_rate():
    sleigh = nhs.System(SLEIGH)
    p = {k: float(v) for k, v in sleigh.parameters.items()}
    v = 0.7
    a = sleigh.accel(q=[0.1, -0.2, 0.3], z=[v, 0], formulation="first-kind", jacobian=True)
    assert a.jacobian_state == ["x", "y", "theta", "v", "omega"]
    assert a.jacobian.shape == (5, 5) and a.jacobian.dtype == np.float64
    rate = -p["m"] * p["a"] * v / (p["I"] + p["m"] * p["a"] ** 2)
    assert a.jacobian[4, 4] == pytest.approx(rate, rel=1e-14)
    mpmath = pytest.importorskip("mpmath")
    b = sleigh.accel(q=[0.1, -0.2, 0.3], z=["0.7", 0], formulation="first-kind", precision="mp50", jacobian=True)
    with mpmath.workdps(60):
        m, I, av = (mpmath.mpf(sleigh.parameters[k]) for k in ("m", "I", "a"))
        exact = -m * av * mpmath.mpf("0.7") / (I + m * av**2)
        assert abs(b.jacobian[4, 4] - exact) < mpmath.mpf("1e-45")


def test_second_kind_against_central_differences():
    disc = nhs.study("rolling-disc")
    a = disc.accel(formulation="second-kind", jacobian=True)
    n = disc.n
    J = a.jacobian
    assert a.jacobian_state == disc.coordinates + [c + "_dot" for c in disc.coordinates]
    assert np.array_equal(J[:n, :n], np.zeros((n, n))) and np.array_equal(J[:n, n:], np.eye(n))
    # Every column against central differences of System.field, which
    # evaluates the same field at x as given (off C too).
    f = disc.field(formulation="second-kind")
    x = np.concatenate([a.q, a.qdot]).astype(float)
    h = 1e-6
    for j in range(2 * n):
        up, down = x.copy(), x.copy()
        up[j] += h
        down[j] -= h
        column = (np.asarray(f(0.0, up)) - np.asarray(f(0.0, down))) / (2 * h)
        assert np.allclose(J[:, j], column, rtol=1e-7, atol=1e-8), (j, J[:, j], column)


def test_refused_for_a_formulation_that_is_not_traced():
    with pytest.raises(nhs.UsageError, match="not traced"):
        nhs.study("skate").accel(formulation="maggi", jacobian=True)
    with pytest.raises(nhs.UsageError):
        nhs.study("skate").accel(jacobian="yes")
    assert nhs.study("skate").accel().jacobian is None
