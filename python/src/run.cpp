// System.run (run.hpp): a run by simulate (nhs/session/simulate.hpp), its
// rows kept in memory, its summary.
#include "run.hpp"

#include "errors.hpp"

#include "nhs/session/animation.hpp"
#include "nhs/session/error_table.hpp"
#include "nhs/session/simulate.hpp"
#include "nhs/session/clock.hpp"
#include "nhs/session/motion_table.hpp"
#include "nhs/studies/motion_run.hpp"

#include <pybind11/stl.h>

#include <chrono>
#include <cmath>

namespace nhs::python {

namespace {

/// The memory one kept row of `columns` values takes, in bytes, for the
/// message of a refused grid: the values themselves in double and long
/// double (one array, no copy); above, the library's value, its decimal
/// string and the mpmath.mpf made from it (Run): about 400 bytes a value,
/// measured in mp50 (skate, 50,001 rows of 12 columns: +226 MB).
template <class S>
std::size_t row_bytes(std::size_t columns) {
  if constexpr (kFlat<S>) return columns * sizeof(S);
  else return columns * 400;
}

/// A run's rows kept for Python (System.run): in double and long double
/// one after the other in `flat`, handed to NumPy as they are; above, one
/// vector a row, turned into decimal strings ("" for NaN).
template <class S>
struct RunRows {
  static constexpr bool kFlat = python::kFlat<S>;
  std::vector<std::string> columns;
  std::vector<S> flat;
  std::vector<std::vector<S>> rows;
  std::size_t count = 0;

  void reserve(double planned) {
    if constexpr (kFlat) flat.reserve(static_cast<std::size_t>(planned) * columns.size());
  }
  void add(std::vector<S> row) {
    if constexpr (kFlat)
      flat.insert(flat.end(), row.begin(), row.end());
    else
      rows.push_back(std::move(row));
    ++count;
  }
  /// The rows as an (N, columns) NumPy array (double, long double; the
  /// array owns them, no copy) or a list of lists of decimal strings.
  py::object to_python() && {
    if constexpr (kFlat) {
      const std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(count), static_cast<py::ssize_t>(columns.size())};
      if (flat.empty()) return py::array_t<S>(shape);
      auto owned = std::make_unique<std::vector<S>>(std::move(flat));
      const S* values = owned->data();
      const py::capsule base(owned.get(), [](void* p) { delete static_cast<std::vector<S>*>(p); });
      owned.release();  // the capsule's now
      return py::array_t<S>(shape, values, base);
    } else {
      using boost::multiprecision::isnan;
      py::list data;
      for (const auto& row : rows) {
        py::list r;
        for (const auto& x : row) r.append(isnan(x) ? std::string() : to_string<S>(x));
        data.append(r);
      }
      return data;
    }
  }
};

/// The rows a run will keep in memory (t_end / dt_out + 1, as OutputTimes
/// counts them, to within one). UsageError, before any step, when they are
/// more than max_rows.
template <class S>
double planned_rows(const IntegrationOptions<S>& io, std::size_t ncols, std::uint64_t max_rows,
                    const std::string& precision) {
  const double ratio = static_cast<double>(io.t_end / io.dt_out);
  const double planned = std::ceil(ratio * (1 - 1e-12)) + 1;
  if (!(planned <= static_cast<double>(max_rows)))
    throw UsageError(fmt::format(
        "t_end / dt_out = {:.6g}: the run would keep {:.0f} rows of {} columns in memory, more than max_rows = "
        "{} (about {} bytes a row in {}); give a larger dt_out, raise max_rows (run(..., max_rows=N)), or "
        "write the rows to a file with `nhs run --out`",
        ratio, planned, ncols, max_rows, row_bytes<S>(ncols), precision));
  return planned;
}

/// Python's SIGINT handler runs in PyErr_CheckSignals, with the GIL: a
/// run asks it at most every 20 ms (PythonSignal when it raised).
class SignalCheck {
 public:
  void operator()() {
    const auto now = Clock::now();
    if (now - last_ < std::chrono::milliseconds(20)) return;
    last_ = now;
    py::gil_scoped_acquire acquire;
    if (PyErr_CheckSignals() != 0) throw PythonSignal();
  }

