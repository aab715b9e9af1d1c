#!/usr/bin/python3
"""nhs from Python against sympy.physics.mechanics + SciPy, in one script.

The same three systems are built twice in one Python process:

  sympy   sympy.physics.mechanics: KanesMethod with the generalized speeds
          u = q_dot (kinematic equations q_dot - u = 0) and the
          non-holonomic constraint as a velocity constraint (one dependent
          speed), `kanes_equations`, then `lambdify` (numpy, cse) of the mass
          matrix M and the forcing F; the right-hand side solves M u_dot = F
          with numpy.linalg.solve per call (pydy's route), and is integrated
          with scipy.integrate.solve_ivp (RK45, DOP853; LSODA too without
          --quick), t_eval = the output times.
  nhs     nhs.System.from_sympy(...) on the same sympy expressions (T from
          the same mechanics bodies' kinetic_energy, V, the constraint),
          then System.run(stepper="auto" and "dopri5"), default formulation
          (second kind, traced field) and, for the non-linear constraint,
          the first kind too (with a parametrization).

Systems (parameters and initial states of the closed-form motions):
  knife-edge      the knife edge (skate) on an inclined plane, the [[exact]]
                  motion of examples/knife-edge-incline.toml (m = 2, J = 0.3,
                  g = 1.5, omega = 0.8, s0 = 1), closed form in its comments.
  chaplygin-sleigh  examples/chaplygin-sleigh.toml, its [[exact]] motion
                  (m = 2, a = 0.5, I = 1.5: v = tanh u, omega = sech u,
                  theta = 2 gd(u), u = (t - 2)/2): a closed form for all t.
  constant-speed  a particle in gravity held at constant speed,
                  x_dot^2 + y_dot^2 - c^2 = 0 (non-linear; Chetaev's rule):
                  the heading phi = gd(w), w = ln 3 - (g/c) t, so
                  x_dot = c sech w, y_dot = c tanh w (m = 2, g = 1.5,
                  c = 1.2). KanesMethod is tried as is (velocity constraint
                  only; what it does is recorded) and with the acceleration
                  constraint d/dt C given by hand.

Measured per system and method: the build (sympy: KanesMethod +
kanes_equations + lambdify of M and F; nhs: from_sympy including the load,
and the first accel call, which traces the field), the cost of one RHS
evaluation (sympy: the lambdified RHS called on the initial state; nhs:
`System.accel(q=..., qdot=...)` from Python, the same computation in C++
without Python (`System._bench_accel`), and wall_seconds / rhs_calls of the
run summary), the wall time of one run to t = 20 (output every 0.1: 201
samples), the RHS calls, and the max-norm error over (q, q_dot) at every
output sample against the closed form (mpmath, 60 digits). rtol = atol =
1e-6, 1e-9, 1e-12. Without --quick, each closed form is also checked
against an nhs run in mp50 (rtol 1e-40).

Output: <out-dir>/python_vs_sympy.md and .json, with the command.

Usage (from the repository root, with the Python module built):
  PYTHONPATH=build/python /usr/bin/python3 bench/python_vs_sympy.py [--quick]
      [--out-dir reports/bench] [--repeats 3] [--system KEY ...]
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import timeit

try:
    import mpmath
    import numpy as np
    import scipy
    import sympy as sm
    import sympy.physics.mechanics as me
    from scipy.integrate import solve_ivp
except ImportError as e:  # exit 77: ctest's SKIP_RETURN_CODE
    print("python_vs_sympy: skipped: %s (needs python3-numpy, -scipy, -sympy, -mpmath)" % e,
          file=sys.stderr)
    sys.exit(77)

import nhs

T_END = 20
DT_OUT = 0.1
REF_DPS = 60
mpmath.mp.dps = REF_DPS
mpf = mpmath.mpf


# ----------------------------------------------------------------- systems
class Model:
    """One system in sympy.physics.mechanics terms (untimed), with what
    KanesMethod and from_sympy need, and its closed form."""


def _frame():
    N = me.ReferenceFrame("N")
    O = me.Point("O")
    O.set_vel(N, 0)
    return N, O


def knife_edge():
    t = me.dynamicsymbols._t
    m, J, g = sm.symbols("m J g")
    q = me.dynamicsymbols("x y theta")
    u = me.dynamicsymbols("u1:4")
    N, O = _frame()
    B = N.orientnew("B", "Axis", [q[2], N.z])
    B.set_ang_vel(N, u[2] * N.z)
    P = O.locatenew("P", q[0] * N.x + q[1] * N.y)
    P.set_vel(N, u[0] * N.x + u[1] * N.y)
    M = Model()
    M.key, M.title = "knife-edge", "knife edge (skate) on an inclined plane"
    M.N, M.q, M.u = N, q, u
    M.bodies = [me.RigidBody("blade", P, B, m, (me.inertia(B, 0, 0, J), P))]
    M.loads = [(P, -m * g * N.y)]
    M.V = m * g * q[1]
    # the blade's velocity across itself: x_dot sin(theta) - y_dot cos(theta)
    M.constraint_name = "blade"
    M.vel = [-P.vel(N).dot(B.y)]
    # y_dot dependent (the pivot is cos(theta), 0 where the motion crosses
    # theta = pi/2 + k pi; x_dot's pivot sin(theta) is 0 at the start)
    M.u_ind, M.u_dep = [u[0], u[2]], [u[1]]
    M.acc = None
    M.params = {m: "2", J: "0.3", g: "1.5"}
    M.parametrization = None
    M.q0 = ["0.1", "-0.2", "0"]
    M.qdot0 = ["1", "0", "0.8"]
    M.source = "examples/knife-edge-incline.toml, [[exact]] (closed form in its comments)"

    def exact(tt):
        gg, w, s0, x0, y0 = mpf("1.5"), mpf("0.8"), mpf(1), mpf("0.1"), mpf("-0.2")
        th = w * tt
        s = s0 + (gg / w) * (mpmath.cos(th) - 1)
        x = x0 + (s0 - gg / w) * mpmath.sin(th) / w + (gg / w) * (tt / 2 + mpmath.sin(2 * th) / (4 * w))
        y = y0 + (s0 - gg / w) * (1 - mpmath.cos(th)) / w + (gg / w) * mpmath.sin(th) ** 2 / (2 * w)
        return [x, y, th, s * mpmath.cos(th), s * mpmath.sin(th), w]
    M.exact = exact
    return M


def chaplygin_sleigh():
    m, I, a = sm.symbols("m I a")
    q = me.dynamicsymbols("x y theta")
    u = me.dynamicsymbols("u1:4")
    N, O = _frame()
    B = N.orientnew("B", "Axis", [q[2], N.z])
    B.set_ang_vel(N, u[2] * N.z)
    C = O.locatenew("C", q[0] * N.x + q[1] * N.y)
    C.set_vel(N, u[0] * N.x + u[1] * N.y)
    P = C.locatenew("P", -a * B.x)  # the blade, a behind the centre of mass
    P.v2pt_theory(C, N, B)
    M = Model()
    M.key, M.title = "chaplygin-sleigh", "Chaplygin sleigh (blade a behind the centre of mass)"
    M.N, M.q, M.u = N, q, u
    M.bodies = [me.RigidBody("sleigh", C, B, m, (me.inertia(B, 0, 0, I), C))]
    M.loads = []
    M.V = None
    # -x_dot sin(theta) + y_dot cos(theta) - a theta_dot
    M.constraint_name = "blade"
    M.vel = [P.vel(N).dot(B.y)]
    M.u_ind, M.u_dep = [u[0], u[1]], [u[2]]  # theta_dot dependent: pivot -a, never 0
    M.acc = None
    M.params = {m: "2", a: "0.5", I: "1.5"}
    M.parametrization = None
    M.source = "examples/chaplygin-sleigh.toml, [[exact]] (closed form for every t)"
    half = mpf(1) / 2

    def exact(tt):
        uu = (tt - 2) / 2
        gd = mpmath.atan(mpmath.sinh(uu))
        th = 2 * gd
        sech, tanh = mpmath.sech(uu), mpmath.tanh(uu)
        px = 2 * (-sech ** 2 - mpmath.log(mpmath.cosh(uu)))
        py = 2 * (gd - sech * tanh)
        c, s = mpmath.cos(th), mpmath.sin(th)
        return [px + half * c, py + half * s, th,
                tanh * c - half * sech * s, tanh * s + half * sech * c, sech]
    M.exact = exact
    e0 = exact(mpf(0))
    M.q0 = [mpmath.nstr(v, 40, strip_zeros=False) for v in e0[:3]]
    M.qdot0 = [mpmath.nstr(v, 40, strip_zeros=False) for v in e0[3:]]
    return M


def constant_speed():
    m, g, c, w = sm.symbols("m g c w")
    q = me.dynamicsymbols("x y")
    u = me.dynamicsymbols("u1:3")
    N, O = _frame()
    P = O.locatenew("P", q[0] * N.x + q[1] * N.y)
    P.set_vel(N, u[0] * N.x + u[1] * N.y)
    M = Model()
    M.key, M.title = "constant-speed", "particle in gravity at constant speed (non-linear constraint)"
    M.N, M.q, M.u = N, q, u
    M.bodies = [me.Particle("p", P, m)]
    M.loads = [(P, -m * g * N.y)]
    M.V = m * g * q[1]
    M.constraint_name = "speed"
    M.vel = [P.vel(N).dot(P.vel(N)) - c ** 2]  # u1^2 + u2^2 - c^2
    M.u_ind, M.u_dep = [u[1]], [u[0]]  # x_dot = c sech w > 0 dependent: pivot 2 x_dot, never 0
    # what KanesMethod needs for a non-linear constraint: d/dt C, by hand
    M.acc = [M.vel[0].diff(me.dynamicsymbols._t)]
    M.params = {m: "2", g: "1.5", c: "1.2"}
    # for the first kind: q_dot = psi(q, w), w the heading
    M.parametrization = ({q[0]: c * sm.cos(w), q[1]: c * sm.sin(w)},
                         {w: sm.atan2(q[1].diff(me.dynamicsymbols._t), q[0].diff(me.dynamicsymbols._t))})
    M.q0 = ["0", "0"]
    M.qdot0 = ["0.72", "0.96"]  # c (sech ln 3, tanh ln 3) = 1.2 (0.6, 0.8)
    M.source = "here: phi_dot = -(g/c) cos(phi), phi = gd(w), w = ln 3 - (g/c) t"

    def exact(tt):
        gg, cc = mpf("1.5"), mpf("1.2")
        w0 = mpmath.log(3)
        ww = w0 - gg / cc * tt
        k = cc ** 2 / gg
        return [-k * (mpmath.atan(mpmath.sinh(ww)) - mpmath.atan(mpmath.sinh(w0))),
                -k * (mpmath.log(mpmath.cosh(ww)) - mpmath.log(mpmath.cosh(w0))),
                cc * mpmath.sech(ww), cc * mpmath.tanh(ww)]
    M.exact = exact
    return M


SYSTEMS = [knife_edge, chaplygin_sleigh, constant_speed]


# ------------------------------------------------------------------ helpers
def per_call(f, repeat=5, budget=0.1):
    """Median wall seconds per call of f() over `repeat` batches of ~budget s."""
    f()
    one = timeit.timeit(f, number=3) / 3
    number = max(1, int(budget / max(one, 1e-7)))
    return statistics.median(timeit.timeit(f, number=number) / number for _ in range(repeat))


class ExactCache:
    def __init__(self, exact):
        self.exact, self.cache = exact, {}

    def at(self, t):
        key = t if isinstance(t, float) else str(t)
        v = self.cache.get(key)
        if v is None:
            v = self.cache[key] = self.exact(mpf(t))
        return v


def max_error(exact, times, rows):
    """max over samples and components of |value - closed form| (rows: per sample, q then q_dot)."""
    err = mpf(0)
    for t, row in zip(times, rows):
        ex = exact.at(t)
        for v, e in zip(row, ex):
            d = abs(mpf(v) - e)
            if d > err:
                err = d
    return float(err)


def fmt_t(s):
    if s is None:
        return "—"
    if s >= 1:
        return "%.2f s" % s
    if s >= 1e-3:
        return "%.3g ms" % (s * 1e3)
    return "%.3g µs" % (s * 1e6)


def fmt_us(s):
    return "—" if s is None else "%.2f" % (s * 1e6) if s < 1e-4 else "%.0f" % (s * 1e6)


def fmt_e(x):
    return "—" if x is None else "%.1e" % x


# ------------------------------------------------------------------ sympy
def sympy_build(M, with_acc):
    """KanesMethod, kanes_equations, lambdify (each timed). Returns a dict
    with the RHS f(t, y) (y = (q, q_dot)) or the reason there is none."""
    out = {"variant": "acceleration constraint by hand" if with_acc else "velocity constraint"}
    q, u = list(M.q), list(M.u)
    t = me.dynamicsymbols._t
    kd = [qi.diff(t) - ui for qi, ui in zip(q, u)]
    p_syms = list(M.params)
    p_vals = np.array([float(v) for v in M.params.values()])
    t0 = time.perf_counter()
    try:
        km = me.KanesMethod(M.N, q_ind=q, u_ind=M.u_ind, u_dependent=M.u_dep, kd_eqs=kd,
                            velocity_constraints=M.vel,
                            acceleration_constraints=M.acc if with_acc else None)
        t1 = time.perf_counter()
        km.kanes_equations(M.bodies, M.loads)
        t2 = time.perf_counter()
    except Exception as e:  # recorded: sympy refuses
        out.update(status="refused", message="%s: %s" % (type(e).__name__, e),
                   build_s=time.perf_counter() - t0)
        return out
    Mm, F = km.mass_matrix, km.forcing
    leftover = sorted(str(d) for d in (Mm.atoms(sm.Derivative) | F.atoms(sm.Derivative)))
    fM = sm.lambdify([q, u, p_syms], Mm, modules="numpy", cse=True)
    fF = sm.lambdify([q, u, p_syms], F, modules="numpy", cse=True)
    t3 = time.perf_counter()
    out.update(kanes_method_s=t1 - t0, kanes_equations_s=t2 - t1, lambdify_s=t3 - t2,
               build_s=t3 - t0, mass_matrix=str(Mm), forcing=str(F))
    n = len(q)
    perm = np.array([list(km.u).index(ui) for ui in u])

    def rhs(_t, y):
        qv, uv = y[:n], y[n:]
        ud = np.linalg.solve(fM(qv, uv, p_vals), fF(qv, uv, p_vals)).ravel()
        return np.concatenate((uv, ud[perm]))
    y0 = np.array([float(v) for v in M.q0 + M.qdot0])
    if leftover:
        # KanesMethod takes C = B(q) u + f(q): for a non-linear C its
        # acceleration constraint keeps u_dot in the forcing vector.
        try:
            rhs(0.0, y0)
            call = "the lambdified RHS ran (!)"
        except Exception as e:
            call = "%s: %s" % (type(e).__name__, e)
        out.update(status="no ODE",
                   message="KanesMethod and kanes_equations accept the non-linear velocity "
                           "constraint without a warning, but the forcing vector keeps %s, so "
                           "M u_dot = F is no explicit ODE; lambdify prints it as 'not supported' "
                           "and the RHS call raises %s" % (", ".join(leftover), call))
        return out
    out.update(status="ok", rhs=rhs, y0=y0)
    out["rhs_s"] = per_call(lambda: rhs(0.0, y0))
    return out


def sympy_run(S, M, exact, method, tol, repeats):
    t_eval = np.array([k * DT_OUT for k in range(int(round(T_END / DT_OUT)) + 1)])
    t_eval[-1] = T_END
    times, sol = [], None
    solve_ivp(S["rhs"], (0, T_END), S["y0"], method=method, rtol=tol, atol=tol, t_eval=t_eval)  # warm-up
    for _ in range(repeats):
        t0 = time.perf_counter()
        sol = solve_ivp(S["rhs"], (0, T_END), S["y0"], method=method, rtol=tol, atol=tol,
                        t_eval=t_eval)
        times.append(time.perf_counter() - t0)
    r = {"tool": "sympy+scipy", "method": method, "rtol": tol, "status": "ok" if sol.success else "failed",
         "run_s": statistics.median(times), "runs_s": times, "rhs_calls": int(sol.nfev),
         "message": None if sol.success else sol.message}
    if sol.success:
        r["error"] = max_error(exact, sol.t.tolist(), sol.y.T.tolist())
        r["per_rhs_in_run_s"] = r["run_s"] / sol.nfev
    return r


def field_run(N, M, exact, method, tol, repeats):
    """solve_ivp on System.field() (x = (q, q_dot)), as sympy_run on the lambdified RHS."""
    y0 = np.array([float(v) for v in M.q0 + M.qdot0])
    r = sympy_run({"rhs": N["system"].field(), "y0": y0}, M, exact, method, tol, repeats)
    r["tool"] = "nhs field+scipy"
    return r


# -------------------------------------------------------------------- nhs
def nhs_expressions(M):
    """T, V, C of the mechanics model in the coordinates' velocities q(t).diff(t)."""
    t = me.dynamicsymbols._t
    to_qdot = {ui: qi.diff(t) for qi, ui in zip(M.q, M.u)}
    T = sum(b.kinetic_energy(M.N) for b in M.bodies).subs(to_qdot)
    C = M.vel[0].subs(to_qdot)
    return T, C


