"""Checks of the independent rolling-body references (rolling_bodies.py).

Run: python3 -m pytest -q tests/references/test_rolling_bodies.py  (about 40 s of CPU).
Only test_rolling_coin_matches_tool needs nhs: the tool is $NHS_TOOL, or build/nhs
under the project root; the test is skipped when neither exists.
"""
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import mpmath
import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
import rolling_bodies as rb  # noqa: E402

DIGITS_VS_TOOL = 45
STATES_COIN = [  # q = (x, y, theta, psi, phi), z = (thetad, psid, phid)
    (["0.1", "0.2", "0.3", "0.4", "0.5"], ["0.7", "-0.3", "2.1"]),
    (["-1.5", "2", "-0.9", "2.5", "-3"], ["-1.25", "0.8", "-0.4"]),
    (["0", "0", "0.05", "-1", "1"], ["0", "0", "3"]),
    (["3", "-2", "1.2", "0.3", "7"], ["2", "-4", "0.125"]),
]
STATES = {  # q, independent rates (spec order), one generic state per system
    "rolling-disc": (["0.3", "-0.2", "0.4", "1.1", "-0.7"], ["0.6", "-1.3", "2.5"]),
    "torus-wheel": (["0.3", "-0.2", "0.4", "1.1", "-0.7"], ["0.6", "-1.3", "2.5"]),
    "rattleback": (["0.01", "-0.02", "0.7", "0.05", "-0.08"], ["4", "0.6", "-0.9"]),
    "chaplygin-sphere": (["0.5", "1", "0.7", "-1.1", "2.3"], ["1.5", "-0.4", "0.9"]),
}


def _digits(a, b):
    """Significant digits of agreement of a with b (b the scale, at least 1)."""
    with mpmath.workdps(rb.DPS):
        err = abs(mpmath.mpf(a) - mpmath.mpf(b))
        scale = max(abs(mpmath.mpf(b)), 1)
        return 99 if err == 0 else float(-mpmath.log10(err / scale))


def _tool():
    tool = Path(os.environ.get("NHS_TOOL", ROOT / "build" / "nhs"))
    if not tool.is_absolute():
        tool = ROOT / tool
    return tool if tool.is_file() and os.access(tool, os.X_OK) else None


def test_rolling_coin_matches_tool():
    """The rolling-disc model against nhs accel on examples/rolling-coin.toml in mp50:
    the completed qdot and all of qddot to >= 45 digits (this proves the conventions)."""
    tool = _tool()
    if tool is None:
        pytest.skip("no nhs tool ($NHS_TOOL or build/nhs)")
    worst = 99.0
    for q, z in STATES_COIN:
        run = subprocess.run([str(tool), "accel", "examples/rolling-coin.toml", "--precision",
                              "mp50", "--q", ",".join(q), "--z", ",".join(z)],
                             cwd=ROOT, capture_output=True, text=True, check=True)
        ref = json.loads(run.stdout)
        qdot = rb.complete_qdot("rolling-disc", None, q, z)
        qddot = rb.accelerations("rolling-disc", None, q, qdot)
        for mine, theirs in zip(qdot + qddot, ref["qdot"] + ref["qddot"]):
            worst = min(worst, _digits(mine, theirs))
    print(f"rolling-coin vs nhs mp50: {worst:.1f} digits at worst")
    assert worst >= DIGITS_VS_TOOL


BODY_FILES = {  # a model of rolling_bodies.py -> the bodies file written in its coordinates
    "rolling-disc": "examples/bodies/rolling-disc.toml",
    "torus-wheel": "examples/bodies/torus-wheel.toml",
    "rattleback": "examples/bodies/rattleback.toml",
    "chaplygin-sphere": "examples/bodies/chaplygin-sphere.toml",
}


