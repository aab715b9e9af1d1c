// The list of built-in studies and the helpers shared by all of them.
#include "nhs/format.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/system_file.hpp"

#include <Eigen/LU>

#include <iterator>
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

template <class S>
void admit_holonomic(const HolonomicConstraints<S>& h, const System<S>& sys, Vec<S>& q, const S& tol) {
  using std::abs;
  const auto k = static_cast<Eigen::Index>(h.names.size());
  const auto max_abs_of = [](const Vec<S>& v) { return v.size() ? S(v.cwiseAbs().maxCoeff()) : S(0); };
  if (!h.dependent.empty()) {
    bool converged = false;
    for (int it = 0; it < 60 && !converged; ++it) {
      Mat<S> J;
      const Vec<S> f = h.f(sys, q, &J);
      Mat<S> Jd(k, k);
      for (Eigen::Index c = 0; c < k; ++c) Jd.col(c) = J.col(h.dependent[static_cast<std::size_t>(c)]);
      const Eigen::FullPivLU<Mat<S>> lu(Jd);
      if (!lu.isInvertible() || !f.allFinite()) {
        std::string names;
        for (const int i : h.dependent) names += (names.empty() ? "" : ", ") + sys.info.coordinates[static_cast<std::size_t>(i)];
        throw SingularState("holonomic constraints singular",
                            "the holonomic constraints cannot be solved for the dependent coordinates " + names +
                                ": df/dq on them is singular (or f is not finite) at q = " + to_string(q));
      }
      const Vec<S> step = lu.solve(f);
      S largest = S(0);
      for (Eigen::Index c = 0; c < k; ++c) {
        const auto i = h.dependent[static_cast<std::size_t>(c)];
        q[i] -= step[c];
        largest = std::max(largest, S(abs(q[i])));
      }
      converged = max_abs_of(step) <= 4 * epsilon<S>() * (1 + largest);
    }
    if (!converged)
      throw InvalidState("the holonomic constraints: Newton's method for the dependent coordinates did not converge "
                         "in 60 steps (max|f| = " + to_string<S>(max_abs_of(h.f(sys, q, nullptr))) + " at q = " +
                         to_string(q) + ")");
  }
  const Vec<S> f = h.f(sys, q, nullptr);
  const S bound = tol * (1 + max_abs_of(q));
  std::string off;
  for (Eigen::Index c = 0; c < k; ++c)
    if (!(abs(f[c]) <= bound)) off += (off.empty() ? "" : ", ") + h.names[static_cast<std::size_t>(c)] + " = " + to_string<S>(f[c]);
  if (!off.empty())
    throw InvalidState("q is off the holonomic constraints: " + off + " (tolerance " + to_string<S>(bound) + ") at q = " +
                       to_string(q) + (h.dependent.empty() ? "; declare dependent_coordinates in [holonomic] to have "
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
