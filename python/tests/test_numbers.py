"""Shapes, dtypes and digits in every precision.

- q, qdot, qddot, reaction have size n; multipliers size r; None where the
  formulation defines none; dtypes float64, np.longdouble, object arrays of
  mpmath.mpf (float128, mp50, mp100), and scalars of the same types.
- Round trip: the decimal strings the CLI prints -> the returned values
  (each equal to its string parsed at the precision's digits) -> fed back
  as the next call's input -> the same strings.
- A decimal string is read in the precision of the call ("0.1" in mp50 is
  1/10 to 50 digits, not the double 0.1); a Python float by its shortest
  repr above double; an mpmath.mpf exactly from its binary mantissa and
  exponent, correctly rounded (docs/python.md, "Numbers").
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest

import nhs

# rolling-disc: n = 4, r = 2, m = 2. A state given by q and z.
Q = ["0.1", "-0.2", "0.3", "0.7"]
Z = ["0.9", "-0.35"]
SCALAR = {"double": float, "long-double": np.longdouble}


def element_ok(tools, precision, value, text):
    """value is the element of its precision's type equal to `text`."""
    if precision == "double":
        return type(value) in (float, np.float64) and tools.same_double(float(text), value)
    if precision == "long-double":
        return isinstance(value, np.longdouble) and np.longdouble(text) == value
    return isinstance(value, mpmath.mpf) and value == tools.mpf(text, precision)


def check_shapes(tools, a, precision, n, r):
    dtype = {"double": np.float64, "long-double": np.longdouble}.get(precision, object)
    for key, size in (("q", n), ("qdot", n), ("qddot", n), ("multipliers", r), ("reaction", n)):
        arr = getattr(a, key)
        assert isinstance(arr, np.ndarray), key
        assert arr.shape == (size,) and arr.dtype == dtype, (key, arr.shape, arr.dtype)
        assert len(a.strings[key]) == size
        for v, s in zip(arr, a.strings[key]):
            assert element_ok(tools, precision, v, s), (key, v, s)
    assert element_ok(tools, precision, a.gauss_z, a.strings["gauss_z"])
    assert set(a.parameters) == set(a.strings["parameters"])
    for k, v in a.parameters.items():
        assert element_ok(tools, precision, v, a.strings["parameters"][k]), k


@pytest.mark.parametrize("precision", nhs.precisions())
def test_shapes_dtypes_and_round_trip(tools, precision):
    disc = nhs.study("rolling-disc")
    n, r = disc.n, disc.r
    assert (n, r, disc.m) == (4, 2, 2)
    a = disc.accel(q=Q, z=Z, precision=precision)
    assert a.precision == precision
    check_shapes(tools, a, precision, n, r)
    # the strings are the precision's: more digits the higher it goes
    digits = len(a.strings["qdot"][0].lstrip("-0.").replace(".", ""))
    assert digits >= {"double": 15, "long-double": 18, "float128": 33, "mp50": 50, "mp100": 100}[precision]
    # the returned values, fed back, give the same strings (and so values);
    # only one more accel in mp100
    b = disc.accel(q=a.q, qdot=a.qdot, precision=precision)
    assert b.strings == a.strings
    if precision == "double":
        assert b.qddot.tobytes() == a.qddot.tobytes()
    elif precision == "long-double":  # (tobytes would compare the padding of the 80-bit type)
        assert all(x == y and np.signbit(x) == np.signbit(y) for x, y in zip(a.qddot, b.qddot))
    else:
        assert list(b.qddot) == list(a.qddot)


@pytest.mark.parametrize("precision", ["double", "long-double", "float128", "mp50"])
def test_formulation_without_multipliers(precision):
    disc = nhs.study("rolling-disc")
    for f in ("maggi", "voronec", "first-kind"):
        a = disc.accel(q=Q, z=Z, formulation=f, precision=precision)
        assert a.qddot.shape == (4,)
        assert a.multipliers is None and a.reaction is None
        assert "multipliers" not in a.strings and "reaction" not in a.strings
    a = disc.accel(q=Q, z=Z, formulation="udwadia-kalaba", precision=precision)
    assert a.multipliers.shape == (2,) and a.reaction.shape == (4,)


def test_shapes_of_every_study_in_double():
    for study in nhs.studies():
        s = nhs.study(study)
        assert s.m == s.n - s.r and len(s.coordinates) == s.n
        assert len(s.constraints) == s.r and len(s.quasi_velocities) == s.m
        a = s.accel(formulation="lagrange-multipliers")
        assert a.q.shape == a.qdot.shape == a.qddot.shape == a.reaction.shape == (s.n,)
        assert a.multipliers.shape == (s.r,)


def test_decimal_string_is_read_in_the_precision_of_the_call(tools):
    skate = nhs.study("skate")
    exact = Fraction(1, 10)
    a = skate.accel(q=["0.1", 0.1, "0"], qdot=["1", "0", "0.5"], precision="mp50")
    tenth = tools.mpf("0.1", "mp50")
    assert a.q[0] == tenth and a.q[1] == tenth  # the str and the float (by its repr)
    assert a.q[0] != mpmath.mpf(0.1)  # not the double 0.1
    # within half an ulp of 1/10 at 168 bits, far closer than the double
    man, exp = a.q[0].man_exp
    err = abs(Fraction(man) * Fraction(2) ** exp - exact) / exact
    assert err <= Fraction(1, 2**168)
    assert abs(Fraction(0.1) - exact) / exact > Fraction(1, 2**60)
    assert a.strings["q"][0].startswith("0.1" + "0" * 49)
    # the same text in the other precisions
    for precision in ("double", "long-double", "float128"):
        b = skate.accel(q=["0.1", 0, 0], qdot=[1, 0, 0.5], precision=precision)
        if precision == "double":
            assert b.q[0] == 0.1
        elif precision == "long-double":
            assert b.q[0] == np.longdouble("0.1") and b.q[0] != np.longdouble(0.1)
        else:
            assert b.q[0] == tools.mpf("0.1", "float128") and b.q[0] != mpmath.mpf(0.1)


