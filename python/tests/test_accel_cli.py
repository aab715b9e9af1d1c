"""System.accel equals `nhs accel`'s JSON, string for string and bit for bit.

Reference: the CLI's JSON (docs/cli.md, `accel`), run as a separate process
on the same system, formulation, precision and state. For every system and
formulation (and the default formulation, None), at the system's default
state and at one given state (q and z through psi):
  - `a.strings` equals the JSON field by field (same keys);
  - in double, float(json string) equals the array element bit for bit;
  - in mp50 (and the other multiprecision types), each mpmath.mpf equals the
    JSON string parsed by mpmath at the precision's binary digits;
  - a state the CLI refuses raises the exception of its exit code with the
    CLI's message.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import mpmath
import numpy as np
import pytest

import nhs

SOURCE_DIR = Path(os.environ.get("NHS_SOURCE_DIR") or Path(__file__).resolve().parents[2])

FILES = [str(p) for p in sorted((SOURCE_DIR / "examples").glob("*.toml"))] + [
    str(SOURCE_DIR / "studies" / "files" / "skate.toml"),
    str(SOURCE_DIR / "studies" / "files" / "n_trailer.toml"),
]
DOUBLE_SYSTEMS = nhs.studies() + FILES
MP50_SYSTEMS = ["skate", "rolling-sphere", "bipendulum", "n-trailer", "massless-trailer",
                str(SOURCE_DIR / "examples" / "knife-edge-incline.toml")]
OTHER_PRECISIONS = [("coaxial-discs", "long-double"), ("coaxial-discs", "float128"),
                    ("parallel-points", "long-double"), ("parallel-points", "float128")]
VECTORS = ("q", "qdot", "qddot", "multipliers", "reaction")


def _cases():
    cases = []
    for precision, systems in (("double", DOUBLE_SYSTEMS), ("mp50", MP50_SYSTEMS)):
        for system in systems:
            for f in [None] + nhs.System(system).formulations():
                cases.append((system, precision, f))
    for system, precision in OTHER_PRECISIONS:
        for f in [None] + nhs.System(system).formulations():
            cases.append((system, precision, f))
    return cases


def _id(case):
    system, precision, f = case
    return f"{Path(system).name}-{precision}-{f or 'default'}"


CASES = _cases()


def given_state(system):
    """One state away from the default: q = default q + 0.1 (k + 1), and
    z = (0.3, -0.4, 0.5, ...) through psi, as decimal strings."""
    q_default = [float(s) for s in system.accel().strings["q"]]
    q = [repr(round(v + 0.1 * (k + 1), 12)) for k, v in enumerate(q_default)]
    z = [("0.3", "-0.4", "0.5", "-0.6")[k % 4] for k in range(system.m)]
    return q, z


def check_values(tools, a, strings, precision):
    """The arrays of `a` against the decimal strings of the JSON."""
    for key in VECTORS:
        arr = getattr(a, key)
        if key not in strings:
            assert arr is None, key
            continue
        assert isinstance(arr, np.ndarray) and arr.shape == (len(strings[key]),), key
        for i, s in enumerate(strings[key]):
            if precision == "double":
                assert arr.dtype == np.float64
                assert tools.same_double(float(s), arr[i]), (key, i, s, arr[i])
            elif precision == "long-double":
                assert arr.dtype == np.longdouble
                assert np.longdouble(s) == arr[i] and np.signbit(np.longdouble(s)) == np.signbit(arr[i]), \
                    (key, i, s, arr[i])
            else:
                assert arr.dtype == object and isinstance(arr[i], mpmath.mpf), (key, i)
                assert arr[i] == tools.mpf(s, precision), (key, i, s, arr[i])
    gz = strings["gauss_z"]
    if precision == "double":
        assert tools.same_double(float(gz), a.gauss_z)
    elif precision == "long-double":
        assert np.longdouble(gz) == a.gauss_z
    else:
        assert a.gauss_z == tools.mpf(gz, precision)
    for name, s in strings["parameters"].items():
        v = a.parameters[name]
        if precision == "double":
            assert tools.same_double(float(s), v)
        elif precision == "long-double":
            assert np.longdouble(s) == v
        else:
            assert v == tools.mpf(s, precision)


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_accel_equals_cli_json(tools, case):
    system_name, precision, formulation = case
    system = nhs.System(system_name)
    q, z = given_state(system)
    states = [
        ([], {}),  # the default state
        # the given state: decimal strings to the CLI; to Python floats in
        # double (read by their shortest repr, the same text) and a mix of
        # strings and floats above
        (["--q=" + ",".join(q), "--z=" + ",".join(z)],
         {"q": [float(v) for v in q] if precision == "double" else q, "z": [float(v) for v in z]}),
    ]
    args = ["accel", system_name, "--precision", precision]
    if formulation:
        args += ["--formulation", formulation]
    compared = 0
    for cli_state, py_state in states:
        p = tools.cli(*args, *cli_state)
        if p.returncode != 0:  # a state the formulation refuses: the same error
            assert p.returncode in tools.exit_exception, p.stderr
            with pytest.raises(tools.exit_exception[p.returncode]) as e:
                system.accel(formulation=formulation, precision=precision, **py_state).qddot
            assert str(e.value) == tools.error_line(p.stderr)
            continue
        j = json.loads(p.stdout)
        a = system.accel(formulation=formulation, precision=precision, **py_state)
        assert (a.study, a.formulation, a.field, a.precision) == \
            (j["study"], j["formulation"], j["field"], j["precision"])
        strings = a.strings
        assert set(strings) == set(j) - {"study", "formulation", "field", "precision"}
        for key in strings:
            assert strings[key] == j[key], key
        check_values(tools, a, j, precision)
        compared += 1
    assert compared >= 1, "the CLI refused both states"


def test_default_state_is_compared_for_every_study(tools):
    """Guards the parametrization: every built-in study is in the double
    cases with every formulation `nhs list` says applies."""
    for study in nhs.studies():
        listed = [line.split()[0] for line in tools.cli("list", study).stdout.splitlines()
                  if line.startswith("  ") and line.split()[1:2] == ["applies"]]
        assert listed and listed == nhs.study(study).formulations()
        assert {(s, f) for s, p, f in CASES if p == "double" and s == study} == \
            {(study, f) for f in [None] + listed}


@pytest.mark.parametrize("field,flag", [("library", "--library"), ("generated", "--generated")])
def test_accel_field_option_equals_cli(tools, field, flag):
    """field="library"/"generated" is the CLI's --library/--generated."""
    for study, formulation in (("coaxial-discs", "first-kind"), ("rolling-disc", "second-kind")):
        j = tools.cli_json("accel", study, "--formulation", formulation, flag, "--q", "0.1,0.2,0.3,0.4,0.5"
                           if study == "coaxial-discs" else "0.1,0.2,0.3,0.4", "--z", "0.7,-0.2")
        q = [0.1, 0.2, 0.3, 0.4, 0.5] if study == "coaxial-discs" else [0.1, 0.2, 0.3, 0.4]
        a = nhs.study(study).accel(q=q, z=[0.7, -0.2], formulation=formulation, field=field)
        assert (a.formulation, a.field) == (j["formulation"], j["field"]) == \
            (formulation, field)
        assert a.strings["qddot"] == j["qddot"]
        assert all(tools.same_double(float(s), v) for s, v in zip(j["qddot"], a.qddot))


