#!/usr/bin/python3
"""Against the tool users would otherwise pick: sympy.physics.mechanics.

Builds skate, rolling-disc and coaxial-discs (001 §9.1-9.3; coordinates,
parameters and forces of docs/studies.md) with KanesMethod and their linear
velocity constraints, lambdifies the equations of motion and times the
right-hand side qddot(q, qdot) at the study's default state, as
bench/bench_closed_form.cpp does. Checks that sympy's qddot agrees with
`nhs accel` (second kind) to 1e-12 relative at the default state and at a
generic forced state. Tries the non-linear constraints of parallel-points
and bipendulum the same way and records what happens.

Two sympy variants are timed:
  lambdify(M, F) + numpy.linalg.solve   the usual route (M u' = F, pydy style);
  lambdify(M^-1 F, simplified)          the explicit symbolic RHS (km.rhs()).
nhs times come from the Google Benchmark JSON of bench_closed_form (medians).

Usage (from the repository root, after building with -DNHS_BUILD_BENCH=ON):
  /usr/bin/python3 bench/sympy_compare.py [--nhs build/nhs]
      [--bench reports/bench/closed_form.json] [--out reports/bench/sympy.json]
Needs Debian's python3-sympy (scripts/setup.sh) and python3-numpy.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time
import timeit

import numpy as np
import sympy as sm
import sympy.physics.mechanics as me

TOL = 1e-12


def skate_model(N, O):
    """The skate on the incline: no slip across the blade. Returns (q, u, parameters,
    bodies, loads, velocity constraints, independent speeds, dependent speeds)."""
    m, I, g = sm.symbols("m I g")
    q = me.dynamicsymbols("x y theta")
    u = me.dynamicsymbols("u1:4")
    B = N.orientnew("B", "Axis", [q[2], N.z])
    B.set_ang_vel(N, u[2] * N.z)
    P = O.locatenew("P", q[0] * N.x + q[1] * N.y)
    P.set_vel(N, u[0] * N.x + u[1] * N.y)
    body = me.RigidBody("blade", P, B, m, (me.inertia(B, 0, 0, I), P))
    loads = [(P, m * g * N.x)]
    constraints = [u[0] * sm.sin(q[2]) - u[1] * sm.cos(q[2])]
    # ydot dependent (pivot cos theta = 1 at the default state theta = 0).
    ind, dep = [u[0], u[2]], [u[1]]
    params = [m, I, g]
    bodies = [body]
    return q, u, params, bodies, loads, constraints, ind, dep


def rolling_disc_model(N, O):
    """The rolling disc, with a viscous torque on its rolling angle. Returns (q, u,
    parameters, bodies, loads, velocity constraints, independent speeds, dependent speeds)."""
    m, R, A, Bm, g, k = sm.symbols("m R A B g k")
    q = me.dynamicsymbols("x y theta psi")
    u = me.dynamicsymbols("u1:5")
    H = N.orientnew("H", "Axis", [q[3], N.z])  # heading: H.x rolls, H.y is the axle
    D = H.orientnew("D", "Axis", [q[2], H.y])
    D.set_ang_vel(N, u[3] * N.z + u[2] * H.y)
    C = O.locatenew("C", q[0] * N.x + q[1] * N.y)
    C.set_vel(N, u[0] * N.x + u[1] * N.y)
    # T_rot = A/2 thetad^2 + B/2 psid^2 (docs/studies.md): A about the axle, B about the vertical.
    body = me.RigidBody("disc", C, D, m, (me.inertia(H, Bm, A, Bm), C))
    loads = [(C, m * g * N.x), (D, -k * u[2] * H.y)]  # viscous torque -k thetad on theta
    constraints = [u[0] - R * sm.cos(q[3]) * u[2], u[1] - R * sm.sin(q[3]) * u[2]]
    ind, dep = [u[2], u[3]], [u[0], u[1]]
    params = [m, R, A, Bm, g, k]
    bodies = [body]
    return q, u, params, bodies, loads, constraints, ind, dep


def coaxial_discs_model(N, O):
    """Two discs rolling on a common axle of length a. Returns (q, u, parameters,
    bodies, loads, velocity constraints, independent speeds, dependent speeds)."""
    m, R, A, Bm, a, g = sm.symbols("m R A B a g")
    q = me.dynamicsymbols("x y theta1 theta2 psi")
    u = me.dynamicsymbols("u1:6")
    H = N.orientnew("H", "Axis", [q[4], N.z])
    H.set_ang_vel(N, u[4] * N.z)
    D1 = H.orientnew("D1", "Axis", [q[2], H.y])
    D1.set_ang_vel(N, u[4] * N.z + u[2] * H.y)
    D2 = H.orientnew("D2", "Axis", [q[3], H.y])
    D2.set_ang_vel(N, u[4] * N.z + u[3] * H.y)
    P1 = O.locatenew("P1", q[0] * N.x + q[1] * N.y)
    P1.set_vel(N, u[0] * N.x + u[1] * N.y)
    P2 = P1.locatenew("P2", -a * H.y)  # (x + a sin psi, y - a cos psi)
    P2.v2pt_theory(P1, N, H)
    # Each disc: mass m, A about the axle, B about the vertical, so that
    # T = m (xd^2 + yd^2) + A/2 (th1d^2 + th2d^2) + (m a^2/2 + B) psid^2 + m a psid (...).
    bodies = [me.RigidBody("disc1", P1, D1, m, (me.inertia(H, Bm, A, Bm), P1)),
              me.RigidBody("disc2", P2, D2, m, (me.inertia(H, Bm, A, Bm), P2))]
    loads = [(P1, m * g * N.x), (P2, m * g * N.x)]
    constraints = [u[0] - R * sm.cos(q[4]) * u[2], u[1] - R * sm.sin(q[4]) * u[2],
                   u[4] - R / a * (u[3] - u[2])]
    ind, dep = [u[2], u[3]], [u[0], u[1], u[4]]
    params = [m, R, A, Bm, a, g]
    return q, u, params, bodies, loads, constraints, ind, dep


def point_pair_model(N, O, study):
    """Two points: velocities parallel (parallel-points) or 000 eq. 73 (bipendulum).
    Returns (q, u, parameters, bodies, loads, velocity constraints, independent
    speeds, dependent speeds)."""
    m1, m2, g = sm.symbols("m1 m2 g")
    q = me.dynamicsymbols("x1 y1 x2 y2")
    u = me.dynamicsymbols("u1:5")
    P1 = O.locatenew("P1", q[0] * N.x + q[1] * N.y)
    P1.set_vel(N, u[0] * N.x + u[1] * N.y)
    P2 = O.locatenew("P2", q[2] * N.x + q[3] * N.y)
    P2.set_vel(N, u[2] * N.x + u[3] * N.y)
    bodies = [me.Particle("p1", P1, m1), me.Particle("p2", P2, m2)]
    loads = [(P1, m1 * g * N.x), (P2, m2 * g * N.x)]
    if study == "parallel-points":
        constraints = [u[0] * u[3] - u[2] * u[1]]  # 001 eq. 9.14, quadratic in u
    else:
        constraints = [q[0] * u[0] * u[3] - q[2] * u[2] * u[1]
                       + (q[1] - q[3]) * u[1] * u[3]]  # 000 eq. 73, quadratic in u
    ind, dep = [u[0], u[1], u[3]], [u[2]]
    params = [m1, m2, g]
    return q, u, params, bodies, loads, constraints, ind, dep


# The Kane models by study name: functions of (N, O), the inertial frame and origin.
MODELS = {"skate": skate_model, "rolling-disc": rolling_disc_model, "coaxial-discs": coaxial_discs_model,
          "parallel-points": lambda N, O: point_pair_model(N, O, "parallel-points"),
          "bipendulum": lambda N, O: point_pair_model(N, O, "bipendulum")}


def kane_system(study):
    """(q symbols, u symbols, parameter symbols in docs/studies.md order, KanesMethod) of a
    study in MODELS, after kanes_equations; ValueError for another name."""
    t = me.dynamicsymbols._t
    N = me.ReferenceFrame("N")
    O = me.Point("O")
    O.set_vel(N, 0)
    if study not in MODELS:
        raise ValueError(study)
    q, u, params, bodies, loads, constraints, ind, dep = MODELS[study](N, O)
    kd = [qi.diff(t) - ui for qi, ui in zip(q, u)]
    km = me.KanesMethod(N, q_ind=q, u_ind=ind, u_dependent=dep, kd_eqs=kd,
                        velocity_constraints=constraints)
    km.kanes_equations(bodies, loads)
    return q, u, params, km


def symbolic_field(study):
    """(qs, us, params, M, F, perm): KanesMethod's M u' = F in plain symbols q0.., v0.. (u = qdot)
    and the parameters (docs/studies.md order); u'[perm] is qddot in q's order."""
    q, u, params, km = kane_system(study)
    qs = sm.symbols("q0:%d" % len(q))
    us = sm.symbols("v0:%d" % len(u))
    sub = dict(zip(q, qs))
    sub.update(zip(u, us))
    M = me.msubs(km.mass_matrix, sub)  # rows: dynamic equations of u_ind, then d/dt of the constraints
    F = me.msubs(km.forcing, sub)
    order = list(km.u)  # the order of u' that M, F solve for (u_ind then u_dep)
    leftover = sorted(str(d) for d in (M.atoms(sm.Derivative) | F.atoms(sm.Derivative)))
    if leftover:
        # KanesMethod takes velocity constraints as linear in u (it splits them
        # into a coefficient matrix and a remainder); a quadratic constraint
        # leaves u'(t) inside the mass matrix and forcing: no explicit ODE.
        raise NotImplementedError("KanesMethod (velocity constraints must be linear in u) left "
                                  "u'(t) in its mass matrix/forcing: " + ", ".join(leftover))
    perm = [order.index(ui) for ui in u]
    return qs, us, params, M, F, perm


def lambdified(study):
    """(f_solve, f_explicit): qddot from (q, u, p)."""
    qs, us, params, M, F, perm = symbolic_field(study)
    fM = sm.lambdify([qs, us, params], M, modules="numpy", cse=True)
    fF = sm.lambdify([qs, us, params], F, modules="numpy", cse=True)

    def solve(qv, uv, pv):
        ud = np.linalg.solve(fM(qv, uv, pv), fF(qv, uv, pv)).ravel()
        return ud[perm]

    explicit = None
    try:
        rhs = M.LUsolve(F)
        rhs = sm.Matrix([rhs[i] for i in perm])
        explicit = sm.lambdify([qs, us, params], rhs, modules="numpy", cse=True)
    except Exception as e:  # pragma: no cover - recorded in the report
        print("  explicit rhs failed:", e, file=sys.stderr)
    return solve, explicit


def nhs_accel(nhs, study, q=None, qdot=None, params=None):
    cmd = [nhs, "accel", study, "--formulation", "second-kind", "--precision", "double"]
    for name, value in (params or {}).items():
        cmd += ["--param", "%s=%r" % (name, value)]
    if q is not None:
        cmd += ["--q=" + ",".join(repr(float(v)) for v in q),
                "--qdot=" + ",".join(repr(float(v)) for v in qdot)]
    out = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    as_float = lambda xs: np.array([float(v) for v in xs])
    return (as_float(out["q"]), as_float(out["qdot"]), list(out["parameters"].keys()),
            as_float(out["parameters"].values()), as_float(out["qddot"]))


def rel(a, b):
    scale = max(np.max(np.abs(a)), np.max(np.abs(b)), 1e-300)
    return float(np.max(np.abs(a - b)) / scale)


# A generic forced state per linear study: q, z -> qdot = psi(q, z) (docs/studies.md), parameters.
def generic_state(study):
    if study == "skate":
        q = [0.3, -1.1, 0.7]
        s, w = 0.8, -0.6
        return q, [s * math.cos(q[2]), s * math.sin(q[2]), w], {"g": 1.3, "I": 0.7}
    if study == "rolling-disc":
        q = [0.2, 0.4, -0.9, 1.1]
        R, thd, psd = 1.0, 0.7, -0.4
        return q, [R * math.cos(q[3]) * thd, R * math.sin(q[3]) * thd, thd, psd], {"g": 1.3, "k": 0.4}
    if study == "coaxial-discs":
        q = [0.2, 0.4, -0.9, 1.1, 0.6]
        R, a, t1, t2 = 1.0, 2.0, 0.7, -0.3
        return (q, [R * math.cos(q[4]) * t1, R * math.sin(q[4]) * t1, t1, t2, R / a * (t2 - t1)],
                {"g": 1.3})
    if study == "parallel-points":
        th, rho, sigma = 0.7, 0.9, -0.4
        c, s = math.cos(th), math.sin(th)
        return [0.3, -0.2, 1.1, 0.5], [rho * c, rho * s, sigma * c, sigma * s], {"g": 1.3, "m2": 1.7}
    if study == "bipendulum":
        q = [1.2, 0.3, -0.8, -0.6]
        y0, w1, w2 = 0.4, 0.9, -0.5
        return (q, [-w1 * (q[1] - y0), w1 * q[0], -w2 * (q[3] - y0), w2 * q[2]],
                {"g": 1.3, "m2": 1.7})
    raise ValueError(study)


def time_call(f, *args, repeat=5):
    """Median CPU ns per call over `repeat` runs of ~0.2 s (CPU time, as the nhs figures)."""
    f(*args)
    clock = time.process_time
    one = timeit.timeit(lambda: f(*args), number=3, timer=clock) / 3
    number = max(1, int(0.2 / max(one, 1e-7)))
    runs = [timeit.timeit(lambda: f(*args), number=number, timer=clock) / number
            for _ in range(repeat)]
    return float(np.median(runs)) * 1e9


def nhs_times(bench_json, study):
    """Median ns per call of the closed form, of each generic formulation and of each
    generated field ("generated second-kind", ...) (double)."""
    if not bench_json or not os.path.exists(bench_json):
        return {}
    out = {}
    for b in json.load(open(bench_json))["benchmarks"]:
        if b.get("aggregate_name", "median") != "median" or b.get("error_occurred"):
            continue
        parts = b["run_name"].split("/")
        if parts[-1] != "double" or parts[1] != study:
            continue
        key = ("closed-form" if parts[0] == "closed-form" else
               "generated " + parts[2] if parts[0] == "generated" else parts[2])
        scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
        out[key] = b["cpu_time"] * scale
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nhs", default="build/nhs")
    ap.add_argument("--bench", default="reports/bench/closed_form.json")
    ap.add_argument("--out", default="reports/bench/sympy.json")
    args = ap.parse_args()
    report = {"sympy_version": sm.__version__, "numpy_version": np.__version__,
              "tolerance": TOL, "studies": []}
    for study in ["skate", "rolling-disc", "coaxial-discs", "parallel-points", "bipendulum"]:
        print(study, file=sys.stderr)
        entry = {"study": study}
        try:
            solve, explicit = lambdified(study)
        except Exception as e:
            entry["sympy"] = "failed to build: %s: %s" % (type(e).__name__, e)
            report["studies"].append(entry)
            continue
        checks = []
        for label, (qg, qdg, pg) in [("default", (None, None, None)),
                                     ("generic forced", generic_state(study))]:
            try:
                q, qd, names, p, qdd = nhs_accel(args.nhs, study, qg, qdg, pg)
            except subprocess.CalledProcessError as e:
                checks.append({"state": label, "error": e.stderr.strip()})
                continue
            p = p[:len(_PARAMS[study])]  # the parameters sympy models (bipendulum: k = 0 dropped)
            try:
                s_solve = solve(q, qd, p)
            except Exception as e:
                checks.append({"state": label, "error": "sympy RHS not evaluable: %s: %s"
                               % (type(e).__name__, e)})
                continue
            c = {"state": label, "q": q.tolist(), "qdot": qd.tolist(), "parameters": dict(zip(names, p.tolist())),
                 "qddot_nhs": qdd.tolist(), "qddot_sympy": s_solve.tolist(),
                 "rel_diff_solve": rel(s_solve, qdd)}
            if explicit is not None:
                c["rel_diff_explicit"] = rel(np.asarray(explicit(q, qd, p), dtype=float).ravel(), qdd)
            c["agrees"] = c["rel_diff_solve"] <= TOL
            checks.append(c)
            if label == "default":
                entry["t_sympy_solve_ns"] = time_call(solve, q, qd, p)
                if explicit is not None:
                    entry["t_sympy_explicit_ns"] = time_call(explicit, q, qd, p)
        entry["checks"] = checks
        entry["agrees"] = all(c.get("agrees", False) for c in checks)
        t = nhs_times(args.bench, study)
        entry["t_nhs_ns"] = t
        if t:
            generic = {k: v for k, v in t.items()
                       if k != "closed-form" and not k.startswith("generated ")}
            generated = {k: v for k, v in t.items() if k.startswith("generated ")}
            best = min(generic, key=generic.get) if generic else None
            best_gen = min(generated, key=generated.get) if generated else None
            t_sympy = min(v for k, v in entry.items() if k.startswith("t_sympy"))
            entry["best_nhs_generated"] = best_gen
            entry["speedup_nhs_generated_over_sympy"] = (t_sympy / generated[best_gen]
                                                         if best_gen else None)
            entry["best_nhs_formulation"] = best
            entry["speedup_nhs_best_generic_over_sympy"] = t_sympy / generic[best] if best else None
            if "closed-form" in t:
                entry["speedup_nhs_closed_form_over_sympy"] = t_sympy / t["closed-form"]
            entry["ratio_nhs_over_sympy_time"] = generic[best] / t_sympy if best else None
        report["studies"].append(entry)
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(report, f, indent=2)
    for e in report["studies"]:
        print(json.dumps({k: v for k, v in e.items() if k != "checks"}))


_PARAMS = {"skate": ["m", "I", "g"], "rolling-disc": ["m", "R", "A", "B", "g", "k"],
           "coaxial-discs": ["m", "R", "A", "B", "a", "g"],
           "parallel-points": ["m1", "m2", "g"], "bipendulum": ["m1", "m2", "g"]}

if __name__ == "__main__":
    main()
