// Sweep specifications (nhs/studies/sweep_spec.hpp, docs/sweeps.md), read
// with toml++ as system files are (one reader of TOML for the project);
// numbers keep the text the user wrote.
#include "nhs/studies/sweep_spec.hpp"

#include "nhs/field_backend.hpp"
#include "nhs/scalar.hpp"
#include "toml_text.hpp"  // toml++, as the library compiles it

#include <boost/multiprecision/cpp_dec_float.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <map>
#include <set>
#include <sstream>

namespace nhs {

namespace {

using Decimal = boost::multiprecision::cpp_dec_float_50;

std::string join_names(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// x with `digits` significant digits, trailing zeros removed: plain
// notation for 1e-5 <= |x| < 1e20, else d.ddde[+-]XX.
std::string decimal_text(const Decimal& x, int digits) {
  if (x == 0) return "0";
  std::string s = x.str(digits - 1, std::ios_base::scientific);  // -d.ddd...e+XX: `digits` in all
  const std::size_t e = s.find('e');
  const int exponent = std::stoi(s.substr(e + 1));
  std::string mantissa = s.substr(0, e);
  const bool negative = mantissa[0] == '-';
  if (negative) mantissa.erase(0, 1);
  std::string figures;
  for (char c : mantissa)
    if (c != '.') figures += c;
  while (figures.size() > 1 && figures.back() == '0') figures.pop_back();
  std::string out;
  if (exponent >= -5 && exponent < 20) {
    if (exponent < 0) {
      out = "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + figures;
    } else {
      const auto whole = static_cast<std::size_t>(exponent) + 1;
      if (figures.size() <= whole)
        out = figures + std::string(whole - figures.size(), '0');
      else
        out = figures.substr(0, whole) + "." + figures.substr(whole);
    }
  } else {
    out = figures.substr(0, 1) + (figures.size() > 1 ? "." + figures.substr(1) : "") + "e" +
          (exponent < 0 ? "-" : "") + std::to_string(std::abs(exponent));
  }
  return (negative ? "-" : "") + out;
}

const std::vector<std::string>& run_text_options() {
  static const std::vector<std::string> keys = {"formulation", "precision", "stepper",  "motion",
                                                "rtol",        "atol",      "tol",      "t_end",
                                                "dt_out",      "step",      "max_rhs_calls", "singular_margin",
                                                "manifold_tol", "max_wall_time", "field"};
  return keys;
}
const std::vector<std::string>& run_flag_options() {
  static const std::vector<std::string> keys = {"project", "library", "compiled"};
  return keys;
}
// Run options that are names, not numbers.
bool is_name_option(const std::string& key) {
  return key == "formulation" || key == "precision" || key == "stepper" || key == "motion" || key == "field";
}
bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// Each axis' values and every row of a sweep are held in memory (the
// output's final rewrite in case order): the limits keep a spec from
// asking for more than this machine class has.
constexpr std::int64_t kMaxAxisValues = 1000000;
constexpr long double kMaxCases = 1e7L;

class SpecReader {
 public:
  SpecReader(std::string path, const SweepTargets& targets) : targets_(targets) { spec_.path = std::move(path); }
  SweepSpec read();

 private:
  const SweepTargets& targets_;
  SweepSpec spec_;
  std::vector<std::string> lines_;
  toml::table root_;
  std::set<std::string> set_;  // targets already set ([run] or an axis)
  std::map<std::string, std::string> run_where_;  // [run] key -> "path:line:column"
  std::string budget_where_;                       // [sweep] stop_after_budget's position

  std::string where(const toml::source_region& r) const {
    return spec_.path + ":" + std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column);
  }
  [[noreturn]] void fail(const toml::node& n, const std::string& reason) const {
    throw FileError(where(n.source()), reason);
  }
  void known_keys(const toml::table& t, const std::string& table, const std::vector<std::string>& known) const {
    for (auto&& [k, v] : t) {
      const std::string key(k.str());
      if (!contains(known, key))
        throw FileError(where(k.source()), "unknown key '" + key + "'" + (table.empty() ? "" : " in " + table) +
                                               " (expected: " + join_names(known) + ")");
    }
  }
  std::string string_of(const toml::node& n, const std::string& what) const {
    if (!n.is_string()) fail(n, what + " must be a string (in quotes)");
    return std::string(n.as_string()->get());
  }
  // A number as the user wrote it: a string's text, or a TOML integer's or
  // float's source text (so that 0.1 stays 0.1 in every precision), checked
  // to be a decimal finite in every precision.
  std::string decimal_of(const toml::node& n, const std::string& what) const {
    std::string text;
    if (n.is_string()) {
      text = std::string(n.as_string()->get());
    } else if (n.is_integer() || n.is_floating_point()) {
      const auto r = n.source();
      if (r.begin.line != r.end.line || r.begin.line == 0 || r.begin.line > lines_.size())
        fail(n, what + ": cannot read the number's text");
      const std::string& line = lines_[r.begin.line - 1];
      text = line.substr(r.begin.column - 1, r.end.column - r.begin.column);
      text.erase(std::remove(text.begin(), text.end(), '_'), text.end());
      if (!text.empty() && text[0] == '+') text.erase(0, 1);
    } else {
      fail(n, what + " must be a number (e.g. 0.1, or \"0.1\" as exact decimal text)");
    }
    try {
      (void)from_string<mp100>(text);
    } catch (const MalformedNumber& e) {
      fail(n, what + ": " + e.what());
    }
    if (const auto r = detail::out_of_range(text))
      fail(n, what + ": " + r->message + " (not finite in " + r->precision +
                  "; a sweep's value must be finite in every precision)");
    if (from_string<double>(text) == 0 && from_string<mp100>(text) != 0)
      fail(n, what + ": " + text + " is 0 in double (below its smallest number; a sweep's value must be "
                  "non-zero in every precision when it is non-zero)");
    return text;
  }
  Decimal decimal_value(const toml::node& n, const std::string& what) const {
    return Decimal(decimal_of(n, what));
  }
  // The node's text as written in the file (one line), for messages.
  std::string text_of(const toml::node& n) const {
    const auto r = n.source();
    if (r.begin.line != r.end.line || r.begin.line == 0 || r.begin.line > lines_.size()) return "?";
    return lines_[r.begin.line - 1].substr(r.begin.column - 1, r.end.column - r.begin.column);
  }
  // A TOML integer in [least, most]; FileError naming the value otherwise.
  std::uint64_t integer_of(const toml::node& n, const std::string& what, std::int64_t least, std::int64_t most,
                           const std::string& below = std::string()) const {
    const auto v = n.value<std::int64_t>();
    if (!n.is_integer() || !v) fail(n, what + " must be an integer, got " + text_of(n));
    if (*v < least)
      fail(n, what + " must be at least " + std::to_string(least) + ", got " + std::to_string(*v) + below);
    if (*v > most) fail(n, what + " must be at most " + std::to_string(most) + ", got " + std::to_string(*v));
    return static_cast<std::uint64_t>(*v);
  }
  // An axis' count: 1 ... kMaxAxisValues (each value is held in memory).
  std::uint64_t count_of(const toml::node& n, const std::string& what) const {
    return integer_of(n, what, 1, kMaxAxisValues, " (an empty axis)");
  }
  bool bool_of(const toml::node& n, const std::string& what) const {
    if (!n.is_boolean()) fail(n, what + " must be true or false");
    return n.as_boolean()->get();
  }
  const toml::table& table_of(const toml::node& n, const std::string& what) const {
    if (!n.is_table()) fail(n, what + " must be a table");
    return *n.as_table();
  }
  std::vector<const toml::node*> array_of(const toml::node& n, const std::string& what) const {
    if (!n.is_array()) fail(n, what + " must be an array [ ... ]");
    std::vector<const toml::node*> out;
    for (const toml::node& e : *n.as_array()) out.push_back(&e);
    return out;
  }

  // What `target` is: "parameter", "q", "qdot", "z", or a run option's name;
  // FileError at n for an unknown target, listing the known ones.
  std::string kind_of(const toml::node& n, const std::string& target) const;
  // Value `v` of target `kind`, as text; checked (names against the known).
  std::string value_of(const toml::node& v, const std::string& kind, const std::string& what) const;
  void claim(const toml::node& at, const std::string& target, const std::string& kind);

  void read_run();
  void read_sweep();
  void read_axes();
  void check();

  // The range or random table of an axis, with its from, to and log read.
  struct Interval {
    const toml::node& at;      // the table, for messages
    const toml::table& table;  // the same, as a table
    std::string what;          // "range of axis '<target>'" or "random of axis '<target>'"
    Decimal from{}, to{};
    bool log = false;
  };
  // One [[axis]] table, its name claimed and its values generated.
  SweepAxis read_axis(const toml::node& entry);
  // The values of an axis given by a range or random table of [[axis]] t (not by values).
  void read_interval_values(const toml::table& t, const std::string& kind, SweepAxis& axis);
  // Key `key` of an interval's table; FileError at the table when it is missing.
  const toml::node& interval_key(const Interval& in, const char* key) const;
  // `count` values drawn uniformly (or log-uniformly) in [from, to) from `seed`, to 17 digits.
  void random_values(const Interval& in, SweepAxis& axis) const;
  // `count` values from `from` to `to`, or from `from` by `step` up to `to`, to 30 digits.
  void range_values(const Interval& in, SweepAxis& axis) const;
};

std::string SpecReader::kind_of(const toml::node& n, const std::string& target) const {
  const auto component = [&](const std::string& prefix, const std::vector<std::string>& names,
                             const std::string& what) -> bool {
    if (target.rfind(prefix + ".", 0) != 0) return false;
    const std::string name = target.substr(prefix.size() + 1);
    if (!contains(names, name))
      fail(n, "unknown " + what + " '" + name + "' in '" + target + "' (" +
                  (names.empty() ? std::string("the system has none") : "known: " + join_names(names)) + ")");
    return true;
  };
  if (component("q", targets_.coordinates, "coordinate")) return "q";
  if (component("qdot", targets_.coordinates, "coordinate")) return "qdot";
  if (component("z", targets_.quasi_velocities, "quasi-velocity")) return "z";
  if (component("parameters", targets_.parameters, "parameter")) return "parameter";
  if (contains(targets_.parameters, target)) {
    if (contains(run_text_options(), target))
      fail(n, "'" + target + "' is both a parameter and a run option: write parameters." + target +
                  " for the parameter");
    return "parameter";
  }
  if ((contains(run_text_options(), target) && target != "singular_margin" && target != "manifold_tol") ||
      contains(run_flag_options(), target))
    return target;
  std::vector<std::string> known = {"a parameter (" +
                                        (targets_.parameters.empty() ? std::string("the system has none")
                                                                     : join_names(targets_.parameters)) +
                                        ")",
                                    "q.<coordinate>", "qdot.<coordinate>"};
  if (!targets_.quasi_velocities.empty()) known.push_back("z.<quasi-velocity>");
  for (const auto& k : run_text_options())
    if (k != "singular_margin" && k != "manifold_tol") known.push_back(k);
  for (const auto& k : run_flag_options()) known.push_back(k + " (true/false)");
  fail(n, "unknown axis '" + target + "' (known: " + join_names(known) + ")");
}

std::string SpecReader::value_of(const toml::node& v, const std::string& kind, const std::string& what) const {
  if (contains(run_flag_options(), kind)) return bool_of(v, what) ? "true" : "false";
  if (kind == "max_rhs_calls")
    return std::to_string(integer_of(v, what, 1, std::numeric_limits<std::int64_t>::max()));
  if (!is_name_option(kind)) {
    const std::string text = decimal_of(v, what);
    // What `nhs run` would refuse in every case: refused here, by position.
    const mp100 x = from_string<mp100>(text);
    const bool positive = kind == "rtol" || kind == "tol" || kind == "t_end" || kind == "dt_out" || kind == "step" ||
                          kind == "max_wall_time";
    const bool non_negative = kind == "atol" || kind == "singular_margin" || kind == "manifold_tol";
    if (positive && !(x > 0)) fail(v, what + " must be positive, got " + text);
    if (non_negative && !(x >= 0)) fail(v, what + " must be non-negative, got " + text);
    return text;
  }
  std::string name;
  if (kind == "motion" && v.is_integer()) {
    name = std::to_string(integer_of(v, what + " (a motion's number)", 1, 99999));
  } else if (kind == "motion" && !v.is_string()) {
    fail(v, what + " must be a motion's name (in quotes) or number (1, 2, ...), got " + text_of(v));
  } else {
    name = string_of(v, what);
  }
  // The field backends (nhs/field_backend.hpp) and "default".
  static const std::vector<std::string> fields = [] {
    std::vector<std::string> v;
    for (FieldBackend b : kFieldBackends) v.emplace_back(field_backend_name(b));
    v.emplace_back("default");
    return v;
  }();
  const std::vector<std::string>* known = kind == "formulation" ? &targets_.formulations
                                          : kind == "precision" ? &targets_.precisions
                                          : kind == "stepper"   ? &targets_.steppers
                                          : kind == "field"     ? &fields
                                                                : &targets_.motions;
  bool ok = contains(*known, name);
  if (kind == "motion" && !ok) {  // a motion by its 1-based number
    const bool digits = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
    ok = digits && name.size() < 6 && std::stoul(name) >= 1 && std::stoul(name) <= known->size();
  }
  if (!ok) {
    std::string listed;
    for (std::size_t k = 0; k < known->size(); ++k)
      listed += (k ? "; " : "") + (kind == "motion" ? std::to_string(k + 1) + ": " : std::string()) + (*known)[k];
    fail(v, what + ": unknown " + kind + " '" + name + "' (" +
                (known->empty() ? std::string("the system has none") : "known: " + listed) + ")");
  }
  return name;
}

void SpecReader::claim(const toml::node& at, const std::string& target, const std::string& kind) {
  // parameters.m and m are one target; so are tol and rtol/atol.
  std::string key = target;
  if (kind == "parameter" && key.rfind("parameters.", 0) == 0) key = key.substr(11);
  if (kind == "parameter") key = "parameter " + key;
  const auto taken = [&](const std::string& k) { return set_.count(k) != 0; };
  if (taken(key)) fail(at, "'" + target + "' is set twice (in [run] or by another axis)");
  if (kind == "tol" && (taken("rtol") || taken("atol")))
    fail(at, "tol sets rtol and atol: give tol, or rtol and atol, not both");
  if ((kind == "rtol" || kind == "atol") && taken("tol"))
    fail(at, "tol sets rtol and atol: give tol, or rtol and atol, not both");
  set_.insert(key);
}

void SpecReader::read_run() {
  const toml::node* node = root_.get("run");
  if (!node) return;
  const toml::table& run = table_of(*node, "[run]");
  std::vector<std::string> known = run_text_options();
  for (const auto& k : run_flag_options()) known.push_back(k);
  for (const char* k : {"parameters", "q", "qdot", "z"}) known.push_back(k);
  known_keys(run, "[run]", known);
  // In file order, so that a conflict is reported where it is made.
  std::vector<std::pair<const toml::key*, const toml::node*>> entries;
  for (auto&& [k, v] : run) entries.emplace_back(&k, &v);
  std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    const auto &pa = a.first->source().begin, &pb = b.first->source().begin;
    return pa.line != pb.line ? pa.line < pb.line : pa.column < pb.column;
  });
  for (const auto& [kp, vp] : entries) {
    const toml::key& k = *kp;
    const toml::node& v = *vp;
    run_where_[std::string(k.str())] = where(k.source());
    const std::string key(k.str());
    if (contains(run_flag_options(), key)) {
      claim(v, key, key);
      spec_.run[key] = bool_of(v, "[run] " + key) ? "true" : "false";
    } else if (contains(run_text_options(), key)) {
      if (key != "singular_margin" && key != "manifold_tol") claim(v, key, key);
      spec_.run[key] = value_of(v, key, "[run] " + key);
    } else if (key == "parameters") {
      for (auto&& [pk, pv] : table_of(v, "[run] parameters")) {
        const std::string name(pk.str());
        if (!contains(targets_.parameters, name))
          throw FileError(where(pk.source()), "unknown parameter '" + name + "' (" +
                                                  (targets_.parameters.empty() ? std::string("the system has none")
                                                                               : "known: " + join_names(targets_.parameters)) +
                                                  ")");
        claim(pv, name, "parameter");
        spec_.parameters.emplace_back(name, decimal_of(pv, "[run] parameters." + name));
      }
    } else {  // q, qdot, z: every component
      const std::vector<std::string>& names = key == "z" ? targets_.quasi_velocities : targets_.coordinates;
      const auto items = array_of(v, "[run] " + key);
      if (items.size() != names.size())
        fail(v, "[run] " + key + " has " + std::to_string(items.size()) + " values, the system has " +
                    std::to_string(names.size()) + " (" + join_names(names) + ")");
      std::vector<std::string>& out = key == "q" ? spec_.q : key == "qdot" ? spec_.qdot : spec_.z;
      for (std::size_t i = 0; i < items.size(); ++i)
        out.push_back(decimal_of(*items[i], "[run] " + key + "[" + std::to_string(i + 1) + "]"));
    }
  }
}

