"""nhs: the dynamics of non-holonomic mechanical systems, from Python.

The module is the `nhs` command-line tool's library seen from Python: the
same systems (built-in studies, system files, and systems written as sympy
expressions), the same formulations and precisions, the same numbers.

    >>> import nhs
    >>> skate = nhs.study("skate")
    >>> a = skate.accel(q=[0, 0, 0.3], z=[1, 0.5])      # qdot = psi(q, z), on C
    >>> a.qddot, a.multipliers, a.reaction          # NumPy arrays (float64)
    >>> run = skate.run(t_end=20, dt_out=0.1, precision="mp50")
    >>> run["x"], run.summary["max_C"], run.to_pandas()

Shapes: q, qdot, qddot and the reaction R_i have size n (the coordinates),
the multipliers lambda_a size r (the constraints), z size m (the
quasi-velocities: m = n - r for a system with a parametrization psi, 0
without one). Units are the system's own (the studies are
non-dimensional, docs/studies.md).

Precisions: "double" and "long-double" return NumPy arrays of float64 and
np.longdouble holding the binary values the library computed; "float128",
"mp50" and "mp100" return object arrays of mpmath.mpf made exactly from the
library's binary digits, whatever mpmath.mp.prec is (strings when mpmath is
missing). accel's result also carries `.strings`: the numbers as the CLI
prints them.

Numbers going in are read as the CLI reads its options, exactly in the
precision of the call: a str as written ("0.1" is the nearest value to 1/10
in mp50), a float as the double it is in double and by its shortest repr
above (0.1 too), an mpmath.mpf exactly from its binary mantissa and
exponent, correctly rounded to the precision.

Errors are exceptions carrying the library's messages:
  nhs.UsageError        unknown names, malformed numbers or files (ValueError)
  nhs.InvalidState      a state off the constraint manifold C, or on a
                        singular set: .condition names which (ValueError)
  nhs.IntegrationError  a run that cannot go on, a value that overflows;
                        .run holds the rows computed before (ArithmeticError)
  nhs.IOError           output that cannot be written (OSError)
all subclasses of nhs.Error. A run stopped by Ctrl-C raises
KeyboardInterrupt and leaves the interpreter usable.

Sources: the formulations follow Benenti's and Lemos's papers, cited in
docs/references.md; the README's table of formulations gives each one's
equations (e.g. the second kind: 001 Thm 8.1-8.2, 000 eqs. 43-49), and the
C++ headers (lib/include/nhs/<formulation>.hpp) derive them in full.
"""

from __future__ import annotations

import functools
import inspect
import os

from . import _core
from ._core import (MAX_ROWS, Acceleration, CheckReport, Error, Field, IntegrationError, InvalidState, IOError,
                    Linearization, StabilityScan, UsageError, precisions, steppers)

__all__ = ["System", "Run", "Animation", "Acceleration", "Field", "Linearization", "StabilityScan", "CheckReport",
           "study", "studies", "load", "precisions", "steppers", "MAX_ROWS", "Error", "UsageError", "InvalidState",
           "IntegrationError", "IOError"]


