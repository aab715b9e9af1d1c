// ctest-labels: unit files asan
// A fuzz test of the system-file loader (nhs/studies/system_file.hpp):
// 10,000 files per seed (NHS_FUZZ_CASES changes the count). The quick
// suite's SystemFileFuzz.FixedSeeds replays the committed seeds
// (kFixedSeeds); SystemFileFuzzRandomSeed.NewSeed draws a new one on every
// run (labels fuzz and slow by its name, tests/CMakeLists.txt; NHS_FUZZ_SEED
// replays one). The seed is printed with every failure. The files are:
// (a) mutations of valid files (studies/files/skate.toml and the small
// files below): lines deleted, duplicated, swapped; characters flipped,
// inserted (quotes, brackets, '=', '^', '(', digits, '.', 'e', UTF-8 and
// broken UTF-8, NUL), deleted; numbers replaced by huge, tiny and malformed
// ones; names replaced by unknown or reserved ones; the file truncated;
// (b) random files built from the keys of docs/system-files.md with random
// expressions from the grammar of nhs/expression.hpp ([[bodies]] without
// kinetic_energy, so that T comes from them, and [singular] included).
// The contract: load_system_file gives a loaded system, a FileError whose
// what() starts with the path ("path:line:column: " for TOML syntax and
// expression errors) or an IoError; never a crash, a hang (a watchdog
// aborts with the file after kHangSeconds), or another exception type. A
// loaded file must then build in double, give its default state and one
// second-kind acceleration, or throw one of the library's exceptions.
#include "nhs/errors.hpp"
#include "nhs/formulation.hpp"
#include "nhs/studies/system_file.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#ifndef NHS_SOURCE_DIR
#error "NHS_SOURCE_DIR must name the source tree (tests/CMakeLists.txt)"
#endif

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// The quick suite's seeds; add the seed of every defect a random run finds.
constexpr std::uint64_t kFixedSeeds[] = {20260611ULL};
// The sanitized (-O0) build runs a fifth of them (scripts/test.sh's asan subset).
#if defined(__SANITIZE_ADDRESS__)
constexpr int kDefaultCases = 2000;
#else
constexpr int kDefaultCases = 10000;
#endif
// A hang, not a slow file: the slowest file of a run is printed, and takes
// about a second; minutes of a single load would be a defect however
// loaded the machine is.
constexpr double kHangSeconds = 600;

// --- seed files ------------------------------------------------------------------

const char* const kKnife = R"TOML(# knife edge on the plane
coordinates = ["x", "y", "phi"]

[parameters]
m = "1"
J = "0.25"

[dynamics]
kinetic_energy = "m/2*(x_dot^2 + y_dot^2) + J/2*phi_dot^2"

[constraints]
knife = "-x_dot*sin(phi) + y_dot*cos(phi)"

[initial]
q = ["0", "0", "0.3"]
qdot = ["cos(0.3)", "sin(0.3)", "0.7"]
)TOML";

const char* const kNonlinear = R"TOML(name = "cone"
title = "a point whose speed is bound to its climb: a constraint quadratic in qdot"
coordinates = ["x", "y", "z"]

[parameters]
m = { default = "2", meaning = "mass" }
k = "0.5"
g = "9.81"

[dynamics]
kinetic_energy = "m/2*(x_dot^2 + y_dot^2 + z_dot^2)"
potential = "m*g*z"

[constraints]
cone = "z_dot^2 - k^2*(x_dot^2 + y_dot^2)"

[initial]
q = ["0", "0", "1"]
qdot = ["1", "0", "k"]

[invariants]
height = "z"
)TOML";

const char* const kForces = R"TOML(name = "damped-knife"
title = "knife edge with damping, psi, chart, a body and invariants"
source = "fuzz seed"
coordinates = ["x", "y", "phi"]
quasi_velocities = ["v", "w"]
dependent_velocities = ["y"]

[parameters]
m = "1.5"
J = "0.2"
c = { default = "0.1", meaning = "damping" }

[dynamics]
kinetic_energy = "m/2*(x_dot^2 + y_dot^2) + J/2*phi_dot^2"
potential = "0*x"
forces = { x = "-c*x_dot", y = "-c*y_dot", phi = "-c*phi_dot^3" }

[constraints]
C = "y_dot*cos(phi) - x_dot*sin(phi)"

[parametrization]
x_dot = "v*cos(phi)"
y_dot = "v*sin(phi)"
phi_dot = "w"