void SpecReader::read_sweep() {
  spec_.metrics = sweep_metrics();
  const toml::node* node = root_.get("sweep");
  if (!node) return;
  const toml::table& sweep = table_of(*node, "[sweep]");
  known_keys(sweep, "[sweep]", {"metrics", "stop_after_budget", "series"});
  if (const toml::node* s = sweep.get("series")) spec_.series = bool_of(*s, "[sweep] series");
  if (const toml::node* m = sweep.get("metrics")) {
    spec_.metrics = {"status"};
    std::set<std::string> seen;
    for (const toml::node* e : array_of(*m, "[sweep] metrics")) {
      const std::string name = string_of(*e, "each metric");
      if (!contains(sweep_metrics(), name))
        fail(*e, "unknown metric '" + name + "' (known: " + join_names(sweep_metrics()) + ")");
      if (!seen.insert(name).second) fail(*e, "metric '" + name + "' is named twice");
    }
    // Column order is sweep_metrics()'s, whatever the order in the file.
    for (const auto& name : sweep_metrics())
      if (name != "status" && seen.count(name)) spec_.metrics.push_back(name);
  }
  if (const toml::node* s = sweep.get("stop_after_budget")) {
    spec_.stop_after_budget = string_of(*s, "[sweep] stop_after_budget");
    budget_where_ = where(s->source());
  }
}