def nhs_build(M):
    T, C = nhs_expressions(M)
    kw = dict(potential=M.V, parameters=M.params, initial={"q": M.q0, "qdot": M.qdot0},
              name=M.key, title=M.title, source="bench/python_vs_sympy.py")
    if M.parametrization:
        kw["parametrization"], kw["chart"] = M.parametrization
    t0 = time.perf_counter()
    system = nhs.System.from_sympy(M.q, {M.constraint_name: sm.simplify(C)}, T, **kw)
    t1 = time.perf_counter()
    system.accel()  # the first call traces the default formulation's field
    t2 = time.perf_counter()
    q0 = [float(v) for v in M.q0]
    qd0 = [float(v) for v in M.qdot0]
    out = {"system": system, "from_sympy_s": t1 - t0, "first_accel_s": t2 - t1, "build_s": t2 - t0,
           "formulations": system.formulations(), "toml": system.toml}
    out["accel_s"] = per_call(lambda: system.accel(q=q0, qdot=qd0))
    out["accel_qddot_s"] = per_call(lambda: system.accel(q=q0, qdot=qd0).qddot)
    # the library's formulation instead of the traced field: accel's set-up
    # traces a file's field again on every call (see the report)
    out["accel_library_s"] = per_call(lambda: system.accel(q=q0, qdot=qd0, field="library"))
    number = max(1, int(0.1 / max(system._bench_accel(10, q0, qd0), 1e-8)))
    out["cpp_accel_s"] = statistics.median(system._bench_accel(number, q0, qd0) for _ in range(5))
    # System.field: the callable for solve_ivp, its cost per call from
    # Python against the same qddot in a C++ loop (Field._bench_cpp), and
    # accel_batch per row against that loop.
    field = system.field()
    y0 = np.array(q0 + qd0)
    out["field_formulation"] = field.formulation
    out["field_call_s"] = per_call(lambda: field(0.0, y0))
    number = max(1, int(0.1 / max(field._bench_cpp(y0, 10), 1e-8)))
    out["field_cpp_s"] = statistics.median(field._bench_cpp(y0, number) for _ in range(5))
    rows = 10000
    Q, Qd = np.tile(np.array(q0), (rows, 1)), np.tile(np.array(qd0), (rows, 1))
    out["field_batch_row_s"] = per_call(lambda: field.accel_batch(Q, Qd)) / rows
    return out


