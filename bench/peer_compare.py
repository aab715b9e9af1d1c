#!/usr/bin/python3
"""Whole runs of nhs against what users would otherwise use (issue 20 item 6).

The same three special motions (docs/special-motions.md, the studies'
`special_motions()`), from the same exact initial state (decimal data; q̇ =
ψ(q, z) evaluated in the solver's precision), are integrated by:

  nhs       `nhs run STUDY ... --t-end T --dt-out T --rtol R --atol R`, its
            default field (for these built-in studies: the generated second
            kind) and its default stepper; the final CSV row is the result.
            Timed as the whole process (start-up included, see `startup_s`
            in the JSON), median of --nhs-repeats runs.
  SciPy     `scipy.integrate.solve_ivp` with RK45, DOP853 and LSODA on the
            field that sympy.physics.mechanics derives (KanesMethod, built by
            bench/sympy_compare.py), in two variants:
              numeric-solve   M and F lambdified (numpy, cse), numpy.linalg.solve per call;
              symbolic        M^-1 F solved and simplified by sympy, lambdified with `math`.
            Timed as the solve_ivp call alone (field construction, lambdify
            and the interpreter's start-up excluded), median of --repeats runs.
  mpmath    `mpmath.odefun` (Taylor series) at mp.dps = 50 on the symbolic
            field lambdified with mpmath, against `nhs run --precision mp50`
            (its default stepper, Bulirsch-Stoer), to t = 2. Timed as the
            odefun construction and its evaluation at t_end, one run each.

The error is the max-norm over (q, q̇) at t_end against the closed form,
evaluated with mpmath at 60 digits. rtol = atol everywhere.

Output: <out-dir>/peer_compare.json (every run), <out-dir>/peer_compare.md
(the matched-accuracy table: for each nhs run, the cheapest peer run whose
error is at most nhs's, and the peers' work-precision curves interpolated in
log-log at nhs's error) and the figure <out-dir>/../figures/peer_compare.png
(or --figure).

Usage (from the repository root):
  /usr/bin/python3 bench/peer_compare.py [--quick] [--nhs build/nhs]
      [--out-dir reports/bench] [--figure PATH]
"""
import argparse
import json
import math
import os
import platform
import re
import signal
import statistics
import subprocess
import sys
import time

try:
    import mpmath
    import numpy as np
    import scipy
    import sympy as sm
    from scipy.integrate import solve_ivp
except ImportError as e:  # exit 77: ctest's SKIP_RETURN_CODE (tests/CMakeLists.txt)
    print("peer_compare: skipped: %s (needs Debian's python3-numpy, -scipy, -sympy, -mpmath)" % e,
          file=sys.stderr)
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sympy_compare import symbolic_field  # noqa: E402  (KanesMethod construction)

REF_DPS = 60  # digits of the closed-form reference
MP_DPS = 50   # mpmath's working digits (nhs mp50)

# The motions: parameters in sympy_compare's order (= docs/studies.md), q0 and
# z0 as decimal text, as in studies/*.cpp special_motions().
MOTIONS = [
    {"key": "rolling-disc circle", "study": "rolling-disc",
     "params": [("m", "1.1"), ("R", "0.9"), ("A", "0.45"), ("B", "0.2"), ("g", "0"), ("k", "0")],
     "q0": ["0.1", "0.3", "0.2", "-0.7"], "z0": ["1.5", "0.8"]},
    {"key": "coaxial-discs orbit", "study": "coaxial-discs",
     "params": [("m", "1.3"), ("R", "0.7"), ("A", "0.4"), ("B", "0.15"), ("a", "1.6"), ("g", "0")],
     "q0": ["0.2", "-0.4", "0.3", "-1.1", "0.5"], "z0": ["1.2", "0.4"]},
    {"key": "skate incline w=0.9", "study": "skate",
     "params": [("m", "1.2"), ("I", "0.3"), ("g", "3")],
     "q0": ["0.5", "-0.2", "0.4"], "z0": ["0.7", "0.9"]},
]

DOUBLE_TOLS = ["1e-5", "1e-7", "1e-9", "1e-11", "1e-13"]
DOUBLE_TENDS = ["20", "200"]
MP_TEND = "2"
NHS_MP_TOLS = ["1e-30", "1e-40", "1e-45"]
MPMATH_TOLS = ["1e-30", "1e-40", "1e-45", None]  # None: odefun's default (eps at 50 digits)
METHODS = ["RK45", "DOP853", "LSODA"]
VARIANTS = ["numeric-solve", "symbolic"]


