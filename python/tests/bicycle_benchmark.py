"""The closed-form linearized Whipple bicycle of Meijaard, Papadopoulos,
Ruina and Schwab, "Linearized dynamics equations for the balance and steer
of a bicycle: a benchmark and review", Proc. R. Soc. A 463 (2007)
1955-1982, Appendix A: an independent reference for nhs's linearization of
examples/bicycle/whipple-bicycle.toml (test_bicycle.py, docs/bicycle.md).

The linearized equations in q = (phi, delta) (roll, steer), eq. (A 1):

    M q'' + v C1 q' + (g K0 + v^2 K2) q = 0,

with M, C1, K0, K2 from the 25 parameters of Table 1 by eqs. (A 2)-(A 27).
Everything is in mpmath, at the caller's working precision.
"""

from __future__ import annotations

import mpmath

# Meijaard Table 1, as decimals (lambda = pi/10 is computed at the working
# precision).
TABLE1 = {
    "w": "1.02", "c": "0.08", "g": "9.81",
    "rR": "0.3", "mR": "2", "IRxx": "0.0603", "IRyy": "0.12",
    "xB": "0.3", "zB": "-0.9", "mB": "85", "IBxx": "9.2", "IByy": "11", "IBzz": "2.8", "IBxz": "2.4",
    "xH": "0.9", "zH": "-0.7", "mH": "4", "IHxx": "0.05892", "IHyy": "0.06", "IHzz": "0.00708", "IHxz": "-0.00756",
    "rF": "0.35", "mF": "3", "IFxx": "0.1405", "IFyy": "0.28",
}


def parameters(overrides=None):
    """Table 1 at the working precision, with lambda = pi/10, and any
    overrides {name: value}."""
    p = {k: mpmath.mpf(v) for k, v in TABLE1.items()}
    p["lambda"] = mpmath.pi / 10
    for k, v in (overrides or {}).items():
        p[k] = mpmath.mpf(v)
    return p


def matrices(p):
    """M, C1, K0, K2 (2 x 2 mpmath matrices) by Meijaard eqs. (A 2)-(A 27)."""
    w, c, lam = p["w"], p["c"], p["lambda"]
    rR, mR, IRxx, IRyy = p["rR"], p["mR"], p["IRxx"], p["IRyy"]
    xB, zB, mB, IBxx, IByy, IBzz, IBxz = (p[k] for k in ("xB", "zB", "mB", "IBxx", "IByy", "IBzz", "IBxz"))
    xH, zH, mH, IHxx, IHyy, IHzz, IHxz = (p[k] for k in ("xH", "zH", "mH", "IHxx", "IHyy", "IHzz", "IHxz"))
    rF, mF, IFxx, IFyy = p["rF"], p["mF"], p["IFxx"], p["IFyy"]
    sl, cl = mpmath.sin(lam), mpmath.cos(lam)
    # (A 2)-(A 6): the whole bicycle
    mT = mR + mB + mH + mF
    xT = (xB * mB + xH * mH + w * mF) / mT
    zT = (-rR * mR + zB * mB + zH * mH - rF * mF) / mT
    ITxx = IRxx + IBxx + IHxx + IFxx + mR * rR**2 + mB * zB**2 + mH * zH**2 + mF * rF**2
    ITxz = IBxz + IHxz - mB * xB * zB - mH * xH * zH + mF * w * rF
    IRzz, IFzz = IRxx, IFxx  # (A 7)
    ITzz = IRzz + IBzz + IHzz + IFzz + mB * xB**2 + mH * xH**2 + mF * w**2
    # (A 9)-(A 14): the front assembly
    mA = mH + mF
    xA = (xH * mH + w * mF) / mA
    zA = (zH * mH - rF * mF) / mA
    IAxx = IHxx + IFxx + mH * (zH - zA) ** 2 + mF * (rF + zA) ** 2
    IAxz = IHxz - mH * (xH - xA) * (zH - zA) + mF * (w - xA) * (rF + zA)
    IAzz = IHzz + IFzz + mH * (xH - xA) ** 2 + mF * (w - xA) ** 2
    # (A 15)-(A 18): about the steer axis
    uA = (xA - w - c) * cl - zA * sl
    IAll = mA * uA**2 + IAxx * sl**2 + 2 * IAxz * sl * cl + IAzz * cl**2
    IAlx = -mA * uA * zA + IAxx * sl + IAxz * cl
    IAlz = mA * uA * xA + IAxz * sl + IAzz * cl
    # (A 19)-(A 21)
    mu = c / w * cl
    SR, SF = IRyy / rR, IFyy / rF
    ST = SR + SF
    SA = mA * uA + mu * mT * xT
    # (A 22)-(A 27)
    M = mpmath.matrix([[ITxx, IAlx + mu * ITxz], [IAlx + mu * ITxz, IAll + 2 * mu * IAlz + mu**2 * ITzz]])
    K0 = mpmath.matrix([[mT * zT, -SA], [-SA, -SA * sl]])
    K2 = mpmath.matrix([[0, (ST - mT * zT) * cl / w], [0, (SA + SF * sl) * cl / w]])
    C1 = mpmath.matrix([[0, mu * ST + SF * cl + ITxz * cl / w - mu * mT * zT],
                        [-(mu * ST + SF * cl), IAlz * cl / w + mu * (SA + ITzz * cl / w)]])
    return M, C1, K0, K2