def nhs_run(N, M, exact, stepper, tol, repeats, formulation=None, precision="double"):
    system = N["system"]
    kw = dict(t_end=T_END, dt_out=DT_OUT, stepper=stepper, rtol=tol, atol=tol, q0=M.q0,
              qdot0=M.qdot0, formulation=formulation, precision=precision)
    times, walls, run, err = [], [], None, None
    try:
        system.run(**kw)  # warm-up (the first run of a formulation traces its field)
    except nhs.Error:
        pass
    for _ in range(repeats):
        t0 = time.perf_counter()
        try:
            run = system.run(**kw)
        except nhs.Error as e:
            err = "%s: %s" % (type(e).__name__, e)
            break
        times.append(time.perf_counter() - t0)
        walls.append(float(run.summary["wall_seconds"]))
    r = {"tool": "nhs", "method": "%s %s" % (formulation or "default", stepper),
         "formulation_arg": formulation, "stepper_arg": stepper, "precision": precision,
         "rtol": float(tol), "tol_text": tol}
    if err:
        r.update(status="failed", message=err)
        return r
    s = run.summary
    names = list(system.coordinates) + [c + "_dot" for c in system.coordinates]
    rows = list(zip(*[run[c].tolist() for c in names]))
    r.update(status="ok", run_s=statistics.median(times), runs_s=times, rhs_calls=s["rhs_calls"],
             steps=s["steps"], stepper=s["stepper"], formulation=s["formulation"],
             wall_seconds=walls, max_C=float(s["max_C"]),
             error=max_error(exact, run.t.tolist(), rows))
    r["per_rhs_in_run_s"] = statistics.median(walls) / s["rhs_calls"]
    return r