# ---------------------------------------------------------------- exact motion
def _mp(text):
    return mpmath.mpf(text)


def initial_state(motion):
    """(q0, qdot0) as mpf at the current precision: q̇0 = ψ(q0, z0) (docs/studies.md)."""
    p = {k: _mp(v) for k, v in motion["params"]}
    q = [_mp(v) for v in motion["q0"]]
    z = [_mp(v) for v in motion["z0"]]
    st = motion["study"]
    if st == "skate":
        s, w = z
        qd = [s * mpmath.cos(q[2]), s * mpmath.sin(q[2]), w]
    elif st == "rolling-disc":
        qd = [p["R"] * mpmath.cos(q[3]) * z[0], p["R"] * mpmath.sin(q[3]) * z[0], z[0], z[1]]
    else:
        R, a = p["R"], p["a"]
        qd = [R * mpmath.cos(q[4]) * z[0], R * mpmath.sin(q[4]) * z[0], z[0], z[1],
              R / a * (z[1] - z[0])]
    return q, qd


def exact(motion, t_text):
    """Closed form at t (docs/special-motions.md), as mpf at the current precision."""
    p = {k: _mp(v) for k, v in motion["params"]}
    q0 = [_mp(v) for v in motion["q0"]]
    z0 = [_mp(v) for v in motion["z0"]]
    t = _mp(t_text)
    sin, cos = mpmath.sin, mpmath.cos
    st = motion["study"]
    if st == "skate":
        g, (x0, y0, th0), (s0, w) = p["g"], q0, z0
        th = th0 + w * t
        s = s0 + (g / w) * (sin(th) - sin(th0))
        K = s0 - (g / w) * sin(th0)
        x = x0 + K * (sin(th) - sin(th0)) / w + g * (sin(th) ** 2 - sin(th0) ** 2) / (2 * w * w)
        y = y0 - K * (cos(th) - cos(th0)) / w + (g / w) * (t / 2 - (sin(2 * th) - sin(2 * th0)) / (4 * w))
        return [x, y, th], [s * cos(th), s * sin(th), w]
    if st == "rolling-disc":  # k = 0: the circle
        R, (x0, y0, th0, ps0), (thd0, om) = p["R"], q0, z0
        assert p["k"] == 0
        ps = ps0 + om * t
        P, Q = cos(om * t) - 1, sin(om * t)
        U, W = Q / om, -P / om
        c0, s0, amp = cos(ps0), sin(ps0), R * thd0
        return ([x0 + amp * (c0 * U - s0 * W), y0 + amp * (s0 * U + c0 * W), th0 + thd0 * t, ps],
                [R * cos(ps) * thd0, R * sin(ps) * thd0, thd0, om])
    # coaxial discs, g = 0: z constant, psi uniform
    R, a = p["R"], p["a"]
    assert p["g"] == 0
    x0, y0, th10, th20, ps0 = q0
    z1, z2 = z0
    om = R / a * (z2 - z1)
    ps = ps0 + om * t
    x = x0 + (R * z1 / om) * (sin(ps) - sin(ps0))
    y = y0 - (R * z1 / om) * (cos(ps) - cos(ps0))
    return ([x, y, th10 + z1 * t, th20 + z2 * t, ps],
            [R * cos(ps) * z1, R * sin(ps) * z1, z1, z2, om])


def error_against_exact(motion, t_text, values):
    """max |values - exact| over (q, q̇); values: decimal strings, floats or mpf."""
    with mpmath.workdps(REF_DPS):
        q, qd = exact(motion, t_text)
        ref = q + qd
        return float(max(abs(mpmath.mpf(v) - r) for v, r in zip(values, ref)))


# ---------------------------------------------------------------- nhs
def nhs_command(nhs, motion, t_end, tol, precision):
    cmd = [nhs, "run", motion["study"]]
    for k, v in motion["params"]:
        cmd += ["--param", "%s=%s" % (k, v)]
    cmd += ["--q=" + ",".join(motion["q0"]), "--z=" + ",".join(motion["z0"]),
            "--t-end", t_end, "--dt-out", t_end]
    if tol is not None:
        cmd += ["--rtol", tol, "--atol", tol]
    if precision != "double":
        cmd += ["--precision", precision]
    return cmd


