#!/usr/bin/python3
"""The Whipple bicycle's right-hand side: nhs against sympy.physics.mechanics.

What: the cost of one evaluation of the bicycle's field in double,
(q, q_dot) -> (q_dot, q_ddot) with n = 8, for the same bicycle built twice in
one Python process:

  sympy   sympy.physics.mechanics, built here: four rigid bodies (rear wheel
          R, rear frame B, front frame H, front wheel F) with Meijaard's
          Table 1 inertias, knife-edge wheels rolling on flat ground;
          KanesMethod with the coordinates of the nhs file (x, y, psi, phi,
          thetaB, delta, thetaR, thetaF), the speeds u = q_dot, the pitch
          thetaB dependent (the front contact's configuration constraint),
          five velocity constraints (the front contact point of the front
          wheel at rest in three directions, the vertical one being the
          configuration constraint's velocity form, as in PyDy's bicycle;
          the rear contact's two), independent speeds roll rate, steer rate
          and rear wheel rate. kanes_equations gives the mass matrix M (8 x 8:
          three dynamic rows, five acceleration-constraint rows) and the
          forcing F; one RHS evaluation = M and F evaluated, then
          numpy.linalg.solve(M, F), as pydy's generated ODE functions do and
          as bench/python_vs_sympy.py does. Two ways to make M and F
          numeric:
            lambdify  sympy.lambdify(modules="numpy", cse=True) of M and of F
                      (the route of python_vs_sympy.py), called with NumPy
                      arrays;
            cse+print one sympy.cse of [M, F] together, printed by sympy's
                      PythonCodePrinter into one Python function of plain
                      floats (math module), then exec'd: the cse code
                      printer route, the fastest pure-Python evaluation.
  nhs     nhs.System("examples/bicycle/whipple-bicycle.toml"): System.field
          (formulation second-kind (the default) and first-kind; backends
          traced (the default for a file), compiled (the traced field
          compiled at run time; cached) and library), each as f(t, x) from
          Python and as the same q_ddot in a C++ loop (Field._bench_cpp);
          accel_batch per row; System.accel(q=..., qdot=...) from Python and
          its C++ loop (System._bench_accel), on the admitted model that
          System.accel keeps between calls (per call: the state admitted on C,
          the margins, the field, Gauss's Z), each also as a ratio to the
          traced second kind's field in its C++ loop (issue 61's goal: 30x).

Before any timing the sympy model is validated:
  (1) linearized about upright running at v = 5 m/s by central
      differences (fourth order) of its RHS on the reduced state (roll,
      steer, roll rate, steer rate), each perturbed state made consistent
      (pitch from the configuration constraint by Newton, the dependent
      speeds from the velocity constraints): its four eigenvalues against
      Meijaard's Table 2 (to 1e-8 relative);
  (2) at a generic state (roll 0.1, steer 0.05, pitch solved, roll rate 0.5,
      steer rate 0, thetaR_dot = -15) the admitted state and q_ddot against
      System.accel's (roll and steer to ~1e-10), and every nhs field
      against sympy's at the timing state.

How: every candidate is timed with timeit in batches of about --budget
seconds; the candidates are interleaved (one batch of each per round, the
C++ loops too), --repeats rounds, median per candidate. Same process, same
state (the one nhs admits in (2)) for every candidate.

Output: <out-dir>/bicycle_vs_sympy.md and .json, with the command.

Usage (from the repository root, with the Python module built):
  PYTHONPATH=build/python /usr/bin/python3 bench/bicycle_vs_sympy.py [--quick]
      [--out-dir reports/bench] [--repeats 7] [--budget 0.2] [--no-compiled]
--quick: 3 rounds of 0.05 s batches, no compiled backend (the first use of
a compiled field compiles it: ~15 s per formulation). The sympy build is
always made (1-2 minutes, most of it in lambdify).
"""
import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
import timeit

try:
    import numpy as np
    import sympy as sm
    import sympy.physics.mechanics as me
    from sympy.printing.pycode import PythonCodePrinter
except ImportError as e:  # exit 77: ctest's SKIP_RETURN_CODE
    print("bicycle_vs_sympy: skipped: %s (needs python3-numpy, -sympy)" % e, file=sys.stderr)
    sys.exit(77)

import nhs

import accel_cost  # bench/accel_cost.py

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BICYCLE = os.path.join(ROOT, "examples", "bicycle", "whipple-bicycle.toml")
COORDS = ["x", "y", "psi", "phi", "thetaB", "delta", "thetaR", "thetaF"]
I_PHI, I_THETAB, I_DELTA, I_THETAR = 3, 4, 5, 6

# Meijaard Table 1, in the names of the nhs file (lambda = pi/10).
TABLE1 = [("w", "1.02"), ("c", "0.08"), ("lambda", "pi/10"), ("g", "9.81"),
          ("rR", "0.3"), ("mR", "2"), ("IRxx", "0.0603"), ("IRyy", "0.12"),
          ("xB", "0.3"), ("zB", "-0.9"), ("mB", "85"), ("IBxx", "9.2"), ("IByy", "11"),
          ("IBzz", "2.8"), ("IBxz", "2.4"), ("xH", "0.9"), ("zH", "-0.7"), ("mH", "4"),
          ("IHxx", "0.05892"), ("IHyy", "0.06"), ("IHzz", "0.00708"), ("IHxz", "-0.00756"),
          ("rF", "0.35"), ("mF", "3"), ("IFxx", "0.1405"), ("IFyy", "0.28")]
PARAM_VALUES = [math.pi / 10 if v == "pi/10" else float(v) for _, v in TABLE1]

# Meijaard Table 2 at v = 5 m/s, correctly rounded (docs/bicycle.md: the
# printed real part of the weave pair, ...845, is one unit off in its 15th
# digit; the closed form of Appendix A gives ...8419).
TABLE2_V5 = [complex(-14.0783896927982, 0), complex(-0.775341882195842, 4.46486771378823),
             complex(-0.775341882195842, -4.46486771378823), complex(-0.322866429004087, 0)]
EIG_TOL = 1e-8

# The generic state of check (2), as System.accel takes it.
STATE_Q = [0, 0, 0, 0.1, 0, 0.05, 0, 0]
STATE_Z = [0.5, 0, -15]  # (roll rate, steer rate, thetaR_dot)
ACCEL_TOL = 1e-10
RUN_T_END = 5  # the runs of "inside a run"

