// Redundant constraints: constraints C^a whose gradients dC^a/dqdot are
// linearly dependent (dC/dqdot, r x n, of rank below r) while their
// accelerations A qddot = b stay consistent, e.g. a constraint written twice
// or scaled, or a holonomic constraint's velocity form given again in
// [constraints]. Gauss's principle solved with the Moore-Penrose
// pseudoinverse (Udwadia-Kalaba, seed 003; udwadia_kalaba.hpp) determines
// qddot for them. Every other formulation factors A M^-1 A^T or a KKT
// matrix, or solves for r multipliers or r dependent velocities, and
// refuses them as rank loss of dC/dqdot, a singular set
// (regularity_margins, singular_set.hpp).
#pragma once

#include "nhs/derivatives.hpp"
#include "nhs/format.hpp"
#include "nhs/formulation.hpp"
#include "nhs/regularity.hpp"
#include "nhs/singular_set.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace nhs {

/// The rank of the directions of M's rows: each row divided by its 2-norm
/// (a zero row kept), then the singular values above regularity_tolerance
/// times max(1, the largest) counted. A row's scale (a constraint written
/// times 1e-200) does not count; a zero row adds nothing. M finite.
template <class S>
int row_direction_rank(const Mat<S>& M) {
  using std::max;
  Mat<S> unit = M;
  for (Eigen::Index a = 0; a < unit.rows(); ++a)
    if (const S largest = unit.row(a).cwiseAbs().maxCoeff(); largest > 0) {
      unit.row(a) /= largest;  // first: the square of 1e200 or 1e-200 is out of double's range
      unit.row(a) /= unit.row(a).norm();
    }
  const Vec<S> sv = singular_values<S>(unit);
  int rank = 0;
  for (Eigen::Index i = 0; i < sv.size(); ++i)
    if (sv[i] > regularity_tolerance<S>() * max(S(1), sv[0])) ++rank;
  return rank;
}

/// True for a formulation that takes redundant constraints: Udwadia-Kalaba
/// ("udwadia-kalaba", or a backend of it named "udwadia-kalaba (...)"),
/// which refuses inconsistent ones itself ("inconsistent constraints A
/// qddot = b").
template <class S>
bool takes_redundant_constraints(const Formulation<S>& f) {
  return f.name().rfind("udwadia-kalaba", 0) == 0;
}

/// The margins of (q, qd) (size n each) to the singular sets of sys for the
/// formulation f: regularity_margins, where f takes redundant constraints
/// (Udwadia-Kalaba) with its rank loss of dC/dqdot measured against
/// `rank`, the rank of dC/dqdot's directions where the motion started
/// (row_direction_rank; 0 < rank <= r): the rank-th singular value of
/// dC/dqdot, under the same name sigma_min_dC_dqdot, so that a motion with
/// redundant constraints (rank < r throughout) is watched for a further
/// loss, as the others are for any. rank <= 0 (a single state, as `nhs
/// accel`: no start to compare with): no rank loss is a singular set of
/// f. f null, or f not taking redundant constraints: regularity_margins.
/// f's own margins (Formulation::singular_margins) are not among them.
template <class S>
std::vector<Margin<S>> formulation_regularity_margins(const System<S>& sys, const Formulation<S>* f,
                                                      const Vec<S>& q, const Vec<S>& qd, int rank = 0) {
  std::vector<Margin<S>> all = regularity_margins(sys, q, qd);
  if (!f || !takes_redundant_constraints(*f) || sys.r == 0 || rank >= sys.r) return all;
  // sigma_min_dC_dqdot comes first
  if (rank <= 0) {
    all.erase(all.begin());
  } else {
    const Vec<S> sv = singular_values<S>(constraint_jacobians(sys, q, qd).C_qdot);  // descending
    all.front().value = sv[std::min<Eigen::Index>(rank, sv.size()) - 1];
  }
  return all;
}

/// The message of a state within `threshold` of the singular set of margin
/// m: "singular state: <condition> (<name> = <value>, margin <threshold>)
/// at q = (...), qdot = (...)"; for rank loss of dC/dqdot, that
/// udwadia-kalaba alone takes dependent constraints.
template <class S>
std::string singular_margin_message(const Margin<S>& m, const S& threshold, const Vec<S>& q, const Vec<S>& qd) {
  const bool rank = m.name == "sigma_min_dC_dqdot";
  return "singular state: " + m.condition + " (" + m.name + " = " + to_string<S>(m.value) + ", margin " +
         to_string<S>(threshold) + ") " + state_context(q, qd) +
         (rank ? "; where the constraints are dependent (redundant) but consistent, udwadia-kalaba takes them "
                 "(--formulation udwadia-kalaba)"
               : "");
}

/// Throws SingularState(m.condition) with singular_margin_message for the
/// first margin m of formulation_regularity_margins whose value is <=
/// threshold (threshold >= 0); a NaN margin counts as singular. As
/// require_margins (singular_set.hpp), for the formulation f.
template <class S>
void require_formulation_margins(const System<S>& sys, const Formulation<S>& f, const Vec<S>& q, const Vec<S>& qd,
                                 const S& threshold) {
  for (const Margin<S>& m : formulation_regularity_margins(sys, &f, q, qd))
    if (!(m.value > threshold))  // NaN counts as singular
      throw SingularState(m.condition, singular_margin_message(m, threshold, q, qd));
}

}  // namespace nhs
