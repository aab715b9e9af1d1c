// The table of a motion: its columns (t, q, qdot, energy, the constraint
// residuals, the study's invariants, the margins to the singular sets, the
// error against a closed form) and the row of each sample. What `nhs run`
// and `nhs verify` write as CSV (apps/nhs/csv.hpp) and what the Python
// module's System.run returns as an array: one definition of the columns.
// The figures of the motion (max |C|, energy and invariant drift, margins)
// are MotionFigures' (nhs/studies/verification.hpp).
#pragma once

#include "nhs/derivatives.hpp"
#include "nhs/errors.hpp"
#include "nhs/format.hpp"
#include "nhs/integrate.hpp"
#include "nhs/singular_set.hpp"
#include "nhs/studies/study.hpp"
#include "nhs/studies/verification.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace nhs {

/// A non-finite value as a message says it: "not a number (NaN)" (a 0/0,
/// the square root of a negative number) or its text ("inf", "-inf": an
/// overflow). NaN's sign is meaningless, and "nan" read as an overflow.
template <class S>
std::string non_finite_text(const S& v) {
  using boost::multiprecision::isnan;
  using std::isnan;
  return isnan(v) ? std::string("not a number (NaN)") : to_string<S>(v);
}

struct CsvColumns {
  std::vector<std::string> all;          ///< the header, column by column
  std::vector<std::string> constraints;  ///< size r
  std::vector<std::string> invariants;   ///< one per invariant name given
};