def run_nhs(nhs, motion, t_end, tol, precision, repeats):
    cmd = nhs_command(nhs, motion, t_end, tol, precision)
    n = len(motion["q0"])
    walls, out = [], None
    subprocess.run(cmd, capture_output=True)  # warm-up (page cache), not timed
    for _ in range(repeats):
        t0 = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True)
        walls.append(time.perf_counter() - t0)
        out = p
        if p.returncode != 0:
            break
    rec = {"tool": "nhs", "method": "default", "variant": "default field", "motion": motion["key"],
           "study": motion["study"], "precision": precision, "rtol": float(tol) if tol else None,
           "t_end": float(t_end), "timing": "process wall time (start-up included), median",
           "wall_times_s": walls, "wall_time_s": statistics.median(walls),
           "command": " ".join(cmd[1:])}
    m = re.search(r"with (.+?) in \S+, stepper (\S+?):", out.stderr)
    if m:
        rec["variant"], rec["method"] = m.group(1), m.group(2)
    m = re.search(r"(\d+) steps, (\d+) RHS calls", out.stderr)
    if m:
        rec["steps"], rec["rhs_calls"] = int(m.group(1)), int(m.group(2))
    if out.returncode != 0:
        rec.update(status="failed", message=out.stderr.strip().splitlines()[-1:], error=None)
        return rec
    rows = [r for r in out.stdout.strip().splitlines() if r]
    last = rows[-1].split(",")
    rec["status"] = "ok"
    rec["error"] = error_against_exact(motion, t_end, last[1:1 + 2 * n])
    return rec


def process_wall(cmd, repeats):
    """Median wall time of a process, as run_nhs measures it (after one warm-up run)."""
    subprocess.run(cmd, capture_output=True, check=True)
    walls = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=True)
        walls.append(time.perf_counter() - t0)
    return statistics.median(walls)


# ---------------------------------------------------------------- sympy fields
class Fields:
    """The sympy-derived vector fields of one study (y = (q, q̇), q̇ = u)."""

    def __init__(self, study):
        t0 = time.perf_counter()
        qs, us, params, M, F, perm = symbolic_field(study)
        self.n = len(qs)
        args = [qs, us, params]
        fM = sm.lambdify(args, M, modules="numpy", cse=True)
        fF = sm.lambdify(args, F, modules="numpy", cse=True)
        self.build_kane_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        rhs = M.LUsolve(F)
        self.explicit = [sm.simplify(rhs[i]) for i in perm]
        self.build_simplify_s = time.perf_counter() - t0
        fm = sm.lambdify(args, self.explicit, modules="math", cse=True)
        fmp = sm.lambdify(args, self.explicit, modules="mpmath", cse=True)
        n = self.n

        def numeric_solve(p):
            def f(t, y):
                q, u = y[:n], y[n:]
                ud = np.linalg.solve(fM(q, u, p), fF(q, u, p)).ravel()
                return np.concatenate((u, ud[perm]))
            return f

        def symbolic(p):
            def f(t, y):
                yl = y.tolist()
                u = yl[n:]
                return u + fm(yl[:n], u, p)
            return f

        def mp(p, counter):
            def f(t, y):
                counter[0] += 1
                u = list(y[n:])
                return u + [mpmath.mpf(v) for v in fmp(list(y[:n]), u, p)]
            return f

        self.make = {"numeric-solve": numeric_solve, "symbolic": symbolic}
        self.make_mp = mp


def run_scipy(fields, motion, method, variant, t_end, tol, repeats, max_single_s):
    p = [float(v) for _, v in motion["params"]]
    with mpmath.workdps(REF_DPS):
        q0, qd0 = initial_state(motion)
        y0 = np.array([float(v) for v in q0 + qd0])
    f = fields.make[variant](p)
    walls, sol = [], None
    for i in range(repeats):
        t0 = time.perf_counter()
        sol = solve_ivp(f, (0.0, float(t_end)), y0, method=method, rtol=float(tol), atol=float(tol))
        walls.append(time.perf_counter() - t0)
        if walls[-1] > max_single_s:
            break
    rec = {"tool": "scipy", "method": method, "variant": variant, "motion": motion["key"],
           "study": motion["study"], "precision": "double", "rtol": float(tol),
           "t_end": float(t_end), "timing": "solve_ivp call alone, median",
           "wall_times_s": walls, "wall_time_s": statistics.median(walls),
           "rhs_calls": int(sol.nfev), "steps": int(sol.t.size - 1)}
    if method == "LSODA":
        rec["jacobian_evaluations"] = int(sol.njev)
    if not sol.success or sol.t[-1] != float(t_end):
        rec.update(status="failed", message=sol.message, error=None)
        return rec
    rec["status"] = "ok"
    rec["error"] = error_against_exact(motion, t_end, sol.y[:, -1].tolist())
    return rec


class Budget(Exception):
    pass