@pytest.mark.parametrize("system", sorted(BODY_FILES))
def test_bodies_files_match_the_models(system):
    """nhs accel on the bodies file (frames, inertia, [[rolling]], gravity: nothing
    derived by hand) against the sympy.physics.mechanics model at its generic state,
    in mp50: every qddot component to >= 45 digits, in seven formulations (those of
    the first kind on the psi that nhs derives from the dependent velocities)."""
    tool = _tool()
    if tool is None:
        pytest.skip("no nhs tool ($NHS_TOOL or build/nhs)")
    q, w = STATES[system]
    qdot = rb.complete_qdot(system, None, q, w)
    qddot = rb.accelerations(system, None, q, qdot)
    text = [mpmath.nstr(v, 55, strip_zeros=False) for v in qdot]
    for formulation in ("second-kind", "first-kind", "gibbs-appell", "maggi", "udwadia-kalaba",
                        "lagrange-multipliers", "voronec"):
        run = subprocess.run([str(tool), "accel", BODY_FILES[system], "--precision", "mp50",
                              "--formulation", formulation, "--q", ",".join(q), "--qdot", ",".join(text)],
                             cwd=ROOT, capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        worst = min(_digits(mine, theirs) for mine, theirs in zip(json.loads(run.stdout)["qddot"], qddot))
        print(f"{system} {formulation} vs the model: {worst:.1f} digits at worst")
        assert worst >= DIGITS_VS_TOOL, (system, formulation, worst)


def test_rolling_disc_matches_the_coin_files_closed_forms():
    """Without the tool: x_dot, y_dot and T + V of the file's header and [dynamics]."""
    sin, cos = mpmath.sin, mpmath.cos
    for q, z in STATES_COIN:
        qdot = rb.complete_qdot("rolling-disc", None, q, z)
        with mpmath.workdps(rb.DPS):
            x, y, th, ps, ph = map(mpmath.mpf, q)
            thd, psd, phd = map(mpmath.mpf, z)
            R, m, A, B, g = 1, 1, mpmath.mpf("0.5"), mpmath.mpf("0.25"), mpmath.mpf("9.81")
            xd = R * (phd + psd * sin(th)) * cos(ps) + R * thd * cos(th) * sin(ps)
            yd = R * (phd + psd * sin(th)) * sin(ps) - R * thd * cos(th) * cos(ps)
            T = (m / 2 * (xd**2 + yd**2 + R**2 * sin(th)**2 * thd**2)
                 + B / 2 * (psd**2 + thd**2 + phd**2 + 2 * psd * phd * sin(th))
                 + (A - B) / 2 * (phd + psd * sin(th))**2)
            energy = rb.first_integrals("rolling-disc", None, q, qdot)["energy"]
            assert _digits(qdot[0], xd) > 55 and _digits(qdot[1], yd) > 55
            assert _digits(energy, T + m * g * R * cos(th)) > 55


def test_torus_with_no_crown_is_the_disc():
    q, w = STATES["torus-wheel"]
    for r in ("0", "0.25"):
        qdot = rb.complete_qdot("torus-wheel", {"r": r}, q, w)
        qdd_t = rb.accelerations("torus-wheel", {"r": r}, q, qdot)
        qdot_d = rb.complete_qdot("rolling-disc", None, q, w)
        qdd_d = rb.accelerations("rolling-disc", None, q, qdot_d)
        agree = min(_digits(a, b) for a, b in zip(qdd_t, qdd_d))
        if r == "0":
            assert agree > 55
        else:
            assert agree < 3      # the crown changes the dynamics
        with mpmath.workdps(rb.DPS):  # the centre's height R cos(theta) + r (R = 1)
            z_g = rb._eval("torus-wheel", "z_g", {"r": r}, q, qdot)[0][0]
            assert _digits(z_g, mpmath.cos(mpmath.mpf(q[2])) + mpmath.mpf(r)) > 55


@pytest.mark.parametrize("system", sorted(rb.SYSTEMS))
def test_contact_point_has_no_velocity(system):
    """At a completed qdot the contact point's velocity vanishes, its vertical
    component included (the eliminated height is the contact condition)."""
    q, w = STATES[system]
    qdot = rb.complete_qdot(system, None, q, w)
    v = rb.contact_normal_velocity(system, None, q, qdot)
    assert max(abs(c) for c in v) < mpmath.mpf("1e-55")


@pytest.mark.parametrize("system", sorted(rb.SYSTEMS))
def test_energy_rate_vanishes(system):
    """dE/dt = d/ds E(q + s qdot, qdot + s qddot) at s = 0 (mpmath.diff) is ~ 0."""
    q, w = STATES[system]
    qdot = rb.complete_qdot(system, None, q, w)
    qddot = rb.accelerations(system, None, q, qdot)
    with mpmath.workdps(rb.DPS):
        qm, qdm = rb._mp(q), rb._mp(qdot)

        def energy(s):
            qs = [a + s * b for a, b in zip(qm, qdm)]
            qds = [a + s * b for a, b in zip(qdm, qddot)]
            return rb.first_integrals(system, None, qs, qds)["energy"]
        rate = mpmath.diff(energy, 0)
        scale = abs(energy(0)) + 1
        assert abs(rate) / scale < mpmath.mpf("1e-40"), rate


@pytest.mark.parametrize("system", sorted(rb.SYSTEMS))
def test_newton_euler_moment_balance(system):
    """Kane's qddot satisfy Newton-Euler about G: J alpha + omega x J omega equals the
    moment r_GP x m (a_G + g e_z) of the contact force; alpha and a_G are derivatives
    (mpmath.diff) of omega and v_G along q + s qdot + s^2/2 qddot, qdot + s qddot."""
    q, w = STATES[system]
    qdot = rb.complete_qdot(system, None, q, w)
    qddot = rb.accelerations(system, None, q, qdot)
    with mpmath.workdps(rb.DPS):
        qm, qdm = rb._mp(q), rb._mp(qdot)

        def at(name, s):
            qs = [a + s * b + s * s / 2 * c for a, b, c in zip(qm, qdm, qddot)]
            qds = [a + s * b for a, b in zip(qdm, qddot)]
            return [v for row in rb._eval(system, name, None, qs, qds) for v in row]
        alpha = [mpmath.diff(lambda s, i=i: at("omega", s)[i], 0) for i in range(3)]
        a_g = [mpmath.diff(lambda s, i=i: at("v_g", s)[i], 0) for i in range(3)]
        omega, r = mpmath.matrix(at("omega", 0)), mpmath.matrix(at("r_gp", 0))
        J = mpmath.matrix(3, 3)
        for k, v in enumerate(at("J", 0)):
            J[k // 3, k % 3] = v
        pv = dict(zip(rb.SYSTEMS[system].params, rb._mp(rb._params(system, None))))
        force = pv["m"] * (mpmath.matrix(a_g) + mpmath.matrix([0, 0, pv["g"]]))
        lhs = J * mpmath.matrix(alpha) + _cross(omega, J * omega)
        residual = lhs - _cross(r, force)
        scale = max(abs(v) for v in lhs) + 1
        assert max(abs(v) for v in residual) / scale < mpmath.mpf("1e-40"), residual


def _cross(a, b):
    return mpmath.matrix([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                          a[0] * b[1] - a[1] * b[0]])


def _drifts(system, q0, w0, t_end, steps):
    """Largest relative changes of the first integrals along a GBS run (K: of |K|)."""
    out = rb.gbs_mp(system, None, q0, w0, t_end, steps)
    start = rb.first_integrals(system, None, out[0][1], out[0][2])
    drift = {k: mpmath.mpf(0) for k in start}
    for _, q, qdot in out[1:]:
        now = rb.first_integrals(system, None, q, qdot)
        for k in start:
            scale = abs(start[k]) if k == "energy" else max(
                mpmath.sqrt(sum(start[j]**2 for j in ("Kx", "Ky", "Kz"))), 1)
            drift[k] = max(drift[k], abs(now[k] - start[k]) / scale)
    print(system, {k: mpmath.nstr(v, 3) for k, v in drift.items()})
    return drift


def test_rattleback_energy_is_conserved():
    """1 s from the published spin (5 rad/s) with tilts of 1e-4 rad (GBS, 100 steps,
    order 20: the pitch mode at about 110 rad/s sets the step; about 20 s)."""
    d = mpmath.mpf("1e-4")
    out = rb.gbs_mp("rattleback", None, [0, 0, 0, d, -d], [5, 0, 0], 1, 100, columns=10)
    e = [rb.first_integrals("rattleback", None, q, qdot)["energy"] for _, q, qdot in out]
    drift = max(abs(v - e[0]) for v in e) / e[0]
    print("rattleback energy drift over 1 s:", mpmath.nstr(drift, 3))
    assert abs(out[-1][1][3]) > 5 * d     # the tilt grew: not a steady spin
    assert drift < mpmath.mpf("1e-20")


def test_chaplygin_sphere_first_integrals():
    """Energy and the three space components of K about the contact point."""
    drift = _drifts("chaplygin-sphere", [0, 0, "0.3", "0.2", "0.1"], [1, "-0.5", 2], 1, 20)
    assert set(drift) == {"energy", "Kx", "Ky", "Kz"}
    assert max(drift.values()) < mpmath.mpf("1e-20")


def _vertical_spin(q, qdot):
    """omega . e_z for R = Rz(psi) Rx(phi) Ry(theta): psi_dot + theta_dot sin(phi)."""
    return qdot[2] + qdot[4] * math.sin(q[3])


def test_rattleback_spin_reversal():
    """Kane and Levinson's run: +5 rad/s about the upward vertical, tilts 0.5 deg,
    reverses within 4 s; -5 rad/s keeps its direction over the same time."""
    d = math.radians(0.5)
    runs = {}
    for spin in (5.0, -5.0):
        out = rb.rk4_double("rattleback", None, [0, 0, 0, d, -d], [spin, 0, 0],
                            0.004, 1000, every=25)
        runs[spin] = [_vertical_spin(q, qd) for _, q, qd in out]
    print("rattleback vertical spin, +5:", [round(v, 2) for v in runs[5.0][::5]])
    print("rattleback vertical spin, -5:", [round(v, 2) for v in runs[-5.0][::5]])
    assert min(runs[5.0]) < -1.0 and runs[5.0][-1] < -1.0
    assert max(runs[-5.0]) < -3.0


def test_cli_prints_the_accelerations(capsys):
    q, w = STATES["chaplygin-sphere"]
    assert rb.main(["chaplygin-sphere", "--q", ",".join(q), "--qdot", *w]) == 0
    printed = json.loads(capsys.readouterr().out)
    qdot = rb.complete_qdot("chaplygin-sphere", None, q, w)
    qddot = rb.accelerations("chaplygin-sphere", None, q, qdot)
    assert len(printed["qddot"]) == 5
    assert min(_digits(a, b) for a, b in zip(printed["qddot"], qddot)) > 50
