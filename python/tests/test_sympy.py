"""System.from_sympy equals the same system loaded from its file.

Reference: the hand-written system files examples/knife-edge-incline.toml
and studies/files/skate.toml (the file twin of the study `skate`), loaded
with nhs.load. The same mechanics is written with sympy (dynamicsymbols
with q.diff(t), and plain Symbols with velocities=[...]); accel must agree
at random admissible states (q drawn, z drawn, qdot = psi(q, z)) in every
formulation of formulations(), at default and at random parameters.

Double: bit for bit. Both systems go through the same loader, the same
traced fields (second-kind, first-kind, gibbs-appell) or the same AD path
(the others); the texts differ only in how sympy orders and groups terms
(`J*theta_dot^2/2 + m*(x_dot^2 + y_dot^2)/2` against
`m/2*(x_dot^2 + y_dot^2) + J/2*theta_dot^2`, `g*m*y` against `m*g*y`).
What reaches q'' from T, V, C and psi here is, term by term, a product of
two factors (commutative in IEEE arithmetic) or a scaling by 2 or 1/2
(exact), so no rounding can differ: a difference of even one ulp means
that the two texts do not describe the same system (e.g. a constant lost in
printing), which is what the test is for.

mp50: within 1e-45 (absolute; the accelerations here are of order 1).
"""

from __future__ import annotations

import random

import mpmath
import numpy as np
import pytest
import sympy as sp
from sympy.physics.mechanics import dynamicsymbols

import nhs

t = sp.Symbol("t")
VECTORS = ("q", "qdot", "qddot", "multipliers", "reaction")


def knife_edge_dynamicsymbols():
    """examples/knife-edge-incline.toml written with dynamicsymbols."""
    x, y, th = dynamicsymbols("x y theta")
    xd, yd, thd = x.diff(t), y.diff(t), th.diff(t)
    m, J, g = sp.symbols("m J g")
    s, w = sp.symbols("s omega")
    return nhs.System.from_sympy(
        coordinates=[x, y, th],
        kinetic_energy=m / 2 * (xd**2 + yd**2) + J / 2 * thd**2,
        potential=m * g * y,
        constraints={"blade": xd * sp.sin(th) - yd * sp.cos(th)},
        parameters={m: ("1", "mass"), J: ("0.5", "moment of inertia"), g: ("1", "gravity along -y")},
        quasi_velocities=[s, w],
        parametrization={x: s * sp.cos(th), y: s * sp.sin(th), th: w},
        chart={s: xd * sp.cos(th) + yd * sp.sin(th), w: thd},
        dependent_velocities=[y],
        initial={"q": [0, 0, 0], "z": [1, "0.7"]},
        bodies=[{"mass": m, "position": [x, y], "angular_velocity": thd, "inertia": J}],
        name="knife-edge-incline")


def skate_dynamicsymbols():
    """studies/files/skate.toml written with dynamicsymbols."""
    x, y, th = dynamicsymbols("x y theta")
    xd, yd, thd = x.diff(t), y.diff(t), th.diff(t)
    m, I, g = sp.symbols("m I g")
    s, w = sp.symbols("s omega")
    return nhs.System.from_sympy(
        coordinates=[x, y, th],
        kinetic_energy=m / 2 * (xd**2 + yd**2) + I / 2 * thd**2,
        potential=-m * g * x,
        constraints=[xd * sp.sin(th) - yd * sp.cos(th)],
        parameters={m: "1", I: "0.5", g: 0},
        quasi_velocities=[s, w],
        parametrization={x: s * sp.cos(th), y: s * sp.sin(th), th: w},
        chart={s: xd * sp.cos(th) + yd * sp.sin(th), w: thd},
        dependent_velocities=[y],
        initial={"q": [0, 0, 0], "z": [1, sp.Rational(1, 2)]},
        bodies=[{"mass": m, "position": [x, y], "angular_velocity": thd, "inertia": I}],
        invariants={"omega": thd},
        name="skate-file")


