#!/usr/bin/python3
"""Writes nhs-tour.ipynb, the tour of the Python module `nhs`, next to this
script: the cells below, stored without outputs (ctest's PythonNotebook runs
it: python/tests/run_notebooks.py). Edit the cells here, then regenerate:

    /usr/bin/python3 examples/notebooks/make_tour.py

The cell ids are fixed, so that the same cells give the same file.
"""
import pathlib

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

CELLS = []


def md(text):
    CELLS.append(new_markdown_cell(text.strip("\n")))


def code(text):
    CELLS.append(new_code_cell(text.strip("\n")))


# --------------------------------------------------------------------------
md(r"""
# A tour of `nhs` from Python

`nhs` computes the motion of mechanical systems under velocity constraints
$C^a(q, \dot q) = 0$ (rolling without slipping, knife edges), in every
classical formulation: the equations of the second kind with multipliers,
of the first kind, Maggi's, Gibbs–Appell's, Voronec's, Udwadia–Kalaba's and
the KKT system, in five precisions from double to 100 digits. The Python
module `nhs` is the library of the `nhs` command-line tool: the same
systems, formulations and numbers.

This notebook

1. takes the built-in rolling disc, compares its accelerations in every
   formulation, and integrates it in double and in 50 digits (`mp50`);
2. writes a system that is not built in, a knife edge on an inclined plane,
   from sympy expressions, compares its formulations, and checks the
   integration against the closed form.

It runs in under a minute (the last cell prints the time). To keep it so,
the `mp50` runs stop at $t = 5$, with an output every 0.1.
""")

code(r"""
%matplotlib inline
import re
import sys
import time

import matplotlib.pyplot as plt
import mpmath
import numpy as np
import sympy as sp
from sympy.physics.mechanics import dynamicsymbols

import nhs

t_start = time.perf_counter()
print("interpreter:", sys.executable)
print("studies:    ", ", ".join(nhs.studies()))
print("precisions: ", ", ".join(nhs.precisions()))


def f64(values):
    # A column or vector as float64 (above long double the values are mpmath.mpf).
    return np.array([float(v) for v in values])


def num(v, width=13):
    return f"{float(v) + 0.0:>{width}.8f}"  # + 0.0 prints -0.0 as 0.0


def max_abs_diff(a, b):
    # max_i |a_i - b_i|, in 60 digits, for vectors of any precision.
    with mpmath.workdps(60):
        return max(abs(mpmath.mpf(u) - mpmath.mpf(v)) for u, v in zip(a, b))


def accel_table(system, formulations, **state):
    # q'' and the multipliers of each formulation in double, and the largest
    # deviation of its q'' from the second kind's in mp50. Returns the
    # answers by formulation, and the mp50 one as "reference".
    ref = system.accel(formulation="second-kind", precision="mp50", **state)
    cols = [c + "''" for c in system.coordinates] + ["lambda_" + c for c in system.constraints]
    print(f"{'formulation':<22}" + "".join(f"{c:>13}" for c in cols) + f"{'dev (mp50)':>12}")
    out = {"reference": ref}
    for f in formulations:
        a = system.accel(formulation=f, **state)
        lam = a.multipliers if a.multipliers is not None else []
        cells = [num(v) for v in a.qddot] + [num(v) for v in lam]
        cells += [f"{'-':>13}"] * (system.r - len(lam))
        dev = max_abs_diff(a.qddot, ref.qddot)
        print(f"{f:<22}" + "".join(cells) + f"{float(dev):>12.1e}")
        out[f] = a
    return out
""")

