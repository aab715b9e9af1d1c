// The `nhs` tool, run as a process: every bad input gives its exit code and
// one `nhs: error:` line; `accel` prints JSON that round-trips the precision
// (checked against the library's own value); `run` writes its CSV header and
// rows, to stdout or --out, and keeps the rows of a failed run.
// ctest-labels: unit cli asan
#include "nhs/formulation.hpp"
#include "nhs/gauss.hpp"
#include "nhs/integrate.hpp"
#include "nhs/manifold.hpp"
#include "nhs/studies/all.hpp"
#include "cli_fixture.hpp"
#include "process.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>


#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace nhs {
namespace {

namespace fs = std::filesystem;

using Result = test::CliResult;

using test::slurp;

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, sep)) out.push_back(item);
  return out;
}

class Cli : public test::CliProcessTest {
 protected:
  // Expects exit `code` with exactly one stderr line "nhs: error: ..." containing `what`.
  void expect_error(const std::vector<std::string>& args, int code, const std::string& what) {
    std::string cmd;
    for (const auto& a : args) cmd += " " + a;
    const Result r = nhs(args);
    EXPECT_EQ(r.code, code) << "nhs" << cmd << "\nstderr: " << r.err;
    const auto err = lines(r.err);
    ASSERT_EQ(err.size(), 1u) << "nhs" << cmd << "\nstderr: " << r.err;
    EXPECT_EQ(err[0].rfind("nhs: error: ", 0), 0u) << err[0];
    EXPECT_NE(err[0].find(what), std::string::npos) << "nhs" << cmd << ": '" << what
                                                    << "' not in: " << err[0];
  }
};

bool have_study(const std::string& name) {
  for (const auto& st : studies<double>())
    if (st.info.name == name) return true;
  return false;
}

TEST_F(Cli, ListShowsStudiesFormulationsPrecisions) {
  const Result r = nhs({"list"});
  ASSERT_EQ(r.code, 0) << r.err;
  for (const auto& st : studies<double>()) EXPECT_NE(r.out.find(st.info.name), std::string::npos);
  for (const auto& f : formulations<double>()) EXPECT_NE(r.out.find(f->name()), std::string::npos);
  EXPECT_NE(r.out.find("double"), std::string::npos);
  EXPECT_NE(r.out.find("mp50"), std::string::npos);
}

TEST_F(Cli, UsageErrorsExitTwoWithOneLine) {
  expect_error({}, 2, "subcommand");
  expect_error({"frobnicate"}, 2, "frobnicate");
  expect_error({"accel"}, 2, "STUDY");
  expect_error({"accel", "skate", "--bogus"}, 2, "--bogus");
  expect_error({"accel", "no-such-study"}, 2, "unknown study 'no-such-study'");
  expect_error({"accel", "skate", "--formulation", "nope"}, 2, "unknown formulation 'nope'");
  expect_error({"accel", "skate", "--precision", "float7"}, 2, "unknown precision 'float7'");
  expect_error({"run", "skate", "--precision", "float7"}, 2, "unknown precision 'float7'");
  expect_error({"verify", "--precision", "float7"}, 2, "unknown precision 'float7'");
  expect_error({"accel", "skate", "--param", "zz=1"}, 2, "no parameter 'zz'");
  expect_error({"accel", "skate", "--param", "m"}, 2, "name=value");
  expect_error({"accel", "skate", "--param", "m=1.2.3"}, 2, "'1.2.3'");
  expect_error({"accel", "skate", "--q", "0.1,abc,0", "--qdot", "0,0,0"}, 2, "'abc'");
  expect_error({"accel", "skate", "--q", "0.1,,0", "--qdot", "0,0,0"}, 2, "--q");
  expect_error({"accel", "skate", "--q", "0,0,0", "--qdot", "1,0,1e999999"}, 2, "1e999999");
  expect_error({"accel", "skate", "--q", "0,0", "--qdot", "0,0"}, 2, "q has 2 values");
  expect_error({"accel", "skate", "--q", "0,0,0", "--qdot", "1,0,0,0"}, 2, "qdot has 4 values");
  expect_error({"accel", "skate", "--q", "0,0,0"}, 2, "--qdot");
  expect_error({"run", "skate", "--t-end", "ten"}, 2, "'ten'");
  expect_error({"run", "skate", "--dt-out", "-0.1"}, 2, "--dt-out");
  expect_error({"run", "skate", "--stepper", "euler"}, 2, "unknown stepper 'euler'");
  expect_error({"run", "skate", "--max-rhs-calls", "lots"}, 2, "'lots'");
  expect_error({"run", "skate", "--out", ""}, 2, "--out: empty");
  expect_error({"verify", "--out-dir", ""}, 2, "--out-dir: empty");
  expect_error({"findings", "--out-dir", ""}, 2, "--out-dir: empty");
  expect_error({"verify", "--jobs", "50000"}, 2, "--jobs 50000");
  expect_error({"verify", "--precision", "all,float7"}, 2, "unknown precision 'float7'");
  expect_error({"run", "skate", "--t-end", "1e300"}, 2, "1e+301 output rows, more than the budget");
  expect_error({"run", "skate", "--dt-out", "1e-315"}, 2, "more than 1e308 output rows");
  // Beyond the budget, the library's own limit (1e9 samples).
  expect_error({"run", "skate", "--t-end", "2e8", "--max-rows", "9999999999"}, 2, "output samples");
  expect_error({"run", "skate", "--rtol", "1e-200"}, 2, "below what verner87 reaches");
  expect_error({"run", "skate", "--precision", "mp50", "--stepper", "dopri5"}, 2,
               "rtol 1e-45 is below what dopri5 reaches in mp50: 1e-30");
  expect_error({"accel", "skate", "--q", std::string(40000, '7') + ",0,0", "--qdot", "0,0,0"}, 2,
               "(40000 characters)");
  // Options refused before anything is written: an existing --out file is
  // left as it was.
  const fs::path kept = dir_ / "kept.csv";
  std::ofstream(kept) << "earlier results\n";
  for (const char* bad : {"--rtol=1e-200", "--t-end=1e300"})
    expect_error({"run", "skate", bad, "--out", kept.string()}, 2, "");
  EXPECT_EQ(slurp(kept), "earlier results\n");
  expect_error({"verify", "--states", "0"}, 2, "--states");
  if (have_study("rolling-disc"))
    expect_error({"accel", "rolling-disc", "--param", "I=1"}, 2, "no parameter 'I'");
}

TEST_F(Cli, InvalidStatesExitThree) {
  // Skate: C = xd sin(theta) - yd cos(theta) = -1 at theta = 0, yd = 1.
  expect_error({"accel", "skate", "--q", "0,0,0", "--qdot", "0,1,0"}, 3,
               "off the constraint manifold");
  expect_error({"run", "skate", "--q", "0,0,0", "--qdot", "0,1,0"}, 3,
               "off the constraint manifold");
  // The default state where psi divides by a parameter set to 0 (the
  // massless trailer's thetad = (...) / L): singular, not malformed input.
  expect_error({"accel", "massless-trailer", "--param", "L=0"}, 3,
               "the default state is not finite at these parameters");
  // A tolerance wide enough admits it (qdot is then projected onto C).
  EXPECT_EQ(nhs({"accel", "skate", "--q", "0,0,0", "--qdot", "1,1e-6,0"}).code, 3);
  EXPECT_EQ(nhs({"accel", "skate", "--q", "0,0,0", "--qdot", "1,1e-6,0", "--manifold-tol", "1e-5"})
                .code,
            0);
  // Parallel points at rest: dC/dqdot = (y2d, -x2d, -y1d, x1d) = 0.
  if (have_study("parallel-points"))
    expect_error({"accel", "parallel-points", "--q", "0,0,1,1", "--qdot", "0,0,0,0"}, 3, "rank");
}

// The bipendulum's singular sets (docs/errata.md on 000 eq. 72) are reported
// by name by accel and run (exit 3), never turned into numbers.
TEST_F(Cli, BipendulumSingularStatesExitThree) {
  if (!have_study("bipendulum")) GTEST_SKIP();
  // 72b: y1d = y2d = 0 (on C; dC/dqdot != 0, but P0 is undefined).
  for (const char* cmd : {"accel", "run"})
    expect_error({cmd, "bipendulum", "--q", "1,1,2,-1", "--qdot", "1,0,0.5,0"}, 3,
                 "P0 undefined (000 eq. 72b");
  // 72a: x1 = x2 = 0.
  expect_error({"accel", "bipendulum", "--q", "0,1,0,-1", "--qdot", "1,0,0.5,0.7"}, 3,
               "P0 undefined (000 eq. 72a");
  // P2 at rest at P0: dC/dqdot = 0 (omitted by eq. 72).
  expect_error({"accel", "bipendulum", "--q", "1,0.5,0,-0.4", "--qdot", "-0.81,0.9,0,0"}, 3,
               "rank loss of dC/dqdot");
  // A run towards the symmetric motion's turning point stops before it,
  // keeping its rows, with the margin it hit; the CSV records the margins.
  const fs::path csv = dir_ / "sym.csv";
  const Result r = nhs({"run", "bipendulum", "--param", "m1=1.2", "--param", "m2=1.2",
                        "--param", "g=3", "--q", "1.5,0,1.5,0", "--z", "0,1.356025,-1.356025",
                        "--t-end", "3", "--dt-out", "0.01", "--singular-margin", "0.05", "--out",
                        csv.string()});
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("margin 0.05"), std::string::npos) << r.err;
  const auto rows = lines(slurp(csv));
  ASSERT_GT(rows.size(), 50u);
  EXPECT_NE(rows[0].find("sigma_min_dC_dqdot,margin_72a,margin_72b"), std::string::npos)
      << rows[0];
}

