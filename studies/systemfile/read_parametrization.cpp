// The Loader's readers of [parametrization] (psi), its domain and [chart]
// (loader.hpp).
#include "loader.hpp"

#include <algorithm>

namespace nhs::systemfile {

void Loader::read_parametrization() {
  const auto& q = f_.info.coordinates;
  const auto& z = f_.info.quasi_velocities;
  const toml::node* psi = root_.get("parametrization");
  const toml::node* chart = root_.get("chart");
  if (!psi && !chart && derives_parametrization()) {
    derive_parametrization();
    return;
  }
  if (!psi) {
    if (!z.empty()) fail(*root_.get("quasi_velocities"), "quasi_velocities given without [parametrization]");
    if (chart) fail(*chart, "[chart] given without [parametrization]");
    return;
  }
  f_.locations["parametrization"] = where(*psi);
  if (z.empty()) fail(*psi, "[parametrization] needs quasi_velocities = [...] (the names of z)");
  if (z.size() + f_.info.constraint_names.size() != q.size())
    fail(*psi, std::to_string(z.size()) + " quasi-velocities with " +
                   std::to_string(f_.info.constraint_names.size()) + " constraints on " +
                   std::to_string(q.size()) + " coordinates: expected m = n - r = " +
                   std::to_string(q.size() - f_.info.constraint_names.size()));
  if (!psi->is_table()) fail(*psi, "[parametrization] must be a table { <coordinate>_dot = \"expression\" }");
  const auto qd = velocity_names();
  std::vector<const toml::node*> rows(q.size(), nullptr);
  const toml::node* domain = nullptr;
  for (auto&& [k, v] : *psi->as_table()) {
    const std::string key(k.str());
    if (key == "domain") {
      domain = &v;
      continue;
    }
    const auto it = std::find(qd.begin(), qd.end(), key);
    if (it == qd.end())
      throw FileError(where(k.source()), "[parametrization]: unknown key '" + key + "' (expected: " + join(qd) +
                                             ", domain)");
    if (clocked() && key == kClock + "_dot")
      throw FileError(where(k.source()), "[parametrization]: " + key + " is the clock's velocity, 1 (nhs adds "
                                             "it): leave it out");
    rows[static_cast<std::size_t>(it - qd.begin())] = &v;
  }
  Program p;
  const Bindings qz = bind({{&q, 0}, {&z, 1}});
  if (domain) read_domain(*domain, qz);
  for (std::size_t i = 0; i < q.size(); ++i) {
    if (clocked() && static_cast<int>(i) == f_.info.clock_coordinate) {
      p.add(expression::parse("1"), qz);  // time_dot = 1
      continue;
    }
    if (!rows[i]) fail(*psi, "[parametrization] has no entry for " + qd[i]);
    expression_into(*rows[i], "parametrization " + qd[i], qz, p);
  }
  f_.parametrization = std::move(p);
  if (!chart) fail(*psi, "[parametrization] needs [chart], its inverse z(q, qdot) (one entry per quasi-velocity)");
  f_.locations["chart"] = where(*chart);
  if (!chart->is_table()) fail(*chart, "[chart] must be a table { <quasi-velocity> = \"expression\" }");
  std::vector<const toml::node*> zrows(z.size(), nullptr);
  for (auto&& [k, v] : *chart->as_table()) {
    const std::string key(k.str());
    const auto it = std::find(z.begin(), z.end(), key);
    if (it == z.end())
      throw FileError(where(k.source()), "[chart]: unknown key '" + key + "' (expected: " + join(z) + ")");
    zrows[static_cast<std::size_t>(it - z.begin())] = &v;
  }
  Program c;
  const Bindings qqd = bind({{&q, 0}}, true);
  for (std::size_t a = 0; a < z.size(); ++a) {
    if (!zrows[a]) fail(*chart, "[chart] has no entry for " + z[a]);
    expression_into(*zrows[a], "chart " + z[a], qqd, c);
  }
  f_.chart = std::move(c);
}


// [parametrization] domain = ["v > 0", ...]: the open set of (q, z) where
// psi and its chart hold, as strict inequalities between two expressions
// in q, z and the parameters (SystemFile::domain).
void Loader::read_domain(const toml::node& node, const Bindings& qz) {
  f_.locations["domain"] = where(node);
  const std::string form = "a strict inequality between two expressions, \"a > b\" or \"a < b\"";
  const auto items = array_of(node, "[parametrization] domain (an array of conditions, each " + form + ")");
  if (items.empty()) fail(node, "[parametrization] domain is empty: give at least one condition, each " + form);
  Program p;
  for (std::size_t k = 0; k < items.size(); ++k) {
    const toml::node& item = *items[k];
    const std::string what = "[parametrization] domain[" + std::to_string(k + 1) + "]";
    const std::string text = string_of(item, what + " (" + form + ")");
    // The column of character i of the string (single-line basic strings).
    const auto at = [&](std::size_t i) { return where_in_string(item, i); };
    const std::size_t op = text.find_first_of("<>=!");
    if (op == std::string::npos)
      throw FileError(at(0), what + ": no comparison: expected " + form);
    if (text[op] == '=' || text[op] == '!' || (op + 1 < text.size() && text[op + 1] == '='))
      throw FileError(at(op), what + ": only the strict comparisons '>' and '<' are allowed (a chart's "
                                     "domain is an open set), not '" + text.substr(op, text[op + 1] == '=' ? 2 : 1) +
                                     "'");
    if (const std::size_t second = text.find_first_of("<>=!", op + 1); second != std::string::npos)
      throw FileError(at(second), what + ": one comparison per condition (give several conditions, "
                                         "e.g. domain = [\"v > 0\", \"v < 1\"])");
    FileDomainCondition c;
    // For messages: on one line, and at most 80 characters.
    c.text = text.size() > 80 ? text.substr(0, 77) + "..." : text;
    std::replace_if(c.text.begin(), c.text.end(), [](char ch) { return ch == '\n' || ch == '\r' || ch == '\t'; }, ' ');
    c.greater = text[op] == '>';
    c.name = "margin_domain_" + std::to_string(k + 1);
    expression_text_into(item, text.substr(0, op), 0, what + " (left of '" + text[op] + "')", qz, p);
    expression_text_into(item, text.substr(op + 1), op + 1, what + " (right of '" + text[op] + "')", qz, p);
    f_.domain_conditions.push_back(std::move(c));
  }
  f_.domain = std::move(p);
}

}  // namespace nhs::systemfile