# The published anchor: PyDy's Cython right-hand side of this bicycle.
PYDY_CYTHON_US = 8.0
GOAL_RATIO = 10.0


# --------------------------------------------------------------- sympy model
def bicycle_frames(q, u, lam):
    """The bicycle's frames N, Y, L, B, R, H, F with their angular velocities.

    Axes x forward, y right, z down: yaw Y, lean L, rear frame B = Rz(psi)
    Rx(phi) Ry(thetaB), rear wheel R, front frame H turned by delta about
    the steer axis s (down and forward, lambda from the vertical), front
    wheel F. Angular velocities in the speeds u = q_dot."""
    _, _, psi, phi, thetaB, delta, thetaR, thetaF = q
    _, _, upsi, uphi, uthetaB, udelta, uthetaR, uthetaF = u
    N = me.ReferenceFrame("N")
    Y = N.orientnew("Y", "Axis", [psi, N.z])
    L = Y.orientnew("L", "Axis", [phi, Y.x])
    B = L.orientnew("B", "Axis", [thetaB, L.y])
    R = B.orientnew("R", "Axis", [thetaR, B.y])
    s = sm.sin(lam) * B.x + sm.cos(lam) * B.z
    H = B.orientnew("H", "Axis", [delta, s])
    F = H.orientnew("F", "Axis", [thetaF, H.y])
    Y.set_ang_vel(N, upsi * N.z)
    L.set_ang_vel(Y, uphi * Y.x)
    B.set_ang_vel(L, uthetaB * L.y)
    R.set_ang_vel(B, uthetaR * B.y)
    H.set_ang_vel(B, udelta * s)
    F.set_ang_vel(H, uthetaF * H.y)
    return N, Y, L, B, R, H, F


def bicycle_model():
    """The bicycle in sympy.physics.mechanics terms (untimed: the build
    times KanesMethod, kanes_equations and the code generation)."""
    t = me.dynamicsymbols._t
    q = me.dynamicsymbols(COORDS)
    u = me.dynamicsymbols(["u_" + c for c in COORDS])
    x, y, psi, phi, thetaB, delta, thetaR, thetaF = q
    ux, uy, upsi, uphi, uthetaB, udelta, uthetaR, uthetaF = u
    # "lambda" is a Python keyword: the symbol is lam (printed code, lambdify)
    P = {name: sm.Symbol("lam" if name == "lambda" else name) for name, _ in TABLE1}
    w, c, lam, g, rR, rF = (P[k] for k in ("w", "c", "lambda", "g", "rR", "rF"))

    N, Y, L, B, R, H, F = bicycle_frames(q, u, lam)

    # Points: rear contact P (x, y, 0), rear wheel centre C_R = P - rR e3
    # (e3 = L.z, down in the rear wheel's plane), a point A of the steer
    # axis (the axis meets the ground w + c ahead of P in the reference
    # configuration), the mass centres, the front wheel centre C_F and its
    # contact P_F = C_F + rF d, d the unit downward direction in the front
    # wheel's plane.
    O = me.Point("O")
    O.set_vel(N, 0)
    Pr = O.locatenew("P", x * N.x + y * N.y)
    Pr.set_vel(N, ux * N.x + uy * N.y)
    CR = Pr.locatenew("C_R", -rR * L.z)
    # the rear wheel rolls: its material point at the contact is at rest (as
    # PyDy's bicycle: WR_cont.set_vel(N, 0); WR_mc.v2pt_theory(WR_cont, N, WR))
    CR.set_vel(N, R.ang_vel_in(N).cross(-rR * L.z))
    A = CR.locatenew("A", (w + c) * B.x + rR * B.z)
    GB = CR.locatenew("G_B", P["xB"] * B.x + (P["zB"] + rR) * B.z)
    GH = A.locatenew("G_H", (P["xH"] - w - c) * H.x + P["zH"] * H.z)
    CF = A.locatenew("C_F", -c * H.x - rF * H.z)
    for pt, base, frame in ((A, CR, B), (GB, CR, B), (GH, A, H), (CF, A, H)):
        pt.v2pt_theory(base, N, frame)
    nz = H.y.dot(N.z)
    d = (N.z - nz * H.y) / sm.sqrt(1 - nz ** 2)
    PF = CF.locatenew("P_F", rF * d)
    PF.v2pt_theory(CF, N, F)  # the front wheel's material point at the contact

    # Configuration constraint: the front contact on the ground (z down).
    f_h = PF.pos_from(Pr).dot(N.z)
    # Velocity constraints: the front wheel's contact point at rest (along
    # the heading, across it, and vertically: the last is d f_h/dt), and the
    # rear contact P moving as the rolling rear wheel carries it.
    vF = PF.vel(N)
    v_rear = Pr.vel(N) - (CR.vel(N) + L.ang_vel_in(N).cross(rR * L.z))
    vel = [vF.dot(Y.x), vF.dot(Y.y), vF.dot(N.z), v_rear.dot(N.x), v_rear.dot(N.y)]

    # Bodies: central inertias in Meijaard's axes (those of B, and of H,
    # which turns with the steer); the wheels are axisymmetric.
    bodies = [
        me.RigidBody("R", CR, R, P["mR"], (me.inertia(B, P["IRxx"], P["IRyy"], P["IRxx"]), CR)),
        me.RigidBody("B", GB, B, P["mB"], (me.inertia(B, P["IBxx"], P["IByy"], P["IBzz"], 0, 0, P["IBxz"]), GB)),
        me.RigidBody("H", GH, H, P["mH"], (me.inertia(H, P["IHxx"], P["IHyy"], P["IHzz"], 0, 0, P["IHxz"]), GH)),
        me.RigidBody("F", CF, F, P["mF"], (me.inertia(H, P["IFxx"], P["IFyy"], P["IFxx"]), CF)),
    ]
    loads = [(b.masscenter, b.mass * g * N.z) for b in bodies]  # gravity, z down
    m = type("BicycleModel", (), {})()
    m.N, m.q, m.u, m.params = N, q, u, [P[name] for name, _ in TABLE1]
    m.kd = [qi.diff(t) - ui for qi, ui in zip(q, u)]
    m.q_ind = [x, y, psi, phi, delta, thetaR, thetaF]
    m.q_dep = [thetaB]
    m.u_ind = [uphi, udelta, uthetaR]
    # the order of the dependent speeds is that of the pivots of sympy's
    # LUsolve of the velocity constraints (no pivoting on symbolic entries):
    # the front wheel rate against the forward component, the yaw rate
    # against the lateral one, the pitch rate against the vertical one, all
    # non-zero near upright running (the yaw rate's forward coefficient is
    # zero there: the order (yaw, pitch, front wheel) gives 0/0 upright)
    m.u_dep = [uthetaF, upsi, uthetaB, ux, uy]
    m.f_h, m.vel, m.bodies, m.loads = f_h, vel, bodies, loads
    return m