def state_matrix(p, v):
    """The 4 x 4 matrix of x' = A x, x = (phi, delta, phi', delta')."""
    M, C1, K0, K2 = matrices(p)
    Minv = M**-1
    K = -(Minv * (p["g"] * K0 + v**2 * K2))
    C = -(Minv * (v * C1))
    A = mpmath.zeros(4, 4)
    A[0, 2] = A[1, 3] = 1
    for i in range(2):
        for j in range(2):
            A[2 + i, j] = K[i, j]
            A[2 + i, 2 + j] = C[i, j]
    return A


def eigenvalues(p, v):
    """The four eigenvalues at speed v, sorted by real part (descending),
    then imaginary part."""
    ev = mpmath.eig(state_matrix(p, v), left=False, right=False)
    return sorted((mpmath.mpc(e) for e in ev), key=lambda e: (-e.real, -e.imag))


def characteristic(p, v):
    """The coefficients (a4, a3, a2, a1, a0) of det(M s^2 + v C1 s + g K0 +
    v^2 K2), a polynomial in s."""
    M, C1, K0, K2 = matrices(p)
    K = p["g"] * K0 + v**2 * K2
    C = v * C1

    def poly(i, j):  # the entry (i, j) as coefficients (s^2, s, 1)
        return (M[i, j], C[i, j], K[i, j])

    def mul(a, b):
        out = [mpmath.mpf(0)] * 5
        for i, x in enumerate(a):
            for j, y in enumerate(b):
                out[i + j] += x * y
        return out

    d1, d2 = mul(poly(0, 0), poly(1, 1)), mul(poly(0, 1), poly(1, 0))
    return [x - y for x, y in zip(d1, d2)]


def capsize_speed(p):
    """Where a real eigenvalue crosses 0: the constant coefficient
    det(g K0 + v^2 K2) vanishes; K2's first column is 0, so it is linear
    in v^2."""
    _, _, K0, K2 = matrices(p)
    g = p["g"]
    # det = g K0_11 (g K0_22 + v^2 K2_22) - g K0_21 (g K0_12 + v^2 K2_12)
    v2 = (g * K0[1, 0] * g * K0[0, 1] - g * K0[0, 0] * g * K0[1, 1]) / (g * K0[0, 0] * K2[1, 1] - g * K0[1, 0] * K2[0, 1])
    return mpmath.sqrt(v2)


def weave_speed(p, lo, hi):
    """Where a complex pair crosses the imaginary axis: the Hurwitz
    determinant a3 a2 a1 - a4 a1^2 - a3^2 a0 of the quartic vanishes
    (Routh-Hurwitz), bracketed in [lo, hi]."""
    def h(v):
        a4, a3, a2, a1, a0 = characteristic(p, v)
        return a3 * a2 * a1 - a4 * a1**2 - a3**2 * a0
    return mpmath.findroot(h, (mpmath.mpf(lo), mpmath.mpf(hi)), solver="anderson")
