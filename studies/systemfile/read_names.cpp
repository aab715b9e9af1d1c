// The Loader's readers of names (loader.hpp): the header (name, title,
// source, the coordinates, the clock coordinate of a system that names t,
// the quasi-velocities), the parameters, and the names the equations derive
// from them.
#include "loader.hpp"

#include <algorithm>
#include <cctype>

namespace nhs::systemfile {

namespace {

// True when the expression text names t: an identifier token "t" (numbers,
// with their exponents, and longer names skipped). A text that does not
// parse is the parser's to report later; here it only has to be scanned.
bool names_time(const std::string& text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (std::isdigit(c) || c == '.') {
      while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '.')) {
        const char e = text[i++];
        if ((e == 'e' || e == 'E') && i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
      }
    } else if (std::isalpha(c) || c == '_') {
      const std::size_t start = i;
      while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_')) ++i;
      if (i - start == 1 && text[start] == 't') return true;
    } else {
      ++i;
    }
  }
  return false;
}


// True when an expression anywhere under `n` (tables, arrays) names t; a
// `meaning` is prose, not an expression.
bool names_time(const toml::node& n) {
  if (const auto* s = n.as_string()) return names_time(s->get());
  if (const auto* a = n.as_array())
    return std::any_of(a->begin(), a->end(), [](const toml::node& e) { return names_time(e); });
  if (const auto* t = n.as_table())
    return std::any_of(t->begin(), t->end(),
                       [](const auto& kv) { return kv.first.str() != "meaning" && names_time(kv.second); });
  return false;
}


// The system's own expressions name t (not [initial], [[exact]] or
// [[steady]]): the system is rheonomic, and the loader adds the clock
// coordinate (docs/affine-constraints.md A5).
bool system_names_time(const toml::table& root) {
  for (const char* key : {"let", "dynamics", "constraints", "holonomic", "nonideal", "parametrization", "chart",
                          "frames", "rolling", "gravity", "bodies", "invariants", "singular"})
    if (const toml::node* n = root.get(key); n && names_time(*n)) return true;
  return false;
}

}  // namespace


void Loader::read_header() {
  known_keys(root_, "", {"name", "title", "source", "coordinates", "quasi_velocities",
                         "dependent_velocities", "parameters", "dynamics", "constraints",
                         "parametrization", "chart", "initial", "bodies", "invariants", "singular",
                         "exact", "nonideal", "steady", "holonomic", "let", "frames", "rolling", "gravity",
                         "up"});
  SystemInfo& info = f_.info;
  std::string stem = path_;
  if (const auto slash = stem.find_last_of('/'); slash != std::string::npos) stem.erase(0, slash + 1);
  if (const auto dot = stem.rfind(".toml"); dot != std::string::npos && dot + 5 == stem.size())
    stem.erase(dot);
  info.name = stem;
  if (const auto* n = root_.get("name")) {
    info.name = string_of(*n, "name");
    if (info.name.empty() || info.name.find_first_of(" \t\n,/\"") != std::string::npos)
      fail(*n, "name '" + info.name + "' must be non-empty, without spaces, commas, quotes or '/'");
  }
  info.title = info.name;
  if (const auto* n = root_.get("title")) info.title = string_of(*n, "title");
  info.source = "system file " + path_;
  if (const auto* n = root_.get("source")) info.source = string_of(*n, "source");
  const toml::node* coords = required(root_, "coordinates", "", root_);
  info.coordinates = names_of(*coords, "coordinates");
  if (info.coordinates.empty()) fail(*coords, "coordinates is empty: a system has at least one");
  for (const auto& c : info.coordinates) claim(*coords, c, "coordinate");
  for (const auto& c : info.coordinates) claim(*coords, c + "_dot", "velocity of coordinate");
  if (system_names_time(root_)) {
    // t as the clock coordinate, after the file's: q = (file's, time), with
    // the constraint clock = time_dot - 1 = 0 and 1/2 time_dot^2 in T (A5).
    info.clock_coordinate = static_cast<int>(info.coordinates.size());
    if (std::count(info.coordinates.begin(), info.coordinates.end(), kClock))
      fail(*coords, "coordinate '" + kClock + "': the system's expressions use the time t, which nhs adds as the "
                    "clock coordinate '" + kClock + "': rename this coordinate");
    info.coordinates.push_back(kClock);
    claim(*coords, kClock, "clock coordinate");
    claim(*coords, kClock + "_dot", "velocity of the clock coordinate");
    // t and the clock are one symbol in the symbolic checks (a body's
    // velocity dr/dq qdot, a holonomic constraint's velocity form).
    sym_.symbols.emplace("t", sym_.symbol(kClock));
  }
  if (const auto* n = root_.get("quasi_velocities")) {
    info.quasi_velocities = names_of(*n, "quasi_velocities");
    for (const auto& z : info.quasi_velocities) claim(*n, z, "quasi-velocity");
  }
}


