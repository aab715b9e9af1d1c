#!/usr/bin/env python3
"""Writes examples/bicycle/whipple-bicycle-generated.toml: the Carvallo-Whipple bicycle of
Meijaard, Papadopoulos, Ruina and Schwab, "Linearized dynamics equations for
the balance and steer of a bicycle: a benchmark and review", Proc. R. Soc. A
463 (2007) 1955-1982 (below "Meijaard"), as an nhs system file.

Run from the project root:  python3 examples/bicycle/whipple_bicycle.py
(sympy only; the output is committed, so nhs does not need sympy).

The model is Meijaard's section 2 exactly: a rear wheel R, a rear frame B
(with the rider), a front frame H (fork and handlebar) and a front wheel F;
knife-edge wheels rolling without slip on flat level ground; no friction,
no propulsion. Axes as in Meijaard's figure 1: x forward, y to the right,
z down; the reference configuration is upright, straight ahead, both wheels
on the ground at x = 0 (rear contact) and x = w (front contact).

Coordinates (Meijaard section 3): the rear contact (x, y), yaw psi, roll
phi, the rear frame's pitch thetaB, steer delta, and the wheels' rotations
thetaR, thetaF relative to their frames. The rear frame's orientation is
R_B = Rz(psi) Rx(phi) Ry(thetaB); the front frame turns from it by delta
about the steer axis, which points down and forward at the angle lambda
from the vertical and meets the ground the trail c ahead of the front
contact.

Constraints:
  * holonomic: the front wheel's lowest point is on the ground. For a disc
    of centre C_F, unit axis n and radius rF, the lowest point is
    C_F + rF d with d the unit downward direction in the wheel's plane, and
    its height is -(C_F.z + rF sqrt(1 - n_z^2)) (z down). thetaB is the
    dependent coordinate.
  * non-holonomic: the material point of each wheel at its contact has no
    horizontal velocity (four constraints). The rear one is
    (x_dot, y_dot) = -rR (thetaB_dot + thetaR_dot) (cos psi, sin psi).

Quasi-velocities z = (phi_dot, delta_dot, thetaR_dot), Meijaard's
independent speeds; the forward speed is v = -rR thetaR_dot. psi(q, z)
solves the front contact's three velocity equations for (psi_dot,
thetaB_dot, thetaF_dot) by Cramer's rule.
"""
import pathlib
import sympy as sp

# --- symbols -----------------------------------------------------------------
names = ["x", "y", "psi", "phi", "thetaB", "delta", "thetaR", "thetaF"]
q = sp.symbols(names)
qd = sp.symbols([n + "_dot" for n in names])
x, y, psi, phi, thetaB, delta, thetaR, thetaF = q
xd, yd, psid, phid, thetaBd, deltad, thetaRd, thetaFd = qd
zn = ["phid", "deltad", "thetaRd"]
z = sp.symbols(zn)

# Meijaard Table 1 (lambda = pi/10 as a decimal of 100 digits: correctly
# rounded in every precision nhs offers).
params = [
    ("w", "1.02", "wheel base"),
    ("c", "0.08", "trail"),
    ("lambda", sp.N(sp.pi / 10, 100), "steer axis tilt (from the vertical), pi/10"),
    ("g", "9.81", "gravity"),
    ("rR", "0.3", "rear wheel radius"),
    ("mR", "2", "rear wheel mass"),
    ("IRxx", "0.0603", "rear wheel moment of inertia about a diameter"),
    ("IRyy", "0.12", "rear wheel moment of inertia about its axle"),
    ("xB", "0.3", "rear frame centre of mass, x"),
    ("zB", "-0.9", "rear frame centre of mass, z (down)"),
    ("mB", "85", "rear frame mass (with the rider)"),
    ("IBxx", "9.2", "rear frame inertia tensor, xx"),
    ("IByy", "11", "rear frame inertia tensor, yy"),
    ("IBzz", "2.8", "rear frame inertia tensor, zz"),
    ("IBxz", "2.4", "rear frame inertia tensor, xz"),
    ("xH", "0.9", "front frame centre of mass, x"),
    ("zH", "-0.7", "front frame centre of mass, z (down)"),
    ("mH", "4", "front frame mass"),
    ("IHxx", "0.05892", "front frame inertia tensor, xx"),
    ("IHyy", "0.06", "front frame inertia tensor, yy"),
    ("IHzz", "0.00708", "front frame inertia tensor, zz"),
    ("IHxz", "-0.00756", "front frame inertia tensor, xz"),
    ("rF", "0.35", "front wheel radius"),
    ("mF", "3", "front wheel mass"),
    ("IFxx", "0.1405", "front wheel moment of inertia about a diameter"),
    ("IFyy", "0.28", "front wheel moment of inertia about its axle"),
]
P = {name: sp.Symbol(name) for name, _, _ in params}
w, c, lam, g = P["w"], P["c"], P["lambda"], P["g"]
rR, rF = P["rR"], P["rF"]