# --------------------------------------------------------------------------
md(r"""
## 1. The rolling disc

A vertical disc of radius $R$ rolls without sliding on a plane (Benenti,
SIGMA 3 (2007) 036, §9.2; study `rolling-disc` of `docs/studies.md`). The
coordinates are $q = (x, y, \theta, \psi)$: $(x, y)$ is the centre, above the
contact point, $\theta$ the rotation about the disc's axis, $\psi$ the
heading; $n = 4$, $r = 2$ constraints, $m = n - r = 2$ quasi-velocities.

$$T = \frac m2 (\dot x^2 + \dot y^2) + \frac A2 \dot\theta^2 + \frac B2 \dot\psi^2,
\qquad V = -m g x, \qquad F_\theta = -k \dot\theta,$$

$$C^1 = \dot x - R \cos\psi\, \dot\theta, \qquad C^2 = \dot y - R \sin\psi\, \dot\theta .$$

The quasi-velocities are $z = (\dot\theta, \dot\psi)$, and on $C$
$\dot q = (R \cos\psi\, z_1,\ R \sin\psi\, z_1,\ z_1,\ z_2)$. Defaults:
$m = 1$, $R = 1$, $A = 1/2$, $B = 1/4$, $g = k = 0$; default state $q = 0$,
$z = (1, 1/2)$. $\dot\psi$ is conserved for every $g$ and $k$, $T + V$ when
$k = 0$; with $g = k = 0$ the contact point runs on a circle of radius
$R \dot\theta_0 / \dot\psi_0$ (`docs/special-motions.md`).
""")

code(r"""
disc = nhs.study("rolling-disc")
print(disc, "-", disc.title)
print("q:", disc.coordinates, "  z:", disc.quasi_velocities, "  C:", disc.constraints)
print("parameters:", disc.parameters)
print("formulations:", disc.formulations())
""")

md(r"""
### Accelerations in every formulation

`accel` returns $\ddot q$ at a state, and, where the formulation has them,
the multipliers $\lambda_a$ and the reactions
$R_i = \lambda_a\, \partial C^a / \partial \dot q^i$. The formulations reach
$\ddot q$ by different routes. `second-kind`, `udwadia-kalaba` (Gauss's
principle in closed form) and `lagrange-multipliers` (the KKT system for
$\ddot q$ and $\lambda$ together) work on $TQ$ and give $\lambda$.
`first-kind`, `maggi`, `gibbs-appell` (from the Appellian of the bodies)
and `voronec` (the constraints solved for $\dot x, \dot y$) work in $(q, z)$
and have no multipliers. `naive-reduced` is a negative control: it
substitutes the constraints into the Lagrangian and then applies Lagrange's
equations to $(\theta, \psi)$ as if they were free.

Each row below is computed in double; the last column, `dev (mp50)`, is the
largest deviation of its $\ddot q$ from the second kind's in `mp50`. At the
default state:
""")

code(r"""
formulations = disc.formulations()
at_default = accel_table(disc, formulations)
assert max(max_abs_diff(a.qddot, at_default["reference"].qddot)
           for f, a in at_default.items() if f != "reference") <= 1e-15
""")

md(r"""
Every formulation gives $\ddot q = (0, 1/2, 0, 0)$, with deviations of at
most $10^{-15}$ (here none at all). The centre moves at unit speed on a
circle of radius 2, and $\ddot y = 1/2$ is its centripetal acceleration;
$\lambda_2 = 1/2$ is the force that holds it there.

The default state is special (most entries vanish). At a state without
round numbers, with the incline and the torque switched on
($g = 0.6$, $k = 0.3$; `params` overrides parameters by name):
""")

code(r"""
state = dict(q=[0.3, -0.2, 0.7, 1.1], z=[0.9, -0.4], params={"g": 0.6, "k": 0.3})
generic = accel_table(disc, formulations, **state)
print("\nmp50, second kind, q'' as the CLI prints it:")
for c, s in zip(disc.coordinates, generic["reference"].strings["qddot"]):
    print(f"  {c:>6}'' = {s}")
assert max(max_abs_diff(a.qddot, generic["reference"].qddot)
           for f, a in generic.items() if f != "reference") <= 1e-15
""")

md(r"""
All eight agree with the 50-digit answer to within $10^{-15}$, a few units
of double's rounding, and `naive-reduced` with them: for the vertical disc
the terms of Voronec's equations that it drops vanish on $C$ ($T$ does not
depend on $x, y$, and what remains is proportional to
$\dot x \sin\psi - \dot y \cos\psi = 0$). On the knife edge below it fails.

The three formulations on $TQ$ give the same multipliers, and their
reactions close Lagrange's equations with multipliers,
$g_{ij} \ddot q^j + \Gamma_{hk,i} \dot q^h \dot q^k = Q_i + R_i$. Here the
metric $g = \mathrm{diag}(m, m, A, B)$ is constant, so $\Gamma = 0$, and the
active force is $Q = (m g, 0, -k \dot\theta, 0)$:
""")

