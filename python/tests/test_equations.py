"""System.equations: the symbolic equations of motion as sympy objects.

Reference: the numerical accelerations of System.accel in the same
formulation. The sympy equations, with the state and the default
parameters substituted, are solved by sympy for their unknowns; the
accelerations must agree to 1e-10 (double). tests/test_equations.cpp
checks every formulation of every study to 1e-12 and 1e-40; this checks
the Python route (the sympy format, parsed by sympy itself).
"""

from __future__ import annotations

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