def rot_x(a):
    return sp.Matrix([[1, 0, 0], [0, sp.cos(a), -sp.sin(a)], [0, sp.sin(a), sp.cos(a)]])


def rot_y(a):
    return sp.Matrix([[sp.cos(a), 0, sp.sin(a)], [0, 1, 0], [-sp.sin(a), 0, sp.cos(a)]])


def rot_z(a):
    return sp.Matrix([[sp.cos(a), -sp.sin(a), 0], [sp.sin(a), sp.cos(a), 0], [0, 0, 1]])


ex, ey, ez = sp.Matrix([1, 0, 0]), sp.Matrix([0, 1, 0]), sp.Matrix([0, 0, 1])

# --- every vector in the lean frame L = Rz(psi) Rx(phi) ---------------------------
# (the frame of the rear wheel's plane: e1 forward and horizontal, e2 the
# rear axle, e3 down in the wheel's plane). Dot, cross and triple products
# do not depend on the frame, and in L yaw drops out and roll appears only
# in the vertical: much shorter expressions than in the space frame.
E1, E2, E3 = ex, ey, ez                       # e1, e2, e3 in L
vert = rot_x(phi).T * ez                      # the space frame's e_z (down) in L
fwd_h = rot_x(phi).T * ex                     # the space frame's heading (cos psi, sin psi, 0) = e1
lat_h = rot_x(phi).T * ey                     # (-sin psi, cos psi, 0) in L
R_B = rot_y(thetaB)                           # rear frame in L
# Steering: rotation by delta about the steer axis s = (sin lambda, 0,
# cos lambda) (rear frame coordinates, pointing down), Ry(lambda) Rz(delta) Ry(-lambda).
R_steer = rot_y(lam) * rot_z(delta) * rot_y(-lam)
R_H = R_B * R_steer                           # front frame in L
s_w = R_B * sp.Matrix([sp.sin(lam), 0, sp.cos(lam)])

# Points relative to the rear contact P, in L (reference configuration:
# P at the origin, the rear wheel's centre at (0, 0, -rR)).
C_R = -rR * E3
a_steer = sp.Matrix([w + c, 0, rR])           # the steer axis meets the ground at x = w + c


def rear_point(px, pz):
    return C_R + R_B * sp.Matrix([px, 0, pz + rR])


def front_point(px, pz):
    p = sp.Matrix([px, 0, pz + rR])
    return C_R + R_B * (a_steer + R_steer * (p - a_steer))


G_B = rear_point(P["xB"], P["zB"])
G_H = front_point(P["xH"], P["zH"])
C_F = front_point(w, -rF)                     # front wheel centre
A_w = C_R + R_B * a_steer                     # a point of the steer axis
n_F = R_H * ey                                # front wheel axle
n_z = n_F.dot(vert)
hor = sp.sqrt(1 - n_z ** 2)                   # |horizontal part of n_F|
d_F = (vert - n_z * n_F) / hor                # down in the front wheel's plane
r4 = rF * d_F                                 # front wheel centre to its contact
# The holonomic constraint: the front contact's height (z down) is that of
# C_F plus rF hor; the rear contact is on the ground by construction.
f_contact = C_F.dot(vert) + rF * hor

# --- angular velocities and velocities, in L -----------------------------------------
w_L = psid * vert + phid * E1                 # yaw about the vertical, roll about e1
w_B = w_L + thetaBd * E2
w_R = w_B + thetaRd * E2
w_H = w_B + deltad * s_w
w_F = w_H + thetaFd * n_F
Pdot = (xd * sp.cos(psi) + yd * sp.sin(psi)) * fwd_h \
    + (-xd * sp.sin(psi) + yd * sp.cos(psi)) * lat_h
v_CR = Pdot - rR * w_L.cross(E3)              # d/dt (P - rR e3)
v_GB = v_CR + w_B.cross(G_B - C_R)
v_GH = v_CR + w_B.cross(G_H - C_R) + deltad * s_w.cross(G_H - A_w)
v_CF = v_CR + w_B.cross(C_F - C_R) + deltad * s_w.cross(C_F - A_w)
v_F = v_CF + w_F.cross(r4)                    # the front wheel's material point at the contact


