// The description of a system file's system (describe(), nhs/system.hpp):
// FileDescription evaluates the file's programs (nhs/expression.hpp) in
// every evaluation type, so describe() binds it like a C++ description;
// file_system<S> builds it at given parameter values. Shared by the study of
// a file (file_study.cpp), its traced system (file_trace.cpp) and the
// numerical checks of the load (file_checks.cpp). Private to the studies
// library (not installed).
#pragma once

#include "nhs/derivatives.hpp"
#include "nhs/format.hpp"
#include "nhs/studies/system_file.hpp"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nhs::file_detail {


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
inline std::string domain_condition(const FileDomainCondition& d) {
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

/// Evaluates a program of parameters only (n outputs).
template <class S>
Vec<S> evaluate_constant(const Program& p, const std::vector<S>& values) {
  const Constants<S> c = constants_of<S>(p);
  const Params<S> params(values);
  Vec<S> out(static_cast<Eigen::Index>(p.outputs.size()));
  evaluate(p, c, params, {}, out.data());
  return out;
}

/// Why the parameters `values` (size and order of f.info.parameters) give
/// no rigid bodies, or "" when they do: a rolling surface's radius or
/// semi-axis not > 0 or a crown < 0, or NaN (SystemFile::sizes), or a body's
/// constant inertia that is not a rigid body's (SystemFile::inertias,
/// inertia_violation in double). The reason names the table and key, its
/// position and the value. In the scalar types only (the tracing scalar's
/// values are symbols; a traced system is built from parameters checked
/// in S): "" otherwise.
template <class S>
std::string file_parameter_violation(const SystemFile& f, const std::vector<S>& values) {
  if constexpr (requires { ScalarName<S>::value; }) {
    const Vec<S> sizes = f.sizes ? evaluate_constant<S>(*f.sizes, values) : Vec<S>();
    for (std::size_t k = 0; k < f.size_conditions.size(); ++k) {
      const FileSizeCondition& s = f.size_conditions[k];
      const S v = sizes[static_cast<Eigen::Index>(k)];
      if (v > 0 || (s.zero_allowed && v == 0)) continue;
      return s.where + ": " + s.what + " = " + to_string<S>(v) + " at the parameters given: it must be " +
             (s.zero_allowed ? ">= 0" : "> 0");
    }
    const Vec<S> J9 = f.inertias ? evaluate_constant<S>(*f.inertias, values) : Vec<S>();
    for (std::size_t k = 0; k < f.inertia_conditions.size(); ++k) {
      Eigen::Matrix3d J;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) J(i, j) = static_cast<double>(J9[static_cast<Eigen::Index>(9 * k) + 3 * i + j]);
      if (const std::string why = inertia_violation(J); !why.empty())
        return f.inertia_conditions[k].where + ": " + f.inertia_conditions[k].what + " " + why +
               " at the parameters given";
    }
  }
  return {};
}

/// The system of the file f at the parameters `values` (size and order of
/// f.info.parameters): UsageError with file_parameter_violation's reason
/// when they give no rigid bodies.
template <class S>
System<S> file_system(const std::shared_ptr<const SystemFile>& file, const std::vector<S>& values,
                      AdBinding binding = AdBinding::fastest) {
  if (const std::string why = file_parameter_violation<S>(*file, values); !why.empty()) throw UsageError(why);
  FileDescription<S> d{file, std::make_shared<const FileConstants<S>>(*file)};
  return describe<S>(d, values, file->info, binding);
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

}  // namespace nhs::file_detail
