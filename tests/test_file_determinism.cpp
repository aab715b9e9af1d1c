// ctest-labels: unit cli files
// A system file gives the same bits in every run of the tool. Each run is a
// new process, with its own address-space layout, and GiNaC orders and
// groups the terms of its results by hashes seeded with the addresses of
// its type names. So a program built from GiNaC's derivatives (the velocity
// form of a [holonomic] constraint, T from [[bodies]]) rounded differently
// from run to run: the Whipple bicycle's multipliers changed in their last
// digits between two `nhs accel` calls. Those programs now come from the
// expression graph's own differentiation (nhs/expression.hpp,
// add_derivative_along; systemfile/read_dynamics.cpp, bodies_kinetic_energy).
// Held here: four runs of `nhs run` (traced field) and of `nhs accel
// --library` (the AD path, multipliers included) print the very same bytes,
// for the bicycle (holonomic) and for a file whose T comes from bodies
// alone; and the bodies' T agrees with GiNaC's exact T of the same bodies
// written out by hand, to 1e-40 in mp50.
#include "cli_fixture.hpp"

#include "nhs/scalar.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

using nhs::test::CliProcessTest;

namespace {

const std::string kBicycle = std::string(NHS_SOURCE_DIR) + "/examples/bicycle/whipple-bicycle.toml";

// A skate towing a bar: T only from [[bodies]], with sums and products of
// sines in the positions (GiNaC's derivatives of them had several orders).
const char* const kSled = R"toml(name = "two-body-sled"
title = "a skate towing a bar (T from bodies alone)"
source = "tests/test_file_determinism.cpp"
coordinates = ["x", "y", "a", "b"]

[parameters]
m = { default = "1.3", meaning = "mass" }
I = { default = "0.2", meaning = "inertia" }
l = { default = "0.7", meaning = "length" }
g = { default = "9.81", meaning = "gravity" }

[dynamics]
potential = "g*m*(y + l*sin(a) + l*sin(b))"

[constraints]
C1 = "x_dot*sin(a) - y_dot*cos(a)"

[initial]
q = ["0.1", "0.2", "0.3", "0.4"]
qdot = ["cos(0.3)", "sin(0.3)", "0.5", "-0.7"]

[[bodies]]
mass = "m"
position = ["x", "y"]
angular_velocity = "a_dot"
inertia = "I"

[[bodies]]
mass = "m/3"
position = ["x + l*cos(a) + l*cos(b)*cos(a) - 2*l*sin(b)*sin(a)/3", "y + l*sin(a) + l*sin(b)^2*cos(a)"]
angular_velocity = "b_dot + a_dot"
inertia = "I/2"
)toml";

// The same system with T written out (the derivatives of the positions by
// hand), for the comparison of the two T.
const char* const kSledT =
    "m/2*(x_dot^2 + y_dot^2) + I/2*a_dot^2"
    " + m/6*((x_dot - l*sin(a)*a_dot - l*(sin(b)*b_dot*cos(a) + cos(b)*sin(a)*a_dot)"
    " - 2*l/3*(cos(b)*b_dot*sin(a) + sin(b)*cos(a)*a_dot))^2"
    " + (y_dot + l*cos(a)*a_dot + l*(2*sin(b)*cos(b)*b_dot*cos(a) - sin(b)^2*sin(a)*a_dot))^2)"
    " + I/4*(b_dot + a_dot)^2";

class FileDeterminism : public CliProcessTest {
 protected:
  std::string write(const std::string& name, const std::string& text) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }
  std::string slurp_file(const std::string& path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), {});
  }
  // The bytes of four runs of `nhs args` (the CSV of `--out` where given).
  std::vector<std::string> four_runs(std::vector<std::string> args, bool csv) {
    std::vector<std::string> out;
    const std::string file = (dir_ / "run.csv").string();
    if (csv) args.insert(args.end(), {"--out", file});
    for (int k = 0; k < 4; ++k) {
      const auto r = nhs(args);
      EXPECT_EQ(r.code, 0) << r.err;
      out.push_back(csv ? slurp_file(file) : r.out);
    }
    return out;
  }
};

TEST_F(FileDeterminism, EveryRunPrintsTheSameBits) {
  const std::string sled = write("sled.toml", kSled);
  for (const std::string& file : {kBicycle, sled}) {
    for (const auto& [args, csv] : std::vector<std::pair<std::vector<std::string>, bool>>{
             {{"run", file, "--t-end", "0.5", "--dt-out", "0.25"}, true},
             {{"accel", file, "--library"}, false},
             {{"accel", file, "--library", "--precision", "mp50"}, false}}) {
      const std::vector<std::string> runs = four_runs(args, csv);
      ASSERT_FALSE(runs[0].empty()) << file;
      for (std::size_t k = 1; k < runs.size(); ++k)
        EXPECT_EQ(runs[k], runs[0]) << file << " " << args[0] << (csv ? "" : " " + args.back()) << ": run " << k + 1
                                    << " differs from run 1";
    }
  }
}

TEST_F(FileDeterminism, BodiesTIsTheHandWrittenT) {
  const std::string bodies = write("sled.toml", kSled);
  std::string text = kSled;
  text.replace(text.find("[dynamics]\n"), 11, std::string("[dynamics]\nkinetic_energy = \"") + kSledT + "\"\n");
  const std::string written = write("sled_T.toml", text);  // with bodies: the loader checks they agree
  const auto at = [&](const std::string& file) {
    const auto r = nhs({"accel", file, "--library", "--precision", "mp50", "--formulation", "lagrange-multipliers"});
    EXPECT_EQ(r.code, 0) << r.err;
    return r.code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json{};
  };
  const nlohmann::json a = at(bodies), b = at(written);
  ASSERT_TRUE(a.contains("qddot") && b.contains("qddot"));
  ASSERT_EQ(a["qddot"].size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    const nhs::mp50 x = nhs::from_string<nhs::mp50>(a["qddot"][i].get<std::string>());
    const nhs::mp50 y = nhs::from_string<nhs::mp50>(b["qddot"][i].get<std::string>());
    EXPECT_LE(abs(x - y), nhs::mp50("1e-40") * (1 + abs(y))) << "qddot[" << i << "]";
  }
}

}  // namespace
