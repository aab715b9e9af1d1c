"""System.accel(jacobian=True): the Jacobian of the first-order field.

References: the Chaplygin sleigh's straight-line rate d(omegadot)/d(omega)
= -m a v / (I + m a^2) (Neimark and Fufaev 1972, ch. III §3) in double and
mp50; the second kind's top block d(qdot)/d(q, qdot) = [0 I]; and central
differences of System.field, the same field evaluated as given, in double.
A system file edited and loaded again in the same process is differentiated
again: the damped sleigh's rate -(m a V + c)/(I + m a^2) before and after.
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
    # J is upper triangular in (x, y, theta, v, omega) at omega = 0: its
    # eigenvalues are four zeros (the cyclic x, y, theta and the family in v)
    # and the rate, last in the order of decreasing real parts.
    assert a.eigenvalues.shape == (5,)
    assert a.eigenvalues[-1] == pytest.approx(rate, rel=1e-14)
    assert np.all(np.abs(a.eigenvalues[:4]) < 1e-15)
    mpmath = pytest.importorskip("mpmath")
    b = sleigh.accel(q=[0.1, -0.2, 0.3], z=["0.7", 0], formulation="first-kind", precision="mp50", jacobian=True)
    with mpmath.workdps(60):
        m, I, av = (mpmath.mpf(sleigh.parameters[k]) for k in ("m", "I", "a"))
        exact = -m * av * mpmath.mpf("0.7") / (I + m * av**2)
        assert abs(b.jacobian[4, 4] - exact) < mpmath.mpf("1e-45")
        assert abs(b.eigenvalues[-1] - exact) < mpmath.mpf("1e-45")
        assert all(abs(e) < mpmath.mpf("1e-45") for e in b.eigenvalues[:4])


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


@pytest.mark.parametrize("precision,tol", [("double", 1e-14), ("mp50", 1e-45)])
def test_known_spectrum_of_the_contact_oscillator_at_rest(precision, tol):
    # At q = 0, z = 0 the constraint x_dot + y z_dot = 0 linearizes to
    # x_dot = 0, and V = |q|^2/2 + eps x^2 z^2/2 to three unit springs: the
    # linear system is x' = 0, y'' = -y, z'' = -z, with eigenvalues 0, +-i, +-i.
    osc = nhs.System(os.path.join(HERE, "..", "..", "examples", "contact-oscillator.toml"))
    a = osc.accel(q=[0, 0, 0], z=[0, 0], formulation="first-kind", precision=precision, jacobian=True)
    values = [complex(float(e.real), float(e.imag)) for e in a.eigenvalues]
    assert len(values) == 5
    assert all(abs(e.real) < tol for e in values)
    assert sorted(round(e.imag, 9) for e in values) == [-1, -1, 0, 1, 1]
    for e in values:
        assert min(abs(e.imag - k) for k in (-1, 0, 1)) < max(tol, 1e-15)


@pytest.mark.parametrize("system", ["rolling-disc", "examples/knife-edge-incline.toml", "examples/chaplygin-sleigh.toml"])
@pytest.mark.parametrize("formulation", ["second-kind", "first-kind"])
def test_cli_field_is_the_accelerations(tools, system, formulation):
    """`nhs accel --jacobian`'s `field`, f(x) from the differentiated graph,
    against the same command's q and qddot (the formulation's own field):
    (qdot, qddot) for the second kind, whose traced out is (qddot, lambda),
    n + r < 2n values (a system with r < n read past them once); qdot =
    psi(q, z) and zdot for the first kind (zdot checked by its size)."""
    a = tools.cli_json("accel", system if "/" not in system else tools.path(system),
                       "--formulation", formulation, "--jacobian")
    n = len(a["q"])
    f = [float(v) for v in a["jacobian"]["field"]]
    want = [float(v) for v in a["qdot"]]
    if formulation == "second-kind":
        want += [float(v) for v in a["qddot"]]
        assert len(f) == 2 * n
    else:
        assert len(f) == len(a["jacobian"]["state"])
    scale = 1 + max(abs(v) for v in want)
    assert all(abs(x - y) <= 1e-13 * scale for x, y in zip(f, want)), (f, want)


# A sleigh of its own (tests/test_session.cpp has the same system in C++):
# the blade a behind the centre of mass, its turning damped by -c theta_dot
# by -k c theta_dot. On the straight line (v = V, omega = 0) the first kind's
# d(omegadot)/d(omega) is -(m a V + k c)/(I + m a^2), the one nonzero
# eigenvalue of the motion.
def sleigh_text(m, k):
    c_param = 'c = { default = "0.3", meaning = "damping" }\n'
    force = f'forces = {{ theta = "-{k}*c*theta_dot" }}\n'
    return f'''name = "damped-sleigh"
title = "a sleigh"
source = "python/tests/test_jacobian.py"
coordinates = ["x", "y", "theta"]
quasi_velocities = ["v", "omega"]

[parameters]
m = {{ default = "{m}", meaning = "mass" }}
I = {{ default = "0.25", meaning = "inertia" }}
a = {{ default = "0.5", meaning = "blade distance" }}
{c_param}
[dynamics]
kinetic_energy = "m/2*(x_dot^2 + y_dot^2) + I/2*theta_dot^2"
{force}
[constraints]
blade = "-x_dot*sin(theta) + y_dot*cos(theta) - a*theta_dot"

[parametrization]
x_dot = "v*cos(theta) - a*omega*sin(theta)"
y_dot = "v*sin(theta) + a*omega*cos(theta)"
theta_dot = "omega"

[chart]
v = "x_dot*cos(theta) + y_dot*sin(theta)"
omega = "theta_dot"

[initial]
q = ["0", "0", "0"]
z = ["1", "0.5"]

[[steady]]
name = "straight"
parameters = ["V"]
q = ["0", "0", "0"]
z = ["V", "0"]
'''


def central_differences(f, x, h=1e-6):
    columns = []
    for j in range(len(x)):
        up, down = x.copy(), x.copy()
        up[j] += h
        down[j] -= h
        columns.append((np.asarray(f(0.0, up)) - np.asarray(f(0.0, down))) / (2 * h))
    return np.array(columns).T


def test_an_edited_file_reloaded_in_the_process_is_differentiated_again(tmp_path):
    """Edit a file (m 1.5 -> 3, the damping -c theta_dot -> -2 c theta_dot),
    load it again in the same process: linearize, accel(jacobian=True) and
    Field.jac follow the new file (its closed form; central differences of
    its field), and the Field made from the earlier file refuses jac rather
    than mix the two."""
    path = tmp_path / "sleigh.toml"
    V = 1.25
    path.write_text(sleigh_text("1.5", 1))
    s1 = nhs.load(path)
    lin1 = s1.linearize("straight", at={"V": V})
    assert lin1["eigenvalues"][0].real == pytest.approx(-(1.5 * 0.5 * V + 0.3) / (0.25 + 1.5 * 0.25), rel=1e-13)
    f1 = s1.field(formulation="second-kind")
    x = np.array([0.1, -0.2, 0.3, 0.0, 0.0, 0.0])
    a = s1.accel(q=x[:3], z=[0.8, 0.4])
    x[3:] = a.qdot
    J1 = f1.jac(0, x)
    path.write_text(sleigh_text("3", 2))
    s2 = nhs.load(path)
    rate = -(3 * 0.5 * V + 2 * 0.3) / (0.25 + 3 * 0.25)
    assert s2.linearize("straight", at={"V": V})["eigenvalues"][0].real == pytest.approx(rate, rel=1e-13)
    b = s2.accel(q=[0, 0, 0], z=[V, 0], formulation="first-kind", jacobian=True)
    assert b.jacobian[4, 4] == pytest.approx(rate, rel=1e-13)
    f2 = s2.field(formulation="second-kind")
    J2 = f2.jac(0, x)
    assert np.allclose(J2, central_differences(f2, x), rtol=1e-7, atol=1e-7)
    assert not np.allclose(J2, J1, rtol=1e-3, atol=1e-3)  # the edit changed the Jacobian
    with pytest.raises(nhs.UsageError, match=r"changed since this Field was made; make it again"):
        f1.jac(0, x)
