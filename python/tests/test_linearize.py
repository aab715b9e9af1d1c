"""System.linearize and System.stability (docs/linearization.md).

References: the rolling coin's upright spectrum 0, +-sqrt(-k(V)) with
k(V) = (A (A + m R^2) (V/R)^2 / B - m g R) / (B + m R^2) and its threshold
V_c = R sqrt(m g R B / (A (A + m R^2))) (Neimark and Fufaev 1972, ch. III;
derived in docs/linearization.md), in double and mp50; the sleigh's
straight-line eigenvalue -m a V/(I + m a^2); and the refusals.
"""

from __future__ import annotations

import os

import mpmath
import pytest

import nhs

HERE = os.path.dirname(os.path.abspath(__file__))
COIN = os.path.join(HERE, "..", "..", "examples", "rolling-coin.toml")
SLEIGH = os.path.join(HERE, "..", "..", "examples", "chaplygin-sleigh.toml")


def coin_k(V, m=1, R=1, A=0.5, B=0.25, g=9.81):
    return (A * (A + m * R * R) * (V / R) ** 2 / B - m * g * R) / (B + m * R * R)


def test_coin_spectrum_double():
    lin = nhs.System(COIN).linearize("upright", at={"V": 3})
    w = coin_k(3.0) ** 0.5
    ev = lin["eigenvalues"]
    assert len(ev) == 3
    assert ev[0] == pytest.approx(complex(0, w), abs=1e-12)
    assert abs(ev[1]) < 1e-12
    assert ev[2] == pytest.approx(complex(0, -w), abs=1e-12)
    assert lin["cyclic"] == ["x", "y", "psi", "phi"]
    assert lin["verdict"].startswith("linearly stable")
    assert len(lin["jacobian"]) == 8 and isinstance(lin["jacobian"][0][0], float)
    # The per-eigenvalue verdicts: each eigenvalue's error estimate is a
    # number, and the three counts cover the spectrum.
    assert lin["unstable"] + lin["marginal"] + lin["undecided"] == 3 and lin["undecided"] == 0
    assert len(lin["error_bounds"]) == 3 and all(0 <= b < 1e-10 for b in lin["error_bounds"])


def test_coin_threshold_mp50():
    mpmath.mp.dps = 60
    try:
        s = nhs.System(COIN).stability("upright", 0.5, 4, points=9, precision="mp50")
        (c,) = s["crossings"]
        m, R, A, B, g = (mpmath.mpf(x) for x in ("1", "1", "0.5", "0.25", "9.81"))
        Vc = R * mpmath.sqrt(m * g * R * B / (A * (A + m * R * R)))
        assert abs(c["at"] - Vc) < mpmath.mpf("1e-40")
        assert c["kind"] == "real" and c["unstable_below"] == 1 and c["unstable_above"] == 0
        assert s["undecided"] == []
    finally:
        mpmath.mp.dps = 15


def test_sleigh_eigenvalue_with_params():
    lin = nhs.System(SLEIGH).linearize("straight", at={"V": 2}, params={"m": 1.7, "a": 0.45})
    (ev,) = lin["eigenvalues"]
    assert ev.real == pytest.approx(-1.7 * 0.45 * 2 / (0.5 + 1.7 * 0.45**2), rel=1e-13)
    assert lin["verdict"] == "asymptotically stable"


def test_mp50_numbers_keep_their_digits_whatever_the_callers_mp_prec():
    """mpmath.mp.prec left at its default 53 bits by the caller: the
    sleigh's straight-line eigenvalue at V = 1.3 with m = 2, a = 0.3,
    I = 0.7 is -m a V/(I + m a^2) = -0.78/0.88 = -39/44, to 48 digits in
    mp50 (168 bits); stability's crossing at V = 0 and its eigenvalues too."""
    assert mpmath.mp.prec == 53
    params = {"m": "2", "a": "0.3", "I": "0.7"}
    lin = nhs.System(SLEIGH).linearize("straight", at={"V": "1.3"}, precision="mp50", params=params)
    (ev,) = lin["eigenvalues"]
    assert mpmath.mp.prec == 53
    assert ev.real._mpf_[3] > 100 and ev.imag == 0  # the mantissa's bits: 53 at most when rounded
    with mpmath.workdps(60):
        assert abs(ev.real - mpmath.mpf(-39) / 44) < mpmath.mpf("1e-48")
        x = lin["x"]
        assert abs(x[3] - mpmath.mpf("1.3")) < mpmath.mpf("1e-48")
    s = nhs.System(SLEIGH).stability("straight", "-0.45", "0.8", points=6, precision="mp50", params=params)
    (c,) = s["crossings"]
    with mpmath.workdps(60):
        assert abs(c["at"]) < mpmath.mpf("1e-40")


@pytest.mark.parametrize("caller", [{"prec": 53}, {"dps": 100}], ids=["prec53", "dps100"])
def test_mp50_results_carry_168_bits_whatever_the_callers_mp_precision(caller):
    """The caller's mpmath precision (its default 53 bits, or 100 digits)
    neither rounds nor pads the results: the mp50 eigenvalue, state and
    residuals are 168-bit numbers (nhs.binary_digits()), within 1e-48 of
    the same linearization in mp100 (334 bits) and of the sleigh's closed
    form -m a V/(I + m a^2) = -39/44 (m = 2, a = 0.3, I = 0.7, V = 1.3);
    stability's crossing and bracket in mp50 too."""
    params = {"m": "2", "a": "0.3", "I": "0.7"}
    bits = nhs._core.binary_digits()["mp50"]
    sleigh = nhs.System(SLEIGH)
    saved = mpmath.mp.prec
    try:
        if "prec" in caller:
            mpmath.mp.prec = caller["prec"]
        else:
            mpmath.mp.dps = caller["dps"]
        lin = sleigh.linearize("straight", at={"V": "1.3"}, precision="mp50", params=params)
        ref = sleigh.linearize("straight", at={"V": "1.3"}, precision="mp100", params=params)
        scan = sleigh.stability("straight", "-0.45", "0.8", points=6, precision="mp50", params=params)
    finally:
        mpmath.mp.prec = saved
    (ev,), (ev100,) = lin["eigenvalues"], ref["eigenvalues"]
    # the mantissa's bit count: at most 168 (the value is mp50's), and more
    # than 53 (it was not rounded to the caller's default precision)
    assert 53 < ev.real._mpf_[3] <= bits
    assert all(x == 0 or 53 < x._mpf_[3] <= bits for x in lin["x"])
    with mpmath.workprec(400):
        assert abs(ev.real - mpmath.mpf(-39) / 44) < mpmath.mpf("1e-48")
        assert abs(ev.real - ev100.real) < mpmath.mpf("1e-48")
        assert max(abs(a - b) for a, b in zip(lin["x"], ref["x"])) < mpmath.mpf("1e-48")
        assert abs(lin["x"][3] - mpmath.mpf("1.3")) < mpmath.mpf("1e-48")
        (c,) = scan["crossings"]
        assert abs(c["at"]) < mpmath.mpf("1e-40")
        lo, hi = c["bracket"]
        assert lo <= c["at"] <= hi and all(x == 0 or x._mpf_[3] <= bits for x in (lo, hi))


def test_refusals():
    coin = nhs.System(COIN)
    with pytest.raises(nhs.UsageError, match="no steady family 'sideways'"):
        coin.linearize("sideways", at={"V": 1})
    with pytest.raises(nhs.UsageError, match="needs a value of 'V'"):
        coin.linearize("upright")
    with pytest.raises(nhs.UsageError, match="directions off C"):
        coin.linearize("upright", at={"V": 1}, formulation="second-kind")