code(r"""
for f in ("second-kind", "udwadia-kalaba", "lagrange-multipliers"):
    a = generic[f]
    p = a.parameters  # every parameter, overrides included
    metric = np.diag([p["m"], p["m"], p["A"], p["B"]])
    active = np.array([p["m"] * p["g"], 0.0, -p["k"] * a.qdot[2], 0.0])
    residual = metric @ a.qddot - active - a.reaction
    print(f"{f:<22} lambda =" + "".join(num(v, 12) for v in a.multipliers)
          + "   R =" + "".join(num(v, 12) for v in a.reaction)
          + f"   max|g q'' - Q - R| = {np.max(np.abs(residual)):.1e}")
    assert np.max(np.abs(residual)) <= 1e-15
""")

# --------------------------------------------------------------------------
md(r"""
### Integration in double and in 50 digits

`run` integrates from the default state with the tool's defaults: the
study's generated second-kind field, the precision's tolerances, and the
`auto` stepper (Verner's 8(7) pair in double, Bulirsch–Stoer in `mp50`).
The double run goes to $t = 20$ with an output every 0.05; the `mp50` run,
to keep the notebook fast, to $t = 5$ with an output every 0.1. Each `run`
returns the columns of `nhs run`'s CSV and a summary. On the logarithmic
scales below, exact zeros are drawn at $10^{-60}$.
""")

code(r"""
disc_runs = {
    "double": disc.run(t_end=20, dt_out=0.05),
    "mp50": disc.run(t_end=5, dt_out=0.1, precision="mp50"),
}
print("columns:", disc_runs["double"].columns)
for prec, run in disc_runs.items():
    summ = run.summary
    print(f"{prec:>6}: {summ['formulation']}, {summ['stepper']}, {summ['steps']} steps, "
          f"{summ['rhs_calls']} RHS calls, max|C| = {float(summ['max_C']):.1e}, "
          f"max|E - E0| = {float(summ['energy_drift']):.1e}, {summ['wall_seconds']:.3f} s")
""")

code(r"""
FLOOR = 1e-60  # exact zeros are drawn here on the log scales

fig, ax = plt.subplots(1, 3, figsize=(15, 4.4))
phi = np.linspace(0, 2 * np.pi, 400)
ax[0].plot(2 * np.sin(phi), 2 - 2 * np.cos(phi), color="0.8", lw=6, label="circle, radius 2")
for (prec, run), style in zip(disc_runs.items(), ("-", "o")):
    tv = f64(run.t)
    ax[0].plot(f64(run["x"]), f64(run["y"]), style, ms=4, label=f"{prec}, t <= {tv[-1]:g}")
    with mpmath.workdps(60):
        drift = [abs(e - run.summary["E0"]) for e in run["energy"]]
        res_C = [max(abs(c1), abs(c2)) for c1, c2 in zip(run["C1"], run["C2"])]
    ax[1].semilogy(tv, np.maximum(f64(drift), FLOOR), style, ms=4, label=prec)
    ax[2].semilogy(tv, np.maximum(f64(res_C), FLOOR), style, ms=4, label=prec)
ax[0].set(xlabel="x", ylabel="y", title="contact point (x, y)", aspect="equal")
ax[1].set(xlabel="t", title="energy drift |E(t) - E(0)|")
ax[2].set(xlabel="t", title="constraint residual max_a |C^a|")
for a in ax[1:]:
    a.set(ylim=(FLOOR / 10, 1e-5), yticks=10.0 ** np.arange(-60, -5, 10))
for a in ax:
    a.legend(loc="best", fontsize=9)
plt.tight_layout()
plt.show()
""")

