#!/usr/bin/env python3
"""Independent references for rigid bodies rolling without slip on the plane z = 0.

Each model is built with sympy.physics.mechanics (ReferenceFrame.orient_body_fixed,
Point, RigidBody, KanesMethod with two non-holonomic velocity constraints) from the
body's geometry alone: nothing is taken from nhs.  The accelerations are evaluated in
mpmath at 60 digits (lambdify(modules='mpmath'), mp.dps = 60); the models serve as
references for nhs's rigid bodies written in their own frames and its rolling
contacts (issue 59).

Common construction (all systems)
---------------------------------
Space frame N with e_z up, gravity -g e_z.  The body frame B is oriented by
B.orient_body_fixed(N, angles, 'ZXY'), i.e. R = Rz(.) Rx(.) Ry(.) (intrinsic rotations
in the order written).  The rolling surface is given by its support function h(u),
extended 1-homogeneously, with u = -R^T e_z (the downward vertical in the frame of the
surface); the contact point relative to the surface's centre O is grad h(u).  The mass
centre G is at (x, y, z_G) with z_G = -(r_GP . e_z) (the lowest point of the surface on
z = 0: the height is eliminated, it is no coordinate).  The two no-slip constraints are
the horizontal components of the velocity of the material point at the contact,
v_P = v_G + omega x r_GP = 0; its vertical component vanishes identically (checked by
`contact_normal_velocity`).  Generalized speeds u_i = qdot_i for every coordinate; the
independent ones are the three angular rates, x_dot and y_dot are dependent.  Kane's
mass matrix (dynamical rows and differentiated constraints) is solved for all five
qddot.  T = m/2 |v_G|^2 + 1/2 omega . J omega, V = m g z_G.  The tests check every
model against Newton-Euler (the moment balance about G with the contact force
m (a_G + g e_z), alpha and a_G differentiated numerically from omega and v_G: residual
< 1e-40), dE/dt = 0 (< 1e-40) and a vanishing contact velocity (< 1e-55).

1. rolling-disc: q = (x, y, theta, psi, phi), independent (theta, psi, phi), in EXACTLY
   the coordinates and signs of examples/rolling-coin.toml: (x, y) the centre, psi the
   heading, theta the tilt, phi the spin about the disc's own axis;
   R = Rz(psi) Rx(theta) Ry(phi), the disc's axis is the body y axis
   (n = cos(theta) u + sin(theta) e_z of the file), so
   omega = psi_dot e_z + theta_dot t + phi_dot n.  The disc: circle of radius R in the
   body x-z plane, support function h(u) = R sqrt(u_x^2 + u_z^2) evaluated in the
   frame L = Rz(psi) Rx(theta) (the disc is symmetric about its axis), so that
   G = (x, y, R cos(theta)).  Central inertia A about the axis, B about a diameter.
   Parameters m, R, A, B, g (defaults those of the file: 1, 1, 0.5, 0.25, 9.81).
   VALIDATED against the tool: `nhs accel examples/rolling-coin.toml --precision mp50`
   agrees with `accelerations('rolling-disc', ...)` in qdot and in every qddot
   component to >= 45 significant digits at four states
   (test_rolling_bodies.py::test_rolling_coin_matches_tool; 48.9 digits at worst
   against the tool of 2026-12-07); this proves the conventions (coordinate order,
   signs, orientation).
2. rattleback: an ellipsoid with semi-axes (a, b, c) along body (x, y, z), the mass
   centre G a distance h below the geometric centre O along -z (r_GO = h e_z^B), central
   inertia in B [[A, D, 0], [D, B, 0], [0, 0, C]] (D the matrix element, as sympy's
   inertia(B, A, B, C, ixy=D)).  R = Rz(psi) Rx(phi) Ry(theta), q = (x, y, psi, phi,
   theta) with (x, y) the horizontal position of G, independent (psi, phi, theta).
   h(u) = sqrt(u^T diag(a^2, b^2, c^2) u), grad h(u) = diag(a^2, b^2, c^2) u / h(u),
   O's height h(u), z_G = h(u) - h (e_z^B . e_z).
   Parameters: T. R. Kane and D. A. Levinson, "Realistic mathematical modeling of the
   rattleback", Int. J. Non-Linear Mech. 17 (1982) 175-186.  The paper itself could not
   be read here; its values are confirmed by two independent secondary sources that
   both cite it and agree:
     * MotionGenesis (Motion Genesis LLC, 2009), RattlebackKane.txt / MGRattleback.html
       (motiongenesis.com, MGGetStarted/MGExampleRattleback), a Kane's-method model with
       Bx vertical (up), By the long axis, Bz the wide axis: semi-diameters 2 cm (x),
       20 cm (y), 3 cm (z), h = 1 cm (So = Bcm + h Bx, G below O), m = 1 kg, g = 9.81,
       Ixx = 17, Iyy = 2, Izz = 16 kg cm^2, Iyz = 0.2 kg cm^2, initial wx = 5 rad/s,
       q2 = 0.5 deg, q3 = -0.5 deg.  (MotionGenesis products are Kane's: the matrix
       element n_a . I . n_b.)
     * PyPI package "RattleBack" (K. Matsumoto), which states "reference: Kane and
       Levinson ... 17 (1982) 175": (a, b, c, h) = (20, 3, 2, 1) cm, (A, B, C, D) =
       (2, 16, 17, -0.2) cm^2 (per unit mass) with axis 3 pointing DOWN (the contact is
       at +c, G at +h along it), initial spin -5 rad/s about that axis.
   Mapped to this frame (x long, y wide, z up; both maps are proper rotations:
   MotionGenesis (y, z, x) -> (x, y, z); the package (1, 2, 3) -> (x, -y, -z), which
   flips the sign of the 1-2 product): a = 0.20, b = 0.03, c = 0.02, h = 0.01 m,
   m = 1 kg, A = 2e-4, B = 1.6e-3, C = 1.7e-3, D = +2e-5 kg m^2, g = 9.81 m/s^2; the
   published run spins at +5 rad/s about the upward vertical (both sources), and that
   spin reverses here (RK4 in double, tilts phi = -theta = 0.5 deg: omega_z passes 0
   near t = 2.8 s and is -1.9 rad/s at 4 s; -5 rad/s stays below -4.7 rad/s over 4 s).
   Energy along a 1 s GBS run at 60 digits (spin 5 rad/s, tilts 1e-4 rad): relative
   drift 4e-22.  Without dissipation the spin may reverse in both directions over long
   times (Kondo and Nakanishi, arXiv:1704.06717): -5 rad/s only slows here.  Garcia and
   Hubbard, Proc. R. Soc. Lond. A 418 (1988) 165-197: their parameter table could not be
   read here; not used.
3. chaplygin-sphere: a ball of radius rho, mass m, G at the geometric centre, principal
   moments (A, B, C) along the body axes; R = Rz(psi) Rx(phi) Ry(theta),
   q = (x, y, psi, phi, theta), (x, y) the centre, z = rho; h(u) = rho |u|.  First
   integrals (Chaplygin 1903): the energy and the angular momentum about the contact
   point K = J omega + m rho^2 (omega - (omega . e_z) e_z), space components
   (`first_integrals`): along a 1 s GBS run at 60 digits their relative drifts are
   below 1e-25 (test_chaplygin_sphere_first_integrals).
4. torus-wheel: the rolling-disc with a toroidal crown, same coordinates: the tube-centre
   circle of radius R, tube radius r; h(u) = R sqrt(u_x^2 + u_z^2) + r |u| (the outer,
   convex part), so G = (x, y, R cos(theta) + r).  For r = 0 it is the rolling-disc
   (test: bit-for-bit equal qddot).

Interface
---------
accelerations(system, params, q, qdot) -> list[mpf]: params a dict name -> decimal
string (missing names take the defaults), q and qdot decimal strings, qdot of all
coordinates on the constraint manifold (complete_qdot fills x_dot, y_dot from the
independent rates).  first_integrals, contact_normal_velocity: diagnostics;
first_order_field, rk4_double (double) and gbs_mp (60-digit Gragg-Bulirsch-Stoer)
integrate (q, independent rates), the dependent rates completed at every call.  CLI:
  python3 tests/references/rolling_bodies.py SYSTEM --param k=v ... --q ... --qdot ...
prints JSON {"qdot": [...], "qddot": [...]} (55 significant digits); numbers comma- or
space-separated, negative ones included; --qdot takes all
five rates or only the three independent ones.  The derivation of each system is done
once per process (functools.lru_cache) and lambdified.
"""
from __future__ import annotations

