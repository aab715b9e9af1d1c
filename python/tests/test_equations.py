"""System.equations: the symbolic equations of motion as sympy objects.

Reference: the numerical accelerations of System.accel in the same
formulation. The sympy equations, with the state and the default
parameters substituted, are solved by sympy for their unknowns; the
accelerations must agree to 1e-10 (double). tests/test_equations.cpp
checks every formulation of every study to 1e-12 and 1e-40; this checks
the Python route (sympy objects built from the trees of
System._equations_tree, never from text run as code).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

import nhs

sympy = pytest.importorskip("sympy")

CASES = [("skate", "second-kind"), ("skate", "udwadia-kalaba"), ("skate", "lagrange-multipliers"),
         ("rolling-disc", "voronec"), ("rolling-disc", "second-kind"), ("massless-trailer", "lagrange-multipliers")]


def solved(system, eqs, accel):
    values = {eqs.symbols[k]: sympy.Rational(v) for k, v in system.parameters.items() if k in eqs.symbols}
    for name, q, qd in zip(system.coordinates, accel.q, accel.qdot):
        for key, value in ((name, q), (name + "_dot", qd)):
            if key in eqs.symbols:
                values[eqs.symbols[key]] = sympy.Float(value, 30)
    for symbol, expression in eqs.definitions:
        if symbol not in values:
            values[symbol] = expression.subs(values)
    system_of = [sympy.N(eq.lhs.subs(values) - eq.rhs.subs(values), 30) for eq in eqs.equations]
    (solution,) = sympy.linsolve(system_of, eqs.unknowns)
    return dict(zip([str(u) for u in eqs.unknowns], solution))


@pytest.mark.parametrize("name,formulation", CASES)
def test_sympy_equations_solve_to_the_numerical_accelerations(name, formulation):
    system = nhs.study(name)
    eqs = system.equations(formulation)
    assert eqs.formulation == formulation and eqs.title
    assert all(isinstance(eq, sympy.Eq) for eq in eqs.equations)
    assert len(eqs.equations) == len(eqs.unknowns)
    accel = system.accel(formulation=formulation)
    solution = solved(system, eqs, accel)
    for coordinate, want in zip(system.coordinates, accel.qddot):
        key = coordinate + "_ddot"
        if key in solution:
            assert abs(float(solution[key]) - want) <= 1e-10 * (1 + abs(want)), (key, solution[key], want)


def test_parameters_stay_symbols():
    eqs = nhs.study("rolling-disc").equations("second-kind")
    names = {str(s) for eq in eqs.equations for s in eq.free_symbols}
    assert set(nhs.study("rolling-disc").parameters) & names, names


def test_a_formulation_that_does_not_apply_is_a_usage_error():
    with pytest.raises(nhs.UsageError, match="gibbs-appell|voronec"):
        nhs.study("parallel-points").equations("voronec")
    with pytest.raises(nhs.UsageError, match="unknown formulation"):
        nhs.study("skate").equations("newton")


# --- System.equations builds sympy objects from data (issue 57, finding 2) ---

def _forbid_code_from_text(monkeypatch):
    """exec, eval, sympify and parse_expr raise while System.equations runs."""
    import builtins

    import sympy.parsing.sympy_parser as sympy_parser

    def refuse(*args, **kwargs):
        raise AssertionError("System.equations ran text as code")

    monkeypatch.setattr(builtins, "exec", refuse)
    monkeypatch.setattr(builtins, "eval", refuse)
    monkeypatch.setattr(sympy_parser, "parse_expr", refuse)
    monkeypatch.setattr(sympy, "sympify", refuse)


def _same_as_the_text_format(eqs, system, formulation, tools):
    """eqs (System.equations) against the CLI's text format, read by sympy's
    parser here (the test's own route): the same expressions, structurally."""
    from sympy.parsing.sympy_parser import convert_xor, parse_expr, standard_transformations

    p = tools.cli("equations", system, "--formulation", formulation, "--format", "text")
    assert p.returncode == 0, p.stderr
    lines = [l for l in p.stdout.splitlines() if l and not l.startswith("#")]
    read = lambda text: parse_expr(text, local_dict=eqs.symbols,
                                   transformations=standard_transformations + (convert_xor,))
    definitions = [l.split(" := ") for l in lines if " := " in l]
    equations = [l.split(" = ") for l in lines if " := " not in l]
    assert [(eqs.symbols[n], read(v)) for n, v in definitions] == eqs.definitions
    assert [sympy.Eq(read(a), read(b)) for a, b in equations] == eqs.equations


@pytest.mark.parametrize("name,formulation", CASES + [("rolling-sphere", "voronec"), ("bipendulum", "first-kind")])
def test_equations_are_built_without_running_text_and_equal_the_text_format(name, formulation, tools,
                                                                            monkeypatch):
    with monkeypatch.context() as m:
        _forbid_code_from_text(m)
        eqs = nhs.study(name).equations(formulation)
    _same_as_the_text_format(eqs, name, formulation, tools)


def test_a_file_name_that_would_be_code_stays_a_name(tmp_path, tools, monkeypatch):
    """A system file whose name holds a line break, quotes and a backslash:
    loading it and asking for its equations runs nothing, and gives the
    equations of the same file under a plain name."""
    text = open(tools.path("examples/chaplygin-sleigh.toml"), encoding="utf-8").read()
    plain = tmp_path / "sleigh.toml"
    plain.write_text(text, encoding="utf-8")
    hostile = tmp_path / 'w\n__import__("os").system("touch RAN") # "\\ \'.toml'
    hostile.write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with monkeypatch.context() as m:
        _forbid_code_from_text(m)
        got = nhs.load(str(hostile)).equations("second-kind")
    want = nhs.load(str(plain)).equations("second-kind")
    assert got.equations == want.equations and got.definitions == want.definitions
    # The CLI's module of the same file imports without running its name.
    p = tools.cli("equations", str(hostile), "--format", "sympy", "--out", str(tmp_path / "m.py"))
    assert p.returncode == 0, p.stderr
    r = subprocess.run([sys.executable, "-c", "import m; print(m.command)"], cwd=str(tmp_path),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert str(hostile) in r.stdout
    assert not (tmp_path / "RAN").exists()