def printed_function(repl, reduced, plain, args, name):
    """The output of sympy.cse (repl, reduced: Matrices), its symbols made
    plain by the dict `plain`, printed by PythonCodePrinter into one Python
    function of plain floats (math module): the function and its source."""
    pr = PythonCodePrinter({"fully_qualified_modules": False})
    lines = ["def %s(%s):" % (name, ", ".join("_a%d" % k for k in range(len(args))))]
    for k, group in enumerate(args):
        lines.append("    %s, = _a%d" % (", ".join(pr.doprint(a) for a in group), k))
    for sym, e in repl:
        lines.append("    %s = %s" % (pr.doprint(sym), pr.doprint(e.xreplace(plain))))
    out = []
    for e in reduced:
        out.append("[" + ", ".join("[" + ", ".join(pr.doprint(v.xreplace(plain)) for v in row) + "]"
                                   for row in e.tolist()) + "]")
    lines.append("    return " + ", ".join(out))
    src = "\n".join(lines) + "\n"
    namespace = {k: getattr(math, k) for k in dir(math) if not k.startswith("_")}
    exec(compile(src, "<%s>" % name, "exec"), namespace)
    return namespace[name], src


def sympy_build(model):
    """KanesMethod, kanes_equations, then both code generations (each
    timed), and the (untimed) helpers of the validation."""
    out = {}
    mdl = model
    t0 = time.perf_counter()
    km = me.KanesMethod(mdl.N, q_ind=mdl.q_ind, q_dependent=mdl.q_dep,
                        configuration_constraints=[mdl.f_h], u_ind=mdl.u_ind,
                        u_dependent=mdl.u_dep, velocity_constraints=mdl.vel, kd_eqs=mdl.kd)
    t1 = time.perf_counter()
    km.kanes_equations(mdl.bodies, mdl.loads)
    t2 = time.perf_counter()
    M, F = km.mass_matrix, km.forcing
    print("  sympy: KanesMethod %.1f s, kanes_equations %.1f s" % (t1 - t0, t2 - t1), file=sys.stderr, flush=True)
    # (a) lambdify, numpy, cse, one function each for M and F
    fM = sm.lambdify([mdl.q, mdl.u, mdl.params], M, modules="numpy", cse=True)
    fF = sm.lambdify([mdl.q, mdl.u, mdl.params], F, modules="numpy", cse=True)
    t3 = time.perf_counter()
    print("  sympy: lambdify %.1f s" % (t3 - t2), file=sys.stderr, flush=True)
    # (b) cse of [M, F] together, printed (plain Symbols for the printer)
    qs = sm.symbols(["q_" + c for c in COORDS])
    us = sm.symbols(["u_" + c for c in COORDS])
    to_plain = dict(zip(mdl.q, qs))
    to_plain.update(zip(mdl.u, us))
    t4 = time.perf_counter()
    repl, reduced = sm.cse([M, F], symbols=sm.numbered_symbols("_s"))
    t5 = time.perf_counter()
    fMF, src = printed_function(repl, reduced, to_plain, [qs, us, mdl.params], "mf")
    t6 = time.perf_counter()
    ncse = len(repl)
    print("  sympy: cse %.1f s, printer %.1f s" % (t5 - t4, t6 - t5), file=sys.stderr, flush=True)
    leftover = sorted(str(d) for d in (M.atoms(sm.Derivative) | F.atoms(sm.Derivative)))
    out.update(kanes_method_s=t1 - t0, kanes_equations_s=t2 - t1, lambdify_s=t3 - t2,
               build_lambdify_s=t3 - t0, cse_alone_s=t5 - t4, cse_print_s=t6 - t4,
               build_cse_print_s=(t2 - t0) + (t6 - t4), mass_matrix_shape=list(M.shape),
               forcing_shape=list(F.shape), leftover_derivatives=leftover,
               cse_subexpressions=ncse,
               printed_source_chars=len(src), speeds_order=[str(v) for v in km.u])
    # km.u = (u_ind, u_dep): the permutation to the coordinates' order
    perm = np.array([list(km.u).index(ui) for ui in mdl.u])
    p_arr = np.array(PARAM_VALUES)
    p_list = list(PARAM_VALUES)
    n = len(COORDS)

    def rhs_lambdify(_t, y):
        qv, uv = y[:n], y[n:]
        ud = np.linalg.solve(fM(qv, uv, p_arr), fF(qv, uv, p_arr)).ravel()
        return np.concatenate((uv, ud[perm]))

    def rhs_printed(_t, y):
        yl = y.tolist()
        Mv, Fv = fMF(yl[:n], yl[n:], p_list)
        ud = np.linalg.solve(Mv, Fv).ravel()
        return np.concatenate((y[n:], ud[perm]))

    # helpers of the validation (untimed): f_h and d f_h/d thetaB, the
    # velocity constraints' matrix (they are linear and homogeneous in u)
    thetaB = mdl.q[I_THETAB]
    h_fun = sm.lambdify([mdl.q, mdl.params], [mdl.f_h, mdl.f_h.diff(thetaB)], modules="numpy", cse=True)
    K = sm.Matrix(mdl.vel).jacobian(mdl.u)
    assert sm.Matrix(mdl.vel).subs({ui: 0 for ui in mdl.u}) == sm.zeros(len(mdl.vel), 1)
    K_fun = sm.lambdify([mdl.q, mdl.params], K, modules="numpy", cse=True)
    S = {"rhs_lambdify": rhs_lambdify, "rhs_printed": rhs_printed, "fM": fM, "fF": fF, "fMF": fMF,
         "p_arr": p_arr, "p_list": p_list, "h_fun": h_fun, "K_fun": K_fun, "report": out}
    return S