def test_accel_and_run_default_to_the_same_field():
    """A built-in study's default field is its generated code in accel as in
    run (the CLI's default); a file's is its traced field; a backend that
    cannot be had is a UsageError naming it."""
    skate = nhs.study("skate")
    assert skate.accel().field == "generated"
    assert skate.accel(field="library").field == "library"
    assert "second-kind (generated)" in repr(skate.run(t_end=0.1))
    knife = nhs.load(SOURCE_DIR / "examples" / "knife-edge-incline.toml")
    assert (knife.accel().field, knife.accel().formulation) == ("traced", "second-kind")
    assert knife.accel(field="traced").strings == knife.accel().strings
    with pytest.raises(nhs.UsageError, match="unknown field backend 'fast'"):
        skate.accel(field="fast")
    with pytest.raises(nhs.UsageError, match="built-in study 'skate'"):
        skate.accel(field="traced")


def test_params_equal_cli_param(tools):
    """params={...} is the CLI's --param name=value, for studies and files."""
    knife = tools.path("examples/knife-edge-incline.toml")
    for system, params in (("rolling-disc", {"k": "0.8", "g": 1, "R": 0.3}),
                           (knife, {"g": "2.5", "J": 0.125})):
        args = [a for k, v in params.items() for a in ("--param", f"{k}={v}")]
        for precision in ("double", "mp50"):
            j = tools.cli_json("accel", system, "--precision", precision, *args)
            a = nhs.System(system).accel(params=params, precision=precision)
            assert a.strings == {k: j[k] for k in a.strings}
            assert a.strings["parameters"][next(iter(params))] == j["parameters"][next(iter(params))]