def run_mpmath(fields, motion, t_end, tol, budget_s):
    counter = [0]
    rec = {"tool": "mpmath", "method": "odefun (taylor)", "variant": "symbolic",
           "motion": motion["key"], "study": motion["study"], "precision": "mp50",
           "rtol": float(tol) if tol else None, "tol_text": tol or "default (eps)",
           "t_end": float(t_end), "timing": "odefun construction + evaluation at t_end, one run"}

    def alarm(signum, frame):
        raise Budget()

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, budget_s)
    try:
        with mpmath.workdps(MP_DPS):
            p = [mpmath.mpf(v) for _, v in motion["params"]]
            q0, qd0 = initial_state(motion)
            t0 = time.perf_counter()
            sol = mpmath.odefun(fields.make_mp(p, counter), 0, q0 + qd0,
                                tol=mpmath.mpf(tol) if tol else None)
            y = sol(mpmath.mpf(t_end))
            wall = time.perf_counter() - t0
        signal.setitimer(signal.ITIMER_REAL, 0)
    except Budget:
        rec.update(status="skipped", message="over the budget of %g s (stopped after %d RHS calls)"
                   % (budget_s, counter[0]), error=None, wall_time_s=None, rhs_calls=counter[0])
        return rec
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    rec.update(status="ok", wall_time_s=wall, wall_times_s=[wall], rhs_calls=counter[0],
               error=error_against_exact(motion, t_end, list(y)))
    return rec


# ---------------------------------------------------------------- matching
def matched(nhs_rec, peers):
    """For one nhs run: the cheapest peer run with error <= nhs's, and the best
    log-log interpolation of each peer curve (method, variant) at nhs's error."""
    e = nhs_rec["error"]
    ok = [r for r in peers if r["status"] == "ok" and r["error"] is not None]
    reach = [r for r in ok if r["error"] <= e]
    best = min(reach, key=lambda r: r["wall_time_s"]) if reach else None
    interp = None
    curves = {}
    for r in ok:
        curves.setdefault((r["method"], r["variant"]), []).append(r)
    for key, pts in curves.items():
        pts.sort(key=lambda r: -(r["rtol"] if r["rtol"] is not None else 0.0))  # loose -> tight
        for a, b in zip(pts, pts[1:]):
            lo, hi = sorted([a, b], key=lambda r: r["error"])
            if not (lo["error"] <= e <= hi["error"]) or lo["error"] <= 0:
                continue
            if hi["error"] == lo["error"]:
                tm = min(a["wall_time_s"], b["wall_time_s"])
            else:
                w = (math.log(e) - math.log(lo["error"])) / (math.log(hi["error"]) - math.log(lo["error"]))
                tm = math.exp(math.log(lo["wall_time_s"]) +
                              w * (math.log(hi["wall_time_s"]) - math.log(lo["wall_time_s"])))
            if interp is None or tm < interp["wall_time_s"]:
                interp = {"method": key[0], "variant": key[1], "wall_time_s": tm,
                          "how": "interpolated"}
    if best and (interp is None or best["wall_time_s"] < interp["wall_time_s"]):
        interp = {"method": best["method"], "variant": best["variant"],
                  "wall_time_s": best["wall_time_s"], "how": "a run reaching it"}
    return best, interp


# ---------------------------------------------------------------- output
def fmt_e(x):
    return "—" if x is None else "%.1e" % x


def fmt_t(x):
    if x is None:
        return "—"
    return "%.3g ms" % (x * 1e3) if x < 1 else "%.3g s" % x


def label(r):
    tol = r.get("tol_text") or ("%g" % r["rtol"] if r["rtol"] is not None else "default")
    v = "" if r["tool"] == "mpmath" else " " + r["variant"]
    return "%s%s @%s" % (r["method"], v, tol)


