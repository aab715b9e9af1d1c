"""The gravity stiffness K0 of the Whipple bicycle with toroidal wheels at
the upright state, derived independently of nhs (sympy), and held to the
closed form that tests/bicycle_torus.hpp uses and docs/bicycle.md
("Toroidal wheels") states.

The geometry is written out here with plain rotation matrices, in the
coordinates of examples/bicycle/whipple-bicycle-torus.toml (z down, up =
-z): the lean frame Rx(phi) with its origin at the rear tube circle's
lowest point, tR above the ground; the rear frame pitched by thetaB about
the rear axle, rR - tR above that point; the front frame turned by delta
about the steer axis through (w + c, 0, -rR) of the reference
configuration; the front wheel's centre (-c, 0, -rF) in it. The front
torus's lowest point is its tube circle's lowest point (the knife-edge
disc's, with radius rF - tF) moved down by tF; its height is 0 (the front
contact), which fixes thetaB(phi, delta). V = -g sum m_i z_i over
Meijaard et al. (2007) Table 1's four bodies. K0 is V's Hessian in
(phi, delta) at 0 per unit g, thetaB eliminated by implicit
differentiation to second order.

Closed form (Meijaard et al. (2007) Appendix A's K0, z down): with
m_T, x_T, z_T the whole bicycle's mass and centre of mass, m_A, u_A the
front assembly's mass and offset from the steer axis,
  K0_phiphi = m_T (z_T + tR + (tF - tR) x_T / w),
  K0_phidelta = -S_A, K0_deltadelta = -S_A sin(lambda),
  S_A = m_A u_A + (c cos(lambda) - tF sin(lambda)) m_T x_T / w.
Run: python3 tests/references/bicycle_torus_stiffness.py (about 15 s);
exit 0 when sympy's K0 equals the closed form identically in tR, tF.
"""
import sys

import sympy as sp

phi, delta, thetaB, tR, tF = sp.symbols("phi delta thetaB tR tF")
R = sp.Rational
w, c, rR, rF = R(102, 100), R(8, 100), R(3, 10), R(35, 100)
lam = sp.pi / 10
mR, mB, mH, mF = 2, 85, 4, 3
xB, zB, xH, zH = R(3, 10), R(-9, 10), R(9, 10), R(-7, 10)


def rx(a):
    return sp.Matrix([[1, 0, 0], [0, sp.cos(a), -sp.sin(a)], [0, sp.sin(a), sp.cos(a)]])


def ry(a):
    return sp.Matrix([[sp.cos(a), 0, sp.sin(a)], [0, 1, 0], [-sp.sin(a), 0, sp.cos(a)]])


def rz(a):
    return sp.Matrix([[sp.cos(a), -sp.sin(a), 0], [sp.sin(a), sp.cos(a), 0], [0, 0, 1]])


def vec(*a):
    return sp.Matrix(a)


RL, OL = rx(phi), vec(0, 0, -tR)
RB = RL * ry(thetaB)
OB = OL + RL * vec(0, 0, tR - rR)
RH = RB * ry(lam) * rz(delta) * ry(-lam)
OH = OB + RB * vec(w + c, 0, rR)
OF = OH + RH * vec(-c, 0, -rF)
up = vec(0, 0, -1)
axle = RH * vec(0, 1, 0)
across = up - axle * up.dot(axle)
contact_height = up.dot(OF) - (rF - tF) * sp.sqrt(across.dot(across)) - tF
heights_z = [OB[2], (OB + RB * vec(xB, 0, zB + rR))[2], (OH + RH * vec(xH - w - c, 0, zH))[2], OF[2]]
V = -sum(m * z for m, z in zip([mR, mB, mH, mF], heights_z))
at0 = {phi: 0, delta: 0, thetaB: 0}


def d0(e, *variables):
    for v in variables:
        e = sp.diff(e, v)
    return sp.simplify(e.subs(at0))


def stiffness():
    q = [phi, delta]
    f_th = d0(contact_height, thetaB)
    g1 = [-d0(contact_height, qi) / f_th for qi in q]
    K = sp.zeros(2, 2)
    for i, qi in enumerate(q):
        for j, qj in enumerate(q):
            g2 = -(d0(contact_height, qi, qj) + d0(contact_height, qi, thetaB) * g1[j]
                   + d0(contact_height, qj, thetaB) * g1[i] + d0(contact_height, thetaB, thetaB) * g1[i] * g1[j]) / f_th
            K[i, j] = (d0(V, qi, qj) + d0(V, qi, thetaB) * g1[j] + d0(V, qj, thetaB) * g1[i]
                       + d0(V, thetaB, thetaB) * g1[i] * g1[j] + d0(V, thetaB) * g2)
    return K, d0(contact_height)


def closed_form():
    mT = mR + mB + mH + mF
    xT = (mB * xB + mH * xH + mF * w) / mT
    zT = (-mR * rR + mB * zB + mH * zH - mF * rF) / mT
    mA = mH + mF
    xA, zA = (mH * xH + mF * w) / mA, (mH * zH - mF * rF) / mA
    uA = (xA - w - c) * sp.cos(lam) - zA * sp.sin(lam)
    SA = mA * uA + (c * sp.cos(lam) - tF * sp.sin(lam)) * mT * xT / w
    return sp.Matrix([[mT * (zT + tR + (tF - tR) * xT / w), -SA], [-SA, -SA * sp.sin(lam)]])


if __name__ == "__main__":
    K, residual = stiffness()
    C = closed_form()
    print("front contact height at the upright state:", residual)
    print("K0 (sympy):", K)
    for tr, tf in [(0, 0), (R(2, 100), R(3, 100))]:
        print(f"tR={tr} tF={tf}:", sp.N(K.subs({tR: tr, tF: tf}), 20).tolist())
    ok = residual == 0 and all(sp.simplify(sp.expand(K[i, j] - C[i, j])) == 0 for i in range(2) for j in range(2))
    print("closed form:", "equal" if ok else "DIFFERENT")
    sys.exit(0 if ok else 1)
