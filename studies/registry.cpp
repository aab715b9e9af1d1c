// The list of built-in studies and the helpers shared by all of them.
#include "nhs/format.hpp"
#include "nhs/scaled_norm.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/system_file.hpp"

#include <Eigen/LU>

#include <iterator>
#include <optional>
#include <mutex>
#include <string>
#include <vector>

namespace nhs {

template <class S>
std::vector<S> Study<S>::default_parameters() const {
  std::vector<S> values;
  for (const auto& p : info.parameters) values.push_back(from_string<S>(p.default_value));
  return values;
}

namespace {

// A built-in study's name is its id with '-' for '_' (list.hpp); the
// registry test holds every study to it.
std::string name_of_id(const char* id) {
  std::string name = id;
  for (char& c : name)
    if (c == '_') c = '-';
  return name;
}

const std::vector<std::string>& built_in_names() {
#define NHS_STUDY_NAME_(ID) name_of_id(#ID),
  static const std::vector<std::string> names = {NHS_FOR_EACH_STUDY(NHS_STUDY_NAME_)};
#undef NHS_STUDY_NAME_
  return names;
}

// The built-in studies in one vector, each slot built once, on first use:
// `nhs run skate` builds the skate alone, not the whole list (start-up,
// docs/cli.md), and find_study and studies<S>() hand out the same
// objects. Thread-safe: one once_flag per slot.
template <class S>
class BuiltIn {
 public:
  static BuiltIn& instance() {
    static BuiltIn registry;
    return registry;
  }
  const Study<S>& at(std::size_t k) {
    std::call_once(built_[k], [&] { all_[k] = kMakers[k](); });
    return all_[k];
  }
  const std::vector<Study<S>>& all() {
    for (std::size_t k = 0; k < all_.size(); ++k) at(k);
    return all_;
  }