// --z builds qdot = psi(q, z) from the first-kind parameters.
TEST_F(Cli, StateFromChartParameters) {
  if (!have_study("bipendulum")) GTEST_SKIP();
  // P1 = (1.2, 0.3), P2 = (-0.9, -0.5) turning about P0 = (0, 0.4).
  const Result r = nhs({"accel", "bipendulum", "--q", "1.2,0.3,-0.9,-0.5", "--z", "0.4,0.6,-0.8"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const double expected[4] = {-0.6 * (0.3 - 0.4), 0.6 * 1.2, 0.8 * (-0.5 - 0.4), -0.8 * -0.9};
  for (int i = 0; i < 4; ++i)
    EXPECT_NEAR(std::stod(j["qdot"][i].get<std::string>()), expected[i], 1e-15);
  expect_error({"accel", "bipendulum", "--q", "1,2,3,4", "--z", "1,2"}, 2, "--z has 2 values");
  expect_error({"accel", "bipendulum", "--z", "1,2,3"}, 2, "--z needs --q");
  expect_error({"accel", "bipendulum", "--q", "1,2,3,4", "--qdot", "1,2,3,4", "--z", "1,2,3"}, 2,
               "--z needs --q");
  expect_error({"accel", "skate", "--q", "1,2", "--z", "1,2"}, 2, "--q has 2 values");
}

// run's y0 column is the hidden point P0 = (0, y0) of 000 eq. 75, where the
// normals to v1 at P1 and to v2 at P2 meet the y axis: computed here from
// each row's own columns, x_k x_kd + (y_k - y0) y_kd = 0, i.e.
// y0 = y_k + x_k x_kd / y_kd for k = 1 and k = 2. On C both agree
// (y0_1 - y0_2 = C / (y1d y2d)); the run keeps |C| below ~1e-12 with
// |y_kd| >= 0.69, hence the 1e-10 tolerance. At t = 0 it is the y0 of --z.
TEST_F(Cli, RunY0ColumnIsTheHiddenPoint) {
  if (!have_study("bipendulum")) GTEST_SKIP();
  const Result r = nhs({"run", "bipendulum", "--q", "1.2,0.3,-0.9,-0.5", "--z", "0.4,0.6,-0.8",
                        "--t-end", "1", "--dt-out", "0.5"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto rows = lines(r.out);
  ASSERT_EQ(rows.size(), 4u) << r.out;  // header + t = 0, 0.5, 1
  const auto header = split(rows[0], ',');
  const auto column = [&](const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    EXPECT_NE(it, header.end()) << name << " not in " << rows[0];
    return static_cast<std::size_t>(it - header.begin());
  };
  const std::size_t iy0 = column("y0"), ix1 = column("x1"), iy1 = column("y1"),
                    ix2 = column("x2"), iy2 = column("y2"), ix1d = column("x1_dot"),
                    iy1d = column("y1_dot"), ix2d = column("x2_dot"), iy2d = column("y2_dot");
  for (std::size_t j : {iy0, ix1, iy1, ix2, iy2, ix1d, iy1d, ix2d, iy2d})
    ASSERT_LT(j, header.size()) << rows[0];
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto c = split(rows[i], ',');
    ASSERT_EQ(c.size(), header.size()) << rows[i];
    const auto v = [&](std::size_t j) { return std::stod(c[j]); };
    const double y0 = v(iy0);
    ASSERT_GT(std::abs(v(iy1d)), 0.5) << rows[i];
    ASSERT_GT(std::abs(v(iy2d)), 0.5) << rows[i];
    const double from_p1 = v(iy1) + v(ix1) * v(ix1d) / v(iy1d);
    const double from_p2 = v(iy2) + v(ix2) * v(ix2d) / v(iy2d);
    EXPECT_NEAR(y0, from_p1, 1e-10 * (1 + std::abs(y0))) << "t = " << c[0];
    EXPECT_NEAR(y0, from_p2, 1e-10 * (1 + std::abs(y0))) << "t = " << c[0];
    if (i == 1) {
      EXPECT_EQ(std::stod(c[0]), 0.0);
      EXPECT_NEAR(y0, 0.4, 1e-14);
    }
  }
  // P0 moves: y0(1) is not y0(0), so the per-row check is not a constant's.
  EXPECT_GT(std::stod(split(rows.back(), ',')[iy0]) - 0.4, 0.5);
}

TEST_F(Cli, AccelPrintsJsonWithMultipliersWhereDefined) {
  const Result r = nhs({"accel", "skate", "--formulation", "second-kind", "--param", "g=2",
                        "--param", "m=1.5"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["study"], "skate");
  EXPECT_EQ(j["formulation"], "second-kind");  // the name; the backend is `field`
  EXPECT_EQ(j["field"], "generated");
  EXPECT_EQ(j["precision"], "double");
  EXPECT_EQ(j["parameters"]["g"], "2");
  EXPECT_EQ(j["parameters"]["m"], "1.5");
  EXPECT_EQ(j["q"].size(), 3u);
  EXPECT_EQ(j["qdot"].size(), 3u);
  EXPECT_EQ(j["qddot"].size(), 3u);
  EXPECT_EQ(j["multipliers"].size(), 1u);
  EXPECT_EQ(j["reaction"].size(), 3u);
  // Gauss's Z at the solution: R^T g^{-1} R, g = diag(1.5, 1.5, 0.5) here.
  ASSERT_TRUE(j.contains("gauss_z"));
  double z = 0;
  const double g_diag[3] = {1.5, 1.5, 0.5};
  for (int i = 0; i < 3; ++i) {
    const double R = std::stod(j["reaction"][i].get<std::string>());
    z += R * R / g_diag[i];
  }
  EXPECT_NEAR(std::stod(j["gauss_z"].get<std::string>()), z, 1e-14 * (1 + z));

  const Result r1 = nhs({"accel", "skate", "--formulation", "first-kind"});
  ASSERT_EQ(r1.code, 0) << r1.err;
  const auto j1 = nlohmann::json::parse(r1.out);
  EXPECT_FALSE(j1.contains("multipliers"));
  EXPECT_FALSE(j1.contains("reaction"));
  // Both formulations, same state: the same accelerations to ~1e-15.
  const Result r2 = nhs({"accel", "skate", "--formulation", "second-kind"});
  const auto j2 = nlohmann::json::parse(r2.out);
  for (int i = 0; i < 3; ++i)
    EXPECT_NEAR(std::stod(j1["qddot"][i].get<std::string>()),
                std::stod(j2["qddot"][i].get<std::string>()), 1e-14);
}

TEST_F(Cli, NegativeListValuesAreNotOptions) {
  // theta = 0 so that qdot = (s, 0, omega) is on C exactly.
  const std::vector<std::vector<std::string>> forms = {
      {"--q", "-0.1,0.2,0", "--qdot", "-0.5,0,-1"},
      {"--q=-0.1,0.2,0", "--qdot=-0.5,0,-1"},
      {"--q", "-.1,.2,0", "--qdot", "-.5,0,-1e0"},
  };
  for (const auto& f : forms) {
    std::vector<std::string> args = {"accel", "skate"};
    args.insert(args.end(), f.begin(), f.end());
    const Result r = nhs(args);
    ASSERT_EQ(r.code, 0) << f[0] << " " << f[1] << ": " << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(std::stod(j["q"][0].get<std::string>()), -0.1);
    EXPECT_EQ(std::stod(j["qdot"][0].get<std::string>()), -0.5);
    EXPECT_EQ(std::stod(j["qdot"][2].get<std::string>()), -1.0);
  }
}

TEST_F(Cli, AccelRoundTripsFiftyDigits) {
  // A state on C given in 60 digits, near but not exactly on C in mp50;
  // the tool admits and projects it exactly as the library does here.
  const std::string q = "0.1,-0.2,0.3";
  const Study<mp50>& st = find_study<mp50>("skate");
  const System<mp50> sys = st.build(parameters_with(st, {{"g", "3"}}));
  Vec<mp50> q0(3), z(2), qd(3);
  q0 << from_string<mp50>("0.1"), from_string<mp50>("-0.2"), from_string<mp50>("0.3");
  z << from_string<mp50>("0.7"), from_string<mp50>("-0.4");
  sys.parametrization(q0, z, qd);
  std::string qdot;
  for (int i = 0; i < 3; ++i) qdot += (i ? "," : "") + to_string<mp50>(qd[i]);

  for (const std::string f : {"first-kind", "second-kind"}) {
    const Result r = nhs({"accel", "skate", "--precision", "mp50", "--formulation", f, "--param",
                          "g=3", "--q", q, "--qdot", qdot});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["precision"], "mp50");
    const Vec<mp50> qa = admit_state(sys, q0, qd, default_manifold_tolerance<mp50>());
    const Acceleration<mp50> acc = find_formulation<mp50>(f).acceleration(sys, q0, qa);
    for (int i = 0; i < 3; ++i) {
      const std::string text = j["qddot"][i];
      int digits = 0;  // significant digits: from the first non-zero one
      bool leading = true;
      for (char c : text.substr(0, text.find_first_of("eE"))) {
        if (c < '0' || c > '9' || (leading && c == '0')) continue;
        leading = false;
        ++digits;
      }
      if (i < 2) EXPECT_GE(digits, 48) << text;  // thetadd = 0 exactly
      EXPECT_EQ(from_string<mp50>(text), acc.qddot[i]) << f << " qddot[" << i << "] = " << text;
      EXPECT_EQ(from_string<mp50>(j["qdot"][i].get<std::string>()), qa[i]);
    }
    EXPECT_EQ(from_string<mp50>(j["gauss_z"].get<std::string>()), gauss_z(sys, q0, qa, acc.qddot)) << f;
    if (f == "second-kind") {
      EXPECT_EQ(from_string<mp50>(j["multipliers"][0].get<std::string>()), (*acc.multipliers)[0]);
      for (int i = 0; i < 3; ++i)
        EXPECT_EQ(from_string<mp50>(j["reaction"][i].get<std::string>()), (*acc.reaction)[i]);
    }
  }
}

// Every precision of NHS_FOR_EACH_SCALAR works through the tool: `accel`
// prints qddot that reads back as the library's value in that scalar, and
// a short `run` uses the precision's default stepper.
template <class S>
void check_precision_through_cli(const std::function<Result(std::vector<std::string>)>& run) {
  const std::string name(ScalarName<S>::value);
  const Result r = run({"accel", "skate", "--precision", name});
  ASSERT_EQ(r.code, 0) << name << ": " << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["precision"], name);
  const Study<S>& st = find_study<S>("skate");
  const System<S> sys = st.build(st.default_parameters());
  const State<S> x = st.default_state(sys);
  const Vec<S> qa = admit_state(sys, x.q, x.qdot, default_manifold_tolerance<S>());
  const Acceleration<S> acc = find_formulation<S>("second-kind").acceleration(sys, x.q, qa);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(from_string<S>(j["qddot"][i].get<std::string>()), acc.qddot[i]) << name << " " << i;
  const Result run_r = run({"run", "skate", "--precision", name, "--t-end", "0.2", "--dt-out", "0.1"});
  ASSERT_EQ(run_r.code, 0) << name << ": " << run_r.err;
  EXPECT_EQ(lines(run_r.out).size(), 4u) << name;
  EXPECT_NE(run_r.err.find("stepper " + std::string(stepper_name(default_stepper<S>(default_tolerance<S>())))),
            std::string::npos)
      << run_r.err;
}

TEST_F(Cli, EveryPrecisionThroughAccelAndRun) {
  const Result list = nhs({"list"});
  ASSERT_EQ(list.code, 0);
  const auto run = [this](std::vector<std::string> args) { return nhs(args); };
#define NHS_TEST_CLI_PRECISION_(T, NAME)                                        \
  EXPECT_NE(list.out.find(std::string("  ") + NAME + " "), std::string::npos) << NAME; \
  check_precision_through_cli<T>(run);
  NHS_FOR_EACH_SCALAR(NHS_TEST_CLI_PRECISION_)
#undef NHS_TEST_CLI_PRECISION_
}

std::string expected_header(const std::string& study) {
  const Study<double>& st = find_study<double>(study);
  const System<double> sys = st.build(st.default_parameters());
  std::string h = "t";
  for (const auto& c : sys.info.coordinates) h += "," + c;
  for (const auto& c : sys.info.coordinates) h += "," + c + "_dot";
  h += ",energy";
  for (const auto& c : sys.info.constraint_names) h += "," + c;  // C1..Cr for the built-ins
  for (const auto& inv : st.invariants(sys)) h += "," + inv.name;
  // The margins to the singular sets: sigma_min(dC/dqdot) and the study's own.
  h += ",sigma_min_dC_dqdot";
  if (sys.singular_margins)
    for (const auto& m : sys.singular_margins(Vec<double>::Zero(sys.n), Vec<double>::Ones(sys.n)))
      h += "," + m.name;
  return h;
}

TEST_F(Cli, RunWritesCsvToStdout) {
  const Result r = nhs({"run", "skate", "--t-end", "1", "--dt-out", "0.1"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto rows = lines(r.out);
  ASSERT_EQ(rows.size(), 12u);  // header + t = 0, 0.1, ..., 1
  EXPECT_EQ(rows[0], expected_header("skate"));
  EXPECT_EQ(rows[0].rfind("t,x,y,theta,x_dot,y_dot,theta_dot,energy,C1", 0), 0u);
  const std::size_t columns = split(rows[0], ',').size();
  for (std::size_t i = 1; i < rows.size(); ++i) EXPECT_EQ(split(rows[i], ',').size(), columns);
  EXPECT_EQ(std::stod(split(rows.back(), ',')[0]), 1.0);
  // The summary on stderr.
  EXPECT_NE(r.err.find("RHS calls"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("max |C|"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("energy drift"), std::string::npos) << r.err;
}

TEST_F(Cli, RunWritesCsvFileInFullPrecision) {
  const fs::path csv = dir_ / "f.csv";
  const Result r = nhs({"run", "skate", "--precision", "mp50", "--t-end", "0.5", "--dt-out",
                        "0.25", "--out", csv.string()});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  const auto rows = lines(slurp(csv));
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0], expected_header("skate"));
  const std::string x = split(rows.back(), ',')[1];  // x(0.5), not a round number
  EXPECT_GE(x.size(), 48u) << x;
}

TEST_F(Cli, FailedRunExitsFourAndKeepsItsRows) {
  const fs::path csv = dir_ / "partial.csv";
  const Result r = nhs({"run", "skate", "--t-end", "100", "--dt-out", "0.01", "--max-rhs-calls",
                        "300", "--out", csv.string()});
  EXPECT_EQ(r.code, 4) << r.err;
  const auto err = lines(r.err);
  ASSERT_FALSE(err.empty());
  EXPECT_EQ(err.back().rfind("nhs: error: ", 0), 0u) << r.err;
  EXPECT_NE(err.back().find("300"), std::string::npos) << r.err;
  const auto rows = lines(slurp(csv));
  ASSERT_GE(rows.size(), 3u);  // header and at least two samples
  EXPECT_EQ(rows[0], expected_header("skate"));
  EXPECT_EQ(std::stod(split(rows[1], ',')[0]), 0.0);
  EXPECT_LT(std::stod(split(rows.back(), ',')[0]), 100.0);
}

// --max-wall-time: the tool ends the run itself (exit 4), the rows before
// kept. An mp50 n-trailer run to t = 1e4 (1e6 rows, within the row budget)
// takes minutes (~10k RHS calls a
// second), so a 0.3 s budget ends it whatever the machine's load.
TEST_F(Cli, WallTimeBudgetExitsFourAndKeepsItsRows) {
  const fs::path csv = dir_ / "wall.csv";
  const Result r = nhs({"run", "n-trailer", "--precision", "mp50", "--t-end", "10000", "--dt-out", "0.01",
                        "--max-wall-time", "0.3", "--out", csv.string()});
  EXPECT_EQ(r.code, 4) << r.err;
  const auto err = lines(r.err);
  ASSERT_FALSE(err.empty());
  EXPECT_EQ(err.back().rfind("nhs: error: wall-time budget of 0.3 s (--max-wall-time) exceeded", 0), 0u) << r.err;
  const auto rows = lines(slurp(csv));
  ASSERT_GE(rows.size(), 2u);  // header and the initial sample at least
  EXPECT_EQ(rows[0], expected_header("n-trailer"));
  EXPECT_LT(std::stod(split(rows.back(), ',')[0]), 10000.0);
  expect_error({"run", "skate", "--max-wall-time", "0"}, 2, "--max-wall-time: expected a positive number of seconds");
  expect_error({"run", "skate", "--max-wall-time", "-1"}, 2, "'-1'");
  expect_error({"run", "skate", "--max-wall-time", "soon"}, 2, "'soon'");
}

// "max |C| = 1.2e-15;" and "max |E - E0| = 3e-12 " from run's summary line.
double summary_figure(const std::string& err, const std::string& key) {
  const std::size_t at = err.find(key);
  if (at == std::string::npos) return -1;
  return std::stod(err.substr(at + key.size()));
}

TEST_F(Cli, RunProjectKeepsTheMotionOnC) {
  // Second kind on the skate's default turning motion: without --project
  // max |C| grows well above round-off (to ~1e-12) over t = 100; with it,
  // it stays at round-off (qdot = O(1) here). Energy error reported in both
  // summaries.
  const std::vector<std::string> args = {"run", "skate", "--t-end", "100", "--dt-out", "5",
                                         "--out", (dir_ / "r.csv").string()};
  const Result free = nhs(args);
  std::vector<std::string> pargs = args;
  pargs.push_back("--project");
  const Result proj = nhs(pargs);
  ASSERT_EQ(free.code, 0) << free.err;
  ASSERT_EQ(proj.code, 0) << proj.err;
  EXPECT_EQ(free.err.find("projected onto C"), std::string::npos) << free.err;
  EXPECT_NE(proj.err.find("projected onto C"), std::string::npos) << proj.err;
  const double c_free = summary_figure(free.err, "max |C| = ");
  const double c_proj = summary_figure(proj.err, "max |C| = ");
  EXPECT_LE(c_proj, 1e-14) << proj.err;
  EXPECT_GT(c_free, 1e-13) << free.err;
  EXPECT_GE(summary_figure(free.err, "max |E - E0| = "), 0) << free.err;
  EXPECT_GE(summary_figure(proj.err, "max |E - E0| = "), 0) << proj.err;
}

// The geometric steppers from the command line: a run keeps C at
// round-off (nh-rattle), and what they cannot take is refused by name
// (exit 2): a non-linear constraint, --project, --step with an adaptive
// stepper, a step that is not positive.
TEST_F(Cli, GeometricSteppersRunAndRefuseByName) {
  const Result r = nhs({"run", "skate", "--stepper", "nh-rattle", "--step", "0.02", "--t-end", "5",
                        "--dt-out", "1", "--out", (dir_ / "g.csv").string()});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("stepper nh-rattle"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("discrete Lagrange-d'Alembert principle"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" 250 steps"), std::string::npos) << r.err;  // 5 intervals of 50 steps
  const double max_C = summary_figure(r.err, "max |C| = ");
  EXPECT_GE(max_C, 0) << r.err;  // found in the summary
  EXPECT_LE(max_C, 1e-15) << r.err;
  if (have_study("parallel-points"))
    expect_error({"run", "parallel-points", "--stepper", "dla"}, 2,
                 "constraints of 'parallel-points' (C1) are not all linear");
  expect_error({"run", "skate", "--stepper", "dla", "--project"}, 2, "--project: stepper dla");
  expect_error({"run", "skate", "--stepper", "dopri5", "--step", "0.1"}, 2, "--step sets the fixed step");
  expect_error({"run", "skate", "--stepper", "nh-midpoint", "--step", "-1"}, 2, "--step must be positive");
}

// A first trial step far too long for the motion (dt_out / 16 = 25 here)
// overflows inside its stages: it is rejected and retried shorter, so that
// whether a run succeeds does not depend on --dt-out (it ended the run with
// exit 4 at t = 23.5 before). Every adaptive stepper.
TEST_F(Cli, AnOverflowingTrialStepIsRetriedShorter) {
  if (!have_study("rolling-sphere")) GTEST_SKIP();
  for (const char* stepper : {"dopri5", "fehlberg78", "verner87", "bulirsch-stoer"}) {
    const Result r = nhs({"run", "rolling-sphere", "--t-end", "400", "--dt-out", "400", "--stepper", stepper,
                          "--out", (dir_ / "o.csv").string()});
    EXPECT_EQ(r.code, 0) << stepper << ": " << r.err;
  }
}

// --motion runs a special motion from its parameters and initial state to
// its t_end, with the CSV column "error" against its closed form (here
// below 1e-9: rtol 1e-12); names and numbers as `nhs list` prints them;
// a state or parameters beside it, or an unknown motion, exit 2.
TEST_F(Cli, RunAMotionWithItsError) {
  const fs::path csv = dir_ / "m.csv";
  const Result r = nhs({"run", "skate", "--motion", "1", "--dt-out", "1", "--out", csv.string()});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string text = slurp(csv);
  const std::string header = text.substr(0, text.find('\n'));
  EXPECT_EQ(header.substr(header.rfind(',') + 1), "error") << header;
  EXPECT_NE(r.err.find("max error against the motion"), std::string::npos) << r.err;
  const double error = summary_figure(r.err, "' over the rows: ");
  EXPECT_GE(error, 0) << r.err;
  EXPECT_LE(error, 1e-9) << r.err;
  EXPECT_NE(nhs({"list", "skate"}).out.find("special motions (nhs run --motion N)"), std::string::npos);
  expect_error({"run", "skate", "--motion", "nope"}, 2, "has no motion 'nope' (known: 1: ");
  expect_error({"run", "skate", "--motion", "1", "--param", "g=1"}, 2, "--motion sets the parameters");
}

// accel and run evaluate the same field by default (default_field): a
// built-in study's generated code where it has one for the formulation, the
// library's formulation otherwise; accel names it ("field"), run's summary
// too. The default is --generated bit for bit, and agrees with --library to
// round-off; a second backend flag is refused.
TEST_F(Cli, AccelAndRunEvaluateTheSameDefaultField) {
  for (const char* formulation : {"second-kind", "first-kind", "gibbs-appell", "maggi"}) {
    const std::vector<std::string> args = {"accel", "rolling-disc", "--formulation", formulation};
    std::vector<std::string> largs = args, gargs = args;
    largs.push_back("--library");
    gargs.push_back("--generated");
    const Result dflt = nhs(args), lib = nhs(largs);
    ASSERT_EQ(dflt.code, 0) << dflt.err;
    ASSERT_EQ(lib.code, 0) << lib.err;
    const auto d = nlohmann::json::parse(dflt.out), l = nlohmann::json::parse(lib.out);
    const bool has_generated = std::string(formulation) != "maggi";
    EXPECT_EQ(d["field"], has_generated ? "generated" : "library") << formulation;
    EXPECT_EQ(l["field"], "library") << formulation;
    EXPECT_EQ(l["formulation"], formulation);
    if (has_generated) {
      const Result gen = nhs(gargs);
      ASSERT_EQ(gen.code, 0) << gen.err;
      EXPECT_EQ(dflt.out, gen.out) << formulation;
      EXPECT_EQ(d["formulation"], formulation);
    }
    ASSERT_EQ(d["qddot"].size(), l["qddot"].size());
    for (std::size_t i = 0; i < d["qddot"].size(); ++i) {
      const double a = std::stod(d["qddot"][i].get<std::string>()), b = std::stod(l["qddot"][i].get<std::string>());
      EXPECT_NEAR(a, b, 1e-13 * (1 + std::abs(b))) << formulation << " qddot[" << i << "]";
    }
    std::vector<std::string> rargs = {"run", "rolling-disc", "--formulation", formulation, "--t-end", "0.1"};
    const Result run = nhs(rargs);
    ASSERT_EQ(run.code, 0) << run.err;
    EXPECT_NE(run.err.find("with " + d["formulation"].get<std::string>() +
                           (has_generated ? " (generated)" : "") + " in double"),
              std::string::npos)
        << run.err;
  }
  expect_error({"accel", "skate", "--library", "--generated"}, 2, "--generated and --library exclude each other");
}

TEST_F(Cli, RunGeneratedFollowsTheLibrarysRun) {
  // --generated evaluates the field by the study's generated code: the same
  // run (same steps, the same CSV rows to rounding), named in the summary;
  // refused where there is no generated code; in every precision. It is
  // run's default where the study has it; --library selects the library's.
  for (const char* formulation : {"second-kind", "first-kind"}) {
    const std::vector<std::string> args = {"run", "coaxial-discs", "--formulation", formulation,
                                           "--t-end", "5", "--dt-out", "1", "--rtol", "1e-12"};
    std::vector<std::string> largs = args, gargs = args;
    largs.push_back("--library");
    gargs.push_back("--generated");
    const Result lib = nhs(largs), gen = nhs(gargs), dflt = nhs(args);
    ASSERT_EQ(lib.code, 0) << lib.err;
    ASSERT_EQ(gen.code, 0) << gen.err;
    ASSERT_EQ(dflt.code, 0) << dflt.err;
    EXPECT_NE(gen.err.find(std::string(formulation) + " (generated)"), std::string::npos) << gen.err;
    EXPECT_NE(dflt.err.find(std::string(formulation) + " (generated)"), std::string::npos) << dflt.err;
    EXPECT_EQ(lib.err.find("(generated)"), std::string::npos) << lib.err;
    EXPECT_EQ(dflt.out, gen.out);
    const auto a = lines(lib.out), b = lines(gen.out);
    ASSERT_EQ(a.size(), b.size());
    ASSERT_GE(a.size(), 7u);
    const auto last_a = split(a.back(), ','), last_b = split(b.back(), ',');
    ASSERT_EQ(last_a.size(), last_b.size());
    for (std::size_t i = 0; i < last_a.size(); ++i)
      EXPECT_NEAR(std::stod(last_a[i]), std::stod(last_b[i]), 1e-10 * (1 + std::abs(std::stod(last_a[i]))))
          << formulation << " column " << i;
  }
  const Result mp = nhs({"run", "skate", "--generated", "--precision", "mp50", "--t-end", "1", "--dt-out", "1"});
  EXPECT_EQ(mp.code, 0) << mp.err;
  EXPECT_NE(mp.err.find("second-kind (generated) in mp50"), std::string::npos) << mp.err;
  expect_error({"accel", "skate", "--generated", "--formulation", "maggi"}, 2,
               "no generated code for formulation 'maggi'");
}

// I/O failures have their own exit code, 5, with one line; nothing that was
// written is reported as a success.
TEST_F(Cli, WriteFailuresExitFive) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"list"}, {"accel", "skate"}, {"run", "skate", "--t-end", "1"}}) {
    std::string cmd;
    for (const auto& a : args) cmd += " " + a;
    for (const char* where : {"/dev/full", "-"}) {
      const Result r = nhs(args, where);
      EXPECT_EQ(r.code, 5) << cmd << " > " << where << ": " << r.err;
      const auto err = lines(r.err);
      ASSERT_FALSE(err.empty()) << cmd;
      EXPECT_EQ(err.back().rfind("nhs: error: cannot write", 0), 0u) << cmd << ": " << r.err;
    }
  }
  const Result r = nhs({"run", "skate", "--t-end", "1", "--out", "/dev/full"});
  EXPECT_EQ(r.code, 5) << r.err;
  expect_error({"run", "skate", "--out", (dir_ / "no/such/dir/f.csv").string()}, 5, "--out");
  std::ofstream(dir_ / "plain-file") << "x";
  expect_error({"verify", "--out-dir", (dir_ / "plain-file").string()}, 5, "--out-dir");
}