# ---------------------------------------------------------------- report
def markdown_head(rep):
    """The report's title, provenance and method (Markdown lines)."""
    L = ["# nhs from Python against sympy.physics.mechanics + SciPy (`bench/python_vs_sympy.py`)", "",
         "Generated by `%s` on %s (repository HEAD %s%s). Python %s, numpy %s, scipy %s, sympy %s, "
         "mpmath %s; module `%s`. Load average at the start: %s (2 cores, shared)."
         % (rep["command"], rep["date"], rep["git_head"], ", working tree modified" if rep["git_dirty"] else "",
            rep["python"], rep["numpy"], rep["scipy"], rep["sympy"], rep["mpmath"], rep["nhs_module"],
            rep["load_avg"]), "",
         "- **sympy**: `KanesMethod` with u = q̇ (kinematic equations q̇ − u = 0) and the constraint "
         "as `velocity_constraints` (one dependent speed, named below), `kanes_equations`, then "
         "`lambdify` (numpy, cse) of `mass_matrix` and `forcing`; the RHS solves M u̇ = F with "
         "`numpy.linalg.solve` per call and is integrated by `scipy.integrate.solve_ivp` with "
         "`t_eval` = the output times. Build = KanesMethod + kanes_equations + lambdify. "
         "RHS eval = the lambdified RHS called on the initial state.",
         "- **nhs**: `nhs.System.from_sympy` on the same sympy expressions (T from the same "
         "mechanics bodies' `kinetic_energy`, V, the constraint in q̇), then `System.run` with "
         "`stepper=\"auto\"` and `\"dopri5\"`, default formulation (second kind, traced field). "
         "Build = from_sympy (writes and loads the system file, with the loader's checks) + the "
         "first `accel` call (which traces the field). RHS eval: `accel(q=..., qdot=...)` from "
         "Python (and with `.qddot` read), `_bench_accel` (the same C++ call without Python), and "
         "the run's `wall_seconds / rhs_calls` at the tightest rtol (stepper auto; the stepper, "
         "the output, the singular-set scan and the run's set-up included: `wall_seconds` starts "
         "before the set-up, which for a system file builds the traced field's program (the "
         "trace itself is cached from the first call)).",
         "- Both sides warmed up first (one unrelated KanesMethod + lambdify, one unrelated "
         "from_sympy + accel), so that no build pays for imports.",
         "- Runs: t = 0 … %g, output every %g (%d samples), rtol = atol; time = wall time of the "
         "Python call (`solve_ivp(...)`, `System.run(...)`: its rows converted to NumPy included), "
         "median of %d (nhs: of at least 3), after one untimed run of each. Error: max over the output samples and over (q, q̇) of |value − closed "
         "form|, the closed form evaluated with mpmath at %d digits."
         % (T_END, DT_OUT, int(round(T_END / DT_OUT)) + 1, rep["repeats"], REF_DPS), ""]
    return L


