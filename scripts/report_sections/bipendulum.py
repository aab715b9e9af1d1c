"""The bipendulum's findings (`nhs findings`): six figures whose captions
state the parameters read from bipendulum_findings.json.
"""
import math
import os

from .common import plt, read_csv, read_json


FINDINGS_CMD = "nhs findings"
FINDINGS_META = "bipendulum_findings.json"


def _pos(v):
    return [x if x == x and x > 0 else float("nan") for x in v]


class FindingParameters:
    """The parameters one findings CSV was made with, as `nhs findings` wrote
    them into bipendulum_findings.json next to the CSVs (text values: "0.8",
    "(1.2, 0.3)", "1e-13"). A missing key reads "?" and is listed once in the
    report's problems, so that a caption never states a figure the data did
    not carry."""

    def __init__(self, rep, name, values):
        self.rep, self.name, self.values = rep, name, values

    def __getitem__(self, key):
        if key in self.values:
            return self.values[key]
        self.rep.problems.append(f"bipendulum findings: {self.name} carries no parameter '{key}'")
        return "?"

    def point(self, key):
        """A point "(x, y)" as floats, or None."""
        try:
            x, y = self.values[key].strip("()").split(",")
            return float(x), float(y)
        except (KeyError, ValueError):
            return None


def read_finding_parameters(rep, d):
    """{csv name: FindingParameters} from <d>/bipendulum_findings.json ({} when
    missing or malformed: the captions then show "?")."""
    path = os.path.join(d, FINDINGS_META)
    try:
        tables = read_json(path)["tables"]
        return {f: FindingParameters(rep, f, t.get("parameters", {})) for f, t in tables.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        rep.problems.append(f"bipendulum findings: {path} unreadable ({type(e).__name__}: {e})")
        return {}


def figure_symmetric_pendulum(rep, rel, h, c, p):
    """The symmetric bipendulum against the exact pendulum, with the margin."""
    fig, (a0, a1) = plt.subplots(1, 2, figsize=(10, 3.6))
    a0.plot(c["t_over_quarter_period"], c["theta_exact"], lw=1)
    a0.set_xlabel("t / (T/4)")
    a0.set_ylabel("theta (exact, Jacobi sn)")
    a1.semilogy(c["t_over_quarter_period"], _pos(c["error_double"]), lw=1,
                label=f"max error vs pendulum ({p['precision']})")
    a1.semilogy(c["t_over_quarter_period"], _pos(c["sigma_min_dC_dqdot"]), lw=1,
                label="sigma_min(dC/dqdot)")
    a1.axvline(1.0, color="k", lw=0.5, ls=":")
    a1.set_xlabel("t / (T/4)")
    a1.legend(fontsize=7)
    rep.figure(fig, "bipendulum-symmetric-pendulum.png",
               f"Symmetric bipendulum (m1 = m2 = {p['m']}, g = {p['g']}, l = {p['l']}, "
               f"amplitude {p['amplitude']} rad) against the exact pendulum "
               "theta(t) = 2 asin(k sn(omega t | k)), up to "
               f"{p['fraction']} T/4 (T/4 = {p['quarter_period']}): the error and the margin "
               "sigma_min(dC/dqdot), which vanishes at the turning point T/4 (v = 0, eq. 72c: "
               f"the motion meets the singular set). {p['formulation']}, {p['precision']}, "
               f"rtol = atol = {p['rtol']}. Data {rel}/bipendulum_symmetric_pendulum.csv.")


def figure_near_singular(rep, rel, h, c, p):
    """The error per precision as the motion nears the singular turning point."""
    x = c["one_minus_fraction"]
    fig, ax = plt.subplots(figsize=(6.5, 4))
    ax.loglog(x, _pos(c["error_double"]), "o-", lw=1,
              label=f"error, double (rtol {p['rtol.double']})")
    ax.loglog(x, _pos(c["error_mp50"]), "s-", lw=1,
              label=f"error, mp50 (rtol {p['rtol.mp50']})")
    ax.loglog(x, _pos(c["sigma_min_double"]), ":", lw=1, label="sigma_min(dC/dqdot)")
    ax.set_xlabel("1 - t / (T/4)")
    ax.invert_xaxis()
    ax.legend(fontsize=7)
    rep.figure(fig, "bipendulum-near-singular.png",
               "Accuracy of the symmetric motion (m1 = m2 = "
               f"{p['m']}, g = {p['g']}, l = {p['l']}, amplitude {p['amplitude']} rad) as it "
               "approaches the singular turning point: max error against the exact pendulum "
               f"at t = (1 - x) T/4, x = {p['one_minus_fraction']}, per precision "
               f"({p['precisions']}; {p['formulation']}). "
               f"Data {rel}/bipendulum_near_singular.csv.")


def figure_epsilon_circle(rep, rel, h, c, p):
    """The distances from the circle of eq. 89 against epsilon."""
    fig, ax = plt.subplots(figsize=(6.5, 4))
    t_end = p["t_end"]
    ax.loglog(c["epsilon"], c["distance_from_eq89"], "o-",
              label=f"|P1({t_end}) - P1_89({t_end})|")
    ax.loglog(c["epsilon"], c["radial_distance"], "s-", label="radial distance from the circle")
    ax.loglog(c["epsilon"], c["min_sigma_dC_dqdot"], "^-", label="min sigma_min(dC/dqdot)")
    ax.set_xlabel("epsilon (v2(0) = (0, epsilon))")
    ax.legend(fontsize=7)
    rep.figure(fig, "bipendulum-epsilon-circle.png",
               "The circle of 000 eq. 89 as the epsilon -> 0 limit of regular motions (m1 = "
               f"{p['m1']}, m2 = {p['m2']}, g = {p['g']}, x2 = 0, P2 = P0 = {p['P0']}, "
               f"v2 = (0, epsilon), P1 = {p['P1']}, w1 = {p['w1']}): distances at t = {t_end} "
               "and the margin to the singular set, all linear in epsilon. "
               f"{p['formulation']}, {p['precision']}, rtol = atol = {p['rtol']}. "
               f"Data {rel}/bipendulum_epsilon_circle.csv.")


def figure_epsilon_circle_paths(rep, rel, h, c, p):
    """P1's paths for each epsilon, and the circle of eq. 89."""
    fig, ax = plt.subplots(figsize=(5, 5))
    eps = sorted(set(c["epsilon"]), reverse=True)
    for e in eps:
        idx = [i for i, v in enumerate(c["epsilon"]) if v == e]
        ax.plot([c["x1"][i] for i in idx], [c["y1"][i] for i in idx], lw=1,
                label=f"P1, epsilon = {e:g}")
    p1, p0 = p.point("P1"), p.point("P0")
    if p1 and p0:
        th = [2 * math.pi * k / 200 for k in range(201)]
        r = math.hypot(p1[0] - p0[0], p1[1] - p0[1])
        ax.plot([p0[0] + r * math.cos(t) for t in th], [p0[1] + r * math.sin(t) for t in th],
                "k:", lw=0.8, label="circle of eq. 89")
    ax.set_aspect("equal")
    ax.legend(fontsize=7)
    rep.figure(fig, "bipendulum-epsilon-circle-paths.png",
               f"P1's path over t in [0, {p['t_end']}] from P1 = {p['P1']} for each epsilon, "
               f"and the circle of eq. 89 about P0 = {p['P0']}. {p['precision']}. "
               f"Data {rel}/bipendulum_epsilon_circle_paths.csv.")


def figure_linear_nonlinear(rep, rel, h, c, p):
    """The linear bipendulum against the bipendulum (Hertz's limit)."""
    fig, (a0, a1) = plt.subplots(1, 2, figsize=(10, 3.6))
    a0.plot(c["t"], c["distance_P1"], lw=1, label="|P1 linear - P1 bipendulum|")
    a0.plot(c["t"], c["distance_P2"], lw=1, label="|P2 linear - P2 bipendulum|")
    a0.set_xlabel("t")
    a0.legend(fontsize=7)
    a1.plot(c["t"], c["y0_bipendulum"], lw=1, label="y0, bipendulum (eq. 75)")
    a1.plot(c["t"], c["y0_linear_m0_1"], lw=1, label="y0, linear, m0 = 1")
    a1.plot(c["t"], c["y0_linear_m0_1e-8"], "--", lw=1, label="y0, linear, m0 = 1e-8")
    a1.set_xlabel("t")
    a1.legend(fontsize=7)
    rep.figure(fig, "bipendulum-linear-vs-nonlinear.png",
               "Finding: Hertz's limit m0 -> 0 does not give the bipendulum. From the common "
               f"state of docs/special-motions.md (a) (m1 = {p['setup.m1']}, m2 = "
               f"{p['setup.m2']}, g = {p['setup.g']}, P1 = {p['setup.P1']}, P2 = "
               f"{p['setup.P2']}, z = {p['setup.z']}; y0, y0d from the bipendulum at t = 0), "
               "the linear bipendulum's constraints do not contain y0d, so no reaction acts on "
               "P0: y0 moves uniformly and the motion is the same for every m0 > 0 (the "
               f"m0 = {p['m0']} curves coincide), while the bipendulum's P0 does not move "
               f"uniformly. {p['formulation']}, {p['precision']}, rtol = atol = {p['rtol']}, "
               f"to t = {p['t_end']}. Data {rel}/bipendulum_linear_nonlinear.csv.")


def figure_energy_separation(rep, rel, h, c, p):
    """The separate energies T_k + V_k along two motions."""
    fig, ax = plt.subplots(figsize=(7, 4))
    for k in h[1:]:
        ax.semilogy(c["t"], _pos(c[k]), lw=1, label=k)
    ax.set_xlabel("t")
    ax.set_ylabel("|E_k(t) - E_k(0)|")
    ax.legend(fontsize=6)

    def case(pre):
        return (f"m1 = {p[pre + 'm1']}, m2 = {p[pre + 'm2']}, g = {p[pre + 'g']}, "
                f"k = {p[pre + 'k']}, P1 = {p[pre + 'P1']}, P2 = {p[pre + 'P2']}, "
                f"z = {p[pre + 'z']}")

    rep.figure(fig, "bipendulum-energy-separation.png",
               "Energy separation (000 eqs. 85-86): T_k + V_k of each point is constant, not "
               f"only the sum, on the incline ({case('incline.')}: state (a), to t = "
               f"{p['incline.t_end']}) and under a harmonic pull k/2 |P_k|^2 "
               f"({case('harmonic.')}, to t = {p['harmonic.t_end']}); {p['formulation']} at "
               f"the default tolerances: the incline in {p['incline.precisions']} (rtol "
               f"{p['rtol.double']}), the harmonic pull in double ({p['rtol.double']}) and "
               f"mp50 ({p['rtol.mp50']}, to t = {p['harmonic.t_end_mp50']}). "
               f"Data {rel}/bipendulum_energy_separation.csv.")


# Study CSV files the lead adds under <verify-dir>/studies/ (glob patterns,
# what they show and the function that draws their figure, draw(rep, rel,
# h, c, p): h, c, p the CSV's header, columns and parameters, rel its
# folder relative to the report). The report plots every CSV found there
# and lists the expected ones that are missing.
# Written by `nhs findings` (apps/nhs/findings.cpp); plotted by
# section_bipendulum, in this order. The bipendulum's special motions come
# with every other study's from verify's trajectories.
EXPECTED_STUDY_CSV = [
    ("bipendulum_symmetric_pendulum.csv", "symmetric bipendulum against the simple pendulum",
     figure_symmetric_pendulum),
    ("bipendulum_near_singular.csv", "digits kept per precision near the singular turning point",
     figure_near_singular),
    ("bipendulum_epsilon_circle.csv", "the epsilon-limit of the circle of eq. 89",
     figure_epsilon_circle),
    ("bipendulum_epsilon_circle_paths.csv", "P1's paths for each epsilon",
     figure_epsilon_circle_paths),
    ("bipendulum_linear_nonlinear.csv", "linear vs non-linear bipendulum (Hertz's limit)",
     figure_linear_nonlinear),
    ("bipendulum_energy_separation.csv", "energy separation T_k + V_k, eqs. 85-86",
     figure_energy_separation),
]


def section_bipendulum(rep):
    """The findings' figures, in the order of EXPECTED_STUDY_CSV; a missing CSV
    is named with the command that makes it."""
    d = os.path.join(rep.verify_dir, "studies")
    rel = os.path.relpath(d, rep.reports)
    params = read_finding_parameters(rep, d)

    def load(name):
        path = os.path.join(d, name)
        if not os.path.exists(path):
            rep.md(f"`{rel}/{name}` missing (run `{FINDINGS_CMD} --out-dir {rep.verify_dir}`).")
            rep.md()
            return None, None, None
        return (*read_csv(path), params.get(name, FindingParameters(rep, name, {})))

    rep.md("Made by `" + FINDINGS_CMD + "` (apps/nhs/findings.cpp, "
           "studies/bipendulum_findings.cpp); the same library functions, from the same setups, "
           "are asserted in tests/test_bipendulum.cpp. Every figure in the captions below is "
           f"read from {rel}/{FINDINGS_META}, written with the data.")
    rep.md()
    for name, _, draw in EXPECTED_STUDY_CSV:
        h, c, p = load(name)
        if h:
            draw(rep, rel, h, c, p)