void SpecReader::read_axes() {
  const toml::node* node = root_.get("axis");
  if (!node) return;
  if (!node->is_array_of_tables()) fail(*node, "axes are [[axis]] tables");
  for (const toml::node& entry : *node->as_array()) spec_.axes.push_back(read_axis(entry));
}

SweepAxis SpecReader::read_axis(const toml::node& entry) {
  const toml::table& t = *entry.as_table();
  known_keys(t, "[[axis]]", {"name", "values", "range", "random", "group"});
  SweepAxis axis;
  axis.where = where(entry.source());
  const toml::node* name = t.get("name");
  if (!name) fail(entry, "[[axis]] without a name (a parameter, q.<coordinate>, a run option, ...)");
  axis.target = string_of(*name, "[[axis]] name");
  const std::string kind = kind_of(*name, axis.target);
  claim(*name, axis.target, kind);
  if (const toml::node* g = t.get("group")) {
    axis.group = string_of(*g, "[[axis]] group");
    if (axis.group.empty()) fail(*g, "[[axis]] group must be a non-empty name");
  }
  const int given = (t.get("values") ? 1 : 0) + (t.get("range") ? 1 : 0) + (t.get("random") ? 1 : 0);
  if (given != 1)
    fail(entry, "axis '" + axis.target + "' needs exactly one of values, range or random (" +
                    std::to_string(given) + " given)");
  if (const toml::node* v = t.get("values")) {
    const auto items = array_of(*v, "values of axis '" + axis.target + "'");
    if (items.empty()) fail(*v, "axis '" + axis.target + "' has no values (an empty list)");
    if (items.size() > static_cast<std::size_t>(kMaxAxisValues))
      fail(*v, "axis '" + axis.target + "' has more than " + std::to_string(kMaxAxisValues) + " values");
    for (std::size_t i = 0; i < items.size(); ++i)
      axis.values.push_back(value_of(*items[i], kind, "axis '" + axis.target + "' value " + std::to_string(i + 1)));
  } else {
    read_interval_values(t, kind, axis);
  }
  return axis;
}