def markdown_build(rep):
    """Markdown lines: build times and one RHS evaluation per system and tool."""
    L = []
    L += ["## Build and one RHS evaluation", "",
          "| system | tool | build | of which | RHS eval (µs) | notes |", "|---|---|---|---|---|---|"]
    for sysrep in rep["systems"]:
        for S in sysrep["sympy"]:
            label = "sympy (%s)" % S["variant"]
            if S.get("status") == "ok":
                L.append("| %s | %s | %s | KanesMethod %s, kanes_equations %s, lambdify %s | %s | dependent: %s |" % (
                    sysrep["key"], label, fmt_t(S["build_s"]), fmt_t(S["kanes_method_s"]),
                    fmt_t(S["kanes_equations_s"]), fmt_t(S["lambdify_s"]), fmt_us(S["rhs_s"]),
                    sysrep["dependent_speed"]))
            else:
                L.append("| %s | %s | %s | | — | **%s**: %s |" % (
                    sysrep["key"], label, fmt_t(S.get("build_s")), S["status"], S["message"]))
        N = sysrep["nhs"]
        inrun = [r for r in sysrep["runs"] if r["tool"] == "nhs" and r["status"] == "ok"
                 and r["stepper_arg"] == "auto" and not r["formulation_arg"]]
        inrun = min(inrun, key=lambda r: r["rtol"])["per_rhs_in_run_s"] if inrun else None
        L.append("| %s | nhs | %s | from_sympy %s, first accel (tracing) %s | %s (.qddot read: %s; C++ alone: %s; field=\"library\": %s; in a run: %s) | formulations: %s |" % (
            sysrep["key"], fmt_t(N["build_s"]), fmt_t(N["from_sympy_s"]), fmt_t(N["first_accel_s"]),
            fmt_us(N["accel_s"]), fmt_us(N["accel_qddot_s"]), fmt_us(N["cpp_accel_s"]),
            fmt_us(N.get("accel_library_s")), fmt_us(inrun), ", ".join(N["formulations"])))
    L += ["", "`accel` is not a bare RHS: each call runs `nhs accel`'s whole set-up (the system built "
          "at the parameters, the state admitted and projected onto C, the singular margins, "
          "Gauss's Z); for a system file (from_sympy writes one) the traced field is traced "
          "once per file and formulation (cached_trace_file_formulation) and its program built "
          "per call. Inside a run the field is set up once and costs the last figure.", ""]
    return L