// Overflow is exit 4 naming a non-finite value, never NaN printed with exit
// 0 and never a "singular state" built from NaN pivots.
TEST_F(Cli, OverflowExitsFourNamingTheNonFiniteValue) {
  std::vector<std::string> names;
  for (const auto& f : formulations<double>()) names.push_back(f->name());
  for (const auto& f : names) {
    if (have_study("rolling-disc")) {
      const Result r = nhs({"accel", "rolling-disc", "--formulation", f, "--param", "k=3e307",
                            "--q", "0,0,0,0", "--z", "20,0"});
      EXPECT_TRUE(r.code == 4 || r.code == 2) << f << ": " << r.err << r.out;
      if (r.code == 4) EXPECT_NE(r.err.find("non-finite value"), std::string::npos) << r.err;
      EXPECT_EQ(r.out.find("nan"), std::string::npos) << f << ": " << r.out;
    }
    const Result s = nhs({"accel", "skate", "--formulation", f, "--q", "0,0,0", "--qdot",
                          "4e157,0,0"});
    EXPECT_TRUE(s.code == 0 || s.code == 4 || s.code == 2) << f << ": " << s.err;
    EXPECT_EQ(s.err.find("nhs: error: singular state"), std::string::npos) << f << ": " << s.err;
    EXPECT_EQ(s.out.find("nan"), std::string::npos) << f << ": " << s.out;
    EXPECT_EQ(s.out.find("inf"), std::string::npos) << f << ": " << s.out;
  }
  // The energy overflows at the first sample: exit 4 before any row.
  const Result e = nhs({"run", "skate", "--param", "g=2e300", "--q", "3e10,0,0", "--qdot", "0,0,0",
                        "--t-end", "1"});
  EXPECT_EQ(e.code, 4) << e.err;
  EXPECT_NE(e.err.find("non-finite value: energy"), std::string::npos) << e.err;
  EXPECT_EQ(e.out.find("inf"), std::string::npos) << e.out;
}

