// ctest-labels: unit files
// System files (docs/system-files.md): every file of studies/files/ is a
// built-in study written as TOML, so the file's system and the built-in's
// must give the same accelerations, multipliers and reactions in every
// formulation that applies to both, at the same random regular states and
// parameters (double and mp50), and the same singular margins ([singular]);
// each file's closed-form motions lie on C, agree with the built-in's
// closed forms and are followed by the formulations; every file with
// [[bodies]], copied without its kinetic_energy (T then comes from the
// bodies), gives the same T and qddot as the file; [singular] gives named
// margins, and random states near them are refused; and load_system_file()
// refuses bad files with "path:line:column: reason".
#include "random_states.hpp"
#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/format.hpp"
#include "nhs/formulation.hpp"
#include "nhs/integrate.hpp"
#include "nhs/norms.hpp"
#include "nhs/singular_set.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/system_file.hpp"

#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <unistd.h>

#ifndef NHS_SOURCE_DIR
#define NHS_SOURCE_DIR ".."
#endif

namespace nhs {
namespace {

std::vector<std::string> system_files() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(std::string(NHS_SOURCE_DIR) + "/studies/files"))
    if (e.path().extension() == ".toml") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

/// The built-in study a file mirrors: its name without the suffix "-file".
std::string builtin_id(const std::string& file_name) {
  const std::string suffix = "-file";
  EXPECT_TRUE(file_name.size() > suffix.size() &&
              file_name.compare(file_name.size() - suffix.size(), suffix.size(), suffix) == 0)
      << file_name;
  return file_name.substr(0, file_name.size() - suffix.size());
}

/// The parameter vector of `to` with the values `values` of `from`'s
/// parameters, matched by name (a file need not list them in the same order).
template <class S>
std::vector<S> by_name(const Study<S>& from, const std::vector<S>& values, const Study<S>& to) {
  std::vector<S> out;
  for (const Parameter& p : to.info.parameters) {
    const auto& fp = from.info.parameters;
    const auto it = std::find_if(fp.begin(), fp.end(), [&](const Parameter& x) { return x.name == p.name; });
    EXPECT_NE(it, fp.end()) << "parameter " << p.name << " of " << to.info.name << " is not one of "
                            << from.info.name;
    out.push_back(it == fp.end() ? S(0) : values[static_cast<std::size_t>(it - fp.begin())]);
  }
  return out;
}

template <class S>
S vec_difference(const Vec<S>& a, const Vec<S>& b) {
  return max_abs<S>(Vec<S>(a - b));
}

/// A file and its built-in counterpart, in S.
template <class S>
struct Pair {
  std::string path;
  const Study<S>* file = nullptr;
  const Study<S>* builtin = nullptr;
};

template <class S>
std::vector<Pair<S>> pairs() {
  std::vector<Pair<S>> out;
  for (const std::string& path : system_files()) {
    Pair<S> p;
    p.path = path;
    p.file = &find_study<S>(path);
    p.builtin = &find_study<S>(builtin_id(p.file->info.name));
    out.push_back(p);
  }
  return out;
}

template <class S>
class SystemFiles : public ::testing::Test {};
TYPED_TEST_SUITE(SystemFiles, TestScalars, ScalarNames);

// Every file is one of the built-ins; there is one per expressible study.
TEST(SystemFiles, EveryFileLoads) {
  const auto files = system_files();
  EXPECT_GE(files.size(), 8u);
  for (const std::string& path : files) {
    std::shared_ptr<const SystemFile> f;
    ASSERT_NO_THROW(f = load_system_file(path)) << path;
    std::cout << "[ file     ] " << path << ": " << f->info.name << ", n = " << f->info.coordinates.size()
              << ", r = " << f->info.constraint_names.size() << ", " << f->exact.size()
              << " closed-form motions\n";
  }
}

// The file's SystemInfo and default state are the built-in's.
TYPED_TEST(SystemFiles, DescriptionMatchesBuiltin) {
  using S = TypeParam;
  for (const Pair<S>& p : pairs<S>()) {
    const SystemInfo& a = p.file->info;
    const SystemInfo& b = p.builtin->info;
    const std::string what = p.path;
    EXPECT_EQ(a.coordinates, b.coordinates) << what;
    EXPECT_EQ(a.constraint_names, b.constraint_names) << what;
    EXPECT_EQ(a.quasi_velocities.size(), b.quasi_velocities.size()) << what;
    EXPECT_EQ(a.linear_constraints, b.linear_constraints) << what;
    EXPECT_EQ(a.dependent_velocities, b.dependent_velocities) << what;
    EXPECT_EQ(a.semidefinite_metric, b.semidefinite_metric) << what;  // found by the loader
    ASSERT_EQ(a.parameters.size(), b.parameters.size()) << what;
    for (std::size_t i = 0; i < a.parameters.size(); ++i) {
      // Same names, same order, same defaults and meanings.
      EXPECT_EQ(a.parameters[i].name, b.parameters[i].name) << what << " parameter " << i;
      EXPECT_EQ(a.parameters[i].default_value, b.parameters[i].default_value) << what << " " << a.parameters[i].name;
      EXPECT_EQ(a.parameters[i].meaning, b.parameters[i].meaning) << what << " " << a.parameters[i].name;
    }
    const std::vector<S> values = p.builtin->default_parameters();
    EXPECT_EQ(by_name(*p.builtin, values, *p.file), p.file->default_parameters()) << what;
    const System<S> bsys = p.builtin->build(values);
    const System<S> fsys = p.file->build(by_name(*p.builtin, values, *p.file));
    EXPECT_EQ(fsys.has_parametrization(), bsys.has_parametrization()) << what;
    const State<S> xb = p.builtin->default_state(bsys);
    const State<S> xf = p.file->default_state(fsys);
    // psi evaluated in another order of operations: a few roundings.
    EXPECT_LE(vec_difference<S>(xf.q, xb.q), S(0)) << what;
    EXPECT_LE(vec_difference<S>(xf.qdot, xb.qdot), S(4) * epsilon<S>()) << what;
    // The file's [singular] is the built-in's singular_margins: same names
    // and conditions, the same values to a few roundings (another order of
    // operations, e.g. max(a, b) written (a + b + |a - b|)/2), at the
    // default state and at random states of the built-in.
    EXPECT_EQ(static_cast<bool>(fsys.singular_margins), static_cast<bool>(bsys.singular_margins)) << what;
    if (fsys.singular_margins && bsys.singular_margins) {
      std::mt19937_64 rng(20261125);
      for (int k = 0; k < 20; ++k) {
        const State<S> x = k == 0 ? xb : p.builtin->random_state(bsys, rng);
        const auto mb = bsys.singular_margins(x.q, x.qdot);
        const auto mf = fsys.singular_margins(x.q, x.qdot);
        ASSERT_EQ(mf.size(), mb.size()) << what;
        for (std::size_t i = 0; i < mb.size(); ++i) {
          EXPECT_EQ(mf[i].name, mb[i].name) << what;
          EXPECT_EQ(mf[i].condition, mb[i].condition) << what;
          using std::abs;
          EXPECT_LE(abs(mf[i].value - mb[i].value), S(4) * epsilon<S>() * (S(1) + abs(mb[i].value)))
              << what << " " << mb[i].name << " state " << k;
        }
      }
    }
    // Every file invariant is one of the built-in's conserved invariants,
    // with the same value at the default state.
    const auto bi = p.builtin->invariants(bsys);
    for (const Invariant<S>& inv : p.file->invariants(fsys)) {
      const auto it = std::find_if(bi.begin(), bi.end(), [&](const Invariant<S>& x) { return x.name == inv.name; });
      ASSERT_NE(it, bi.end()) << what << " invariant " << inv.name;
      EXPECT_TRUE(it->conserved) << what << " invariant " << inv.name;
      using std::abs;
      const S vb = it->value(xb.q, xb.qdot), vf = inv.value(xb.q, xb.qdot);
      EXPECT_LE(abs(vf - vb), S(4) * epsilon<S>() * (S(1) + abs(vb))) << what << " invariant " << inv.name;
    }
  }
}

/// The largest relative difference per (file, formulation, quantity).
template <class S>
struct Worst {
  std::map<std::string, S> by_key;
  void note(const std::string& key, const S& d) {
    using std::max;
    S& w = by_key.try_emplace(key, S(0)).first->second;
    w = max(w, d);
  }
};

/// The agreement required of a file with its built-in at one state,
/// relative (max-norm). mp50: Tolerance<mp50>::cross (1e-45 = 10^5 eps).
/// double: 10 eps times kappa, the 2-norm condition number of the KKT
/// matrix [g, B^T; B, 0] (B = dC/dqdot) at that state, and at least 10 eps.
/// Why kappa: the two descriptions are the same functions evaluated in a
/// different order of operations (the file's expressions as written, the
/// C++ with variable-first products), so g, Gamma, dC/dqdot, psi ...
/// differ by a few roundings, i.e. a relative perturbation of a few eps of
/// the data of the linear system every formulation solves for (qddot,
/// lambda); the solution's relative change is bounded by kappa times the
/// data's (first-order perturbation bound). Measured (printed as
/// "/ kappa"): at most 1.3 kappa eps (coaxial-discs, udwadia-kalaba qddot),
/// while the plain figures reach 12.5 eps for qddot and 94 eps for the
/// rolling sphere's multipliers (zero in exact arithmetic; measured against
/// their natural scale, scaled_difference), with kappa up to 132.
template <class S>
S agreement_tolerance(const S& kappa) {
  if constexpr (std::is_same_v<S, double>) {
    using std::max;
    return 10 * epsilon<double>() * max(1.0, kappa);
  } else {
    (void)kappa;
    return Tolerance<S>::cross;
  }
}

/// The condition number of the KKT matrix [g, B^T; B, 0] at (q, qdot).
template <class S>
S kkt_condition(const Inertia<S>& in, const ConstraintJacobians<S>& cj) {
  const Eigen::Index n = in.g.rows(), r = cj.C_qdot.rows();
  Mat<S> K = Mat<S>::Zero(n + r, n + r);
  K.topLeftCorner(n, n) = in.g;
  K.topRightCorner(n, r) = cj.C_qdot.transpose();
  K.bottomLeftCorner(r, n) = cj.C_qdot;
  Eigen::JacobiSVD<Mat<S>> svd(K);
  const Vec<S> sv = svd.singularValues();
  return sv[0] / sv[sv.size() - 1];
}

/// Relative max-norm difference of a and b at the scale max(|a|, |b|,
/// natural): `natural` is the size of the terms that add up to the
/// quantity, below which a difference of exactly-zero results (e.g. the
/// rolling sphere's multipliers, zero in exact arithmetic) is rounding
/// noise of those terms, not a disagreement.
template <class S>
S scaled_difference(const Vec<S>& a, const Vec<S>& b, const S& natural) {
  using std::max;
  const S scale = max(max(max_abs<S>(a), max_abs<S>(b)), max(natural, std::numeric_limits<S>::min()));
  return max_abs<S>(Vec<S>(a - b)) / scale;
}

// The same qddot, multipliers and reaction from the file as from the
// built-in, in every formulation applicable to both, at 50 random regular
// states of the built-in (half at default parameters, half randomized, as
// random_states.hpp), parameters matched by name.
TYPED_TEST(SystemFiles, AccelerationsAgreeWithBuiltin) {
  using S = TypeParam;
  const int kStates = 50;
  for (const Pair<S>& p : pairs<S>()) {
    std::mt19937_64 rng(20261124);
    Worst<S> worst;
    int compared = 0;
    for (int k = 0; k < kStates; ++k) {
      const std::vector<S> values =
          k % 2 ? randomized_parameters(*p.builtin, rng) : p.builtin->default_parameters();
      const System<S> bsys = p.builtin->build(values);
      const System<S> fsys = p.file->build(by_name(*p.builtin, values, *p.file));
      const State<S> x = p.builtin->random_state(bsys, rng);
      ASSERT_LE(max_abs<S>(constraint_residuals(fsys, x.q, x.qdot)), S(100) * epsilon<S>())
          << p.path << " state " << k << " off the file's C";
      // The natural scale of the reaction: the terms of g qddot + Gamma = A + R.
      const Inertia<S> in = inertia(bsys, x.q, x.qdot);
      const Vec<S> active = active_force(bsys, x.q, x.qdot);
      const ConstraintJacobians<S> cj = constraint_jacobians(bsys, x.q, x.qdot);
      S kappa = 1;
      if constexpr (std::is_same_v<S, double>) kappa = kkt_condition<S>(in, cj);
      const S tol = agreement_tolerance<S>(kappa);
      worst.note("(KKT condition)", kappa * epsilon<S>());
      for (const auto& f : formulations<S>()) {
        if (!f->not_applicable_reason(bsys).empty() || !f->not_applicable_reason(fsys).empty()) continue;
        const Acceleration<S> a = f->acceleration(bsys, x.q, x.qdot);
        const Acceleration<S> b = f->acceleration(fsys, x.q, x.qdot);
        const std::string key = f->name();
        const std::string what = p.path + " " + key + " state " + std::to_string(k);
        ++compared;
        const S dq = relative_difference<S>(a.qddot, b.qddot);
        worst.note(key + " qddot", dq);
        worst.note(key + " qddot / kappa", dq / kappa);
        EXPECT_LE(dq, tol) << what << " qddot " << to_string(a.qddot) << " vs " << to_string(b.qddot);
        using std::max;
        const S reaction_scale =
            max(max(max_abs<S>(Vec<S>(in.g * a.qddot)), max_abs<S>(in.gamma)), max_abs<S>(active));
        EXPECT_EQ(a.multipliers.has_value(), b.multipliers.has_value()) << what;
        if (a.multipliers && b.multipliers) {
          // R_i = lambda_a dC^a/dqdot^i: lambda's natural scale is R's over |dC/dqdot|.
          const S dl = scaled_difference<S>(*a.multipliers, *b.multipliers,
                                            reaction_scale / S(cj.C_qdot.cwiseAbs().maxCoeff()));
          worst.note(key + " multipliers", dl);
          worst.note(key + " multipliers / kappa", dl / kappa);
          EXPECT_LE(dl, tol) << what << " multipliers " << to_string(*a.multipliers) << " vs "
                             << to_string(*b.multipliers);
        }
        EXPECT_EQ(a.reaction.has_value(), b.reaction.has_value()) << what;
        if (a.reaction && b.reaction) {
          const S dr = scaled_difference<S>(*a.reaction, *b.reaction, reaction_scale);
          worst.note(key + " reaction", dr);
          worst.note(key + " reaction / kappa", dr / kappa);
          EXPECT_LE(dr, tol) << what << " reaction " << to_string(*a.reaction) << " vs "
                             << to_string(*b.reaction);
        }
      }
    }
    EXPECT_GT(compared, 0) << p.path;
    for (const auto& [key, w] : worst.by_key)
      std::cout << "[ agree    ] " << ScalarName<S>::value << " " << p.file->info.name << " " << key
                << ": " << static_cast<double>(w) << " = " << static_cast<double>(w / epsilon<S>())
                << " eps\n";
  }
}

/// The built-in motion with the same parameters and initial state as the
/// file's motion `mo`, or nullptr.
template <class S>
const SpecialMotion<S>* counterpart(const Pair<S>& p, const std::vector<SpecialMotion<S>>& builtin,
                                    const SpecialMotion<S>& mo) {
  for (const SpecialMotion<S>& b : builtin) {
    if (by_name(*p.builtin, b.parameters, *p.file) != mo.parameters) continue;
    if (vec_difference<S>(b.initial.q, mo.initial.q) + vec_difference<S>(b.initial.qdot, mo.initial.qdot) <=
        S(100) * epsilon<S>())
      return &b;
  }
  return nullptr;
}

// Each file's [[exact]] motion is one of the built-in's special motions:
// its initial state lies on C, and its closed form (q(t) from the file,
// qdot(t) by AD) equals the built-in's at 21 times in [0, t_end].
TYPED_TEST(SystemFiles, ClosedFormsMatchBuiltin) {
  using S = TypeParam;
  for (const Pair<S>& p : pairs<S>()) {
    const auto builtin = p.builtin->special_motions();
    for (const SpecialMotion<S>& mo : p.file->special_motions()) {
      const std::string what = p.path + " / " + mo.name;
      const System<S> sys = p.file->build(mo.parameters);
      EXPECT_LE(max_abs<S>(constraint_residuals(sys, mo.initial.q, mo.initial.qdot)),
                S(100) * epsilon<S>())
          << what;
      const SpecialMotion<S>* b = counterpart(p, builtin, mo);
      ASSERT_NE(b, nullptr) << what << ": no built-in motion with its parameters and initial state";
      EXPECT_LE(mo.t_end, b->t_end) << what;
      S worst = 0;
      for (int i = 0; i <= 20; ++i) {
        const S t = mo.t_end * S(i) / S(20);
        const State<S> xf = mo.exact(t), xb = b->exact(t);
        using std::max;
        const S scale = S(1) + max_abs<S>(xb.q) + max_abs<S>(xb.qdot);
        worst = max(worst, (vec_difference<S>(xf.q, xb.q) + vec_difference<S>(xf.qdot, xb.qdot)) / scale);
      }
      // The same closed forms in another order of operations: a few
      // roundings (measured at most 1.9 eps in double, 3.3 eps in mp50).
      EXPECT_LE(worst, S(10) * epsilon<S>()) << what;
      std::cout << "[ exact    ] " << ScalarName<S>::value << " " << what << ": vs built-in "
                << static_cast<double>(worst / epsilon<S>()) << " eps\n";
    }
  }
}

// Each file's motions integrated (double) with every applicable formulation
// to t_end, as tests/special_motion_check.hpp does for the built-ins: the
// closed form, energy (where conserved), the file's invariants and C to
// Tolerance<double>::analytic.
TEST(SystemFiles, SpecialMotionsIntegrate) {
  using S = double;
  int checked = 0;
  for (const Pair<S>& p : pairs<S>()) {
    for (const SpecialMotion<S>& mo : p.file->special_motions()) {
      const System<S> sys = p.file->build(mo.parameters);
      const State<S> x0 = mo.initial;
      const S E0 = energy(sys, x0.q, x0.qdot);
      const auto invariants = p.file->invariants(sys);
      std::vector<S> inv0;
      for (const auto& inv : invariants) inv0.push_back(inv.value(x0.q, x0.qdot));
      for (const auto& f : formulations<S>()) {
        if (!f->not_applicable_reason(sys).empty() || f->is_negative_control()) continue;
        IntegrationOptions<S> opts;
        opts.t_end = mo.t_end;
        opts.dt_out = S(1) / S(2);
        opts.rtol = opts.atol = integration_tolerance<S>();
        S err = 0, energy_drift = 0, residual = 0, inv_drift = 0, t_last = 0;
        const std::string what = p.path + " / " + mo.name + " / " + f->name();
        IntegrationStats stats;
        try {
          integrate<S>(sys, *f, x0.q, x0.qdot, opts, [&](const Sample<S>& s) {
            using std::max;
            const State<S> e = mo.exact(s.t);
            err = max(err, max((s.q - e.q).cwiseAbs().maxCoeff(), (s.qdot - e.qdot).cwiseAbs().maxCoeff()));
            energy_drift = max(energy_drift, std::abs(energy(sys, s.q, s.qdot) - E0));
            residual = max(residual, constraint_residuals(sys, s.q, s.qdot).cwiseAbs().maxCoeff());
            for (std::size_t i = 0; i < invariants.size(); ++i)
              inv_drift = max(inv_drift, std::abs(invariants[i].value(s.q, s.qdot) - inv0[i]));
            t_last = s.t;
          }, &stats);
        } catch (const std::exception& e) {
          ADD_FAILURE() << what << ": " << e.what();
          continue;
        }
        EXPECT_EQ(t_last, mo.t_end) << what;
        EXPECT_LE(err, Tolerance<S>::analytic) << what;
        if (p.file->energy_is_conserved(sys)) EXPECT_LE(energy_drift, Tolerance<S>::analytic) << what;
        EXPECT_LE(inv_drift, Tolerance<S>::analytic) << what;
        EXPECT_LE(residual, Tolerance<S>::analytic) << what;
        std::cout << "[ motion   ] " << what << ": error " << err << ", energy drift " << energy_drift
                  << ", max|C| " << residual << ", " << stats.rhs_calls << " RHS calls\n";
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 0);
}

// --- T from [[bodies]] alone ----------------------------------------------------

/// Every file of studies/files/ and examples/ that has [[bodies]].
std::vector<std::string> files_with_bodies() {
  std::vector<std::string> out;
  for (const char* dir : {"/studies/files", "/examples"})
    for (const auto& e : std::filesystem::directory_iterator(std::string(NHS_SOURCE_DIR) + dir)) {
      if (e.path().extension() != ".toml") continue;
      std::ifstream in(e.path());
      const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (text.find("\n[[bodies]]") != std::string::npos) out.push_back(e.path().string());
    }
  std::sort(out.begin(), out.end());
  return out;
}

/// A copy of the file at `path` in `dir` without its [dynamics]
/// kinetic_energy line (every file writes T on one line; checked: exactly
/// one line removed), so that T comes from the bodies. Returns its path.
std::string copy_without_kinetic_energy(const std::string& path, const std::filesystem::path& dir) {
  std::ifstream in(path);
  std::ostringstream out;
  std::string line;
  int removed = 0;
  while (std::getline(in, line)) {
    if (line.rfind("kinetic_energy = \"", 0) == 0 && line.back() == '"') {
      ++removed;
      continue;
    }
    out << line << '\n';
  }
  EXPECT_EQ(removed, 1) << path;
  const std::string copy = (dir / std::filesystem::path(path).filename()).string();
  std::ofstream(copy) << out.str();
  return copy;
}

// Each file with [[bodies]], copied without its kinetic_energy, derives T
// from the bodies (sum 1/2 m |dr/dt|^2 + 1/2 omega . J omega, written out
// by GiNaC): at 20 random states of the file (half at randomized
// parameters), T agrees with the file's to a few roundings (another order
// of operations: 8 eps relative; measured at most 0.9 eps in double and
// 1.5 eps in mp50), and qddot, in every formulation, to the file system's
// own agreement with its built-in (agreement_tolerance: 10 kappa eps in
// double, kappa the condition number of the KKT matrix; 1e-45 in mp50;
// measured at most 1.3 kappa eps in double and 10.4 eps = 1e-49 in mp50).
TYPED_TEST(SystemFiles, KineticEnergyFromBodiesAgrees) {
  using S = TypeParam;
  const auto dir = std::filesystem::temp_directory_path() /
                   ("nhs_bodies_only_" + std::string(ScalarName<S>::value) + "_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto files = files_with_bodies();
  EXPECT_GE(files.size(), 12u);
  for (const std::string& path : files) {
    const std::string copy = copy_without_kinetic_energy(path, dir);
    std::shared_ptr<const SystemFile> with_T, from_bodies;
    ASSERT_NO_THROW(with_T = load_system_file(path)) << path;
    try {
      from_bodies = load_system_file(copy);
    } catch (const std::exception& e) {
      FAIL() << copy << ": " << e.what();
    }
    EXPECT_FALSE(with_T->kinetic_energy_from_bodies) << path;
    EXPECT_TRUE(from_bodies->kinetic_energy_from_bodies) << copy;
    const Study<S> a = file_study<S>(with_T);
    const Study<S> b = file_study<S>(from_bodies);
    std::mt19937_64 rng(20261126);
    Worst<S> worst;
    int compared = 0;
    for (int k = 0; k < 20; ++k) {
      const std::vector<S> values = k % 2 ? randomized_parameters(a, rng) : a.default_parameters();
      const System<S> asys = a.build(values);
      const System<S> bsys = b.build(values);
      State<S> x;
      try {
        x = a.random_state(asys, rng);
      } catch (const InvalidState&) {
        continue;  // near a singular set, or outside psi's domain: not a comparison
      }
      using std::abs;
      const S Ta = asys.kinetic_energy(x.q, x.qdot), Tb = bsys.kinetic_energy(x.q, x.qdot);
      const S dT = abs(Ta - Tb) / (S(1) + abs(Ta));
      worst.note("T", dT);
      EXPECT_LE(dT, S(8) * epsilon<S>()) << copy << " state " << k << ": T " << Ta << " vs " << Tb;
      S kappa = 1;
      if constexpr (std::is_same_v<S, double>)
        kappa = kkt_condition<S>(inertia(asys, x.q, x.qdot), constraint_jacobians(asys, x.q, x.qdot));
      const S tol = agreement_tolerance<S>(kappa);
      for (const auto& f : formulations<S>()) {
        if (!f->not_applicable_reason(asys).empty()) continue;
        ASSERT_EQ(f->not_applicable_reason(bsys), "") << copy << " " << f->name();
        Acceleration<S> aa, ab;
        try {
          aa = f->acceleration(asys, x.q, x.qdot);
        } catch (const SingularState&) {
          // The same state must be singular for T from the bodies.
          EXPECT_THROW((void)f->acceleration(bsys, x.q, x.qdot), SingularState) << copy << " " << f->name();
          continue;
        }
        ab = f->acceleration(bsys, x.q, x.qdot);
        const S dq = relative_difference<S>(aa.qddot, ab.qddot);
        worst.note(f->name() + " qddot / kappa", dq / kappa);
        EXPECT_LE(dq, tol) << copy << " " << f->name() << " state " << k << ": qddot "
                           << to_string(aa.qddot) << " vs " << to_string(ab.qddot);
        ++compared;
      }
    }
    EXPECT_GT(compared, 0) << copy;
    S worst_qddot = 0;
    for (const auto& [key, w] : worst.by_key)
      if (key != "T") worst_qddot = std::max(worst_qddot, w);
    std::cout << "[ bodies T ] " << ScalarName<S>::value << " " << from_bodies->info.name << ": T "
              << static_cast<double>(worst.by_key["T"] / epsilon<S>()) << " eps, qddot "
              << static_cast<double>(worst_qddot / epsilon<S>()) << " kappa eps (" << compared
              << " comparisons)\n";
  }
  std::filesystem::remove_all(dir);
}

// --- the loader's error messages -----------------------------------------------

/// A valid file (the skate without incline) whose lines the cases edit.
const char* const kGood = R"toml(name = "bad"
coordinates = ["x", "y", "theta"]
quasi_velocities = ["s", "omega"]
dependent_velocities = ["y"]

[parameters]
m = "1"
I = "0.5"

[dynamics]
kinetic_energy = "m/2*(x_dot^2 + y_dot^2) + I/2*theta_dot^2"

[constraints]
C1 = "x_dot*sin(theta) - y_dot*cos(theta)"

[parametrization]
x_dot = "s*cos(theta)"
y_dot = "s*sin(theta)"
theta_dot = "omega"

[chart]
s = "x_dot*cos(theta) + y_dot*sin(theta)"
omega = "theta_dot"

[initial]
q = ["0", "0", "0"]
z = ["1", "0.5"]
)toml";


/// `text` with the first occurrence of `from` replaced by `to` (which must occur).
std::string edit(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

/// "line:column" (1-based) of the first occurrence of `needle` in `text`,
/// after the first occurrence of `after` (to point inside a given line).
std::string position_of(const std::string& text, const std::string& needle, const std::string& after = "") {
  const std::size_t from = after.empty() ? 0 : text.find(after);
  const std::size_t at = text.find(needle, from);
  EXPECT_NE(at, std::string::npos) << needle;
  const std::size_t line_start = text.rfind('\n', at == 0 ? 0 : at - 1);
  const std::size_t column = at - (line_start == std::string::npos || at == 0 ? 0 : line_start + 1) + 1;
  const long line = std::count(text.begin(), text.begin() + static_cast<long>(at), '\n') + 1;
  return std::to_string(line) + ":" + std::to_string(column);
}

struct BadFile {
  std::string name;
  std::string text;
  std::string where;                 ///< expected "line:column"
  std::vector<std::string> reasons;  ///< substrings of the reason
};

std::vector<BadFile> bad_files() {
  const std::string good = kGood;
  std::vector<BadFile> cases;
  {
    const std::string t = edit(good, "I = \"0.5\"", "I = = \"0.5\"");
    cases.push_back({"toml_syntax", t, position_of(t, "= \"0.5\"", "I = "), {"TOML syntax"}});
  }
  {
    // Non-ASCII text that toml++ 3.3 cannot be given (undefined behaviour in
    // its white-space test; systemfile/toml_scan.cpp): refused before it parses.
    const std::string t = edit(good, "coordinates =", "k\xc2\xa7 = 1\ncoordinates =");
    cases.push_back({"non_ascii_key", t, position_of(t, "\xc2\xa7"), {"non-ASCII character outside a string"}});
  }
  {
    const std::string t = edit(good, "coordinates =", "note = \"\"\"\\\n  \xc2\xa7\"\"\"\ncoordinates =");
    cases.push_back({"non_ascii_after_line_ending_backslash", t, position_of(t, "\xc2\xa7"),
                     {"first after a line-ending backslash"}});
  }
  {
    // [[frames]] and a body in a frame: each error at its value.
    const std::string framed = good +
        "\n[[frames]]\nname = \"blade\"\nrotations = [\"Rz(theta)\"]\norigin = [\"x\", \"y\", \"0\"]\n\n"
        "[[bodies]]\nframe = \"blade\"\nmass = \"m\"\n"
        "inertia = [[\"I\", \"0\", \"0\"], [\"0\", \"I\", \"0\"], [\"0\", \"0\", \"I\"]]\n";
    std::string t = edit(framed, "name = \"blade\"\n", "name = \"blade\"\nparent = \"wheel\"\n");
    cases.push_back({"frame_unknown_parent", t, position_of(t, "\"wheel\""), {"unknown parent frame 'wheel' (known: space)"}});
    t = edit(framed, "name = \"blade\"\n", "name = \"blade\"\nparent = \"blade\"\n");
    cases.push_back({"frame_own_parent", t, position_of(t, "\"blade\"", "parent"), {"cannot be its own parent"}});
    t = edit(framed, "\"Rz(theta)\"", "\"Rq(theta)\"");
    cases.push_back({"frame_rotation", t, position_of(t, "\"Rq"), {"expected Rx(angle), Ry(angle) or Rz(angle)"}});
    t = edit(framed, "\"Rz(theta)\"", "\"Rz(theta_dot)\"");
    cases.push_back({"frame_angle_velocity", t, position_of(t, "theta_dot)"), {"unknown name 'theta_dot'"}});
    t = edit(framed, "frame = \"blade\"", "frame = \"blad\"");
    cases.push_back({"body_unknown_frame", t, position_of(t, "\"blad\""), {"unknown frame 'blad' (known: blade)"}});
    t = edit(framed, "origin = [\"x\", \"y\", \"0\"]", "origin = [\"x\", \"y\"]");
    cases.push_back({"frame_origin_size", t, position_of(t, "[\"x\", \"y\"]", "origin"), {"origin has 2 entries, expected 3"}});
  }
  {
    // [[rolling]], up and gravity (examples/bodies/rolling-disc.toml): each
    // error at its value, naming the table and the key.
    std::ifstream in(std::string(NHS_SOURCE_DIR) + "/examples/bodies/rolling-disc.toml");
    const std::string disc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string t = edit(disc, "frame = \"disc\"\nsurface", "frame = \"dsc\"\nsurface");
    cases.push_back({"rolling_unknown_frame", t, position_of(t, "\"dsc\""), {"rolling[1]: unknown frame 'dsc' (known: disc)"}});
    t = edit(disc, "surface = \"disc\"", "surface = \"cube\"");
    cases.push_back({"rolling_surface", t, position_of(t, "\"cube\""), {"rolling[1] surface 'cube': expected sphere"}});
    t = edit(disc, "radius = \"R\"\n", "radius = \"R\"\nheight = \"zz\"\n");
    cases.push_back({"rolling_height", t, position_of(t, "\"zz\""), {"rolling[1] height 'zz': expected \"derived\""}});
    t = edit(disc, "axis = [\"0\", \"1\", \"0\"]", "axis = [\"0\", \"1\"]");
    cases.push_back({"rolling_axis_size", t, position_of(t, "[\"0\", \"1\"]", "axis"), {"rolling[1] axis has 2 entries, expected 3"}});
    t = edit(disc, "radius = \"R\"\n", "radius = \"R\"\ncolour = \"red\"\n");
    cases.push_back({"rolling_unknown_key", t, position_of(t, "colour"), {"unknown key 'colour'"}});
    t = edit(disc, "radius = \"R\"\n", "radius = \"R\"\n\n[[rolling]]\nname = \"rim\"\nframe = \"disc\"\n"
                                         "surface = \"sphere\"\nradius = \"R\"\nheight = \"derived\"\n");
    cases.push_back({"rolling_height_twice", t, position_of(t, "\"derived\""),
                     {"the height of frame 'disc' is already derived from rolling[1] (contact)"}});
    t = edit(disc, "gravity = [\"0\", \"0\", \"-g\"]", "gravity = [\"0\", \"-g\"]");
    cases.push_back({"gravity_dimension", t, position_of(t, "[\"0\", \"-g\"]"), {"gravity has 2 entries and bodies[1] is a body in 3"}});
    t = edit(disc, "quasi_velocities = [\"thetad\", \"psid\", \"phid\"]\n", "");
    t = edit(t, "g = { default", "psid = \"1\"\ng = { default");
    cases.push_back({"derived_quasi_velocity_name", t, position_of(t, "[\"x\", \"y\"]", "dependent_velocities"),
                     {"derived quasi-velocity (the velocity of psi; declare quasi_velocities", "'psid' is already in use"}});
    const std::string J = "inertia = [[\"m*R^2/4\", \"0\", \"0\"], [\"0\", \"m*R^2/2\", \"0\"], [\"0\", \"0\", \"m*R^2/4\"]]";
    t = edit(disc, J, "inertia = [[\"m*R^2/4\", \"0.1\", \"0\"], [\"0\", \"m*R^2/2\", \"0\"], [\"0\", \"0\", \"m*R^2/4\"]]");
    cases.push_back({"inertia_not_symmetric", t, position_of(t, "[[", "inertia = "),
                     {"bodies[1] inertia is not symmetric: [1][2] = 0.10000000000000001, [2][1] = 0"}});
    t = edit(disc, J, "inertia = [[\"0.1\", \"0\", \"0\"], [\"0\", \"0.5\", \"0\"], [\"0\", \"0\", \"0.1\"]]");
    cases.push_back({"inertia_triangle", t, position_of(t, "[[", "inertia = "),
                     {"bodies[1] inertia breaks the triangle inequality", "0.10000000000000001 + 0.10000000000000001 < 0.5"}});
    t = edit(disc, J, "inertia = [[\"-0.1\", \"0\", \"0\"], [\"0\", \"0.5\", \"0\"], [\"0\", \"0\", \"0.5\"]]");
    cases.push_back({"inertia_negative", t, position_of(t, "[[", "inertia = "),
                     {"bodies[1] inertia is not positive semidefinite: principal moments (-0.10000000000000001"}});
    t = edit(disc, "radius = \"R\"", "radius = \"-R\"");
    cases.push_back({"rolling_negative_radius", t, position_of(t, "\"-R\""),
                     {"rolling[1] radius = -1 at the default parameters: it must be > 0"}});
    t = edit(disc, "gravity =", "up = \"w\"\ngravity =");
    cases.push_back({"up_axis", t, position_of(t, "\"w\""), {"up = 'w': expected one of the space axes"}});
  }
  {
    // [let]: a name defined in terms of itself, a later let, a name that
    // shadows a coordinate, a let with a velocity where only q is known,
    // an unknown name inside a let: each at its character.
    const std::string lets = "[let]\nv = \"x_dot*cos(theta)\"\nc = \"cos(theta)\"\n\n[dynamics]";
    const std::string base = edit(good, "[dynamics]", lets);
    std::string t = edit(base, "c = \"cos(theta)\"", "c = \"1 + c\"");
    cases.push_back({"let_itself", t, position_of(t, "c\"", "c = "), {"let c is defined in terms of itself"}});
    t = edit(base, "v = \"x_dot*cos(theta)\"", "v = \"x_dot*c\"");
    cases.push_back({"let_below", t, position_of(t, "c\"", "v = "), {"let v uses 'c', which [let] defines below it"}});
    t = edit(base, "c = \"cos(theta)\"", "theta = \"cos(x)\"");
    cases.push_back({"let_shadows_coordinate", t, position_of(t, "\"cos(x)\""),
                     {"[let] name 'theta' is already in use as a name"}});
    t = edit(base, "c = \"cos(theta)\"", "c = \"cos(theta)\"\nS = \"m\"");
    cases.push_back({"let_named_like_the_appellian", t, position_of(t, "\"m\"", "S = "),
                     {"[let] name 'S' has the name of the Appellian"}});
    t = edit(base, "c = \"cos(theta)\"", "c = \"cos(thetta)\"");
    cases.push_back({"let_unknown_name", t, position_of(t, "thetta"), {"let c: unknown name 'thetta'"}});
    t = edit(base, "x_dot = \"s*cos(theta)\"", "x_dot = \"s*c + 0*v\"");
    cases.push_back({"let_velocity_in_psi", t, position_of(t, "v\"", "x_dot = \"s*c"),
                     {"'v' (a [let] name) uses 'x_dot', which is not known here"}});
  }
  {
    const std::string t = edit(good, "coordinates =", "colour = \"red\"\ncoordinates =");
    cases.push_back({"unknown_key", t, position_of(t, "colour"), {"unknown key 'colour'", "expected: name, title"}});
  }
  {
    const std::string t = edit(good, "coordinates = [\"x\", \"y\", \"theta\"]\n", "");
    cases.push_back({"missing_coordinates", t, "1:1", {"missing key 'coordinates'"}});
  }
  {
    const std::string t = edit(good, "I/2*theta_dot^2", "J/2*theta_dot^2");
    cases.push_back({"unknown_name", t, position_of(t, "J/2", "kinetic_energy"),
                     {"kinetic_energy", "unknown name 'J'", "known here: ", "I, m", "theta_dot", "pi"}});
  }
  {
    const std::string t = edit(good, "q = [\"0\", \"0\", \"0\"]", "q = [\"0\", \"0\"]");
    cases.push_back({"initial_q_count", t, position_of(t, "[\"0\", \"0\"]"), {"initial q has 2 entries, expected 3"}});
  }
  {
    const std::string t = edit(good, "C1 = \"x_dot*sin(theta) - y_dot*cos(theta)\"", "C1 = \"x*sin(theta) - y*cos(theta)\"");
    cases.push_back({"holonomic", t, position_of(t, "\"x*sin"), {"constraint C1 involves no velocity", "holonomic"}});
  }
  {
    const std::string t = edit(good, "y_dot = \"s*sin(theta)\"", "y_dot = \"s*sin(2*theta)\"");
    cases.push_back({"psi_off_C", t, position_of(t, "[parametrization]"),
                     {"the parametrization does not satisfy the constraints", "C(q, psi(q, z)) = "}});
  }
  {
    const std::string t = edit(good, "omega = \"theta_dot\"", "omega = \"2*theta_dot\"");
    cases.push_back({"chart_not_inverse", t, position_of(t, "[chart]"),
                     {"the chart does not invert the parametrization", "z(q, psi(q, z)) = "}});
  }
  {
    const std::string t = edit(good, " + I/2*theta_dot^2", "");
    cases.push_back({"metric_not_positive", t, position_of(t, "\"m/2"),
                     {"the metric g = d^2T/dqdot^2 is not positive definite at the initial state", "eigenvalues"}});
  }
  {
    const std::string t = good + "\n[[bodies]]\nmass = \"m\"\nposition = [\"x\", \"y\"]\n"
                                 "angular_velocity = \"theta_dot\"\ninertia = \"2*I\"\n";
    // In the file's terms: it said "description member `bodies` disagrees
    // with `kinetic_energy`".
    cases.push_back({"bodies_T", t, position_of(t, "[[bodies]]"),
                     {"the kinetic energy of [[bodies]] differs from [dynamics] kinetic_energy: T = ",
                      "the bodies' kinetic energy = "}});
  }
  {
    const std::string t = edit(good, "I/2*theta_dot^2\"", "I/2*theta_dot^2 + 1/(2-2)\"");
    cases.push_back({"division_by_zero", t, position_of(t, "/(2-2)", "kinetic_energy"),
                     {"kinetic_energy: division by zero"}});
  }
  {
    const std::string t = edit(good, "C1 = \"x_dot*sin(theta)", "C1 = \"x_dot^2*sin(theta)");
    cases.push_back({"split_nonlinear", t, position_of(t, "[\"y\"]", "dependent_velocities"),
                     {"dependent_velocities (Voronec's split", "needs constraints linear in the velocities"}});
  }
  // An affine constraint (a term free of the velocities, a moving support)
  // with dependent_velocities is accepted: Voronec's split is qdot_dep =
  // a(q) qdot_indep + a0(q) (examples/turntable-ball.toml; the generic
  // tests cross-check it).
  {
    // Two dependent constraints with psi: dC/dq_dot has rank 1 < r = 2
    // (describe()'s "description member `quasi_velocities`", now at [constraints]).
    std::string t = edit(good, "quasi_velocities = [\"s\", \"omega\"]\ndependent_velocities = [\"y\"]\n",
                         "quasi_velocities = [\"s\"]\n");
    t = edit(t, "C1 = \"x_dot*sin(theta) - y_dot*cos(theta)\"",
             "C1 = \"x_dot*sin(theta) - y_dot*cos(theta)\"\nC2 = \"2*x_dot*sin(theta) - 2*y_dot*cos(theta)\"");
    t = edit(t, "theta_dot = \"omega\"", "theta_dot = \"0\"");
    t = edit(t, "omega = \"theta_dot\"\n", "");
    t = edit(t, "z = [\"1\", \"0.5\"]", "z = [\"1\"]");
    cases.push_back({"dependent_constraints", t, position_of(t, "[constraints]"),
                     {"the constraints are not independent", "quasi_velocities names m = 1",
                      "n - rank(dC/dqdot) = 2"}});
  }
  // [parametrization] domain: strict comparisons, one per condition, at the
  // character; the initial state inside.
  {
    const std::string t = edit(good, "theta_dot = \"omega\"", "theta_dot = \"omega\"\ndomain = [\"s >= 0\"]");
    cases.push_back({"domain_not_strict", t, position_of(t, ">= 0"),
                     {"[parametrization] domain[1]: only the strict comparisons '>' and '<' are allowed",
                      "not '>='"}});
  }
  {
    const std::string t = edit(good, "theta_dot = \"omega\"", "theta_dot = \"omega\"\ndomain = [\"s\"]");
    cases.push_back({"domain_no_comparison", t, position_of(t, "s\"]", "domain"),
                     {"[parametrization] domain[1]: no comparison: expected a strict inequality"}});
  }
  {
    const std::string t =
        edit(good, "theta_dot = \"omega\"", "theta_dot = \"omega\"\ndomain = [\"s > 0\", \"0 < s < 9\"]");
    cases.push_back({"domain_two_comparisons", t, position_of(t, "< 9"),
                     {"[parametrization] domain[2]: one comparison per condition"}});
  }
  {
    const std::string t = edit(good, "theta_dot = \"omega\"", "theta_dot = \"omega\"\ndomain = [\"s > w\"]");
    cases.push_back({"domain_unknown_name", t, position_of(t, "w\"]", "domain"),
                     {"[parametrization] domain[1] (right of '>'): unknown name 'w'", "omega", "theta"}});
  }
  {
    const std::string t = edit(good, "theta_dot = \"omega\"", "theta_dot = \"omega\"\ndomain = [\"s < \"]");
    cases.push_back({"domain_empty_side", t, position_of(t, "\"]", "domain"),
                     {"[parametrization] domain[1] (right of '<'): empty expression"}});
  }
  {
    const std::string t = edit(good, "theta_dot = \"omega\"", "theta_dot = \"omega\"\ndomain = [\"s > 2*omega + 1\"]");
    cases.push_back({"domain_excludes_initial", t, position_of(t, "[initial]"),
                     {"the initial state is outside the domain of the parametrization: the condition "
                      "s > 2*omega + 1 of the domain of psi and its chart (",
                      "does not hold: its sides are 1 and 2, at q = (0, 0, 0), z = (1, 0.5)"}});
  }
  // Incomplete expressions name what was expected in words, at the
  // character (they printed X3's mangled C++ type names).
  {
    const std::vector<std::tuple<std::string, std::string, std::string, std::string>> syntax = {
        {"empty_parentheses", "()", ")", "expected an expression, got ')'"},
        {"call_without_argument", "sin()", ")", "expected an argument, got ')'"},
        {"power_without_exponent", "x^", "\"\n", "expected an operand, got the end of the expression"},
        {"call_unclosed", "sin(", "\"\n", "expected an argument, got the end of the expression"},
        {"parenthesis_unclosed", "(x + 1", "\"\n", "expected a closing parenthesis ')', got the end"},
        {"argument_after_comma", "pow(x, )", ")", "expected an argument, got ')'"},
        {"operand_after_space", "x *   ", "\"\n", "expected an operand, got the end of the expression"},
        {"stray_closing", ")", ")", "expected a number, a name or '(', got ')'"},
        {"closing_after_operand", "x)", ")", "unexpected ')' (expected an operator or the end)"},
    };
    for (const auto& [name, expr, needle, reason] : syntax) {
      const std::string t = edit(good, "I/2*theta_dot^2\"\n", "I/2*theta_dot^2\"\npotential = \"" + expr + "\"\n");
      cases.push_back({"syntax_" + name, t, position_of(t, needle, "potential"), {"potential: " + reason}});
    }
  }
  {
    const std::string t = edit(good, "I = \"0.5\"", "I = \"half\"");
    cases.push_back({"parameter_not_number", t, position_of(t, "\"half\""), {"parameter I", "half"}});
  }
  // [singular]
  {
    const std::string t = good + "\n[singular]\nP = \"x^2 + w^2\"\n";
    cases.push_back({"singular_unknown_name", t, position_of(t, "w^2", "P = "),
                     {"singular set P margin", "unknown name 'w'", "known here: ", "I, m", "theta_dot", "pi"}});
  }
  {
    const std::string t = good + "\n[singular]\nP = 3\n";
    cases.push_back({"singular_not_expression", t, position_of(t, "3", "P = "),
                     {"singular set P must be a margin expression", "{ margin = "}});
  }
  {
    const std::string t = good + "\n[singular]\nP = { margin = \"x\", colour = \"red\" }\n";
    cases.push_back({"singular_unknown_key", t, position_of(t, "colour"),
                     {"unknown key 'colour' in [singular.P]", "expected: margin, meaning"}});
  }
  {
    const std::string t = good + "\n[singular]\nP = { meaning = \"x = 0\" }\n";
    cases.push_back({"singular_no_margin", t, position_of(t, "{ meaning"), {"missing key 'margin' in [singular.P]"}});
  }
  {
    const std::string t = good + "\n[singular]\n\"a b\" = \"x\"\n";
    cases.push_back({"singular_not_a_name", t, position_of(t, "\"a b\""), {"singular set 'a b' is not a name"}});
  }
  {
    const std::string t = good + "\n[singular]\nP = \"x - y\"\n";  // x = y = 0 initially
    cases.push_back({"singular_initial", t, position_of(t, "[initial]"),
                     {"the initial state is on a singular set of [singular]", "singular set P (x - y = 0)",
                      "margin_P = 0"}});
  }
  // T from [[bodies]] (no kinetic_energy). A complex constant in a body
  // (it made T unwritable, an error at the [[bodies]] table) is refused
  // before, at its function, as everywhere.
  {
    const std::string t = edit(good, "kinetic_energy = \"m/2*(x_dot^2 + y_dot^2) + I/2*theta_dot^2\"\n", "") +
                          "\n[[bodies]]\nmass = \"sqrt(-1)*m\"\nposition = [\"x\", \"y\"]\n";
    cases.push_back({"bodies_mass_not_real", t, position_of(t, "sqrt(-1)*m"),
                     {"bodies[1] mass: sqrt of a constant below 0 (the argument is -1): not a real number"}});
  }
  {
    // The bodies' T beyond double's range where no constant is (T =
    // m/2 (1e200 x_dot)^2 + ...: g holds 1e400 m): refused at the
    // [[bodies]], which give T (it failed in double without a position).
    const std::string t = edit(good, "kinetic_energy = \"m/2*(x_dot^2 + y_dot^2) + I/2*theta_dot^2\"\n", "") +
                          "\n[[bodies]]\nmass = \"m\"\nposition = [\"1e200*x\", \"y\"]\n"
                          "angular_velocity = \"theta_dot\"\ninertia = \"I\"\n";
    cases.push_back({"bodies_T_beyond_double", t, position_of(t, "[[bodies]]"),
                     {"the metric g = d^2T/dqdot^2 (T from [[bodies]]) is not finite in double at the initial state",
                      "beyond double's range", "at q = (0, 0, 0)"}});
  }
  {
    // A point mass alone: theta has no inertia, g is singular.
    const std::string t = edit(good, "kinetic_energy = \"m/2*(x_dot^2 + y_dot^2) + I/2*theta_dot^2\"\n", "") +
                          "\n[[bodies]]\nmass = \"m\"\nposition = [\"x\", \"y\"]\n";
    cases.push_back({"bodies_T_metric", t, position_of(t, "[[bodies]]"),
                     {"the metric g = d^2T/dqdot^2 (T from [[bodies]]) is not positive definite"}});
  }
  {
    // An indefinite T (a negative inertia): no constraint can make up for it.
    const std::string t = edit(good, "+ I/2*theta_dot^2", "- I/2*theta_dot^2");
    cases.push_back({"metric_indefinite", t, position_of(t, "\"m/2"),
                     {"is not positive definite at the initial state", "(eigenvalues (-0.5, 1, 1))",
                      "singular metric g", "not positive semidefinite"}});
  }
  {
    // g positive definite at the defaults, indefinite at an [[exact]]
    // motion's parameters (m = -1): refused at that motion, before any
    // formulation integrates it.
    const std::string t = good + "\n[[exact]]\nname = \"negative mass\"\nparameters = { m = \"-1\" }\n"
                                 "t_end = \"1\"\nq = [\"t\", \"0\", \"0\"]\n";
    cases.push_back({"exact_metric_indefinite", t, position_of(t, "[[exact]]"),
                     {"is not positive definite at the start of exact motion 'negative mass'",
                      "(eigenvalues (-1, -1, 0.5))", "not positive semidefinite"}});
  }
  // Numbers of the file: finite in every precision (double included), at
  // their value with the parameter's name ("1e400" said "number out of
  // range '1e400'" without a position when a command ran in double).
  {
    const std::string t = edit(good, "I = \"0.5\"", "I = \"1e400\"");
    cases.push_back({"parameter_beyond_double", t, position_of(t, "\"1e400\""),
                     {"parameter I: number out of range '1e400'", "not finite in double"}});
  }
  {
    const std::string t = good + "\n[[exact]]\nname = \"e\"\nparameters = { I = \"-2e308\" }\n"
                                 "t_end = \"1\"\nq = [\"t\", \"0\", \"0\"]\n";
    cases.push_back({"exact_parameter_beyond_double", t, position_of(t, "\"-2e308\""),
                     {"exact[1] parameter I: number out of range '-2e308'", "not finite in double"}});
  }
  {
    const std::string t = good + "\n[[exact]]\nname = \"e\"\nt_end = \"1e309\"\nq = [\"t\", \"0\", \"0\"]\n";
    cases.push_back({"exact_t_end_beyond_double", t, position_of(t, "\"1e309\""),
                     {"exact[1] t_end: number out of range '1e309'", "not finite in double"}});
  }
  // Constants that are not finite real numbers, at the function (or the
  // '^') with the argument's value; node by node, as the program computes.
  const auto with_potential = [&good](const std::string& v) {
    return edit(good, "I/2*theta_dot^2\"\n", "I/2*theta_dot^2\"\npotential = \"m*x + " + v + "\"\n");
  };
  const std::vector<std::tuple<std::string, std::string, std::string, std::vector<std::string>>> constants = {
      {"sqrt_negative", "sqrt(-1)", "sqrt(-1)",
       {"potential: sqrt of a constant below 0 (the argument is -1): not a real number"}},
      {"sqrt_negative_irrational", "2*sqrt(3 - pi)", "sqrt(3 - pi)",
       {"sqrt of a constant below 0 (the argument is -0.14159265358979", "not a real number"}},
      {"sqrt_inner_first", "sqrt(-1)^2", "sqrt(-1)", {"sqrt of a constant below 0"}},
      {"log_negative", "log(-2)", "log(-2)", {"log of a constant below 0 (the argument is -2)"}},
      {"log_zero", "log(1 - 1)", "log(1 - 1)", {"log of a constant equal to 0 (the argument is 0): a pole"}},
      {"asin_beyond", "asin(3/2)", "asin(3/2)", {"asin of a constant outside [-1, 1] (the argument is 1.5)"}},
      {"acos_beyond", "acos(-1.5)", "acos(-1.5)", {"acos of a constant outside [-1, 1] (the argument is -1.5)"}},
      {"acosh_below", "acosh(0.5)", "acosh(0.5)", {"acosh of a constant below 1 (the argument is 0.5)"}},
      {"atanh_pole", "atanh(1)", "atanh(1)", {"atanh of a constant equal to 1 or -1 (the argument is 1): a pole"}},
      {"atanh_beyond", "atanh(-2)", "atanh(-2)", {"atanh of a constant outside (-1, 1) (the argument is -2)"}},
      {"zero_negative_power", "0^-1", "^-1", {"0 to a negative power (the base is 0, the exponent -1): division by zero"}},
      {"negative_half_power", "(-4)^0.5", "^0.5",
       {"a negative constant to a half-integer power (the base is -4, the exponent 1/2): not a real number"}},
      {"negative_cube_root", "(-8)^(1/3)", "^(1/3)",
       {"a negative constant to a power that is not a literal integer or half-integer (the base is -8",
        "exp(y log x)"}},
      {"negative_pow_computed_exponent", "pow(-2, 1 + 1)", "pow(-2",
       {"a negative constant to a power that is not a literal integer", "the exponent 2"}},
      {"negative_base_variable_exponent", "(-2)^x", "^x", {"the base is -2, the exponent x", "not a real number"}},
      {"zero_to_computed_zero", "0^(1 - 1)", "^(1 - 1)", {"0 to a power <= 0 that is not a literal integer"}},
      // A literal is converted once per precision: beyond double's range it
      // failed in double without a position.
      {"literal_beyond_double", "1e309*x", "1e309",
       {"potential: number out of range '1e309' in double (a literal must be finite in every precision)"}},
  };
  for (const auto& [name, expr, needle, reasons] : constants) {
    const std::string t = with_potential(expr);
    cases.push_back({name, t, position_of(t, needle, "potential"), reasons});
  }
  // A file that names t (a push k t): the loader's clock coordinate `time`
  // and constraint `clock` are names of the system, and t is not a name of
  // values ([initial]) (docs/system-files.md, "Time").
  const std::string timed = edit(good, "I/2*theta_dot^2\"\n", "I/2*theta_dot^2\"\nforces = { x = \"t\" }\n");
  {
    const std::string t = edit(timed, "I = \"0.5\"", "I = \"0.5\"\ntime = \"1\"");
    cases.push_back({"time_parameter_with_t", t, position_of(t, "\"1\"", "time = "),
                     {"parameter 'time' is already in use as a name", "the clock coordinate that nhs adds for t"}});
  }
  {
    const std::string t = edit(timed, "q = [\"0\", \"0\", \"0\"]", "q = [\"t\", \"0\", \"0\"]");
    cases.push_back({"t_in_initial", t, position_of(t, "t\", \"0\"", "q = ["),
                     {"initial q[1]: unknown name 't'", "the time t may appear in the system's expressions"}});
  }
  {
    const std::string t = edit(timed, "theta_dot = \"omega\"", "theta_dot = \"omega\"\ntime_dot = \"1\"");
    cases.push_back({"clock_velocity_in_psi", t, position_of(t, "time_dot = "),
                     {"time_dot is the clock's velocity, 1", "leave it out"}});
  }
  {
    const std::string t = edit(timed, "dependent_velocities = [\"y\"]", "dependent_velocities = [\"time\"]");
    cases.push_back({"clock_as_dependent_velocity", t, position_of(t, "[\"time\"]"),
                     {"'time' is the clock coordinate, solved for by its own constraint"}});
  }
  {
    const std::string t = edit(timed, "forces = { x = \"t\" }", "forces = { x = \"t\", time = \"1\" }");
    cases.push_back({"force_on_the_clock", t, position_of(t, "time = \"1\""),
                     {"forces: 'time' is the clock coordinate that nhs adds for t"}});
  }
  return cases;
}

// Constants inside their functions' real domain, and a parameter's (which
// --param may change), load.
TEST(SystemFileErrors, RealConstantsAndParametersLoad) {
  const auto dir = std::filesystem::temp_directory_path() / ("nhs_real_constants_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "real.toml").string();
  std::ofstream(path) << edit(kGood, "I/2*theta_dot^2\"\n",
                              "I/2*theta_dot^2\"\npotential = \"m*x + sqrt(2) + log(1) + asin(1) + acos(-1) + "
                              "acosh(1) + atanh(-0.5) + (-2)^2 + (-2)^-3 + 0^2 + 0^0.5 + 2^(1/3) + "
                              "pow(0, pi) + sqrt(pi - 3) + sqrt(1 - 0.1*10) + 1e-400*x + 1e308 + sqrt(-m)\"\n");
  EXPECT_NO_THROW((void)load_system_file(path));
  std::filesystem::remove_all(dir);
}

// The longest chains an expression may hold (a + b + c + ..., up to
// kMaxExpressionLength characters) load: the loader's symbolic conversion
// walks them without recursion (a 7,000-term sum overflowed its stack), and
// the potential is the exact sum.
TEST(SystemFileErrors, LongestChainsLoad) {
  const auto dir = std::filesystem::temp_directory_path() / ("nhs_long_chains_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "long.toml").string();
  std::string sum = "x";
  const int terms = 9000;
  for (int k = 1; k < terms; ++k) sum += "+x";
  ASSERT_LE(sum.size(), expression::kMaxExpressionLength);
  std::ofstream(path) << edit(kGood, "I/2*theta_dot^2\"\n", "I/2*theta_dot^2\"\npotential = \"" + sum + "\"\n");
  const auto file = load_system_file(path);
  const System<double> sys = file_study<double>(file).build({1.0, 0.5});
  Vec<double> q(3);
  q << 0.5, 0, 0;
  EXPECT_EQ(sys.potential(q), 0.5 * terms);
  std::filesystem::remove_all(dir);
}

// A file that cannot be read is a usage error (exit 2) naming the path and
// the reason, never an I/O error (exit 5: output that cannot be written);
// a directory is named as such (it read as an empty file).
TEST(SystemFileErrors, UnreadableFilesAreUsageErrors) {
  const auto dir = std::filesystem::temp_directory_path() / ("nhs_unreadable_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "directory.toml");
  const std::string missing = (dir / "missing.toml").string();
  const std::string directory = (dir / "directory.toml").string();
  for (const auto& [path, reason] : {std::pair{missing, std::string("No such file or directory")},
                                     std::pair{directory, std::string("it is a directory")}}) {
    try {
      (void)load_system_file(path);
      ADD_FAILURE() << path << ": loaded";
    } catch (const FileError& e) {
      EXPECT_EQ(e.where, path);
      EXPECT_NE(e.reason.find("cannot read the system file: "), std::string::npos) << e.what();
      EXPECT_NE(e.reason.find(reason), std::string::npos) << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << path << ": not a FileError: " << e.what();
    }
  }
  std::filesystem::remove_all(dir);
}

// --- energy and homogeneous constraints ---------------------------------------------

/// A particle in space (n = 3) with one constraint `C` and initial velocity
/// `qdot` (on C), in a field along x (V = -x), without parametrization.
std::string particle_with(const std::string& C, const std::string& qdot) {
  return "coordinates = [\"x\", \"y\", \"z\"]\n"
         "[dynamics]\n"
         "kinetic_energy = \"(x_dot^2 + y_dot^2 + z_dot^2)/2\"\n"
         "potential = \"-x\"\n"
         "[constraints]\n"
         "C = \"" + C + "\"\n"
         "[initial]\n"
         "q = [\"0\", \"0\", \"0\"]\n"
         "qdot = [" + qdot + "]\n";
}

// sqrt(z_dot^2) is |z_dot|: its second derivative in z_dot is 0 wherever
// it is defined, but it is not linear in z_dot (its first derivative is
// the sign of z_dot). Such a constraint loads as non-linear (it was taken
// for linear, then refused as "not A(q) q_dot numerically"), and the
// formulations that take non-linear constraints agree on it, in double and
// mp50. A constraint linear only after cancellation stays linear.
template <class S>
std::vector<std::pair<std::string, Vec<S>>> accelerations_of(const std::shared_ptr<const SystemFile>& file) {
  const Study<S> st = file_study<S>(file);
  const System<S> sys = st.build(st.default_parameters());
  const State<S> x = st.default_state(sys);
  std::vector<std::pair<std::string, Vec<S>>> out;
  for (const auto& f : formulations<S>())
    if (f->not_applicable_reason(sys).empty() && !f->is_negative_control())
      out.emplace_back(f->name(), f->acceleration(sys, x.q, x.qdot).qddot);
  return out;
}


// [let]: a file written with named sub-expressions has the accelerations of
// the same file written out, bit for bit, in every formulation (a name is
// the node of its expression, compiled as written: the same operations in
// the same order), in double and in mp50.
template <class S>
void expect_same_accelerations(const std::string& written_out, const std::string& with_lets) {
  const auto dir = std::filesystem::temp_directory_path() / ("nhs_let_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "coin.toml") << written_out;
  std::ofstream(dir / "coin-let.toml") << with_lets;
  const auto a = accelerations_of<S>(load_system_file((dir / "coin.toml").string()));
  const auto b = accelerations_of<S>(load_system_file((dir / "coin-let.toml").string()));
  std::filesystem::remove_all(dir);
  ASSERT_EQ(a.size(), b.size());
  ASSERT_GE(a.size(), 5u);
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].first, b[k].first);
    for (Eigen::Index i = 0; i < a[k].second.size(); ++i)
      EXPECT_TRUE(a[k].second[i] == b[k].second[i]) << a[k].first << " qddot[" << i << "]";
  }
}

TEST(SystemFileLet, NamedSubExpressionsGiveTheWrittenOutAccelerationsBitForBit) {
  std::ifstream in(std::string(NHS_SOURCE_DIR) + "/examples/rolling-coin.toml");
  const std::string coin((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string lets = edit(coin, "[dynamics]",
                          "[let]\nroll = \"phi_dot + psi_dot*sin(theta)\"\nct = \"cos(theta)\"\n"
                          "st = \"sin(theta)\"\n\n[dynamics]");
  lets = edit(lets, "(A - B)/2*(phi_dot + psi_dot*sin(theta))^2", "(A - B)/2*roll^2");
  lets = edit(lets, "potential = \"m*g*R*cos(theta)\"", "potential = \"m*g*R*ct\"");
  lets = edit(lets, "x_dot - R*(phi_dot + psi_dot*sin(theta))*cos(psi) - R*theta_dot*cos(theta)*sin(psi)",
              "x_dot - R*roll*cos(psi) - R*theta_dot*ct*sin(psi)");
  lets = edit(lets, "y_dot - R*(phi_dot + psi_dot*sin(theta))*sin(psi) + R*theta_dot*cos(theta)*cos(psi)",
              "y_dot - R*roll*sin(psi) + R*theta_dot*ct*cos(psi)");
  lets = edit(lets, "position = [\"x\", \"y\", \"R*cos(theta)\"]", "position = [\"x\", \"y\", \"R*ct\"]");
  ASSERT_NE(lets, coin);
  expect_same_accelerations<double>(coin, lets);
  expect_same_accelerations<mp50>(coin, lets);
}


// [[frames]]: the rolling coin with its disc given in its own frame,
// rotations [Rz(psi), Rx(theta), Ry(phi)] (heading, tilt about the rolling
// direction, spin about the axis) and inertia diag(B, A, B), T derived by
// the loader from the frame, has the hand-derived file's accelerations (its
// omega and R J R^T written out in space) in every formulation: 1e-14 in
// double, 1e-45 in mp50 (relative). The frame's omega is the sum of the
// rates along their turned axes (nhs/rigid_frames.hpp), the file's was
// derived by hand: two derivations, one motion.
std::string coin_in_frames(const std::string& coin) {
  const auto T = coin.find("kinetic_energy = ");
  const auto bodies = coin.find("\n[[bodies]]") + 1, steady = coin.find("# Upright rolling");
  EXPECT_TRUE(T != std::string::npos && bodies != 0 && T < bodies && bodies < steady && steady != std::string::npos);
  std::string out = coin.substr(0, T) + coin.substr(coin.find('\n', T) + 1, bodies - coin.find('\n', T) - 1);
  out += "[[frames]]\nname = \"disc\"\nrotations = [\"Rz(psi)\", \"Rx(theta)\", \"Ry(phi)\"]\n"
         "origin = [\"x\", \"y\", \"R*cos(theta)\"]\n\n"
         "[[bodies]]\nframe = \"disc\"\nmass = \"m\"\n"
         "inertia = [[\"B\", \"0\", \"0\"], [\"0\", \"A\", \"0\"], [\"0\", \"0\", \"B\"]]\n\n";
  return out + coin.substr(steady);
}

template <class S>
void expect_close_accelerations(const std::string& a_text, const std::string& b_text, const S& bound) {
  const auto dir = std::filesystem::temp_directory_path() / ("nhs_frames_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "coin.toml") << a_text;
  std::ofstream(dir / "coin-frames.toml") << b_text;
  const auto b_file = load_system_file((dir / "coin-frames.toml").string());
  EXPECT_TRUE(b_file->kinetic_energy_from_bodies);
  const auto a = accelerations_of<S>(load_system_file((dir / "coin.toml").string()));
  const auto b = accelerations_of<S>(b_file);
  std::filesystem::remove_all(dir);
  ASSERT_EQ(a.size(), b.size());
  ASSERT_GE(a.size(), 5u);
  for (std::size_t k = 0; k < a.size(); ++k)
    EXPECT_LE(relative_difference<S>(a[k].second, b[k].second), bound) << a[k].first;
}

// Two files that are different bodies: the first formulation's qddot at
// their initial states differ by more than 1e-3 (relative), so that a
// comparison of either with a reference can fail.
void expect_other_accelerations(const std::string& a_text, const std::string& b_text) {
  const auto dir = std::filesystem::temp_directory_path() / ("nhs_other_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "a.toml") << a_text;
  std::ofstream(dir / "b.toml") << b_text;
  const auto a = accelerations_of<double>(load_system_file((dir / "a.toml").string()));
  const auto b = accelerations_of<double>(load_system_file((dir / "b.toml").string()));
  std::filesystem::remove_all(dir);
  ASSERT_FALSE(a.empty());
  ASSERT_EQ(a.size(), b.size());
  EXPECT_GT(relative_difference<double>(a[0].second, b[0].second), 1e-3);
}

TEST(SystemFileFrames, TheCoinInItsFrameHasTheHandDerivedAccelerations) {
  std::ifstream in(std::string(NHS_SOURCE_DIR) + "/examples/rolling-coin.toml");
  const std::string coin((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string framed = coin_in_frames(coin);
  expect_close_accelerations<double>(coin, framed, 1e-14);
  expect_close_accelerations<mp50>(coin, framed, mp50("1e-45"));
  // Another order is another body: the tilt about the axis instead of the
  // rolling direction changes the motion (the test can fail).
  const std::string swapped = edit(framed, "\"Rx(theta)\", \"Ry(phi)\"", "\"Ry(theta)\", \"Rx(phi)\"");
  const auto dir = std::filesystem::temp_directory_path() / ("nhs_frames_swap_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "a.toml") << framed;
  std::ofstream(dir / "b.toml") << swapped;
  const auto a = accelerations_of<double>(load_system_file((dir / "a.toml").string()));
  const auto b = accelerations_of<double>(load_system_file((dir / "b.toml").string()));
  std::filesystem::remove_all(dir);
  EXPECT_GT(relative_difference<double>(a[0].second, b[0].second), 1e-3);
}

// [[rolling]]: the uniform disc written as a frame, its inertia, a rolling
// knife-edge and gravity (examples/bodies/rolling-disc.toml; nhs derives
// omega, T, V, the centre's height R cos(theta) and the no-slip
// constraints) has the accelerations of the hand-derived coin
// (examples/rolling-coin.toml at its defaults, which are the uniform disc's)
// in every formulation: 1e-14 in double, 1e-45 in mp50 (relative). Its
// derived singular sets are the disc lying flat, |cos(theta)| = 0, and the
// gimbal lock of its Euler-angle chart Rz(psi) Rx(theta) Ry(phi), the same
// |cos(theta)| = 0 derived another way (|det d omega / d(rates)|).
TEST(SystemFileRolling, TheDiscAsABodyHasTheHandDerivedAccelerations) {
  const auto text = [](const std::string& path) {
    std::ifstream in(std::string(NHS_SOURCE_DIR) + path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  const std::string coin = text("/examples/rolling-coin.toml"), disc = text("/examples/bodies/rolling-disc.toml");
  expect_close_accelerations<double>(coin, disc, 1e-14);
  expect_close_accelerations<mp50>(coin, disc, mp50("1e-45"));
  const auto file = load_system_file(std::string(NHS_SOURCE_DIR) + "/examples/bodies/rolling-disc.toml");
  EXPECT_EQ(file->info.constraint_names, (std::vector<std::string>{"contact_x", "contact_y"}));
  ASSERT_EQ(file->singular_sets.size(), 3u);
  EXPECT_EQ(file->singular_sets[0].name, "margin_contact");
  EXPECT_EQ(file->singular_sets[1].name, "margin_chart_disc");
  EXPECT_EQ(file->singular_sets[2].name, "margin_split");
  ASSERT_TRUE(file->singular);
  const expression::Constants<double> c = expression::constants_of<double>(*file->singular);
  std::vector<double> params = {1, 1, 9.81};
  for (const double theta : {0.0, 0.4, 1.2, -1.5}) {
    Vec<double> q(5), qdot = Vec<double>::Zero(5);
    q << 0.3, -0.2, theta, 0.7, 1.1;
    std::array<double, 3> margin{};
    expression::evaluate(*file->singular, c, Params<double>(params), {&q, &qdot}, margin.data());
    EXPECT_NEAR(std::abs(margin[0]), std::abs(std::cos(theta)), 1e-15) << theta;
    EXPECT_NEAR(margin[1], std::abs(std::cos(theta)), 1e-15) << theta;
  }
}

// A turning plane (plane_rate): the ball on a turntable written as a body
// (examples/bodies/turntable-ball.toml: affine no-slip constraints and psi
// derived) has the accelerations of the hand-derived file
// (examples/turntable-ball.toml) in every formulation, 1e-14 in double and
// 1e-45 in mp50, and its constraints are affine, not homogeneous.
TEST(SystemFileRolling, TheBallOnATurntableAsABodyHasTheHandDerivedAccelerations) {
  const auto text = [](const std::string& path) {
    std::ifstream in(std::string(NHS_SOURCE_DIR) + path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  const std::string hand = text("/examples/turntable-ball.toml"), body = text("/examples/bodies/turntable-ball.toml");
  expect_close_accelerations<double>(hand, body, 1e-14);
  expect_close_accelerations<mp50>(hand, body, mp50("1e-45"));
  const auto file = load_system_file(std::string(NHS_SOURCE_DIR) + "/examples/bodies/turntable-ball.toml");
  EXPECT_TRUE(file->info.affine_constraints);
  EXPECT_EQ(file->constraint_homogeneous, (std::vector<bool>{false, false}));
}

// The built-in rolling-sphere (002) as a body: the ball of
// examples/bodies/turntable-ball.toml on a table at rest (Omega = 0), in the
// study's coordinates (phi, theta, psi, x, y) and quasi-velocities, has the
// accelerations of studies/files/rolling_sphere.toml, the study written by
// hand (SystemFiles.* hold that file to the built-in study), in every
// formulation: 1e-14 in double, 1e-45 in mp50. On the turning table (Omega
// = 1) the two differ: the test can fail.
TEST(SystemFileRolling, TheRollingSphereAsABodyHasTheStudysAccelerations) {
  const auto text = [](const std::string& path) {
    std::ifstream in(std::string(NHS_SOURCE_DIR) + path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  const std::string hand = text("/studies/files/rolling_sphere.toml");
  const std::string turning = text("/examples/bodies/turntable-ball.toml");
  const std::string body = edit(turning, "Omega = { default = \"1\"", "Omega = { default = \"0\"");
  expect_close_accelerations<double>(hand, body, 1e-14);
  expect_close_accelerations<mp50>(hand, body, mp50("1e-45"));
  expect_other_accelerations(hand, turning);
}

// no_spin (a rubber ball): the ball of examples/bodies/turntable-ball.toml
// on a fixed plane with no_spin = true has the accelerations of the same
// ball written by hand with the third constraint omega_z = phi_dot +
// psi_dot cos(theta) = 0 (T and C as in examples/turntable-ball.toml at
// Omega = 0), both with psi derived from x, y, phi: every formulation, 1e-14
// double, 1e-45 mp50. Without no_spin the two differ (the test can fail).
TEST(SystemFileRolling, TheRubberBallsNoSpinIsTheHandWrittenConstraint) {
  const auto text = [](const std::string& path) {
    std::ifstream in(std::string(NHS_SOURCE_DIR) + path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  const auto common = [&](std::string t) {
    t = edit(t, "quasi_velocities = [\"phid\", \"thetad\", \"psid\"]", "quasi_velocities = [\"thetad\", \"psid\"]");
    t = edit(t, "dependent_velocities = [\"x\", \"y\"]", "dependent_velocities = [\"x\", \"y\", \"phi\"]");
    t = edit(t, "Omega = { default = \"1\"", "Omega = { default = \"0\"");
    return edit(t, "z = [\"1\", \"0.5\", \"0.25\"]", "z = [\"0.5\", \"0.25\"]");
  };
  std::string hand = common(text("/examples/turntable-ball.toml"));
  const auto psi = hand.find("[parametrization]"), initial = hand.find("[initial]");
  ASSERT_TRUE(psi != std::string::npos && initial != std::string::npos && psi < initial);
  hand.erase(psi, initial - psi);  // psi derived, as the body's
  hand = edit(hand, "C2 = ", "C3 = \"phi_dot + psi_dot*cos(theta)\"\nC2 = ");
  const auto inv = hand.find("[invariants]");
  if (inv != std::string::npos) hand.erase(inv);
  std::string body = common(text("/examples/bodies/turntable-ball.toml"));
  body = edit(body, "plane_rate = \"Omega\"", "no_spin = true");
  body.erase(body.find("[invariants]"), body.find("[initial]") - body.find("[invariants]"));
  expect_close_accelerations<double>(hand, body, 1e-14);
  expect_close_accelerations<mp50>(hand, body, mp50("1e-45"));
}

// The rubber Chaplygin ball (examples/bodies/rubber-ball.toml: unequal
// moments, the centre of mass at the centre, no_spin = true, x, y and psi
// dependent, psi derived) has the accelerations of the same ball written by hand:
// T = m/2 (x_dot^2 + y_dot^2) + (A w1^2 + B w2^2 + C w3^2)/2 with the
// file's body-frame omega (its [let]), and the constraints v = omega x
// (rho e_z) and omega_z = psi_dot + theta_dot sin(phi) = 0 written out in
// space components, and the same ball as a space-frame [[bodies]] entry
// (omega and R diag(A, B, C) R^T written out, for Gibbs-Appell); at the
// file's state and at a generic one (every angle and rate nonzero), in
// every formulation, 1e-14 double, 1e-45 mp50. The hand ball with A and B
// swapped differs from the file's (the test can fail).
TEST(SystemFileRolling, TheRubberChaplyginBallIsTheHandWrittenBall) {
  const auto text = [](const std::string& path) {
    std::ifstream in(std::string(NHS_SOURCE_DIR) + path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  const std::string body = text("/examples/bodies/rubber-ball.toml");
  std::string hand = body;
  const auto frames = hand.find("[[frames]]"), lets = hand.find("[let]");
  ASSERT_TRUE(frames != std::string::npos && lets != std::string::npos && frames < lets);
  hand.erase(frames, lets - frames);
  hand = edit(hand, "gravity = [\"0\", \"0\", \"-g\"]\n", "");
  hand = edit(hand, "[invariants]",
              "[dynamics]\nkinetic_energy = \"m/2*(x_dot^2 + y_dot^2) + (A*w1^2 + B*w2^2 + C*w3^2)/2\"\n\n"
              "[constraints]\n"
              "C1 = \"x_dot - rho*(phi_dot*sin(psi) + theta_dot*cos(psi)*cos(phi))\"\n"
              "C2 = \"y_dot + rho*(phi_dot*cos(psi) - theta_dot*sin(psi)*cos(phi))\"\n"
              "C3 = \"psi_dot + theta_dot*sin(phi)\"\n\n"
              // The same ball as a space-frame body (for Gibbs-Appell): the centre, omega in space
              // components and R diag(A, B, C) R^T, with R = Rz(psi) Rx(phi) Ry(theta) written out.
              "[[bodies]]\nmass = \"m\"\nposition = [\"x\", \"y\", \"rho\"]\n"
              "angular_velocity = [\"phi_dot*cos(psi) - theta_dot*sin(psi)*cos(phi)\", "
              "\"phi_dot*sin(psi) + theta_dot*cos(psi)*cos(phi)\", \"psi_dot + theta_dot*sin(phi)\"]\n"
              "inertia = [[\"J11\", \"J12\", \"J13\"], [\"J12\", \"J22\", \"J23\"], [\"J13\", \"J23\", \"J33\"]]\n\n"
              "[invariants]");
  std::string rotation =
      "[let]\n"
      "r11 = \"cos(psi)*cos(theta) - sin(psi)*sin(phi)*sin(theta)\"\nr12 = \"-sin(psi)*cos(phi)\"\n"
      "r13 = \"cos(psi)*sin(theta) + sin(psi)*sin(phi)*cos(theta)\"\n"
      "r21 = \"sin(psi)*cos(theta) + cos(psi)*sin(phi)*sin(theta)\"\nr22 = \"cos(psi)*cos(phi)\"\n"
      "r23 = \"sin(psi)*sin(theta) - cos(psi)*sin(phi)*cos(theta)\"\n"
      "r31 = \"-cos(phi)*sin(theta)\"\nr32 = \"sin(phi)\"\nr33 = \"cos(phi)*cos(theta)\"\n";
  for (const char* ij : {"11", "12", "13", "22", "23", "33"}) {
    const std::string i(1, ij[0]), j(1, ij[1]);
    rotation += "J" + std::string(ij) + " = \"A*r" + i + "1*r" + j + "1 + B*r" + i + "2*r" + j + "2 + C*r" + i +
                "3*r" + j + "3\"\n";
  }
  hand = edit(hand, "[let]\n", rotation);
  const auto generic = [](const std::string& t) {
    return edit(t,
                "q = [\"0\", \"0\", \"0\", \"0\", \"0\"]\n"
                "qdot = [\"rho*0.7\", \"-rho*0.4\", \"0\", \"0.4\", \"0.7\"]",
                "q = [\"0.1\", \"-0.2\", \"0.3\", \"0.4\", \"0.5\"]\n"
                "qdot = [\"rho*(0.4*sin(0.3) + 0.7*cos(0.3)*cos(0.4))\", "
                "\"-rho*(0.4*cos(0.3) - 0.7*sin(0.3)*cos(0.4))\", \"-0.7*sin(0.4)\", \"0.4\", \"0.7\"]");
  };
  expect_close_accelerations<double>(hand, body, 1e-14);
  expect_close_accelerations<mp50>(hand, body, mp50("1e-45"));
  expect_close_accelerations<double>(generic(hand), generic(body), 1e-14);
  expect_close_accelerations<mp50>(generic(hand), generic(body), mp50("1e-45"));
  expect_other_accelerations(generic(body), edit(edit(generic(hand), "A = { default = \"0.3\"", "A = { default = \"0.4\""),
                                                  "B = { default = \"0.4\"", "B = { default = \"0.3\""));
}

// surface = "support" (docs/bodies.md, "Support functions"): the contact
// point grad h(u) comes from the graph's own derivatives of the support
// function as written, against the closed forms of the ellipsoid (grad h =
// A u / h) and of the sphere (centre - rho up): the rounded rattleback with
// r = 0 is the ellipsoid rattleback, and the Chaplygin sphere written with
// h = rho |u| is the sphere file, in every formulation, at the files' own
// states and at a tilted one, in double and mp50.
namespace {

std::string example_text(const std::string& relative) {
  std::ifstream in(std::string(NHS_SOURCE_DIR) + relative);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

// Random parameters (randomized_parameters: each default times U(0.5, 1.5))
// are drawn again until the file's bodies are rigid bodies: the rattleback's
// moments A = 0.0002, B = 0.0016, C = 0.0017 are close to breaking the
// triangle inequality C <= A + B, and plain draws often break it, which every
// build at those parameters refuses (exit 2 in the tool).
TEST(RandomParameters, AFileStudyDrawsOnlyRigidBodies) {
  const auto file = load_system_file(std::string(NHS_SOURCE_DIR) + "/examples/bodies/rattleback.toml");
  const Study<double> st = file_study<double>(file);
  ASSERT_TRUE(st.parameter_violation);
  std::mt19937_64 rng(20261207);
  for (int k = 0; k < 60; ++k) {
    const std::vector<double> p = randomized_parameters(st, rng);
    EXPECT_EQ(st.parameter_violation(p), "");
    EXPECT_NO_THROW((void)st.build(p));
  }
  // Without the check the same draws give bodies that no build takes.
  Study<double> bare = st;
  bare.parameter_violation = nullptr;
  std::mt19937_64 rng2(20261207);
  int refused = 0;
  for (int k = 0; k < 60; ++k) {
    const std::vector<double> p = randomized_parameters(bare, rng2);
    if (!st.parameter_violation(p).empty()) {
      ++refused;
      try {
        (void)st.build(p);
        ADD_FAILURE() << "built at parameters that break the triangle inequality";
      } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("bodies[1] inertia breaks the triangle inequality"), std::string::npos)
            << e.what();
      }
    }
  }
  EXPECT_GT(refused, 5);
  // A study that refuses every draw says so, by name, with the last reason.
  bare.parameter_violation = [](const std::vector<double>&) { return std::string("never a body"); };
  try {
    (void)randomized_parameters(bare, rng);
    ADD_FAILURE() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("'rattleback': no admissible random parameters in 256 draws"),
              std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("never a body"), std::string::npos) << e.what();
  }
}

TEST(SystemFileSupport, TheRoundedRattlebackWithoutRoundingIsTheEllipsoidRattleback) {
  std::string rounded = example_text("/examples/bodies/rounded-rattleback.toml");
  std::string ellipsoid = example_text("/examples/bodies/rattleback.toml");
  rounded = edit(edit(rounded, "r = { default = \"0.005\"", "r = { default = \"0\""), "h = { default = \"0.015\"",
                 "h = { default = \"0.01\"");
  expect_close_accelerations<double>(ellipsoid, rounded, 1e-14);
  expect_close_accelerations<mp50>(ellipsoid, rounded, mp50("1e-45"));
  const auto tilted = [](const std::string& text, const std::string& qdot) {
    return edit(text, "q = [\"0\", \"0\", \"0\", \"0\", \"0\"]\n" + qdot,
                "q = [\"0.1\", \"-0.2\", \"0.3\", \"0.2\", \"-0.15\"]\nz = [\"5\", \"0.3\", \"-0.2\"]");
  };
  rounded = tilted(rounded, "qdot = [\"(c + r - h)*0.05\", \"-(c + r - h)*0.05\", \"5\", \"0.05\", \"0.05\"]");
  ellipsoid = tilted(ellipsoid, "qdot = [\"(c - h)*0.05\", \"-(c - h)*0.05\", \"5\", \"0.05\", \"0.05\"]");
  expect_close_accelerations<double>(ellipsoid, rounded, 1e-14);
  expect_close_accelerations<mp50>(ellipsoid, rounded, mp50("1e-45"));
  // The rounding is another body: r = 0.005 with h = 0.015 keeps the centre of
  // mass's height at rest but not the motion (the test can fail).
  expect_other_accelerations(ellipsoid, edit(edit(rounded, "r = { default = \"0\"", "r = { default = \"0.005\""),
                                             "h = { default = \"0.01\"", "h = { default = \"0.015\""));
}

TEST(SystemFileSupport, TheChaplyginSphereAsASupportFunctionIsTheSphere) {
  const std::string sphere = example_text("/examples/bodies/chaplygin-sphere.toml");
  const std::string support =
      edit(sphere, "surface = \"sphere\"\nradius = \"rho\"",
           "surface = \"support\"\nsupport = \"rho*sqrt(ux^2 + uy^2 + uz^2)\"");
  expect_close_accelerations<double>(sphere, support, 1e-14);
  expect_close_accelerations<mp50>(sphere, support, mp50("1e-45"));
  const auto tilted = [](const std::string& text) {
    return edit(text, "q = [\"0\", \"0\", \"0\", \"0\", \"0\"]\nqdot = [\"rho*0.7\", \"-rho*0.4\", \"1.3\", \"0.4\", \"0.7\"]",
                "q = [\"0.1\", \"-0.2\", \"0.3\", \"0.4\", \"0.5\"]\nz = [\"1.3\", \"0.4\", \"0.7\"]");
  };
  expect_close_accelerations<double>(tilted(sphere), tilted(support), 1e-14);
  expect_close_accelerations<mp50>(tilted(sphere), tilted(support), mp50("1e-45"));
}

// A derived psi's singular set (docs/system-files.md, "A derived
// parametrization"): the knife edge on the incline written without its
// [parametrization] (Voronec's split y_dot = tan(theta) x_dot derived from
// dependent_velocities = ["y"]) has margin_split = |det A_dep| of the unit
// row of dC/dqdot, (sin theta, -cos theta, 0): |cos theta|, 0 where the
// split fails.
TEST(SystemFileDerivedPsi, TheSplitsMarginIsTheKnifeEdgesCosTheta) {
  std::string text = example_text("/examples/knife-edge-incline.toml");
  const auto from = text.find("[parametrization]"), to = text.find("[initial]"), exact = text.find("[[exact]]");
  ASSERT_TRUE(from != std::string::npos && to != std::string::npos && exact != std::string::npos && from < to);
  text = text.substr(0, exact);
  text.erase(from, to - from);
  const auto dir = std::filesystem::temp_directory_path() / ("nhs_split_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "knife.toml") << text;
  const auto file = load_system_file((dir / "knife.toml").string());
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(file->singular);
  const auto at = std::find_if(file->singular_sets.begin(), file->singular_sets.end(),
                               [](const auto& s) { return s.name == "margin_split"; });
  ASSERT_NE(at, file->singular_sets.end());
  const std::size_t k = static_cast<std::size_t>(at - file->singular_sets.begin());
  const expression::Constants<double> c = expression::constants_of<double>(*file->singular);
  const std::vector<double> params = {1, 0.5, 1};
  for (const double theta : {0.0, 0.4, 1.2, -1.5, 2.5, 1.5707963267948966}) {
    Vec<double> q(3), qdot(3);
    q << 0.3, -0.2, theta;
    qdot << 0.7, -0.1, 0.2;
    std::vector<double> margins(file->singular_sets.size());
    expression::evaluate(*file->singular, c, Params<double>(params), {&q, &qdot}, margins.data());
    EXPECT_NEAR(margins[k], std::abs(std::cos(theta)), 1e-15) << theta;
  }
}

// The bundled Whipple bicycle, written as bodies (examples/bicycle/
// whipple-bicycle.toml: five frames, four inertias, two rolling knife-edges,
// psi derived) against the file generated by sympy (whipple-bicycle-
// generated.toml, its T, V, constraints and psi written out), in the same
// coordinates and signs:
// at 20 random states (q projected onto the front contact by the generated
// file's Newton step, qdot = its psi(q, z)), qddot in every formulation that
// both admit, 1e-11 relative in double, 1e-44 in mp50.
template <class S>
void expect_bicycles_agree(const S& bound) {
  const std::string dir = std::string(NHS_SOURCE_DIR) + "/examples/bicycle/";
  const Study<S> generated = file_study<S>(load_system_file(dir + "whipple-bicycle-generated.toml"));
  const Study<S> bodies = file_study<S>(load_system_file(dir + "whipple-bicycle.toml"));
  const System<S> a = generated.build(generated.default_parameters());
  const System<S> b = bodies.build(bodies.default_parameters());
  std::mt19937_64 rng(59);
  std::uniform_real_distribution<double> u(-1, 1);
  int compared = 0;
  for (int k = 0; k < 20; ++k) {
    Vec<S> q(8), z(3), qdot(8);
    for (int i = 0; i < 8; ++i) q[i] = S(u(rng) * (i == 4 ? 0.05 : i == 3 || i == 5 ? 0.6 : 2));
    for (int i = 0; i < 3; ++i) z[i] = S(u(rng) * (i == 2 ? 15 : 1));
    a.project_coordinates(q);
    a.parametrization(q, z, qdot);
    for (const auto& f : formulations<S>()) {
      if (!f->not_applicable_reason(a).empty() || !f->not_applicable_reason(b).empty() || f->is_negative_control())
        continue;
      const Vec<S> qa = f->acceleration(a, q, qdot).qddot, qb = f->acceleration(b, q, qdot).qddot;
      EXPECT_LE(relative_difference<S>(qa, qb), bound) << f->name() << " at state " << k;
      ++compared;
    }
  }
  EXPECT_GE(compared, 20 * 7);
}

TEST(SystemFileRolling, TheBicycleAsBodiesHasTheGeneratedFilesAccelerations) {
  expect_bicycles_agree<double>(1e-11);
  expect_bicycles_agree<mp50>(mp50("1e-44"));
}

TEST(SystemFileLinearity, TheAbsoluteValueOfAVelocityIsNotLinear) {
  const auto dir = std::filesystem::temp_directory_path() / ("nhs_linearity_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "particle.toml").string();
  for (const std::string C : {"y_dot - sqrt(z_dot^2)", "y_dot - abs(z_dot)", "y_dot - (z_dot^4)^(1/4)"}) {
    std::ofstream(path) << particle_with(C, "\"0.3\", \"0.7\", \"-0.7\"");
    std::shared_ptr<const SystemFile> file;
    ASSERT_NO_THROW(file = load_system_file(path)) << C;
    EXPECT_FALSE(file->constraint_linear[0]) << C;
    EXPECT_FALSE(file->info.linear_constraints) << C;
    const auto d = accelerations_of<double>(file);
    const auto mp = accelerations_of<mp50>(file);
    ASSERT_GE(d.size(), 3u) << C;  // second-kind, udwadia-kalaba, lagrange-multipliers
    ASSERT_EQ(d.size(), mp.size());
    for (std::size_t k = 0; k < d.size(); ++k) {
      EXPECT_LE((d[k].second - d[0].second).cwiseAbs().maxCoeff(), 1e-14) << C << ": " << d[k].first;
      EXPECT_LE(static_cast<double>((mp[k].second - mp[0].second).cwiseAbs().maxCoeff()), 1e-45)
          << C << ": " << mp[k].first;
      EXPECT_LE(std::abs(static_cast<double>(mp[k].second[0]) - d[k].second[0]), 1e-14) << C;
    }
  }
  std::ofstream(path) << particle_with("x_dot*(1 + y_dot) - x_dot*y_dot + z_dot", "\"1\", \"0\", \"-1\"");
  EXPECT_TRUE(load_system_file(path)->constraint_linear[0]);
  std::filesystem::remove_all(dir);
}

// The reaction of C (lambda dC/dqdot) has the power lambda sum_i qdot^i
// dC/dqdot^i, which vanishes on C when C is homogeneous in qdot (Euler:
// = k C) and not in general otherwise: the file's study declares energy
// conserved exactly when every constraint is (and no force acts). The
// constant speed x_dot^2 + y_dot^2 = 1 in a field keeps T while V changes.
TEST(SystemFileEnergy, ConservedOnlyWhereEveryConstraintIsHomogeneous) {
  const auto dir = std::filesystem::temp_directory_path() / ("nhs_homogeneous_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::vector<std::tuple<std::string, std::string, bool>> cases = {
      {"x_dot^2 + y_dot^2 - 1", "\"0.6\", \"0.8\", \"0\"", false},        // constant speed
      {"x_dot^2 + y_dot - 1", "\"0\", \"1\", \"0\"", false},                // degrees 2, 1 and 0
      {"exp(x_dot) - 1 - z_dot", "\"0\", \"1\", \"0\"", false},
      {"x_dot*y_dot - z_dot^2", "\"1\", \"1\", \"1\"", true},               // degree 2
      {"z_dot + sqrt(x_dot^2 + y_dot^2)", "\"0.6\", \"0.8\", \"-1\"", true},  // Appell-Hamel, degree 1
      {"abs(x_dot)*x_dot - y_dot^2*cos(x)", "\"1\", \"1\", \"0\"", true},
      {"z_dot - x_dot*atan2(y_dot, x_dot)", "\"1\", \"0\", \"0\"", true},   // degree 1 times degree 0
      {"x_dot^3/y_dot - z_dot^2", "\"1\", \"1\", \"1\"", true},
      // Degree 2 only once expanded: the structure shows none, the ratio does.
      {"(x_dot + 1)^2 - x_dot^2 - 2*x_dot - 1 + y_dot*z_dot", "\"0.3\", \"0\", \"1\"", true},
  };
  for (const auto& [C, qdot, homogeneous] : cases) {
    const std::string path = (dir / "particle.toml").string();
    std::ofstream(path) << particle_with(C, qdot);
    const auto file = load_system_file(path);
    ASSERT_EQ(file->constraint_homogeneous.size(), 1u);
    EXPECT_EQ(file->constraint_homogeneous[0], homogeneous) << C;
    const std::string why = energy_not_conserved_reason(*file);
    EXPECT_EQ(why.empty(), homogeneous) << C << ": " << why;
    if (!homogeneous)
      EXPECT_EQ(why, "constraint C is not homogeneous in the velocities: its reaction does work") << C;
    const Study<double> st = file_study<double>(file);
    EXPECT_EQ(st.energy_is_conserved(st.build(st.default_parameters())), homogeneous) << C;
  }
  // The files of the repository: every constraint homogeneous (linear
  // without a velocity-free term, or the Appell-Hamel and parallel-points
  // non-linear ones) but the affine ones (a moving support, a clock
  // tau_dot - 1: docs/affine-constraints.md), which are linear and not
  // homogeneous; energy is conserved where no force acts ([dynamics]
  // forces, or a non-ideal constraint's [nonideal]: knife-edge-drag) and
  // every constraint is homogeneous.
  std::vector<std::filesystem::path> files;
  for (const char* sub : {"studies/files", "examples"})
    for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(NHS_SOURCE_DIR) / sub))
      if (e.path().extension() == ".toml") files.push_back(e.path());
  ASSERT_GE(files.size(), 10u);
  int affine_files = 0;
  for (const auto& p : files) {
    const auto file = load_system_file(p.string());
    bool all_homogeneous = true;
    for (std::size_t a = 0; a < file->constraint_homogeneous.size(); ++a) {
      const std::string what = p.string() + ": " + file->info.constraint_names[a];
      EXPECT_NE(file->constraint_homogeneous[a], file->constraint_affine[a]) << what;
      if (file->constraint_affine[a]) EXPECT_TRUE(file->constraint_linear[a]) << what;
      all_homogeneous = all_homogeneous && file->constraint_homogeneous[a];
    }
    affine_files += all_homogeneous ? 0 : 1;
    const Study<double> st = file_study<double>(file);
    EXPECT_EQ(st.energy_is_conserved(st.build(st.default_parameters())),
              all_homogeneous && !file->forces.has_value() && !file->nonideal.has_value())
        << p;
  }
  EXPECT_GE(affine_files, 2);  // examples/turntable-ball.toml, examples/pushed-skate.toml
  std::filesystem::remove_all(dir);
}

TEST(SystemFileErrors, EachNamesFileLineColumnAndReason) {
  const auto dir = std::filesystem::temp_directory_path() / ("nhs_bad_files_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    // The unedited file is valid: every failure below is the edit's.
    const std::string path = (dir / "good.toml").string();
    std::ofstream(path) << kGood;
    EXPECT_NO_THROW(load_system_file(path));
  }
  {
    // UTF-8 in comments and strings stays allowed.
    const std::string path = (dir / "utf8.toml").string();
    std::ofstream(path) << edit(kGood, "coordinates =", "# \xce\xb8: the heading\ncoordinates =");
    EXPECT_NO_THROW(load_system_file(path));
  }
  for (const BadFile& c : bad_files()) {
    const std::string path = (dir / (c.name + ".toml")).string();
    std::ofstream(path) << c.text;
    try {
      (void)load_system_file(path);
      ADD_FAILURE() << c.name << ": loaded without error";
    } catch (const FileError& e) {
      const std::string message = e.what();
      std::cout << "[ error    ] " << c.name << ": " << message << "\n";
      EXPECT_EQ(e.where, path + ":" + c.where) << c.name << ": " << message;
      EXPECT_NE(message.find(path + ":" + c.where + ": "), std::string::npos) << c.name << ": " << message;
      for (const std::string& r : c.reasons)
        EXPECT_NE(e.reason.find(r), std::string::npos) << c.name << ": expected '" << r << "' in: " << message;
    } catch (const std::exception& e) {
      ADD_FAILURE() << c.name << ": not a FileError: " << e.what();
    }
  }
  std::filesystem::remove_all(dir);
}

// --- charts with a domain ([parametrization] domain) ---------------------------------

/// A particle whose height follows its horizontal speed, z_dot = k
/// sqrt(x_dot^2 + y_dot^2) (homogeneous of degree 1, not linear), on its
/// natural chart v = sqrt(x_dot^2 + y_dot^2), phi = atan2(y_dot, x_dot):
/// psi = (v cos phi, v sin phi, k v) holds for v > 0 only. `domain` is the
/// line of [parametrization] after psi ("" for none), `v0` the initial v.
/// In the field V = z, the speed falls as the particle climbs:
/// (1 + k^2) v dv/dt = -k v, v = v0 - 0.4 t (k = 1/2), 0 at t = 2.5 v0.
std::string square_root_speed(const std::string& domain, const std::string& v0) {
  return "name = \"square-root-speed\"\n"
         "coordinates = [\"x\", \"y\", \"z\"]\n"
         "quasi_velocities = [\"v\", \"phi\"]\n"
         "[parameters]\n"
         "k = \"0.5\"\n"
         "[dynamics]\n"
         "kinetic_energy = \"(x_dot^2 + y_dot^2 + z_dot^2)/2\"\n"
         "potential = \"z\"\n"
         "[constraints]\n"
         "climb = \"z_dot - k*sqrt(x_dot^2 + y_dot^2)\"\n"
         "[parametrization]\n"
         "x_dot = \"v*cos(phi)\"\n"
         "y_dot = \"v*sin(phi)\"\n"
         "z_dot = \"k*v\"\n" +
         domain + (domain.empty() ? "" : "\n") +
         "[chart]\n"
         "v = \"sqrt(x_dot^2 + y_dot^2)\"\n"
         "phi = \"atan2(y_dot, x_dot)\"\n"
         "[initial]\n"
         "q = [\"0\", \"0\", \"0\"]\n"
         "z = [\"" + v0 + "\", \"0.3\"]\n";
}

// The loader checks psi and the chart at states near the initial one (it
// drew z in [-1, 1]^m, where psi is off C for v < 0, and refused this
// file: "the parametrization does not satisfy the constraints"), inside a
// declared domain; the system runs and stays on C.
TEST(SystemFileDomain, SquareRootConstraintOnItsChartLoadsAndRuns) {
  const auto dir = std::filesystem::temp_directory_path() / ("nhs_domain_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string plain = (dir / "plain.toml").string();
  std::ofstream(plain) << square_root_speed("", "2");
  EXPECT_NO_THROW((void)load_system_file(plain));
  const std::string path = (dir / "domain.toml").string();
  std::ofstream(path) << square_root_speed("domain = [\"v > 0\"]", "2");
  std::shared_ptr<const SystemFile> file;
  ASSERT_NO_THROW(file = load_system_file(path));
  ASSERT_EQ(file->domain_conditions.size(), 1u);
  EXPECT_EQ(file->domain_conditions[0].text, "v > 0");
  EXPECT_EQ(file->domain_conditions[0].name, "margin_domain_1");
  const Study<double> st = file_study<double>(file);
  const System<double> sys = st.build(st.default_parameters());
  const State<double> x0 = st.default_state(sys);
  std::vector<std::string> ran;
  for (const auto& fp : formulations<double>()) {
    const Formulation<double>& f = *fp;
    if (!f.not_applicable_reason(sys).empty() || f.is_negative_control()) continue;
    const std::string name = f.name();
    IntegrationOptions<double> opts;
    opts.t_end = 2;
    opts.dt_out = 0.5;
    double residual = 0, v_drift = 0, t_last = 0;
    integrate<double>(sys, f, x0.q, x0.qdot, opts, [&](const Sample<double>& s) {
      residual = std::max(residual, constraint_residuals(sys, s.q, s.qdot).cwiseAbs().maxCoeff());
      v_drift = std::max(v_drift, std::abs(std::hypot(s.qdot[0], s.qdot[1]) - (2 - 0.4 * s.t)));
      t_last = s.t;
    }, nullptr);
    EXPECT_EQ(t_last, 2.0) << name;
    EXPECT_LE(residual, 1e-10) << name;
    EXPECT_LE(v_drift, 1e-10) << name;
    ran.push_back(name);
    std::cout << "[ domain   ] " << name << ": max|C| " << residual << ", |v - (2 - 0.4 t)| " << v_drift << "\n";
  }
  // The second kind, and formulations that run on psi and its chart.
  for (const char* name : {"second-kind", "maggi"})
    EXPECT_NE(std::find(ran.begin(), ran.end(), name), ran.end()) << name << " did not run";
  std::filesystem::remove_all(dir);
}

// A state outside the domain is refused by name, never mapped to another
// z: psi at v < 0 (the chart would map its velocity to v > 0), and a
// velocity whose chart is on the boundary (v = 0), as a margin of 0.
TEST(SystemFileDomain, StatesOutsideTheDomainAreRefusedByName) {
  const auto dir = std::filesystem::temp_directory_path() / ("nhs_domain_out_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "domain.toml").string();
  std::ofstream(path) << square_root_speed("domain = [\"v > 0\", \"phi < 3\"]", "2");
  const auto file = load_system_file(path);
  const Study<mp50> st = file_study<mp50>(file);
  const System<mp50> sys = st.build(st.default_parameters());
  Vec<mp50> q(3), z(2), qd(3);
  q << 1, 2, 3;
  z << -2, mp50("0.3");
  try {
    sys.parametrization(q, z, qd);
    ADD_FAILURE() << "psi at v = -2 must be refused";
  } catch (const InvalidState& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("z is outside the domain of the parametrization: the condition v > 0 of the domain "
                        "of psi and its chart ("),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("does not hold: its sides are -2 and 0, at q = (1, 2, 3), z = (-2, 0.3"), std::string::npos)
        << what;
  }
  z << 2, 3;  // phi < 3 fails at its boundary
  EXPECT_THROW(sys.parametrization(q, z, qd), InvalidState);
  // The margins: [parametrization] domain after [singular] (none here), at
  // z = chart(q, qdot): v - 0 and 3 - phi.
  ASSERT_TRUE(static_cast<bool>(sys.singular_margins));
  qd << mp50("0.6"), mp50("0.8"), mp50("0.5");
  auto m = sys.singular_margins(q, qd);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].name, "margin_domain_1");
  EXPECT_EQ(m[0].value, mp50(1));
  EXPECT_EQ(m[0].condition,
            "outside the domain of the chart or on its boundary: v > 0 ([parametrization] domain, at z = chart(q, qdot))");
  EXPECT_EQ(m[1].name, "margin_domain_2");
  EXPECT_LT(abs(m[1].value - (3 - atan2(mp50("0.8"), mp50("0.6")))), mp50("1e-45"));
  // At rest, v = 0: on the boundary, a margin of 0; near it, refused as a
  // singular state naming the condition.
  qd.setZero();
  m = sys.singular_margins(q, qd);
  EXPECT_EQ(m[0].value, mp50(0));
  qd << mp50("1e-8"), 0, mp50("0.5e-8");
  try {
    require_margins(sys, q, qd, mp50("1e-6"));
    ADD_FAILURE() << "a state at v = 1e-8 must be refused";
  } catch (const SingularState& e) {
    EXPECT_NE(e.condition.find("v > 0"), std::string::npos) << e.what();
  }
  // phi = atan2(-1, -1e-3) < -pi/2 is in the domain (phi < 3), and a chart
  // value phi beyond 3 cannot occur (atan2 <= pi): the margin is positive.
  qd << mp50("-1e-3"), -1, mp50("0.5");
  EXPECT_GT(sys.singular_margins(q, qd)[1].value, mp50(0));
  // The random states of `nhs check` (z in [-1, 1]^m) outside the domain
  // are refused (skipped and counted there), never mapped.
  std::mt19937_64 rng(7);
  int refused = 0, drawn = 0;
  for (int k = 0; k < 40; ++k) {
    try {
      const State<mp50> x = st.random_state(sys, rng);
      ++drawn;
      EXPECT_LT(constraint_residuals(sys, x.q, x.qdot).cwiseAbs().maxCoeff(), mp50("1e-45"));
    } catch (const InvalidState&) {
      ++refused;
    }
  }
  EXPECT_GT(refused, 0);
  EXPECT_GT(drawn, 0);
  std::filesystem::remove_all(dir);
}

// --- [singular] -------------------------------------------------------------------

/// Appended to kGood: a [singular] table with the short form (signed, so that
/// the margin is its absolute value), a table with its meaning, and a
/// margin below the random states' floor everywhere.
const char* const kSingular = R"toml(
[singular]
sin_theta = { margin = "sin(theta)", meaning = "heading chart singular (sin theta = 0)" }
P0 = "x - 2"
slow = "x_dot*0 + 1/10"
)toml";


// [singular] gives System::singular_margins: names "margin_<key>" in the
// order of the file, the meanings (or a default naming the key and its
// expression) as conditions, |expression| as values; `nhs run`'s check
// (require_margins) names the set; a random state below the floor (1/5)
// is refused with the set's condition.
TEST(SystemFileSingular, MarginsAreNamedAbsoluteValues) {
  const auto dir = std::filesystem::temp_directory_path() / ("nhs_singular_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "singular.toml").string();
  // theta = 0.5 initially: off sin(theta) = 0.
  std::ofstream(path) << edit(kGood, "q = [\"0\", \"0\", \"0\"]", "q = [\"0\", \"0\", \"0.5\"]") << kSingular;
  const auto file = load_system_file(path);
  const Study<double> st = file_study<double>(file);
  const System<double> sys = st.build(st.default_parameters());
  ASSERT_TRUE(static_cast<bool>(sys.singular_margins));
  Vec<double> q(3), qd(3);
  q << 0.5, 0, -0.25;
  qd << 0.3, 0.7, 0.1;
  const auto m = sys.singular_margins(q, qd);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].name, "margin_sin_theta");
  EXPECT_EQ(m[0].condition, "heading chart singular (sin theta = 0)");
  EXPECT_EQ(m[0].value, std::abs(std::sin(-0.25)));
  EXPECT_EQ(m[1].name, "margin_P0");
  EXPECT_EQ(m[1].condition, "singular set P0 (x - 2 = 0)");
  EXPECT_EQ(m[1].value, 1.5);  // |0.5 - 2|
  EXPECT_EQ(m[2].name, "margin_slow");
  EXPECT_EQ(m[2].value, 0.1);
  // On the set: refused by name.
  q << 2, 0, 1;
  try {
    require_margins(sys, q, qd, 1e-6);
    ADD_FAILURE() << "a state on P0 must be singular";
  } catch (const SingularState& e) {
    EXPECT_EQ(e.condition, "singular set P0 (x - 2 = 0)");
    EXPECT_NE(std::string(e.what()).find("margin_P0 = 0"), std::string::npos) << e.what();
  }
  // Every random state is within 1/10 < 1/5 of "slow": refused, naming a
  // set below the floor (sin_theta may come first).
  std::mt19937_64 rng(1);
  for (int k = 0; k < 10; ++k) {
    try {
      (void)st.random_state(sys, rng);
      ADD_FAILURE() << "a random state near a singular set must be refused";
    } catch (const SingularState& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("random state near a singular set: "), std::string::npos) << what;
      EXPECT_NE(what.find(" < 0.2"), std::string::npos) << what;
    }
  }
  // Without [singular]: no margins of the file's own.
  const std::string plain = (dir / "plain.toml").string();
  std::ofstream(plain) << kGood;
  const Study<double> plain_study = file_study<double>(load_system_file(plain));
  EXPECT_FALSE(static_cast<bool>(plain_study.build(plain_study.default_parameters()).singular_margins));
  std::filesystem::remove_all(dir);
}


// load_system_text (issue 58): a file's text loaded from memory is the file:
// the accelerations of every formulation at the default state are those of
// load_system_file of its path, bit for bit, in double and mp50 (one loader,
// one text: the same programs). An error in a text names the name given,
// with line:column: the TOML pre-scan's, toml++'s and the loader's.
// cached_system_text keeps one key per (name, text): another text under the
// same name is another system.
std::string source_text(const std::string& relative) {
  std::ifstream in(std::string(NHS_SOURCE_DIR) + relative);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

template <class S>
void expect_text_is_file(const std::string& relative) {
  const std::string path = std::string(NHS_SOURCE_DIR) + relative;
  const auto a = accelerations_of<S>(load_system_file(path));
  const auto b = accelerations_of<S>(load_system_text(source_text(relative), "text.toml"));
  ASSERT_EQ(a.size(), b.size()) << relative;
  ASSERT_GE(a.size(), 5u) << relative;
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].first, b[k].first);
    ASSERT_EQ(a[k].second.size(), b[k].second.size());
    for (Eigen::Index i = 0; i < a[k].second.size(); ++i)
      EXPECT_TRUE(a[k].second[i] == b[k].second[i]) << relative << " " << a[k].first << " qddot[" << i << "]";
  }
}

TEST(SystemFileText, TextGivesTheFileAccelerationsBitForBit) {
  for (const char* file : {"/examples/knife-edge-incline.toml", "/examples/rolling-coin.toml"}) {
    expect_text_is_file<double>(file);
    expect_text_is_file<mp50>(file);
  }
  // the name given names a text without a `name` key, as a path does
  std::string text = source_text("/examples/knife-edge-incline.toml");
  const auto name_key = text.find("\nname = ");
  ASSERT_NE(name_key, std::string::npos);
  text.erase(name_key + 1, text.find('\n', name_key + 1) - name_key);
  EXPECT_EQ(load_system_text(text, "some/where/blade.toml")->info.name, "blade");
}

/// The FileError's where of load_system_text(text, name), or "" when it loads.
std::string text_error_at(const std::string& text, const std::string& name) {
  try {
    (void)load_system_text(text, name);
  } catch (const FileError& e) {
    return e.where;
  }
  return "";
}

TEST(SystemFileText, ErrorsNameTheGivenNameWithLineAndColumn) {
  const std::string knife = source_text("/examples/knife-edge-incline.toml");
  const std::string::size_type T = knife.find("kinetic_energy = \"");
  ASSERT_NE(T, std::string::npos);
  const int line = static_cast<int>(std::count(knife.begin(), knife.begin() + T, '\n')) + 1;
  const int column = static_cast<int>(T - knife.rfind('\n', T));  // 1-based, of 'k'
  // An unknown name in T: the loader's error, at the character in the string.
  std::string bad = knife;
  bad.insert(T + std::string("kinetic_energy = \"").size(), "nope + ");
  EXPECT_EQ(text_error_at(bad, "mine.toml"),
            "mine.toml:" + std::to_string(line) + ":" + std::to_string(column + 18)) << bad.substr(T, 40);
  // toml++'s syntax error and the pre-scan's non-ASCII guard, by the name too.
  EXPECT_EQ(text_error_at("name = \"x\"\ncoordinates = [\"x\"\n", "syntax").rfind("syntax:", 0), 0u);
  EXPECT_EQ(text_error_at("name = \"x\"\ncoordinates = [\"x\"] \xc2\xa7\n", "guarded"), "guarded:2:21");
  // Not cached by name: the good text loads under the same name after the bad one.
  EXPECT_EQ(text_error_at(knife, "mine.toml"), "");
}

TEST(SystemFileText, CachedTextsAreKeyedByNameAndText) {
  const std::string knife = source_text("/examples/knife-edge-incline.toml");
  std::string heavier = knife;
  const std::string mass = "m = { default = \"1\"";
  const auto m = heavier.find(mass);
  ASSERT_NE(m, std::string::npos) << "the knife edge's mass";
  heavier.replace(m, mass.size(), "m = { default = \"2\"");
  const std::string a = cached_system_text(knife, "knife.toml"), b = cached_system_text(heavier, "knife.toml");
  EXPECT_NE(a, b);
  EXPECT_EQ(cached_system_text(knife, "knife.toml"), a);
  EXPECT_NE(cached_system_text(knife, "other.toml"), a);
  EXPECT_TRUE(is_system_file_name(a));
  EXPECT_EQ(cached_system_file(a)->info.parameters[0].default_value, "1");
  EXPECT_EQ(find_study<double>(a).info.parameters[0].default_value, "1");
  EXPECT_EQ(find_study<double>(b).info.parameters[0].default_value, "2");
}

}  // namespace
}  // namespace nhs
