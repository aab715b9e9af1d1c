// classify_constraints (nhs/constraint_classification.hpp). The method and
// its error bounds: docs/constraint-classification.md.
#include "nhs/constraint_classification.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/errors.hpp"

#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <sstream>
#include <vector>

namespace nhs {
namespace {

using S = mp100;
using Field = std::function<Vec<S>(const Vec<S>&)>;

// The evaluations of the frame that the nested differences of the brackets
// may spend at one sample point (a level-k bracket costs about 3^(k-1)):
// the filtration stops, and says so, when they run out.
struct Budget {
  long used = 0, limit = 0;
};
struct BudgetExhausted {};

std::string figure(const S& x) {
  std::ostringstream s;
  s.precision(3);
  s << static_cast<double>(x);
  return s.str();
}

// "2, 3, 4": a growth vector.
std::string int_list(const std::vector<int>& v) {
  std::string t;
  for (int d : v) t += (t.empty() ? "" : ", ") + std::to_string(d);
  return t;
}

std::string point_text(const Vec<S>& q) {
  std::string t = "(";
  for (Eigen::Index i = 0; i < q.size(); ++i) t += (i ? ", " : "") + figure(q[i]);
  return t + ")";
}

// A = dC/dqdot at q (linear constraints: independent of qdot).
Mat<S> constraint_matrix(const System<S>& sys, const Vec<S>& q) {
  return constraint_jacobians(sys, q, Vec<S>(Vec<S>::Zero(sys.n))).C_qdot;
}

bool full_row_rank(const Mat<S>& A) {
  if (A.rows() == 0) return true;
  const Eigen::JacobiSVD<Mat<S>> svd(A);
  const Vec<S>& s = svd.singularValues();
  return s[s.size() - 1] > S("1e-30") * s[0];
}

Vec<S> draw_near(const Vec<S>& q0, double radius, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Vec<S> q = q0;
  for (Eigen::Index i = 0; i < q.size(); ++i) {
    using boost::multiprecision::abs;
    q[i] += S(radius) * (1 + abs(q0[i])) * S(u(rng));
  }
  return q;
}

Vec<S> draw_unit(Eigen::Index n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Vec<S> v(n);
  for (Eigen::Index i = 0; i < n; ++i) v[i] = S(u(rng));
  return v;
}

// The frame of ker A near a point: the dependent velocities are the r
// columns that column-pivoted QR of A(point) picks first; X_alpha has
// qdot^{I_alpha} = 1, the other independent velocities 0, and the dependent
// ones solved from A(q) X = 0.
struct Frame {
  std::vector<int> dependent, independent;
  std::vector<Field> fields;
};

Frame frame_at(const System<S>& sys, const Mat<S>& A0, Budget& budget) {
  Frame f;
  const int n = sys.n, r = sys.r;
  // The system's own split (Voronec's dependent velocities) when A is well
  // conditioned on it here, so that the frame carries the names a reader
  // knows; column-pivoted QR otherwise.
  const std::vector<int>& declared = sys.info.dependent_velocities;
  bool use_declared = static_cast<int>(declared.size()) == r;
  if (use_declared) {
    Mat<S> AD(r, r);
    for (int k = 0; k < r; ++k) AD.col(k) = A0.col(declared[static_cast<std::size_t>(k)]);
    const Eigen::JacobiSVD<Mat<S>> svd(AD);
    const Vec<S>& sv = svd.singularValues();
    use_declared = sv[r - 1] > S("1e-8") * sv[0];
  }
  if (use_declared) {
    f.dependent = declared;
  } else {
    const Eigen::ColPivHouseholderQR<Mat<S>> qr(A0);
    const auto& perm = qr.colsPermutation().indices();
    for (int k = 0; k < r; ++k) f.dependent.push_back(perm[k]);
  }
  std::sort(f.dependent.begin(), f.dependent.end());
  for (int i = 0; i < n; ++i)
    if (std::find(f.dependent.begin(), f.dependent.end(), i) == f.dependent.end()) f.independent.push_back(i);
  for (int alpha : f.independent) {
    f.fields.push_back([&sys, &budget, dep = f.dependent, alpha, n, r](const Vec<S>& q) {
      if (++budget.used > budget.limit) throw BudgetExhausted{};
      const Mat<S> A = constraint_matrix(sys, q);
      Mat<S> AD(r, r);
      for (int k = 0; k < r; ++k) AD.col(k) = A.col(dep[static_cast<std::size_t>(k)]);
      const Vec<S> x = Eigen::PartialPivLU<Mat<S>>(AD).solve(-A.col(alpha));
      Vec<S> X = Vec<S>::Zero(n);
      X[alpha] = 1;
      for (int k = 0; k < r; ++k) X[dep[static_cast<std::size_t>(k)]] = x[k];
      if (!X.allFinite())
        throw NonFiniteValue("constraint classification: the frame of ker A is not finite at q = " + point_text(q) +
                             " (dC/dqdot not finite, or singular on the dependent velocities)");
      return X;
    });
  }
  return f;
}

// d/de F(q + e v) at e = 0 by the central difference of step h/|v| (second
// order; the step h is chosen for the deepest nesting, see classify).
Vec<S> directional(const Field& F, const Vec<S>& q, const Vec<S>& v, const S& h) {
  const S nv = v.norm();
  if (nv == 0) return Vec<S>::Zero(q.size());
  const S e = h / nv;
  return (F(q + e * v) - F(q - e * v)) / (2 * e);
}

// [X, Y] = DY X - DX Y, the Lie bracket of vector fields on Q.
Field bracket(Field X, Field Y, S h) {
  return [X = std::move(X), Y = std::move(Y), h](const Vec<S>& q) {
    return Vec<S>(directional(Y, q, X(q), h) - directional(X, q, Y(q), h));
  };
}

// The filtration at one point: returns the growth vector; `basis` ends as
// an orthonormal basis (n x dim) of the involutive closure at q.
struct Filtration {
  std::vector<int> growth;
  Mat<S> basis;
  S largest_inside = 0;
  S scale = 1;             // the frame's largest norm at q (at least 1)
  bool truncated = false;  // still growing when the budget ran out
};

Filtration filtration_at(const System<S>& sys, const Vec<S>& q, const std::vector<Field>& frame,
                         const S& h, int max_level, const S& zero_tol) {
  const int n = sys.n;
  Filtration out;
  std::vector<Vec<S>> ortho;  // orthonormal basis of D_k at q
  // Distance of v from span(ortho), and the unit vector that extends it.
  const auto residual = [&](Vec<S> v) {
    for (int pass = 0; pass < 2; ++pass)
      for (const Vec<S>& e : ortho) v -= e.dot(v) * e;
    return v;
  };
  S scale = 1;
  for (const Field& X : frame) {
    const Vec<S> v = X(q);
    scale = std::max(scale, S(v.norm()));
    const Vec<S> w = residual(v);
    ortho.push_back(w / w.norm());
  }
  out.scale = scale;
  out.growth.push_back(static_cast<int>(ortho.size()));
  std::vector<Field> last = frame;  // the fields that raised the rank at the last level
  try {
    for (int level = 2; level <= max_level + 1 && static_cast<int>(ortho.size()) < n && !last.empty();
         ++level) {
      std::vector<Field> added;
      for (const Field& X : frame) {
        for (const Field& Y : last) {
          Field B = bracket(X, Y, h);
          const Vec<S> w = residual(B(q));
          const S d = w.norm();
          if (d <= zero_tol * scale) {
            out.largest_inside = std::max(out.largest_inside, S(d / scale));
            continue;
          }
          if (d < S("1e-8") * scale)
            throw InvalidState("constraint classification: a bracket at level " + std::to_string(level) +
                               " is " + figure(d / scale) + " of the frame's scale from D_" +
                               std::to_string(level - 1) + " at q = " + point_text(q) +
                               ": between the round-off bound " + figure(zero_tol) +
                               " and 1e-8, the rank is undecided (a parameter that makes the bracket tiny?)");
          ortho.push_back(w / d);
          added.push_back(std::move(B));
          if (static_cast<int>(ortho.size()) == n) break;
        }
        if (static_cast<int>(ortho.size()) == n) break;
      }
      if (added.empty()) break;
      out.growth.push_back(static_cast<int>(ortho.size()));
      last = std::move(added);
    }
  } catch (const BudgetExhausted&) {
    out.truncated = true;
  }
  out.basis.resize(n, static_cast<Eigen::Index>(ortho.size()));
  for (std::size_t k = 0; k < ortho.size(); ++k) out.basis.col(static_cast<Eigen::Index>(k)) = ortho[k];
  return out;
}

// Rows of M (h x r) brought to reduced row echelon form, each pivot the
// largest remaining entry (complete pivoting), so that a single integrable
// constraint shows as mu = e_a and no row is divided by an entry at the
// level of round-off (the bicycle's hidden combination was printed divided
// by one, its coefficients near 2e27). Thresholds are relative to the
// largest |entry|: 1e-30 for a pivot, 1e-40 for an entry kept.
Mat<S> row_echelon(Mat<S> M) {
  using boost::multiprecision::abs;
  const S largest = M.size() ? S(M.cwiseAbs().maxCoeff()) : S(0);
  std::vector<bool> used(static_cast<std::size_t>(M.cols()), false);
  std::vector<Eigen::Index> pivot_row(static_cast<std::size_t>(M.cols()), -1);  // by column
  for (Eigen::Index row = 0; row < M.rows(); ++row) {
    Eigen::Index p = row, col = -1;
    for (Eigen::Index i = row; i < M.rows(); ++i)
      for (Eigen::Index j = 0; j < M.cols(); ++j)
        if (!used[static_cast<std::size_t>(j)] && (col < 0 || abs(M(i, j)) > abs(M(p, col)))) {
          p = i;
          col = j;
        }
    if (col < 0 || !(abs(M(p, col)) > S("1e-30") * largest)) break;
    used[static_cast<std::size_t>(col)] = true;
    pivot_row[static_cast<std::size_t>(col)] = row;
    M.row(row).swap(M.row(p));
    M.row(row) /= M(row, col);
    for (Eigen::Index i = 0; i < M.rows(); ++i)
      if (i != row) M.row(i) -= M(i, col) * M.row(row);
  }
  // The rows in the order of their pivots' columns, then the zero rows.
  Mat<S> out = Mat<S>::Zero(M.rows(), M.cols());
  Eigen::Index k = 0;
  for (const Eigen::Index row : pivot_row)
    if (row >= 0) out.row(k++) = M.row(row);
  for (Eigen::Index i = 0; i < out.rows(); ++i)
    for (Eigen::Index j = 0; j < out.cols(); ++j)
      if (abs(out(i, j)) < S("1e-40") * largest) out(i, j) = 0;
  return out;
}

// d/dq^i of f at q by a central difference of step 1e-30 (error about
// 1e-60 relative in mp100).
template <class F>
Vec<S> partial(const F& f, Vec<S> q, Eigen::Index i) {
  const S h("1e-30");
  const S qi = q[i];
  q[i] = qi + h;
  const Vec<S> plus = f(q);
  q[i] = qi - h;
  const Vec<S> minus = f(q);
  return (plus - minus) / (2 * h);
}

void classify_each_constraint(const System<S>& sys, const std::vector<Vec<S>>& points,
                              std::mt19937_64& rng, ConstraintClassification& out) {
  using boost::multiprecision::abs;
  using boost::multiprecision::log;
  const int r = sys.r;
  Vec<S> c0(r), c1(r), c2(r), c3(r), c4(r), cs(r);
  out.constraints.resize(static_cast<std::size_t>(r));
  std::vector<bool> linear(static_cast<std::size_t>(r), true), homogeneous(linear), affine_linear(linear),
      offset(static_cast<std::size_t>(r), false);
  std::vector<std::vector<S>> degrees(static_cast<std::size_t>(r));
  for (const Vec<S>& q : points) {
    const Vec<S> u = draw_unit(sys.n, rng), v = draw_unit(sys.n, rng);
    const S s("0.7");
    sys.constraints(q, Vec<S>::Zero(sys.n), c0);
    sys.constraints(q, u, c1);
    sys.constraints(q, v, c2);
    sys.constraints(q, Vec<S>(u + s * v), cs);
    sys.constraints(q, Vec<S>(S(2) * u), c3);
    sys.constraints(q, Vec<S>(S(3) * u), c4);
    if (!(c0.allFinite() && c1.allFinite() && c2.allFinite() && c3.allFinite() && c4.allFinite() && cs.allFinite()))
      throw NonFiniteValue("constraint classification: C(q, qdot) is not finite at q = " + point_text(q) +
                           " and random velocities");
    for (int a = 0; a < r; ++a) {
      const auto A = static_cast<std::size_t>(a);
      const S size = abs(c1[a]) + abs(c2[a]) + abs(cs[a]) + S("1e-80");
      if (abs(cs[a] - c1[a] - s * c2[a]) > S("1e-60") * size) linear[A] = false;
      // C^a - a0^a linear, with a0^a = C^a(q, 0): affine (s a0 is counted
      // once on each side).
      if (abs(cs[a] - c1[a] - s * c2[a] + s * c0[a]) > S("1e-60") * (size + abs(c0[a]))) affine_linear[A] = false;
      if (abs(c0[a]) > S("1e-60") * size) offset[A] = true;
      if (abs(c1[a]) < S("1e-50")) continue;  // no ratio at a zero of C^a
      const S r2 = c3[a] / c1[a], r3 = c4[a] / c1[a];
      if (r2 <= 0 || r3 <= 0) {
        homogeneous[A] = false;
        continue;
      }
      const S k2 = log(r2) / log(S(2)), k3 = log(r3) / log(S(3));
      if (abs(k2 - k3) > S("1e-40")) homogeneous[A] = false;
      degrees[A].push_back(k2);
    }
  }
  out.all_linear = true;
  for (int a = 0; a < r; ++a) {
    const auto A = static_cast<std::size_t>(a);
    ConstraintKind& k = out.constraints[A];
    k.name = sys.info.constraint_names[A];
    k.linear = linear[A];
    k.affine = !linear[A] && affine_linear[A] && offset[A];
    k.homogeneous = homogeneous[A] && !degrees[A].empty();
    for (const S& d : degrees[A])
      if (abs(d - degrees[A].front()) > S("1e-40")) k.homogeneous = false;
    if (k.homogeneous) k.degree = static_cast<double>(degrees[A].front());
    out.all_linear = out.all_linear && k.linear;
  }
}

void find_cyclic(const System<S>& sys, const std::vector<Vec<S>>& points, std::mt19937_64& rng,
                 ConstraintClassification& out) {
  using boost::multiprecision::abs;
  const int n = sys.n;
  std::vector<bool> cyclic(static_cast<std::size_t>(n), true);
  for (const Vec<S>& q : points) {
    const Vec<S> qd = draw_unit(n, rng);
    // T, C^a and the generalized forces at (q, qd), as one vector.
    const auto all = [&](const Vec<S>& x) {
      Vec<S> c(sys.r);
      sys.constraints(x, qd, c);
      const Vec<S> f = active_force(sys, x, qd);
      Vec<S> v(1 + sys.r + n);
      v << sys.kinetic_energy(x, qd), c, f;
      return v;
    };
    const Vec<S> value = all(q);
    if (!value.allFinite())
      throw NonFiniteValue("constraint classification: T, C or a force is not finite at q = " + point_text(q));
    for (int i = 0; i < n; ++i) {
      const Vec<S> d = partial(all, q, i);
      for (Eigen::Index k = 0; k < d.size(); ++k)
        if (abs(d[k]) > S("1e-40") * (1 + abs(value[k]))) cyclic[static_cast<std::size_t>(i)] = false;
    }
  }
  for (int i = 0; i < n; ++i)
    if (cyclic[static_cast<std::size_t>(i)]) out.cyclic.push_back(sys.info.coordinates[static_cast<std::size_t>(i)]);
  const auto& dep = sys.info.dependent_velocities;
  out.chaplygin = out.all_linear && !dep.empty() &&
                  std::all_of(dep.begin(), dep.end(), [&](int i) { return cyclic[static_cast<std::size_t>(i)]; });
}

// The Frobenius test; false (with out.frobenius_skipped) when the budget
// stops the filtration before its closure.
bool frobenius(const System<S>& sys, const std::vector<Vec<S>>& points, long max_evaluations,
               ConstraintClassification& out) {
  const int n = sys.n, r = sys.r, m = n - r;
  // The filtration grows by at least one per level from m to at most n:
  // r levels of nesting at most, fewer when the budget cannot pay for them.
  // The step balances truncation (h^2) against round-off (eps / h^K) at the
  // deepest level K.
  const int budget_levels =
      static_cast<int>(std::floor(std::log(static_cast<double>(std::max(max_evaluations, 3L))) / std::log(3.0)));
  const int max_level = std::max(1, std::min(r, budget_levels));
  using boost::multiprecision::pow;
  const S eps = std::numeric_limits<S>::epsilon();
  const S h = pow(eps, S(1) / S(max_level + 2));
  const S zero_tol = 1000 * pow(eps, S(2) / S(max_level + 2));
  bool first = true;
  for (const Vec<S>& q : points) {
    const Mat<S> A0 = constraint_matrix(sys, q);
    Budget budget{0, max_evaluations};
    const Frame frame = frame_at(sys, A0, budget);
    const Filtration f = filtration_at(sys, q, frame.fields, h, max_level, zero_tol);
    if (f.truncated) {
      out.frobenius_skipped = "the filtration was still growing, (" + int_list(f.growth) + ") of n = " + std::to_string(n) +
                              ", when its budget of " + std::to_string(max_evaluations) +
                              " evaluations of the frame ran out (a level-k bracket costs about 3^(k-1))";
      return false;
    }
    budget.limit = std::numeric_limits<long>::max();  // the evidence below is cheap
    if (first) {
      out.growth = f.growth;
      for (int i : frame.independent) out.frame.push_back(sys.info.coordinates[static_cast<std::size_t>(i)]);
      // The brackets of the frame and what A says of them.
      for (int a = 0; a < m; ++a)
        for (int b = a + 1; b < m; ++b) {
          const Vec<S> v = bracket(frame.fields[static_cast<std::size_t>(a)],
                                   frame.fields[static_cast<std::size_t>(b)], h)(q);
          BracketEvidence e{out.frame[static_cast<std::size_t>(a)], out.frame[static_cast<std::size_t>(b)],
                            A0 * v};
          // Entries within the method's round-off are zero.
          for (Eigen::Index k = 0; k < e.constraint_forms.size(); ++k)
            if (boost::multiprecision::abs(e.constraint_forms[k]) <= zero_tol * f.scale) e.constraint_forms[k] = 0;
          out.largest_bracket_form =
              std::max(out.largest_bracket_form, static_cast<double>(e.constraint_forms.cwiseAbs().maxCoeff()));
          out.brackets.push_back(std::move(e));
        }
      // The forms that annihilate the closure: the orthogonal complement of
      // its basis, written as combinations of the rows of A.
      const int hidden = n - static_cast<int>(f.basis.cols());
      if (hidden > 0) {
        const Eigen::HouseholderQR<Mat<S>> qr(f.basis);
        const Mat<S> Q = qr.householderQ() * Mat<S>::Identity(n, n);
        const Mat<S> nu = Q.rightCols(hidden);  // n x hidden
        const Mat<S> mu = A0.transpose().colPivHouseholderQr().solve(nu);  // r x hidden
        const Mat<S> rows = row_echelon(mu.transpose());
        for (Eigen::Index k = 0; k < rows.rows(); ++k) {
          IntegrableCombination c{rows.row(k).transpose(), A0.transpose() * rows.row(k).transpose()};
          const S largest = c.nu.cwiseAbs().maxCoeff();
          for (Eigen::Index i = 0; i < c.nu.size(); ++i)
            if (boost::multiprecision::abs(c.nu[i]) < S("1e-40") * largest) c.nu[i] = 0;
          out.combinations.push_back(std::move(c));
        }
      }
      out.hidden_holonomic = hidden;
      first = false;
    } else if (f.growth != out.growth) {
      throw InvalidState("constraint classification: the growth vector is (" + int_list(out.growth) + ") at q = " +
                         point_text(points.front()) + " but (" + int_list(f.growth) + ") at q = " + point_text(q) +
                         ": a sample point lies on a set where the rank drops");
    }
    out.largest_inside_residual = std::max(out.largest_inside_residual, static_cast<double>(f.largest_inside));
  }
  return true;
}

}  // namespace

ConstraintClassification classify_constraints(const System<mp100>& sys, const Vec<mp100>& q0,
                                              const ClassificationOptions& options) {
  if (q0.size() != sys.n)
    throw UsageError("constraint classification: q has " + std::to_string(q0.size()) +
                     " entries, the system has n = " + std::to_string(sys.n) + " coordinates");
  if (sys.r > sys.n || options.samples < 1)
    throw UsageError("constraint classification: needs r <= n and at least one sample point");
  std::mt19937_64 rng(options.seed);
  ConstraintClassification out;
  // Sample points with dC/dqdot of full rank (rank loss would make ker A
  // larger there, and the test is about generic points).
  for (int k = 0; k < options.samples; ++k) {
    bool found = false;
    for (int attempt = 0; attempt < 20 && !found; ++attempt) {
      const Vec<S> q = draw_near(q0, options.radius, rng);
      const Mat<S> A = constraint_jacobians(sys, q, draw_unit(sys.n, rng)).C_qdot;
      if (full_row_rank(A)) {
        out.sample_points.push_back(q);
        found = true;
      }
    }
    if (!found)
      throw SingularState("rank loss of dC/dqdot",
                          "constraint classification: dC/dqdot has rank below r = " + std::to_string(sys.r) +
                              " at 20 points near q = " + point_text(q0));
  }
  classify_each_constraint(sys, out.sample_points, rng, out);
  find_cyclic(sys, out.sample_points, rng, out);
  if (sys.r == 0) {
    out.frobenius_skipped = "no constraints";
  } else if (!out.all_linear) {
    const auto affine = std::find_if(out.constraints.begin(), out.constraints.end(),
                                     [](const ConstraintKind& k) { return k.affine; });
    out.frobenius_skipped = affine != out.constraints.end()
                                ? "constraint " + affine->name +
                                      " is affine in qdot (the test is for the homogeneous A(q) qdot = 0)"
                                : "a constraint is not linear in qdot (the test is for A(q) qdot = 0)";
  } else {
    out.frobenius_done = frobenius(sys, out.sample_points, options.max_frame_evaluations, out);
  }
  return out;
}

}  // namespace nhs