code(r"""
def circle_error(run):
    # max over the samples of | |(x, y) - (0, 2)| - 2 |, in 60 digits
    with mpmath.workdps(60):
        return max(abs(mpmath.sqrt(mpmath.mpf(x) ** 2 + (mpmath.mpf(y) - 2) ** 2) - 2)
                   for x, y in zip(run["x"], run["y"]))

for prec, run in disc_runs.items():
    summ = run.summary
    print(f"{prec:>6}: distance to the circle <= {float(circle_error(run)):.1e}, "
          f"max|C| = {float(summ['max_C']):.1e}, max|E - E0| = {float(summ['energy_drift']):.1e}, "
          f"psi_dot drift = {float(summ['invariants']['psi_dot']['drift']):.1e}")

# the double run against the mp50 run at their common times 0, 0.1, ..., 5
d, h = disc_runs["double"], disc_runs["mp50"]
rows = np.arange(0, len(h) * 2, 2)
assert np.allclose(f64(d.t[rows]), f64(h.t), rtol=0, atol=1e-12)
diff = max(max_abs_diff(d[c][rows], h[c]) for c in disc.coordinates)
print(f"double - mp50 over t <= 5: max |q| difference = {float(diff):.1e}")

for prec, bound in (("double", 1e-11), ("mp50", 1e-47)):
    summ = disc_runs[prec].summary
    assert max(summ["max_C"], summ["energy_drift"], circle_error(disc_runs[prec])) < bound
    assert summ["invariants"]["psi_dot"]["drift"] == 0
assert diff < 1e-11
""")

md(r"""
Both runs stay on the circle, on $C$ and on the energy level: to within
$10^{-11}$ in double over $t \le 20$, and within $10^{-47}$ in `mp50` over
$t \le 5$; $\dot\psi$ does not drift at all. Over $t \le 5$ the double
run differs from the `mp50` run by less than $10^{-11}$: the `mp50` run is
the reference solution against which the double one is measured.
""")

# --------------------------------------------------------------------------
md(r"""
## 2. A system of your own, from sympy: a knife edge on an inclined plane

A knife edge (a skate) on a plane inclined so that gravity pulls along $-y$
with strength $g$ ($g = g_0 \sin\alpha$). $q = (x, y, \theta)$: the contact
point, which is also the centre of mass, and the heading of the blade; $J$
is the moment of inertia about the contact point (Neimark and Fufaev,
*Dynamics of Nonholonomic Systems*, 1972; Bloch, *Nonholonomic Mechanics
and Control*, 2003, ch. 1).

$$T = \frac m2 (\dot x^2 + \dot y^2) + \frac J2 \dot\theta^2, \qquad V = m g y,
\qquad C = \dot x \sin\theta - \dot y \cos\theta \quad\text{(no sideways slip).}$$

With the speed along the blade $s = \dot x \cos\theta + \dot y \sin\theta$
and $\omega = \dot\theta$ as quasi-velocities,
$\dot q = (s \cos\theta, s \sin\theta, \omega)$, and the equations of motion
are $\dot\omega = 0$, $\dot s = -g \sin\theta$. For $\omega \ne 0$ they
have the first integrals $E = T + V$, $\omega$,
$K = s\omega - g\cos\theta$,

$$X = x - \frac{K \sin\theta}{\omega^2} - \frac{g \sin 2\theta}{4\omega^2} - \frac{g\theta}{2\omega^2},
\qquad Y = y + \frac{K \cos\theta}{\omega^2} - \frac{g \sin^2\theta}{2\omega^2},$$

and, from $\theta_0 = 0$, the closed form $\theta = \omega t$,

$$x = x_0 + \Big(s_0 - \frac g\omega\Big)\frac{\sin\omega t}{\omega}
      + \frac g\omega\Big(\frac t2 + \frac{\sin 2\omega t}{4\omega}\Big),
\qquad
y = y_0 + \Big(s_0 - \frac g\omega\Big)\frac{1 - \cos\omega t}{\omega}
      + \frac{g \sin^2\omega t}{2\omega^2}.$$

$y$ stays bounded: the skate does not slide down the slope, it drifts
across it with mean velocity $g/(2\omega)$. We take the motion of
`examples/knife-edge-incline.toml`: $m = 2$, $J = 0.3$, $g = 1.5$,
$q_0 = (0.1, -0.2, 0)$, $s_0 = 1$, $\omega = 0.8$, but write the system
from sympy. `System.from_sympy` takes the expressions (coordinates as
`dynamicsymbols`, velocities as `q.diff(t)`), writes them as a system
file's text and loads it from memory: `knife.toml` is its text.
""")

