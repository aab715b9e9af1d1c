// The Loader's load of a TOML text (loader.hpp), and its helpers for names,
// expressions and their bindings.
#include "loader.hpp"

#include "nhs/formulation.hpp"

#include <algorithm>
#include <set>

namespace nhs::systemfile {

void Loader::claim(const toml::node& at, const std::string& name, const std::string& role) {
  static const std::set<std::string> reserved = [] {
    std::set<std::string> r = {"pi", "t"};
    for (const auto& [f, arity] : expression::functions()) r.insert(f);
    return r;
  }();
  if (reserved.count(name)) fail(at, role + " '" + name + "' is a reserved name (pi, t and the functions)");
  if (!names_.emplace(name, std::make_pair(&at, role)).second)
    fail(at, role + " '" + name + "' is already in use as a name" +
                 (clocked() && (name == kClock || name == kClock + "_dot")
                      ? " (the clock coordinate that nhs adds for t, which the system's expressions use)"
                      : ""));
}

void Loader::expression_into(const toml::node& n, const std::string& what, const Bindings& b,
                     Program& program, GiNaC::ex* symbolic) {
  expression_text_into(n, string_of(n, what), 0, what, b, program, symbolic);
}
// expression_into of `text`, the part of string node `n` that starts at
// character `offset` of the string (a side of a domain condition).
void Loader::expression_text_into(const toml::node& n, const std::string& text, std::size_t offset,
                          const std::string& what, const Bindings& b, Program& program,
                          GiNaC::ex* symbolic) {
  try {
    const Ast ast = expression::parse(text);
    program.add(ast, b);
    const GiNaC::ex e = to_ginac(ast, sym_);
    if (symbolic) *symbolic = e;
  } catch (const expression::ExpressionError& e) {
    // Time is a name of the system's expressions and [[exact]], not of
    // values such as [initial]'s or a body's mass.
    const bool time = e.reason.rfind("unknown name 't' ", 0) == 0;
    throw FileError(where_in_string(n, offset + e.position),
                    what + ": " + e.reason +
                        (time ? "; the time t may appear in the system's expressions (T, V, forces, "
                                "constraints, psi and its chart, [nonideal], a body's position and angular "
                                "velocity, invariants, singular margins) and in [[exact]] motions, not here"
                              : ""));
  }
}

void Loader::array_into(const toml::node& n, const std::string& what, std::size_t size, const Bindings& b,
                Program& program, std::vector<GiNaC::ex>* symbolic) {
  const auto items = array_of(n, what);
  if (items.size() != size)
    fail(n, what + " has " + std::to_string(items.size()) + " entries, expected " + std::to_string(size));
  for (std::size_t i = 0; i < items.size(); ++i) {
    GiNaC::ex e;
    expression_into(*items[i], what + "[" + std::to_string(i + 1) + "]", b, program, &e);
    if (symbolic) symbolic->push_back(e);
  }
}

bool Loader::is_domain_column(const std::string& column) const {
  return std::any_of(f_.domain_conditions.begin(), f_.domain_conditions.end(),
                     [&](const FileDomainCondition& c) { return c.name == column; });
}

Bindings Loader::bind(std::initializer_list<std::pair<const std::vector<std::string>*, int>> arrays,
              bool velocities_of_coordinates) const {
  Bindings b;
  for (std::size_t i = 0; i < f_.info.parameters.size(); ++i)
    b[f_.info.parameters[i].name] = {-1, static_cast<int>(i)};
  for (const auto& [names, array] : arrays) {
    for (std::size_t i = 0; i < names->size(); ++i) b[(*names)[i]] = {array, static_cast<int>(i)};
    if (clocked() && names == &f_.info.coordinates) b["t"] = {array, f_.info.clock_coordinate};
  }
  if (velocities_of_coordinates)
    for (std::size_t i = 0; i < f_.info.coordinates.size(); ++i)
      b[f_.info.coordinates[i] + "_dot"] = {1, static_cast<int>(i)};
  // The lets read so far ([let]): each compiled where it is used, with
  // these bindings (a let that uses a name unknown here is refused there).
  for (std::size_t k = 0; k < let_trees_.size(); ++k) b[let_names_[k]] = {-1, -1, let_trees_[k].get()};
  return b;
}
std::vector<std::string> Loader::velocity_names() const {
  std::vector<std::string> v;
  for (const auto& c : f_.info.coordinates) v.push_back(c + "_dot");
  return v;
}

std::map<std::string, std::string> Loader::excluded_of(const toml::node& n, const std::string& what) const {
  if (!n.is_table()) fail(n, what + " must be a table { formulation = \"reason\" }");
  std::vector<std::string> known;
  for (const auto& f : formulations<double>()) known.push_back(f->name());
  std::map<std::string, std::string> out;
  for (auto&& [k, v] : *n.as_table()) {
    const std::string name(k.str());
    if (std::find(known.begin(), known.end(), name) == known.end())
      throw FileError(where(k.source()), what + ": unknown formulation '" + name + "' (known: " + join(known) + ")");
    out[name] = string_of(v, what + " " + name + " (the reason)");
  }
  return out;
}

std::shared_ptr<const SystemFile> Loader::load(const std::string& text) {
  root_ = parse(text);
  f_.path = path_;
  read_header();
  read_parameters();
  read_lets();
  read_up();
  read_frames();
  read_rolling();
  read_dynamics();
  read_constraints();
  read_nonideal();
  read_parametrization();
  read_initial();
  read_bodies();
  read_gravity();
  read_scene();
  read_invariants();
  read_singular();
  read_exact();
  read_steady();
  std::shared_ptr<const SystemFile> file = std::make_shared<const SystemFile>(std::move(f_));
  // The numerical checks give their own FileErrors with a location; another
  // error of the library there (e.g. describe()'s bodies check at an
  // [[exact]] motion's parameters, a plain UsageError) is still the file's.
  try {
    if (detail::check_system_file_numerically(file)) {
      SystemFile massless = *file;
      massless.info.semidefinite_metric = true;
      file = std::make_shared<const SystemFile>(std::move(massless));
    }
  } catch (const FileError&) {
    throw;
  } catch (const UsageError& e) {
    throw FileError(path_, e.what());
  } catch (const InvalidState& e) {
    throw FileError(path_, e.what());
  } catch (const NonFiniteValue& e) {
    throw FileError(path_, e.what());
  } catch (const MalformedNumber& e) {
    throw FileError(path_, e.what());
  }
  return file;
}

}  // namespace nhs::systemfile