import argparse
import functools
import json
import re
import sys
from dataclasses import dataclass
from typing import Callable

import mpmath
import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.physics.mechanics import (KanesMethod, Point, ReferenceFrame, RigidBody,
                                     dynamicsymbols, inertia)

DPS = 60
OUTPUT_DIGITS = 55


@dataclass(frozen=True)
class Geometry:
    """What a system contributes: frames, the contact vector, the body's inertia."""
    frame: ReferenceFrame            # the space frame N
    body: ReferenceFrame             # the body frame B
    r_gp: object                     # Vector from G to the contact point
    central_inertia: object          # dyadic about G
    extras: Callable | None = None   # omega -> {name: scalar} (first integrals)


@dataclass(frozen=True)
class Spec:
    coordinates: tuple
    independent: tuple
    params: dict
    geometry: Callable
    summary: str


def _unit_down(N, F):
    """Components in F of u = -e_z (the downward vertical)."""
    return [-N.z.dot(F.x), -N.z.dot(F.y), -N.z.dot(F.z)]


def _wheel(q, p, r_tube):
    """Disc (r_tube = 0) or torus: the rolling-coin's coordinates and signs."""
    N, L, B = ReferenceFrame("N"), ReferenceFrame("L"), ReferenceFrame("B")
    L.orient_body_fixed(N, (q["psi"], q["theta"], 0), "ZXY")
    B.orient_body_fixed(N, (q["psi"], q["theta"], q["phi"]), "ZXY")
    ux, _, uz = _unit_down(N, L)
    rim = p["R"] * (ux * L.x + uz * L.z) / sp.sqrt(ux**2 + uz**2)
    r_gp = rim + r_tube * (-N.z)
    J = inertia(B, p["B"], p["A"], p["B"])
    return Geometry(N, B, r_gp, J)