code(r"""
t = sp.Symbol("t")
x, y, th = dynamicsymbols("x y theta")
xd, yd, thd = x.diff(t), y.diff(t), th.diff(t)
m, J, g = sp.symbols("m J g", positive=True)
s, w = sp.symbols("s omega")

speed = xd * sp.cos(th) + yd * sp.sin(th)  # s in terms of (q, qdot)
K = speed * thd - g * sp.cos(th)
x0, y0, s0, w0 = sp.Rational(1, 10), sp.Rational(-1, 5), sp.Integer(1), sp.Rational(4, 5)
exact_q = [x0 + (s0 - g / w0) * sp.sin(w0 * t) / w0 + (g / w0) * (t / 2 + sp.sin(2 * w0 * t) / (4 * w0)),
           y0 + (s0 - g / w0) * (1 - sp.cos(w0 * t)) / w0 + g * sp.sin(w0 * t) ** 2 / (2 * w0 ** 2),
           w0 * t]

knife_args = dict(
    coordinates=[x, y, th],
    kinetic_energy=m / 2 * (xd ** 2 + yd ** 2) + J / 2 * thd ** 2,
    potential=m * g * y,
    constraints={"blade": xd * sp.sin(th) - yd * sp.cos(th)},
    parameters={m: "2", J: "0.3", g: "1.5"},
    quasi_velocities=[s, w],
    parametrization={x: s * sp.cos(th), y: s * sp.sin(th), th: w},
    chart={s: speed, w: thd},
    dependent_velocities=[y],  # Voronec's split: ydot = tan(theta) xdot
    initial={"q": [x0, y0, 0], "z": [s0, w0]},
    bodies=[{"mass": m, "position": [x, y], "angular_velocity": thd, "inertia": J}],
    invariants={"omega": thd, "K": K,
                "X": x - K * sp.sin(th) / thd ** 2 - g * sp.sin(2 * th) / (4 * thd ** 2) - g * th / (2 * thd ** 2),
                "Y": y + K * sp.cos(th) / thd ** 2 - g * sp.sin(th) ** 2 / (2 * thd ** 2)},
    exact=[{"name": "turning on the incline", "t_end": 20, "q": exact_q}],
    name="knife-edge-incline-sympy", title="knife edge on an inclined plane, from sympy")
knife = nhs.System.from_sympy(**knife_args)
print(knife.toml)
print(knife, "formulations:", knife.formulations())
""")

md(r"""
sympy itself confirms the closed form: it satisfies the constraint and
$\dot s = -g \sin\theta$ (both printed residuals simplify to 0).
""")

code(r"""
on_motion = {xd: exact_q[0].diff(t), yd: exact_q[1].diff(t), thd: exact_q[2].diff(t),
             x: exact_q[0], y: exact_q[1], th: exact_q[2]}
C_res = sp.simplify((xd * sp.sin(th) - yd * sp.cos(th)).subs(on_motion))
s_res = sp.simplify(speed.subs(on_motion).diff(t) + g * sp.sin(exact_q[2]))
print("C on the closed form:            ", C_res)
print("ds/dt + g sin(theta) on it:      ", s_res)
assert C_res == 0 and s_res == 0
""")

md(r"""
### Every formulation at one state

At $q = (0.3, -0.1, 0.7)$, $z = (s, \omega) = (0.9, -0.6)$, as for the disc:
""")

code(r"""
knife_state = dict(q=[0.3, -0.1, 0.7], z=[0.9, -0.6])
at_knife = accel_table(knife, knife.formulations(), **knife_state)
valid = [f for f in knife.formulations() if f != "naive-reduced"]
assert max(max_abs_diff(at_knife[f].qddot, at_knife["reference"].qddot) for f in valid) <= 1e-15
assert abs(at_knife["naive-reduced"].qddot[2]) > 1
""")

