// [let]: a file's named sub-expressions (docs/system-files.md, "[let]"), in
// the file's order, each usable in every later expression of the file. A
// name is one node of each program that uses it (Binding::let,
// nhs/expression.hpp) and one GiNaC value in the symbolic checks
// (Symbolic::lets): never substituted as text.
#include "loader.hpp"

namespace nhs::systemfile {

std::vector<std::pair<std::string, std::size_t>> Loader::lets_used(const expression::Ast& ast) const {
  std::vector<std::pair<std::string, std::size_t>> used;
  std::vector<const expression::Ast*> stack{&ast};  // no recursion: a sum of 10,000 terms is that deep
  while (!stack.empty()) {
    const expression::Ast* a = stack.back();
    stack.pop_back();
    if (a->kind == expression::Kind::Name) used.emplace_back(a->text, a->position);
    for (const expression::Ast& b : a->args) stack.push_back(&b);
  }
  return used;
}

namespace {

// The parse of a [let] entry's text, errors at their character in the file.
expression::Ast parsed(const TomlReader& r, const toml::node& v, const std::string& text, const std::string& what) {
  try {
    return expression::parse(text);
  } catch (const expression::ExpressionError& e) {
    throw FileError(r.where_in_string(v, e.position), what + ": " + e.reason);
  }
}

}  // namespace

void Loader::read_lets() {
  const toml::node* node = root_.get("let");
  if (!node) return;
  if (!node->is_table()) fail(*node, "[let] must be a table { name = \"expression\" }");
  const std::vector<Entry> entries = in_file_order(*node->as_table());
  std::vector<std::string> all;
  for (const Entry& e : entries) {
    const std::string name(e.first.str());
    if (!is_identifier(name)) throw FileError(where(e.first.source()), "[let] name '" + name + "' is not a name");
    all.push_back(name);
  }
  // Every name is claimed before any text is read, so that a let which
  // shadows a coordinate is reported as such, not as a let used above it.
  for (std::size_t i = 0; i < entries.size(); ++i) claim(entries[i].second, all[i], "[let] name");
  // The widest names a let may use: q, qdot (as <q>_dot), t, the
  // parameters and the lets above it (bind() adds those read so far).
  const auto& q = f_.info.coordinates;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const toml::node& v = entries[i].second;
    const std::string what = "let " + all[i];
    const std::string text = string_of(v, what);
    auto tree = std::make_unique<const expression::Ast>(parsed(*this, v, text, what));
    for (const auto& [name, position] : lets_used(*tree)) {
      if (name == all[i])
        throw FileError(where_in_string(v, position), what + " is defined in terms of itself");
      for (std::size_t j = i + 1; j < all.size(); ++j)
        if (name == all[j])
          throw FileError(where_in_string(v, position), what + " uses '" + name +
                                                            "', which [let] defines below it (a let may use only "
                                                            "the lets above it, so that no let refers to itself)");
    }
    Program scratch;
    GiNaC::ex value;
    expression_into(v, what, bind({{&q, 0}}, true), scratch, &value);
    sym_.lets.emplace(all[i], value);
    let_names_.push_back(all[i]);
    let_trees_.push_back(std::move(tree));
  }
}

}  // namespace nhs::systemfile
