// A system file as a Study<S> (nhs/studies/system_file.hpp): its
// description evaluates the file's programs (nhs/expression.hpp) in every
// evaluation type, so describe() (system.hpp) binds it like a C++
// description.
#include "nhs/derivatives.hpp"
#include "nhs/format.hpp"
#include "nhs/manifold.hpp"
#include "nhs/semidefinite_mass.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/system_file.hpp"

#include <Eigen/Eigenvalues>

#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace nhs {
namespace {

using expression::Constants;
using expression::constants_of;
using expression::evaluate;
using expression::Program;

/// The constants of every program of a file, in S.
template <class S>
struct FileConstants {
  Constants<S> T, V, F, N, C, psi, chart, bodies, singular, domain;
  explicit FileConstants(const SystemFile& f)
      : T(constants_of<S>(f.kinetic_energy)),
        V(f.potential ? constants_of<S>(*f.potential) : Constants<S>{}),
        F(f.forces ? constants_of<S>(*f.forces) : Constants<S>{}),
        N(f.nonideal ? constants_of<S>(*f.nonideal) : Constants<S>{}),
        C(constants_of<S>(f.constraints)),
        psi(f.parametrization ? constants_of<S>(*f.parametrization) : Constants<S>{}),
        chart(f.chart ? constants_of<S>(*f.chart) : Constants<S>{}),
        bodies(f.bodies ? constants_of<S>(*f.bodies) : Constants<S>{}),
        singular(f.singular ? constants_of<S>(*f.singular) : Constants<S>{}),
        domain(f.domain ? constants_of<S>(*f.domain) : Constants<S>{}) {}
};

/// The conditions of a file's [parametrization] domain at (q, z): `sides`
/// holds a and b of each condition "a > b" or "a < b" (2 per condition),
/// `margins` a - b or b - a (positive inside). Precondition: f.domain.
template <class S>
struct DomainValues {
  std::vector<S> sides, margins;
};
template <class S>
DomainValues<S> domain_values(const SystemFile& f, const Constants<S>& c, const Params<S>& p, const Vec<S>& q,
                              const Vec<S>& z) {
  DomainValues<S> v;
  v.sides.resize(f.domain->outputs.size());
  evaluate(*f.domain, c, p, {&q, &z}, v.sides.data());
  for (std::size_t k = 0; k < f.domain_conditions.size(); ++k) {
    const S& a = v.sides[2 * k];
    const S& b = v.sides[2 * k + 1];
    v.margins.push_back(f.domain_conditions[k].greater ? S(a - b) : S(b - a));
  }
  return v;
}

/// Why (q, z) is outside a file's [parametrization] domain: the index of
/// the first condition that does not hold (a margin not > 0, or NaN), and
/// a text naming it with its sides' values and the state; nullopt inside.
/// Precondition: f.domain.
template <class S>
std::optional<std::pair<std::size_t, std::string>> outside_domain(const SystemFile& f, const Constants<S>& c,
                                                                  const Params<S>& p, const Vec<S>& q,
                                                                  const Vec<S>& z) {
  const DomainValues<S> v = domain_values<S>(f, c, p, q, z);
  for (std::size_t k = 0; k < f.domain_conditions.size(); ++k)
    if (!(v.margins[k] > 0))
      return std::pair{k, "the condition " + f.domain_conditions[k].text + " of the domain of psi and its chart (" +
                              f.where("domain") + ") does not hold: its sides are " + to_string<S>(v.sides[2 * k]) +
                              " and " + to_string<S>(v.sides[2 * k + 1]) + ", at q = " + to_string(q) +
                              ", z = " + to_string(z)};
  return std::nullopt;
}

/// The condition (SingularState::condition, Margin::condition) of a
/// domain's boundary and what lies beyond it.
std::string domain_condition(const FileDomainCondition& d) {
  return "outside the domain of the chart or on its boundary: " + d.text +
         " ([parametrization] domain, at z = chart(q, qdot))";
}

/// The description of a system file (describe(), system.hpp), in base
/// scalar S: every member evaluates one of the file's programs.
template <class S>
struct FileDescription {
  std::shared_ptr<const SystemFile> file;
  std::shared_ptr<const FileConstants<S>> c;