def _disc(q, p):
    return _wheel(q, p, 0)


def _torus(q, p):
    return _wheel(q, p, p["r"])


def _rattleback(q, p):
    N, B = ReferenceFrame("N"), ReferenceFrame("B")
    B.orient_body_fixed(N, (q["psi"], q["phi"], q["theta"]), "ZXY")
    u = _unit_down(N, B)
    semi = (p["a"], p["b"], p["c"])
    hs = sp.sqrt(sum((s * ui)**2 for s, ui in zip(semi, u)))
    r_op = sum((s**2 * ui / hs * e for s, ui, e in zip(semi, u, (B.x, B.y, B.z))),
               0 * B.x)
    r_gp = p["h"] * B.z + r_op
    J = inertia(B, p["A"], p["B"], p["C"], p["D"], 0, 0)
    return Geometry(N, B, r_gp, J)


def _sphere(q, p):
    N, B = ReferenceFrame("N"), ReferenceFrame("B")
    B.orient_body_fixed(N, (q["psi"], q["phi"], q["theta"]), "ZXY")
    r_gp = p["rho"] * (-N.z)           # grad of rho |u| at u = -e_z
    J = inertia(B, p["A"], p["B"], p["C"])

    def extras(omega):
        k = J.dot(omega) + p["m"] * p["rho"]**2 * (omega - omega.dot(N.z) * N.z)
        return {"Kx": k.dot(N.x), "Ky": k.dot(N.y), "Kz": k.dot(N.z)}
    return Geometry(N, B, r_gp, J, extras)


SYSTEMS = {
    "rolling-disc": Spec(
        ("x", "y", "theta", "psi", "phi"), ("theta", "psi", "phi"),
        {"m": "1", "R": "1", "A": "0.5", "B": "0.25", "g": "9.81"}, _disc,
        "thin disc, coordinates and signs of examples/rolling-coin.toml"),
    "torus-wheel": Spec(
        ("x", "y", "theta", "psi", "phi"), ("theta", "psi", "phi"),
        {"m": "1", "R": "1", "r": "0.1", "A": "0.5", "B": "0.25", "g": "9.81"},
        _torus, "toroidal wheel (crown radius r), the rolling-disc's coordinates"),
    "rattleback": Spec(
        ("x", "y", "psi", "phi", "theta"), ("psi", "phi", "theta"),
        {"m": "1", "a": "0.2", "b": "0.03", "c": "0.02", "h": "0.01",
         "A": "0.0002", "B": "0.0016", "C": "0.0017", "D": "0.00002", "g": "9.81"},
        _rattleback, "ellipsoid, Kane and Levinson (1982) parameters in SI"),
    "chaplygin-sphere": Spec(
        ("x", "y", "psi", "phi", "theta"), ("psi", "phi", "theta"),
        {"m": "1", "rho": "1", "A": "0.3", "B": "0.4", "C": "0.5", "g": "9.81"},
        _sphere, "Chaplygin's ball: G at the centre, unequal principal moments"),
}