def consistent_state(S, phi, delta, phid, deltad, thetaRd):
    """(q, u) on the constraints: x = y = psi = thetaR = thetaF = 0, the
    pitch by Newton on f_h, the five dependent speeds from the velocity
    constraints."""
    p = S["p_arr"]
    q = np.zeros(8)
    q[I_PHI], q[I_DELTA] = phi, delta
    for _ in range(50):
        f, df = S["h_fun"](q, p)
        step = f / df
        q[I_THETAB] -= step
        if abs(step) < 1e-17:
            break
    K = np.array(S["K_fun"](q, p), dtype=float)
    ind = [I_PHI, I_DELTA, I_THETAR]
    dep = [i for i in range(8) if i not in ind]
    u = np.zeros(8)
    u[ind] = phid, deltad, thetaRd
    u[dep] = np.linalg.solve(K[:, dep], -K[:, ind] @ u[ind])
    return q, u, float(S["h_fun"](q, p)[0]), float(np.max(np.abs(K @ u)))


def linearization_check(S, v=5.0, h=1e-4):
    """The eigenvalues of the sympy RHS linearized about upright running at
    speed v on (phi, delta, phi_dot, delta_dot), by fourth-order central
    differences, against Meijaard's Table 2."""
    rR = PARAM_VALUES[[k for k, _ in TABLE1].index("rR")]
    thetaRd = -v / rR

    def g(xr):
        q, u, _, _ = consistent_state(S, xr[0], xr[1], xr[2], xr[3], thetaRd)
        f = S["rhs_printed"](0.0, np.concatenate((q, u)))
        return np.array([u[I_PHI], u[I_DELTA], f[8 + I_PHI], f[8 + I_DELTA]])

    J = np.zeros((4, 4))
    for j in range(4):
        e = np.zeros(4)
        e[j] = h
        J[:, j] = (-g(2 * e) + 8 * g(e) - 8 * g(-e) + g(-2 * e)) / (12 * h)
    ev = sorted(np.linalg.eigvals(J), key=lambda z: (round(z.real, 6), -z.imag))
    ref = sorted(TABLE2_V5, key=lambda z: (round(z.real, 6), -z.imag))
    rel = [abs(a - b) / abs(b) for a, b in zip(ev, ref)]
    # the same with the lambdified RHS (the other code path), and nhs's own
    return {"v": v, "h": h, "jacobian": J.tolist(),
            "eigenvalues": [[z.real, z.imag] for z in ev],
            "table2": [[z.real, z.imag] for z in ref], "rel_error": rel, "max_rel_error": max(rel),
            "tolerance": EIG_TOL, "pass": bool(max(rel) <= EIG_TOL)}


# ------------------------------------------------------------------ timing
def calibrate(f, budget):
    f()
    one = timeit.timeit(f, number=3) / 3
    return max(1, int(budget / max(one, 1e-7)))


def interleaved(cands, repeats, budget):
    """cands: list of (key, kind, callable); kind "py" (timed by timeit) or
    "cpp" (callable(number) -> seconds per call). One batch of each per
    round, `repeats` rounds; seconds per call: median, min, max."""
    numbers = {}
    for key, kind, f in cands:
        if kind == "py":
            numbers[key] = calibrate(f, budget)
        else:
            one = f(10)
            numbers[key] = max(1, int(budget / max(one, 1e-8)))
    samples = {key: [] for key, _, _ in cands}
    for _ in range(repeats):
        for key, kind, f in cands:
            nb = numbers[key]
            samples[key].append(timeit.timeit(f, number=nb) / nb if kind == "py" else f(nb))
    return {key: {"median_s": statistics.median(v), "min_s": min(v), "max_s": max(v),
                  "calls_per_batch": numbers[key], "samples_s": v} for key, v in samples.items()}


# ------------------------------------------------------------------ report
def fmt_us(s):
    us = s * 1e6
    return "%.2f" % us if us < 100 else "%.0f" % us


def fmt_t(s):
    return "%.2f s" % s if s >= 1 else "%.3g ms" % (s * 1e3)


def markdown_head(rep):
    """The report's title, provenance and what is compared (Markdown lines)."""
    sy = rep["sympy"]
    L = ["# The Whipple bicycle's RHS: nhs against sympy.physics.mechanics (`bench/bicycle_vs_sympy.py`)", "",
         "Generated by `%s` on %s (repository HEAD %s%s). Python %s, numpy %s, sympy %s; module `%s`. "
         "Load average at the start: %s, at the end: %s."
         % (rep["command"], rep["date"], rep["git_head"], ", working tree modified" if rep["git_dirty"] else "",
            rep["python"], rep["numpy"], rep["sympy_version"], rep["nhs_module"], rep["load_avg"],
            rep["load_avg_end"]), "",
         "The bicycle of Meijaard, Papadopoulos, Ruina, Schwab, Proc. R. Soc. A 463 (2007) 1955–1982 "
         "(Table 1 parameters), in double: one evaluation of the field (q, q̇) ↦ (q̇, q̈), n = 8 "
         "(x, y, ψ, φ, θ_B, δ, θ_R, θ_F), at one state for every candidate.", "",
         "- **sympy**: `sympy.physics.mechanics` model built by this script: bodies R, B, H, F; "
         "`KanesMethod` with u = q̇, θ_B dependent (configuration constraint: the front contact on "
         "the ground), five velocity constraints (front wheel contact at rest along the heading, "
         "across it and vertically, the last being the configuration constraint's velocity form as "
         "in PyDy's bicycle; the rear contact carried by the rolling rear wheel, two), "
         "independent speeds φ̇, δ̇, θ̇_R. `kanes_equations` gives M (%d × %d: 3 dynamic rows, 5 "
         "acceleration-constraint rows) and F; the RHS solves M u̇ = F with `numpy.linalg.solve` "
         "per call (pydy's route). *lambdify*: `lambdify(modules=\"numpy\", cse=True)` of M and of "
         "F (as `bench/python_vs_sympy.py`), called with NumPy arrays. *cse+print*: one `sympy.cse` "
         "of [M, F] (%d subexpressions) printed by `PythonCodePrinter` into one function of Python "
         "floats (`math`), the cse code printer route."
         % (sy["mass_matrix_shape"][0], sy["mass_matrix_shape"][1], sy["cse_subexpressions"]),
         "- **nhs**: `nhs.System(\"examples/bicycle/whipple-bicycle.toml\")`. `field(formulation, "
         "field=backend)` is f(t, x) with x = (q, q̇); *C++ loop* is the same q̈ in a C++ loop "
         "(`Field._bench_cpp`), without Python. `accel` is `System.accel(q=..., qdot=...)`, which "
         "keeps the admitted model (formulation, field, system at its parameters) between calls and "
         "per call admits the state on C (projected), checks the margins, evaluates the field and "
         "Gauss's Z; its C++ loop is `System._bench_accel`.",
         "- The machine (%d cores): %s" % (
             rep["cpus"], "shared and busy while this ran (load average above 3/4 of its cores): absolute "
             "times are inflated; the ratios, from interleaved rounds, less so." if rep["busy"] else
             "quiet (load average below 3/4 of its cores)."),
         "- Timing: `timeit` batches of ~%g s, all candidates interleaved (one batch each per round, "
         "C++ loops included), %d rounds, median (min–max over the rounds). Same process, same "
         "state: the one `System.accel` admits at φ = 0.1, δ = 0.05, φ̇ = 0.5, δ̇ = 0, θ̇_R = −15."
         % (rep["budget_s"], rep["repeats"]), ""]

    return L