// A run that meets a singular set between two samples, or inside one step,
// stops there with exit 3 naming it, in every precision's default stepper.
TEST_F(Cli, RunsStopAtASingularSetInsideAStep) {
  if (have_study("parallel-points")) {
    for (const char* precision : {"double", "long-double", "float128", "mp50"}) {
      // Both points sent against g = 0.5 at speed 1: they stop at t = 2.
      const Result r = nhs({"run", "parallel-points", "--precision", precision, "--param",
                            "g=0.5", "--q", "0,1,0,3", "--qdot", "-1,0,-1,0", "--t-end", "4",
                            "--dt-out", "1.5"});
      EXPECT_EQ(r.code, 3) << precision << ": " << r.err;
      EXPECT_NE(r.err.find("rank loss of dC/dqdot"), std::string::npos) << r.err;
    }
  }
  if (have_study("bipendulum")) {
    // Both points cross x = 0 together at t = 0.4 (000 eq. 72a).
    for (const char* f : {"second-kind", "udwadia-kalaba", "first-kind"}) {
      const Result r = nhs({"run", "bipendulum", "--formulation", f, "--q", "-0.8,0.2,-0.8,0.2",
                            "--qdot", "2,0.5,2,0.5", "--t-end", "1"});
      EXPECT_EQ(r.code, 3) << f << ": " << r.err;
      EXPECT_NE(r.err.find("72a"), std::string::npos) << f << ": " << r.err;
    }
  }
  if (have_study("rolling-sphere")) {
    const Result r = nhs({"run", "rolling-sphere", "--q", "0,0.3,0,0,0", "--z", "0,-1.5,0",
                          "--t-end", "1"});
    EXPECT_EQ(r.code, 3) << r.err;
    EXPECT_NE(r.err.find("Euler-angle chart singular"), std::string::npos) << r.err;
  }
}