def skate_plain_symbols():
    """studies/files/skate.toml written with plain Symbols and velocities=[...]."""
    x, y, th = sp.symbols("x y theta")
    xd, yd, thd = sp.symbols("xd yd thd")
    m, I, g = sp.symbols("m I g")
    s, w = sp.symbols("s omega")
    return nhs.System.from_sympy(
        coordinates=[x, y, th],
        velocities=[xd, yd, thd],
        kinetic_energy=m * (xd**2 + yd**2) / 2 + I * thd**2 / 2,
        potential=-m * g * x,
        constraints={"C1": xd * sp.sin(th) - yd * sp.cos(th)},
        parameters={m: 1, I: 0.5, g: "0"},
        quasi_velocities=[s, w],
        parametrization={x: s * sp.cos(th), y: s * sp.sin(th), th: w},
        chart={s: xd * sp.cos(th) + yd * sp.sin(th), w: thd},
        dependent_velocities=[y],
        initial={"q": [0, 0, 0], "z": [1, "0.5"]},
        bodies=[{"mass": m, "position": [x, y], "angular_velocity": thd, "inertia": I}],
        name="skate-file")


PAIRS = {
    "knife-edge-dynamicsymbols": (knife_edge_dynamicsymbols, "examples/knife-edge-incline.toml",
                                  {"m": (0.5, 2), "J": (0.2, 1), "g": (0.5, 3)}),
    "skate-dynamicsymbols": (skate_dynamicsymbols, "studies/files/skate.toml",
                             {"m": (0.5, 2), "I": (0.2, 1), "g": (0.5, 3)}),
    "skate-plain-symbols": (skate_plain_symbols, "studies/files/skate.toml",
                            {"m": (0.5, 2), "I": (0.2, 1), "g": (0.5, 3)}),
}


@pytest.fixture(scope="module", params=list(PAIRS))
def pair(request, tools):
    make, path, ranges = PAIRS[request.param]
    return make(), nhs.load(tools.path(path)), ranges


def random_states(ranges, count, seed):
    """(q, z, params): x, y in [-2, 2], theta in [-1.2, 1.2] (|cos theta| >=
    0.36: Voronec's split y_dot = tan(theta) x_dot stays regular), z in
    [-1, 1]^2; the second half at random parameters."""
    rng = random.Random(seed)
    out = []
    for k in range(count):
        q = [rng.uniform(-2, 2), rng.uniform(-2, 2), rng.uniform(-1.2, 1.2)]
        z = [rng.uniform(-1, 1), rng.uniform(-1, 1)]
        params = None if k < count // 2 else {p: repr(rng.uniform(*r)) for p, r in ranges.items()}
        out.append((q, z, params))
    return out


def test_same_names_and_formulations(pair):
    made, ref, _ = pair
    assert (made.coordinates, made.quasi_velocities, made.constraints) == \
        (ref.coordinates, ref.quasi_velocities, ref.constraints)
    assert (made.n, made.r, made.m) == (ref.n, ref.r, ref.m) == (3, 1, 2)
    assert made.parameters == ref.parameters
    assert made.formulations() == ref.formulations()
    assert "voronec" in made.formulations() and "gibbs-appell" in made.formulations()
    assert made.toml and "[constraints]" in made.toml


def test_default_state_equal(pair):
    made, ref, _ = pair
    for f in ref.formulations():
        a, b = made.accel(formulation=f), ref.accel(formulation=f)
        assert a.study == b.study and a.formulation == b.formulation
        assert a.strings == b.strings, f


def test_random_states_double_bitwise(pair, tools):
    made, ref, ranges = pair
    states = random_states(ranges, 12, seed=20240611)
    for f in ref.formulations():
        for q, z, params in states:
            a = made.accel(q=q, z=z, formulation=f, params=params)
            b = ref.accel(q=q, z=z, formulation=f, params=params)
            assert a.formulation == b.formulation
            for key in VECTORS:
                u, v = getattr(a, key), getattr(b, key)
                assert (u is None) == (v is None), (f, key)
                if u is None:
                    continue
                assert u.dtype == v.dtype == np.float64
                assert u.tobytes() == v.tobytes(), (f, key, q, z, params, u, v)
            assert tools.same_double(a.gauss_z, b.gauss_z)