def markdown_validation(rep):
    """Markdown lines: the sympy model's linearization and generic state against nhs."""
    V, Lc = rep["validation"], rep["validation"]["linearization"]
    L = ["## Validation of the sympy model", "",
          "**(1) Linearization about upright running at v = %g m/s** (θ̇_R = −v/r_R): the sympy RHS "
          "(cse+print) differentiated by fourth-order central differences (h = %g) on (φ, δ, φ̇, δ̇), "
          "each perturbed state made consistent (θ_B by Newton on the configuration constraint, "
          "the five dependent speeds from the velocity constraints). Tolerance %g relative: **%s**."
          % (Lc["v"], Lc["h"], Lc["tolerance"], "pass" if Lc["pass"] else "FAIL"), "",
          "| eigenvalue | sympy model | Meijaard Table 2 | relative error | nhs linearize (double) |",
          "|---|---|---|---|---|"]
    nhs_ev = V.get("nhs_linearize_eigenvalues") or [None] * 4
    for k, (a, b, e) in enumerate(zip(Lc["eigenvalues"], Lc["table2"], Lc["rel_error"])):
        c = nhs_ev[k] if k < len(nhs_ev) else None
        L.append("| %d | %s | %s | %.1e | %s |" % (
            k + 1, "%.15g %+.15gi" % tuple(a), "%.15g %+.15gi" % tuple(b), e,
            "%.15g %+.15gi" % tuple(c) if c else "—"))
    A = V["accel"]
    L += ["", "(Table 2 as correctly rounded: its printed weave real part −0.775341882195845 is one "
          "unit off in the 15th digit, docs/bicycle.md.)", "",
          "**(2) A generic state**: φ = 0.1, δ = 0.05, φ̇ = 0.5, δ̇ = 0, θ̇_R = −15 (x = y = ψ = θ_R = "
          "θ_F = 0). nhs: `System.accel(q=%s, z=%s)` (%s), which solves θ_B and the dependent rates "
          "itself; sympy: θ_B by Newton on its own configuration constraint, the dependent speeds "
          "from its velocity constraints, then its RHS. Tolerance %g on φ̈ and δ̈: **%s**."
          % (STATE_Q, STATE_Z, A["nhs_formulation"], ACCEL_TOL, "pass" if A["pass"] else "FAIL"), "",
          "| quantity | nhs | sympy | abs. difference |", "|---|---|---|---|",
          "| θ_B (solved) | %.17g | %.17g | %.1e |" % (A["nhs_q"][I_THETAB], A["sympy_q"][I_THETAB],
                                                    abs(A["nhs_q"][I_THETAB] - A["sympy_q"][I_THETAB])),
          "| max over q̇ (dependent rates) | | | %.1e |" % A["max_qdot_diff"]]
    for i, name in enumerate(COORDS):
        L.append("| q̈ %s | %.17g | %.17g | %.1e |" % (name, A["nhs_qddot"][i], A["sympy_qddot"][i],
                                                     abs(A["nhs_qddot"][i] - A["sympy_qddot"][i])))
    L += ["", "Residuals of the sympy state: configuration constraint %.1e, velocity constraints %.1e. "
          "Agreement of every timed field at the timing state (max |q̈ − sympy cse+print q̈|): %s."
          % (A["sympy_f_h"], A["sympy_vel_residual"],
             ", ".join("%s %.1e" % (k, v) for k, v in V["fields_vs_sympy"].items())), ""]

    return L


def markdown_build(rep):
    """Markdown lines: the build times of the sympy routes and of nhs's load and fields."""
    sy = rep["sympy"]
    L = ["## Build", "",
          "| tool | step | time |", "|---|---|---|",
          "| sympy | KanesMethod | %s |" % fmt_t(sy["kanes_method_s"]),
          "| sympy | kanes_equations | %s |" % fmt_t(sy["kanes_equations_s"]),
          "| sympy | lambdify of M and F (numpy, cse) | %s |" % fmt_t(sy["lambdify_s"]),
          "| sympy | **total, lambdify route** | **%s** |" % fmt_t(sy["build_lambdify_s"]),
          "| sympy | cse of [M, F] + PythonCodePrinter + exec | %s (of which cse alone %s) |"
          % (fmt_t(sy["cse_print_s"]), fmt_t(sy["cse_alone_s"])),
          "| sympy | **total, cse+print route** | **%s** |" % fmt_t(sy["build_cse_print_s"]),
          "| nhs | load the file (`nhs.System(path)`) | %s |" % fmt_t(rep["nhs"]["load_s"])]
    for k, v in rep["nhs"]["field_setup_s"].items():
        L.append("| nhs | `field(%s)`, first (traces, or compiles / loads the compiled field) | %s |" % (k, fmt_t(v)))
    L += ["", "A compiled field is compiled by the C++ compiler on its first use and kept in "
          "`~/.cache/nhs/compiled/`, named by a hash of its source; a set-up time of seconds above "
          "means that this process compiled it (the cache missed).", "",
          "lambdify spends most of its time printing the whole (un-cse'd) M and F with `str()` for "
          "the generated function's docstring (cProfile: `Matrix.__str__`), not in the cse, which alone "
          "takes %s for both; its output is small (%d characters of printed cse code here)."
          % (fmt_t(sy["cse_alone_s"]), sy["printed_source_chars"]), ""]

    return L