def markdown_head(report, cmdline):
    """The title, provenance and method of peer_compare.md (Markdown lines)."""
    L = ["# Whole runs: nhs against SciPy and mpmath (`bench/peer_compare.py`)", "",
         "Generated by `%s` on %s (repository HEAD %s). Python %s, numpy %s, scipy %s, sympy %s, "
         "mpmath %s; nhs: `%s`."
         % (cmdline, report["date"], report["git_head"], report["python"], report["numpy"],
            report["scipy"], report["sympy"], report["mpmath"], report["nhs"]), "",
         "- Motions (docs/special-motions.md): the rolling disc's circle (k = 0), the co-axial "
         "discs' free orbit (g = 0), the skate on the incline with ω = 0.9; their exact "
         "parameters and initial state (q0 and z0 as decimal text, q̇0 = ψ(q0, z0)).",
         "- Error: max-norm over (q, q̇) at t_end against the closed form, evaluated with "
         "mpmath at %d digits. rtol = atol for every solver." % REF_DPS,
         "- nhs: `nhs run` with its defaults (field: %s; stepper in double: %s, in mp50: %s). "
         "Time: wall time of the whole process, start-up included, from Python's "
         "subprocess.run, median of %d runs after one warm-up run. A null run (`nhs %s`) takes "
         "%s this way, and /bin/true %s: process creation from Python is most of it. The last "
         "column of the double table divides by nhs's time less the null run's (an estimate of "
         "the integration alone; '~' where the difference is under 0.3 ms, i.e. within the noise)."
         % (report["nhs_field"], report["nhs_stepper_double"], report["nhs_stepper_mp50"],
            report["nhs_repeats"], report["nhs_startup_command"], fmt_t(report["nhs_startup_s"]),
            fmt_t(report["spawn_true_s"])),
         "- SciPy %s: `solve_ivp` (RK45, DOP853, LSODA) on the field of sympy.physics.mechanics "
         "(KanesMethod of bench/sympy_compare.py): *numeric-solve* lambdifies M and F (numpy, cse) "
         "and calls numpy.linalg.solve per RHS; *symbolic* lambdifies M⁻¹F, solved and simplified "
         "by sympy, with `math`. Time: the solve_ivp call alone (no field construction, no "
         "interpreter start-up), median of %d runs (one run when a run takes over %g s)."
         % (report["scipy"], report["repeats"], report["max_single_s"]),
         "- mpmath: `mpmath.odefun` (its Taylor method) at mp.dps = 50 on the symbolic field "
         "lambdified with mpmath; one run each, stopped and recorded as skipped past %g s. "
         "Time: construction and evaluation at t_end." % report["mp_budget_s"],
         "- Matched accuracy: for each nhs run, *reaching* is the cheapest peer run (any method, "
         "variant and tolerance) whose error is at most nhs's; *interpolated* is the cheapest "
         "time read off the peers' work-precision curves (each method × variant, consecutive "
         "tolerances) by linear interpolation of log time against log error at nhs's error, "
         "without extrapolation, or the reaching run where that is cheaper (marked *). Ratio = peer time ÷ nhs time: above 1, nhs is faster.",
         "- One run on a shared 2-core machine; compare ratios within it, not absolute times "
         "across runs.", ""]
    return L


def match_table(L, report, title, nhs_prec, peer_tool):
    """Appends to L the table of nhs runs in nhs_prec against the runs of peer_tool at
    matched accuracy, and stores each nhs run's match in it (r["match"]). Returns
    [(motion, t_end, ratio reaching, ratio interpolated)]."""
    runs = report["runs"]
    extra = nhs_prec == "double"
    L.extend(["## " + title, "",
              "| motion | t_end | rtol | nhs error | nhs time | nhs RHS | best peer reaching "
              "(error, time) | ratio | interpolated best peer (time) | ratio (interp.) |"
              + (" ratio, nhs start-up excluded (est.) |" if extra else ""),
              "|---|---|---|---|---|---|---|---|---|---|" + ("---|" if extra else "")])
    ratios = []
    for r in runs:
        if r["tool"] != "nhs" or r["precision"] != nhs_prec:
            continue
        if r["status"] != "ok":
            L.append("| %s | %g | %g | failed: %s | | | | | | |%s"
                     % (r["motion"], r["t_end"], r["rtol"] or 0, r.get("message"),
                        " |" if extra else ""))
            continue
        peers = [p for p in runs if p["tool"] == peer_tool and p["motion"] == r["motion"]
                 and p["t_end"] == r["t_end"]]
        best, interp = matched(r, peers)
        rb = best["wall_time_s"] / r["wall_time_s"] if best else None
        ri = interp["wall_time_s"] / r["wall_time_s"] if interp else None
        r["match"] = {"reaching": best and {k: best[k] for k in ("method", "variant", "rtol",
                                                               "error", "wall_time_s")},
                      "ratio_reaching": rb, "interpolated": interp, "ratio_interpolated": ri}
        ratios.append((r["motion"], r["t_end"], rb, ri))
        own = r["wall_time_s"] - report["nhs_startup_s"]
        r["match"]["nhs_time_less_null_run_s"] = own
        rx = ("~" if own < 3e-4 else "%.2f" % (best["wall_time_s"] / own)) if best else "—"
        L.append(("| %s | %g | %s | %s | %s | %s | %s | %s | %s | %s |" + (" %s |" % rx if extra else "")) % (
            r["motion"], r["t_end"], r.get("tol_text") or "%g" % r["rtol"], fmt_e(r["error"]),
            fmt_t(r["wall_time_s"]), r.get("rhs_calls", "—"),
            ("%s (%s, %s)" % (label(best), fmt_e(best["error"]), fmt_t(best["wall_time_s"])))
            if best else "none reaches it",
            "%.2f" % rb if rb else "—",
            ("%s%s (%s)%s" % (interp["method"], "" if peer_tool == "mpmath" else " " + interp["variant"],
                              fmt_t(interp["wall_time_s"]),
                              "*" if interp["how"] != "interpolated" else "")) if interp else "—",
            "%.2f" % ri if ri else "—"))
    L.append("")
    return ratios