void SpecReader::read_interval_values(const toml::table& t, const std::string& kind, SweepAxis& axis) {
  const bool random = t.get("random") != nullptr;
  const toml::node& spec_node = *(random ? t.get("random") : t.get("range"));
  const std::string what = std::string(random ? "random" : "range") + " of axis '" + axis.target + "'";
  if (is_name_option(kind)) fail(spec_node, what + ": " + kind + " takes names: give values = [...]");
  if (contains(run_flag_options(), kind))
    fail(spec_node, what + ": " + kind + " is true or false: give values = [...]");
  const toml::table& r = table_of(spec_node, what);
  known_keys(r, what, random ? std::vector<std::string>{"from", "to", "count", "seed", "log"}
                             : std::vector<std::string>{"from", "to", "count", "step", "log"});
  Interval in{spec_node, r, what};
  in.from = decimal_value(interval_key(in, "from"), what + " from");
  in.to = decimal_value(interval_key(in, "to"), what + " to");
  in.log = r.get("log") ? bool_of(*r.get("log"), what + " log") : false;
  if (in.log && !(in.from > 0 && in.to > 0)) fail(spec_node, what + ": log needs from > 0 and to > 0");
  if (random)
    random_values(in, axis);
  else
    range_values(in, axis);
}

const toml::node& SpecReader::interval_key(const Interval& in, const char* key) const {
  const toml::node* n = in.table.get(key);
  if (!n) fail(in.at, in.what + " needs '" + key + "'");
  return *n;
}