@dataclass
class Model:
    """A derived system: plain symbols and lambdified functions of (q, u, p)."""
    spec: Spec
    q: list
    u: list
    p: list
    exprs: dict            # name -> sympy Matrix in the plain symbols
    _funcs: dict

    def flat(self, name, modules="mpmath", args=None):
        """exprs[name] lambdified (one CSE over all entries) as a flat list."""
        key = (name, modules, "flat")
        if key not in self._funcs:
            self._funcs[key] = sp.lambdify(args or self.q + self.u + self.p,
                                           list(self.exprs[name]), modules=modules, cse=True)
        return self._funcs[key]

    def func(self, name, modules="mpmath"):
        """exprs[name] lambdified, as a function returning a list of rows."""
        key = (name, modules)
        if key not in self._funcs:
            flat, cols = self.flat(name, modules), self.exprs[name].cols

            def rows(*args):
                v = flat(*args)
                return [v[i:i + cols] for i in range(0, len(v), cols)]
            self._funcs[key] = rows
        return self._funcs[key]

    def reduced_field(self, modules):
        """(q, w, p) -> x_dot, y_dot, the mass matrix and the forcing (flat), with the
        dependent speeds substituted: one CSE for the whole first-order field."""
        if "field" not in self.exprs:
            spec = self.spec
            u = dict(zip(spec.coordinates, self.u))
            dep = [c for c in spec.coordinates if c not in spec.independent]
            sub = {u[c]: self.exprs["dependent"][k] for k, c in enumerate(dep)}
            self.exprs["field"] = sp.Matrix(
                list(self.exprs["dependent"]) + list(self.exprs["mass"].xreplace(sub))
                + list(self.exprs["forcing"].xreplace(sub)))
        args = self.q + [u for c, u in zip(self.spec.coordinates, self.u)
                         if c in self.spec.independent] + self.p
        return self.flat("field", modules, args)


def _kinematics(spec, geo, q, u):
    """v_G, omega (in the speeds u), z_G and the two no-slip constraints."""
    t = dynamicsymbols._t
    N, B = geo.frame, geo.body
    qd = {q[c].diff(t): u[c] for c in spec.coordinates}
    z_g = -geo.r_gp.dot(N.z)
    v_g = (u["x"] * N.x + u["y"] * N.y + z_g.diff(t).xreplace(qd) * N.z)
    omega = B.ang_vel_in(N).subs(qd)
    v_p = v_g + omega.cross(geo.r_gp)
    return v_g, omega, z_g, v_p


def _kane(spec, geo, q, u, p, v_g, omega, v_p):
    """Kane's equations: (mass matrix, forcing) with columns in coordinate order."""
    N, B = geo.frame, geo.body
    G = Point("G")
    G.set_vel(N, v_g)
    B.set_ang_vel(N, omega)
    t = dynamicsymbols._t
    dependent = [c for c in spec.coordinates if c not in spec.independent]
    kane = KanesMethod(
        N, q_ind=[q[c] for c in spec.coordinates],
        u_ind=[u[c] for c in spec.independent],
        kd_eqs=[q[c].diff(t) - u[c] for c in spec.coordinates],
        u_dependent=[u[c] for c in dependent],
        velocity_constraints=[v_p.dot(N.x), v_p.dot(N.y)])
    body = RigidBody("body", G, B, p["m"], (geo.central_inertia, G))
    kane.kanes_equations([body], [(G, -p["m"] * p["g"] * N.z)])
    order = [c for c in spec.independent] + dependent
    columns = [order.index(c) for c in spec.coordinates]
    mass = kane.mass_matrix[:, columns]
    return mass, kane.forcing