  bool declares(std::string_view member) const {
    if (member == "potential") return file->potential.has_value();
    if (member == "parametrization") return file->parametrization.has_value();
    if (member == "bodies") return file->bodies.has_value();
    if (member == "nonconservative_force") return file->forces.has_value();
    if (member == "nonideal_work") return file->nonideal.has_value();
    if (member == "singular_margins") return file->singular.has_value() || file->domain.has_value();
    return true;
  }
  template <class T>
  T kinetic_energy(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd) const {
    T out;
    evaluate(file->kinetic_energy, c->T, p, {&q, &qd}, &out);
    return out;
  }
  template <class T>
  T potential(const Params<T>& p, const Vec<T>& q) const {
    T out;
    evaluate(*file->potential, c->V, p, {&q}, &out);
    return out;
  }
  template <class T>
  void constraints(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Vec<T>& C) const {
    evaluate(file->constraints, c->C, p, {&q, &qd}, C.data());
  }
  /// psi(q, z); SingularState when z is outside [parametrization] domain,
  /// with the condition of the domain's margin (domain_condition): an
  /// invalid state refused by name, and along a motion (a formulation whose
  /// state holds z, e.g. Maggi's) a stop where it leaves the domain.
  /// Checked in the scalar types, not in AD or tracing (their z comes from
  /// a state checked in S).
  template <class T>
  void parametrization(const Params<T>& p, const Vec<T>& q, const Vec<T>& z, Vec<T>& qd) const {
    if constexpr (std::is_same_v<T, S> && requires { ScalarName<S>::value; }) {
      if (file->domain)
        if (const auto why = outside_domain<S>(*file, c->domain, p, q, z))
          throw SingularState(domain_condition(file->domain_conditions[why->first]),
                              "z is outside the domain of the parametrization: " + why->second);
    }
    evaluate(*file->parametrization, c->psi, p, {&q, &z}, qd.data());
  }
  template <class T>
  void chart(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Vec<T>& z) const {
    evaluate(*file->chart, c->chart, p, {&q, &qd}, z.data());
  }
  template <class T>
  void nonconservative_force(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Vec<T>& F) const {
    evaluate(*file->forces, c->F, p, {&q, &qd}, F.data());
  }
  template <class T>
  void nonideal_work(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Vec<T>& C) const {
    evaluate(*file->nonideal, c->N, p, {&q, &qd}, C.data());
  }
  /// [singular]: one margin per singular set, in the file's order: |its
  /// expression| at (q, qd) (both size n), named "margin_<key>", with the
  /// set's meaning as condition; then one per condition of [parametrization]
  /// domain (FileDomainCondition) at z = chart(q, qd), 0 outside the domain
  /// (NaN where it is undefined). Precondition: declares("singular_margins").
  std::vector<Margin<S>> singular_margins(const Params<S>& p, const Vec<S>& q, const Vec<S>& qd) const {
    using std::abs;
    std::vector<Margin<S>> out;
    if (file->singular) {
      std::vector<S> v(file->singular->outputs.size());
      evaluate(*file->singular, c->singular, p, {&q, &qd}, v.data());
      for (std::size_t k = 0; k < v.size(); ++k)
        out.push_back({file->singular_sets[k].name, S(abs(v[k])), file->singular_sets[k].condition});
    }
    if (file->domain) {
      Vec<S> z(static_cast<Eigen::Index>(file->info.quasi_velocities.size()));
      evaluate(*file->chart, c->chart, p, {&q, &qd}, z.data());
      const DomainValues<S> v = domain_values<S>(*file, c->domain, p, q, z);
      for (std::size_t k = 0; k < file->domain_conditions.size(); ++k) {
        S margin = v.margins[k];
        if constexpr (requires { ScalarName<S>::value; })
          if (margin < 0) margin = S(0);  // outside: 0, as on a singular set (NaN stays NaN)
        out.push_back({file->domain_conditions[k].name, margin, domain_condition(file->domain_conditions[k])});
      }
    }
    return out;
  }
  template <class T>
  void bodies(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Bodies<T>& out) const {
    std::vector<T> v(file->bodies->outputs.size());
    evaluate(*file->bodies, c->bodies, p, {&q, &qd}, v.data());
    for (const FileBody& b : file->body_layout) {
      std::size_t k = static_cast<std::size_t>(b.first);
      const T mass = v[k++];
      Vec<T> r(b.dimension);
      for (int i = 0; i < b.dimension; ++i) r[i] = v[k++];
      switch (b.kind) {
        case FileBody::Kind::Point: out.add_point(mass, std::move(r)); break;
        case FileBody::Kind::Planar: {
          const T w = v[k++];
          out.add_planar_body(mass, std::move(r), w, v[k]);
          break;
        }
        case FileBody::Kind::Space: {
          Vector3<T> w;
          for (int i = 0; i < 3; ++i) w[i] = v[k++];
          Matrix3<T> J;
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) J(i, j) = v[k++];
          out.add_rigid_body(mass, std::move(r), w, J);
          break;
        }
      }
    }
  }
};