[chart]
v = "x_dot*cos(phi) + y_dot*sin(phi)"
w = "phi_dot"

[initial]
q = ["1", "-1", "pi/4"]
z = ["2", "-0.5"]

[[bodies]]
mass = "m"
position = ["x", "y"]
angular_velocity = "phi_dot"
inertia = "J"

[invariants]
heading = "atan2(sin(phi), cos(phi))"
speed = "sqrt(x_dot^2 + y_dot^2)"
)TOML";

const char* const kSpace = R"TOML(name = "heisenberg"
coordinates = ["x", "y", "z", "a"]

[parameters]
m = "1"
J = "0.3"

[dynamics]
kinetic_energy = "m/2*(x_dot^2 + y_dot^2 + z_dot^2) + J/2*a_dot^2"

[constraints]
C = "z_dot - x*y_dot + y*x_dot"

[initial]
q = ["0", "0", "0", "0"]
qdot = ["1", "0", "0", "0.5"]

[[bodies]]
mass = "m"
position = ["x", "y", "z"]
angular_velocity = ["0", "0", "a_dot"]
inertia = [["J", "0", "0"], ["0", "J", "0"], ["0", "0", "J"]]

[[exact]]
name = "straight line"
parameters = { m = "2" }
t_end = "5"
q = ["t", "0", "0", "t/2"]
qdot = ["1", "0", "0", "1/2"]
)TOML";

// T from the bodies alone (no kinetic_energy), and singular sets.
const char* const kBodiesOnly = R"TOML(name = "sleigh-bodies"
coordinates = ["x", "y", "theta"]

[parameters]
m = "2"
I = "0.3"
a = "0.25"

[dynamics]
potential = "0.5*x^2"

[constraints]
blade = "-x_dot*sin(theta) + y_dot*cos(theta) - a*theta_dot"

[initial]
q = ["0.5", "0", "0.3"]
qdot = ["cos(0.3)", "sin(0.3)", "0"]

[[bodies]]
mass = "m"
position = ["x + a*cos(theta)", "y + a*sin(theta)"]
angular_velocity = "theta_dot"
inertia = "I"

[[bodies]]
mass = "m/10"
position = ["x", "y", "abs(sin(theta))/3"]

[singular]
x_axis = "x"
heading = { margin = "cos(theta)", meaning = "heading across the y axis" }
)TOML";

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// --- the generator ---------------------------------------------------------------

const std::vector<std::string> kHostileNumbers = {
    "1e999999", "1e-999999", "0/0", "--1", "1e10000", "1e-10000", "1e10001", "1e308", "1e309",
    "1e-400", "0", "0.0", "-0", ".5", "5.", "1.2.3", "1e", "e1", "1e+", "0x10", "inf", "nan",
    "1_000", "+1", "99999999999999999999999999", "(1/0)", "1/3", "0^-1", "(-1)^0.5", "sqrt(-1)",
    "log(0)", "1e5000*1e5000", "x/(x-x)", "2^1e10000", "9^9^9", "1e-5000^-3", "0.1e-3", "00012",
    "1e+0009", "-", "", " ", "1 2", "1,5", "(1", "1)", "1e10000^1e10000"};

const std::vector<std::string> kHostileNames = {
    "zz", "q_dot", "x_dot_dot", "pi", "t", "sin", "exp", "atan2", "I", "m", "theta", "_", "_dot",
    "x", "x_dot", "s", "omega", "name", "C1", "\xc3\xa9", "a b", "1x", "", "dynamics", "initial",
    std::string(300, 'a')};

const std::vector<std::string> kInsertions = {
    "\"", "'", "[", "]", "{", "}", "=", "^", "(", ")", ",", ".", "e", "E", "0", "9", "-", "+",
    "*", "/", "#", "\n", "\t", " ", "\\", "\\u", "\\U0001F600", "\xc3\xa9", "\xe2\x88\x9a",
    "\xff", "\xc3", "\x80", "\xf0\x9f\x98\x80", std::string(1, '\0'), "\r", "[[", "]]",
    "\"\"\"", "'''", "^^", "()", "sin(", "1e999", "x_dot", "[dynamics]\n", "[[bodies]]\n",
    "\n[initial]\n", "= \"x\"\n", "\n[singular]\n", "margin = "};

const std::vector<std::string> kFunctions = {"sin",  "cos",   "tan",   "asin",  "acos", "atan",
                                             "atan2", "sinh", "cosh",  "tanh",  "asinh", "acosh",
                                             "atanh", "exp",  "log",   "sqrt",  "abs",  "pow",
                                             "foo",   "Sin"};