void SpecReader::random_values(const Interval& in, SweepAxis& axis) const {
  const Decimal& from = in.from;
  const Decimal& to = in.to;
  const std::string& what = in.what;
  const std::uint64_t count = count_of(interval_key(in, "count"), what + " count");
  const toml::node& seed_node = interval_key(in, "seed");
  const auto seed = seed_node.value<std::int64_t>();
  if (!seed_node.is_integer() || !seed || *seed < 0)
    fail(seed_node, what + " seed must be an integer >= 0, got " + text_of(seed_node));
  if (from > to) fail(in.at, what + ": from > to (an empty interval)");
  // std::mt19937_64's output is fixed by the standard; u = 53 bits / 2^53
  // in [0, 1), so the samples are the same on every platform.
  std::mt19937_64 engine(static_cast<std::uint64_t>(*seed));
  const Decimal scale = Decimal(1) / Decimal(9007199254740992ull);  // 2^-53
  for (std::uint64_t k = 0; k < count; ++k) {
    const Decimal u = Decimal(engine() >> 11) * scale;
    const Decimal x = in.log ? Decimal(from * pow(to / from, u)) : Decimal(from + u * (to - from));
    axis.values.push_back(decimal_text(x, 17));
  }
}

void SpecReader::range_values(const Interval& in, SweepAxis& axis) const {
  const Decimal& from = in.from;
  const Decimal& to = in.to;
  const std::string& what = in.what;
  const bool log = in.log;
  const toml::node* c = in.table.get("count");
  const toml::node* s = in.table.get("step");
  if ((c != nullptr) == (s != nullptr)) fail(in.at, what + " needs exactly one of count or step");
  std::uint64_t count = 0;
  Decimal step;
  if (c) {
    count = count_of(*c, what + " count");
    if (count == 1 && from != to) fail(*c, what + ": count = 1 with from != to (give count >= 2, or values)");
  } else {
    step = decimal_value(*s, what + " step");
    if (log) fail(*s, what + ": a log range takes count, not step");
    if (!(step > 0)) fail(*s, what + " step must be positive, got " + text_of(*s));
    if (from > to) fail(in.at, what + ": from > to with a positive step (an empty range)");
    const Decimal n = floor((to - from) / step * (1 + Decimal("1e-30")));
    if (n >= kMaxAxisValues)
      fail(*s, what + ": more than " + std::to_string(kMaxAxisValues) + " values (at most that many an axis)");
    count = static_cast<std::uint64_t>(n) + 1;
  }
  for (std::uint64_t k = 0; k < count; ++k) {
    Decimal x;
    if (s) {
      x = from + Decimal(k) * step;
    } else if (count == 1) {
      x = from;
    } else if (log) {
      x = from * pow(to / from, Decimal(k) / Decimal(count - 1));
    } else {
      x = from + (to - from) * Decimal(k) / Decimal(count - 1);
    }
    axis.values.push_back(decimal_text(x, 30));
  }
}