template <class S>
System<S> file_system(const std::shared_ptr<const SystemFile>& file, const std::vector<S>& values,
                      AdBinding binding = AdBinding::fastest) {
  FileDescription<S> d{file, std::make_shared<const FileConstants<S>>(*file)};
  return describe<S>(d, values, file->info, binding);
}

/// Evaluates a program of parameters only (n outputs).
template <class S>
Vec<S> evaluate_constant(const Program& p, const std::vector<S>& values) {
  const Constants<S> c = constants_of<S>(p);
  const Params<S> params(values);
  Vec<S> out(static_cast<Eigen::Index>(p.outputs.size()));
  evaluate(p, c, params, {}, out.data());
  return out;
}

template <class S>
std::vector<S> values_with(const SystemFile& f, const std::vector<std::pair<std::string, std::string>>& overrides) {
  std::vector<S> v;
  for (const auto& p : f.info.parameters) v.push_back(from_string<S>(p.default_value));
  for (const auto& [name, text] : overrides)
    for (std::size_t i = 0; i < f.info.parameters.size(); ++i)
      if (f.info.parameters[i].name == name) v[i] = from_string<S>(text);
  return v;
}

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

System<codegen::Expr> traced_file_system(std::shared_ptr<const SystemFile> file,
                                         const std::vector<codegen::Expr>& parameters) {
  return file_system<codegen::Expr>(file, parameters);
}

std::shared_ptr<const SystemFile> cached_system_file(const std::string& name) {
  const std::string path = system_file_path(name);  // a bundled system's file
  // Keyed by the path, and loaded again when the file's modification time
  // or size changed (a notebook edits and reloads a file in one process).
  struct Entry {
    std::shared_ptr<const SystemFile> file;
    std::filesystem::file_time_type mtime;
    std::uintmax_t size = 0;
  };
  static std::mutex mutex;
  static std::map<std::string, Entry> cache;
  std::error_code ec_time, ec_size;
  const auto mtime = std::filesystem::last_write_time(path, ec_time);
  const auto size = std::filesystem::file_size(path, ec_size);
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto it = cache.find(path); it != cache.end()) {
    if (!ec_time && !ec_size && it->second.mtime == mtime && it->second.size == size) return it->second.file;
    cache.erase(it);
  }
  // A file that cannot be read (or is gone) is the loader's to report.
  Entry e{load_system_file(path), mtime, size};
  if (ec_time || ec_size) return e.file;  // not cached: nothing to compare with later
  return cache.emplace(path, std::move(e)).first->second.file;
}

codegen::TracedFormulation trace_file_formulation(const std::shared_ptr<const SystemFile>& file,
                                                  const std::string& formulation) {
  return codegen::trace_formulation(
      [file](const std::vector<codegen::Expr>& p) { return traced_file_system(file, p); },
      static_cast<int>(file->info.parameters.size()), formulation);
}