@functools.lru_cache(maxsize=None)
def model(system: str) -> Model:
    """Derive (once per process) and return the model of `system`."""
    if system not in SYSTEMS:
        raise KeyError(f"unknown system {system!r}; known: {', '.join(SYSTEMS)}")
    spec = SYSTEMS[system]
    t = dynamicsymbols._t
    q = {c: dynamicsymbols(c) for c in spec.coordinates}
    u = {c: dynamicsymbols("u_" + c) for c in spec.coordinates}
    p = {k: sp.Symbol(k, real=True) for k in spec.params}
    geo = spec.geometry(q, p)
    v_g, omega, z_g, v_p = _kinematics(spec, geo, q, u)
    mass, forcing = _kane(spec, geo, q, u, p, v_g, omega, v_p)
    N = geo.frame
    T = p["m"] / 2 * v_g.dot(v_g) + omega.dot(geo.central_inertia.dot(omega)) / 2
    exprs = {"mass": mass, "forcing": forcing,
             "energy": sp.Matrix([T + p["m"] * p["g"] * z_g]),
             "slip": sp.Matrix([v_p.dot(N.x), v_p.dot(N.y), v_p.dot(N.z)]),
             "z_g": sp.Matrix([z_g]),
             # Newton-Euler pieces in space components (an independent check of Kane's)
             "omega": sp.Matrix([omega.dot(e) for e in (N.x, N.y, N.z)]),
             "v_g": sp.Matrix([v_g.dot(e) for e in (N.x, N.y, N.z)]),
             "r_gp": sp.Matrix([geo.r_gp.dot(e) for e in (N.x, N.y, N.z)]),
             "J": geo.central_inertia.to_matrix(N)}
    dependent = [c for c in spec.coordinates if c not in spec.independent]
    constraints = exprs["slip"][:2, :]
    jac = constraints.jacobian([u[c] for c in dependent])
    rest = constraints.xreplace({u[c]: 0 for c in dependent})
    exprs["dependent"] = jac.LUsolve(-rest)
    if geo.extras is not None:
        extras = geo.extras(omega)
        exprs["extras"] = sp.Matrix(list(extras.values()))
        exprs["extras_names"] = list(extras)
    qs = [sp.Symbol(c) for c in spec.coordinates]
    us = [sp.Symbol("u_" + c) for c in spec.coordinates]
    plain = {q[c].diff(t): s for c, s in zip(spec.coordinates, us)}
    plain.update({q[c]: s for c, s in zip(spec.coordinates, qs)})
    plain.update({u[c]: s for c, s in zip(spec.coordinates, us)})
    for key, value in exprs.items():
        if isinstance(value, sp.MatrixBase):
            exprs[key] = value.xreplace(plain)
            left = exprs[key].atoms(AppliedUndef, sp.Derivative)
            assert not left, f"{system}: {key} still holds {left}"
    return Model(spec, qs, us, list(p.values()), exprs, {})


def _mp(values):
    return [v if isinstance(v, mpmath.mpf) else mpmath.mpf(str(v)) for v in values]


def _params(system: str, params: dict | None) -> list:
    spec = SYSTEMS[system]
    params = dict(params or {})
    unknown = set(params) - set(spec.params)
    if unknown:
        raise KeyError(f"{system}: unknown parameter(s) {sorted(unknown)}")
    return [spec.params[k] if k not in params else params[k] for k in spec.params]


def _eval(system, name, params, q, qdot, modules="mpmath"):
    m = model(system)
    f = m.func(name, modules)
    if modules == "mpmath":
        args = _mp(q) + _mp(qdot) + _mp(_params(system, params))
    else:
        args = [float(v) for v in list(q) + list(qdot) + _params(system, params)]
    return f(*args)


def complete_qdot(system: str, params: dict | None, q: list, independent: list) -> list:
    """All qdot on the constraint manifold from the independent rates (spec order)."""
    spec = SYSTEMS[system]
    with mpmath.workdps(DPS):
        rates = dict(zip(spec.independent, _mp(independent)))
        zeros = [rates.get(c, mpmath.mpf(0)) for c in spec.coordinates]
        dep = _eval(system, "dependent", params, q, zeros)
        dependent = [c for c in spec.coordinates if c not in spec.independent]
        rates.update({c: +dep[i][0] for i, c in enumerate(dependent)})
        return [rates[c] for c in spec.coordinates]


