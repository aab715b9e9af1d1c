// The Loader's readers of motions (loader.hpp): [initial], the closed-form
// motions [[exact]] and the families of steady motions [[steady]].
#include "loader.hpp"

#include <algorithm>
#include <set>

namespace nhs::systemfile {

void Loader::read_initial() {
  const toml::node* node = required(root_, "initial", "", root_);
  f_.locations["initial"] = where(*node);
  if (!node->is_table()) fail(*node, "[initial] must be a table with q and qdot, or q and z");
  const toml::table& t = *node->as_table();
  if (clocked()) known_keys(t, "initial", {"q", "qdot", "z", "t", "excluded"});
  else known_keys(t, "initial", {"q", "qdot", "z", "excluded"});
  if (const auto* ex = t.get("excluded")) f_.initial_excluded = excluded_of(*ex, "initial excluded");
  const Bindings params = bind({});
  array_into(*required(t, "q", "initial", *node), "initial q", file_coordinates(), params, f_.initial_q);
  if (clocked()) {  // the clock's value: [initial] t, else 0
    if (const auto* t0 = t.get("t")) expression_into(*t0, "initial t", params, f_.initial_q);
    else f_.initial_q.add(expression::parse("0"), params);
  }
  const toml::node* qd = t.get("qdot");
  const toml::node* z = t.get("z");
  if ((qd != nullptr) == (z != nullptr))
    fail(*node, "[initial] needs exactly one of qdot (n values) and z (m values, through psi)");
  if (qd) {
    Program p;
    array_into(*qd, "initial qdot", file_coordinates(), params, p);
    if (clocked()) p.add(expression::parse("1"), params);  // the clock's velocity
    f_.initial_qdot = std::move(p);
  } else {
    if (!f_.parametrization) fail(*z, "initial z needs [parametrization]");
    Program p;
    array_into(*z, "initial z", f_.info.quasi_velocities.size(), params, p);
    f_.initial_z = std::move(p);
  }
}


void Loader::read_exact() {
  const toml::node* node = root_.get("exact");
  if (!node) return;
  if (!node->is_array_of_tables()) fail(*node, "exact must be an array of tables [[exact]]");
  const std::vector<std::string> t_name = {"t"};
  int k = 0;
  for (const toml::node& e : *node->as_array()) {
    ++k;
    const std::string what = "exact[" + std::to_string(k) + "]";
    const toml::table& t = *e.as_table();
    known_keys(t, what, {"name", "parameters", "t_end", "q", "qdot", "excluded"});
    FileExactMotion m;
    if (const auto* ex = t.get("excluded")) m.excluded = excluded_of(*ex, what + " excluded");
    m.name = string_of(*required(t, "name", what, e), what + " name");
    if (const auto* ps = t.get("parameters")) {
      if (!ps->is_table()) fail(*ps, what + " parameters must be a table { name = \"value\" }");
      for (auto&& [pk, pv] : *ps->as_table()) {
        const std::string pn(pk.str());
        const bool known = std::any_of(f_.info.parameters.begin(), f_.info.parameters.end(),
                                       [&](const Parameter& p) { return p.name == pn; });
        if (!known) {
          std::vector<std::string> names;
          for (const auto& p : f_.info.parameters) names.push_back(p.name);
          throw FileError(where(pk.source()), what + ": unknown parameter '" + pn + "' (known: " + join(names) + ")");
        }
        const std::string value = string_of(pv, what + " parameter " + pn);
        check_decimal(pv, what + " parameter " + pn, value);
        m.overrides.emplace_back(pn, value);
      }
    }
    const toml::node* te = required(t, "t_end", what, e);
    m.t_end = string_of(*te, what + " t_end");
    check_decimal(*te, what + " t_end", m.t_end);
    if (!(from_string<mp100>(m.t_end) > 0)) fail(*te, what + " t_end must be > 0");
    const Bindings tb = bind({{&t_name, 0}});
    array_into(*required(t, "q", what, e), what + " q", file_coordinates(), tb, m.q);
    if (clocked()) m.q.add(expression::parse("t"), tb);  // the clock is t
    if (const auto* qd = t.get("qdot")) {
      array_into(*qd, what + " qdot", file_coordinates(), tb, m.qdot);
      if (clocked()) m.qdot.add(expression::parse("1"), tb);
    }
    f_.locations["exact." + std::to_string(k - 1)] = where(e);
    f_.exact.push_back(std::move(m));
  }
}


void Loader::read_steady() {
  const toml::node* node = root_.get("steady");
  if (!node) return;
  if (!node->is_array_of_tables()) fail(*node, "steady must be an array of tables [[steady]]");
  if (clocked())
    fail(*node, "[[steady]]: the system depends on the time t (rheonomic), and a family of steady motions "
                "q(mu), qdot(mu) is a system's without t");
  const auto& q = f_.info.coordinates;
  std::set<std::string> family_names;
  int k = 0;
  for (const toml::node& e : *node->as_array()) {
    ++k;
    const std::string what = "steady[" + std::to_string(k) + "]";
    const toml::table& t = *e.as_table();
    known_keys(t, what, {"name", "parameters", "q", "qdot", "z"});
    FileSteadyFamily fam;
    const toml::node* name = required(t, "name", what, e);
    fam.name = string_of(*name, what + " name");
    if (fam.name.empty()) fail(*name, what + " name is empty");
    if (!family_names.insert(fam.name).second) fail(*name, what + ": a family named '" + fam.name + "' already exists");
    const toml::node* ps = required(t, "parameters", what, e);
    fam.parameters = names_of(*ps, what + " parameters");
    if (fam.parameters.empty()) fail(*ps, what + " parameters is empty: a family has at least one parameter");
    std::set<std::string> seen;
    for (const auto& mu : fam.parameters) {
      const auto& fns = expression::functions();
      if (mu == "pi" || mu == "t" ||
          std::any_of(fns.begin(), fns.end(), [&](const auto& f) { return f.first == mu; }))
        fail(*ps, what + " parameter '" + mu + "' is a reserved name (pi, t and the functions)");
      if (names_.count(mu)) fail(*ps, what + " parameter '" + mu + "' is already in use as a name of the system");
      if (!seen.insert(mu).second) fail(*ps, what + " parameter '" + mu + "' is given twice");
    }
    const Bindings b = bind({{&fam.parameters, 0}});
    array_into(*required(t, "q", what, e), what + " q", q.size(), b, fam.q);
    const toml::node* qd = t.get("qdot");
    const toml::node* z = t.get("z");
    if ((qd != nullptr) == (z != nullptr))
      fail(e, what + " needs exactly one of qdot (n values) and z (m values, through psi)");
    if (z) {
      if (!f_.parametrization) fail(*z, what + " z needs [parametrization]");
      fam.in_z = true;
      array_into(*z, what + " z", f_.info.quasi_velocities.size(), b, fam.v);
    } else {
      array_into(*qd, what + " qdot", q.size(), b, fam.v);
    }
    f_.locations["steady." + std::to_string(k - 1)] = where(e);
    f_.steady.push_back(std::move(fam));
  }
}

}  // namespace nhs::systemfile