 private:
  Clock::time_point last_ = Clock::now();
};

/// How a run that keeps its rows ended: "" (completed), "integration" (an
/// integration failure or a non-finite value) or "singular" (a singular
/// set, named by condition); the caller raises.
struct RunFailure {
  std::string message, kind, condition;
  std::string exception;  ///< the error table's Python exception (ErrorClass::python_exception)
};

/// The failure of a run that keeps its rows: the error table's Python
/// failure kind of its end (ErrorClass::python_failure_kind, from
/// simulate's classification); an end without one (a refusal, an internal
/// error) and a Python signal are rethrown.
template <class S>
RunFailure kept_failure(const Simulation<S>& sim) {
  if (sim.completed()) return {};
  try {
    std::rethrow_exception(sim.error);
  } catch (const PythonSignal&) {
    throw;
  } catch (...) {
  }
  const char* kind = error_class(sim.outcome.category).python_failure_kind;
  if (!kind) std::rethrow_exception(sim.error);
  const bool singular = sim.outcome.category == ErrorCategory::singular_state;
  return {sim.outcome.message, kind, singular ? sim.outcome.condition : "",
          error_class(sim.outcome.category).python_exception};
}

/// System._run's "summary": the run's figures (MotionCheck), its stepper
/// and counts, and how it ended.
template <class S>
py::dict run_summary(const RunPlan<S>& plan, const MotionCheck<S>& f, const RunFailure& failure,
                     const std::string& precision, double seconds) {
  const IntegrationStats& stats = f.stats;
  py::dict sm;
  sm["study"] = plan.problem.sys.info.name;
  sm["formulation"] = integrated_by(stats.stepper, plan.problem.formulation->name());
  sm["precision"] = precision;
  sm["stepper"] = std::string(stepper_name(stats.stepper));
  sm["completed"] = failure.message.empty();
  sm["failure"] = failure.message;
  sm["failure_kind"] = failure.kind;      // "", "integration" or "singular"
  sm["failure_exception"] = failure.exception;  // the nhs exception raised with the rows
  sm["condition"] = failure.condition;    // the singular set reached
  sm["samples"] = f.samples;
  sm["t_last"] = to_python<S>(f.t_last);
  sm["steps"] = stats.steps;
  sm["rhs_calls"] = stats.rhs_calls;
  sm["projections"] = stats.projections;
  sm["max_C"] = to_python<S>(f.max_C);
  sm["E0"] = to_python<S>(f.E0);
  sm["energy_drift"] = to_python<S>(f.energy_drift);
  sm["energy_conserved"] = f.energy_checked();
  if (f.balance_checked()) {  // the work-energy balance max |E - E0 - W| and max |W| (work_energy.hpp)
    py::dict balance;
    balance["drift"] = to_python<S>(f.balance_drift);
    balance["work_scale"] = to_python<S>(f.work_scale);
    sm["work_balance"] = balance;
  }
  py::dict inv;
  for (const InvariantDrift<S>& i : f.invariants) {
    py::dict d;
    d["drift"] = to_python<S>(i.drift);
    d["conserved"] = i.conserved;
    d["undefined_rows"] = i.undefined;
    inv[py::str(i.name)] = d;
  }
  sm["invariants"] = inv;
  if (!f.min_margin_name.empty()) {
    sm["min_margin_name"] = f.min_margin_name;
    sm["min_margin"] = to_python<S>(f.min_margin);
  }
  if (plan.motion) {
    sm["motion"] = plan.motion->name;
    sm["max_error"] = to_python<S>(f.max_error);
  }
  sm["wall_seconds"] = seconds;
  return sm;
}

template <class S>
py::object run_scalar(const RunInput& in, std::uint64_t max_rows) {
  const RunSpec<S> spec = run_request<S>(in);  // with the GIL: the arguments are Python objects
  RunRows<S> rows;
  std::optional<Simulation<S>> sim;
  const auto t0 = Clock::now();
  {
    py::gil_scoped_release release;
    std::optional<MotionTable<S>> table;
    SignalCheck check_signals;
    RunObservers<S> observers;
    observers.planned = [&](const RunPlan<S>& plan, const MotionReference<S>& reference) {
      table.emplace(plan.problem.sys, reference);
      rows.columns = table->columns();
      rows.reserve(planned_rows(plan.options, rows.columns.size(), max_rows, in.problem.precision));
    };
    observers.interrupt = [&](const S&) { check_signals(); };
    observers.motion.record = [&](const Sample<S>& sample) { rows.add(table->values(sample)); };
    sim.emplace(simulate<S>(spec, observers));
  }
  const RunFailure failure = kept_failure(*sim);
  const double seconds = seconds_since(t0);
  py::dict out;
  out["columns"] = rows.columns;
  out["data"] = std::move(rows).to_python();
  out["summary"] = run_summary<S>(sim->plan, sim->figures, failure, in.problem.precision, seconds);
  return out;
}

template <class S>
py::object animate_scalar(const RunInput& in, const AnimationRequest& request) {
  const RunSpec<S> spec = run_request<S>(in);  // with the GIL: the arguments are Python objects
  AnimationWritten w;
  {
    py::gil_scoped_release release;
    SignalCheck check_signals;
    w = animate_run<S>(spec, request, [&](const S&) { check_signals(); });
  }
  if (w.error) {  // the folder of what was integrated is written: Ctrl-C raises, a stop is .stopped
    try {
      std::rethrow_exception(w.error);
    } catch (const PythonSignal&) {
      throw;
    } catch (...) {
    }
  }
  py::dict out;
  out["path"] = request.out;
  out["samples"] = w.samples;
  out["t_last"] = w.t_last;
  out["bodies"] = w.bodies;
  out["contacts"] = w.contacts;
  out["stopped"] = w.stopped;
  return out;
}

}  // namespace

py::dict animate_system(const RunInput& in, const std::string& system, const py::dict& request) {
  AnimationRequest r;
  r.out = absolute_animation_folder(str_arg(py::object(request["path"]), "path"), "path");
  r.fps = to_scalar<double>(py::object(request["fps"]), {"fps", "fps"});
  r.three = str_arg(py::object(request["three"]), "three");
  r.command = str_arg(py::object(request["command"]), "command");
  r.fps_option = "fps";
  r.out_option = "path";
  r.three_option = "three";
  check_animation_folder(r.out, r.out_option, r.fps, r.fps_option, r.three, r.three_option, system);
  return with_precision(in.problem.precision, [&]<class S>() { return animate_scalar<S>(in, r); }).cast<py::dict>();
}

py::dict run_system(const RunInput& in, std::uint64_t max_rows) {
  return with_precision(in.problem.precision, [&]<class S>() { return run_scalar<S>(in, max_rows); }).cast<py::dict>();
}

}  // namespace nhs::python