def quad(wv, R, Ixx, Iyy, Izz, Ixz):
    """omega . J omega for a body whose frame is R (in L), with the central
    inertia tensor (Ixx, Iyy, Izz, Ixz) in its own axes (Meijaard Table 1)."""
    wb = R.T * wv
    return (Ixx * wb[0] ** 2 + Iyy * wb[1] ** 2 + Izz * wb[2] ** 2 + 2 * Ixz * wb[0] * wb[2])


kinetic = (P["mR"] * v_CR.dot(v_CR) + quad(w_R, R_B, P["IRxx"], P["IRyy"], P["IRxx"], 0)
           + P["mB"] * v_GB.dot(v_GB) + quad(w_B, R_B, P["IBxx"], P["IByy"], P["IBzz"], P["IBxz"])
           + P["mH"] * v_GH.dot(v_GH) + quad(w_H, R_H, P["IHxx"], P["IHyy"], P["IHzz"], P["IHxz"])
           + P["mF"] * v_CF.dot(v_CF) + quad(w_F, R_H, P["IFxx"], P["IFyy"], P["IFxx"], 0)) / 2

# --- the bodies, in the space frame (what Gibbs-Appell needs) ------------------------
# Centre r = (x, y, 0) + R_L p (p relative to the rear contact, in L),
# angular velocity R_L omega, and the central inertia tensor R J R^T with R
# the body's frame in space. A wheel is symmetric about its axle n:
# J = Ixx 1 + (Iyy - Ixx) n n^T, whatever its rotation about n.
R_L = rot_z(psi) * rot_x(phi)
origin = sp.Matrix([x, y, 0])


def in_space(v_L):
    return origin + R_L * v_L


def wheel_inertia(n_L, Ixx, Iyy):
    n = R_L * n_L
    return Ixx * sp.eye(3) + (Iyy - Ixx) * n * n.T


def frame_inertia(R, Ixx, Iyy, Izz, Ixz):
    J = sp.Matrix([[Ixx, 0, Ixz], [0, Iyy, 0], [Ixz, 0, Izz]])
    Rs = R_L * R
    return Rs * J * Rs.T


bodies = [
    ("rear wheel R", P["mR"], in_space(C_R), R_L * w_R, wheel_inertia(E2, P["IRxx"], P["IRyy"])),
    ("rear frame B (with the rider)", P["mB"], in_space(G_B), R_L * w_B,
     frame_inertia(R_B, P["IBxx"], P["IByy"], P["IBzz"], P["IBxz"])),
    ("front frame H", P["mH"], in_space(G_H), R_L * w_H,
     frame_inertia(R_H, P["IHxx"], P["IHyy"], P["IHzz"], P["IHxz"])),
    ("front wheel F", P["mF"], in_space(C_F), R_L * w_F, wheel_inertia(n_F, P["IFxx"], P["IFyy"])),
]
potential = -g * (P["mR"] * C_R.dot(vert) + P["mB"] * G_B.dot(vert) + P["mH"] * G_H.dot(vert)
                  + P["mF"] * C_F.dot(vert))   # z down: V = -g sum m z

# --- psi(q, z) ----------------------------------------------------------------------
# With the rear wheel rolling, v_CR = -rR (w_B + thetaR_dot e2) x e3, and
#   v_F = w_B x D - rR thetaR_dot e1 + delta_dot s x E + thetaF_dot n x (rF d)
# with w_B = psi_dot e_z + phi_dot e1 + thetaB_dot e2, D = P_F - P (rear
# to front contact) and E = P_F - A. Three projections of v_F = 0 give the
# three dependent rates one at a time:
#  - on e_z: (e_z x D) . e_z = 0 and n x d is horizontal, so thetaB_dot;
#  - on D: the w_B x D terms vanish (the contacts keep their distance), so
#    thetaF_dot;
#  - on k = (e2 x D) x rho, rho = n x e_z along n x d: psi_dot.
P_F = C_F + r4
D = P_F
E = P_F - A_w
rho = n_F.cross(vert)
k_psi = E2.cross(D).cross(rho)


def triple(a, b, k):
    return a.cross(b).dot(k)


phid_, deltad_, thetaRd_ = z
thetaB_dot = -(phid_ * triple(E1, D, vert) + deltad_ * triple(s_w, E, vert)) / triple(E2, D, vert)
thetaF_dot = (rR * thetaRd_ * E1.dot(D) - deltad_ * triple(s_w, E, D)) / triple(n_F, r4, D)
psi_dot = -(phid_ * triple(E1, D, k_psi) - rR * thetaRd_ * E1.dot(k_psi) + deltad_ * triple(s_w, E, k_psi)) \
    / triple(vert, D, k_psi)