std::shared_ptr<const codegen::TracedFormulation> cached_trace_file_formulation(const std::string& path,
                                                                               const std::string& formulation) {
  // Keyed by the loaded file (cached_system_file: a new one when the file
  // changed) and the formulation.
  using Key = std::pair<const SystemFile*, std::string>;
  struct Entry {
    std::shared_ptr<const SystemFile> file;  // keeps the key's file alive
    std::shared_ptr<const codegen::TracedFormulation> traced;
  };
  static std::mutex mutex;
  static std::map<Key, Entry> cache;
  const std::shared_ptr<const SystemFile> file = cached_system_file(path);
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = cache.find({file.get(), formulation}); it != cache.end()) return it->second.traced;
  }
  // Traced outside the lock (tens of ms for a large file); a thread that
  // traced the same pair meanwhile keeps the first one stored. Errors
  // (NotApplicable, TracingError) are not cached.
  auto traced = std::make_shared<const codegen::TracedFormulation>(trace_file_formulation(file, formulation));
  const std::lock_guard<std::mutex> lock(mutex);
  return cache.emplace(Key{file.get(), formulation}, Entry{file, std::move(traced)}).first->second.traced;
}

template <class S>
const Study<S>& cached_file_study(const std::string& path) {
  // Built again when the file was (cached_system_file); the study of an
  // older version stays alive, since callers hold references to it.
  struct Entry {
    std::shared_ptr<const SystemFile> file;
    std::unique_ptr<Study<S>> study;
  };
  static std::mutex mutex;
  static std::map<std::string, Entry> cache;
  static std::vector<std::unique_ptr<Study<S>>> retired;
  const std::shared_ptr<const SystemFile> file = cached_system_file(path);
  const std::lock_guard<std::mutex> lock(mutex);
  Entry& entry = cache[path];
  if (entry.file != file) {
    auto study = std::make_unique<Study<S>>(file_study<S>(file));
    if (entry.study) retired.push_back(std::move(entry.study));
    entry = Entry{file, std::move(study)};
  }
  return *entry.study;
}

