"""sympy expressions <-> nhs.

sympy expressions -> the text of a system file (docs/system-files.md):
System.from_sympy writes this text and loads it with the file loader, so a
system made from sympy is the same system as the file: the same parser,
the same checks (metric, constraints, chart, bodies), the same traced field.

nhs's equations -> sympy expressions (System.equations): built from the
nested tuples of System._equations_tree by sympy's constructors, never by
exec, eval, sympify or parse_expr of text.
"""

from __future__ import annotations

import re

import sympy
from sympy.printing.str import StrPrinter

from ._core import UsageError

# sympy function class name -> the file syntax's function (Expressions, in
# docs/system-files.md).
_FUNCTIONS = {
    "sin": "sin", "cos": "cos", "tan": "tan", "asin": "asin", "acos": "acos", "atan": "atan",
    "atan2": "atan2", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "asinh": "asinh",
    "acosh": "acosh", "atanh": "atanh", "exp": "exp", "log": "log", "Abs": "abs",
}
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")


class _FilePrinter(StrPrinter):
    """sympy's str, with the file syntax's names: ^ for powers, abs, exp(1)
    for E, exact rationals and decimals."""

    def _print_Pow(self, expr, rational=False):
        return super()._print_Pow(expr, rational).replace("**", "^")

    def _print_Abs(self, expr):
        return f"abs({self._print(expr.args[0])})"

    def _print_Exp1(self, expr):
        return "exp(1)"

    def _print_Pi(self, expr):
        return "pi"

    def _print_Float(self, expr):
        # every digit of the Float's binary value that tells it apart
        # (repr_dps: 17 for a 53-bit float), read back exactly by the loader
        from mpmath.libmp import repr_dps, to_str
        return to_str(expr._mpf_, repr_dps(expr._prec))

    def _print_Function(self, expr):
        name = type(expr).__name__
        if name not in _FUNCTIONS:
            raise UsageError(f"from_sympy: function {name} cannot be written in a system file "
                             f"(known: {', '.join(sorted(set(_FUNCTIONS.values())))}, sqrt, pow)")
        return f"{_FUNCTIONS[name]}({', '.join(self._print(a) for a in expr.args)})"

    def _print_Derivative(self, expr):
        raise UsageError(f"from_sympy: {expr}: only first derivatives of the coordinates "
                         f"(their velocities) may appear")

    def _print_Symbol(self, expr):
        name = expr.name
        if not _NAME.match(name):
            raise UsageError(f"from_sympy: symbol name {name!r} is not a file name (letters, "
                             f"digits and '_', starting with a letter)")
        return name

    def emptyPrinter(self, expr):
        raise UsageError(f"from_sympy: {expr!r} ({type(expr).__name__}) cannot be written in a "
                         f"system file")