rolling = -rR * (thetaB_dot + thetaRd_)
parametrization = [rolling * sp.cos(psi), rolling * sp.sin(psi), psi_dot, phid_, thetaB_dot, deltad_, thetaRd_,
                   thetaF_dot]
constraints = {"rear_x": xd + rR * (thetaBd + thetaRd) * sp.cos(psi),
               "rear_y": yd + rR * (thetaBd + thetaRd) * sp.sin(psi),
               "front_forward": v_F.dot(fwd_h), "front_lateral": v_F.dot(lat_h)}


def text(e):
    return sp.sstr(e, order="none").replace("**", "^")


def check(samples=5):
    """psi satisfies the four rolling constraints and the holonomic velocity
    form at random states, in 30 digits (the loader checks this again, in
    50 digits)."""
    import random
    rnd = random.Random(1)
    defaults = {P[k]: sp.Float(v if isinstance(v, str) else str(v), 30) for k, v, _ in params}
    fdot = sum(sp.diff(f_contact, q[k]) * qd[k] for k in range(8))
    worst = 0
    for _ in range(samples):
        subs = dict(defaults)
        subs.update({qq: sp.Float(rnd.uniform(-0.5, 0.5), 30) for qq in q})
        subs.update({zz: sp.Float(rnd.uniform(-1, 1), 30) for zz in z})
        vel = [sp.N(e.subs(subs), 30) for e in parametrization]
        subs.update(dict(zip(qd, vel)))
        for e in list(constraints.values()) + [fdot, v_F.dot(vert)]:
            worst = max(worst, abs(sp.N(e.subs(subs), 30)))
    return worst


def check_bodies(samples=3):
    """The bodies' kinetic energy (centres differentiated in q, omega . J
    omega in space) equals the lean-frame T at random states and velocities,
    on C or off it, in 30 digits: an independent check of both (the loader
    checks it too)."""
    import random
    rnd = random.Random(2)
    defaults = {P[k]: sp.Float(v if isinstance(v, str) else str(v), 30) for k, v, _ in params}
    worst = 0
    for _ in range(samples):
        subs = dict(defaults)
        subs.update({qq: sp.Float(rnd.uniform(-0.5, 0.5), 30) for qq in q})
        subs.update({v: sp.Float(rnd.uniform(-1, 1), 30) for v in qd})
        T_bodies = 0
        for _, m, r, wv, J in bodies:
            rv = sp.Matrix([sum(sp.diff(e, q[k]) * qd[k] for k in range(8)) for e in r]).subs(subs)
            wn, Jn = wv.subs(subs), J.subs(subs)
            T_bodies += (m.subs(subs) * rv.dot(rv) + (wn.T * Jn * wn)[0]) / 2
        worst = max(worst, abs(sp.N(T_bodies - kinetic.subs(subs), 30)))
    return worst


HEADER = """# =============================================================================
# The Carvallo-Whipple bicycle: the benchmark of Meijaard, Papadopoulos, Ruina
# and Schwab (2007), with its holonomic and non-holonomic constraints
# =============================================================================
#
# GENERATED by examples/bicycle/whipple_bicycle.py (sympy); edit that script, not
# this file, and run it from the project root.
#
# Source: J. P. Meijaard, J. M. Papadopoulos, A. Ruina, A. L. Schwab,
# "Linearized dynamics equations for the balance and steer of a bicycle: a
# benchmark and review", Proc. R. Soc. A 463 (2007) 1955-1982: the model of
# its section 2, the parameters of its Table 1 (the defaults below), and the
# results of its Table 2, which docs/bicycle.md compares with `nhs
# stability` (weave speed 4.29238253634111 m/s, capsize speed
# 6.02426201538837 m/s).
#
# Bodies: rear wheel R, rear frame B (with the rider), front frame H (fork
# and handlebar), front wheel F; knife-edge wheels rolling without slip on
# flat level ground. Axes x forward, y right, z down (Meijaard fig. 1).
#
# Coordinates (Meijaard section 3): the rear contact (x, y), yaw psi, roll
# phi, the rear frame's pitch thetaB, steer delta, the wheels' rotations
# thetaR and thetaF relative to their frames. Rear frame: Rz(psi) Rx(phi)
# Ry(thetaB); the front frame turns by delta about the steer axis, tilted by
# lambda from the vertical, which meets the ground the trail c ahead of the
# front contact.
#
# Constraints: front_contact (holonomic) keeps the front wheel's lowest point
# on the ground, and fixes the pitch thetaB (the dependent coordinate,
# solved by Newton's method on admission); four rolling constraints keep
# the contact points of both wheels without horizontal velocity.
#
# Quasi-velocities: Meijaard's independent rates phid = phi_dot, deltad =
# delta_dot, thetaRd = thetaR_dot; the forward speed is v = -rR thetaRd.
# Upright straight running at speed v is the family `upright`.
"""