namespace {

// A failure of describe()'s self-consistency checks (nhs/description_check.hpp)
// on a file's system, in the file's terms and at the table concerned. They
// name the description member found inconsistent ("system '<name>':
// description member `bodies` disagrees with ..."), which a file does not
// have: the bodies' kinetic energy ([[bodies]]), the rank of dC/dqdot
// against m = n - r, or linearity ([constraints]; the loader refuses the
// affine constraints that reached it before). Another UsageError is kept,
// at the file.
FileError description_error(const SystemFile& f, const std::string& message) {
  const std::string prefix = "system '" + f.info.name + "': description member `";
  if (message.rfind(prefix, 0) != 0) return FileError(f.path, message);
  const std::string rest = message.substr(prefix.size());
  const std::size_t colon = rest.find(": ");
  const std::string detail = colon == std::string::npos ? rest : rest.substr(colon + 2);
  const auto member = [&](const std::string& m) { return rest.rfind(m + "`", 0) == 0; };
  if (member("bodies"))
    return FileError(f.where("bodies"), "the kinetic energy of [[bodies]] differs from [dynamics] kinetic_energy: " +
                                            detail);
  if (member("quasi_velocities"))
    return FileError(f.where("constraints"),
                     "the constraints are not independent: at a random state dC/dq_dot has rank below r, so "
                     "that m = n - r quasi_velocities do not parametrize the velocities: quasi_velocities" +
                         rest.substr(std::string("quasi_velocities`").size()));
  if (member("linear_constraints"))
    return FileError(f.where("constraints"),
                     "a constraint found linear in q_dot symbolically is not A(q) q_dot numerically: " + detail);
  if (member("affine_constraints"))
    return FileError(f.where("constraints"),
                     "a constraint found affine in q_dot symbolically is not A(q) q_dot + a0(q) numerically: " +
                         detail);
  return FileError(f.path, message);
}

/// The system of a file at its default parameters; a failure of
/// describe()'s checks as description_error.
template <class S>
System<S> checked_default_system(const SystemFile& file, const Study<S>& st) {
  try {
    return st.build(st.default_parameters());
  } catch (const UsageError& e) {
    throw description_error(file, e.what());
  }
}

/// The initial z of a file with [parametrization] (given, or the chart's),
/// checked against the domain before psi refuses it with less context;
/// nullopt without [parametrization].
template <class S>
std::optional<Vec<S>> initial_z_in_domain(const SystemFile& file, const System<S>& sys) {
  std::optional<Vec<S>> z0;
  if (!sys.has_parametrization()) return z0;
  const Vec<S> q0 = evaluate_constant<S>(file.initial_q, sys.parameters);
  z0 = Vec<S>(sys.m);
  if (file.initial_z)
    *z0 = evaluate_constant<S>(*file.initial_z, sys.parameters);
  else
    sys.chart(q0, evaluate_constant<S>(*file.initial_qdot, sys.parameters), *z0);
  if (file.domain)
    if (const auto why = outside_domain<S>(file, constants_of<S>(*file.domain), Params<S>(sys.parameters), q0, *z0))
      throw FileError(file.where("initial"), std::string("the initial state is outside the domain of the "
                                                         "parametrization: ") + why->second +
                                                 (file.initial_z ? "" : " (z = chart(q, qdot))"));
  return z0;
}

/// The file's initial state (Study::default_state), evaluated and finite;
/// FileError at [initial] otherwise.
template <class S>
State<S> checked_initial_state(const SystemFile& file, const Study<S>& st, const System<S>& sys) {
  const State<S> s0 = [&] {
    try {
      return st.default_state(sys);
    } catch (const std::exception& e) {
      throw FileError(file.where("initial"), std::string("the initial state cannot be evaluated: ") + e.what());
    }
  }();
  if (!s0.q.allFinite() || !s0.qdot.allFinite())
    throw FileError(file.where("initial"), "the initial state is not finite: q = " + to_string(s0.q) +
                                               ", qdot = " + to_string(s0.qdot));
  return s0;
}

/// State x of system s is off the singular sets of [singular] (nhs run
/// refuses a state on one); else a FileError at `where` naming `what`.
template <class S>
void require_regular(const SystemFile& file, const System<S>& s, const State<S>& x, const std::string& where,
                     const std::string& what) {
  if (!s.singular_margins) return;
  const auto& domain = file.domain_conditions;
  for (const Margin<S>& mg : s.singular_margins(x.q, x.qdot))
    if (!(mg.value > 0)) {
      // A margin of a domain condition names its condition, not a singular set.
      const bool of_domain = std::any_of(domain.begin(), domain.end(),
                                         [&](const FileDomainCondition& d) { return d.name == mg.name; });
      throw FileError(file.where(where), what + (of_domain ? " is " : " is on a singular set of [singular]: ") +
                                             mg.condition + " (" + mg.name + " = " + to_string<S>(mg.value) +
                                             ", expected > 0) " + state_context(x.q, x.qdot));
    }
}

/// g positive definite (true), or (massless parts) positive semidefinite
/// with the accelerations determined, [g; A] of full rank (false;
/// semidefinite_mass.hpp); else a FileError at `where`.
template <class S>
bool positive_definite_metric(const SystemFile& file, const System<S>& s, const State<S>& x, const std::string& where,
                              const std::string& what) {
  const Inertia<S> in = inertia(s, x.q, x.qdot);
  Eigen::SelfAdjointEigenSolver<Mat<S>> eig(in.g, Eigen::EigenvaluesOnly);
  if (in.g.allFinite() && eig.eigenvalues().minCoeff() > 0) return true;
  const std::string metric = std::string("the metric g = d^2T/dqdot^2") +
                             (file.kinetic_energy_from_bodies ? " (T from [[bodies]])" : "");
  try {
    auxiliary_mass<S>(in.g, constraint_jacobians(s, x.q, x.qdot).C_qdot, s.info.coordinates,
                      [&] { return state_context(x.q, x.qdot); });
  } catch (const SingularState& e) {
    throw FileError(file.where(where),
                    metric + " is not positive definite at " + what + " (eigenvalues " +
                        to_string(Vec<S>(eig.eigenvalues())) + ")" +
                        (e.condition == "accelerations undetermined"
                             ? ", and the constraints do not determine the accelerations: "
                             : ": ") +
                        e.what());
  }
  return false;
}

/// At (q, z): psi satisfies C, C(q, psi(q, z)) = 0 (each C^a to tol times
/// max(1 + |psi(q, z)| + |z|, sum_i |dC^a/dqdot^i psi^i|)), and the chart
/// inverts psi, to tol times 1 + |psi(q, z)| + |z|; else a FileError. Nothing is
/// checked where psi, C or the chart is not finite (outside the chart's domain).
template <class S>
void check_parametrization_at(const SystemFile& file, const System<S>& sys, const Vec<S>& q, const Vec<S>& z,
                              const S& tol) {
  Vec<S> qd(sys.n), C(sys.r), z2(sys.m);
  sys.parametrization(q, z, qd);
  sys.constraints(q, qd, C);
  sys.chart(q, qd, z2);
  if (!qd.allFinite() || !C.allFinite() || !z2.allFinite()) return;  // outside the chart's domain
  const S scale = S(1) + qd.norm() + z.norm();
  // Where psi or the chart holds on part of z only (v > 0 for a chart
  // v = sqrt(...)), the file says so by a domain.
  const std::string hint =
      file.domain ? std::string()
                  : " (checked at z within 1 of the initial z; if psi and its chart hold on part of z "
                    "only, declare it: [parametrization] domain = [\"...\"], docs/system-files.md)";
  // Each C^a also against its terms' size, sum_i |dC^a/dqdot^i psi^i|: a
  // constraint written times 1e150 is judged by its own size.
  const Mat<S> A = constraint_jacobians(sys, q, qd).C_qdot;
  const Vec<S> terms = (A.cwiseAbs() * qd.cwiseAbs()).cwiseMax(scale);
  if (!(C.cwiseAbs().array() <= tol * terms.array()).all())
    throw FileError(file.where("parametrization"),
                    "the parametrization does not satisfy the constraints: C(q, psi(q, z)) = " +
                        to_string(C) + " at q = " + to_string(q) + ", z = " + to_string(z) + hint);
  if ((z2 - z).cwiseAbs().maxCoeff() > tol * scale)
    throw FileError(file.where("chart"), "the chart does not invert the parametrization: z(q, psi(q, z)) = " +
                                             to_string(z2) + " at q = " + to_string(q) +
                                             ", z = " + to_string(z) + hint);
}

/// check_parametrization_at the initial state (s0.q and its z, z0), then
/// at 8 states with q within 1 of s0.q and z within 1 of z0, drawn inside
/// the domain (at most 400 draws). Precondition: sys has a parametrization.
template <class S>
void check_parametrization(const SystemFile& file, const System<S>& sys, const State<S>& s0, const Vec<S>& z0,
                           const S& tol) {
  std::mt19937_64 rng(20261124);
  const Constants<S> domain = file.domain ? constants_of<S>(*file.domain) : Constants<S>{};
  const Params<S> params(sys.parameters);
  int states = 0;
  for (int draw = 0; draw < 400 && states < 9; ++draw) {
    Vec<S> q = s0.q;
    Vec<S> z = z0;
    if (draw > 0) {
      for (auto& v : q) v += uniform<S>(rng, -1, 1);
      for (auto& v : z) v += uniform<S>(rng, -1, 1);
      if (file.domain && outside_domain<S>(file, domain, params, q, z)) continue;
    }
    ++states;
    check_parametrization_at(file, sys, q, z, tol);
  }
}

/// Each [[exact]] motion builds at its parameters, starts on C (its closed
/// form at t = 0, to tol times 1 + |qdot|^2) off the singular sets, with
/// positive_definite_metric there; else a FileError at the motion.
template <class S>
void check_exact_motions(const SystemFile& file, const Study<S>& st, const S& tol) {
  const auto motions = st.special_motions();
  for (std::size_t k = 0; k < motions.size(); ++k) {
    const SpecialMotion<S>& mo = motions[k];
    System<S> msys;
    try {
      msys = st.build(mo.parameters);
    } catch (const UsageError& e) {
      throw FileError(file.where("exact." + std::to_string(k)),
                      "exact motion '" + mo.name + "', at its parameters: " + description_error(file, e.what()).reason);
    }
    Vec<S> C(msys.r);
    msys.constraints(mo.initial.q, mo.initial.qdot, C);
    const S scale = S(1) + mo.initial.qdot.squaredNorm();
    if (!mo.initial.q.allFinite() || !mo.initial.qdot.allFinite() || !C.allFinite() ||
        C.cwiseAbs().maxCoeff() > tol * scale)
      throw FileError(file.where("exact." + std::to_string(k)),
                      "exact motion '" + mo.name + "' does not start on the constraint manifold: C = " +
                          to_string(C) + " at t = 0, q = " + to_string(mo.initial.q) +
                          ", qdot = " + to_string(mo.initial.qdot));
    require_regular(file, msys, mo.initial, "exact." + std::to_string(k), "exact motion '" + mo.name + "' at t = 0");
    positive_definite_metric(file, msys, mo.initial, "exact." + std::to_string(k),
                             "the start of exact motion '" + mo.name + "'");
  }
}

}  // namespace