def markdown_timings(rep):
    """Markdown lines: one RHS evaluation per candidate, the runs, the headline."""
    T = rep["timings"]
    L = ["## One RHS evaluation", "",
          "| tool | how | µs per call (median) | min–max | ratio sympy lambdify ÷ this |",
          "|---|---|---|---|---|"]
    ref = T["sympy lambdify (numpy arrays)"]["median_s"]
    for key, r in T.items():
        L.append("| %s | %s | %s | %s–%s | %.1f |" % (
            key.split(" ")[0], key.split(" ", 1)[1], fmt_us(r["median_s"]), fmt_us(r["min_s"]),
            fmt_us(r["max_s"]), ref / r["median_s"]))
    h = rep["headline"]
    L += ["", "Inside a run (`System.run(t_end=%g, dt_out=0.1, q0=..., z0=...)` from the same state, "
          "stepper auto, default tolerances; `wall_seconds / rhs_calls`: the stepper, the output and "
          "the run's set-up included; median of %d runs after one untimed):" % (RUN_T_END, max(3, rep["repeats"])), "",
          "| formulation | stepper | RHS calls | µs per RHS call | max |C| |", "|---|---|---|---|---|"]
    for r in rep["runs"]:
        L.append("| %s | %s | %d | %s | %.1e |" % (r["formulation"], r["stepper"], r["rhs_calls"],
                                                  fmt_us(r["per_rhs_s"]), r["max_C"]))
    L += ["", "Why a second-kind `Field` call costs less than a run's RHS call, and a first-kind one more "
          "(read from the code, not timed apart): for the second kind, `FieldOf::unlocked_accel` "
          "(python/src/module.cpp) evaluates `Formulation::field`, the traced or compiled program alone, "
          "while a run's figure also holds the stepper, the output and the set-up; for the first kind it "
          "evaluates `Formulation::acceleration`, which first takes z = z(q, q̇) from the library's chart "
          "and checks it against ψ (codegen/generated_formulation.cpp, `GeneratedFormulation::acceleration`), "
          "where a run integrates (q, z) directly.", ""]
    L += ["**Headline**: sympy's lambdified RHS %s µs per call; nhs's default field (second kind, "
          "traced) from Python %s µs: **%.1fx** (median of the per-round ratios: %.1fx; goal: at least %gx, %s). Against the fastest sympy "
          "route (cse+print, %s µs): %.1fx. The fastest nhs field from Python: %s, %s µs (%.1fx the "
          "lambdified RHS). The issue's published anchor, PyDy's Cython RHS of this bicycle: about "
          "%g µs (not measured here). Per RHS call inside a run (stepper, output and set-up "
          "included, so an upper bound of the bare field): %s."
          % (fmt_us(h["sympy_lambdify_s"]), fmt_us(h["nhs_default_s"]), h["ratio"], h["ratio_paired"], GOAL_RATIO,
             "met" if h["goal_met"] else "**not met**", fmt_us(h["sympy_fastest_s"]), h["ratio_vs_fastest_sympy"],
             h["nhs_fastest_key"], fmt_us(h["nhs_fastest_s"]), h["ratio_fastest"], PYDY_CYTHON_US,
             "; ".join("%s %s µs, %.1fx the lambdified RHS" % (r["formulation"], fmt_us(r["per_rhs_s"]),
                                                               h["sympy_lambdify_s"] / r["per_rhs_s"])
                       for r in rep["runs"]) or "none"), "",
          "sympy's split (same rounds): M and F evaluated %s µs (lambdify) and %s µs (cse+print); "
          "`numpy.linalg.solve` of the 8 × 8 system %s µs." % (
              fmt_us(T["sympy M,F only (lambdify)"]["median_s"]) if "sympy M,F only (lambdify)" in T else "—",
              fmt_us(T["sympy M,F only (cse+print)"]["median_s"]) if "sympy M,F only (cse+print)" in T else "—",
              fmt_us(T["sympy linalg.solve only"]["median_s"]) if "sympy linalg.solve only" in T else "—"), ""]
    A = h.get("accel") or {}
    if A:
        L += ["**`System.accel` and the first kind's field against the traced second kind's field** "
              "(its C++ loop, %s µs; the same rounds). `System.accel` keeps the admitted model "
              "(formulation, field, system at its parameters) between calls: per call, the state's "
              "admission on C, the margins, the field and Gauss's Z. Goal: accel ≤ %gx; the first "
              "kind's `Field` ≤ the second kind's." % (fmt_us(A["traced_field_cpp_s"]), A["goal_accel"]), "",
              "| call | µs | ÷ traced second-kind field (C++ loop) |", "|---|---|---|"]
        for k, r in A.items():
            if isinstance(r, dict):
                L.append("| %s | %s | %.1f |" % (k, fmt_us(r["median_s"]), r["over_traced_field"]))
        L.append("")
    L.append("Total time of the script: %.0f s." % rep["total_s"])
    return L


def markdown(rep):
    """bicycle_vs_sympy.md from the report rep (bicycle_vs_sympy.json)."""
    L = markdown_head(rep) + markdown_validation(rep) + markdown_build(rep) + markdown_timings(rep)
    return "\n".join(L) + "\n"


def parse_args():
    """The command line (--quick sets the repeats, the budget and --no-compiled)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="3 rounds of 0.05 s batches, no compiled backend (the sympy build is still made)")
    ap.add_argument("--out-dir", default="reports/bench")
    ap.add_argument("--repeats", type=int, default=7, help="interleaved rounds (median)")
    ap.add_argument("--budget", type=float, default=0.2, help="seconds per timeit batch")
    ap.add_argument("--no-compiled", action="store_true", help="leave out the compiled backend")
    args = ap.parse_args()
    if args.quick:
        args.repeats, args.budget, args.no_compiled = 3, 0.05, True
    return args


def start_report(args):
    """The report's provenance: command, date, versions, load, settings."""
    cmdline = ("PYTHONPATH=build/python /usr/bin/python3 bench/bicycle_vs_sympy.py " + " ".join(sys.argv[1:])).strip()
    git = lambda *a: subprocess.run(["git", *a], capture_output=True, text=True, cwd=HERE).stdout.strip()
    rep = {"date": time.strftime("%Y-%m-%d %H:%M"), "command": cmdline, "quick": args.quick,
           "git_head": git("rev-parse", "--short", "HEAD"),
           "git_dirty": bool(git("status", "--porcelain", "--untracked-files=no")),
           "python": platform.python_version(), "numpy": np.__version__, "sympy_version": sm.__version__,
           "nhs_module": os.path.relpath(os.path.dirname(nhs.__file__)),
           "load_avg": " ".join("%.2f" % x for x in os.getloadavg()), "repeats": args.repeats,
           "budget_s": args.budget, "system_file": os.path.relpath(BICYCLE, ROOT),
           "parameters": dict(TABLE1)}
    return rep