def accelerations(system: str, params: dict | None, q: list, qdot: list) -> list:
    """qddot (mpf, 60-digit arithmetic) at (q, qdot); qdot of every coordinate."""
    with mpmath.workdps(DPS):
        mass = mpmath.matrix(_eval(system, "mass", params, q, qdot))
        forcing = mpmath.matrix([r[0] for r in _eval(system, "forcing", params, q, qdot)])
        x = mpmath.lu_solve(mass, forcing)
        return [+x[i] for i in range(len(q))]


def first_integrals(system: str, params: dict | None, q: list, qdot: list) -> dict:
    """{'energy': T + V} and, for the chaplygin-sphere, K's space components."""
    with mpmath.workdps(DPS):
        out = {"energy": +_eval(system, "energy", params, q, qdot)[0][0]}
        m = model(system)
        if "extras" in m.exprs:
            values = _eval(system, "extras", params, q, qdot)
            out.update({k: +values[i][0] for i, k in enumerate(m.exprs["extras_names"])})
        return out


def contact_normal_velocity(system, params, q, qdot):
    """The three space components of the contact point's velocity (all ~ 0)."""
    with mpmath.workdps(DPS):
        v = _eval(system, "slip", params, q, qdot)
        return [+v[i][0] for i in range(3)]


def _solve(a, b):
    """Gaussian elimination with partial pivoting on lists (float or mpf entries)."""
    n = len(b)
    a = [list(row) + [b[i]] for i, row in enumerate(a)]
    for k in range(n):
        piv = max(range(k, n), key=lambda i: abs(a[i][k]))
        a[k], a[piv] = a[piv], a[k]
        for i in range(k + 1, n):
            f = a[i][k] / a[k][k]
            for j in range(k, n + 1):
                a[i][j] -= f * a[k][j]
    x = [0 * b[0]] * n
    for i in reversed(range(n)):
        x[i] = (a[i][n] - sum(a[i][j] * x[j] for j in range(i + 1, n))) / a[i][i]
    return x


def first_order_field(system: str, params: dict | None = None, precision: str = "double"):
    """The first-order field y = (q, w) -> ydot, w the independent rates (spec order),
    in double ('double', lambdified with math) or at 60 digits ('mp'); x_dot, y_dot are
    completed from the constraints at every call (no constraint drift).
    Returns (field, qdot_of)."""
    m = model(system)
    spec = m.spec
    n = len(spec.coordinates)
    modules = "math" if precision == "double" else "mpmath"
    conv = float if precision == "double" else (lambda v: mpmath.mpf(str(v)))
    pv = [conv(v) for v in _params(system, params)]
    f_dep, f_all = m.func("dependent", modules), m.reduced_field(modules)
    idx = [spec.coordinates.index(c) for c in spec.independent]
    dep_idx = [i for i in range(n) if i not in idx]

    def qdot_of(q, w):
        qd = [0 * w[0]] * n
        for i, v in zip(idx, w):
            qd[i] = v
        dep = f_dep(*q, *qd, *pv)
        for k, i in enumerate(dep_idx):
            qd[i] = dep[k][0]
        return qd

    def field(y):
        q, w = y[:n], y[n:]
        v = f_all(*q, *w, *pv)
        qd = [0 * w[0]] * n
        for i, r in zip(idx, w):
            qd[i] = r
        for k, i in enumerate(dep_idx):
            qd[i] = v[k]
        m0 = len(dep_idx)
        mass = [v[m0 + n * i:m0 + n * (i + 1)] for i in range(n)]
        qdd = _solve(mass, v[m0 + n * n:])
        return qd + [qdd[i] for i in idx]
    return field, qdot_of