void SpecReader::check() {
  const auto has = [&](const std::string& kind_prefix) {
    for (const auto& a : spec_.axes)
      if (a.target.rfind(kind_prefix, 0) == 0) return true;
    return false;
  };
  const bool motion = spec_.run.count("motion") || has("motion");
  const auto axis_kinds = [&](const std::string& kind) {
    std::vector<const SweepAxis*> out;
    for (const auto& a : spec_.axes) {
      const std::string k = a.target.rfind("q.", 0) == 0      ? "q"
                            : a.target.rfind("qdot.", 0) == 0 ? "qdot"
                            : a.target.rfind("z.", 0) == 0    ? "z"
                            : (a.target.rfind("parameters.", 0) == 0 || contains(targets_.parameters, a.target))
                                ? "parameter"
                                : a.target;
      if (k == kind) out.push_back(&a);
    }
    return out;
  };
  const auto refuse_at = [&](const std::string& where_, const std::string& reason) {
    throw FileError(where_, reason);
  };
  if (motion) {
    for (const char* k : {"parameter", "q", "qdot", "z"})
      if (const auto a = axis_kinds(k); !a.empty())
        refuse_at(a.front()->where, "axis '" + a.front()->target +
                                        "': a motion sets the parameters and the initial state (no parameter or "
                                        "state axis with [run] motion or a motion axis)");
    for (const char* key : {"parameters", "q", "qdot", "z"})
      if (run_where_.count(key))
        refuse_at(run_where_.at(key), std::string("[run] ") + key +
                                          ": a motion sets the parameters and the initial state (no parameters, q, "
                                          "qdot or z with [run] motion or a motion axis)");
  }
  const bool z = !spec_.z.empty() || !axis_kinds("z").empty();
  if (z) {
    if (!spec_.qdot.empty() || !axis_kinds("qdot").empty())
      refuse_at(!axis_kinds("qdot").empty() ? axis_kinds("qdot").front()->where : run_where_.at("qdot"),
                "z sets the velocities (qdot = psi(q, z)): give z or qdot, not both");
    if (spec_.z.empty() && axis_kinds("z").size() != targets_.quasi_velocities.size())
      refuse_at(axis_kinds("z").front()->where,
                "z axes need [run] z = [...] with every quasi-velocity (" + join_names(targets_.quasi_velocities) +
                    ") for those no axis sets");
  }
  // Groups: equal counts.
  std::map<std::string, std::pair<std::size_t, const SweepAxis*>> group_size;
  for (const auto& a : spec_.axes) {
    if (a.group.empty()) continue;
    auto [it, fresh] = group_size.emplace(a.group, std::make_pair(a.values.size(), &a));
    if (!fresh && it->second.first != a.values.size())
      refuse_at(a.where, "axis '" + a.target + "' has " + std::to_string(a.values.size()) + " values, but axis '" +
                             it->second.second->target + "' of group '" + a.group + "' has " +
                             std::to_string(it->second.first) + " (axes of a group vary together)");
  }
  if (!spec_.stop_after_budget.empty()) {
    const SweepAxis* along = nullptr;
    for (const auto& a : spec_.axes)
      if (a.target == spec_.stop_after_budget) along = &a;
    if (!along)
      refuse_at(budget_where_, "[sweep] stop_after_budget names '" + spec_.stop_after_budget +
                                   "', which is no axis of this spec");
    if (!along->group.empty())
      for (const auto& a : spec_.axes)
        if (&a != along && a.group == along->group)
          refuse_at(along->where, "stop_after_budget's axis '" + along->target + "' must be alone in its group");
  }
  long double cases = 1;
  for (const auto& g : spec_.groups()) cases *= static_cast<long double>(spec_.axes[g.front()].values.size());
  if (cases > kMaxCases)
  {
    char count[32];
    std::snprintf(count, sizeof count, "%.3g", static_cast<double>(cases));
    refuse_at(spec_.axes.back().where, std::string("the sweep has ") + count +
                                           " cases, more than the 1e7 a sweep may have (each row is kept in "
                                           "memory): split it into several sweeps");
  }
}