def test_numbers_in_other_python_types(tools):
    """ints in full, NumPy arrays item by item, np.float64 by repr."""
    skate = nhs.study("skate")
    big = 10**30 + 1
    a = skate.accel(q=[big, 0, 0], qdot=[1, 0, 0.5], precision="mp50")
    assert a.strings["q"][0] == "1000000000000000000000000000001"
    b = skate.accel(q=np.array([0.25, -1.5, 0.0]), qdot=np.array([1.0, 0.0, 0.5]))
    c = skate.accel(q=[0.25, -1.5, 0], qdot=[1, 0, 0.5])
    assert b.strings == c.strings
    d = skate.accel(q="0.25,-1.5,0", qdot="1,0,0.5")  # the CLI's comma-separated text
    assert d.strings == c.strings


def test_mpf_input_keeps_every_digit_of_its_mantissa(tools):
    """docs/python.md: an mpmath.mpf "exactly from its binary mantissa and
    exponent": one the precision holds is read as it is."""
    skate = nhs.study("skate")
    qdot = ["1", "0", "0.5"]
    for x in (mpmath.mpf(0.1), mpmath.mpf(2) ** -70, mpmath.mpf(1) / 3):
        a = skate.accel(q=[x, 0, 0], qdot=qdot, precision="mp50")
        assert a.q[0] == x, f"{x!r} ({x._mpf_}) read as {a.strings['q'][0]}"
    # an mp50 value into mp100
    a = skate.accel(q=["0.1", 0, 0], qdot=qdot, precision="mp50")
    b = skate.accel(q=a.q, qdot=qdot, precision="mp100")
    assert b.q[0] == a.q[0], f"{a.strings['q'][0]} read in mp100 as {b.strings['q'][0]}"


def test_mpf_wider_than_the_precision_is_correctly_rounded_from_its_binary_digits():
    """An mpf of 500 bits just below a tie of 168 bits, 1 + 2^-168 - 2^-450,
    rounds down to 1 in mp50 (mpmath's own rounding of the same mantissa is
    the reference); a decimal of 120 digits in between (the text path this
    converter replaced) rounded it up to 1 + 2^-167. Just above the tie it
    rounds up, and in double and long double the same value is 1."""
    skate = nhs.study("skate")
    z = ["1", "0.5"]
    with mpmath.workprec(500):
        below = 1 + mpmath.mpf(2) ** -168 - mpmath.mpf(2) ** -450
        above = 1 + mpmath.mpf(2) ** -168 + mpmath.mpf(2) ** -450
    for x in (below, above):
        want = mpmath.libmp.normalize(*x._mpf_, 168, "n")
        a = skate.accel(q=[0, 0, x], z=z, precision="mp50")
        assert a.q[2]._mpf_ == want, (x, a.strings["q"][2])
    assert skate.accel(q=[0, 0, below], z=z, precision="mp50").q[2] == 1
    for precision in ("double", "long-double"):
        assert skate.accel(q=[0, 0, below], z=z, precision=precision).q[2] == 1


@pytest.mark.parametrize("precision", ["float128", "mp50", "mp100"])
def test_results_are_exact_at_the_precisions_bits_whatever_mp_prec(tools, precision):
    """Each mpmath result is the library's value, bit for bit: equal to the
    tool's decimal string rounded at the precision's binary digits, with
    at most that many bits, also when the caller's mp.prec is 20 bits or
    500 (mpmath.mpf(str) would round to it)."""
    disc = nhs.study("rolling-disc")
    bits = tools.bits[precision]
    saved = mpmath.mp.prec
    for prec in (20, 500):
        try:
            mpmath.mp.prec = prec
            a = disc.accel(q=Q, z=Z, precision=precision)
            values, strings = list(a.qddot) + list(a.reaction), a.strings["qddot"] + a.strings["reaction"]
        finally:
            mpmath.mp.prec = saved
        for v, s in zip(values, strings):
            assert v._mpf_ == mpmath.libmp.from_str(s, bits, "n") and v._mpf_[3] <= bits, (prec, v, s)


def test_long_double_values_go_in_as_they_are():
    """An np.longdouble (and an array of them) in long double is the value
    it holds, not its repr's nearest; a float64 array in double is read
    from memory (also with strides)."""
    skate = nhs.study("skate")
    third = np.longdouble(1) / 3
    a = skate.accel(q=[0, 0, third], z=[1, 0.5], precision="long-double")
    b = skate.accel(q=np.array([0, 0, third], dtype=np.longdouble), z=[1, 0.5], precision="long-double")
    assert a.q[2] == third and b.q[2] == third
    strided = np.array([0.25, 9, -1.5, 9, 0.0, 9])[::2]
    assert skate.accel(q=strided, z=[1, 0.5]).q.tolist() == [0.25, -1.5, 0.0]