def load_system(rep):
    """The nhs bicycle, its load time in rep["nhs"]; exits where a parameter is not Table 1's."""
    t0 = time.perf_counter()
    system = nhs.System(BICYCLE)
    rep["nhs"] = {"load_s": time.perf_counter() - t0, "formulations": system.formulations()}
    assert list(system.coordinates) == COORDS, system.coordinates
    for (name, _), value in zip(TABLE1, PARAM_VALUES):
        if float(system.parameters[name]) != value:
            raise SystemExit("parameter %s: file %s, Table 1 %r" % (name, system.parameters[name], value))
    return system


def validate(system, S, rep):
    """Checks (1) the sympy linearization against Table 2 and (2) nhs against sympy at
    the generic state, into rep["validation"]; returns (lin, acc, nhs's q, nhs's qdot)."""
    print("validation: linearization", file=sys.stderr, flush=True)
    V = rep["validation"] = {}
    V["linearization"] = lin = linearization_check(S)
    try:
        nl = system.linearize("upright", at={"v": 5})
        V["nhs_linearize_eigenvalues"] = sorted(
            ([complex(z).real, complex(z).imag] for z in nl["eigenvalues"]
             if abs(complex(z)) > 1e-6), key=lambda z: (round(z[0], 6), -z[1]))
    except nhs.Error as e:
        V["nhs_linearize_eigenvalues"] = None
        V["nhs_linearize_error"] = str(e)
    print("  eigenvalues %s; max rel. error %.1e (%s)" % (
        ", ".join("%.12g%+.12gi" % tuple(z) for z in lin["eigenvalues"]), lin["max_rel_error"],
        "pass" if lin["pass"] else "FAIL"), file=sys.stderr, flush=True)

    a = system.accel(q=STATE_Q, z=STATE_Z)
    qn, qdn, qddn = (np.array(v, dtype=float) for v in (a.q, a.qdot, a.qddot))
    qs, us, fh, velres = consistent_state(S, STATE_Q[I_PHI], STATE_Q[I_DELTA], *STATE_Z)
    fs = S["rhs_printed"](0.0, np.concatenate((qs, us)))[8:]
    fl = S["rhs_lambdify"](0.0, np.concatenate((qs, us)))[8:]
    acc = {"nhs_formulation": a.formulation, "nhs_q": qn.tolist(), "nhs_qdot": qdn.tolist(),
           "nhs_qddot": qddn.tolist(), "sympy_q": qs.tolist(), "sympy_qdot": us.tolist(),
           "sympy_qddot": fs.tolist(), "sympy_lambdify_qddot": fl.tolist(), "sympy_f_h": fh,
           "sympy_vel_residual": velres, "max_q_diff": float(np.max(np.abs(qn - qs))),
           "max_qdot_diff": float(np.max(np.abs(qdn - us))),
           "max_qddot_diff": float(np.max(np.abs(qddn - fs))),
           "roll_diff": float(abs(qddn[I_PHI] - fs[I_PHI])), "steer_diff": float(abs(qddn[I_DELTA] - fs[I_DELTA])),
           "lambdify_vs_printed": float(np.max(np.abs(fl - fs))), "tolerance": ACCEL_TOL}
    acc["pass"] = bool(acc["roll_diff"] <= ACCEL_TOL and acc["steer_diff"] <= ACCEL_TOL)
    V["accel"] = acc
    print("  generic state: |roll acc diff| %.1e, |steer acc diff| %.1e, max |qddot diff| %.1e (%s)" % (
        acc["roll_diff"], acc["steer_diff"], acc["max_qddot_diff"], "pass" if acc["pass"] else "FAIL"),
        file=sys.stderr, flush=True)
    return lin, acc, qn, qdn