 private:
#define NHS_STUDY_MAKER_(ID) &ID##_study<S>,
  static constexpr Study<S> (*kMakers[])() = {NHS_FOR_EACH_STUDY(NHS_STUDY_MAKER_)};
#undef NHS_STUDY_MAKER_
  static constexpr std::size_t kCount = std::size(kMakers);
  std::vector<Study<S>> all_ = std::vector<Study<S>>(kCount);
  std::once_flag built_[kCount];
};

}  // namespace

template <class S>
const std::vector<Study<S>>& studies() {
  return BuiltIn<S>::instance().all();
}

template <class S>
const Study<S>& find_study(const std::string& name) {
  if (is_system_file_name(name)) return cached_file_study<S>(name);
  const std::vector<std::string>& names = built_in_names();
  std::string known;
  for (std::size_t k = 0; k < names.size(); ++k) {
    if (names[k] == name) return BuiltIn<S>::instance().at(k);
    known += (known.empty() ? "" : ", ") + names[k];
  }
  if (const Study<S>* sized = find_n_trailer_study<S>(name)) return *sized;
  for (const BundledSystem& b : bundled_systems()) known += ", " + b.name;
  throw UsageError("unknown study '" + name + "' (known: " + known +
                   ", n-trailer-<N>, or a system file: a path containing '/' or ending in .toml)");
}

std::size_t parameter_index(const SystemInfo& info, const std::string& name) {
  std::string known;
  for (std::size_t i = 0; i < info.parameters.size(); ++i) {
    if (info.parameters[i].name == name) return i;
    known += (known.empty() ? "" : ", ") + info.parameters[i].name;
  }
  throw UsageError("study '" + info.name + "' has no parameter '" + name + "' (known: " + known + ")");
}

template <class S>
std::vector<S> parameters_with(const Study<S>& study,
                               const std::vector<std::pair<std::string, std::string>>& overrides) {
  std::vector<S> values = study.default_parameters();
  for (const auto& [name, text] : overrides) {
    const std::size_t i = parameter_index(study.info, name);
    try {
      values[i] = from_string<S>(text);
    } catch (const MalformedNumber& e) {
      throw UsageError("parameter " + name + ": " + e.what());
    }
  }
  return values;
}

template <class S>
std::vector<S> parameters_with_values(const Study<S>& study,
                                      const std::vector<std::pair<std::string, S>>& overrides) {
  std::vector<S> values = study.default_parameters();
  for (const auto& [name, value] : overrides) values[parameter_index(study.info, name)] = value;
  return values;
}

template <class S>
State<S> random_state_from_chart(const System<S>& sys, std::mt19937_64& rng) {
  State<S> s;
  s.q.resize(sys.n);
  for (auto& v : s.q) v = uniform<S>(rng, -3, 3);
  Vec<S> z(sys.m);
  for (auto& v : z) v = uniform<S>(rng, -1, 1);
  s.qdot.resize(sys.n);
  sys.parametrization(s.q, z, s.qdot);
  return s;
}

namespace {

template <class S>
S max_abs_of(const Vec<S>& v) {
  return v.size() ? S(v.cwiseAbs().maxCoeff()) : S(0);
}

template <class S>
std::string dependent_names(const HolonomicConstraints<S>& h, const System<S>& sys) {
  std::string names;
  for (const int i : h.dependent) names += (names.empty() ? "" : ", ") + sys.info.coordinates[static_cast<std::size_t>(i)];
  return names;
}

/// df/dq on the dependent coordinates (h x h) of J (h x n).
template <class S>
Mat<S> dependent_columns(const HolonomicConstraints<S>& h, const Mat<S>& J) {
  const auto k = static_cast<Eigen::Index>(h.dependent.size());
  Mat<S> Jd(k, k);
  for (Eigen::Index c = 0; c < k; ++c) Jd.col(c) = J.col(h.dependent[static_cast<std::size_t>(c)]);
  return Jd;
}

/// Newton's steps that shrink only linearly, by a steady factor rho in
/// (0.2, 0.99) over the last 6 steps and by 1e-6 in all, mark a root where
/// df/dq vanishes (a root of multiplicity about 1 / (1 - rho), e.g. a
/// constraint written squared): the factor, or nullopt. A simple root's
/// steps shrink quadratically, their last ratio far below 0.2.
template <class S>
std::optional<S> linear_shrink_factor(const std::vector<S>& steps) {
  const std::size_t k = steps.size();
  if (k < 8 || !(steps.back() <= S(1e-6) * steps.front())) return std::nullopt;
  for (std::size_t i = k - 6; i < k; ++i) {
    const S rho = steps[i] / steps[i - 1];
    if (!(rho > S(0.2) && rho < S(0.99))) return std::nullopt;
  }
  return steps[k - 1] / steps[k - 2];
}

/// SingularState at a root where the gradient of a holonomic constraint
/// vanishes: names the constraint whose gradient on the dependent
/// coordinates shrank most from q0 (Jd0) to q (Jd), the factor rho and q.
template <class S>
[[noreturn]] void throw_singular_root(const HolonomicConstraints<S>& h, const System<S>& sys, const Vec<S>& q,
                                      const Mat<S>& Jd0, const Mat<S>& Jd, const S& rho) {
  Eigen::Index worst = 0;
  S least = S(1);
  for (Eigen::Index c = 0; c < Jd.rows(); ++c) {
    const S start = scaled_norm<S>(Jd0.row(c)), shrink = start > 0 ? S(scaled_norm<S>(Jd.row(c)) / start) : S(0);
    if (c == 0 || shrink < least) {
      least = shrink;
      worst = c;
    }
  }
  using std::round;
  throw SingularState("holonomic constraints singular",
                      "the holonomic constraint " + h.names[static_cast<std::size_t>(worst)] +
                          " has a singular root: its gradient df/dq on the dependent coordinates " +
                          dependent_names(h, sys) + " vanishes there (Newton's steps shrink only by a factor " +
                          to_string<S>(rho) + " each, as at a root of multiplicity about " +
                          to_string<S>(round(1 / (1 - rho))) + ", e.g. a constraint written squared; "
                          "its gradient is " + to_string<S>(S(Jd.row(worst).norm())) + " there, " +
                          to_string<S>(S(Jd0.row(worst).norm())) + " at the start) at q = " + to_string(q));
}

/// Newton's method for the dependent coordinates (the others held), to a
/// step of 4 epsilon (1 + their largest |q|), at most 60 steps; as
/// admit_holonomic describes.
template <class S>
void solve_for_dependent(const HolonomicConstraints<S>& h, const System<S>& sys, Vec<S>& q) {
  using std::abs;
  std::vector<S> steps;
  Mat<S> Jd0;
  for (int it = 0; it < 60; ++it) {
    Mat<S> J;
    const Vec<S> f = h.f(sys, q, &J);
    const Mat<S> Jd = dependent_columns(h, J);
    if (it == 0) Jd0 = Jd;
    const Eigen::FullPivLU<Mat<S>> lu(Jd);
    if (!lu.isInvertible() || !f.allFinite()) {
      if (const auto rho = linear_shrink_factor(steps)) throw_singular_root(h, sys, q, Jd0, Jd, *rho);
      throw SingularState("holonomic constraints singular",
                          "the holonomic constraints cannot be solved for the dependent coordinates " +
                              dependent_names(h, sys) + ": df/dq on them is singular (or f is not finite) at q = " +
                              to_string(q));
    }
    const Vec<S> step = lu.solve(f);
    S largest = S(0);
    for (Eigen::Index c = 0; c < step.size(); ++c) {
      const auto i = h.dependent[static_cast<std::size_t>(c)];
      q[i] -= step[c];
      largest = std::max(largest, S(abs(q[i])));
    }
    steps.push_back(max_abs_of(step));
    if (steps.back() <= 4 * epsilon<S>() * (1 + largest)) {
      // Converged, but only linearly: a singular root all the same.
      if (const auto rho = linear_shrink_factor(steps)) throw_singular_root(h, sys, q, Jd0, Jd, *rho);
      return;
    }
  }
  Mat<S> J;
  const Vec<S> f = h.f(sys, q, &J);
  if (const auto rho = linear_shrink_factor(steps)) throw_singular_root(h, sys, q, Jd0, dependent_columns(h, J), *rho);
  throw InvalidState("the holonomic constraints: Newton's method for the dependent coordinates did not converge "
                     "in 60 steps (max|f| = " + to_string<S>(max_abs_of(f)) + " at q = " + to_string(q) + ")");
}

}  // namespace

template <class S>
void admit_holonomic(const HolonomicConstraints<S>& h, const System<S>& sys, Vec<S>& q, const S& tol) {
  using std::abs;
  if (!h.dependent.empty()) solve_for_dependent(h, sys, q);
  // Each f^k by its distance from q to its level set f^k = 0, |f^k| /
  // |df^k/dq| to first order: a constraint written times 1e200 or 1e-200
  // is judged as written times 1.
  Mat<S> J;
  const Vec<S> f = h.f(sys, q, &J);
  const S reach = tol * (1 + max_abs_of(q));
  std::string off;
  for (Eigen::Index c = 0; c < f.size(); ++c) {
    const S gradient = scaled_norm<S>(J.row(c));  // 1e-200 x a gradient is no 0 in double
    const std::string& name = h.names[static_cast<std::size_t>(c)];
    if (f[c] == 0 && !(gradient > 0))
      throw SingularState("holonomic constraints singular", "the holonomic constraint " + name +
                                                                " is singular at q = " + to_string(q) +
                                                                ": its gradient df/dq vanishes there");
    if (abs(f[c]) <= reach * gradient) continue;
    off += (off.empty() ? "" : ", ") + name + " = " + to_string<S>(f[c]) + " (|f|/|df/dq| = " +
           to_string<S>(S(abs(f[c]) / gradient)) + ")";
  }
  if (!off.empty())
    throw InvalidState("q is off the holonomic constraints: " + off + " (tolerance " + to_string<S>(reach) +
                       " on |f|/|df/dq|) at q = " + to_string(q) +
                       (h.dependent.empty() ? "; declare dependent_coordinates in [holonomic] to have "
                                              "them solved for" : ""));
}

#define NHS_REGISTRY_INSTANTIATE_(S, NAME)                                                   \
  template void admit_holonomic<S>(const HolonomicConstraints<S>&, const System<S>&, Vec<S>&, const S&); \
  template struct Study<S>;                                                                  \
  template const std::vector<Study<S>>& studies<S>();                                        \
  template const Study<S>& find_study<S>(const std::string&);                                \
  template std::vector<S> parameters_with<S>(                                                \
      const Study<S>&, const std::vector<std::pair<std::string, std::string>>&);             \
  template std::vector<S> parameters_with_values<S>(const Study<S>&,                                     \
                                                    const std::vector<std::pair<std::string, S>>&);    \
  template State<S> random_state_from_chart<S>(const System<S>&, std::mt19937_64&);
NHS_FOR_EACH_SCALAR(NHS_REGISTRY_INSTANTIATE_)

}  // namespace nhs