namespace detail {

// At the default parameters in 50 digits: the initial state is inside
// [parametrization] domain; psi satisfies C and the chart inverts psi (the
// initial state and 8 random states near it, inside the domain); g is
// positive definite, or positive semidefinite with the accelerations
// determined, at the initial state and at each [[exact]] motion's start
// (the bodies' T is checked by describe(): description_error).
/// The metric g at the initial state in double: finite, else a FileError
/// at T naming the overflow. Each value of a file must be finite in every
/// precision, and T may overflow where its constants do not: a body at
/// 1e200*x has T = m/2 (1e200 x_dot)^2, whose g is 1e400 m.
void require_finite_metric_in_double(const std::shared_ptr<const SystemFile>& file) {
  const Study<double> st = file_study<double>(file);
  const System<double> sys = checked_default_system(*file, st);
  const State<double> s0 = checked_initial_state(*file, st, sys);
  const Inertia<double> in = inertia(sys, s0.q, s0.qdot);
  if (in.g.allFinite()) return;
  throw FileError(file->where("dynamics.kinetic_energy"),
                  std::string("the metric g = d^2T/dqdot^2") +
                      (file->kinetic_energy_from_bodies ? " (T from [[bodies]])" : "") +
                      " is not finite in double at the initial state (a value beyond double's range, about "
                      "1.8e308: rescale the units): " + state_context(s0.q, s0.qdot));
}

bool check_system_file_numerically(const std::shared_ptr<const SystemFile>& file) {
  using S = mp50;
  const Study<S> st = file_study<S>(file);
  const System<S> sys = checked_default_system(*file, st);
  const std::optional<Vec<S>> z0 = initial_z_in_domain(*file, sys);
  const State<S> s0 = checked_initial_state(*file, st, sys);
  const S tol = S(1e-30);
  if (sys.has_parametrization()) check_parametrization(*file, sys, s0, *z0, tol);
  // After the chart's check: a margin of the domain at the initial state
  // reads z = chart(q, qdot).
  require_regular(*file, sys, s0, "initial", "the initial state");
  // Each [[exact]] motion starts on C (its closed form at t = 0).
  check_exact_motions(*file, st, tol);
  const bool semidefinite = !positive_definite_metric(*file, sys, s0, "dynamics.kinetic_energy", "the initial state");
  require_finite_metric_in_double(file);
  return semidefinite;
}

}  // namespace detail

#define NHS_FILE_STUDY_(S, NAME)                                  \
  template Study<S> file_study<S>(std::shared_ptr<const SystemFile>); \
  template const Study<S>& cached_file_study<S>(const std::string&);
NHS_FOR_EACH_SCALAR(NHS_FILE_STUDY_)

}  // namespace nhs