md(r"""
The seven valid formulations agree with the 50-digit answer to within
$10^{-15}$ and give $\ddot\theta = 0$. The negative control does not: it
drops the terms of Voronec's equations, which do not vanish here ($\dot y
\ne 0$, and the coefficient $\tan\theta$ of the split
$\dot y = \tan\theta\, \dot x$ depends on $\theta$), and finds
$\ddot\theta \ne 0$, which no true motion has.
""")

md(r"""
### Integration against the closed form

The closed form is evaluated from the same sympy expressions, by
`lambdify`: with NumPy for the double runs, and with mpmath at 60 digits for
the `mp50` runs. Double runs go to $t = 20$; `mp50` runs to $t = 5$. A
system file is integrated on its traced field (second kind, first kind,
Gibbs–Appell: "(traced)" in the summary), the other formulations on the
library's. Voronec and the negative control cannot reach $t = 20$; their
runs raise `nhs.InvalidState`, whose `.run` keeps the rows computed before.
""")

code(r"""
exact_at = {m: sp.Rational(2), J: sp.Rational(3, 10), g: sp.Rational(3, 2)}
exact_np = sp.lambdify(t, [e.subs(exact_at) for e in exact_q], "numpy")
exact_mp = sp.lambdify(t, [e.subs(exact_at) for e in exact_q], "mpmath")


def error_vs_exact(run):
    # max over (x, y, theta) of |q(t) - q_exact(t)| at each output time
    if run.summary["precision"] == "double":
        q = np.column_stack([run[c] for c in knife.coordinates])
        ex = np.column_stack([np.broadcast_to(v, run.t.shape) for v in exact_np(run.t)])
        return np.max(np.abs(q - ex), axis=1)
    with mpmath.workdps(60):
        return f64([max(abs(run[c][k] - e) for c, e in zip(knife.coordinates, exact_mp(tk)))
                    for k, tk in enumerate(run.t)])


knife_runs = {}
for f in ("second-kind", "first-kind", "gibbs-appell", "udwadia-kalaba"):
    knife_runs[f, "double"] = knife.run(t_end=20, dt_out=0.1, formulation=f)
for f in ("second-kind", "first-kind"):
    knife_runs[f, "mp50"] = knife.run(t_end=5, dt_out=0.1, formulation=f, precision="mp50")
for f in ("voronec", "naive-reduced"):
    try:
        knife_runs[f, "double"] = knife.run(t_end=20, dt_out=0.1, formulation=f)
    except nhs.InvalidState as e:
        knife_runs[f, "double"] = e.run
        where = re.search(r"reached at t = ([-+.0-9eE]+)", str(e))  # the time is in the message only
        print(f"{f}: stopped at t = {float(where[1]) if where else float('nan'):.4f} ({e.condition}); "
              f"last output t = {float(e.run.t[-1]):.1f}, theta = {e.run['theta'][-1]:.3f}")
    else:
        raise AssertionError(f"{f} was expected to stop before t = 20")

print()
print(f"{'formulation':<38}{'precision':>10}{'t_last':>7}{'steps':>7}{'max |q - exact|':>17}{'max|C|':>10}{'max|E-E0|':>11}")
knife_errors = {}
for (f, prec), run in knife_runs.items():
    err = error_vs_exact(run)
    knife_errors[f, prec] = err
    summ = run.summary
    print(f"{summ['formulation']:<38}{prec:>10}{float(run.t[-1]):>7.1f}{summ['steps']:>7}{err.max():>17.1e}"
          f"{float(summ['max_C']):>10.1e}{float(summ['energy_drift']):>11.1e}")
""")