class Run:
    """An integrated motion (System.run): the CSV of `nhs run` as columns.

    Attributes:
      columns: the column names, in the CLI's order: t, the coordinates
        q^i, their velocities <name>_dot, energy, the constraint residuals
        C^a (by the system's names), the invariants (an invariant whose
        name repeats a column is invariant_<name>; summary["invariants"]
        keeps the plain name), the margins to the singular sets, and
        "error" when a motion with a closed form is run (run(motion=...)).
      t: the output times (column "t").
      summary: dict: study, formulation, precision, stepper, completed,
        failure, samples, t_last, steps, rhs_calls, projections, max_C,
        E0, energy_drift (max |E - E0|), energy_conserved, invariants
        (name -> {drift, conserved, undefined_rows}), min_margin_name and
        min_margin (when the system has singular sets), wall_seconds.
    run["x"] is a column: a NumPy array (float64, np.longdouble, or an
    object array of mpmath.mpf above long double); NaN (None above long
    double) where an invariant is not defined.
    """

    def __init__(self, raw, source=None):
        import numpy as np
        self._source = source  # (system, the arguments of System._run, the state's names): Run.animate
        self.columns = list(raw["columns"])
        self.summary = dict(raw["summary"])
        data = raw["data"]
        if isinstance(data, np.ndarray):
            self._data = {c: data[:, k] for k, c in enumerate(self.columns)}
        else:
            convert = _mp_converter(self.summary["precision"])
            cols = list(zip(*data)) if data else [()] * len(self.columns)
            self._data = {c: np.array([convert(v) if v != "" else None for v in col], dtype=object)
                          for c, col in zip(self.columns, cols)}

    @property
    def t(self):
        return self._data["t"]

    def __getitem__(self, column):
        try:
            return self._data[column]
        except KeyError:
            raise KeyError(f"no column {column!r} (columns: {', '.join(self.columns)})") from None

    def __len__(self):
        return len(self._data["t"])

    def to_pandas(self):
        """The columns as a pandas.DataFrame, in the order of self.columns.

        pandas is optional (scripts/setup.sh installs Debian's
        python3-pandas): without it, ModuleNotFoundError naming the package.
        """
        try:
            import pandas as pd
        except ImportError:
            raise ModuleNotFoundError(
                "Run.to_pandas() needs pandas, which is not installed: on Debian "
                "`apt-get install python3-pandas` (scripts/setup.sh installs it); "
                "the columns are also run[name], NumPy arrays", name="pandas") from None
        return pd.DataFrame({c: self._data[c] for c in self.columns})

    def animate(self, path, fps=30, three="/usr/share/javascript/three"):
        """Writes this run as the animation folder of `nhs animate` and returns an nhs.Animation.

        path: the folder to write (index.html, data.js, three.min.js,
        OrbitControls.js; docs/animation.md), new, empty, or an earlier
        animation of nhs, which is replaced as a whole; it is written under a
        temporary name and renamed into place. fps: samples per unit of
        simulated time. three: the directory of three.js r111 (Debian's
        libjs-three, which scripts/setup.sh installs).

        How it samples: the motion is integrated again, from the same system,
        parameters, initial state and options as this run, with the output
        grid dt_out = 1 / fps, exactly as `nhs animate --fps FPS` with the
        same options runs it. This run's own rows are not used: their grid
        (dt_out) may be coarser or finer than 1 / fps, and the folder is the
        tool's, byte for byte (data.js's "command" aside, which records
        the Python call). max_rows does not apply; the animation's own bound
        does.

        Raises nhs.UsageError before any step, naming what is wrong: a path
        that is a file or a folder with other files, an fps outside
        (0, 1e6], three.js missing, a system without bodies to draw (no
        [[bodies]] in its file, a study without bodies), more than
        2,000,000 samples x (bodies + contacts); nhs.IOError when the folder
        cannot be written. A run that stops (a singular set) writes what was
        integrated, with the reason on the page and in Animation.stopped.
        In Jupyter the returned object shows the page inline (an IFrame of
        the written folder).
        """
        if self._source is None:
            raise UsageError("Run.animate: this run does not know its system (it was not made by System.run)")
        system, args, names = self._source
        command = f"{system.name}.run(...).animate({str(path)!r}, fps={fps!r})"
        raw = system._run(*args, state_names=names,
                          animate={"path": str(path), "fps": fps, "three": str(three), "command": command})
        return Animation(raw)

    def __repr__(self):
        s = self.summary
        return (f"Run({s['study']}, {s['formulation']}, {s['precision']}, {s['stepper']}: "
                f"{len(self)} rows to t = {s['t_last']}, {s['rhs_calls']} RHS calls, "
                f"max |C| = {s['max_C']})")


