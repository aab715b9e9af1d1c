"""The Whipple bicycle (examples/bicycle/whipple-bicycle.toml) against the benchmark
of Meijaard, Papadopoulos, Ruina and Schwab, Proc. R. Soc. A 463 (2007)
1955-1982 (docs/bicycle.md).

Two independent references:
  - the printed Table 2: the entries of M, C1 and K2, the eigenvalues at
    v = 0 and v = 5 m/s, the weave and capsize speeds (printed to 15
    digits; held to 12);
  - the paper's closed-form Appendix A (bicycle_benchmark.py), in mpmath:
    nhs linearizes the non-linear model of the file (forward
    differentiation of its traced field on C, with the pitch solved from
    the holonomic front contact); the reference writes M, C1, K0, K2 from
    the 25 parameters. Their eigenvalues must agree at random parameter
    sets and speeds, 1e-10 in double and 1e-40 in mp50, and so must the
    critical speeds (closed forms: a root of det(g K0 + v^2 K2) and of the
    quartic's Hurwitz determinant).
"""

from __future__ import annotations

import os
import random

import mpmath
import numpy
import pytest

import nhs

from bicycle_benchmark import TABLE1, capsize_speed, eigenvalues, matrices, parameters, weave_speed

HERE = os.path.dirname(os.path.abspath(__file__))
BICYCLE = os.path.join(HERE, "..", "..", "examples", "bicycle", "whipple-bicycle.toml")


@pytest.fixture(autouse=True)
def working_precision():
    mpmath.mp.dps = 60
    yield
    mpmath.mp.dps = 15


def rigid(params):
    """Whether the four bodies' central inertias at `params` are a rigid
    body's: principal moments with the largest at most the sum of the two
    others (with a margin of 1e-9), which nhs checks at every build's
    parameters (docs/system-files.md, exit 2 otherwise)."""
    p = {k: float(v) for k, v in params.items()}
    for xx, yy, zz, xz in (("IRxx", "IRyy", "IRxx", None), ("IBxx", "IByy", "IBzz", "IBxz"),
                           ("IHxx", "IHyy", "IHzz", "IHxz"), ("IFxx", "IFyy", "IFxx", None)):
        off = p[xz] if xz else 0.0
        J = numpy.array([[p[xx], 0.0, off], [0.0, p[yy], 0.0], [off, 0.0, p[zz]]])
        small, middle, large = sorted(numpy.linalg.eigvalsh(J))
        if large > (small + middle) * (1 - 1e-9):
            return False
    return True


def random_parameters(seed):
    """Table 1 with every parameter but g scaled by a factor in [0.8, 1.2],
    drawn again until every body is a rigid body (rigid: Table 1's rear
    frame and wheels are close to the triangle inequality: 188 of the
    first 200 seeds' plain draws break it)."""
    rng = random.Random(seed)
    for _ in range(1000):
        params = {k: repr(float(v) * rng.uniform(0.8, 1.2)) for k, v in TABLE1.items() if k != "g"}
        if rigid(params):
            return params
    raise AssertionError("no rigid bicycle in 1000 draws")


def close(a, b, tol):
    return abs(a - b) <= tol * max(1, abs(b))


def test_appendix_a_reproduces_table2_entries():
    # The reference itself against the paper's Table 2 (its printed digits).
    M, C1, K0, K2 = matrices(parameters())
    for got, printed in [(M[0, 0], "80.81722"), (M[0, 1], "2.31941332208709"), (M[1, 1], "0.29784188199686"),
                         (C1[0, 1], "33.86641391492494"), (C1[1, 0], "-0.85035641456978"),
                         (C1[1, 1], "1.68540397397560"), (K0[0, 0], "-80.95"), (K0[0, 1], "-2.59951685249872"),
                         (K0[1, 1], "-0.80329488458618"), (K2[0, 1], "76.59734589573222"),
                         (K2[1, 1], "2.65431523794604")]:
        assert close(got, mpmath.mpf(printed), mpmath.mpf("1e-14")), (got, printed)


def sorted_ev(values):
    # By real part (to 8 decimals: a conjugate pair's real parts may differ
    # in the last bit), then imaginary part, both descending.
    return sorted(values, key=lambda e: (-round(float(mpmath.re(e)), 8), -float(mpmath.im(e))))