SweepSpec SpecReader::read() {
  {
    std::error_code ec;
    const auto status = std::filesystem::status(spec_.path, ec);
    if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
      throw FileError(spec_.path, "the sweep spec is not a regular file");
    if (!ec && std::filesystem::is_regular_file(status) && std::filesystem::file_size(spec_.path, ec) > (16u << 20))
      throw FileError(spec_.path, "the sweep spec is larger than 16 MiB");
  }
  errno = 0;
  std::ifstream in(spec_.path, std::ios::binary);
  const auto unreadable = [&] {
    const int error = errno;
    throw FileError(spec_.path, std::string("cannot read the sweep spec: ") +
                                    (error ? std::strerror(error) : "the stream failed"));
  };
  if (!in) unreadable();
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) unreadable();
  spec_.text = buffer.str();
  if (const auto bad = detail::unparseable_non_ascii(spec_.text))
    throw FileError(spec_.path + ":" + std::to_string(bad->line) + ":" + std::to_string(bad->column),
                    "TOML syntax: " + bad->reason);
  try {
    root_ = toml::parse(spec_.text, spec_.path);
  } catch (const toml::parse_error& e) {
    throw FileError(where(e.source()), "TOML syntax: " + std::string(e.description()));
  }
  std::istringstream lines(spec_.text);
  for (std::string line; std::getline(lines, line);) lines_.push_back(line);
  known_keys(root_, "", {"run", "sweep", "axis"});
  read_run();
  read_sweep();
  read_axes();
  check();
  return std::move(spec_);
}

}  // namespace