def markdown_systems(rep):
    """Markdown lines: one table of runs per system, against its closed form."""
    L = []
    for sysrep in rep["systems"]:
        L += ["## %s: %s" % (sysrep["key"], sysrep["title"]), "",
              "Closed form: %s. sympy's dependent speed: %s.%s" % (
                  sysrep["source"], sysrep["dependent_speed"],
                  (" Check of the closed form: nhs mp50, rtol 1e-40, deviates from it by at most "
                   "%s over the samples." % fmt_e(sysrep["mp50_check"]["error"]))
                  if sysrep.get("mp50_check", {}).get("status") == "ok" else ""), "",
              "| tool | method | rtol = atol | run time | RHS calls | µs per RHS call in the run | max error (q, q̇) |",
              "|---|---|---|---|---|---|---|"]
        refused = [S for S in sysrep["sympy"] if S.get("status") != "ok"]
        for S in refused:
            L.append("| sympy+scipy (%s) | — | — | **%s** | — | — | — |" % (S["variant"], S["status"]))
        for r in sysrep["runs"]:
            tool = r["tool"] if r["tool"] == "nhs" else "sympy+scipy (%s)" % r["variant"]
            method = r["method"]
            if r["tool"] == "nhs" and r["status"] == "ok":
                method = "%s (%s, %s)" % (r["method"], r["formulation"], r["stepper"])
            if r["status"] != "ok":
                L.append("| %s | %s | %g | failed: %s | | | |" % (tool, method, r["rtol"], r.get("message")))
                continue
            L.append("| %s | %s | %g | %s | %d | %s | %s |" % (
                tool, method, r["rtol"], fmt_t(r["run_s"]), r["rhs_calls"], fmt_us(r["per_rhs_in_run_s"]),
                fmt_e(r["error"])))
        L.append("")
    return L


def markdown_same_tolerance(rep):
    """Markdown lines: nhs auto against the fastest SciPy run at each rtol."""
    L = []
    L += ["## Same tolerance: nhs auto against the fastest SciPy method", "",
          "Per system and tolerance: nhs (default formulation, stepper auto) and the fastest "
          "sympy+SciPy run at the same rtol = atol; ratio = SciPy time ÷ nhs time (above 1, nhs "
          "is faster).", "",
          "| system | rtol | nhs time | nhs error | fastest SciPy (method) | its time | its error | ratio |",
          "|---|---|---|---|---|---|---|---|"]
    for sysrep in rep["systems"]:
        for r in sysrep["runs"]:
            if r["tool"] != "nhs" or r["stepper_arg"] != "auto" or r["formulation_arg"] or r["status"] != "ok":
                continue
            peers = [p for p in sysrep["runs"] if p["tool"] != "nhs" and p["rtol"] == r["rtol"]
                     and p["status"] == "ok"]
            if not peers:
                L.append("| %s | %g | %s | %s | none (sympy: %s) | | | |" % (
                    sysrep["key"], r["rtol"], fmt_t(r["run_s"]), fmt_e(r["error"]),
                    "; ".join(S["status"] for S in sysrep["sympy"])))
                continue
            b = min(peers, key=lambda p: p["run_s"])
            L.append("| %s | %g | %s | %s | %s (%s) | %s | %s | %.1f |" % (
                sysrep["key"], r["rtol"], fmt_t(r["run_s"]), fmt_e(r["error"]), b["method"],
                b["variant"], fmt_t(b["run_s"]), fmt_e(b["error"]), b["run_s"] / r["run_s"]))
    L.append("")
    return L


