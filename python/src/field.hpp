// System.field (nhs._core): the formulation's second-order field at fixed
// parameters, as the callable nhs.Field, for SciPy's solve_ivp, an
// optimizer or a user's own loop.
#pragma once

#include "requests.hpp"

#include "nhs/studies/system_file.hpp"

#include <memory>
#include <string>

namespace nhs::python {

/// x = (q, qdot) (size 2n) maps to (qdot, qddot), qddot from the
/// formulation's acceleration (its field backend: generated, traced or the
/// library's, as accel and run choose). The system is autonomous: t is
/// accepted and not read. x is taken as given, not projected onto C: off C
/// the formulation's equations are evaluated as they stand. Calls on one
/// Field are serialized (a traced field's interpreter has registers); the
/// batch runs without the GIL.
class FieldHandle {
 public:
  struct Impl {
    virtual ~Impl() = default;
    virtual py::object call(const py::object& x) = 0;
    virtual py::object batch(const py::object& q, const py::object& qdot) = 0;
    virtual double bench(const py::object& x, long long repeats) = 0;
    virtual py::object jac(const py::object& x) = 0;
    int n = 0;
    std::string study, formulation, field, precision;
    std::string source;  ///< the study id or file path the field was made from (for its traced Jacobian)
    /// The system file as loaded when the field was made (null for a
    /// built-in study): jac refuses once the file has changed.
    std::shared_ptr<const SystemFile> file;
  };
  explicit FieldHandle(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  Impl& impl() const { return *impl_; }

 private:
  std::shared_ptr<Impl> impl_;
};

/// The field of the problem `in` (its default state, which must be
/// admissible) in in.precision; `file`: the system file as loaded (null
/// for a built-in study).
FieldHandle make_field(const ProblemInput& in, std::shared_ptr<const SystemFile> file);

/// nhs.Field.
void bind_field(py::module_& m);

}  // namespace nhs::python