class Animation:
    """An animation folder written by Run.animate (docs/animation.md).

    Attributes:
      path: the folder (absolute); path/index.html opens offline.
      samples, t_last: the samples drawn and the last one's time.
      bodies, contacts: how many bodies and contact points are drawn.
      stopped: "" when the run reached its end, else the reason it stopped
        (a singular set), which the page shows too.
    In Jupyter (_repr_html_) it shows as an IFrame of path/index.html: no
    widget library; the notebook's server must serve the folder (a path
    under the notebook's directory), or the browser open it as a file.
    """

    def __init__(self, raw, width=800, height=500):
        self.path = raw["path"]
        self.samples = raw["samples"]
        self.t_last = raw["t_last"]
        self.bodies = raw["bodies"]
        self.contacts = raw["contacts"]
        self.stopped = raw["stopped"]
        self.width, self.height = width, height

    def _src(self):
        import os
        page = os.path.join(self.path, "index.html")
        try:
            relative = os.path.relpath(page)
        except ValueError:
            relative = None
        if relative is not None and not relative.startswith(".."):
            return relative
        return "file://" + page

    def _repr_html_(self):
        import html
        return (f'<iframe src="{html.escape(self._src(), quote=True)}" width="{self.width}" '
                f'height="{self.height}" style="border: 0"></iframe>')

    def __repr__(self):
        end = f"; stopped: {self.stopped}" if self.stopped else ""
        return (f"Animation({self.path}: {self.samples} samples to t = {self.t_last:.6g}, "
                f"{self.bodies} bodies, {self.contacts} contacts{end})")


def _mp_converter(precision):
    """str -> mpmath.mpf, exact at the precision's binary digits (str when
    mpmath is missing)."""
    bits = _core.binary_digits().get(precision)
    try:
        import mpmath
        from mpmath.libmp import from_str
    except ImportError:
        return str
    return lambda s: mpmath.mp.make_mpf(from_str(s, bits, "n"))


def _binding_doc(binding):
    """The docstring of a method of _core, without the signature line that
    pybind11 puts first (the Python method has its own signature)."""
    doc = binding.__doc__ or ""
    return doc.split("\n\n", 1)[1] if "\n\n" in doc else doc


def _arguments_checked(method):
    """The method, whose calls with arguments that do not fit its signature
    (an unknown keyword, a missing or surplus argument) raise nhs.UsageError
    naming the method and the argument rather than Python's TypeError; its
    signature stays inspect.signature's. A call that fits costs nothing
    more: the arguments are checked only when the call raised TypeError."""
    signature = inspect.signature(method)

    @functools.wraps(method)
    def checked(*args, **kwargs):
        try:
            return method(*args, **kwargs)
        except TypeError:
            try:
                signature.bind(*args, **kwargs)
            except TypeError as e:
                parameters = ", ".join(p for p in signature.parameters if p != "self")
                raise UsageError(f"{method.__name__}(): {e} (its arguments: {parameters})") from None
            raise

    return checked


class Equations:
    """One formulation's equations of motion as sympy objects
    (System.equations): formulation, title, symbols (name -> Symbol),
    definitions (list of (Symbol, expression)), equations (list of Eq) and
    unknowns (the symbols the equations are linear in: <q>_ddot, <z>_dot,
    lambda_<constraint>)."""

    def __init__(self, formulation, data):
        from ._sympy import equations_of
        self.formulation = formulation
        self.title = data["title"]
        self.symbols, self.definitions, self.equations, self.unknowns = equations_of(data)

    def __repr__(self):
        return f"<nhs.Equations {self.formulation}: {len(self.equations)} equations>"