def _quote(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _excluded(table, where):
    """{formulation: reason} as the file's `excluded` inline table."""
    if not isinstance(table, dict):
        raise UsageError(f"from_sympy: {where}: excluded must be a dict {{formulation: reason}}")
    return "excluded = { " + ", ".join(f"{_quote(str(k))} = {_quote(str(v))}" for k, v in table.items()) + " }"


class _Writer:
    def __init__(self, coordinates, velocities):
        t = sympy.Symbol("t")
        self.names = []
        self.subs = {}
        if velocities is not None and len(velocities) != len(coordinates):
            raise UsageError(f"from_sympy: {len(velocities)} velocities for "
                             f"{len(coordinates)} coordinates")
        for k, c in enumerate(coordinates):
            if isinstance(c, sympy.Symbol):
                name = c.name
                if velocities is None:
                    raise UsageError(f"from_sympy: coordinate {name} is a plain Symbol: give "
                                     f"velocities=[...], or use dynamicsymbols")
                self.subs[velocities[k]] = sympy.Symbol(name + "_dot")
            elif isinstance(c, sympy.core.function.AppliedUndef) and len(c.args) == 1:
                name = type(c).__name__
                t = c.args[0]
                self.subs[c.diff(t)] = sympy.Symbol(name + "_dot")
                self.subs[c] = sympy.Symbol(name)
            else:
                raise UsageError(f"from_sympy: coordinate {c!r} is neither a Symbol nor a "
                                 f"dynamicsymbol q(t)")
            if not _NAME.match(name):
                raise UsageError(f"from_sympy: coordinate name {name!r} is not a file name")
            self.names.append(name)
        self.by_coordinate = dict(zip(coordinates, self.names))
        self.printer = _FilePrinter()

    def coordinate_name(self, key):
        if isinstance(key, str):
            return key
        if key in self.by_coordinate:
            return self.by_coordinate[key]
        sub = self.subs.get(key)  # q.diff(t) or a plain velocity symbol
        if sub is not None and sub.name.endswith("_dot"):
            return sub.name[:-4]
        raise UsageError(f"from_sympy: {key!r} is not one of the coordinates")

    def expr(self, e):
        if isinstance(e, str):
            return e
        e = sympy.sympify(e)
        # derivatives first (q.diff(t) contains q(t))
        derivs = {k: v for k, v in self.subs.items() if isinstance(k, sympy.Derivative)}
        rest = {k: v for k, v in self.subs.items() if not isinstance(k, sympy.Derivative)}
        e = e.subs(derivs).subs(rest)
        return self.printer.doprint(e)

    def value(self, v):
        if isinstance(v, str):
            return v
        if isinstance(v, bool):
            raise UsageError(f"from_sympy: expected a number, got {v!r}")
        if isinstance(v, float):
            return repr(v)
        if isinstance(v, int):
            return str(v)
        return self.expr(v)


def system_file_text(coordinates, constraints, kinetic_energy=None, *, velocities=None,
                     potential=None, forces=None, parameters=None, quasi_velocities=None,
                     parametrization=None, chart=None, dependent_velocities=None, initial=None,
                     bodies=None, invariants=None, singular=None, exact=None, name="sympy-system",
                     title="a system from sympy expressions", source="nhs.System.from_sympy"):
    """The system file's text for System.from_sympy (see its docstring)."""
    w = _Writer(list(coordinates), velocities)
    lines = [f"name = {_quote(name)}", f"title = {_quote(title)}", f"source = {_quote(source)}",
             "coordinates = [" + ", ".join(_quote(n) for n in w.names) + "]"]
    if quasi_velocities is None and parametrization:
        quasi_velocities = _quasi_velocities_of(w, parametrization, chart, parameters)
    if quasi_velocities:
        lines.append("quasi_velocities = [" + ", ".join(_quote(str(z)) for z in quasi_velocities) + "]")
    if dependent_velocities:
        lines.append("dependent_velocities = [" + ", ".join(
            _quote(w.coordinate_name(c)) for c in dependent_velocities) + "]")
    if parameters:
        lines.append("\n[parameters]")
        for p, v in parameters.items():
            if isinstance(v, tuple):
                lines.append(f"{p} = {{ default = {_quote(w.value(v[0]))}, meaning = {_quote(v[1])} }}")
            else:
                lines.append(f"{p} = {_quote(w.value(v))}")
    if kinetic_energy is not None or potential is not None or forces:
        lines.append("\n[dynamics]")
        if kinetic_energy is not None:
            lines.append(f"kinetic_energy = {_quote(w.expr(kinetic_energy))}")
        if potential is not None:
            lines.append(f"potential = {_quote(w.expr(potential))}")
        if forces:
            lines.append("forces = { " + ", ".join(
                f"{w.coordinate_name(c)} = {_quote(w.expr(f))}" for c, f in forces.items()) + " }")

    def table(title, items, key):
        """[title] with one `key(k) = "expression"` line per item."""
        if items:
            lines.append(f"\n[{title}]")
            lines.extend(f"{key(k)} = {_quote(w.expr(e))}" for k, e in items)

    table("constraints", constraints.items() if isinstance(constraints, dict)
          else ((f"C{a + 1}", c) for a, c in enumerate(constraints)), lambda k: _quote(str(k)))
    table("parametrization", (parametrization or {}).items(), lambda c: f"{w.coordinate_name(c)}_dot")
    table("chart", (chart or {}).items(), str)
    if initial:
        lines.extend(_initial_lines(w, initial))
    for body in bodies or []:
        lines.extend(_body_lines(w, body))
    table("invariants", (invariants or {}).items(), str)
    table("singular", (singular or {}).items(), str)
    for motion in exact or []:
        lines.extend(_exact_lines(w, motion))
    return "\n".join(lines) + "\n"


def _quasi_velocities_of(w, parametrization, chart, parameters):
    """The quasi-velocities z of a parametrization given without them: the
    chart's symbols, else the symbols of psi that are neither coordinates,
    velocities, parameters nor t (in the order sympy sorts them)."""
    if chart:
        return list(chart.keys())
    known = set(w.names) | {n + "_dot" for n in w.names}
    known |= {str(p) for p in (parameters or {})}
    found = []
    for e in parametrization.values():
        for s in sorted(sympy.sympify(e).free_symbols, key=str):
            if str(s) not in known and s not in found and str(s) != "t":
                found.append(s)
    return found


def _initial_lines(w, initial):
    """The [initial] table; nhs.UsageError for an unknown key."""
    lines = ["\n[initial]"]
    for key in ("q", "qdot", "z"):
        if key in initial:
            lines.append(f"{key} = [" + ", ".join(_quote(w.value(v)) for v in initial[key]) + "]")
    if "excluded" in initial:
        lines.append(_excluded(initial["excluded"], "initial"))
    unknown = set(initial) - {"q", "qdot", "z", "excluded"}
    if unknown:
        raise UsageError(f"from_sympy: initial: unknown keys {sorted(unknown)} (q, qdot, z, excluded)")
    return lines


def _body_lines(w, body):
    """One [[bodies]] table."""
    lines = ["\n[[bodies]]"]
    for key, v in body.items():
        if key in ("position", "angular_velocity") and isinstance(v, (list, tuple)):
            lines.append(f"{key} = [" + ", ".join(_quote(w.expr(e)) for e in v) + "]")
        elif key == "inertia" and isinstance(v, (list, tuple, sympy.MatrixBase)):
            rows = [list(r) for r in (v.tolist() if isinstance(v, sympy.MatrixBase) else v)]
            lines.append("inertia = [" + ", ".join(
                "[" + ", ".join(_quote(w.expr(e)) for e in r) + "]" for r in rows) + "]")
        else:
            lines.append(f"{key} = {_quote(w.expr(v))}")
    return lines


def _exact_lines(w, motion):
    """One [[exact]] table."""
    lines = ["\n[[exact]]"]
    for key, v in motion.items():
        if key in ("q", "qdot"):
            lines.append(f"{key} = [" + ", ".join(_quote(w.expr(e)) for e in v) + "]")
        elif key == "parameters":
            lines.append("parameters = { " + ", ".join(
                f"{p} = {_quote(w.value(x))}" for p, x in v.items()) + " }")
        elif key == "name":
            lines.append(f"name = {_quote(v)}")
        elif key == "excluded":
            lines.append(_excluded(v, "exact"))
        else:
            lines.append(f"{key} = {_quote(w.value(v))}")
    return lines


# The file syntax's functions (nhs/expression.hpp) -> sympy's.
_SYMPY_FUNCTIONS = {
    "sin": sympy.sin, "cos": sympy.cos, "tan": sympy.tan, "asin": sympy.asin, "acos": sympy.acos,
    "atan": sympy.atan, "atan2": sympy.atan2, "sinh": sympy.sinh, "cosh": sympy.cosh, "tanh": sympy.tanh,
    "asinh": sympy.asinh, "acosh": sympy.acosh, "atanh": sympy.atanh, "exp": sympy.exp, "log": sympy.log,
    "sqrt": sympy.sqrt, "abs": sympy.Abs, "pow": sympy.Pow,
}


def expression_of(tree, symbols):
    """The sympy expression of a tree of System._equations_tree: ("number",
    text) as sympy.Integer, or sympy.Float for a decimal; ("name", n) as
    symbols[n] (pi as sympy.pi); ("neg", a) and (op, a, b) by sympy's
    arithmetic (Add, Mul, Pow: what a + b, a * b, a ** b make); ("call", f,
    args...) by the sympy function of _SYMPY_FUNCTIONS. The same expression
    as parse_expr of the text format gave (the text's grammar is Python's).
    UsageError for anything else."""
    op = tree[0]
    if op == "number":
        text = tree[1]
        return sympy.Float(text) if any(c in text for c in ".eE") else sympy.Integer(text)
    if op == "name":
        if tree[1] in symbols:
            return symbols[tree[1]]
        if tree[1] == "pi":
            return sympy.pi
        raise UsageError(f"equations: the name {tree[1]!r} is not one of the equations' symbols")
    if op == "call":
        if tree[1] not in _SYMPY_FUNCTIONS:
            raise UsageError(f"equations: unknown function {tree[1]!r}")
        return _SYMPY_FUNCTIONS[tree[1]](*(expression_of(a, symbols) for a in tree[2:]))
    args = [expression_of(a, symbols) for a in tree[1:]]
    if op == "neg":
        return -args[0]
    binary = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
              "div": lambda a, b: a / b, "pow": lambda a, b: a ** b}
    if op not in binary or len(args) != 2:
        raise UsageError(f"equations: unknown node {op!r}")
    return binary[op](*args)


def equations_of(data):
    """(symbols, definitions, equations, unknowns) of System._equations_tree's
    dict: symbols name -> Symbol(name, real=True), definitions as (Symbol,
    expression) pairs, equations as sympy.Eq, unknowns as Symbols."""
    symbols = {name: sympy.Symbol(name, real=True) for name in data["symbols"]}
    definitions = [(symbols[name], expression_of(value, symbols)) for name, value in data["definitions"]]
    equations = [sympy.Eq(expression_of(lhs, symbols), expression_of(rhs, symbols))
                 for lhs, rhs in data["equations"]]
    return symbols, definitions, equations, [symbols[name] for name in data["unknowns"]]