code(r"""
fig = plt.figure(figsize=(14, 8.5))
grid = fig.add_gridspec(2, 2, height_ratios=[1, 1.4])
ax_path, ax_err, ax_zoom = fig.add_subplot(grid[0, :]), fig.add_subplot(grid[1, 0]), fig.add_subplot(grid[1, 1])

for ax, t_max in ((ax_path, 20), (ax_zoom, 2)):
    ex = exact_np(np.linspace(0, t_max, 100 * t_max + 1))
    ax.plot(ex[0], ex[1], color="0.8", lw=6, label=f"closed form, t <= {t_max}")
run = knife_runs["second-kind", "double"]
ax_path.plot(f64(run["x"]), f64(run["y"]), label="second-kind, double")
for f in ("voronec", "naive-reduced"):
    run = knife_runs[f, "double"]
    ax_zoom.plot(f64(run["x"]), f64(run["y"]), ".-", label=f"{f}, double (stopped)")
for (f, prec), err in knife_errors.items():
    style = dict(ls="--" if prec == "mp50" else "-", marker="." if f in ("voronec", "naive-reduced") else None)
    ax_err.semilogy(f64(knife_runs[f, prec].t), np.maximum(err, FLOOR), label=f"{f}, {prec}", **style)

ax_path.set(xlabel="x (across the slope)", ylabel="y (gravity along -y)", aspect="equal",
            title="contact point: the skate does not slide down, it drifts across the slope")
ax_zoom.set(xlabel="x", ylabel="y", aspect="equal", title="t <= 2: the runs that stop")
ax_err.set(xlabel="t", title="error max |q(t) - q_exact(t)| (x, y, theta)", ylim=(1e-52, 10))
ax_err.legend(fontsize=8, ncol=2, loc="center right")
ax_path.legend(fontsize=9, loc="lower right")
ax_zoom.legend(fontsize=9, loc="lower left")
plt.tight_layout()
plt.show()
""")

code(r"""
print(f"{'invariant drift':<36}" + "".join(f"{name:>10}" for name in ("E", "omega", "K", "X", "Y")))
for (f, prec), run in knife_runs.items():
    summ = run.summary
    drifts = [summ["energy_drift"]] + [summ["invariants"][n]["drift"] for n in ("omega", "K", "X", "Y")]
    print(f"{f + ', ' + prec + ', t <= ' + format(float(run.t[-1]), 'g'):<36}"
          + "".join(f"{float(d):>10.1e}" for d in drifts))

naive = knife_errors["naive-reduced", "double"]
print(f"\nnaive-reduced: error {naive[1]:.1e} at t = 0.1, {naive.max():.1e} at t = {float(knife_runs['naive-reduced', 'double'].t[-1]):.1f}")

for (f, prec), run in knife_runs.items():
    bound = 1e-11 if prec == "double" else 1e-45
    summ = run.summary
    drifts = [summ["energy_drift"]] + [summ["invariants"][n]["drift"] for n in ("omega", "K", "X", "Y")]
    if f != "naive-reduced":
        assert knife_errors[f, prec].max() < bound and max(drifts) < bound, (f, prec)
        assert summ["invariants"]["omega"]["drift"] == 0, (f, prec)
assert naive[1] > 1e-4 and naive.max() > 0.1
naive_summary = knife_runs["naive-reduced", "double"].summary
assert naive_summary["energy_drift"] < 1e-11
assert min(naive_summary["invariants"][n]["drift"] for n in ("omega", "K", "X", "Y")) > 0.1
""")

md(r"""
The valid formulations follow the closed form to within $10^{-11}$ in
double over $t \le 20$, and within $10^{-45}$ in `mp50` over $t \le 5$;
the energy and the four invariants drift by less than the same bounds
($\omega$ not at all). Voronec is as accurate as the others until its split
$\dot y = \tan\theta\, \dot x$ becomes singular at $\cos\theta = 0$,
$t = \pi/(2\omega) \approx 1.963$, where the run stops with
`nhs.InvalidState` ("singular reduced metric Gbar"). The negative control
leaves the closed form at once (an error above $10^{-4}$ at the first
output, $t = 0.1$) and, turning with $\ddot\theta \ne 0$, reaches
$\theta = \pi/2$ sooner, at $t \approx 1.12$. It keeps the energy as well
as the valid formulations do, but not $\omega$, $K$, $X$, $Y$: conservation
of energy alone does not certify a set of equations of motion.
""")