class System(_core.System):
    """A non-holonomic system: a built-in study, a system file, or one made
    from sympy expressions (System.from_sympy).

    System(name): name is a study id (nhs.studies()) or the path of a system
    file (docs/system-files.md); nhs.UsageError for an unknown name or a
    file the loader refuses (with file:line:col).

    Properties: name, title, source, coordinates (n names), quasi_velocities
    (m), constraints (r), n, m, r, parameters (name -> default, decimal
    strings), is_file; formulations() lists those that apply.
    """

    toml = None  # the system file's text, for a system made by from_sympy or from_text
    _given_name = None  # the name given to from_sympy or from_text, shown in place of the key

    @property
    def name(self):
        """The study id or the file's path; for a system made by from_sympy
        or from_text, the name given to it."""
        return self._given_name or _core.System.name.fget(self)

    @property
    def path(self):
        """The study id or the system file's path; for a system made from
        text (from_sympy, from_text), which has no file, the key that names
        it to the library: "text:<k>/<name>" (k numbers the distinct texts)."""
        return _core.System.name.fget(self)

    @_arguments_checked
    def accel(self, q=None, qdot=None, z=None, formulation=None, precision="double", params=None, field=None,
              manifold_tol=None, singular_margin=None, jacobian=False, t=None):
        return _core.System.accel(self, q, qdot, z, formulation, precision, params, field, manifold_tol,
                                  singular_margin, jacobian, t)

    accel.__doc__ = _binding_doc(_core.System.accel)

    @_arguments_checked
    def field(self, formulation=None, precision="double", params=None, field=None):
        return _core.System.field(self, formulation, precision, params, field)

    field.__doc__ = _binding_doc(_core.System.field)

    @_arguments_checked
    def run(self, t_end=None, dt_out=0.1, formulation=None, precision="double", stepper="auto",
            rtol=None, atol=None, project=False, q0=None, qdot0=None, z0=None, params=None,
            field=None, max_rhs_calls=None, singular_margin=None, manifold_tol=None, step=None,
            motion=None, max_rows=None, max_wall_time=None, t0=None, *, q=None, qdot=None, z=None):
        """Integrates a motion as `nhs run` does, and returns an nhs.Run.

        t_end, dt_out: the output times 0, dt_out, ..., t_end (t_end: 10 by
        default, or the motion's). motion: a special motion (System.motions()
        names them; a name or a 1-based number): its parameters, initial
        state and t_end, with the column "error" (max-norm over q, qdot
        against its closed form) and summary["max_error"]. stepper: one
        of nhs.steppers() ("auto": verner87 or dopri5 up to long double,
        Bulirsch-Stoer above; docs/numerics.md; "dla", "nh-rattle", "nh-midpoint": the
        fixed-step discrete Lagrange-d'Alembert methods, of step `step`,
        default 0.01, for linear constraints). rtol, atol: per-step
        tolerances (default: the precision's, docs/numerics.md). project:
        project (q, qdot) onto C after every step. q0 and qdot0 or z0 (or
        q, qdot, z, accel's names for them): the initial state (default: the
        system's); giving both names of one is nhs.UsageError. t0: the time at the start,
        for a system that depends on t (`nhs run --t0`: its clock
        coordinate's initial value; the column t stays the time since the
        start). The other arguments are as
        in accel; singular_margin defaults to 1e-6 here. A built-in study
        runs its generated field where it has one (field="library" for the
        library's formulation), a system file its traced field.

        The rows are kept in memory: a grid of more than max_rows rows
        (t_end / dt_out + 1; default nhs.MAX_ROWS, 10 million, about 1 GB
        for 12 columns in double) is nhs.UsageError before any step, naming
        the rows and the budget. Give a larger dt_out, a larger max_rows,
        or use `nhs run --out`, which streams its rows to a file.

        max_wall_time: seconds of wall time (counted from the end of the
        set-up, checked after every step and every row) after which the run
        stops with nhs.IntegrationError, its rows kept in .run, as
        `nhs run --max-wall-time` (docs/cli.md, "Budgets").

        Types: numbers are int, float, decimal str or mpmath.mpf; vectors
        lists, tuples or 1-D NumPy arrays of them (or the CLI's
        comma-separated str); formulation, precision, stepper and field str;
        project bool; max_rhs_calls and max_rows int; max_wall_time a number; motion str or int;
        params a dict. Anything else (bytes, a dict or set as a vector, a
        masked array) is nhs.UsageError naming the argument.

        The GIL is released while it runs; Ctrl-C raises KeyboardInterrupt.
        Raises nhs.UsageError before any step; nhs.IntegrationError
        (step-size failure, RHS budget, a value not finite) or
        nhs.InvalidState (a singular set reached, .condition) during the
        run, with the rows computed so far in the exception's .run.
        """
        state, names = [], []
        for name, value, alias, alias_value in (("q0", q0, "q", q), ("qdot0", qdot0, "qdot", qdot),
                                                ("z0", z0, "z", z)):
            if value is not None and alias_value is not None:
                raise UsageError(f"run(): {name} and {alias} are one argument (the initial {alias}): give one")
            state.append(alias_value if alias_value is not None else value)
            names.append(alias if alias_value is not None else name)
        args = (t_end, dt_out, formulation, precision, stepper, rtol, atol, project, *state, params, field,
                max_rhs_calls, singular_margin, manifold_tol, step, motion, max_rows, max_wall_time, t0)
        raw = self._run(*args, state_names=names)
        run = Run(raw, (self, args, names))
        kind = run.summary.get("failure_kind")
        if kind:  # the exception of the error table's row (nhs/session/error_table.hpp)
            exc = globals()[run.summary["failure_exception"]](run.summary["failure"])
            if kind == "singular":
                exc.condition = run.summary["condition"]
            exc.run = run
            raise exc
        return run

    @_arguments_checked
    def check(self, precision="double,mp50", states=50, quick=False, jobs=0, out_dir=None):
        """`nhs check` on this system: every applicable formulation against
        the others at random states, the exact motions, energy, |C| and the
        invariants, in each precision (a comma-separated list, or "all").

        Returns an nhs.CheckReport, made in C++ from the checks' typed
        report (nothing is read back from a file): the fields of
        summary.json (docs/cli.md, "check") as items and attributes:
        report["pass"] (bool), rows (one dict per study, formulation and
        precision), failures and notes (lists of str), settings, checks,
        runs, digits, tool, command, system, generated, quick and
        wall_seconds; numbers are float (None where summary.json has
        null); to_dict() gives them as a dict, equal to json.load of the
        summary.json written with them. out_dir (str or os.PathLike): also
        write summary.md, summary.json and trajectories/*.csv there, as
        `nhs check --out-dir`; None (the default): nothing is written
        anywhere, and each run's "csv" is "". jobs: worker threads (0: one
        per core). The GIL is released while it runs. nhs.UsageError for an
        argument of the wrong type, nhs.IOError when out_dir cannot be
        written.
        """
        if out_dir is not None:
            if not isinstance(out_dir, (str, os.PathLike)):
                raise UsageError(f"out_dir: expected a str or os.PathLike, got {type(out_dir).__name__}")
            out_dir = os.fspath(out_dir)
        return self._check(precision, states, quick, jobs, out_dir)

    @_arguments_checked
    def equations(self, formulation="first-kind", max_derivation_size=None):
        """The equations of motion of one formulation as sympy expressions
        (the `sympy` format of `nhs equations`, docs/equations.md).

        Returns an Equations object: .equations (list of sympy Eq, linear in
        .unknowns), .definitions (list of (Symbol, expression): the
        kinematic relations and the names the equations use, such as
        Voronec's b coefficients), .unknowns, .symbols (name -> Symbol) and
        .title. nhs.UsageError for an unknown formulation or one that does
        not apply (with the reason), and for a system whose estimated
        derivation size (n^2 x traced nodes) exceeds max_derivation_size
        (default 4e5, as `nhs equations --max-derivation-size`,
        docs/equations.md "Limits"). Needs sympy.
        """
        if not isinstance(formulation, str):
            raise UsageError(f"formulation: expected a str, got {type(formulation).__name__}")
        # data, not code: the sides as trees, built into sympy objects by
        # their constructors (_sympy.expression_of)
        if max_derivation_size is None:
            return Equations(formulation, self._equations_tree(formulation))
        if isinstance(max_derivation_size, bool) or not isinstance(max_derivation_size, (int, float)) \
                or not max_derivation_size > 0:
            raise UsageError(f"max_derivation_size: expected a positive number, got {max_derivation_size!r}")
        return Equations(formulation, self._equations_tree(formulation, float(max_derivation_size)))

    @_arguments_checked
    def classify(self):
        """The classification of the constraints, as `nhs list NAME` shows
        it (docs/constraint-classification.md): computed numerically in
        mp100 at the default parameters, at 3 points near the default q.

        Returns a dict:
          constraints: per constraint C^a (r), {name, linear, affine,
            homogeneous, degree} (affine: A(q) qdot + a0(q) with a0 != 0, a
            moving support, docs/affine-constraints.md; degree: the k of
            C(q, s qdot) = s^k C(q, qdot), or None);
          frobenius: {done, skipped (why not done), frame (the independent
            velocities naming the fields X_alpha of ker A), growth (the growth
            vector), hidden_holonomic (how many holonomic constraints the
            linear constraints imply), brackets (per pair: pair, and
            constraint_forms = A [X_alpha, X_beta], r values), combinations
            (per hidden holonomic constraint: mu, r coefficients of the
            constraints, and nu, the n coefficients of its form),
            largest_bracket_form, largest_inside_residual};
          cyclic: coordinates on which T, C and the forces do not depend;
          chaplygin: True for Chaplygin's form; coordinates; sample_points.
        The mp100 values are mpmath numbers (str without mpmath).
        Raises nhs.InvalidState when dC/dqdot has rank < r at every point
        tried near the default q (.condition "rank loss of dC/dqdot") or
        when a rank is undecided, nhs.IntegrationError where a value is
        not finite.
        """
        return self._classify()

    @_arguments_checked
    def linearize(self, steady, at=None, formulation="first-kind", precision="double", params=None):
        """The linear stability of a steady motion, as `nhs linearize`
        (docs/linearization.md): the Jacobian of the field on C in (q, z),
        by forward differentiation of the traced field, split into the
        ignorable coordinates, the family's tangent and the rest.

        steady: a family's name (nhs list SYSTEM names them); at: {mu:
        value} for each of its parameters; formulation: first-kind or
        gibbs-appell; params: {name: value} overrides.

        Returns an nhs.Linearization, whose fields are attributes and, as
        a dict's, items (lin.eigenvalues is lin["eigenvalues"]; keys(),
        get(), to_dict()): eigenvalues (the motion's, complex),
        error_bounds (one per eigenvalue),
        verdict ("unstable", "undecided", "asymptotically stable" or
        "linearly stable, not asymptotically: ..."), unstable, marginal,
        undecided (eigenvalues whose real part's sign the precision cannot
        tell),
        cyclic and reduced (names), state (names of x), x, jacobian (N x N),
        reduced_matrix, tangent, zero_eigenvalues {family, cyclic,
        holonomic} and residuals {steady, family, holonomic, tolerance},
        at (the family's values) and parameters ({name: value}).
        Numbers are the precision's: NumPy arrays of float64 (complex128)
        in double and of np.longdouble (np.clongdouble) in long-double;
        above, object arrays of mpmath.mpf (lists of mpmath.mpc) made
        exactly from the binary digits (113, 168 and 334 bits from
        float128 to mp100), whatever mpmath.mp.prec is.
        nhs.UsageError for an unknown family or parameter or an argument of
        the wrong type (naming it), nhs.InvalidState when the state is off
        C or not steady.
        """
        return self._linearize(steady, at, formulation, precision, params)

    @_arguments_checked
    def stability(self, steady, start, stop, points=101, vary="", at=None, formulation="first-kind",
                  precision="double", params=None, csv=""):
        """The eigenvalues of the steady motions of family `steady` for
        `points` values of its parameter `vary` (default: its only one) in
        [start, stop], as `nhs stability`: an nhs.StabilityScan (fields
        as attributes and items, as linearize's) with crossings (each a
        dict {at, kind ("real" or "complex pair"), frequency,
        unstable_below, unstable_above, method, bracket [lo, hi]}), refined
        by root finding to the precision's digits, as numbers of the
        precision (as linearize's), undecided (a list of the values of the
        grid where some eigenvalue's sign is undecided: no crossing is
        bracketed by them), and system, formulation, precision, steady,
        vary, from, to, points and csv (when given). csv: also write
        the eigenvalue table there (a str or os.PathLike). points: an int.
        nhs.UsageError for an argument of the wrong type, naming it.
        """
        if isinstance(csv, os.PathLike):
            csv = os.fspath(csv)
        return self._stability(steady, vary, start, stop, points, at, formulation, precision, params, csv)

    @classmethod
    def from_sympy(cls, coordinates, constraints, kinetic_energy=None, **kwargs):
        """A system from sympy expressions (sympy must be installed).

        coordinates: n sympy dynamicsymbols (velocities written q.diff(t))
          or plain Symbols, whose velocities are then given by
          velocities=[...] (same order).
        constraints: r expressions C^a(q, qdot) = 0, or {name: expression}.
        kinetic_energy: T(q, qdot) (optional when bodies are given).
        Optional: potential V(q); forces {coordinate: F_i(q, qdot)};
          parameters {symbol: default} (a number or a decimal string, or
          (default, meaning)); quasi_velocities [z symbols];
          parametrization {coordinate: expression in q, z} (psi: the
          coordinate's velocity); chart {z symbol: expression in q, qdot};
          dependent_velocities [coordinates]; initial {"q": [...], "qdot":
          [...]} or {"q": [...], "z": [...]} (numbers or expressions in the
          parameters; optionally "excluded": {formulation: reason}); bodies
          [{"mass", "position", "angular_velocity", "inertia"}]; invariants
          {name: expression}; singular {name: expression}; exact [{"name",
          "t_end", "q": [expressions in t], "parameters": {...},
          "excluded": {...}}]; name, title, source.

        The expressions are written as a system file's text
        (docs/system-files.md; the text is System.toml) and loaded from
        memory by the same loader and checks (System.from_text, named
        "<name>.toml"): the result is the same system as that file. No file
        is written. nhs.UsageError names an expression the file syntax
        cannot hold (an unknown function, a derivative of order 2) or what
        the loader refuses ("<name>.toml:line:column: ...").
        """
        from ._sympy import system_file_text
        text = system_file_text(coordinates, constraints, kinetic_energy, **kwargs)
        name = kwargs.get("name", "sympy-system")
        system = cls.from_text(text, f"{name}.toml")
        system._given_name = name
        return system

    @classmethod
    def from_text(cls, text, name="system.toml"):
        """The system file whose TOML text is `text` (a str), loaded from
        memory: no file is read or written. The loader, its checks and its
        errors are those of a file (docs/system-files.md), with `name` in
        place of the path: nhs.UsageError "name:line:column: reason". `name`
        (a str) also names the system when the text has no `name` key (its
        last '/'-part without ".toml"). The text is kept for the process's
        life, once per distinct (name, text): another text is another
        system, even under the same name. System.toml is the text.
        """
        if not isinstance(text, str):
            raise UsageError(f"text: expected a str (a system file's TOML text), got {type(text).__name__}")
        if not isinstance(name, str):
            raise UsageError(f"name: expected a str, got {type(name).__name__}")
        system = cls(_core.System._text_key(text, name))
        system.toml = text
        system._given_name = name
        return system

    def __repr__(self):
        return f"nhs.System({self.name!r}: n = {self.n}, r = {self.r}, m = {self.m})"


def studies():
    """The ids of the built-in studies (docs/studies.md)."""
    return _core.studies()


def study(name):
    """The built-in study `name` (nhs.studies()); nhs.UsageError otherwise."""
    return System(name)


def load(path):
    """The system file at `path` (docs/system-files.md); nhs.UsageError with
    file:line:col when the loader refuses it."""
    if not isinstance(path, (str, os.PathLike)):
        raise UsageError(f"path: expected a str or os.PathLike, got {type(path).__name__}")
    path = os.fspath(path)
    if not isinstance(path, str) or not path.endswith(".toml"):
        raise UsageError(f"{path}: a system file's name ends in .toml")
    return System(path)