class Generator {
 public:
  Generator(std::uint64_t seed, const std::vector<std::string>& seeds) : rng_(seed), seeds_(seeds) {}

  /// One file's text and a short description of how it was made.
  std::pair<std::string, std::string> next() {
    if (chance(0.6)) {
      const std::size_t k = static_cast<std::size_t>(pick(static_cast<int>(seeds_.size())));
      std::string text = seeds_[k];
      std::string how = "mutation of seed " + std::to_string(k) + ":";
      const int count = 1 + pick(4);
      for (int i = 0; i < count; ++i) how += " " + mutate(text);
      return {text, how};
    }
    std::string text = random_file();
    std::string how = "random file";
    if (chance(0.3)) how += ", then " + mutate(text);
    return {text, how};
  }

 private:
  int pick(int n) { return n <= 0 ? 0 : std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  template <class V>
  const auto& one_of(const V& v) {
    return v[static_cast<std::size_t>(pick(static_cast<int>(v.size())))];
  }
  std::size_t position(const std::string& s) {
    return static_cast<std::size_t>(pick(static_cast<int>(s.size()) + 1));
  }

  static std::vector<std::string> lines(const std::string& s) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
      cur += c;
      if (c == '\n') out.push_back(std::move(cur)), cur.clear();
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
  }
  static std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += x;
    return s;
  }
  // [begin, end) of every match of `re` in s.
  static std::vector<std::pair<std::size_t, std::size_t>> matches(const std::string& s,
                                                                   const std::regex& re) {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    for (auto it = std::sregex_iterator(s.begin(), s.end(), re); it != std::sregex_iterator(); ++it)
      out.emplace_back(static_cast<std::size_t>(it->position()),
                       static_cast<std::size_t>(it->position() + it->length()));
    return out;
  }

  /// Applies one mutation to `s`; returns its name.
  std::string mutate(std::string& s) {
    static const std::regex number_re(R"([0-9]+(\.[0-9]*)?([eE][+-]?[0-9]+)?)");
    static const std::regex name_re(R"([A-Za-z_][A-Za-z0-9_]*)");
    static const std::regex string_re(R"("[^"\n]*")");
    switch (pick(12)) {
      case 0: {  // delete a line
        auto l = lines(s);
        if (!l.empty()) l.erase(l.begin() + pick(static_cast<int>(l.size())));
        s = joined(l);
        return "delete-line";
      }
      case 1: {  // duplicate a line
        auto l = lines(s);
        if (!l.empty()) {
          const int i = pick(static_cast<int>(l.size()));
          l.insert(l.begin() + i, l[static_cast<std::size_t>(i)]);
        }
        s = joined(l);
        return "duplicate-line";
      }
      case 2: {  // swap two lines
        auto l = lines(s);
        if (l.size() > 1)
          std::swap(l[static_cast<std::size_t>(pick(static_cast<int>(l.size())))],
                    l[static_cast<std::size_t>(pick(static_cast<int>(l.size())))]);
        s = joined(l);
        return "swap-lines";
      }
      case 3: {  // flip a byte
        if (!s.empty())
          s[static_cast<std::size_t>(pick(static_cast<int>(s.size())))] = static_cast<char>(pick(256));
        return "flip-byte";
      }
      case 4:
      case 5: {  // insert a character or token
        s.insert(position(s), one_of(kInsertions));
        return "insert";
      }
      case 6: {  // delete characters
        if (!s.empty()) {
          const std::size_t at = static_cast<std::size_t>(pick(static_cast<int>(s.size())));
          s.erase(at, static_cast<std::size_t>(1 + pick(3)));
        }
        return "delete-chars";
      }
      case 7:
      case 8: {  // replace a number
        const auto m = matches(s, number_re);
        if (m.empty()) return "replace-number(none)";
        const auto [b, e] = one_of(m);
        s.replace(b, e - b, one_of(kHostileNumbers));
        return "replace-number";
      }
      case 9: {  // replace a name
        const auto m = matches(s, name_re);
        if (m.empty()) return "replace-name(none)";
        const auto [b, e] = one_of(m);
        s.replace(b, e - b, one_of(kHostileNames));
        return "replace-name";
      }
      case 10: {  // replace a string's content by a random expression
        const auto m = matches(s, string_re);
        if (m.empty()) return "replace-string(none)";
        const auto [b, e] = one_of(m);
        std::vector<std::string> names = {"x", "y", "z", "theta", "phi", "x_dot", "y_dot",
                                          "theta_dot", "phi_dot", "m", "I", "g", "t", "pi", "s"};
        s.replace(b + 1, e - b - 2, expression(names, 4));
        return "replace-string";
      }
      default: {  // truncate
        s.resize(position(s));
        return "truncate";
      }
    }
  }

  std::string number() {
    if (chance(0.1)) return one_of(kHostileNumbers);
    switch (pick(5)) {
      case 0: return std::to_string(pick(10));
      case 1: return std::to_string(pick(100)) + "." + std::to_string(pick(1000));
      case 2: return "0." + std::to_string(1 + pick(99));
      case 3: return std::to_string(1 + pick(9)) + "e" + std::to_string(pick(41) - 20);
      default: return std::to_string(1 + pick(5));
    }
  }

  // A random expression of the grammar over `names` (and now and then an
  // unknown name, a wrong call or a syntax slip).
  std::string expression(const std::vector<std::string>& names, int depth) {
    if (depth <= 0 || chance(0.25)) {
      if (chance(0.03)) return one_of(kHostileNames);
      if (chance(0.02)) return one_of(std::vector<std::string>{"", "(", ")", "x +", "* y", "1..2", "^2"});
      if (names.empty() || chance(0.35)) return number();
      return one_of(names);
    }
    switch (pick(9)) {
      case 0: return "-" + expression(names, depth - 1);
      case 1: return "(" + expression(names, depth - 1) + ")";
      case 2: return expression(names, depth - 1) + " + " + expression(names, depth - 1);
      case 3: return expression(names, depth - 1) + " - " + expression(names, depth - 1);
      case 4: return expression(names, depth - 1) + "*" + expression(names, depth - 1);
      case 5: return expression(names, depth - 1) + "/" + expression(names, depth - 1);
      case 6: {
        const std::string e = chance(0.7) ? std::to_string(pick(5)) : expression(names, depth - 1);
        return expression(names, depth - 1) + "^" + e;
      }
      default: {
        const std::string f = one_of(kFunctions);
        const bool two = f == "atan2" || f == "pow";
        int args = two ? 2 : 1;
        if (chance(0.05)) args = pick(4);
        std::string s = f + "(";
        for (int i = 0; i < args; ++i) s += (i ? ", " : "") + expression(names, depth - 1);
        return s + ")";
      }
    }
  }

  static std::string quoted(const std::string& s) { return "\"" + s + "\""; }
  std::string array(const std::vector<std::string>& items) {
    std::string s = "[";
    for (std::size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + quoted(items[i]);
    return s + "]";
  }
  // A value of a wrong TOML type, now and then.
  std::string odd_value() {
    return one_of(std::vector<std::string>{"1", "1.5", "true", "[]", "{}", "[1, 2]",
                                           "1979-05-27", "\"\"", "[\"x\", 1]", "{ a = 1 }",
                                           "[[\"1\"]]", "\"\"\"x\ny\"\"\"", "'x_dot'", "nan", "inf"});
  }
  std::string value_or_odd(const std::string& v) { return chance(0.03) ? odd_value() : v; }

  std::string random_file() {
    static const std::vector<std::string> pool = {"x", "y", "z", "theta", "phi", "a", "b", "r",
                                                  "psi", "u", "q1", "q2", "_w"};
    const int n = 1 + pick(4);
    std::vector<std::string> q;
    while (static_cast<int>(q.size()) < n) {
      std::string c = chance(0.02) ? one_of(kHostileNames) : one_of(pool);
      if (chance(0.95) && std::find(q.begin(), q.end(), c) != q.end()) continue;
      q.push_back(c);
    }
    std::vector<std::string> qd;
    for (const auto& c : q) qd.push_back(c + "_dot");
    int r = chance(0.9) ? 1 + pick(std::max(1, n - 1)) : pick(n + 2);
    const bool with_psi = chance(0.35);
    std::vector<std::string> z;
    for (int a = 0; a < (with_psi ? std::max(0, n - r + (chance(0.1) ? 1 : 0)) : 0); ++a)
      z.push_back("z" + std::to_string(a + 1));
    std::vector<std::string> params;
    const int np = pick(4);
    for (int k = 0; k < np; ++k) params.push_back(std::string(1, "mkcgJ"[k]) + (chance(0.1) ? "x" : ""));

    std::vector<std::string> qp = q, qqd = q;
    qp.insert(qp.end(), params.begin(), params.end());
    qqd.insert(qqd.end(), qd.begin(), qd.end());
    qqd.insert(qqd.end(), params.begin(), params.end());
    std::vector<std::string> qz = qp;
    qz.insert(qz.end(), z.begin(), z.end());

    std::ostringstream f;
    if (chance(0.5)) f << "name = " << value_or_odd(quoted(one_of(std::vector<std::string>{"fz", "a-b", "a b", "", "x/y"}))) << "\n";
    if (chance(0.3)) f << "title = \"random\"\n";
    if (chance(0.02)) f << "unknown_key = 1\n";
    f << "coordinates = " << value_or_odd(array(q)) << "\n";
    if (!z.empty() || chance(0.05)) f << "quasi_velocities = " << value_or_odd(array(z)) << "\n";
    if (chance(0.2)) {
      std::vector<std::string> dep;
      for (int a = 0; a < r; ++a) dep.push_back(chance(0.9) ? q[static_cast<std::size_t>(pick(n))] : "nope");
      f << "dependent_velocities = " << value_or_odd(array(dep)) << "\n";
    }
    if (!params.empty() || chance(0.1)) {
      f << "\n[parameters]\n";
      for (const auto& p : params) {
        if (chance(0.5))
          f << p << " = " << value_or_odd(quoted(chance(0.9) ? std::to_string(1 + pick(3)) : number())) << "\n";
        else
          f << p << " = { default = " << value_or_odd(quoted(number())) << ", meaning = \"m\""
            << (chance(0.03) ? ", extra = 1" : "") << " }\n";
      }
    }
    // Bodies (below) decided here: with bodies, T is left to them half the time.
    const int bodies = chance(0.2) ? 1 + pick(2) : 0;
    const bool T_from_bodies = bodies > 0 && chance(0.5);
    if (chance(0.95)) {
      f << "\n[dynamics]\n";
      std::string T;
      for (std::size_t i = 0; i < q.size(); ++i)
        T += (i ? " + " : "") + (params.empty() ? std::string("1") : params[0]) + "/2*" + qd[i] + "^2";
      if (chance(0.3)) T += " + " + expression(qqd, 2) + "*" + one_of(qd) + "^2";
      if (chance(0.1)) T = expression(qqd, 4);
      if (!T_from_bodies && chance(0.97)) f << "kinetic_energy = " << value_or_odd(quoted(T)) << "\n";
      if (chance(0.5)) f << "potential = " << value_or_odd(quoted(expression(qp, 3))) << "\n";
      if (chance(0.3)) {
        f << "forces = {";
        for (std::size_t i = 0; i < q.size(); ++i)
          if (chance(0.7)) f << (i ? ", " : " ") << (chance(0.97) ? q[i] : "nope") << " = " << value_or_odd(quoted(expression(qqd, 3)));
        f << " }\n";
      }
    }
    f << "\n[constraints]\n";
    for (int a = 0; a < r; ++a) {
      std::string C;
      if (chance(0.6)) {
        for (std::size_t i = 0; i < q.size(); ++i)
          if (chance(0.7)) C += (C.empty() ? "" : " + ") + expression(qp, 2) + "*" + qd[i];
        if (C.empty()) C = qd[0];
      } else {
        C = expression(qqd, 4);
      }
      f << "C" << a + 1 << " = " << value_or_odd(quoted(C)) << "\n";
    }
    if (with_psi) {
      f << "\n[parametrization]\n";
      for (std::size_t i = 0; i < q.size(); ++i)
        if (chance(0.97)) f << qd[i] << " = " << value_or_odd(quoted(expression(qz, 3))) << "\n";
      if (chance(0.95)) {
        f << "\n[chart]\n";
        for (const auto& za : z)
          if (chance(0.97)) f << za << " = " << value_or_odd(quoted(expression(qqd, 3))) << "\n";
      }
    }
    if (chance(0.97)) {
      f << "\n[initial]\n";
      std::vector<std::string> q0;
      for (int i = 0; i < n + (chance(0.03) ? 1 : 0); ++i) q0.push_back(chance(0.8) ? number() : expression(params, 2));
      f << "q = " << value_or_odd(array(q0)) << "\n";
      if (with_psi && chance(0.8)) {
        std::vector<std::string> z0;
        for (std::size_t a = 0; a < z.size(); ++a) z0.push_back(number());
        f << "z = " << value_or_odd(array(z0)) << "\n";
      } else {
        std::vector<std::string> v0;
        for (int i = 0; i < n; ++i) v0.push_back(chance(0.8) ? number() : expression(params, 2));
        f << "qdot = " << value_or_odd(array(v0)) << "\n";
      }
    }
    for (int b = 0; b < bodies; ++b) {
      f << "\n[[bodies]]\nmass = " << value_or_odd(quoted(params.empty() ? number() : params[0])) << "\n";
      const bool space = chance(0.4);
      std::vector<std::string> pos;
      for (int i = 0; i < (space ? 3 : 2); ++i) pos.push_back(chance(0.5) ? one_of(q) : expression(qp, 2));
      f << "position = " << value_or_odd(array(pos)) << "\n";
      if (chance(0.5)) {
        if (space) {
          f << "angular_velocity = " << array({"0", "0", expression(qqd, 1)}) << "\n";
          f << "inertia = [" << array({"1", "0", "0"}) << ", " << array({"0", "1", "0"}) << ", "
            << array({"0", "0", expression(qp, 1)}) << "]\n";
        } else {
          f << "angular_velocity = " << quoted(one_of(qd)) << "\n";
          if (chance(0.95)) f << "inertia = " << quoted(number()) << "\n";
        }
      }
    }
    if (chance(0.2)) {
      f << "\n[invariants]\n";
      for (int k = 0; k < 1 + pick(3); ++k) f << "I" << k << " = " << value_or_odd(quoted(expression(qqd, 3))) << "\n";
    }
    if (chance(0.2)) {
      f << "\n[singular]\n";
      for (int k = 0; k < 1 + pick(3); ++k) {
        const std::string key = chance(0.95) ? "S" + std::to_string(k) : one_of(kHostileNames);
        if (chance(0.5))
          f << key << " = " << value_or_odd(quoted(expression(qqd, 3))) << "\n";
        else
          f << key << " = { margin = " << value_or_odd(quoted(expression(qqd, 3)))
            << (chance(0.7) ? ", meaning = \"m\"" : "") << (chance(0.03) ? ", extra = 1" : "") << " }\n";
      }
    }
    if (chance(0.1)) {
      f << "\n[[exact]]\nname = \"e\"\n";
      if (!params.empty() && chance(0.5)) f << "parameters = { " << one_of(params) << " = " << quoted(number()) << " }\n";
      f << "t_end = " << value_or_odd(quoted(number())) << "\n";
      std::vector<std::string> qt;
      for (int i = 0; i < n; ++i) qt.push_back(expression({"t"}, 2));
      f << "q = " << array(qt) << "\n";
    }
    return f.str();
  }

  std::mt19937_64 rng_;
  const std::vector<std::string>& seeds_;
};

// --- classification ----------------------------------------------------------------

// The file's bytes, printable (non-ASCII and control bytes as \xNN).
std::string printable(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (c == '\n' || (c >= 0x20 && c < 0x7f)) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

// A FileError that comes from TOML syntax or from an expression: these must
// give "path:line:column".
bool needs_position(const std::string& reason) {
  static const std::vector<std::string> markers = {
      "TOML syntax",          "unknown name '",   "unknown function '",
      "nested deeper than",   "empty expression", "expected a number, a name or '('",
      "(expected an operator or the end)", "division by zero", "undefined value",
      "cannot be evaluated symbolically", "of a constant ", "negative constant to a", "0 to a",
      "out of range"};
  for (const auto& m : markers)
    if (reason.find(m) != std::string::npos) return true;
  return false;
}

// Empty when the FileError has the documented form; otherwise what is wrong.
std::string check_file_error(const nhs::FileError& e, const std::string& path) {
  const std::string what = e.what();
  if (what.rfind(path, 0) != 0) return "what() does not start with the path";
  if (what != e.where + ": " + e.reason) return "what() is not where + \": \" + reason";
  if (e.where == path) {
    if (needs_position(e.reason)) return "no line:column for a syntax or expression error";
    return {};
  }
  static const std::regex position_re(R"(:([0-9]+):([0-9]+))");
  std::smatch m;
  const std::string tail = e.where.substr(std::min(path.size(), e.where.size()));
  if (e.where.rfind(path, 0) != 0 || !std::regex_match(tail, m, position_re))
    return "where is neither the path nor path:line:column";
  if (needs_position(e.reason) && (std::stol(m[1]) < 1 || std::stol(m[2]) < 1))
    return "line or column below 1";
  return {};
}

enum Outcome { Loaded, FileErr, IoErr, kOutcomes };
enum Phase { StudyThrew, BuildThrew, StateThrew, AccelThrew, AccelOk, kPhases };

// Watches the case in progress; aborts with its text after kHangSeconds.
class Watchdog {
 public:
  Watchdog() : thread_([this] { run(); }) {}
  ~Watchdog() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  void start(const std::string& label, const std::string& text) {
    const std::lock_guard<std::mutex> lock(mutex_);
    label_ = label;
    text_ = text;
    started_ = Clock::now();
    active_ = true;
  }
  void done() {
    const std::lock_guard<std::mutex> lock(mutex_);
    active_ = false;
  }

 private:
  void run() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stop_) {
      cv_.wait_for(lock, std::chrono::milliseconds(200));
      if (active_ && std::chrono::duration<double>(Clock::now() - started_).count() > kHangSeconds) {
        std::fprintf(stderr, "system-file fuzz: %s did not finish within %.0f s (a hang); the file:\n%s\n",
                     label_.c_str(), kHangSeconds, printable(text_).c_str());
        std::fflush(stderr);
        std::abort();
      }
    }
  }
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false, active_ = false;
  std::string label_, text_;
  Clock::time_point started_;
  std::thread thread_;
};