def toml_list(items):
    return "[" + ", ".join('"%s"' % t for t in items) + "]"


def write(path):
    out = [HEADER]
    out.append('name = "whipple-bicycle-generated"')
    out.append('title = "the Carvallo-Whipple bicycle of the Meijaard et al. (2007) benchmark, generated by sympy"')
    out.append('source = "Meijaard, Papadopoulos, Ruina, Schwab, Proc. R. Soc. A 463 (2007) 1955-1982"')
    out.append("coordinates = " + toml_list(names))
    out.append("quasi_velocities = " + toml_list(zn))
    out.append('dependent_velocities = ["x", "y", "psi", "thetaB", "thetaF"]')
    out.append("\n# Meijaard Table 1 (SI units; lambda = pi/10 to 100 digits).\n[parameters]")
    for name, value, meaning in params:
        out.append('%s = { default = "%s", meaning = "%s" }' % (name, value, meaning))
    out.append("\n# T = sum over the bodies of m |v_G|^2/2 + omega . J omega/2, written in the lean")
    out.append("# frame; V = -g sum m z_G (z down).\n[dynamics]")
    out.append('kinetic_energy = "%s"' % text(kinetic))
    out.append('potential = "%s"' % text(potential))
    out.append("\n# The four bodies in the space frame, for Gibbs-Appell (their kinetic energy equals")
    out.append("# kinetic_energy above; the loader checks it): centre of mass, angular velocity,")
    out.append("# central inertia tensor.")
    for title, m, r, wv, J in bodies:
        out.append("\n[[bodies]]   # " + title)
        out.append('mass = "%s"' % text(m))
        out.append("position = " + toml_list([text(e) for e in r]))
        out.append("angular_velocity = " + toml_list([text(e) for e in wv]))
        out.append("inertia = [" + ",\n           ".join(toml_list([text(J[i, j]) for j in range(3)]) for i in range(3)) + "]")
    out.append("\n# The material point of each wheel at its contact has no horizontal velocity;")
    out.append("# the front one's components along the heading (cos psi, sin psi) and across it.\n[constraints]")
    for name, e in constraints.items():
        out.append('%s = "%s"' % (name, text(e)))
    out.append("\n# The front wheel's lowest point on the ground (z down: its height is -front_contact).")
    out.append("[holonomic]")
    out.append('front_contact = "%s"' % text(f_contact))
    out.append('dependent_coordinates = ["thetaB"]')
    out.append("\n# psi(q, z): the rolling constraints solved for the dependent rates (see the script).")
    out.append("[parametrization]")
    for name, e in zip(names, parametrization):
        out.append('%s_dot = "%s"' % (name, text(e)))
    out.append("\n[chart]")
    out.append('phid = "phi_dot"\ndeltad = "delta_dot"\nthetaRd = "thetaR_dot"')
    out.append("\n# Leaning 0.1 rad and steered 0.05 rad at v = 4.5 m/s; thetaB is solved for.")
    out.append("[initial]")
    out.append('q = ["0", "0", "0", "0.1", "0", "0.05", "0", "0"]')
    out.append('z = ["0.5", "0", "-15"]')
    out.append("\n# Upright straight running at forward speed v (Meijaard section 5).")
    out.append("[[steady]]")
    out.append('name = "upright"')
    out.append('parameters = ["v"]')
    out.append('q = ["0", "0", "0", "0", "0", "0", "0", "0"]')
    out.append('z = ["0", "0", "-v/rR"]')
    pathlib.Path(path).write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    worst = check()
    assert worst < 1e-20, worst
    worst_T = check_bodies()
    assert worst_T < 1e-20, worst_T
    write(pathlib.Path(__file__).with_name("whipple-bicycle-generated.toml"))
    print("psi sizes", [len(text(e)) for e in parametrization])
    print("C sizes", [len(text(e)) for e in constraints.values()], "f", len(text(f_contact)), "T", len(text(kinetic)), "V", len(text(potential)))
    print("bodies", [[len(text(e)) for e in list(r) + list(wv) + list(J)] for _, _, r, wv, J in bodies])
    print("worst residual", worst, "bodies' T", worst_T)
