"""The Whipple bicycle's non-linear equations against Table 1 of S.
Basu-Mandal, A. Chatterjee and J. M. Papadopoulos, "Hands-free circular
motions of a benchmark bicycle", Proc. R. Soc. A 463 (2007) 1983-2003: one
generic state (roll 0.62 rad, steer -0.23 rad, the wheels spinning at
about 8.9 and 8.0 rad/s) and its accelerations, printed to 13-14 digits
(ctest BicycleBasuMandal; docs/bicycle.md).

The coordinates. Basu-Mandal's z axis points up and their angles are
measured differently; with Meijaard's axes (x forward, y right, z down) the
file's coordinates are (Moore, "Human control of a bicycle", PhD thesis,
UC Davis 2012, whose yaw, roll, pitch and steer are Meijaard's):
    yaw psi     = -theta_BM              roll phi    = pi/2 - psi_BM
    pitch       = pi - phi_BM            (the rear frame's pitch thetaB;
                                          Moore's pitch is thetaB + lambda)
    steer delta = -psi_f,BM              thetaR = -beta_r,BM, thetaF = -beta_f,BM
and each rate and acceleration takes the same sign. The file's pitch is
measured from Meijaard's reference configuration, where Moore's pitch
angle, about the same axis, is lambda: hence pi - phi_BM.

What is compared. nhs admits the state (pitch solved from the front
contact, the dependent rates from the rolling constraints) and computes the
accelerations, in double and in mp50, in every formulation that applies
(the bodies give Gibbs-Appell; the negative control naive-reduced is left
out), each through its default field (traced for second-kind, first-kind
and Gibbs-Appell, the library's for the others). The printed inputs carry 13 decimals,
so the exact accelerations of the printed state differ from the printed
accelerations by up to the inputs' rounding (5e-14 each) times their
sensitivity. The test measures that sensitivity (central differences of
nhs's mp50 accelerations in each input) and requires
|nhs - printed| <= 5e-14 (the outputs' own rounding) + sum over inputs of
|d output / d input| 5e-14, for every dependent rate and acceleration.
"""

from __future__ import annotations

import os

import mpmath
import pytest

import nhs

# The bundled system's name (nhs/studies/bundled.hpp): the file
# examples/bicycle/whipple-bicycle.toml (the bicycle written as frames, bodies
# and rolling wheels).
BICYCLE = "whipple-bicycle"
FORMULATIONS = [f for f in nhs.System(BICYCLE).formulations() if f != "naive-reduced"]

# Basu-Mandal Table 1, in their coordinates (x, y = 0 and the wheel angles
# 0 are not printed to digits and do not enter the dynamics).
INPUT = {"psi": "0.9501292851472", "phi": "3.1257073014894", "psif": "0.2311385135743",
         "thetad": "0.7830033527065", "psid": "0.6068425835418", "phid": "-0.0119185528069",
         "psifd": "0.4859824687093", "betard": "8.9129896614890", "betafd": "8.0133620584155"}
OUTPUT = {"thetadd": "0.8353281706379", "psidd": "-7.8555281128244", "phidd": "0.1205543897884",
          "psifdd": "-4.6198904039403", "betardd": "1.8472554144217", "betafdd": "2.4548072904550"}
ROUNDING = mpmath.mpf("5e-14")  # half a unit in the 13th decimal


def file_state(b):
    """q (8) and z (3) of the file from Basu-Mandal's values b."""
    q = [0, 0, 0, mpmath.pi / 2 - b["psi"], mpmath.pi - b["phi"], -b["psif"], 0, 0]
    z = [-b["psid"], -b["psifd"], -b["betard"]]
    return q, z


def printed_values():
    """Basu-Mandal's dependent rates and accelerations in the file's
    coordinates, by the file's index: qdot (yaw, pitch, front wheel) and
    qddot (yaw, roll, pitch, steer, rear wheel, front wheel)."""
    b = {k: mpmath.mpf(v) for k, v in {**INPUT, **OUTPUT}.items()}
    qdot = {2: -b["thetad"], 4: -b["phid"], 7: -b["betafd"]}
    qddot = {2: -b["thetadd"], 3: -b["psidd"], 4: -b["phidd"], 5: -b["psifdd"], 6: -b["betardd"],
             7: -b["betafdd"]}
    return qdot, qddot


def evaluate(b, precision, formulation=None):
    q, z = file_state(b)
    text = lambda v: [mpmath.nstr(mpmath.mpf(x), 45) for x in v]
    a = nhs.System(BICYCLE).accel(q=text(q), z=text(z), precision=precision, formulation=formulation)
    return [mpmath.mpf(x) for x in a.qdot], [mpmath.mpf(x) for x in a.qddot]


@pytest.fixture(scope="module")
def tolerances():
    """Per compared value: 5e-14 + sum_inputs |d value / d input| 5e-14,
    the derivatives by central differences (step 1e-8) in mp50."""
    mpmath.mp.dps = 60
    base = {k: mpmath.mpf(v) for k, v in INPUT.items()}
    qdot_tol, qddot_tol = {}, {}
    want_qdot, want_qddot = printed_values()
    h = mpmath.mpf("1e-8")
    for name in INPUT:
        plus, minus = dict(base), dict(base)
        plus[name] += h
        minus[name] -= h
        (vp, ap), (vm, am) = evaluate(plus, "mp50"), evaluate(minus, "mp50")
        for i in want_qdot:
            qdot_tol[i] = qdot_tol.get(i, ROUNDING) + abs(vp[i] - vm[i]) / (2 * h) * ROUNDING
        for i in want_qddot:
            qddot_tol[i] = qddot_tol.get(i, ROUNDING) + abs(ap[i] - am[i]) / (2 * h) * ROUNDING
    yield qdot_tol, qddot_tol
    mpmath.mp.dps = 15


def test_every_formulation_applies():
    # Seven formulations, Gibbs-Appell among them (from the file's [[bodies]]).
    assert sorted(FORMULATIONS) == sorted(["first-kind", "maggi", "gibbs-appell", "second-kind", "udwadia-kalaba",
                                           "lagrange-multipliers", "voronec"]), FORMULATIONS


@pytest.mark.parametrize("formulation", FORMULATIONS)
@pytest.mark.parametrize("precision", ["double", "mp50"])
def test_table1_state_and_accelerations(precision, formulation, tolerances):
    mpmath.mp.dps = 60
    qdot_tol, qddot_tol = tolerances
    want_qdot, want_qddot = printed_values()
    qdot, qddot = evaluate({k: mpmath.mpf(v) for k, v in INPUT.items()}, precision, formulation)
    names = ["x", "y", "psi", "phi", "thetaB", "delta", "thetaR", "thetaF"]
    for i, want in want_qdot.items():
        assert abs(qdot[i] - want) <= qdot_tol[i], (names[i] + "_dot", qdot[i], want, qdot_tol[i])
    for i, want in want_qddot.items():
        assert abs(qddot[i] - want) <= qddot_tol[i], (names[i] + "_ddot", qddot[i], want, qddot_tol[i])
    # The tolerances are the printed digits' own: at most a few units in the
    # 13th significant digit (not a loose bound that any model would meet).
    assert max(qddot_tol.values()) < mpmath.mpf("5e-12")