/// The columns of a trajectory CSV for a system with `info` and r
/// constraints: t, the coordinates, their velocities (<name>_dot), energy,
/// one column per constraint, one per invariant, the margins, "error"
/// when `with_error` and "work" (the work W of the forces and reactions,
/// nhs/work_energy.hpp) when `with_work`, last so that the columns before
/// it keep their places. A constraint column takes the constraint's name
/// (info.constraint_names[a]) with every character other than a letter,
/// digit, '_', '-' or '.' replaced by '_' (a file's quoted TOML key may hold
/// a comma); "C<a+1>" when info has no (or an empty) name for it. A
/// constraint or invariant name that repeats a column already named, or a
/// margin, "error" or (with_work) "work", is prefixed: "constraint_<name>", "invariant_<name>"
/// (then "..._2", "..._3" until unique). Never throws for any input.
inline CsvColumns csv_column_names(const SystemInfo& info, int r,
                                   const std::vector<std::string>& invariant_names,
                                   const std::vector<std::string>& margin_names,
                                   bool with_error, bool with_work = false) {
  CsvColumns out;
  std::vector<std::string> taken = margin_names;  // the fixed names after the free ones
  taken.push_back("error");
  if (with_work) taken.push_back("work");
  const auto is_taken = [&](const std::string& name) {
    return std::find(taken.begin(), taken.end(), name) != taken.end() ||
           std::find(out.all.begin(), out.all.end(), name) != out.all.end();
  };
  const auto unique = [&](std::string name, const std::string& prefix) {
    if (!is_taken(name)) return name;
    name = prefix + name;
    std::string candidate = name;
    for (int k = 2; is_taken(candidate); ++k) candidate = name + "_" + std::to_string(k);
    return candidate;
  };
  out.all.push_back("t");
  for (const auto& c : info.coordinates) out.all.push_back(c);
  for (const auto& c : info.coordinates) out.all.push_back(c + "_dot");
  out.all.push_back("energy");
  for (int a = 0; a < r; ++a) {
    std::string name = static_cast<std::size_t>(a) < info.constraint_names.size()
                           ? info.constraint_names[static_cast<std::size_t>(a)]
                           : std::string();
    for (char& ch : name) {
      const bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                        (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' || ch == '.';
      if (!keep) ch = '_';
    }
    if (name.empty()) name = "C" + std::to_string(a + 1);
    name = unique(name, "constraint_");
    out.all.push_back(name);
    out.constraints.push_back(name);
  }
  for (const auto& inv : invariant_names) {
    const std::string name = unique(inv, "invariant_");
    out.all.push_back(name);
    out.invariants.push_back(name);
  }
  for (const auto& m : margin_names) out.all.push_back(m);
  if (with_error) out.all.push_back("error");
  if (with_work) out.all.push_back("work");
  return out;
}

/// The columns and rows of a motion of `sys` (size n, r constraints).
///
/// Columns: t, q^i (coordinate names), qdot^i (names suffixed _dot), energy,
/// the constraint residuals C^a (named as the system names its constraints,
/// SystemInfo::constraint_names: C1..Cr for the built-in studies, a file's
/// own names), the study's invariants, the margins to the singular sets
/// (sigma_min_dC_dqdot and the study's own, singular_set.hpp), and "error"
/// (max-norm distance of (q, qdot) to the closed form) when an exact
/// solution is given, and "work" (Sample::work, the work W of the forces and
/// reactions since t = 0; NaN, an empty cell, where a sample does not carry
/// it) with `with_work` (MotionReference::power given). A constraint or
/// invariant name that repeats another column, or is empty, is made unique
/// (csv_column_names). The system must outlive the table.
template <class S>
class MotionTable {
 public:
  MotionTable(const System<S>& sys, std::vector<Invariant<S>> invariants,
              std::function<State<S>(const S&)> exact = {}, bool with_work = false)
      : sys_(sys), invariants_(std::move(invariants)), exact_(std::move(exact)), with_work_(with_work) {
    for (const auto& m : regularity_margins(sys_, Vec<S>(Vec<S>::Zero(sys_.n)),
                                            Vec<S>(Vec<S>::Ones(sys_.n))))
      margin_columns_.push_back(m.name);
    std::vector<std::string> invariant_names;
    for (const auto& inv : invariants_) invariant_names.push_back(inv.name);
    const CsvColumns cols =
        csv_column_names(sys_.info, sys_.r, invariant_names, margin_columns_, bool(exact_), with_work_);
    constraint_columns_ = cols.constraints;
    invariant_columns_ = cols.invariants;
    columns_ = cols.all;
  }

  /// The table of a motion checked against `reference` (motion_reference):
  /// its invariants, its exact motion, and the work column where it gives
  /// the power of the forces and reactions (MotionReference::power).
  MotionTable(const System<S>& sys, const MotionReference<S>& reference)
      : MotionTable(sys, reference.invariants, reference.exact, bool(reference.power)) {}

  /// The names of the constraint residual columns, size r.
  const std::vector<std::string>& constraint_columns() const { return constraint_columns_; }
  /// The names of the invariant columns, in the order of invariants().
  const std::vector<std::string>& invariant_columns() const { return invariant_columns_; }
  /// The names of the margins to the singular sets.
  const std::vector<std::string>& margin_columns() const { return margin_columns_; }
  const std::vector<Invariant<S>>& invariants() const { return invariants_; }

  /// Every column name of a row, in order (the CSV header).
  const std::vector<std::string>& columns() const { return columns_; }

  /// The row of sample s (q, qdot of size n), one value per column: NaN
  /// where an invariant is not finite (an empty CSV cell). Throws
  /// NonFiniteValue where the energy, a constraint residual or a margin is
  /// not finite.
  std::vector<S> values(const Sample<S>& s) const {
    using std::max;
    using boost::multiprecision::isfinite;
    using std::isfinite;
    const S E = sys_.kinetic_energy(s.q, s.qdot) + sys_.potential(s.q);
    const Vec<S> C = constraint_residuals(sys_, s.q, s.qdot);
    const std::vector<Margin<S>> margins = regularity_margins(sys_, s.q, s.qdot);
    const auto require_finite = [&](const std::string& what, const S& v) {
      if (!isfinite(v))
        throw NonFiniteValue("non-finite value: " + what + " = " + non_finite_text(v) + " at t = " +
                             to_string<S>(s.t) + " " + state_context(s.q, s.qdot));
    };
    require_finite("energy", E);
    for (Eigen::Index a = 0; a < C.size(); ++a)
      require_finite("constraint " + constraint_columns_[static_cast<std::size_t>(a)], C[a]);
    for (const auto& m : margins) require_finite(m.name, m.value);
    std::vector<S> row;
    row.reserve(columns_.size());
    row.push_back(s.t);
    for (const auto& v : s.q) row.push_back(v);
    for (const auto& v : s.qdot) row.push_back(v);
    row.push_back(E);
    for (const auto& v : C) row.push_back(v);
    for (const auto& inv : invariants_) {
      const S v = inv.value(s.q, s.qdot);
      row.push_back(isfinite(v) ? v : std::numeric_limits<S>::quiet_NaN());
    }
    for (const auto& m : margins) row.push_back(m.value);
    if (exact_) {
      const State<S> x = exact_(s.t);
      row.push_back(max(S((s.q - x.q).cwiseAbs().maxCoeff()), S((s.qdot - x.qdot).cwiseAbs().maxCoeff())));
    }
    if (with_work_) row.push_back(s.work ? *s.work : std::numeric_limits<S>::quiet_NaN());
    return row;
  }

 private:
  const System<S>& sys_;
  std::vector<Invariant<S>> invariants_;
  std::vector<std::string> columns_, constraint_columns_, invariant_columns_, margin_columns_;
  std::function<State<S>(const S&)> exact_;
  bool with_work_ = false;
};

}  // namespace nhs