def candidates(system, S, qn, qdn, rep, no_compiled):
    """The timed candidates at the state nhs admitted, (key, "py" or "cpp", callable):
    the sympy routes, every nhs field and System.accel; records each field's set-up time
    and its agreement with sympy in rep."""
    V = rep["validation"]
    x = np.concatenate((qn, qdn))
    q_list, qd_list = qn.tolist(), qdn.tolist()
    n = len(COORDS)
    fM, fF, fMF, p_arr, p_list = S["fM"], S["fF"], S["fMF"], S["p_arr"], S["p_list"]
    rhs_l, rhs_p = S["rhs_lambdify"], S["rhs_printed"]
    Mv, Fv = np.array(fM(x[:n], x[n:], p_arr)), np.array(fF(x[:n], x[n:], p_arr))
    xl = x.tolist()
    cands = [("sympy lambdify (numpy arrays)", "py", lambda: rhs_l(0.0, x)),
             ("sympy cse+print (Python floats)", "py", lambda: rhs_p(0.0, x)),
             ("sympy M,F only (lambdify)", "py", lambda: (fM(x[:n], x[n:], p_arr), fF(x[:n], x[n:], p_arr))),
             ("sympy M,F only (cse+print)", "py", lambda: fMF(xl[:n], xl[n:], p_list)),
             ("sympy linalg.solve only", "py", lambda: np.linalg.solve(Mv, Fv))]
    V["fields_vs_sympy"] = {"sympy lambdify": float(np.max(np.abs(rhs_l(0.0, x)[n:] - rhs_p(0.0, x)[n:])))}
    setup = rep["nhs"]["field_setup_s"] = {}
    ref = rhs_p(0.0, x)[n:]
    backends = [None, "compiled", "library"] if not no_compiled else [None, "library"]
    for formulation in (None, "first-kind"):
        for backend in backends:
            t0 = time.perf_counter()
            try:
                fld = system.field(formulation=formulation, field=backend)
                fld(0.0, x)
            except nhs.Error as e:
                print("  nhs field %s %s: %s" % (formulation, backend, e), file=sys.stderr)
                continue
            label = "%s, %s" % (formulation or "default", fld.field)
            setup[label] = time.perf_counter() - t0
            V["fields_vs_sympy"]["nhs " + label] = float(np.max(np.abs(fld(0.0, x)[n:] - ref)))
            fname = fld.formulation if "(" in fld.formulation else "%s (%s)" % (fld.formulation, fld.field)
            cands.append(("nhs field %s f(t, x) from Python" % fname, "py", (lambda f: lambda: f(0.0, x))(fld)))
            cands.append(("nhs field %s C++ loop" % fname, "cpp", (lambda f: lambda k: f._bench_cpp(x, k))(fld)))
            if formulation is None and backend is None:
                rows = 1000
                Q, Qd = np.tile(qn, (rows, 1)), np.tile(qdn, (rows, 1))
                cands.append(("nhs field %s accel_batch per row" % fname, "cpp",
                              (lambda f: lambda k: timeit.timeit(lambda: f.accel_batch(Q, Qd), number=max(1, k // rows))
                               / (max(1, k // rows) * rows))(fld)))
    states = accel_cost.seeded_states(system, 20, [float(v) for v in qn])
    for formulation in (None, "first-kind"):
        name = formulation or "second-kind"
        cands.append(("nhs System.accel %s from Python, one state repeated" % name, "py",
                      (lambda f: lambda: system.accel(q=q_list, qdot=qd_list, formulation=f))(formulation)))
        cands.append(("nhs System.accel %s from Python, %d states in turn" % (name, len(states)), "py",
                      (lambda f: accel_cost.accel_in_turn(system, states, f))(formulation)))
        cands.append(("nhs System.accel %s C++ loop (_bench_accel), one state repeated" % name, "cpp",
                      (lambda f: lambda k: system._bench_accel(k, q_list, qd_list, f))(formulation)))
    return cands


def runs_inside(system, args):
    """wall_seconds / rhs_calls of System.run from the generic state, per formulation
    and backend (the stepper, the output and the run's set-up included)."""
    runs = []
    for formulation in (None, "first-kind"):
        for backend in ([None] if args.no_compiled else [None, "compiled"]):
            kw = dict(t_end=RUN_T_END, dt_out=0.1, q0=STATE_Q, z0=STATE_Z, formulation=formulation, field=backend)
            try:
                system.run(**kw)  # warm-up
                rs = [system.run(**kw) for _ in range(max(3, args.repeats))]
            except nhs.Error as e:
                print("  run %s %s: %s" % (formulation, backend, e), file=sys.stderr)
                continue
            su = rs[0].summary
            per = [float(r.summary["wall_seconds"]) / r.summary["rhs_calls"] for r in rs]
            runs.append({"formulation": su["formulation"], "stepper": su["stepper"], "t_end": RUN_T_END,
                         "rhs_calls": su["rhs_calls"], "wall_seconds": [float(r.summary["wall_seconds"]) for r in rs],
                         "per_rhs_s": statistics.median(per), "max_C": float(su["max_C"])})
            print("  run %-28s %s: %d RHS calls, %s µs per RHS call" % (
                su["formulation"], su["stepper"], su["rhs_calls"], fmt_us(statistics.median(per))), file=sys.stderr)
    return runs


def headline(T):
    """The headline ratios from the timings T."""
    sl = T["sympy lambdify (numpy arrays)"]["median_s"]
    sp_fast = min(T["sympy lambdify (numpy arrays)"]["median_s"], T["sympy cse+print (Python floats)"]["median_s"])
    default_key = [k for k in T if k.startswith("nhs field second-kind (traced)") and k.endswith("from Python")][0]
    py_fields = {k: v["median_s"] for k, v in T.items() if k.startswith("nhs field") and k.endswith("from Python")}
    fastest = min(py_fields, key=py_fields.get)
    nd = T[default_key]["median_s"]
    paired = statistics.median(a / b for a, b in zip(T["sympy lambdify (numpy arrays)"]["samples_s"],
                                                      T[default_key]["samples_s"]))
    accel = accel_cost.ratios_over_traced_field(T)
    return {"accel": accel, "sympy_lambdify_s": sl, "sympy_fastest_s": sp_fast, "nhs_default_key": default_key,
            "nhs_default_s": nd, "ratio": sl / nd, "ratio_paired": paired, "ratio_vs_fastest_sympy": sp_fast / nd,
            "goal_ratio": GOAL_RATIO, "goal_met": sl / nd >= GOAL_RATIO,
            "nhs_fastest_key": fastest, "nhs_fastest_s": py_fields[fastest],
            "ratio_fastest": sl / py_fields[fastest], "pydy_cython_anchor_us": PYDY_CYTHON_US}


def main():
    """Builds both models, validates the sympy one, times every candidate and writes
    bicycle_vs_sympy.json and .md into --out-dir; exit 1 when a validation fails."""
    args = parse_args()
    rep = start_report(args)
    t_start = time.time()
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 100000))

    system = load_system(rep)

    # --- sympy: build
    print("sympy: building the model", file=sys.stderr, flush=True)
    S = sympy_build(bicycle_model())
    rep["sympy"] = S["report"]
    if rep["sympy"]["leftover_derivatives"]:
        raise SystemExit("sympy: M or F keeps derivatives: %s" % rep["sympy"]["leftover_derivatives"])

    lin, acc, qn, qdn = validate(system, S, rep)
    cands = candidates(system, S, qn, qdn, rep, args.no_compiled)
    print("timing %d candidates, %d rounds of ~%g s batches" % (len(cands), args.repeats, args.budget),
          file=sys.stderr, flush=True)
    T = rep["timings"] = interleaved(cands, args.repeats, args.budget)
    for key, r in T.items():
        print("  %-62s %10s µs" % (key, fmt_us(r["median_s"])), file=sys.stderr)

    rep["runs"] = runs_inside(system, args)
    rep["headline"] = headline(T)
    rep["total_s"] = time.time() - t_start
    rep["cpus"] = os.cpu_count()
    rep["busy"] = max(os.getloadavg()[0], float(rep["load_avg"].split()[0])) > 0.75 * rep["cpus"]
    rep["load_avg_end"] = " ".join("%.2f" % x for x in os.getloadavg())
    os.makedirs(args.out_dir, exist_ok=True)
    with open(os.path.join(args.out_dir, "bicycle_vs_sympy.json"), "w") as f:
        json.dump(rep, f, indent=1)
    with open(os.path.join(args.out_dir, "bicycle_vs_sympy.md"), "w") as f:
        f.write(markdown(rep))
    print("bicycle_vs_sympy: %.0f s; ratio %.1fx; validation %s; %s" % (
        rep["total_s"], rep["headline"]["ratio"],
        "pass" if lin["pass"] and acc["pass"] else "FAIL", os.path.join(args.out_dir, "bicycle_vs_sympy.md")),
        file=sys.stderr)
    return 0 if lin["pass"] and acc["pass"] else 1


if __name__ == "__main__":
    sys.exit(main())
