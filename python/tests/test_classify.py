"""System.classify: the constraint classification of `nhs list` from Python.

References, each analytic: the vertical rolling disc is completely
non-holonomic with growth vector (2, 3, 4) (Murray, Li, Sastry 1994,
ch. 7); the bipendulum's constraint is homogeneous of degree 2 in qdot,
so the Frobenius test does not apply; tests/systems/hidden-holonomic.toml
mixes the exact form d(phi - x) into two skate constraints, so that
(1 + y^2) ties - drive = (y^2 - 1)(phi_dot - x_dot) is integrable: the one
hidden holonomic constraint has the form nu proportional to (-1, 0, 0, 1)
and the combination mu proportional to (1 + y^2, -1).
"""

from __future__ import annotations

import os

import pytest

import nhs

HERE = os.path.dirname(os.path.abspath(__file__))
HIDDEN = os.path.join(HERE, "..", "..", "tests", "systems", "hidden-holonomic.toml")


def test_rolling_disc_is_completely_nonholonomic():
    c = nhs.study("rolling-disc").classify()
    assert [k["name"] for k in c["constraints"]] == nhs.study("rolling-disc").constraints
    for k in c["constraints"]:
        assert k["linear"] and k["homogeneous"] and k["degree"] == pytest.approx(1, abs=1e-12)
    f = c["frobenius"]
    assert f["done"] and f["growth"] == [2, 3, 4] and f["hidden_holonomic"] == 0 and f["combinations"] == []
    assert len(f["brackets"]) == 1 and len(f["brackets"][0]["constraint_forms"]) == 2


def test_a_nonlinear_constraint_skips_the_frobenius_test():
    c = nhs.study("bipendulum").classify()
    assert not c["constraints"][0]["linear"]
    assert c["constraints"][0]["degree"] == pytest.approx(2, abs=1e-12)
    assert not c["frobenius"]["done"] and "not linear" in c["frobenius"]["skipped"]


def test_a_hidden_holonomic_constraint_and_its_combination():
    mpmath = pytest.importorskip("mpmath")
    c = nhs.System(HIDDEN).classify()
    f = c["frobenius"]
    assert f["done"] and f["hidden_holonomic"] == 1 and f["growth"] == [2, 3]
    (k,) = f["combinations"]
    nu, mu = k["nu"], k["mu"]
    scale = max(abs(x) for x in nu)
    # The form is d(phi - x): (-1, 0, 0, 1) up to a factor, to mp100's round-off.
    assert abs(nu[1]) / scale < mpmath.mpf("1e-60") and abs(nu[2]) / scale < mpmath.mpf("1e-60")
    assert abs(nu[0] + nu[3]) / scale < mpmath.mpf("1e-60")
    # mu is (1 + y^2, -1) up to a factor, y at the first sample point.
    y = c["sample_points"][0][c["coordinates"].index("y")]
    assert abs(mu[0] / mu[1] + (1 + y * y)) < mpmath.mpf("1e-60")
