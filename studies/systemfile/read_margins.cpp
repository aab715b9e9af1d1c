// The Loader's readers of [invariants] and [singular] (loader.hpp): the
// columns a motion's rows carry besides the state.
#include "loader.hpp"

#include <algorithm>
#include <cctype>

namespace nhs::systemfile {

void Loader::read_invariants() {
  const toml::node* node = root_.get("invariants");
  if (!node) return;
  if (!node->is_table()) fail(*node, "[invariants] must be a table { name = \"expression\" }");
  const auto& q = f_.info.coordinates;
  const Bindings qqd = bind({{&q, 0}}, true);
  Program p;
  for (auto&& [k, v] : in_file_order(*node->as_table())) {
    const std::string name(k.str());
    if (!is_identifier(name)) throw FileError(where(k.source()), "invariant '" + name + "' is not a name");
    if (is_domain_column(name))
      throw FileError(where(k.source()), "invariant '" + name +
                                             "': the name of the column of a condition of [parametrization] domain");
    f_.invariant_names.push_back(name);
    expression_into(v, "invariant " + name, qqd, p);
  }
  if (!f_.invariant_names.empty()) f_.invariants = std::move(p);
}


void Loader::read_singular() {
  const toml::node* node = root_.get("singular");
  Program p;
  if (node) read_declared_singular(*node, p);
  add_contact_margins(p);  // the rolling contacts' own singular sets
  add_chart_margins(p);    // the frames' Euler-angle charts
  add_split_margin(p);     // the derived psi's Voronec split
  if (!f_.singular_sets.empty()) f_.singular = std::move(p);
}

void Loader::read_declared_singular(const toml::node& n, Program& p) {
  const toml::node* node = &n;
  f_.locations["singular"] = where(*node);
  const std::string forms =
      "a margin expression (in quotes) or a table { margin = \"expression\", meaning = \"...\" }";
  if (!node->is_table()) fail(*node, "[singular] must be a table of named singular sets, each " + forms);
  const auto& q = f_.info.coordinates;
  const Bindings qqd = bind({{&q, 0}}, true);
  for (auto&& [k, v] : in_file_order(*node->as_table())) {
    const std::string key(k.str());
    const bool csv_name = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
    if (!csv_name)
      throw FileError(where(k.source()), "singular set '" + key + "' is not a name (letters, digits and "
                                         "'_': it becomes the column margin_" + key + ")");
    const std::string name = "margin_" + key;
    if (std::find(f_.invariant_names.begin(), f_.invariant_names.end(), name) != f_.invariant_names.end())
      throw FileError(where(k.source()), "singular set '" + key + "': its column " + name +
                                             " is already the name of an invariant");
    if (is_domain_column(name))
      throw FileError(where(k.source()), "singular set '" + key + "': its column " + name +
                                             " is already the margin of a condition of [parametrization] domain");
    const toml::node* margin = &v;
    std::string meaning;
    if (v.is_table()) {
      const std::string table = "singular." + key;
      known_keys(*v.as_table(), table, {"margin", "meaning"});
      margin = required(*v.as_table(), "margin", table, v);
      if (const auto* m = v.as_table()->get("meaning")) meaning = string_of(*m, "singular set " + key + " meaning");
    } else if (!v.is_string()) {
      fail(v, "singular set " + key + " must be " + forms);
    }
    expression_into(*margin, "singular set " + key + " margin", qqd, p);
    if (meaning.empty())
      meaning = "singular set " + key + " (" + string_of(*margin, "singular set " + key + " margin") + " = 0)";
    f_.singular_sets.push_back({name, meaning});
  }
}

}  // namespace nhs::systemfile