def markdown_field(rep):
    """Markdown lines: `System.field` in solve_ivp against sympy's lambdified field."""
    L = []
    L += ["## `System.field` in `solve_ivp` against sympy's lambdified field", "",
          "`f = system.field()` (the default formulation and field backend) is a callable f(t, x), "
          "x = (q, q̇), for `scipy.integrate.solve_ivp`, integrated exactly as the sympy RHS above "
          "(same method, rtol = atol, t_eval). Per call: f(t, x) from Python, the same q̈ in a C++ "
          "loop (`Field._bench_cpp`), and `accel_batch` per row on 10,000 rows. Ratio = the sympy "
          "run's time ÷ the field run's time (above 1, the field is faster); both runs take their "
          "own number of steps, the errors say how accurate each was.", "",
          "| system | field | f(t, x) from Python (µs) | C++ loop (µs) | overhead (µs) | accel_batch per row (µs) |",
          "|---|---|---|---|---|---|"]
    for sysrep in rep["systems"]:
        N = sysrep["nhs"]
        L.append("| %s | %s | %s | %s | %s | %s |" % (
            sysrep["key"], N["field_formulation"], fmt_us(N["field_call_s"]), fmt_us(N["field_cpp_s"]),
            fmt_us(N["field_call_s"] - N["field_cpp_s"]), fmt_us(N["field_batch_row_s"])))
    L += ["", "| system | method | rtol | field run | RHS calls | error | sympy run (variant) | RHS calls | error | ratio |",
          "|---|---|---|---|---|---|---|---|---|---|"]
    for sysrep in rep["systems"]:
        for r in sysrep.get("field_runs", []):
            peers = [p for p in sysrep["runs"] if p["tool"] == "sympy+scipy" and p["method"] == r["method"]
                     and p["rtol"] == r["rtol"] and p["status"] == "ok"]
            if r["status"] != "ok":
                L.append("| %s | %s | %g | failed: %s | | | | | | |" % (sysrep["key"], r["method"], r["rtol"],
                                                                     r.get("message")))
                continue
            if not peers:
                L.append("| %s | %s | %g | %s | %d | %s | none (%s) | | | |" % (
                    sysrep["key"], r["method"], r["rtol"], fmt_t(r["run_s"]), r["rhs_calls"], fmt_e(r["error"]),
                    "; ".join(S["status"] for S in sysrep["sympy"])))
                continue
            p = peers[0]
            L.append("| %s | %s | %g | %s | %d | %s | %s (%s) | %d | %s | %.1f |" % (
                sysrep["key"], r["method"], r["rtol"], fmt_t(r["run_s"]), r["rhs_calls"], fmt_e(r["error"]),
                fmt_t(p["run_s"]), p["variant"], p["rhs_calls"], fmt_e(p["error"]), p["run_s"] / r["run_s"]))
    L.append("")
    return L


def markdown_sympy_constraint(rep):
    """Markdown lines: what sympy did with each non-linear constraint; the total time."""
    L = []
    L += ["## What sympy does with the non-linear constraint", ""]
    for sysrep in rep["systems"]:
        for S in sysrep["sympy"]:
            if S.get("status") != "ok":
                L.append("- %s, %s: **%s**. %s" % (sysrep["key"], S["variant"], S["status"], S["message"]))
                L.append("  - mass matrix: `%s`; forcing: `%s`" % (S.get("mass_matrix"), S.get("forcing")))
            elif S["variant"].startswith("acceleration"):
                L.append("- %s, %s: KanesMethod(..., acceleration_constraints=[dC/dt]) gives an "
                         "explicit ODE (mass matrix `%s`, forcing `%s`); its dynamic row uses "
                         "the Jacobian of C in u (here Chetaev's rule), the user must know to "
                         "supply d/dt C." % (sysrep["key"], S["variant"], S["mass_matrix"], S["forcing"]))
    L.append("")
    L.append("Total time of the script: %.0f s." % rep["total_s"])
    return L


def markdown(rep):
    """python_vs_sympy.md from the report rep (python_vs_sympy.json)."""
    L = []
    for part in (markdown_head, markdown_build, markdown_systems, markdown_same_tolerance, markdown_field,
                 markdown_sympy_constraint):
        L += part(rep)
    return "\n".join(L) + "\n"


def warm_up():
    t = me.dynamicsymbols._t
    q, u = me.dynamicsymbols("wq"), me.dynamicsymbols("wu")
    N, O = _frame()
    P = O.locatenew("P", q * N.x)
    P.set_vel(N, u * N.x)
    km = me.KanesMethod(N, q_ind=[q], u_ind=[u], kd_eqs=[q.diff(t) - u])
    km.kanes_equations([me.Particle("p", P, 1)], [(P, -q * N.x)])
    sm.lambdify([[q], [u]], km.mass_matrix, modules="numpy", cse=True)
    sm.lambdify([[q], [u]], km.forcing, modules="numpy", cse=True)
    a, b = me.dynamicsymbols("wa wb")
    s = nhs.System.from_sympy([a, b], [a.diff(t) - b * b.diff(t)], (a.diff(t) ** 2 + b.diff(t) ** 2) / 2,
                              initial={"q": [0, 0], "qdot": [0, 0]}, name="warm-up")
    s.accel()