def rk4_double(system: str, params, q0, w0, dt: float, steps: int, every: int = 1):
    """Fixed-step RK4 in double of (q, independent rates); returns [(t, q, qdot)]."""
    field, qdot_of = first_order_field(system, params, "double")
    n = len(q0)
    y = [float(v) for v in list(q0) + list(w0)]
    out = [(0.0, y[:n], qdot_of(y[:n], y[n:]))]
    for step in range(1, steps + 1):
        k1 = field(y)
        k2 = field([a + dt / 2 * b for a, b in zip(y, k1)])
        k3 = field([a + dt / 2 * b for a, b in zip(y, k2)])
        k4 = field([a + dt * b for a, b in zip(y, k3)])
        y = [a + dt / 6 * (b + 2 * c + 2 * d + e) for a, b, c, d, e in zip(y, k1, k2, k3, k4)]
        if step % every == 0:
            out.append((step * dt, y[:n], qdot_of(y[:n], y[n:])))
    return out


def _numbers(values):
    """CLI numbers: repeated and/or comma-separated."""
    return [v for item in values for v in item.split(",") if v.strip()]


def _glue_numbers(argv):
    """'--q -1 2,3' -> '--q=-1,2,3': argparse would take a leading '-' for an option."""
    out, pending = [], None
    for token in argv:
        if pending is not None and re.match(r"^[-+]?[0-9.]", token):
            pending.append(token)
            continue
        if pending is not None:
            out.append(out.pop() + "=" + ",".join(pending))
            pending = None
        out.append(token)
        if token in ("--q", "--qdot"):
            pending = []
    if pending is not None:
        out.append(out.pop() + "=" + ",".join(pending))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("system", choices=sorted(SYSTEMS))
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--q", action="append", required=True)
    parser.add_argument("--qdot", action="append", required=True,
                        help="all rates, or only the independent ones (spec order)")
    args = parser.parse_args(_glue_numbers(sys.argv[1:] if argv is None else argv))
    spec = SYSTEMS[args.system]
    params = dict(item.split("=", 1) for item in args.param)
    q, qdot = _numbers(args.q), _numbers(args.qdot)
    if len(q) != len(spec.coordinates):
        parser.error(f"--q needs {len(spec.coordinates)} values {spec.coordinates}")
    if len(qdot) == len(spec.independent):
        qdot = complete_qdot(args.system, params, q, qdot)
    elif len(qdot) != len(spec.coordinates):
        parser.error(f"--qdot needs {len(spec.coordinates)} or {len(spec.independent)} values")
    qddot = accelerations(args.system, params, q, qdot)
    with mpmath.workdps(DPS):
        out = {"system": args.system, "coordinates": list(spec.coordinates),
               "qdot": [mpmath.nstr(mpmath.mpf(v), OUTPUT_DIGITS) for v in qdot],
               "qddot": [mpmath.nstr(v, OUTPUT_DIGITS) for v in qddot]}
    json.dump(out, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())


def _midpoint(field, y, H, steps):
    """Gragg's modified midpoint rule over H with `steps` substeps."""
    h = H / steps
    z0, z1 = y, [a + h * b for a, b in zip(y, field(y))]
    for _ in range(steps - 1):
        z0, z1 = z1, [a + 2 * h * b for a, b in zip(z0, field(z1))]
    return [(a + b + h * c) / 2 for a, b, c in zip(z1, z0, field(z1))]


def gbs_mp(system: str, params, q0, w0, t_end, steps: int, columns: int = 8):
    """Gragg-Bulirsch-Stoer extrapolation at 60 digits, `steps` fixed steps of
    t_end/steps with substeps 2, 4, ..., 2*columns (order 2*columns); returns
    [(t, q, qdot)] at every step."""
    with mpmath.workdps(DPS):
        field, qdot_of = first_order_field(system, params, "mp")
        n = len(q0)
        y = _mp(list(q0) + list(w0))
        H = mpmath.mpf(t_end) / steps
        out = [(mpmath.mpf(0), y[:n], qdot_of(y[:n], y[n:]))]
        for step in range(1, steps + 1):
            table = []
            for i in range(columns):
                row = [_midpoint(field, y, H, 2 * (i + 1))]
                for k in range(1, i + 1):
                    ratio = mpmath.mpf(i + 1) ** 2 / (i + 1 - k) ** 2 - 1
                    row.append([a + (a - b) / ratio for a, b in zip(row[k - 1], table[-1][k - 1])])
                table.append(row)
            y = table[-1][-1]
            out.append((step * H, y[:n], qdot_of(y[:n], y[n:])))
        return out