# --------------------------------------------------------------------------
md(r"""
### `check`: the whole verification at once

`System.check` is `nhs check`: every formulation against the others at
random states, the `[[exact]]` motion we passed to `from_sympy`, energy,
$|C|$ and the invariants. Here in double only, `quick` (the motions to
$t = 2$):
""")

code(r"""
report = knife.check(precision="double", quick=True)
print(f"{'formulation':<22}" + "q'' dev".rjust(10) + f"{'error vs exact':>16}{'energy drift':>14}  result")
for row in report["rows"]:
    print(f"{row['formulation']:<22}{row['qddot_disagreement']:>10}{row['error_vs_exact']:>16}"
          f"{row['energy_drift']:>14}  {row['result']}")
print("\nmotions integrated to t =", sorted({r["t_end"] for r in report["runs"]}))
print("pass:", report["pass"])
for failure in report["failures"]:
    print("failure:", failure[:failure.index(": singular state")], "...", failure[failure.rindex("(reached"):])
assert report["failures"] and all("/ voronec /" in f for f in report["failures"])
""")

md(r"""
Every other formulation passes; the negative control disagrees, as it
should, and is not counted. The only failures are Voronec's: its split is
singular at $\theta = \pi/2$, which both motions (the default state and
the `[[exact]]` motion, here the same) reach before $t = 2$. A system file
declares this with `excluded = { voronec = "..." }` in `[initial]` and
`[[exact]]`; `from_sympy` takes the same key, `"excluded": {formulation:
reason}`, in `initial` and in each `exact` motion. (Leaving out
`dependent_velocities` removes Voronec, and the negative control, instead.)
With the two entries, the knife passes:
""")

code(r"""
split = {"voronec": "the split y_dot = tan(theta) x_dot is singular at cos(theta) = 0"}
knife_excluded = nhs.System.from_sympy(**{
    **knife_args, "name": "knife-edge-incline-sympy-excluded",
    "initial": {**knife_args["initial"], "excluded": split},
    "exact": [{**motion, "excluded": split} for motion in knife_args["exact"]]})
excluded_report = knife_excluded.check(precision="double", quick=True)
print(knife_excluded, "pass:", excluded_report["pass"])
for note in excluded_report["notes"]:
    print("note:", note)
assert excluded_report["pass"] and not excluded_report["failures"]
""")

md(r"""
`examples/knife-edge-incline.toml` is the same system written as a file
with those two entries; it passes too (`nhs.load` reads a system file):
""")

code(r"""
knife_file = nhs.load("../knife-edge-incline.toml")
file_report = knife_file.check(precision="double", quick=True)
print(knife_file, "pass:", file_report["pass"])
for note in file_report["notes"]:
    print("note:", note)
assert file_report["pass"]
""")

md(r"""
## Where to go next

- `docs/python.md`: the module's whole interface (`accel`, `run`, `check`,
  the precisions and the exceptions).
- `docs/system-files.md`: the system file that `from_sympy` writes
  (`[parametrization]`, `[chart]`, `[[bodies]]`, `[invariants]`,
  `[singular]`, `[[exact]]`, non-ideal constraints) and what the loader
  checks.
- `docs/studies.md` and `docs/special-motions.md`: the built-in studies and
  their closed-form motions.
- `nhs check FILE` from the shell (or `System.check`): every formulation,
  precision and closed form of a system in one run, with a report.
- `examples/*.toml`: more systems to start from, each with its derivation
  in the comments (the Chaplygin sleigh, the Appell–Hamel particle with a
  constraint not linear in the velocities, the contact oscillator, a knife
  edge with a non-ideal drag, ...).
""")

code(r"""
print(f"notebook run time: {time.perf_counter() - t_start:.1f} s")
""")


def main():
    nb = new_notebook(cells=CELLS, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"},
    })
    for k, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{k:02d}"
    nbformat.validate(nb)
    path = pathlib.Path(__file__).resolve().with_name("nhs-tour.ipynb")
    nbformat.write(nb, str(path))
    print(f"{path}: {len(nb.cells)} cells")


if __name__ == "__main__":
    main()
