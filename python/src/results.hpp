// The results of the module's calls as bound classes (nhs._core): the
// accelerations at a state (nhs.Acceleration), a linearized steady motion
// (nhs.Linearization), a stability scan (nhs.StabilityScan) and a check
// (nhs.CheckReport), made from the library's typed results (AccelAnswer,
// SteadyLinearization, StabilityScan, CheckReport) with NumPy or mpmath
// values at the request's precision (convert.hpp), never from JSON text or
// a file.
#pragma once

#include "convert.hpp"

#include "nhs/session/accelerations.hpp"
#include "nhs/session/steady_linearization.hpp"
#include "nhs/verification/summary.hpp"

#include <memory>
#include <string>

namespace nhs::python {

/// The accelerations at a state (the result of System.accel): the C++
/// answer, turned into Python objects when an attribute is first read (so
/// that a call costs the computation, not conversions nobody reads).
class AccelResult {
 public:
  struct Answer {
    virtual ~Answer() = default;
    virtual py::object vector(int which) const = 0;  // kQ ... kReaction
    virtual py::object gauss_z() const = 0;
    virtual py::dict parameters(bool as_strings) const = 0;
    virtual py::list strings(int which) const = 0;  // which < 0: gauss_z
    virtual bool has(int which) const = 0;
    /// The field's Jacobian (N x N array), the names of x and its
    /// eigenvalues, or None (accel without jacobian=True).
    virtual py::object jacobian() const = 0;
    virtual py::object jacobian_state() const = 0;
    virtual py::object eigenvalues() const = 0;
    std::string study, formulation, field, precision;
  };
  enum { kQ, kQdot, kQddot, kMultipliers, kReaction, kCount };

  explicit AccelResult(std::shared_ptr<const Answer> a) : a_(std::move(a)) {}

  const Answer& answer() const { return *a_; }
  py::object get(int which) const;
  py::dict strings() const;

 private:
  std::shared_ptr<const Answer> a_;
  mutable py::object cache_[kCount];
};

/// System.accel's result of `a` in `precision` (its name).
template <class S>
AccelResult accel_result(AccelAnswer<S> a, const std::string& precision);

/// A result whose values are named fields (nhs.Linearization,
/// nhs.StabilityScan): each field an attribute and, as the dict the module
/// returned before, an item (r.eigenvalues is r["eigenvalues"]; keys(),
/// items(), get(), `in`).
struct FieldsResult {
  py::dict values;
};
struct LinearizationResult : FieldsResult {};
struct StabilityResult : FieldsResult {};
struct CheckResult : FieldsResult {};

/// System.linearize's result (docs/linearization.md): the fields of
/// linearization_fields (nhs/session/linearization_fields.hpp), vectors
/// and matrices as NumPy arrays, complex numbers as a complex array (a
/// list of mpmath.mpc above long double), error_bounds as a list, at and
/// parameters as {name: value}, zero_eigenvalues and residuals as dicts.
template <class S>
LinearizationResult linearization_result(const SteadyLinearization<S>& s, const std::string& precision);

/// System.stability's result: the fields of stability_fields, crossings a
/// list of dicts, from and to values, undecided and each crossing's
/// bracket lists of values.
template <class S>
StabilityResult stability_result(const StabilityScan<S>& scan, const std::string& precision, const std::string& csv);

/// System.check's result (nhs.CheckReport): the fields of summary.json
/// (check_summary_fields, nhs/verification/summary.hpp) of `report`,
/// checked as `spec` says, as Python objects (str, bool, float or None,
/// int, lists and dicts), built from the typed report, not read from a
/// file. Needs the GIL.
CheckResult check_result(const CheckReport& report, const CheckSpec& spec, const std::string& command,
                         const std::string& date);

/// nhs.Acceleration, nhs.Linearization, nhs.StabilityScan and nhs.CheckReport.
void bind_results(py::module_& m);

}  // namespace nhs::python
