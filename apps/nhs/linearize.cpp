// `nhs linearize` and `nhs stability`: the linear stability of a steady
// motion of a study's family (Study::steady_families), from the Jacobian of
// the traced field (jacobian.cpp) split as nhs/linearization.hpp does, and
// the crossings along a family (docs/linearization.md).
#include "cli.hpp"
#include "json_values.hpp"

#include "nhs/format.hpp"
#include "nhs/manifold.hpp"

#include <nlohmann/json.hpp>

#include <Eigen/QR>

#include <algorithm>
#include <set>

namespace nhs::cli {
namespace {

template <class S>
const SteadyFamily<S>& find_family(const std::vector<SteadyFamily<S>>& families, const std::string& system,
                                   const std::string& name) {
  for (const auto& f : families)
    if (f.name == name) return f;
  std::vector<std::string> known;
  for (const auto& f : families) known.push_back(f.name);
  throw UsageError("--steady: system '" + system + "' has no steady family '" + name + "' (" +
                   (known.empty() ? std::string("it declares none: [[steady]] in a system file")
                                  : "known: " + join(known)) +
                   ")");
}

template <class S>
std::string verdict(const Linearization<S>& L) {
  if (L.unstable > 0) return "unstable";
  if (L.marginal > 0) return "linearly stable, not asymptotically: eigenvalues on the imaginary axis";
  return "asymptotically stable";
}

template <class S>
std::vector<std::string> names_of(const std::vector<std::string>& state, const std::vector<int>& idx) {
  std::vector<std::string> out;
  for (const int i : idx) out.push_back(state[static_cast<std::size_t>(i)]);
  return out;
}

// Which entries of the field's Jacobian are not identically 0: the
// graph's structure (fj.depends: 0 only for the constant 0) refined by
// values, since the traced field keeps terms that cancel only by identities
// (sin^2 + cos^2 = 1 in a metric) as nodes: an entry counts as 0 when it is
// within zero_tolerance at x and at three states near x (a fixed
// pseudo-random sequence, each entry of x moved by up to 0.1 (1 + |x_i|);
// a state where the field is singular is skipped).
template <class S>
std::vector<char> dependence(const LinearizeOptions& opts, const System<S>& sys, const FieldJacobian<S>& fj,
                             const Vec<S>& x) {
  std::vector<char> depends = fj.depends;
  const auto N = x.size();
  std::vector<Mat<S>> samples = {fj.J};
  std::mt19937_64 rng(20071955);  // fixed: the same verdict in every run
  for (int k = 0; k < 3; ++k) {
    Vec<S> y = x;
    for (Eigen::Index i = 0; i < N; ++i) {
      using std::abs;
      y[i] += uniform<S>(rng, -0.1, 0.1) * (S(1) + abs(x[i]));
    }
    try {
      samples.push_back(field_jacobian_at_state<S>(opts.system, opts.formulation, sys, y, [] { return std::string(); }).J);
    } catch (const InvalidState&) {
    } catch (const NonFiniteValue&) {
    }
  }
  for (Eigen::Index i = 0; i < N; ++i)
    for (Eigen::Index j = 0; j < N; ++j) {
      char& d = depends[static_cast<std::size_t>(i * N + j)];
      if (!d) continue;
      d = 0;
      for (const Mat<S>& J : samples) {
        using std::abs;
        if (abs(J(i, j)) > zero_tolerance<S>(max_abs<S>(J))) d = 1;
      }
    }
  return depends;
}

}  // namespace

template <class S>
Vec<S> family_values(const LinearizeOptions& opts, const std::string& option, const std::string& optional) {
  const Study<S>& study = find_study<S>(opts.system);
  const auto families = study.steady_families();
  const SteadyFamily<S>& fam = find_family<S>(families, study.info.name, opts.steady);
  Vec<S> mu = Vec<S>::Zero(static_cast<Eigen::Index>(fam.parameters.size()));
  std::set<std::string> given;
  for (const auto& [name, text] : parse_params(opts.at)) {
    const auto it = std::find(fam.parameters.begin(), fam.parameters.end(), name);
    if (it == fam.parameters.end())
      throw UsageError(option + ": family '" + fam.name + "' has no parameter '" + name + "' (its parameters: " +
                       join(fam.parameters) + ")");
    if (!given.insert(name).second) throw UsageError(option + ": '" + name + "' is given twice");
    mu[it - fam.parameters.begin()] = parse_number<S>(option + " " + name, text);
  }
  for (const auto& name : fam.parameters)
    if (!given.count(name) && name != optional)
      throw UsageError(option + ": family '" + fam.name + "' needs a value of '" + name + "' (" + option + " " +
                       name + "=VALUE)");
  return mu;
}

template <class S>
SteadyLinearization<S> linearize_steady(const LinearizeOptions& opts, const Vec<S>& mu) {
  if (opts.formulation != "first-kind" && opts.formulation != "gibbs-appell")
    throw UsageError("--formulation: the linearization is on C in the coordinates (q, z) of first-kind and "
                     "gibbs-appell, not of '" + opts.formulation + "' (second-kind's state (q, qdot) has "
                     "directions off C, whose eigenvalues are not the motion's)");
  const Study<S>& study = find_study<S>(opts.system);
  const auto families = study.steady_families();
  const SteadyFamily<S>& fam = find_family<S>(families, study.info.name, opts.steady);
  const System<S> sys = study.build(parameters_with(study, parse_params(opts.params)));
  if (!sys.has_parametrization())
    throw UsageError("--formulation " + opts.formulation + ": system '" + sys.info.name +
                     "' has no parametrization psi, so no state (q, z)");
  SteadyLinearization<S> out;
  out.system = sys.info.name;
  out.formulation = opts.formulation;
  out.family = fam.name;
  out.source = fam.source;
  out.family_parameters = fam.parameters;
  out.mu = mu;
  for (std::size_t i = 0; i < sys.info.parameters.size(); ++i)
    out.parameters.emplace_back(sys.info.parameters[i].name, sys.parameters[i]);

  SteadyPoint<S> pt = fam.at(sys, mu);
  const Eigen::Index n = sys.n, m = sys.m, p = mu.size();
  // Holonomic constraints: q admitted onto f = 0 as for a run (the
  // dependent coordinates solved for), the tangent's dependent rows from
  // G dq = 0, and the gradients G (h x n) handed to the linearization.
  Mat<S> G(0, n + m);
  if (study.holonomic) {
    const HolonomicConstraints<S>& hol = *study.holonomic;
    admit_holonomic<S>(hol, sys, pt.q, default_manifold_tolerance<S>());
    Mat<S> Gq;
    (void)hol.f(sys, pt.q, &Gq);
    if (!hol.dependent.empty()) {
      const auto h = static_cast<Eigen::Index>(hol.dependent.size());
      Mat<S> Gd(h, h), rhs = Gq * pt.dq;
      for (Eigen::Index k = 0; k < h; ++k) {
        const int d = hol.dependent[static_cast<std::size_t>(k)];
        for (Eigen::Index j = 0; j < h; ++j) Gd(j, k) = Gq(j, d);
      }
      const Mat<S> step = Gd.fullPivLu().solve(rhs);
      for (Eigen::Index k = 0; k < h; ++k) pt.dq.row(hol.dependent[static_cast<std::size_t>(k)]) -= step.row(k);
    }
    G = Mat<S>::Zero(Gq.rows(), n + m);
    G.leftCols(n) = Gq;
  }
  Vec<S> z(m), qdot(n);
  Mat<S> dz(m, p);
  const auto context = [&] { return "at steady family '" + fam.name + "' " + to_string<S>(mu); };
  require_finite(pt.q, "the family's q", context);
  require_finite(pt.v, "the family's velocities", context);
  if (pt.in_z) {
    z = pt.v;
    dz = pt.dv;
    sys.parametrization(pt.q, z, qdot);
  } else {
    qdot = pt.v;
    Vec<S> C(sys.r);
    sys.constraints(pt.q, qdot, C);
    const S tol = default_manifold_tolerance<S>() * (S(1) + qdot.squaredNorm());
    if (sys.r > 0 && S(C.cwiseAbs().maxCoeff()) > tol)
      throw InvalidState("steady family '" + fam.name + "': qdot is off C: max|C| = " +
                         to_string<S>(S(C.cwiseAbs().maxCoeff())) + " > " + to_string<S>(tol) + " " + context());
    if (!sys.chart)
      throw UsageError("steady family '" + fam.name + "' gives qdot, and system '" + sys.info.name +
                       "' has no chart z(q, qdot)");
    sys.chart(pt.q, qdot, z);
    const ParametrizationJacobians<S> pj = sys.derivations.parametrization_jacobians(pt.q, z);
    dz = pj.psi_z.colPivHouseholderQr().solve(Mat<S>(pt.dv - pj.psi_q * pt.dq));
  }
  out.x.resize(n + m);
  out.x << pt.q, z;
  Mat<S> tangent(n + m, p);
  tangent << pt.dq, dz;
  const FieldJacobian<S> fj = field_jacobian_at_state<S>(opts.system, opts.formulation, sys, out.x, context);
  out.state = fj.state;
  out.lin = linearize<S>(fj.J, fj.f, dependence<S>(opts, sys, fj, out.x), static_cast<int>(n), tangent, fj.state, G);
  return out;
}

template <class S>
std::string linearize_json(const LinearizeOptions& opts) {
  const SteadyLinearization<S> s = linearize_steady<S>(opts, family_values<S>(opts, "--at"));
  const Linearization<S>& L = s.lin;
  nlohmann::ordered_json out;
  out["system"] = s.system;
  out["formulation"] = s.formulation;
  out["precision"] = opts.precision;
  out["steady"] = s.family;
  out["source"] = s.source;
  nlohmann::ordered_json at = nlohmann::ordered_json::object();
  for (std::size_t k = 0; k < s.family_parameters.size(); ++k)
    at[s.family_parameters[k]] = to_string<S>(s.mu[static_cast<Eigen::Index>(k)]);
  out["at"] = at;
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (const auto& [name, value] : s.parameters) params[name] = to_string<S>(value);
  out["parameters"] = params;
  out["state"] = s.state;
  out["x"] = json_strings<S>(s.x);
  out["field"] = json_strings<S>(L.f);
  out["cyclic"] = names_of<S>(s.state, L.cyclic);
  out["reduced"] = names_of<S>(s.state, L.reduced);
  out["eigenvalues"] = json_complex<S>(L.eigenvalues);
  out["unstable"] = L.unstable;
  out["marginal"] = L.marginal;
  out["verdict"] = verdict(L);
  out["zero_eigenvalues"] = {{"family", json_complex<S>(L.family_eigenvalues)},
                             {"cyclic", json_complex<S>(L.cyclic_eigenvalues)},
                             {"holonomic", json_complex<S>(L.holonomic_eigenvalues)}};
  out["residuals"] = {{"steady", to_string<S>(L.steady_residual)},
                      {"family", to_string<S>(L.family_residual)},
                      {"holonomic", to_string<S>(L.holonomic_residual)},
                      {"tolerance", to_string<S>(L.tolerance)}};
  out["tangent"] = json_rows<S>(L.tangent);
  out["reduced_matrix"] = json_rows<S>(L.D);
  out["jacobian"] = json_rows<S>(L.J);
  return out.dump(2);
}

template <class S>
int linearize_command(const LinearizeOptions& opts) {
  fmt::print("{}\n", linearize_json<S>(opts));
  return 0;
}

template <class S>
std::string stability_json(const StabilityOptions& opts) {
  const Study<S>& study = find_study<S>(opts.system);
  const auto families = study.steady_families();
  const SteadyFamily<S>& fam = find_family<S>(families, study.info.name, opts.steady);
  std::string vary = opts.vary;
  if (vary.empty()) {
    if (fam.parameters.size() != 1)
      throw UsageError("--vary: family '" + fam.name + "' has the parameters " + join(fam.parameters) +
                       "; name the one to vary (the others with --at)");
    vary = fam.parameters[0];
  }
  const auto it = std::find(fam.parameters.begin(), fam.parameters.end(), vary);
  if (it == fam.parameters.end())
    throw UsageError("--vary: family '" + fam.name + "' has no parameter '" + vary + "' (its parameters: " +
                     join(fam.parameters) + ")");
  const auto k = static_cast<Eigen::Index>(it - fam.parameters.begin());
  for (const auto& [name, text] : parse_params(opts.at))
    if (name == vary) throw UsageError("--at " + name + ": the varied parameter takes --from and --to, not --at");
  const Vec<S> fixed = family_values<S>(opts, "--at", vary);
  const S from = parse_number<S>("--from", opts.from), to = parse_number<S>("--to", opts.to);
  if (!(from < to)) throw UsageError("--from " + opts.from + " --to " + opts.to + ": need from < to");
  const std::uint64_t points = parse_count("--points", opts.points);
  if (points < 2 || points > 1000000) throw UsageError("--points " + opts.points + ": need 2 .. 1000000");
  if (!opts.csv.empty()) refuse_overwriting(opts.system, opts.csv, "--csv");

  const auto at = [&](const S& v) {
    Vec<S> mu = fixed;
    mu[k] = v;
    try {
      return linearize_steady<S>(opts, mu);
    } catch (const InvalidState& e) {
      throw InvalidState(std::string(e.what()) + " (at " + vary + " = " + to_string<S>(v) + ")");
    }
  };
  std::vector<S> grid;
  for (std::uint64_t i = 0; i < points; ++i)
    grid.push_back(i + 1 == points ? to : from + (to - from) * S(i) / S(points - 1));
  std::string csv;
  std::size_t width = 0;
  nlohmann::ordered_json verdicts = nlohmann::ordered_json::array();
  std::vector<std::string> state;
  for (const S& v : grid) {
    const SteadyLinearization<S> s = at(v);
    if (csv.empty()) {
      width = s.lin.eigenvalues.size();
      state = s.state;
      csv = vary + ",unstable,marginal";
      for (std::size_t j = 1; j <= width; ++j) csv += ",re_" + std::to_string(j) + ",im_" + std::to_string(j);
      csv += "\n";
    }
    csv += to_string<S>(v) + "," + std::to_string(s.lin.unstable) + "," + std::to_string(s.lin.marginal);
    for (const auto& [re, im] : s.lin.eigenvalues) csv += "," + to_string<S>(re) + "," + to_string<S>(im);
    csv += "\n";
  }
  if (!opts.csv.empty()) write_text_file(opts.csv, csv);
  const std::function<Mat<S>(const S&)> D = [&](const S& v) { return at(v).lin.D; };
  const auto crossings = find_crossings<S>(D, grid);
  nlohmann::ordered_json out;
  out["system"] = study.info.name;
  out["formulation"] = opts.formulation;
  out["precision"] = opts.precision;
  out["steady"] = fam.name;
  out["vary"] = vary;
  out["from"] = to_string<S>(from);
  out["to"] = to_string<S>(to);
  out["points"] = points;
  if (!opts.csv.empty()) out["csv"] = opts.csv;
  nlohmann::ordered_json cs = nlohmann::ordered_json::array();
  for (const auto& c : crossings) {
    nlohmann::ordered_json j;
    j["at"] = to_string<S>(c.at);
    j["kind"] = c.kind;
    j["frequency"] = to_string<S>(c.frequency);
    j["unstable_below"] = c.unstable_before;
    j["unstable_above"] = c.unstable_after;
    j["method"] = c.method;
    j["bracket"] = {to_string<S>(c.lo), to_string<S>(c.hi)};
    cs.push_back(j);
  }
  out["crossings"] = cs;
  return out.dump(2);
}

template <class S>
int stability_command(const StabilityOptions& opts) {
  fmt::print("{}\n", stability_json<S>(opts));
  return 0;
}

#define NHS_CLI_LINEARIZE_(S, NAME)                                                                   \
  template Vec<S> family_values<S>(const LinearizeOptions&, const std::string&, const std::string&); \
  template SteadyLinearization<S> linearize_steady<S>(const LinearizeOptions&, const Vec<S>&);       \
  template int linearize_command<S>(const LinearizeOptions&);                                        \
  template std::string linearize_json<S>(const LinearizeOptions&);                                   \
  template std::string stability_json<S>(const StabilityOptions&);                                   \
  template int stability_command<S>(const StabilityOptions&);
NHS_FOR_EACH_SCALAR(NHS_CLI_LINEARIZE_)
#undef NHS_CLI_LINEARIZE_

}  // namespace nhs::cli