void Loader::read_parameters() {
  const toml::node* node = root_.get("parameters");
  if (!node) return;
  if (!node->is_table()) fail(*node, "[parameters] must be a table");
  for (auto&& [k, v] : in_file_order(*node->as_table())) {
    Parameter p;
    p.name = std::string(k.str());
    if (!is_identifier(p.name)) throw FileError(where(k.source()), "parameter '" + p.name + "' is not a name");
    claim(v, p.name, "parameter");
    const toml::node* value = &v;
    if (v.is_table()) {
      known_keys(*v.as_table(), "parameters." + p.name, {"default", "meaning"});
      value = required(*v.as_table(), "default", "parameters." + p.name, v);
      if (const auto* m = v.as_table()->get("meaning")) p.meaning = string_of(*m, "meaning");
    }
    p.default_value = string_of(*value, "parameter " + p.name + " (exact decimal text, e.g. \"0.1\")");
    check_decimal(*value, "parameter " + p.name, p.default_value);
    f_.info.parameters.push_back(std::move(p));
  }
}


// The names `nhs equations` defines from the system's own (docs/equations.md,
// "Names"): <q>_ddot, <z>_dot, lambda_<constraint>, Qc_<q> (Udwadia-Kalaba),
// b_<dep>_<i>_<j> and b0_<dep>_<i> (Voronec, over every pair of
// coordinates), S (Gibbs-Appell). A coordinate, velocity, quasi-velocity or
// parameter with one of these names would make an equation refer to
// itself: FileError naming it, its role and where it was given.
void Loader::refuse_derived_names() const {
  const auto& q = f_.info.coordinates;
  std::vector<std::pair<std::string, std::string>> derived = {{"S", "the Appellian of gibbs-appell"}};
  for (const auto& c : q) {
    derived.emplace_back(c + "_ddot", "the acceleration of coordinate " + c);
    derived.emplace_back("Qc_" + c, "udwadia-kalaba's constraint force on " + c);
  }
  for (const auto& z : f_.info.quasi_velocities) derived.emplace_back(z + "_dot", "the derivative of quasi-velocity " + z);
  for (const auto& c : f_.info.constraint_names) derived.emplace_back("lambda_" + c, "the multiplier of constraint " + c);
  for (int d : f_.info.dependent_velocities)
    for (const auto& i : q) {
      const std::string dep = q[static_cast<std::size_t>(d)];
      derived.emplace_back("b0_" + dep + "_" + i, "a coefficient b0 of voronec");
      for (const auto& j : q) derived.emplace_back("b_" + dep + "_" + i + "_" + j, "a coefficient b of voronec");
    }
  for (const auto& [name, meaning] : derived)
    if (const auto it = names_.find(name); it != names_.end())
      fail(*it->second.first, it->second.second + " '" + name + "' has the name of " + meaning +
                                  " in the equations (docs/equations.md, \"Names\"): rename it");
}

}  // namespace nhs::systemfile