def ratio_ranges(rd):
    """Markdown lines: the range of the ratios per motion and t_end (rd: match_table's
    list); none when rd is empty."""
    if not rd:
        return []
    L = ["Range of the ratios (reaching; interpolated) per motion and t_end:", ""]
    for key in sorted({(m, t) for m, t, _, _ in rd}, key=lambda k: (k[1], k[0])):
        vals = [b for m, t, b, _ in rd if (m, t) == key and b]
        ivals = [i for m, t, _, i in rd if (m, t) == key and i]
        none = sum(1 for m, t, b, _ in rd if (m, t) == key and not b)
        rng = lambda v: "%.2f–%.2f" % (min(v), max(v)) if v else "—"
        L.append("- %s, t = %g: %s; %s%s" % (key[0], key[1], rng(vals), rng(ivals),
                                             " (%d nhs run(s) that no peer run reaches)" % none
                                             if none else ""))
    L.append("")
    return L


def every_run(runs):
    """Markdown lines: the table of every run, each tool's."""
    L = ["## Every run", "",
         "| tool | method | variant | motion | precision | rtol | t_end | error | time | RHS calls | status |",
         "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in runs:
        L.append("| %s | %s | %s | %s | %s | %s | %g | %s | %s | %s | %s |" % (
            r["tool"], r["method"], r["variant"], r["motion"], r["precision"],
            r.get("tol_text") or ("%g" % r["rtol"] if r["rtol"] is not None else "default"),
            r["t_end"], fmt_e(r.get("error")), fmt_t(r.get("wall_time_s")),
            r.get("rhs_calls", "—"), r["status"] + (": %s" % r["message"] if r.get("message") else "")))
    L.append("")
    return L


def markdown(report, cmdline):
    """peer_compare.md from the report; also stores each nhs run's match in it."""
    L = markdown_head(report, cmdline)
    rd = match_table(L, report, "Double: nhs against SciPy", "double", "scipy")
    L += ratio_ranges(rd)
    match_table(L, report, "50 digits: nhs mp50 against mpmath odefun, t = %s" % MP_TEND, "mp50", "mpmath")
    L += every_run(report["runs"])
    return "\n".join(L)


def figure(report, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("peer_compare: matplotlib missing, no figure", file=sys.stderr)
        return False
    runs = [r for r in report["runs"] if r["status"] == "ok" and r["error"]]
    motions = [m["key"] for m in MOTIONS if any(r["motion"] == m["key"] for r in runs)]
    rows = [("double", t) for t in sorted({r["t_end"] for r in runs if r["precision"] == "double"})]
    if any(r["precision"] == "mp50" for r in runs):
        rows.append(("mp50", float(MP_TEND)))
    fig, axes = plt.subplots(len(rows), len(motions), figsize=(5 * len(motions), 4 * len(rows)),
                             squeeze=False)
    colors = {"RK45": "tab:blue", "DOP853": "tab:green", "LSODA": "tab:red",
              "odefun (taylor)": "tab:orange"}
    for i, (prec, t_end) in enumerate(rows):
        for j, mk in enumerate(motions):
            ax = axes[i][j]
            sel = [r for r in runs if r["motion"] == mk and r["t_end"] == t_end and
                   (r["precision"] == prec if r["tool"] != "scipy" else prec == "double")]
            curves = {}
            for r in sel:
                curves.setdefault((r["tool"], r["method"], r["variant"]), []).append(r)
            for (tool, method, variant), pts in sorted(curves.items()):
                pts.sort(key=lambda r: -(r["rtol"] or 0.0))
                x = [r["wall_time_s"] for r in pts]
                y = [max(r["error"], 1e-60) for r in pts]
                if tool == "nhs":
                    ax.plot(x, y, "k-o", lw=2.2, ms=5, label="nhs %s" % prec, zorder=5)
                else:
                    ax.plot(x, y, marker="s" if variant == "symbolic" else "^", ms=4,
                            ls="-" if variant == "symbolic" else "--", color=colors.get(method, "gray"),
                            label=("%s %s" % (method, variant)) if tool == "scipy" else "mpmath odefun")
            if not sel:
                ax.axis("off")
                ax.set_title("%s, %s, t = %g: not run" % (mk, prec, t_end), fontsize=10)
                continue
            if prec == "double":
                ax.axvline(report["nhs_startup_s"], color="gray", ls=":", lw=1,
                           label="nhs null run (start-up)")
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.grid(True, which="major", alpha=0.3)
            ax.set_title("%s, %s, t = %g" % (mk, prec, t_end), fontsize=10)
            ax.set_xlabel("wall time [s] (nhs: process; peers: solver call)")
            ax.set_ylabel("max error of (q, q̇) at t_end")
            if ax.get_legend_handles_labels()[0]:
                ax.legend(fontsize=6.5, loc="best")
    fig.tight_layout()
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


# ---------------------------------------------------------------- main
def parse_args():
    """The command line."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="a subset for a smoke test (< 2 min): rtol 1e-7, 1e-11, t = 20, one run "
                         "each; mpmath at tol 1e-20 on the skate to t = 0.5")
    ap.add_argument("--nhs", default="build/nhs")
    ap.add_argument("--out-dir", default="reports/bench")
    ap.add_argument("--figure", default=None, help="default <out-dir>/../figures/peer_compare.png")
    ap.add_argument("--nhs-repeats", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=3, help="runs per SciPy case (median)")
    ap.add_argument("--max-single-s", type=float, default=5.0,
                    help="a SciPy case whose first run takes longer is run once")
    ap.add_argument("--mp-budget", type=float, default=60.0, help="seconds per mpmath run")
    ap.add_argument("--motion", action="append", help="only these motions (keys or studies)")
    return ap.parse_args()


def start_report(args, nhs, cmdline, nhs_repeats, repeats):
    """The report's provenance and settings, with the null run's and /bin/true's
    process times (its runs list empty)."""
    null_cmd = [nhs, "run", "skate", "--t-end", "1e-9", "--dt-out", "1e-9"]
    startup = process_wall(null_cmd, 21)
    spawn = process_wall(["/bin/true"], 21)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                          cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    return {"date": time.strftime("%Y-%m-%d %H:%M"), "python": platform.python_version(),
            "git_head": head,
            "numpy": np.__version__, "scipy": scipy.__version__, "sympy": sm.__version__,
            "mpmath": mpmath.__version__, "nhs": args.nhs, "command": cmdline,
            "quick": args.quick, "nhs_startup_s": startup, "nhs_startup_command": " ".join(null_cmd[1:]),
            "spawn_true_s": spawn,
            "nhs_repeats": nhs_repeats, "repeats": repeats, "max_single_s": args.max_single_s,
            "mp_budget_s": args.mp_budget, "reference_digits": REF_DPS,
            "timing": {"nhs": "wall time of the whole process (start-up included), median",
                       "scipy": "the solve_ivp call alone, median",
                       "mpmath": "odefun construction and evaluation at t_end, one run"},
            "fields": {}, "runs": []}


def log(r):
    """One line on stderr per run."""
    print("%-6s %-16s %-14s %-20s %-5s rtol %-8s t %-5g err %-9s time %-9s rhs %s %s" % (
        r["tool"], r["method"], r["variant"][:14], r["motion"], r["precision"],
        r.get("tol_text") or r["rtol"], r["t_end"], fmt_e(r.get("error")),
        fmt_t(r.get("wall_time_s")), r.get("rhs_calls", "—"),
        "" if r["status"] == "ok" else r["status"] + " " + str(r.get("message"))),
        file=sys.stderr, flush=True)


def mp50_runs(report, fields, motion, nhs, nhs_mp_tols, mpmath_tols, args):
    """nhs mp50 and mpmath odefun on one motion to MP_TEND, appended to report["runs"];
    past the budget, mpmath's tighter tolerances are recorded as skipped."""
    runs = report["runs"]
    for tol in nhs_mp_tols:
        r = run_nhs(nhs, motion, MP_TEND, tol, "mp50", 3 if not args.quick else 1)
        runs.append(r)
        log(r)
    over = False
    for tol in mpmath_tols:  # loose -> tight: past the budget, the tighter ones are skipped
        if over:
            r = {"tool": "mpmath", "method": "odefun (taylor)", "variant": "symbolic",
                 "motion": motion["key"], "study": motion["study"], "precision": "mp50",
                 "rtol": float(tol) if tol else None, "tol_text": tol or "default (eps)",
                 "t_end": float(MP_TEND), "status": "skipped", "error": None,
                 "wall_time_s": None, "message": "a looser tolerance was over the budget"}
        else:
            r = run_mpmath(fields, motion, MP_TEND, tol, args.mp_budget)
            over = r["status"] == "skipped"
        runs.append(r)
        log(r)


def steppers(runs, prec):
    """The steppers nhs's `auto` chose in prec, with their rtol ranges ("verner87 at
    rtol 1e-07 ... 1e-13, ..."), or "?"."""
    by = {}
    for r in runs:
        if r["tool"] == "nhs" and r["precision"] == prec and r["status"] == "ok":
            by.setdefault(r.get("method", "?"), set()).add(r["rtol"])
    return ", ".join("%s at rtol %s" % (m, " ... ".join(
        "%.0e" % x for x in sorted({min(t), max(t)}, reverse=True))) for m, t in by.items()) or "?"


def main():
    """Runs every motion in double (nhs, SciPy) and in 50 digits (nhs mp50, mpmath),
    writes peer_compare.json, .md and the figure; exit 1 when an nhs run failed."""
    args = parse_args()
    global MP_TEND
    tols, tends, nhs_mp_tols, mpmath_tols = DOUBLE_TOLS, DOUBLE_TENDS, NHS_MP_TOLS, MPMATH_TOLS
    repeats, nhs_repeats = args.repeats, args.nhs_repeats
    motions = [m for m in MOTIONS if not args.motion or m["key"] in args.motion
               or m["study"] in args.motion]
    mp_motions = motions
    if args.quick:
        tols, tends, repeats, nhs_repeats = ["1e-7", "1e-11"], ["20"], 1, 3
        nhs_mp_tols, mpmath_tols, MP_TEND = ["1e-20"], ["1e-20"], "0.5"
        mp_motions = [m for m in motions if m["study"] == "skate"]
    nhs = os.path.abspath(args.nhs)
    figure_path = args.figure or os.path.join(args.out_dir, "..", "figures", "peer_compare.png")
    cmdline = "/usr/bin/python3 bench/peer_compare.py " + " ".join(sys.argv[1:])
    report = start_report(args, nhs, cmdline, nhs_repeats, repeats)
    runs = report["runs"]
    t_start = time.time()

    for motion in motions:
        fields = Fields(motion["study"])
        report["fields"][motion["study"]] = {
            "kane_and_lambdify_s": fields.build_kane_s, "solve_and_simplify_s": fields.build_simplify_s,
            "explicit_rhs": [str(e) for e in fields.explicit]}
        for t_end in tends:
            for tol in tols:
                r = run_nhs(nhs, motion, t_end, tol, "double", nhs_repeats)
                runs.append(r)
                log(r)
            for method in METHODS:
                for variant in VARIANTS:
                    for tol in tols:
                        r = run_scipy(fields, motion, method, variant, t_end, tol, repeats,
                                      args.max_single_s)
                        runs.append(r)
                        log(r)
        if motion in mp_motions:
            mp50_runs(report, fields, motion, nhs, nhs_mp_tols, mpmath_tols, args)
    report["total_s"] = time.time() - t_start
    first = lambda prec: next((r for r in runs if r["tool"] == "nhs" and r["precision"] == prec
                               and r["status"] == "ok"), {})
    report["nhs_field"] = first("double").get("variant", "?")
    report["nhs_stepper_double"] = steppers(runs, "double")
    report["nhs_stepper_mp50"] = steppers(runs, "mp50")

    os.makedirs(args.out_dir, exist_ok=True)
    md = markdown(report, cmdline)  # also stores each nhs run's match in the report
    with open(os.path.join(args.out_dir, "peer_compare.json"), "w") as f:
        json.dump(report, f, indent=1)
    with open(os.path.join(args.out_dir, "peer_compare.md"), "w") as f:
        f.write(md)
    made = figure(report, figure_path)
    print("peer_compare: %d runs in %.0f s; %s, %s%s" % (
        len(runs), report["total_s"], os.path.join(args.out_dir, "peer_compare.json"),
        os.path.join(args.out_dir, "peer_compare.md"), ", " + figure_path if made else ""),
        file=sys.stderr)
    bad = [r for r in runs if r["tool"] == "nhs" and r["status"] != "ok"]
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main())
