// nhs.System's C++ half (nhs._core): a built-in study or a system file, by
// name, and its commands (accel, field, run, check, linearize, stability),
// each converting its Python arguments into the library's typed request
// (requests.hpp) and its typed result into Python (results.hpp).
#pragma once

#include "field.hpp"
#include "results.hpp"

#include "nhs/studies/study.hpp"

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace nhs::python {

/// A built-in study or a system file, by name (see the Python docstrings).
class SystemHandle {
 public:
  /// UsageError for an unknown study, FileError for a file the loader
  /// refuses.
  explicit SystemHandle(std::string name);

  const std::string& name() const { return name_; }
  const SystemInfo& info() const { return info_; }
  /// name -> default value (decimal strings).
  py::dict parameters() const;
  bool is_file() const { return is_system_file_name(name_); }

  /// The formulations that apply to the system at its default parameters.
  std::vector<std::string> formulations() const;

  /// System.field: the set-up of accel at the default state (which must be
  /// admissible), kept for repeated calls.
  FieldHandle field(const py::object& formulation, const py::object& precision, const py::object& params,
                    const py::object& field) const;

  /// System.accel (kAccelDoc).
  AccelResult accel(const py::object& q, const py::object& qdot, const py::object& z, const py::object& formulation,
                    const py::object& precision, const py::object& params, const py::object& field,
                    const py::object& manifold_tol, const py::object& singular_margin, const py::object& jacobian,
                    const py::object& t) const;

  /// Benchmark hook (bench/python_overhead.py, bench/bicycle_vs_sympy.py):
  /// seconds per call of the C++ work of System.accel on these arguments
  /// (double), over `repeats` calls: the request checked, the kept model
  /// (AccelModels) found, the state admitted and its accelerations
  /// (accelerations_at): the baseline of the Python call's cost.
  double bench_accel(int repeats, const py::object& q, const py::object& qdot, const py::object& formulation) const;

  /// System._run: the motion as {columns, data, summary} (run_system).
  /// max_rows (None: kMaxRunRows): the most rows the run may keep.
  /// animate (None, or a dict {path, fps, three, command}): the motion
  /// drawn into the folder `path` instead (animate_system; Run.animate).
  py::dict run(const py::object& t_end, const py::object& dt_out, const py::object& formulation,
               const py::object& precision, const py::object& stepper, const py::object& rtol,
               const py::object& atol, const py::object& project, const py::object& q0, const py::object& qdot0,
               const py::object& z0, const py::object& params, const py::object& field,
               const py::object& max_rhs_calls, const py::object& singular_margin,
               const py::object& manifold_tol, const py::object& step, const py::object& motion,
               const py::object& max_rows, const py::object& max_wall_time, const py::object& t0,
               const std::array<std::string, 3>& state_names, const py::object& animate) const;

  /// `nhs check` on this system, quietly: its report (check_result).
  /// out_dir (a str) also gets summary.md, summary.json and trajectories/
  /// as the CLI's --out-dir; None: nothing is written anywhere.
  CheckResult check(const py::object& precision, const py::object& states, const py::object& quick,
                    const py::object& jobs, const py::object& out_dir) const;

  /// System.linearize: the steady motion of the family `steady` at `at`.
  LinearizationResult linearize(const py::object& steady, const py::object& at, const py::object& formulation,
                                const py::object& precision, const py::object& params) const;

  /// System.stability: the scan of the family `steady` along `vary` over
  /// [start, stop] at `points` values, the eigenvalue table written to csv
  /// when it is not empty.
  StabilityResult stability(const py::object& steady, const py::object& vary, const py::object& start,
                            const py::object& stop, const py::object& points, const py::object& at,
                            const py::object& formulation, const py::object& precision, const py::object& params,
                            const py::object& csv) const;

 private:
  /// The models of System.accel (make_problem_model), one per precision,
  /// formulation and field asked for, each kept for the next call with the
  /// same parameters and file (AccelModel in system.cpp). Shared by copies
  /// of the handle.
  struct AccelModels {
    std::mutex mutex;
    /// "precision|formulation|field" -> AccelModel<S> of that precision's S
    std::map<std::string, std::shared_ptr<void>> kept;
  };

  /// System.accel's answer to `request` (problem_request): the request
  /// checked (checked_problem_request), the model kept for its precision,
  /// formulation and field reused when made of the same parameters and
  /// file (else made: make_problem_model), the state admitted on it
  /// (admit_problem_state) and its accelerations (accelerations_at): the
  /// numbers of make_problem. Needs no GIL. Throws as make_problem and
  /// accelerations_at.
  template <class S>
  AccelAnswer<S> accel_answer(const ProblemSpec<S>& request, const S& margin, bool jacobian) const;

  std::string name_;
  SystemInfo info_;
  std::shared_ptr<AccelModels> accel_models_ = std::make_shared<AccelModels>();
};

/// nhs.System's data and commands (and the equations and classification
/// of equations.hpp).
void bind_system(py::module_& m);

}  // namespace nhs::python
