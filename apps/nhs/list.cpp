// `nhs list`: the studies, formulations and precisions, one line each.
#include "cli.hpp"

#include "nhs/constraint_classification.hpp"
#include "nhs/redundant_constraints.hpp"
#include "nhs/studies/system_file.hpp"
#include "nhs/studies/traced.hpp"
#include "nhs/symbolic/symbolic_system.hpp"

#include <algorithm>
#include <limits>
#include <sstream>
#include <tuple>

namespace nhs::cli {

int list_command() {
  // Metadata does not depend on the scalar; read it in the first one.
  using S0 = std::tuple_element_t<0, ScalarTypes>;
  std::size_t source_width = 0;
  for (const Study<S0>& st : studies<S0>()) source_width = std::max(source_width, st.info.source.size());
  fmt::print("studies:\n");
  for (const Study<S0>& st : studies<S0>()) {
    const SystemInfo& i = st.info;
    fmt::print("  {:<18} n={} r={} m={}  {:<{}}  {}\n", i.name, i.coordinates.size(),
               i.constraint_names.size(), i.quasi_velocities.size(), i.source, source_width,
               i.title);
    fmt::print("  {:<18} q = ({}){}\n", "", join(i.coordinates),
               i.quasi_velocities.empty() ? std::string()
                                          : ", z = (" + join(i.quasi_velocities) + ")");
  }
  fmt::print("bundled system files (a name for the file; `nhs list NAME` shows it):\n");
  for (const BundledSystem& b : bundled_systems())
    fmt::print("  {:<18} {}  {}\n", b.name, b.source_path, b.title);
  fmt::print("formulations:\n");
  for (const auto& f : formulations<S0>()) fmt::print("  {:<18} {}\n", f->name(), f->summary());
  fmt::print("precisions:\n");
#define NHS_CLI_LIST_SCALAR_(T, NAME)                                                        \
  fmt::print("  {:<18} {} significant decimal digits\n", NAME,                              \
             std::numeric_limits<T>::digits10);
  NHS_FOR_EACH_SCALAR(NHS_CLI_LIST_SCALAR_)
#undef NHS_CLI_LIST_SCALAR_
  return 0;
}

namespace {

// The largest n for which `nhs list SYSTEM` classifies the constraints
// (building the system in mp100 and the nested brackets grow with n).
constexpr int kClassifyMaxN = 16;

std::string mp_figure(const mp100& x) { return short_figure(x); }

// "-1 dx + 1 dphi" or "1 C1 - 1 C2": a combination with names.
std::string combination(const Vec<mp100>& c, const std::vector<std::string>& names, const std::string& prefix) {
  std::string t;
  for (Eigen::Index k = 0; k < c.size(); ++k) {
    if (c[k] == 0) continue;
    const double v = to_double(c[k]);
    t += t.empty() ? (v < 0 ? "-" : "") : (v < 0 ? " - " : " + ");
    t += fmt::format("{:.6g} {}{}", std::abs(v), prefix, names[static_cast<std::size_t>(k)]);
  }
  return t.empty() ? "0" : t;
}

}  // namespace

std::string classification_text(const std::string& system) {
  std::string out;
  using S = mp100;
  const Study<S>& st = find_study<S>(system);
  if (static_cast<int>(st.info.coordinates.size()) > kClassifyMaxN) {
    out += fmt::format("  classification: not computed (n = {} > {}; the library's classify_constraints takes any n)\n",
               st.info.coordinates.size(), kClassifyMaxN);
    return out;
  }
  const System<S> sys = st.build(st.default_parameters());
  ConstraintClassification c;
  try {
    c = classify_constraints(sys, st.default_state(sys).q);
  } catch (const std::runtime_error& e) {
    // InvalidState (an undecided rank), SingularState (A of rank < r near
    // the default q), NonFiniteValue: the rest of the listing stands.
    if (!dynamic_cast<const InvalidState*>(&e) && !dynamic_cast<const NonFiniteValue*>(&e)) throw;
    out += fmt::format("  classification: not decided: {}\n", e.what());
    return out;
  }
  out += fmt::format("  classification (numerical, mp100, at {} points near the default q; docs/constraint-classification.md):\n",
             c.sample_points.size());
  for (const ConstraintKind& k : c.constraints)
    out += fmt::format("    {}: {}, {}\n", k.name,
                       k.linear   ? "linear in qdot"
                       : k.affine ? "affine in qdot (A(q) qdot + a0(q), a0 != 0: a moving support)"
                                  : "non-linear in qdot",
                       k.homogeneous ? fmt::format("homogeneous of degree {:.12g}", k.degree)
                                     : std::string("not homogeneous in qdot"));
  if (!c.frobenius_done) {
    out += fmt::format("    Frobenius test: not done ({})\n", c.frobenius_skipped);
  } else {
    std::vector<std::string> growth;
    for (int g : c.growth) growth.push_back(std::to_string(g));
    const int n = sys.n, r = sys.r;
    const std::string verdict =
        c.hidden_holonomic == 0 ? "completely non-holonomic: no holonomic constraint hides in C"
        : c.hidden_holonomic == r
            ? "ker A is involutive: every constraint is integrable (holonomic in disguise)"
            : fmt::format("{} holonomic constraint{} hide{} in the {} constraints", c.hidden_holonomic,
                          c.hidden_holonomic == 1 ? "" : "s", c.hidden_holonomic == 1 ? "s" : "", r);
    out += fmt::format("    Frobenius test: frame X_({}) of ker A; growth vector ({}) of n = {}: {}\n",
               join(c.frame), join(growth), n, verdict);
    for (const BracketEvidence& b : c.brackets)
      out += fmt::format("      A [X_{}, X_{}] = ({})\n", b.first, b.second, [&] {
        std::vector<std::string> v;
        for (Eigen::Index a = 0; a < b.constraint_forms.size(); ++a) v.push_back(mp_figure(b.constraint_forms[a]));
        return join(v);
      }());
    for (const IntegrableCombination& k : c.combinations)
      out += fmt::format("      integrable: {} = 0, the form {} at q = ({})\n",
                 combination(k.mu, sys.info.constraint_names, ""), combination(k.nu, sys.info.coordinates, "d"),
                 [&] {
                   std::vector<std::string> v;
                   for (Eigen::Index i = 0; i < c.sample_points.front().size(); ++i)
                     v.push_back(mp_figure(c.sample_points.front()[i]));
                   return join(v);
                 }());
  }
  out += fmt::format("    cyclic coordinates (T, C and the generalized forces -dV/dq + F do not depend on "
                     "them): {}\n",
             c.cyclic.empty() ? std::string("none") : join(c.cyclic));
  if (c.chaplygin) {
    std::vector<std::string> dep;
    for (int k : sys.info.dependent_velocities) dep.push_back(sys.info.coordinates[static_cast<std::size_t>(k)]);
    out += fmt::format("    Chaplygin form: the constraints give {} from the other velocities, and {} cyclic\n",
               join(dep), dep.size() == 1 ? "it is" : "they are");
  }
  return out;
}


// `nhs list SYSTEM`, its first part: names, coordinates, constraints,
// quasi-velocities and parameters.
void print_system_data(const std::string& system, const Study<double>& st, const System<double>& sys) {
  const SystemInfo& i = st.info;
  fmt::print("{}: {}\n  source: {}\n", i.name, i.title, i.source);
  fmt::print("  n = {} coordinates q = ({})\n", i.coordinates.size(), join(i.coordinates));
  fmt::print("  r = {} constraints: ", i.constraint_names.size());
  {
    // Linearity of each C^a in qdot: a file's is detected symbolically
    // (linear, affine or neither); a study's is declared for all (an affine
    // study's C^a are all "affine"; the classification below tells them apart).
    std::vector<std::string> cs;
    std::vector<bool> linear(i.constraint_names.size(), i.linear_constraints || i.affine_constraints);
    std::vector<bool> affine(i.constraint_names.size(), i.affine_constraints);
    if (is_system_file_name(system)) {
      linear = cached_system_file(system)->constraint_linear;
      affine = cached_system_file(system)->constraint_affine;
    }
    for (std::size_t a = 0; a < i.constraint_names.size(); ++a)
      cs.push_back(i.constraint_names[a] + (affine[a]   ? " (affine in qdot)"
                                            : linear[a] ? " (linear in qdot)"
                                                        : " (non-linear in qdot)"));
    fmt::print("{}\n", join(cs));
  }
  if (i.clock_coordinate >= 0) {
    const std::string& c = i.coordinates[static_cast<std::size_t>(i.clock_coordinate)];
    fmt::print("  time: rheonomic (depends on t): t is the clock coordinate {}, with {}_dot = 1 on C; "
               "`nhs accel --t` and `nhs run --t0` set it\n", c, c);
  } else {
    fmt::print("  time: scleronomic (no explicit t){}\n",
               i.affine_constraints ? ", with affine constraints (a support moving steadily)" : "");
  }
  if (st.holonomic) {
    std::string dep;
    for (const int k : st.holonomic->dependent) dep += (dep.empty() ? "" : ", ") + i.coordinates[static_cast<std::size_t>(k)];
    fmt::print("  holonomic: {} (f(q) = 0, in C as df/dq qdot = 0; q admitted onto f {})\n", join(st.holonomic->names),
               dep.empty() ? std::string("as given, within the manifold tolerance")
                           : "by Newton's method on " + dep);
  }
  if (sys.has_parametrization())
    fmt::print("  m = {} quasi-velocities z = ({}), with psi and its chart\n", i.quasi_velocities.size(),
               join(i.quasi_velocities));
  else
    fmt::print("  m = 0: no parametrization psi\n");
  if (!i.dependent_velocities.empty()) {
    std::vector<std::string> dep;
    for (int k : i.dependent_velocities) dep.push_back(i.coordinates[static_cast<std::size_t>(k)]);
    fmt::print("  dependent velocities (Voronec): {}\n", join(dep));
  }
  std::vector<std::string> ps;
  for (const auto& p : i.parameters)
    ps.push_back(p.name + " = " + p.default_value + (p.meaning.empty() ? "" : " (" + p.meaning + ")"));
  fmt::print("  parameters: {}\n", ps.empty() ? std::string("none") : join(ps));
}

// Its forces, bodies, energy and the system's own singular sets.
void print_forces_and_singular_sets(const std::string& system, const Study<double>& st, const System<double>& sys) {
  using S = double;
  const bool T_from_bodies =
      is_system_file_name(system) && cached_system_file(system)->kinetic_energy_from_bodies;
  fmt::print("  non-conservative forces: {}; bodies (Gibbs-Appell): {}\n",
             sys.nonconservative_force ? "yes" : "no",
             sys.has_bodies() ? (T_from_bodies ? "yes (T comes from them)" : "yes") : "no");
  if (is_system_file_name(system)) {
    // A file's energy: a first integral unless a force or the reaction of a
    // constraint that is not homogeneous in qdot does work (what `nhs
    // check` checks).
    const std::string why = energy_not_conserved_reason(*cached_system_file(system));
    fmt::print("  energy: {}\n",
               why.empty() ? "a first integral (no forces; every constraint is homogeneous in the velocities)"
                           : "not a first integral (" + why + ")");
  }
  {
    // The system's own singular sets (names and conditions; the values at
    // the default state are not shown).
    std::vector<std::string> sets;
    if (sys.singular_margins) {
      const State<S> x = st.default_state(sys);
      for (const Margin<S>& mg : sys.singular_margins(x.q, x.qdot))
        sets.push_back(mg.name + ": " + mg.condition);
    }
    std::string listed;
    for (const auto& x : sets) listed += (listed.empty() ? "" : "; ") + x;
    fmt::print("  singular sets besides rank loss of dC/dqdot: {}\n",
               sets.empty() ? std::string("none declared") : listed);
  }
}

// The rank of dC/dqdot (r x n) at the default state, each row by its
// norm (a constraint's scale does not count); r when it cannot be had.
int constraint_rank_at_default(const Study<double>& st, const System<double>& sys) {
  if (sys.r == 0) return 0;
  try {
    const State<double> x = st.default_state(sys);
    const Mat<double> A = constraint_jacobians(sys, x.q, x.qdot).C_qdot;
    return A.allFinite() ? row_direction_rank<double>(A) : sys.r;
  } catch (const std::exception&) {
    return sys.r;
  }
}

// Its special motions, steady families and the formulations that apply.
void print_motions_and_formulations(const Study<double>& st, const System<double>& sys) {
  using S = double;
  {
    // The special motions, numbered as `nhs run --motion N` takes them.
    const std::vector<SpecialMotion<S>> motions =
        st.special_motions ? st.special_motions() : std::vector<SpecialMotion<S>>{};
    fmt::print("special motions (nhs run --motion N): {}\n", motions.empty() ? "none" : "");
    for (std::size_t k = 0; k < motions.size(); ++k)
      fmt::print("  {}: {} (t <= {})\n", k + 1, motions[k].name, short_figure(motions[k].t_end));
  }
  {
    const std::vector<SteadyFamily<S>> families = st.steady_families();
    fmt::print("steady families (nhs linearize, nhs stability --steady NAME): {}\n", families.empty() ? "none" : "");
    for (const auto& f : families) fmt::print("  {} ({})\n", f.name, join(f.parameters));
  }
  // Redundant constraints (dependent at the default state): Udwadia-Kalaba
  // alone takes them; the others refuse every such state.
  const int rank = constraint_rank_at_default(st, sys);
  const std::string redundant =
      rank < sys.r ? fmt::format("dC/dqdot has rank {} < r = {} at the default state (dependent constraints)",
                                 rank, sys.r)
                   : std::string();
  fmt::print("formulations:\n");
  for (const auto& f : formulations<S>()) {
    const std::string why = f->not_applicable_reason(sys);
    const auto excluded = st.default_run_excluded.find(f->name());
    fmt::print("  {:<18} {}\n", f->name(),
               !why.empty() ? "not applicable: " + why
               : !redundant.empty() && !takes_redundant_constraints(*f)
                   ? "refuses these constraints: " + redundant + "; udwadia-kalaba takes them"
               : !redundant.empty() ? "applies, redundant constraints too: " + redundant
               : excluded != st.default_run_excluded.end()
                   ? "applies (cannot follow the motion from the default state: " + excluded->second + ")"
                   : std::string("applies"));
  }
}

// The largest derivation_size (nhs/symbolic/symbolic_system.hpp) for which
// `nhs list FILE` prints the derived T, V, C and psi as formulas (a few
// hundred ms of GiNaC at most); above it, it names them and points to `nhs
// equations`. The longest formula printed, in characters.
constexpr double kListFormulasMaxSize = 2e4;
constexpr std::size_t kListFormulaMaxChars = 400;

// What a system file's loader derived rather than read (SystemFile::derived:
// T from the bodies, V from gravity, the rolling contacts' constraints, psi
// from the dependent velocities), and, for a small system, each as a
// formula in the file's names (GiNaC's text form, not simplified).
void print_derived(const std::string& system) {
  if (!is_system_file_name(system)) return;
  const auto file = cached_system_file(system);
  if (file->derived.empty()) return;
  std::vector<std::string> what;
  for (const std::string& d : file->derived)
    what.push_back(d == "T" ? "T from the bodies" : d == "V" ? "V from gravity"
                   : d == "psi" ? "psi from the dependent velocities" : "constraint " + d + " from a rolling contact");
  fmt::print("  derived, not written (docs/bodies.md): {}\n", join(what, "; "));
  const TracedStudy traced = find_traced_study(system);
  const double size = symbolic::derivation_size(traced.build, traced.info);
  if (size > kListFormulasMaxSize) {
    fmt::print("    (too large to print here, derivation size {:.3g}: `nhs equations {}` writes them)\n", size, system);
    return;
  }
  const symbolic::SymbolicSystem s = symbolic::symbolic_system(traced.build, traced.info);
  const auto show = [](const std::string& name, const GiNaC::ex& e) {
    std::ostringstream text;
    text << e;
    std::string t = text.str();
    if (t.size() > kListFormulaMaxChars)
      t = t.substr(0, kListFormulaMaxChars) + " ... (" + std::to_string(t.size()) + " characters)";
    fmt::print("    {} = {}\n", name, t);
  };
  const auto& names = traced.info.constraint_names;
  for (const std::string& d : file->derived) {
    if (d == "T") show("T", s.T);
    else if (d == "V") show("V", s.V);
    else if (d == "psi")
      for (std::size_t i = 0; i < s.psi.size(); ++i) show(traced.info.coordinates[i] + "_dot", s.psi[i]);
    else if (const auto it = std::find(names.begin(), names.end(), d); it != names.end())
      show("C_" + d, s.C[static_cast<std::size_t>(it - names.begin())]);
  }
}

int list_system_command(const std::string& system) {
  const Study<double>& st = find_study<double>(system);
  const System<double> sys = st.build(st.default_parameters());
  print_system_data(system, st, sys);
  print_forces_and_singular_sets(system, st, sys);
  print_derived(system);
  fmt::print("{}", classification_text(system));
  print_motions_and_formulations(st, sys);
  return 0;
}

}  // namespace nhs::cli