// A stopped run's summary counts its steps, and a run on SIGINT stops at the
// next step with exit 130, its summary and its rows.
TEST_F(Cli, StoppedAndInterruptedRunsKeepTheirRowsAndSummary) {
  const Result r = nhs({"run", "skate", "--t-end", "100", "--max-rhs-calls", "500"});
  EXPECT_EQ(r.code, 4);
  EXPECT_EQ(r.err.find(", 0 steps"), std::string::npos) << r.err;
  const fs::path csv = dir_ / "interrupted.csv";
  const Result i = nhs({"run", "skate", "--precision", "mp100", "--t-end", "1000", "--dt-out",
                        "0.01", "--out", csv.string()},
                       "", 1.5);
  EXPECT_EQ(i.code, 130) << i.err;
  const auto err = lines(i.err);
  ASSERT_EQ(err.size(), 2u) << i.err;
  EXPECT_EQ(err[0].rfind("nhs run: stopped skate", 0), 0u) << i.err;
  EXPECT_EQ(err[1].rfind("nhs: error: interrupted (SIGINT)", 0), 0u) << i.err;
  const auto rows = lines(slurp(csv));
  EXPECT_GE(rows.size(), 2u);
}

// Trailing and leading white space in a number is read the same way in
// every precision.
TEST_F(Cli, NumbersReadTheSameInEveryPrecision) {
  for (const char* precision : {"double", "long-double", "float128", "mp50", "mp100"}) {
    const Result r = nhs({"accel", "skate", "--precision", precision, "--q", " 0.25 ,0,0 ",
                          "--qdot", "0.5 ,0,0", "--param", "m=2 "});
    EXPECT_EQ(r.code, 0) << precision << ": " << r.err;
  }
}

// The nonholonomic particle z_dot = y x_dot (examples/nonholonomic-particle.toml
// cut down), with `extra` appended. V = c exp(y) with c = 0: the exact motion
// at y = 800 has energy 0 exp(800) = NaN in double (exp overflows), so every
// double run of it fails at its first sample.
std::string particle_file(const std::string& constraints, const std::string& initial) {
  return "name = \"particle\"\n"
         "coordinates = [\"x\", \"y\", \"z\"]\n"
         "[parameters]\n"
         "c = \"0\"\n"
         "[dynamics]\n"
         "kinetic_energy = \"(x_dot^2 + y_dot^2 + z_dot^2)/2\"\n"
         "potential = \"c*exp(y)\"\n"
         "[constraints]\n" + constraints +
         "[initial]\n" + initial +
         "[invariants]\n"
         "p_x = \"x_dot*sqrt(1 + y^2)\"\n";
}

const std::string kHeisenberg = "heisenberg = \"z_dot - y*x_dot\"\n";
const std::string kParticleInitial = "q = [\"0\", \"0.5\", \"0\"]\nqdot = [\"1\", \"0.6\", \"0.5\"]\n";