def test_random_states_mp50(pair):
    made, ref, ranges = pair
    states = random_states(ranges, 10, seed=7)
    tol = mpmath.mpf("1e-45")
    for f in ref.formulations():
        for q, z, params in states:
            # the state as decimal strings: read as written in mp50
            qs, zs = [repr(v) for v in q], [repr(v) for v in z]
            a = made.accel(q=qs, z=zs, formulation=f, params=params, precision="mp50")
            b = ref.accel(q=qs, z=zs, formulation=f, params=params, precision="mp50")
            assert a.strings["q"] == b.strings["q"] and a.strings["qdot"] == b.strings["qdot"]
            for key in ("qddot", "multipliers", "reaction"):
                u, v = getattr(a, key), getattr(b, key)
                assert (u is None) == (v is None)
                if u is None:
                    continue
                assert all(isinstance(x, mpmath.mpf) for x in u)
                assert max(abs(x - y) for x, y in zip(u, v)) <= tol, (f, key, q, z)


def test_runs_equal(pair):
    """A short double run of the sympy system equals the file's, bitwise."""
    made, ref, _ = pair
    a, b = made.run(t_end=2, dt_out=0.5), ref.run(t_end=2, dt_out=0.5)
    # the sympy systems may declare fewer invariants than the files
    common = [c for c in b.columns if c in a.columns]
    assert {"t", "x", "y", "theta", "x_dot", "energy"} <= set(common)
    for c in common:
        assert a[c].tobytes() == b[c].tobytes(), c


def test_from_sympy_keeps_a_python_float_constant(tools, tmp_path):
    """A Python float inside a sympy expression must keep its value.

    c = 1/3 (a Python float) in V = c*x must be the double c, as the file
    that writes it by its shortest repr ("0.3333333333333333*x", the
    convention of the module for Python floats). Reference: that file.
    Bug: _FilePrinter prints sympy Floats with 15 significant digits
    ("0.333333333333333*x"), so the system from sympy has another force.
    """
    x, y = dynamicsymbols("x y")
    c = 1 / 3
    made = nhs.System.from_sympy([x, y], {"c": x.diff(t) - y.diff(t)},
                                 (x.diff(t)**2 + y.diff(t)**2) / 2, potential=c * x,
                                 initial={"q": [0, 0], "qdot": [1, 1]}, name="float-constant")
    path = tmp_path / "float-constant.toml"
    path.write_text(f'name = "float-constant"\ncoordinates = ["x", "y"]\n[dynamics]\n'
                    f'kinetic_energy = "x_dot^2/2 + y_dot^2/2"\npotential = "{c!r}*x"\n'
                    f'[constraints]\nc = "x_dot - y_dot"\n[initial]\nq = ["0", "0"]\nqdot = ["1", "1"]\n')
    ref = nhs.load(path)
    a, b = made.accel(formulation="lagrange-multipliers"), ref.accel(formulation="lagrange-multipliers")
    assert a.qddot.tobytes() == b.qddot.tobytes(), \
        f"qddot {a.qddot.tolist()} != {b.qddot.tolist()}; the file from sympy says: " \
        f"{[l for l in made.toml.splitlines() if l.startswith('potential')]}"


def test_unsupported_function_is_a_usage_error():
    x, y = dynamicsymbols("x y")
    xd, yd = x.diff(t), y.diff(t)
    T = (xd**2 + yd**2) / 2
    with pytest.raises(nhs.UsageError) as e:
        nhs.System.from_sympy([x, y], [xd * sp.sign(y) - yd], T, initial={"q": [0, 1], "qdot": [1, 1]})
    assert isinstance(e.value, ValueError) and isinstance(e.value, nhs.Error)
    assert str(e.value).startswith("from_sympy: function sign cannot be written in a system file")
    # sympy's Heaviside has its own printer: the loader refuses it, naming it
    with pytest.raises(nhs.UsageError, match=r"\.toml:\d+:\d+: constraint C1: unknown function 'Heaviside'"):
        nhs.System.from_sympy([x, y], [xd * sp.Heaviside(y) - yd], T, initial={"q": [0, 1], "qdot": [1, 1]})
    with pytest.raises(nhs.UsageError, match="only first derivatives"):
        nhs.System.from_sympy([x, y], [x.diff(t, 2) - yd], T, initial={"q": [0, 1], "qdot": [1, 1]})
    with pytest.raises(nhs.UsageError, match="plain Symbol: give velocities"):
        nhs.System.from_sympy(list(sp.symbols("a b")), [sp.Symbol("a")], T)