const std::vector<std::string>& sweep_metrics() {
  static const std::vector<std::string> m = {"status", "t_reached", "steps", "rhs_calls", "max_C",
                                             "energy_drift", "balance_drift", "invariants", "error", "margin", "singular",
                                             "final_state", "wall_time"};
  return m;
}

std::vector<std::vector<std::size_t>> SweepSpec::groups() const {
  std::vector<std::vector<std::size_t>> out;
  std::map<std::string, std::size_t> named;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    if (!axes[i].group.empty()) {
      const auto it = named.find(axes[i].group);
      if (it != named.end()) {
        out[it->second].push_back(i);
        continue;
      }
      named[axes[i].group] = out.size();
    }
    out.push_back({i});
  }
  return out;
}

std::uint64_t SweepSpec::case_count() const {
  std::uint64_t n = 1;
  for (const auto& g : groups()) n *= axes[g.front()].values.size();
  return n;
}

std::vector<std::string> SweepSpec::case_values(std::uint64_t index) const {
  std::vector<std::string> out(axes.size());
  const auto gs = groups();
  for (std::size_t k = gs.size(); k-- > 0;) {  // the last group varies fastest
    const std::uint64_t size = axes[gs[k].front()].values.size();
    const std::uint64_t at = index % size;
    index /= size;
    for (std::size_t a : gs[k]) out[a] = axes[a].values[at];
  }
  return out;
}

SweepSpec load_sweep_spec(const std::string& path, const SweepTargets& targets) {
  return SpecReader(path, targets).read();
}

}  // namespace nhs