// Trajectory CSVs name the constraint columns as the system names its
// constraints; a name that repeats a column is prefixed.
TEST_F(Cli, CsvConstraintColumnsTakeTheSystemsNames) {
  const fs::path file = dir_ / "particle.toml";
  std::ofstream(file) << particle_file(kHeisenberg, kParticleInitial);
  const Result r = nhs({"run", file.string(), "--t-end", "0.2"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(lines(r.out).at(0), "t,x,y,z,x_dot,y_dot,z_dot,energy,heisenberg,p_x,sigma_min_dC_dqdot");

  // Two constraints, one named like the energy column: z_dot = y x_dot and
  // x_dot = y_dot (q_dot = (1, 1, 0.5) at y = 0.5 is on both).
  const fs::path clash = dir_ / "clash.toml";
  std::ofstream(clash) << particle_file("energy = \"z_dot - y*x_dot\"\nC2 = \"x_dot - y_dot\"\n",
                                       "q = [\"0\", \"0.5\", \"0\"]\nqdot = [\"1\", \"1\", \"0.5\"]\n");
  const Result c = nhs({"run", clash.string(), "--t-end", "0.2"});
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_EQ(lines(c.out).at(0),
            "t,x,y,z,x_dot,y_dot,z_dot,energy,constraint_energy,C2,p_x,sigma_min_dC_dqdot");
}

// A state on one of the system's own singular sets ([singular]) is refused
// by that set's name, exit 3: given by --z, where psi(q, z) is infinite
// there (it said "qdot is not finite", exit 2), and by --qdot, where the
// admission's projection met it as "singular metric g".
TEST_F(Cli, StatesOnADeclaredSingularSetAreRefusedByItsName) {
  // The planar pendulum-like chart x = cos(phi)/sin(theta)...: simply a
  // particle in the plane whose velocity chart divides by sin(theta).
  const fs::path file = dir_ / "chart.toml";
  std::ofstream(file) << "name = \"chart\"\n"
                         "coordinates = [\"x\", \"theta\", \"y\"]\n"
                         "quasi_velocities = [\"u\", \"w\"]\n"
                         "[dynamics]\n"
                         "kinetic_energy = \"(x_dot^2 + (sin(theta)^2 + 1/10)*theta_dot^2 + y_dot^2)/2\"\n"
                         "[constraints]\n"
                         "C1 = \"y_dot - sin(theta)*x_dot\"\n"
                         "[parametrization]\n"
                         "x_dot = \"u/sin(theta)\"\n"
                         "theta_dot = \"w\"\n"
                         "y_dot = \"u\"\n"
                         "[chart]\n"
                         "u = \"y_dot\"\n"
                         "w = \"theta_dot\"\n"
                         "[initial]\n"
                         "q = [\"0\", \"1\", \"0\"]\n"
                         "z = [\"0.5\", \"0.2\"]\n"
                         "[singular]\n"
                         "sin_theta = { margin = \"sin(theta)\", meaning = \"the chart divides by sin(theta)\" }\n";
  expect_error({"run", file.string(), "--q", "0,0,0", "--z", "1,1"}, 3,
               "on a singular set: the chart divides by sin(theta) (margin_sin_theta = 0");
  expect_error({"accel", file.string(), "--q", "0,0,0", "--qdot", "1,0,0"}, 3,
               "on a singular set: the chart divides by sin(theta) (margin_sin_theta = 0");
  // Off the set, the same commands work.
  EXPECT_EQ(nhs({"accel", file.string(), "--q", "0,1,0", "--z", "1,1"}).code, 0);
}

// --generated on a system file: there is no build-time code, and the
// message says what serves instead.
TEST_F(Cli, GeneratedOnAFileNamesTheTracedAndCompiledFields) {
  const fs::path file = dir_ / "particle.toml";
  std::ofstream(file) << particle_file(kHeisenberg, kParticleInitial);
  expect_error({"accel", file.string(), "--generated"}, 2, "its traced field");
}

// An invariant that is not finite at some rows (defined on part of the
// state space) leaves those cells empty and is counted in the summary; the
// run succeeds (it stopped with "non-finite value", exit 4, and no rows).
TEST_F(Cli, InvariantsUndefinedAtSomeRowsLeaveEmptyCells) {
  const fs::path file = dir_ / "particle.toml";
  std::string text = particle_file(kHeisenberg, kParticleInitial);
  text += "L = \"log(abs(x_dot - 1))\"\n";  // x_dot = 1 at t = 0 only: log(0) = -inf there
  std::ofstream(file) << text;
  const Result r = nhs({"run", file.string(), "--t-end", "0.5"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto rows = lines(r.out);
  ASSERT_GE(rows.size(), 3u);
  const auto header = split(rows[0], ',');
  const auto column = std::find(header.begin(), header.end(), "L") - header.begin();
  ASSERT_LT(static_cast<std::size_t>(column), header.size());
  EXPECT_EQ(split(rows[1], ',').at(static_cast<std::size_t>(column)), "");  // t = 0
  EXPECT_NE(r.err.find("invariant L is not finite at 1 of"), std::string::npos) << r.err;
  for (const auto& row : rows) EXPECT_EQ(row.find("nan"), std::string::npos) << row;
}

// A precision whose runs of a motion all fail before their first sample has
// no figure for them: "-" in the table and in the digits table (it showed 0
// and "exact"), null in summary.json; the failure is reported.
TEST_F(Cli, CheckRunsFailingBeforeTheirFirstSampleHaveNoFigure) {
  const fs::path file = dir_ / "particle.toml";
  std::ofstream(file) << particle_file(kHeisenberg, kParticleInitial) +
                             "[[exact]]\n"
                             "name = \"free at y = 800\"\n"
                             "t_end = \"1\"\n"
                             "q = [\"2*(asinh(800 + t/2) - asinh(800))\", \"800 + t/2\",\n"
                             "     \"2*(sqrt(1 + (800 + t/2)^2) - sqrt(1 + 800^2))\"]\n";
  const fs::path out = dir_ / "check";
  const Result r = nhs({"check", file.string(), "--precision", "double", "--quick", "--states", "4",
                        "--jobs", "1", "--no-report", "--out-dir", out.string()});
  ASSERT_EQ(r.code, 1) << r.err << r.out;
  EXPECT_NE(r.out.find("integration failed after 0 samples"), std::string::npos) << r.out;
  // The digits line: cross / analytic / drift, the analytic one absent.
  bool digits_line = false;
  for (const auto& l : lines(r.out))
    if (l.rfind("particle ", 0) == 0 && l.find(" / ") != std::string::npos) {
      digits_line = true;
      EXPECT_NE(l.find(" / - / "), std::string::npos) << l;
    }
  EXPECT_TRUE(digits_line) << r.out;
  const auto j = nlohmann::json::parse(slurp(out / "summary.json"));
  ASSERT_FALSE(j["rows"].empty());
  for (const auto& row : j["rows"]) {
    if (row["negative_control"].get<bool>()) continue;
    EXPECT_EQ(row["error_vs_exact"], "-") << row.dump();
    EXPECT_NE(row["energy_drift"], "-") << row.dump();  // the default state's figure
    EXPECT_FALSE(row["pass"].get<bool>()) << row.dump();
  }
  EXPECT_TRUE(j["digits"].at(0)["analytic"].is_null()) << j["digits"].dump();
  int failed_runs = 0;
  for (const auto& run : j["runs"])
    if (run["run"] == "free at y = 800") {
      EXPECT_FALSE(run["completed"].get<bool>());
      EXPECT_EQ(run["samples"], 0);
      ++failed_runs;
    } else {
      EXPECT_TRUE(run["completed"].get<bool>()) << run.dump();
      const auto header = lines(slurp(out / run["csv"].get<std::string>())).at(0);
      EXPECT_NE(header.find(",energy,heisenberg,p_x,"), std::string::npos) << header;
      EXPECT_EQ(run["columns"]["constraints"], nlohmann::json::array({"heisenberg"}));
    }
  EXPECT_GT(failed_runs, 0);
  for (const auto& c : j["checks"])  // no figure from a run without samples
    if (c["run"] == "free at y = 800") EXPECT_EQ(c["kind"], "run completed") << c.dump();
  EXPECT_FALSE(fs::exists(out / "report.md"));  // --no-report
}

// `nhs check`'s bounds follow what the precision reaches (the tests'
// strict budget): in mp50 an exact motion held to 1e-40 x (1 + scale) at
// rtol 1e-46. Under verify's main budget (1e-30 at rtol 1e-36) a motion
// wrong by 1e-38, a loss of 10 of the digits a run reaches, passed.
TEST_F(Cli, CheckBoundsCatchATenDigitLossInMp50) {
  // The free Heisenberg particle (c = 0): y = 1/2 + t/2, x_dot sqrt(1 + y^2) = 1.
  const auto file_with = [&](const std::string& name, const std::string& x_error) {
    const fs::path file = dir_ / name;
    std::ofstream(file) << particle_file(kHeisenberg, kParticleInitial) +
                               "[[exact]]\n"
                               "name = \"free\"\n"
                               "t_end = \"2\"\n"
                               "q = [\"2*(asinh(1/2 + t/2) - asinh(1/2))" + x_error + "\", \"1/2 + t/2\",\n"
                               "     \"2*(sqrt(1 + (1/2 + t/2)^2) - sqrt(5/4))\"]\n";
    return file;
  };
  const auto check = [&](const fs::path& file, const fs::path& out) {
    return nhs({"check", file.string(), "--precision", "mp50", "--quick", "--states", "4", "--jobs", "1",
                "--no-report", "--out-dir", out.string()});
  };
  const fs::path right_out = dir_ / "right", wrong_out = dir_ / "wrong";
  const Result right = check(file_with("right.toml", ""), right_out);
  ASSERT_EQ(right.code, 0) << right.err << right.out;
  const auto j = nlohmann::json::parse(slurp(right_out / "summary.json"));
  int exact_checks = 0;
  for (const auto& c : j["checks"])
    if (c["kind"] == "error vs exact") {
      ++exact_checks;
      EXPECT_LT(c["value"].get<double>(), 1e-43) << c.dump();  // what mp50 reaches here
      EXPECT_LT(c["tolerance"].get<double>(), 1e-39) << c.dump();
    }
  EXPECT_GE(exact_checks, 2) << j["checks"].dump();
  ASSERT_EQ(j["settings"].size(), 1u);
  EXPECT_EQ(j["settings"][0]["analytic_error"].get<double>(), 1e-40);
  EXPECT_EQ(j["settings"][0]["rtol"].get<double>(), 1e-46);
  // The motion off by 1e-38 t^2 (the same start): every formulation fails it.
  const Result wrong = check(file_with("wrong.toml", " + 1e-38*t^2"), wrong_out);
  ASSERT_EQ(wrong.code, 1) << wrong.err << wrong.out;
  EXPECT_NE(wrong.out.find("free: error vs analytic solution 4e-38 > "), std::string::npos) << wrong.out;
  const auto w = nlohmann::json::parse(slurp(wrong_out / "summary.json"));
  for (const auto& c : w["checks"])
    if (c["kind"] == "error vs exact") EXPECT_FALSE(c["pass"].get<bool>()) << c.dump();
}

// `nhs check` integrates a system file's traced field where `nhs run` does
// (second-kind, first-kind, gibbs-appell; the library's formulations
// integrated in mp50 cost up to 40 times more), and cross-checks that field
// with every formulation at its random states ("traced field agreement").
TEST_F(Cli, CheckIntegratesTheFieldOfRunAndCrossChecksIt) {
  const fs::path file = dir_ / "particle.toml";
  std::ofstream(file) << particle_file(kHeisenberg, kParticleInitial);
  const fs::path out = dir_ / "check";
  const Result r = nhs({"check", file.string(), "--precision", "double,mp50", "--quick", "--states", "4",
                        "--jobs", "1", "--no-report", "--out-dir", out.string()});
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const auto j = nlohmann::json::parse(slurp(out / "summary.json"));
  std::set<std::string> agreed;
  for (const auto& c : j["checks"])
    if (c["kind"] == "traced field agreement") {
      EXPECT_EQ(c["run"], "random states") << c.dump();
      EXPECT_TRUE(c["pass"].get<bool>()) << c.dump();
      EXPECT_LE(c["value"].get<double>(), c["tolerance"].get<double>()) << c.dump();
      agreed.insert(c["formulation"].get<std::string>() + "/" + c["precision"].get<std::string>());
    }
  // Without psi, second-kind is the one traceable formulation that applies.
  EXPECT_EQ(agreed, (std::set<std::string>{"second-kind/double", "second-kind/mp50"}));
  int noted = 0;
  for (const auto& n : j["notes"])
    if (n.get<std::string>().find(": traced field agreement: its runs integrate second-kind (traced), the field of") !=
        std::string::npos)
      ++noted;
  EXPECT_EQ(noted, 2) << j["notes"].dump();
}

// `nhs verify` and `nhs check` of a built-in study integrate the study's
// generated code where `nhs run` does (default_field: second-kind,
// first-kind, gibbs-appell) and cross-check it with every formulation at
// the random states ("generated field agreement"), as the main job does.
TEST_F(Cli, CheckCrossChecksTheGeneratedFieldOfABuiltInStudy) {
  const fs::path out = dir_ / "check";
  const Result r = nhs({"check", "skate", "--precision", "double", "--quick", "--states", "4", "--jobs", "1",
                        "--no-report", "--out-dir", out.string()});
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const auto j = nlohmann::json::parse(slurp(out / "summary.json"));
  std::set<std::string> agreed;
  for (const auto& c : j["checks"]) {
    ASSERT_NE(c["kind"], "traced field agreement") << c.dump();
    if (c["kind"] == "generated field agreement") {
      EXPECT_TRUE(c["pass"].get<bool>()) << c.dump();
      EXPECT_LE(c["value"].get<double>(), c["tolerance"].get<double>()) << c.dump();
      agreed.insert(c["formulation"].get<std::string>());
    }
  }
  EXPECT_EQ(agreed, (std::set<std::string>{"second-kind", "first-kind", "gibbs-appell"}));
  const std::string md = slurp(out / "summary.md");
  EXPECT_NE(md.find("generated field agreement: its runs integrate first-kind (generated)"), std::string::npos)
      << md;
}

// A system file that cannot be read is a usage error (exit 2, as a
// malformed file), naming the path and the system's reason: a missing file
// exited 5 (reserved for output that cannot be written), a directory read
// as an empty file ("missing key 'coordinates'"). A parameter beyond
// double's range is refused at its value, with its name, in every command
// (it said "number out of range '1e400'" without either).
TEST_F(Cli, SystemFilesThatCannotBeReadExitTwo) {
  const fs::path missing = dir_ / "nope" / "missing.toml";
  expect_error({"accel", missing.string()}, 2,
               missing.string() + ": cannot read the system file: No such file or directory");
  const fs::path directory = dir_ / "d.toml";
  fs::create_directories(directory);
  expect_error({"list", directory.string()}, 2,
               directory.string() + ": cannot read the system file: it is a directory");
  const fs::path huge = dir_ / "huge.toml";
  std::string text = particle_file(kHeisenberg, kParticleInitial);
  text.replace(text.find("c = \"0\""), 7, "c = \"1e400\"");
  std::ofstream(huge) << text;
  for (const char* cmd : {"list", "accel"})
    expect_error({cmd, huge.string()}, 2,
                 huge.string() + ":4:5: parameter c: number out of range '1e400' (not finite in double");
}

// A constraint that is not homogeneous in the velocities (the speed held at
// c: x_dot^2 + y_dot^2 = c^2) has a reaction that does work, so T + V is not
// a first integral: `nhs list` says so, and `nhs check` notes it and does
// not check energy (it failed every energy check of a right motion).
TEST_F(Cli, CheckSkipsEnergyWhereAConstraintIsNotHomogeneous) {
  const fs::path file = dir_ / "speed.toml";
  std::ofstream(file) << "name = \"speed\"\n"
                         "coordinates = [\"x\", \"y\"]\n"
                         "quasi_velocities = [\"phi\"]\n"
                         "[parameters]\n"
                         "c = \"1.5\"\n"
                         "g = \"0.25\"\n"
                         "[dynamics]\n"
                         "kinetic_energy = \"(x_dot^2 + y_dot^2)/2\"\n"
                         "potential = \"-g*x\"\n"
                         "[constraints]\n"
                         "speed = \"x_dot^2 + y_dot^2 - c^2\"\n"
                         "[parametrization]\n"
                         "x_dot = \"c*cos(phi)\"\n"
                         "y_dot = \"c*sin(phi)\"\n"
                         "[chart]\n"
                         "phi = \"atan2(y_dot, x_dot)\"\n"
                         "[initial]\n"
                         "q = [\"0\", \"0\"]\n"
                         "z = [\"2\"]\n";
  const std::string why = "constraint speed is not homogeneous in the velocities: its reaction does work";
  const Result list = nhs({"list", file.string()});
  ASSERT_EQ(list.code, 0) << list.err;
  EXPECT_NE(list.out.find("energy: not a first integral (" + why + ")"), std::string::npos) << list.out;
  const fs::path out = dir_ / "check";
  const Result r = nhs({"check", file.string(), "--precision", "double", "--quick", "--states", "4",
                        "--jobs", "1", "--no-report", "--out-dir", out.string()});
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const auto j = nlohmann::json::parse(slurp(out / "summary.json"));
  // One note for the system, not one per run and precision (issue 57).
  int noted = 0;
  for (const auto& n : j["notes"])
    if (n.get<std::string>().find("energy not checked: " + why) != std::string::npos) ++noted;
  EXPECT_EQ(noted, 1) << j["notes"].dump();
  // The table's column holds the work-energy balance here, and says so.
  bool balance = false;
  for (const auto& c : j["checks"]) balance = balance || c["kind"] == "work-energy balance";
  const std::string md = slurp(out / "summary.md");
  EXPECT_NE(md.find("| energy drift or balance |"), std::string::npos) << md;
  EXPECT_TRUE(balance) << j["checks"].dump();
  EXPECT_NE(md.find(" (balance) |"), std::string::npos) << md;
  ASSERT_FALSE(j["runs"].empty());
  for (const auto& run : j["runs"]) EXPECT_FALSE(run["energy_checked"].get<bool>()) << run.dump();
  for (const auto& c : j["checks"]) EXPECT_NE(c["kind"], "energy drift") << c.dump();
  // Homogeneous (degree 1, as the Appell-Hamel constraint): energy checked.
  const fs::path cone = dir_ / "cone.toml";
  std::ofstream(cone) << particle_file("cone = \"z_dot - sqrt(x_dot^2 + y_dot^2)\"\n",
                                       "q = [\"0\", \"0.5\", \"0\"]\nqdot = [\"0.6\", \"0.8\", \"1\"]\n");
  const Result cl = nhs({"list", cone.string()});
  ASSERT_EQ(cl.code, 0) << cl.err;
  EXPECT_NE(cl.out.find("energy: a first integral"), std::string::npos) << cl.out;
}

// The report is an extra: when its script fails, one warning line, and the
// exit code is the check's own.
TEST_F(Cli, CheckReportFailureIsOneWarning) {
  const fs::path out = dir_ / "check";
  ASSERT_EQ(setenv("NHS_PYTHON", "/bin/false", 1), 0);
  const Result r = nhs({"check", "skate", "--precision", "double", "--quick", "--states", "4",
                        "--jobs", "1", "--out-dir", out.string()});
  unsetenv("NHS_PYTHON");
  EXPECT_EQ(r.code, 0) << r.err;
  int warnings = 0;
  for (const auto& l : lines(r.err))
    if (l.rfind("nhs: ", 0) == 0) {
      ++warnings;
      EXPECT_EQ(l.rfind("nhs: warning: report not written", 0), 0u) << l;
    }
  EXPECT_EQ(warnings, 1) << r.err;
  EXPECT_FALSE(fs::exists(out / "report.md"));
  EXPECT_TRUE(fs::exists(out / "summary.json"));
  EXPECT_EQ(r.out.find("report.md"), std::string::npos) << r.out;
}

// A --qdot shorter than n on a system whose own singular margins read the
// velocities (the bipendulum's margin_72b reads qdot[1] and qdot[3]): a
// usage error naming the lengths in every precision. The margins were
// evaluated before the shape check, reading outside the vector: exit 2 in
// double by luck, a segmentation fault (139) in mp50 and mp100.
TEST_F(Cli, ShortVelocitiesAreAUsageErrorInEveryPrecision) {
  if (!have_study("bipendulum")) GTEST_SKIP();
  const std::string file = std::string(NHS_SOURCE_DIR) + "/studies/files/bipendulum.toml";
  const std::string q = "0.892,-0.526,-0.591,-0.018";
  for (const char* precision : {"double", "long-double", "float128", "mp50", "mp100"}) {
    expect_error({"accel", "bipendulum", "--q", q, "--qdot", "1", "--precision", precision}, 2,
                 "--qdot has 1 value, study 'bipendulum' has n = 4 (x1, y1, x2, y2)");
    expect_error({"run", "bipendulum", "--q", q, "--qdot", "1,2,3", "--precision", precision}, 2,
                 "--qdot has 3 values");
    expect_error({"accel", file, "--q", q, "--qdot", "1", "--precision", precision}, 2, "--qdot has 1 value");
    expect_error({"accel", "bipendulum", "--q", q, "--z", "1", "--precision", precision}, 2,
                 "--z has 1 value, study 'bipendulum' has m = 3");
  }
}

// Usage errors come before the system is built: the shapes of --q, --qdot
// and --z from the study's names, the run's options from their text. The
// parameters are read just before the build, so a malformed --param that
// is not the error reported shows the order; n-trailer-200 (a minute to
// build in mp50 before) in mp100 answers at once.
TEST_F(Cli, UsageErrorsComeBeforeTheSystemIsBuilt) {
  expect_error({"accel", "skate", "--param", "m=abc", "--q", "0,0", "--qdot", "1,0"}, 2, "--q has 2 values");
  expect_error({"run", "skate", "--param", "m=abc", "--t-end", "ten"}, 2, "--t-end: malformed number 'ten'");
  expect_error({"run", "skate", "--param", "m=abc", "--dt-out", "1e-9"}, 2, "output rows");
  expect_error({"accel", "skate", "--param", "m=abc", "--singular-margin", "-1"}, 2, "--singular-margin");
  expect_error({"accel", "skate", "--param", "m=abc", "--q", "0,0,0", "--qdot", "1,0,0", "--manifold-tol", "x"},
               2, "--manifold-tol");
  if (have_study("n-trailer"))
    expect_error({"accel", "n-trailer-200", "--q", "1,2,3", "--qdot", "1,2,3", "--precision", "mp100"}, 2,
                 "--q has 3 values, study 'n-trailer-200' has n = 203");
}

// An error is one line, and what it echoes is bounded: a 10,000-character
// study name gave a 10,260-character line, a value holding a newline two
// lines.
TEST_F(Cli, ErrorLinesEchoBoundedEscapedText) {
  const Result r = nhs({"accel", std::string(10000, 'a')});
  EXPECT_EQ(r.code, 2);
  const auto err = lines(r.err);
  ASSERT_EQ(err.size(), 1u) << r.err.size();
  EXPECT_LT(err[0].size(), 1000u);
  EXPECT_NE(err[0].find("unknown study 'aaaa"), std::string::npos) << err[0];
  EXPECT_NE(err[0].find("bytes]..."), std::string::npos) << err[0];
  expect_error({"run", "skate", "--max-rhs-calls", "2\n"}, 2, "'2\\n'");
  expect_error({"run", "skate", "--t-end", "1\r\x1b[2J"}, 2, "'1\\r\\x1b[2J'");
}

// --out /dev/full: exit 5 naming the file, and a summary that counts the
// rows written (it said "1 rows (kept)" although none could be).
TEST_F(Cli, RunToAFullDiskNamesTheFileAndCountsNoRow) {
  const Result r = nhs({"run", "skate", "--t-end", "1", "--out", "/dev/full"});
  EXPECT_EQ(r.code, 5) << r.err;
  EXPECT_NE(r.err.find("nhs: error: cannot write the CSV to '/dev/full': No space left on device"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(": 0 rows (kept) to t = 0,"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("1 rows"), std::string::npos) << r.err;
  const Result s = nhs({"run", "skate", "--t-end", "1"}, "/dev/full");
  EXPECT_EQ(s.code, 5) << s.err;
  EXPECT_NE(s.err.find("cannot write the CSV to standard output"), std::string::npos) << s.err;
}

// An output path that is the input file is refused before anything is
// written (run --out FILE overwrote the system file with the CSV), under
// any name of the file; likewise check's outputs and a sweep's.
TEST_F(Cli, OutputsNeverOverwriteTheirInput) {
  const fs::path file = dir_ / "skate.toml";
  fs::copy_file(std::string(NHS_SOURCE_DIR) + "/studies/files/skate.toml", file);
  const std::string text = slurp(file);
  fs::create_symlink(file, dir_ / "link.toml");
  for (const fs::path& out : {file, dir_ / "." / "skate.toml", dir_ / "link.toml"})
    expect_error({"run", file.string(), "--t-end", "1", "--out", out.string()}, 2,
                 "is the input file '" + file.string() + "'");
  EXPECT_EQ(slurp(file), text);
  // check writes summary.md (and removes an older report.md) in its out-dir.
  const fs::path check_dir = dir_ / "check";
  fs::create_directories(check_dir);
  for (const char* name : {"summary.md", "report.md"}) {
    fs::copy_file(file, check_dir / name);
    expect_error({"check", (check_dir / name).string(), "--precision", "double", "--quick", "--no-report",
                  "--out-dir", check_dir.string()},
                 2, "--out-dir '" + (check_dir / name).string() + "' is the input file");
    EXPECT_EQ(slurp(check_dir / name), text) << name;
  }
  // A sweep's spec named as one of its outputs.
  const fs::path sweep_dir = dir_ / "sweep";
  fs::create_directories(sweep_dir);
  fs::copy_file(std::string(NHS_SOURCE_DIR) + "/examples/sweeps/skate-tolerance.toml", sweep_dir / "sweep.json");
  const std::string spec_text = slurp(sweep_dir / "sweep.json");
  expect_error({"sweep", "skate", (sweep_dir / "sweep.json").string(), "--out", sweep_dir.string()}, 2,
               "--out '" + (sweep_dir / "sweep.json").string() + "' is the input file");
  EXPECT_EQ(slurp(sweep_dir / "sweep.json"), spec_text);
}

// The output budget (docs/cli.md, "Output budget"): t_end / dt_out + 1
// rows at most, 10 million unless --max-rows says otherwise; refused at
// once, before the system is built (a run of 5e8 rows was accepted).
TEST_F(Cli, OutputGridsBeyondTheBudgetAreRefused) {
  expect_error({"run", "skate", "--t-end", "0.5", "--dt-out", "1e-9", "--max-rhs-calls", "1"}, 2,
               "5e+08 output rows, more than the budget of 10000000 rows");
  expect_error({"run", "skate", "--t-end", "0.5", "--dt-out", "1e-9", "--max-rhs-calls", "1"}, 2, "--max-rows");
  // The default grid has 101 rows: --max-rows 100 refuses it, 101 runs it.
  expect_error({"run", "skate", "--max-rows", "100"}, 2, "101 output rows, more than the budget of 100 rows");
  const Result r = nhs({"run", "skate", "--max-rows", "101"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(lines(r.out).size(), 102u);  // the header and 101 rows
  expect_error({"run", "skate", "--max-rows", "0"}, 2, "--max-rows: expected a positive integer");
  expect_error({"run", "skate", "--max-rows", "-5"}, 2, "--max-rows: expected a positive integer");
}

// `nhs check` on a file whose [initial] qdot is off C names the bad state
// (exit 3), as run and accel do; it ran every check from it and reported 9
// failures.
TEST_F(Cli, CheckRefusesAnInitialStateOffC) {
  std::string text = slurp(std::string(NHS_SOURCE_DIR) + "/studies/files/skate.toml");
  const std::string z = "z = [\"1\", \"0.5\"]";
  ASSERT_NE(text.find(z), std::string::npos);
  text.replace(text.find(z), z.size(), "qdot = [\"1\", \"0.5\", \"0.5\"]");  // C = -0.5 at theta = 0
  const fs::path file = dir_ / "skate-off-c.toml";
  std::ofstream(file) << text;
  expect_error({"run", file.string()}, 3, "off the constraint manifold");
  const Result r = nhs({"check", file.string(), "--precision", "double", "--quick", "--no-report", "--out-dir",
                        (dir_ / "check").string()});
  EXPECT_EQ(r.code, 3) << r.err;
  const auto err = lines(r.err);
  ASSERT_FALSE(err.empty());
  EXPECT_EQ(err.back().rfind("nhs: error: the file's [initial] state of 'skate-file': state off the constraint "
                             "manifold C: C = (-0.5)",
                             0),
            0u)
      << r.err;
  EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << r.out;
}

// Every file verify and check write is checked: a CSV, summary.md or
// summary.json that cannot be written is exit 5 naming it (a CSV gave exit
// 1 as a failed check, a full disk under summary.md exit 0).
TEST_F(Cli, CheckWriteFailuresExitFiveNamingTheFile) {
  const std::vector<std::string> check = {"check", "skate", "--precision", "double", "--quick", "--states", "2",
                                          "--jobs", "1", "--no-report", "--out-dir"};
  const auto with_dir = [&](const fs::path& d) {
    std::vector<std::string> a = check;
    a.push_back(d.string());
    return a;
  };
  // The error is the last line of stderr (after check's progress lines).
  const auto expect_write_error = [&](const fs::path& d, const std::string& what) {
    const Result r = nhs(with_dir(d));
    EXPECT_EQ(r.code, 5) << r.err;
    const auto err = lines(r.err);
    ASSERT_FALSE(err.empty());
    EXPECT_EQ(err.back().rfind("nhs: error: " + what, 0), 0u) << r.err;
  };
  // A trajectory's CSV that cannot be created (a directory in its place).
  const fs::path a = dir_ / "a";
  const fs::path csv = a / "trajectories" / "skate.second-kind.double.default-state.csv";
  fs::create_directories(csv);
  expect_write_error(a, "cannot write '" + csv.string() + "': Is a directory");
  // A trajectory's CSV on a full disk.
  const fs::path b = dir_ / "b";
  fs::create_directories(b / "trajectories");
  fs::create_symlink("/dev/full", b / "trajectories" / "skate.second-kind.double.default-state.csv");
  expect_write_error(b, "cannot write the CSV to '" + (b / "trajectories" / csv.filename()).string() +
                            "': No space left on device");
  // summary.md and summary.json on a full disk.
  for (const char* name : {"summary.md", "summary.json"}) {
    const fs::path c = dir_ / (std::string("c-") + name);
    fs::create_directories(c);
    fs::create_symlink("/dev/full", c / name);
    expect_write_error(c, "cannot write '" + (c / name).string() + "': No space left on device");
  }
}

// A value that is not a number (a parameter under a square root, sqrt(g + 1)
// at g = -2) is named as such; it was reported as "(overflow)" or "-nan".
TEST_F(Cli, NotANumberIsNotCalledAnOverflow) {
  std::string text = slurp(std::string(NHS_SOURCE_DIR) + "/studies/files/skate.toml");
  const std::size_t at = text.find("\npotential = ");
  ASSERT_NE(at, std::string::npos);
  text.replace(at + 1, text.find('\n', at + 1) - at - 1, "potential = \"sqrt(g + 1)*x\"");
  const fs::path file = dir_ / "skate-sqrt.toml";
  std::ofstream(file) << text;
  ASSERT_EQ(nhs({"accel", file.string()}).code, 0);  // g = 0 by default
  expect_error({"accel", file.string(), "--param", "g=-2"}, 4, "qddot has entries that are not a number (NaN)");
  expect_error({"accel", file.string(), "--param", "g=-2", "--precision", "mp50"}, 4, "not a number (NaN)");
  const Result r = nhs({"run", file.string(), "--param", "g=-2", "--t-end", "1"});
  EXPECT_EQ(r.code, 4) << r.err;
  EXPECT_NE(r.err.find("nhs: error: non-finite value: energy = not a number (NaN) at t = 0"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("overflow"), std::string::npos) << r.err;
}

// A knife edge on a plane (T = m/2 (x_dot^2 + y_dot^2) + I/2 theta_dot^2,
// V = -m g x) with its constraint once, and with it again times -2.5
// (redundant: dC/dqdot of rank 1 < r = 2, consistent; a file with a
// parametrization must have m = n - r, so the redundant one has none).
// Udwadia-Kalaba's pseudoinverse takes the second: at the same state (q,
// qdot), admitted onto C by each file, its accelerations are those of
// every formulation on the first, in double and mp50, and it runs; the
// other formulations refuse it by the rank loss, naming udwadia-kalaba;
// `nhs list` says which takes them. x is cyclic though V depends on it:
// the generalized force -dV/dx = m g does not.
std::string knife_edge_file(bool twice) {
  return std::string("coordinates = [\"x\", \"y\", \"theta\"]\n") +
         (twice ? "" : "quasi_velocities = [\"s\", \"omega\"]\n") +
         "[parameters]\nm = \"1.4\"\nI = \"0.35\"\ng = \"1.7\"\n[dynamics]\n"
         "kinetic_energy = \"m/2*(x_dot^2 + y_dot^2) + I/2*theta_dot^2\"\npotential = \"-m*g*x\"\n"
         "[constraints]\nknife = \"x_dot*sin(theta) - y_dot*cos(theta)\"\n" +
         (twice ? "again = \"-2.5*(x_dot*sin(theta) - y_dot*cos(theta))\"\n"
                : "[parametrization]\nx_dot = \"s*cos(theta)\"\ny_dot = \"s*sin(theta)\"\ntheta_dot = \"omega\"\n"
                  "[chart]\ns = \"x_dot*cos(theta) + y_dot*sin(theta)\"\nomega = \"theta_dot\"\n") +
         "[initial]\nq = [\"0.2\", \"-0.1\", \"0.7\"]\nqdot = [\"0.9942948434698351\", \"0.8374829934089983\", \"-0.4\"]\n";
}

TEST_F(Cli, UdwadiaKalabaTakesRedundantConstraints) {
  const std::string once = (dir_ / "knife-once.toml").string(), twice = (dir_ / "knife-twice.toml").string();
  std::ofstream(once) << knife_edge_file(false);
  std::ofstream(twice) << knife_edge_file(true);
  // 1.3 (cos 0.7, sin 0.7) to 16 digits: off C by about 1e-17, within the
  // admission's reach, and projected onto C by each file alike.
  const std::vector<std::string> state = {"--q", "0.2,-0.1,0.7", "--qdot", "0.9942948434698351,0.8374829934089983,-0.4"};
  const auto at = [&](std::vector<std::string> args) {
    args.insert(args.end(), state.begin(), state.end());
    return args;
  };
  for (const std::string precision : {"double", "mp50"}) {
    const Result uk = nhs(at({"accel", twice, "--formulation", "udwadia-kalaba", "--precision", precision}));
    ASSERT_EQ(uk.code, 0) << uk.err;
    const auto u = nlohmann::json::parse(uk.out);
    EXPECT_FALSE(u.contains("multipliers"));  // not unique with redundant constraints
    const double bound = precision == "double" ? 1e-14 : 1e-45;
    for (const std::string f : {"second-kind", "first-kind", "maggi", "udwadia-kalaba", "lagrange-multipliers"}) {
      const Result r = nhs(at({"accel", once, "--formulation", f, "--precision", precision}));
      ASSERT_EQ(r.code, 0) << f << ": " << r.err;
      const auto j = nlohmann::json::parse(r.out);
      ASSERT_EQ(j["qddot"].size(), 3u);
      for (std::size_t i = 0; i < 3; ++i) {
        const mp50 a = from_string<mp50>(j["qddot"][i].get<std::string>()),
                   b = from_string<mp50>(u["qddot"][i].get<std::string>());
        EXPECT_LE(static_cast<double>(abs(a - b)), bound * (1 + static_cast<double>(abs(a))))
            << f << " " << precision << " qddot[" << i << "]";
      }
    }
  }
  const Result run = nhs({"run", twice, "--formulation", "udwadia-kalaba", "--t-end", "2", "--dt-out", "1"});
  EXPECT_EQ(run.code, 0) << run.err;
  for (const std::string f : {"second-kind", "lagrange-multipliers"})
    expect_error({"accel", twice, "--formulation", f}, 3, "rank loss of dC/dqdot");
  expect_error({"accel", twice, "--formulation", "second-kind"}, 3, "udwadia-kalaba takes them");
  const Result list = nhs({"list", twice});
  ASSERT_EQ(list.code, 0) << list.err;
  EXPECT_NE(list.out.find("udwadia-kalaba     applies, redundant constraints too: dC/dqdot has rank 1 < r = 2"),
            std::string::npos)
      << list.out;
  EXPECT_NE(list.out.find("second-kind        refuses these constraints: dC/dqdot has rank 1 < r = 2"),
            std::string::npos)
      << list.out;
  const Result list_once = nhs({"list", once});
  ASSERT_EQ(list_once.code, 0) << list_once.err;
  EXPECT_EQ(list_once.out.find("redundant"), std::string::npos) << list_once.out;
  EXPECT_NE(list_once.out.find("cyclic coordinates (T, C and the generalized forces -dV/dq + F do not depend on "
                               "them): x, y"),
            std::string::npos)
      << list_once.out;
}

TEST_F(Cli, HelpExitsZero) {
  const Result r = nhs({"run", "--help"});
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("--t-end"), std::string::npos);
}

}  // namespace
}  // namespace nhs