def parse_args():
    """The command line."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="a smoke test (< 1 min): rtol 1e-6 and 1e-9, RK45 and DOP853, one run "
                         "each, no mp50 check")
    ap.add_argument("--out-dir", default="reports/bench")
    ap.add_argument("--repeats", type=int, default=5, help="runs per case (median)")
    ap.add_argument("--system", action="append", help="only these systems (keys)")
    return ap.parse_args()


def system_runs(sysrep, M, N, exact, builds, tols, methods, repeats):
    """Every run of one system into sysrep: nhs (each formulation, stepper auto and
    dopri5), sympy+SciPy (each build that succeeded, each method) and System.field in
    solve_ivp, at each tolerance; one line per run on stderr."""
    runs = sysrep["runs"]
    formulations = [None] + (["first-kind"] if M.parametrization else [])
    for tol in tols:
        for f in formulations:
            for stepper in ("auto", "dopri5"):
                runs.append(nhs_run(N, M, exact, stepper, tol, max(repeats, 3), formulation=f))
        for S in builds:
            if S["status"] != "ok":
                continue
            for method in methods:
                r = sympy_run(S, M, exact, method, float(tol), repeats)
                r["variant"] = S["variant"]
                runs.append(r)
        for method in methods:
            sysrep["field_runs"].append(field_run(N, M, exact, method, float(tol), repeats))
    for r in runs:
        print("  %-11s %-30s rtol %-6g time %-9s rhs %-6s err %s %s" % (
            r["tool"], r["method"] + (" " + r.get("variant", "") if r["tool"] != "nhs" else ""),
            r["rtol"], fmt_t(r.get("run_s")), r.get("rhs_calls"), fmt_e(r.get("error")),
            "" if r["status"] == "ok" else r.get("message")), file=sys.stderr, flush=True)


def main():
    """Builds, times and runs every system both ways; writes python_vs_sympy.json and .md."""
    args = parse_args()
    tols = ["1e-6", "1e-9", "1e-12"]
    methods = ["RK45", "DOP853", "LSODA"]
    repeats = args.repeats
    if args.quick:
        tols, methods, repeats = ["1e-6", "1e-9"], ["RK45", "DOP853"], 1
    cmdline = "PYTHONPATH=build/python /usr/bin/python3 bench/python_vs_sympy.py " + " ".join(sys.argv[1:])
    here = os.path.dirname(os.path.abspath(__file__))
    git = lambda *a: subprocess.run(["git", *a], capture_output=True, text=True, cwd=here).stdout.strip()
    rep = {"date": time.strftime("%Y-%m-%d %H:%M"), "command": cmdline.strip(), "quick": args.quick,
           "git_head": git("rev-parse", "--short", "HEAD"),
           "git_dirty": bool(git("status", "--porcelain", "--untracked-files=no")),
           "python": platform.python_version(), "numpy": np.__version__, "scipy": scipy.__version__,
           "sympy": sm.__version__, "mpmath": mpmath.__version__,
           "nhs_module": os.path.relpath(os.path.dirname(nhs.__file__)),
           "load_avg": " ".join("%.2f" % x for x in os.getloadavg()), "repeats": repeats,
           "t_end": T_END, "dt_out": DT_OUT, "tolerances": tols, "scipy_methods": methods,
           "systems": []}
    t_start = time.time()
    warm_up()
    for make in SYSTEMS:
        M = make()
        if args.system and M.key not in args.system:
            continue
        print("%s: building" % M.key, file=sys.stderr, flush=True)
        exact = ExactCache(M.exact)
        sysrep = {"key": M.key, "title": M.title, "source": M.source,
                  "dependent_speed": ", ".join("%s (= d%s/dt)" % (u, q) for u in M.u_dep
                                               for q, uu in zip(M.q, M.u) if uu == u),
                  "parameters": {str(k): v for k, v in M.params.items()},
                  "q0": M.q0, "qdot0": M.qdot0, "sympy": [], "runs": [], "field_runs": []}
        variants = [False] + ([True] if M.acc is not None else [])
        builds = [sympy_build(M, v) for v in variants]
        N = nhs_build(M)
        sysrep["nhs"] = {k: v for k, v in N.items() if k != "system"}
        for S in builds:
            sysrep["sympy"].append({k: v for k, v in S.items() if k not in ("rhs", "y0")})
        system_runs(sysrep, M, N, exact, builds, tols, methods, repeats)
        if not args.quick:
            c = nhs_run(N, M, exact, "auto", "1e-40", 1, precision="mp50")
            sysrep["mp50_check"] = {k: c.get(k) for k in ("status", "error", "run_s", "rhs_calls",
                                                          "stepper", "message")}
            print("  mp50 check: %s" % sysrep["mp50_check"], file=sys.stderr, flush=True)
        rep["systems"].append(sysrep)
    rep["total_s"] = time.time() - t_start
    os.makedirs(args.out_dir, exist_ok=True)
    with open(os.path.join(args.out_dir, "python_vs_sympy.json"), "w") as f:
        json.dump(rep, f, indent=1)
    md = markdown(rep)
    with open(os.path.join(args.out_dir, "python_vs_sympy.md"), "w") as f:
        f.write(md)
    print("python_vs_sympy: %.0f s; %s" % (rep["total_s"], os.path.join(args.out_dir, "python_vs_sympy.md")),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