// Loads `cases` files of `seed`: every one loads or fails with a FileError
// or IoError (at most 20 failures shown, each with its case and seed).
void fuzz_files(std::uint64_t seed, int cases) {
  std::printf("system-file fuzz: seed %llu, %d cases (NHS_FUZZ_SEED=%llu replays it)\n",
              static_cast<unsigned long long>(seed), cases, static_cast<unsigned long long>(seed));
  std::fflush(stdout);

  std::vector<std::string> seeds = {read_text(fs::path(NHS_SOURCE_DIR) / "studies/files/skate.toml"),
                                    kKnife, kNonlinear, kForces, kSpace, kBodiesOnly};
  ASSERT_FALSE(seeds[0].empty()) << "cannot read studies/files/skate.toml under " << NHS_SOURCE_DIR;

  const fs::path dir = fs::temp_directory_path() / ("nhs_fuzz_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  struct Cleanup {
    fs::path dir;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } cleanup{dir};

  // The seeds themselves must load (else the mutations test little).
  for (std::size_t k = 0; k < seeds.size(); ++k) {
    const fs::path p = dir / ("seed_" + std::to_string(k) + ".toml");
    std::ofstream(p, std::ios::binary) << seeds[k];
    try {
      (void)nhs::load_system_file(p.string());
    } catch (const std::exception& e) {
      ADD_FAILURE() << "seed file " << k << " does not load: " << e.what();
    }
  }

  const nhs::Formulation<double>* second_kind = nullptr;
  for (const auto& f : nhs::formulations<double>())
    if (f->name() == "second-kind") second_kind = f.get();
  ASSERT_NE(second_kind, nullptr);

  int outcomes[kOutcomes] = {};
  int phases[kPhases] = {};
  int malformed_in_double = 0, failures = 0;
  std::string malformed_example;
  double load_seconds[kOutcomes] = {}, after_seconds = 0, slowest = 0;
  std::string slowest_label;
  Watchdog watchdog;
  const auto t0 = Clock::now();
  const std::string seed_text = "NHS_FUZZ_SEED=" + std::to_string(seed);

  for (int k = 0; k < cases; ++k) {
    Generator gen(seed * 1000003ULL + static_cast<std::uint64_t>(k), seeds);
    auto [text, how] = gen.next();
    std::string path = (dir / ("case_" + std::to_string(k) + ".toml")).string();
    // Now and then a file that cannot be read.
    if (k % 997 == 5) path = (dir / "no_such_dir" / "missing.toml").string();
    if (k % 997 == 11) path = dir.string();
    else std::ofstream(path, std::ios::binary) << text;
    const std::string label = "case " + std::to_string(k) + " (" + how + ", " + seed_text + ")";
    const auto fail = [&](const std::string& why) {
      ++failures;
      ADD_FAILURE() << label << ": " << why << "\nthe file " << path << ":\n" << printable(text);
    };

    watchdog.start(label, text);
    const auto c0 = Clock::now();
    std::shared_ptr<const nhs::SystemFile> file;
    Outcome o = kOutcomes;
    try {
      file = nhs::load_system_file(path);
      o = Loaded;
    } catch (const nhs::FileError& e) {
      o = FileErr;
      if (const std::string why = check_file_error(e, path); !why.empty())
        fail("FileError " + why + ": " + e.what());
    } catch (const nhs::IoError&) {
      o = IoErr;
    } catch (const std::exception& e) {
      fail(std::string("load_system_file threw a ") + typeid(e).name() + " (not FileError or IoError): " + e.what());
    } catch (...) {
      fail("load_system_file threw a non-standard exception");
    }
    const auto c1 = Clock::now();
    if (o != kOutcomes) {
      ++outcomes[o];
      load_seconds[o] += std::chrono::duration<double>(c1 - c0).count();
    }
    if (file) {
      Phase phase = StudyThrew;
      try {
        const nhs::Study<double> st = nhs::file_study<double>(file);
        phase = BuildThrew;
        const nhs::System<double> sys = st.build(st.default_parameters());
        phase = StateThrew;
        const nhs::State<double> s0 = st.default_state(sys);
        phase = AccelThrew;
        second_kind->require_applicable(sys);
        (void)second_kind->acceleration(sys, s0.q, s0.qdot);
        phase = AccelOk;
      } catch (const nhs::UsageError&) {
      } catch (const nhs::InvalidState&) {
      } catch (const nhs::NonFiniteValue&) {
      } catch (const nhs::IntegrationFailure&) {
      } catch (const nhs::MalformedNumber& e) {
        // A literal finite in 50 digits but not in double (e.g. "1e400"):
        // the command line reports it as a usage error (exit 2).
        if (malformed_in_double++ == 0)
          malformed_example = "phase " + std::to_string(phase) + ", " + label + ": " + e.what();
      } catch (const std::exception& e) {
        fail(std::string("a loaded file's double study threw a ") + typeid(e).name() + ": " + e.what());
      } catch (...) {
        fail("a loaded file's double study threw a non-standard exception");
      }
      ++phases[phase];
    }
    watchdog.done();
    const double seconds = std::chrono::duration<double>(Clock::now() - c0).count();
    after_seconds += std::chrono::duration<double>(Clock::now() - c1).count();
    if (seconds > slowest) slowest = seconds, slowest_label = label;
    std::error_code ec;
    if (path != dir.string()) fs::remove(path, ec);
    if (failures >= 20) {
      ADD_FAILURE() << "stopping after 20 failures (" << seed_text << ")";
      break;
    }
  }
  const double total = std::chrono::duration<double>(Clock::now() - t0).count();
  std::printf(
      "system-file fuzz: %d files in %.1f s (%s): loaded %d (%.1f s), FileError %d (%.1f s), "
      "IoError %d; loaded files in double: accel ok %d, study threw %d, build threw %d, default state threw %d, "
      "accel threw %d; MalformedNumber in double %d (%.1f s); slowest %.2f s: %s\n",
      cases, total, seed_text.c_str(), outcomes[Loaded], load_seconds[Loaded], outcomes[FileErr],
      load_seconds[FileErr], outcomes[IoErr], phases[AccelOk], phases[StudyThrew], phases[BuildThrew], phases[StateThrew],
      phases[AccelThrew], malformed_in_double, after_seconds, slowest, slowest_label.c_str());
  if (!malformed_example.empty()) std::printf("first MalformedNumber: %s\n", malformed_example.c_str());
  // The files must reach past the parser: some load, most fail.
  EXPECT_GT(outcomes[Loaded], cases / 50) << seed_text;
  EXPECT_GT(outcomes[FileErr], cases / 2) << seed_text;
}

int cases_to_run() {
  const char* cases_env = std::getenv("NHS_FUZZ_CASES");
  return cases_env ? std::atoi(cases_env) : kDefaultCases;
}

// The quick suite's gate: the committed seeds, the same verdict every run.
TEST(SystemFileFuzz, FixedSeeds) {
  for (const std::uint64_t seed : kFixedSeeds) fuzz_files(seed, cases_to_run());
}

// A new seed on every run (labels fuzz and slow: `ctest -L fuzz`), or
// NHS_FUZZ_SEED's.
TEST(SystemFileFuzzRandomSeed, NewSeed) {
  const char* seed_env = std::getenv("NHS_FUZZ_SEED");
  fuzz_files(seed_env ? std::strtoull(seed_env, nullptr, 10) : std::random_device{}(), cases_to_run());
}

}  // namespace
