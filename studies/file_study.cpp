// A system file as a Study<S> (nhs/studies/system_file.hpp): its system
// (file_description.hpp), the projection onto [holonomic], the initial
// state, the invariants, the special motions ([[exact]]), the families of
// steady motions ([[steady]]) and random regular states.
#include "file_description.hpp"

#include "nhs/manifold.hpp"
#include "nhs/semidefinite_mass.hpp"

#include <Eigen/Eigenvalues>

#include <map>
#include <optional>
#include <vector>

namespace nhs {
namespace {

using namespace file_detail;

/// f(q) of [holonomic] and, when asked, df/dq by forward AD (n directions).
template <class S>
Vec<S> holonomic_values(const SystemFile& file, const Constants<S>& c, const std::vector<S>& values, const Vec<S>& q,
                        Mat<S>* jacobian) {
  const auto h = static_cast<Eigen::Index>(file.holonomic.outputs.size());
  Vec<S> f(h);
  if (!jacobian) {
    evaluate(file.holonomic, c, Params<S>(values), {&q}, f.data());
    return f;
  }
  const Eigen::Index n = q.size();
  Vec<AD1<S>> qa(n);
  for (Eigen::Index i = 0; i < n; ++i) qa[i] = AD1<S>(q[i], Vec<S>::Unit(n, i));
  Vec<AD1<S>> out(h);
  evaluate(file.holonomic, c, Params<AD1<S>>(values, n), {&qa}, out.data());
  *jacobian = Mat<S>::Zero(h, n);
  for (Eigen::Index k = 0; k < h; ++k) {
    f[k] = out[k].value();
    if (out[k].derivatives().size() == n) jacobian->row(k) = out[k].derivatives().transpose();
  }
  return f;
}

/// q onto f(q) = 0 by minimum-norm Gauss-Newton steps, q -= J^T (J J^T)^-1 f
/// with J = df/dq (h x n, full row rank), until a step is below a few
/// epsilon (at most 30 steps). Euclidean in q, not the kinetic-energy
/// metric of the velocities' projection. SingularState where J J^T is
/// singular; InvalidState when the steps do not converge.
template <class S>
void project_onto_holonomic(const SystemFile& file, const Constants<S>& c, const std::vector<S>& values, Vec<S>& q) {
  using std::abs;
  for (int it = 0; it < 30; ++it) {
    Mat<S> J;
    const Vec<S> f = holonomic_values<S>(file, c, values, q, &J);
    const Mat<S> JJt = J * J.transpose();
    const Eigen::FullPivLU<Mat<S>> lu(JJt);
    if (!lu.isInvertible() || !f.allFinite())
      throw SingularState("holonomic constraints singular",
                          "projecting q onto the holonomic constraints: df/dq loses rank (or f is not finite) at q = " +
                              to_string(q));
    const Vec<S> step = J.transpose() * lu.solve(f);
    q -= step;
    const S scale = 1 + S(q.cwiseAbs().maxCoeff());
    if (S(step.cwiseAbs().maxCoeff()) <= 4 * epsilon<S>() * scale) return;
  }
  throw InvalidState("projecting q onto the holonomic constraints: Gauss-Newton did not converge in 30 steps at q = " +
                     to_string(q));
}

template <class S>
std::optional<HolonomicConstraints<S>> holonomic_of(const std::shared_ptr<const SystemFile>& file) {
  if (file->holonomic_names.empty()) return std::nullopt;
  auto c = std::make_shared<const Constants<S>>(constants_of<S>(file->holonomic));
  return HolonomicConstraints<S>{file->holonomic_names, file->holonomic_dependent,
                                 [file, c](const System<S>& sys, const Vec<S>& q, Mat<S>* jacobian) {
                                   return holonomic_values<S>(*file, *c, sys.parameters, q, jacobian);
                                 }};
}

template <class S>
State<S> initial_state(const SystemFile& f, const System<S>& sys,
                       const std::optional<HolonomicConstraints<S>>& holonomic = std::nullopt) {
  State<S> s;
  s.q = evaluate_constant<S>(f.initial_q, sys.parameters);
  if (holonomic) admit_holonomic<S>(*holonomic, sys, s.q, default_manifold_tolerance<S>());
  if (f.initial_qdot) {
    s.qdot = evaluate_constant<S>(*f.initial_qdot, sys.parameters);
  } else {
    const Vec<S> z = evaluate_constant<S>(*f.initial_z, sys.parameters);
    s.qdot.resize(sys.n);
    sys.parametrization(s.q, z, s.qdot);
  }
  return s;
}

/// (q(t), qdot(t)) of a closed form: qdot given, or d/dt of q(t) by AD.
template <class S>
State<S> exact_state(const FileExactMotion& m, const Constants<S>& cq, const Constants<S>& cqd,
                     const std::vector<S>& values, const S& t) {
  const Eigen::Index n = static_cast<Eigen::Index>(m.q.outputs.size());
  State<S> s;
  s.q.resize(n);
  s.qdot.resize(n);
  if (!m.qdot.outputs.empty()) {
    Vec<S> tv(1);
    tv << t;
    evaluate(m.q, cq, Params<S>(values), {&tv}, s.q.data());
    evaluate(m.qdot, cqd, Params<S>(values), {&tv}, s.qdot.data());
  } else {
    Vec<AD1<S>> tv(1);
    tv[0] = AD1<S>(t, Vec<S>::Ones(1));
    Vec<AD1<S>> out(n);
    evaluate(m.q, cq, Params<AD1<S>>(values, 1), {&tv}, out.data());
    for (Eigen::Index i = 0; i < n; ++i) {
      s.q[i] = out[i].value();
      s.qdot[i] = out[i].derivatives().size() ? out[i].derivatives()[0] : S(0);
    }
  }
  return s;
}

/// A [[steady]] family's state at mu with its derivatives along mu, by
/// forward AD (AD1 with p directions).
template <class S>
SteadyPoint<S> steady_point(const FileSteadyFamily& fam, const Constants<S>& cq, const Constants<S>& cv,
                            const std::vector<S>& values, const Vec<S>& mu) {
  const Eigen::Index p = mu.size();
  if (p != static_cast<Eigen::Index>(fam.parameters.size()))
    throw UsageError("steady family '" + fam.name + "' takes " + std::to_string(fam.parameters.size()) +
                     " parameters, not " + std::to_string(p));
  Vec<AD1<S>> m(p);
  for (Eigen::Index j = 0; j < p; ++j) m[j] = AD1<S>(mu[j], Vec<S>::Unit(p, j));
  const auto run = [&](const Program& program, const Constants<S>& c, Vec<S>& value, Mat<S>& d) {
    const auto k = static_cast<Eigen::Index>(program.outputs.size());
    Vec<AD1<S>> out(k);
    evaluate(program, c, Params<AD1<S>>(values, p), {&m}, out.data());
    value.resize(k);
    d = Mat<S>::Zero(k, p);
    for (Eigen::Index i = 0; i < k; ++i) {
      value[i] = out[i].value();
      if (out[i].derivatives().size() == p) d.row(i) = out[i].derivatives().transpose();
    }
  };
  SteadyPoint<S> pt;
  pt.in_z = fam.in_z;
  run(fam.q, cq, pt.q, pt.dq);
  run(fam.v, cv, pt.v, pt.dv);
  return pt;
}

/// The invariants of a file's system: the drift off each holonomic
/// constraint, then the file's [invariants].
template <class S>
std::vector<Invariant<S>> file_invariants(const std::shared_ptr<const SystemFile>& file, const System<S>& sys) {
  std::vector<Invariant<S>> out;
  // The drift off each holonomic constraint f^k(q) = 0: "holonomic_<name>".
  if (!file->holonomic_names.empty()) {
    auto hc = std::make_shared<const Constants<S>>(constants_of<S>(file->holonomic));
    const std::vector<S> values = sys.parameters;
    for (std::size_t k = 0; k < file->holonomic_names.size(); ++k)
      out.push_back({"holonomic_" + file->holonomic_names[k],
                     [file, hc, values, k](const Vec<S>& q, const Vec<S>&) {
                       Vec<S> f(static_cast<Eigen::Index>(file->holonomic.outputs.size()));
                       evaluate(file->holonomic, *hc, Params<S>(values), {&q}, f.data());
                       return f[static_cast<Eigen::Index>(k)];
                     },
                     true});
  }
  if (!file->invariants) return out;
  auto c = std::make_shared<const Constants<S>>(constants_of<S>(*file->invariants));
  const std::vector<S> values = sys.parameters;
  for (std::size_t k = 0; k < file->invariant_names.size(); ++k) {
    out.push_back({file->invariant_names[k],
                   [file, c, values, k](const Vec<S>& q, const Vec<S>& qd) {
                     std::vector<S> v(file->invariants->outputs.size());
                     evaluate(*file->invariants, *c, Params<S>(values), {&q, &qd}, v.data());
                     return v[k];
                   },
                   true});
  }
  return out;
}

/// The file's [[exact]] motions, each with its closed form.
template <class S>
std::vector<SpecialMotion<S>> file_special_motions(const std::shared_ptr<const SystemFile>& file) {
  std::vector<SpecialMotion<S>> out;
  for (std::size_t k = 0; k < file->exact.size(); ++k) {
    const FileExactMotion& m = file->exact[k];
    SpecialMotion<S> mo;
    mo.name = m.name;
    mo.source = file->where("exact." + std::to_string(k));
    mo.parameters = values_with<S>(*file, m.overrides);
    mo.t_end = from_string<S>(m.t_end);
    mo.excluded = m.excluded;
    auto cq = std::make_shared<const Constants<S>>(constants_of<S>(m.q));
    auto cqd = std::make_shared<const Constants<S>>(
        m.qdot.outputs.empty() ? Constants<S>{} : constants_of<S>(m.qdot));
    const std::vector<S> values = mo.parameters;
    mo.exact = [file, k, cq, cqd, values](const S& t) {
      return exact_state<S>(file->exact[k], *cq, *cqd, values, t);
    };
    mo.initial = mo.exact(S(0));
    out.push_back(std::move(mo));
  }
  return out;
}

/// The file's [[steady]] families, each evaluated by steady_point.
template <class S>
std::vector<SteadyFamily<S>> file_steady_families(const std::shared_ptr<const SystemFile>& file) {
  std::vector<SteadyFamily<S>> out;
  for (std::size_t k = 0; k < file->steady.size(); ++k) {
    const FileSteadyFamily& fam = file->steady[k];
    auto cq = std::make_shared<const Constants<S>>(constants_of<S>(fam.q));
    auto cv = std::make_shared<const Constants<S>>(constants_of<S>(fam.v));
    out.push_back({fam.name, file->where("steady." + std::to_string(k)), fam.parameters,
                   [file, k, cq, cv](const System<S>& sys, const Vec<S>& mu) {
                     return steady_point<S>(file->steady[k], *cq, *cv, sys.parameters, mu);
                   }});
  }
  return out;
}

/// A random state near the file's initial state: q within 1 of it, and z
/// (through psi) or qdot (projected onto C) within 1 of 0; SingularState
/// when near a singular set of [singular].
template <class S>
State<S> file_random_state(const SystemFile& file, const System<S>& sys, std::mt19937_64& rng) {
  const State<S> s0 = initial_state<S>(file, sys);
  State<S> s;
  s.q = s0.q;
  for (auto& v : s.q) v += uniform<S>(rng, -1, 1);
  if (sys.has_parametrization()) {
    Vec<S> z(sys.m);
    for (auto& v : z) v = uniform<S>(rng, -1, 1);
    s.qdot.resize(sys.n);
    sys.parametrization(s.q, z, s.qdot);
  } else {
    Vec<S> qd(sys.n);
    for (auto& v : qd) v = uniform<S>(rng, -1, 1);
    s.qdot = project_velocity(sys, s.q, qd);
  }
  // Near a singular set of [singular]: refused, as the built-ins redraw.
  if (sys.singular_margins) {
    const S floor = file_random_state_margin_floor<S>();
    for (const Margin<S>& mg : sys.singular_margins(s.q, s.qdot))
      if (!(mg.value >= floor))
        throw SingularState(mg.condition, "random state near a singular set: " + mg.condition + " (" +
                                              mg.name + " = " + to_string<S>(mg.value) + " < " +
                                              to_string<S>(floor) + ") " + state_context(s.q, s.qdot));
  }
  return s;
}

}  // namespace

template <class S>
Study<S> file_study(std::shared_ptr<const SystemFile> file) {
  Study<S> st;
  st.info = file->info;
  st.builder = [file](const std::vector<S>& values, AdBinding b) {
    System<S> sys = file_system<S>(file, values, b);
    if (!file->holonomic_names.empty()) {
      auto c = std::make_shared<const Constants<S>>(constants_of<S>(file->holonomic));
      sys.project_coordinates = [file, c, values](Vec<S>& q) { project_onto_holonomic<S>(*file, *c, values, q); };
    }
    return sys;
  };
  st.parameter_violation = [file](const std::vector<S>& values) {
    return file_parameter_violation<S>(*file, values);
  };
  st.holonomic = holonomic_of<S>(file);
  st.default_state = [file, h = st.holonomic](const System<S>& sys) { return initial_state<S>(*file, sys, h); };
  st.default_run_excluded = file->initial_excluded;
  st.invariants = [file](const System<S>& sys) { return file_invariants<S>(file, sys); };
  // T + V is a first integral when no force acts and no constraint's
  // reaction does work (every C^a homogeneous in qdot).
  const bool conserved = energy_not_conserved_reason(*file).empty();
  st.conserves_energy = [conserved](const System<S>&) { return conserved; };
  st.special_motions = [file] { return file_special_motions<S>(file); };
  st.steady_families = [file] { return file_steady_families<S>(file); };
  st.random_state = [file](const System<S>& sys, std::mt19937_64& rng) {
    return file_random_state<S>(*file, sys, rng);
  };
  return st;
}

#define NHS_FILE_STUDY_(S, NAME) template Study<S> file_study<S>(std::shared_ptr<const SystemFile>);
NHS_FOR_EACH_SCALAR(NHS_FILE_STUDY_)

}  // namespace nhs