def test_eigenvalues_match_table2_in_double():
    bike = nhs.System(BICYCLE)
    printed = {
        0: [5.53094371765393, 3.13164324790656, -3.13164324790656, -5.53094371765393],
        5: [-0.322866429004087, complex(-0.775341882195845, 4.46486771378823),
            complex(-0.775341882195845, -4.46486771378823), -14.0783896927982],
    }
    for v, want in printed.items():
        lin = bike.linearize("upright", at={"v": v})
        got = sorted_ev(lin["eigenvalues"])
        assert len(got) == 4, got
        for a, b in zip(got, sorted_ev(want)):
            assert abs(a - b) <= 1e-12 * abs(b), (v, got, want)
        # The pitch's level set and the family are deflated, x, y, psi and
        # the wheels' angles are ignorable; each leaves a zero.
        assert lin["cyclic"] == ["x", "y", "psi", "thetaR", "thetaF"]
        assert abs(lin["zero_eigenvalues"]["holonomic"][0]) < 1e-12
        assert abs(lin["zero_eigenvalues"]["family"][0]) < 1e-12
    assert bike.linearize("upright", at={"v": 5})["verdict"] == "asymptotically stable"
    assert bike.linearize("upright", at={"v": 3})["verdict"] == "unstable"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_eigenvalues_match_appendix_a_at_random_parameters_in_double(seed):
    params = random_parameters(seed)
    v = random.Random(100 + seed).uniform(0, 10)
    lin = nhs.System(BICYCLE).linearize("upright", at={"v": v}, params=params)
    want = sorted_ev(eigenvalues(parameters(params), mpmath.mpf(v)))
    scale = max(abs(e) for e in want)
    for a, b in zip(sorted_ev(lin["eigenvalues"]), want):
        assert abs(a - complex(b)) <= 1e-10 * scale, (params, v, lin["eigenvalues"], want)


def test_eigenvalues_match_appendix_a_in_mp50():
    params = random_parameters(7)
    v = mpmath.mpf("3.7")
    lin = nhs.System(BICYCLE).linearize("upright", at={"v": "3.7"}, params=params, precision="mp50")
    want = sorted_ev(eigenvalues(parameters(params), v))
    got = sorted_ev(lin["eigenvalues"])
    for a, b in zip(got, want):
        assert abs(a - b) <= mpmath.mpf("1e-40") * max(1, abs(b)), (got, want)


def test_weave_and_capsize_speeds_in_double():
    s = nhs.System(BICYCLE).stability("upright", 0, 10, points=101)
    weave, capsize = s["crossings"]
    assert weave["kind"] == "complex pair" and weave["unstable_below"] == 2 and weave["unstable_above"] == 0
    assert capsize["kind"] == "real" and capsize["unstable_below"] == 0 and capsize["unstable_above"] == 1
    # Table 2's printed values, to 12 digits.
    assert weave["at"] == pytest.approx(4.29238253634111, rel=1e-12)
    assert capsize["at"] == pytest.approx(6.02426201538837, rel=1e-12)
    # The closed forms, to the digits of double.
    p = parameters()
    assert abs(weave["at"] - float(weave_speed(p, 4, 4.5))) < 1e-13
    assert abs(capsize["at"] - float(capsize_speed(p))) < 1e-13
    assert weave["frequency"] == pytest.approx(3.43503384866, rel=1e-10)


def test_weave_and_capsize_speeds_in_mp50():
    s = nhs.System(BICYCLE).stability("upright", 0, 10, points=21, precision="mp50")
    weave, capsize = s["crossings"]
    p = parameters()
    assert abs(weave["at"] - weave_speed(p, 4, 4.5)) < mpmath.mpf("1e-40")
    assert abs(capsize["at"] - capsize_speed(p)) < mpmath.mpf("1e-40")


def test_the_real_eigenvalues_meet_at_table2s_speed():
    # Table 2: the two positive real eigenvalues meet at v_d =
    # 0.68428307889246 m/s and leave as the weave's complex pair.
    bike = nhs.System(BICYCLE)
    vd = 0.68428307889246
    below = bike.linearize("upright", at={"v": vd * (1 - 1e-7)})["eigenvalues"]
    above = bike.linearize("upright", at={"v": vd * (1 + 1e-7)})["eigenvalues"]
    assert all(abs(e.imag) < 1e-12 for e in below), below
    assert sum(1 for e in above if abs(e.imag) > 1e-6) == 2, above


def test_nonlinear_run_decays_at_the_linearized_rate():
    # Beyond the papers: the non-linear model, leaned by 1e-3 rad at v = 5
    # m/s (weave-stable), returns upright. Once the weave (Re = -0.775) has
    # died out, roll decays as exp(-0.3228664290040871 t), the capsize
    # mode's eigenvalue; the non-linear terms are O(1e-6) relative.
    bike = nhs.System(BICYCLE)
    rate = -max(e.real for e in bike.linearize("upright", at={"v": 5})["eigenvalues"])
    run = bike.run(t_end=30, dt_out=0.5, q0=["0", "0", "0", "1e-3", "0", "0", "0", "0"],
                   z0=["0", "0", repr(-5 / 0.3)], rtol=1e-11, atol=1e-14)
    t, phi = list(run.t), list(run["phi"])
    i20, i30 = t.index(20.0), t.index(30.0)
    observed = (mpmath.log(abs(phi[i20])) - mpmath.log(abs(phi[i30]))) / 10
    assert rate == pytest.approx(0.3228664290040871, rel=1e-12)
    assert float(observed) == pytest.approx(rate, rel=1e-3), (observed, rate)
    # Energy holds along the run.
    energy = list(run["energy"])
    assert max(abs(e - energy[0]) for e in energy) < 1e-9 * abs(energy[0])
