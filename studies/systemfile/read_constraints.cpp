// The Loader's readers of the constraints (loader.hpp): [constraints] with
// their symbolic classification (linear, affine, homogeneous in the
// velocities), [holonomic], the clock's constraint, and Voronec's
// dependent velocities.
#include "loader.hpp"

#include <algorithm>

namespace nhs::systemfile {

void Loader::read_constraints() {
  const toml::node* node = root_.get("constraints");
  if (!node && (root_.get("holonomic") || root_.get("rolling"))) node = nullptr;
  else node = required(root_, "constraints", "", root_);
  if (node && !node->is_table()) fail(*node, "[constraints] must be a table { name = \"expression\" }");
  if (node) f_.locations["constraints"] = where(*node);
  const auto& q = f_.info.coordinates;
  const Bindings qqd = bind({{&q, 0}}, true);
  const auto qd = velocity_names();
  if (node)
  for (auto&& [k, v] : in_file_order(*node->as_table())) {
    const std::string name(k.str());
    // The key is a name of the equations (lambda_<name>) and of the LaTeX
    // and HTML outputs, as every other table's keys are.
    if (!is_identifier(name))
      throw FileError(where(k.source()), "constraint '" + name +
                                             "' is not a name (a letter or '_', then letters, digits, '_')");
    f_.info.constraint_names.push_back(name);
    GiNaC::ex C;
    expression_into(v, "constraint " + name, qqd, f_.constraints, &C);
    bool has_velocity = false;
    for (const auto& vn : qd)
      if (C.has(sym_.symbol(vn))) has_velocity = true;
    if (!has_velocity)
      fail(v, "constraint " + name + " involves no velocity: it is holonomic (a relation between "
                                     "coordinates); give it in [holonomic] instead, where nhs takes its "
                                     "velocity form and keeps q on it");
    std::vector<GiNaC::ex> velocities;
    for (const auto& vn : qd) velocities.emplace_back(sym_.symbol(vn));
    const bool linear = linear_in(C, velocities);
    // Linear in qdot with a term free of the velocities: affine, A(q) qdot
    // + a0(q) = 0 (a moving platform). Every formulation that takes a
    // general C(q, qdot) takes it (its reaction, Chetaev's lambda_a A^a,
    // does work -lambda_a a0^a), and Voronec's split becomes qdot_dep =
    // a(q) qdot_indep + a0(q) (A6); the discrete Lagrange-d'Alembert
    // integrator and the naive reduced Lagrangian need A(q) qdot = 0, so
    // info.linear_constraints is false and info.affine_constraints true
    // (docs/affine-constraints.md).
    const bool affine = linear && velocity_free_term(C, velocities).has_value();
    f_.constraint_linear.push_back(linear);
    f_.constraint_affine.push_back(affine);
    f_.constraint_homogeneous.push_back(homogeneous_in(C, velocities));
  }
  add_no_slip();
  read_holonomic();
  add_contact_conditions();
  const toml::node& at = node ? *node : root_.get("rolling") ? *root_.get("rolling") : *root_.get("holonomic");
  if (clocked()) add_clock_constraint(at);
  if (f_.info.constraint_names.empty())
    fail(at, "[constraints] is empty: a non-holonomic system has at least one constraint");
  if (f_.info.constraint_names.size() >= q.size())
    fail(at, std::to_string(f_.info.constraint_names.size()) + " constraints on " +
                    std::to_string(q.size()) + " coordinates: at least one velocity must stay free");
  const bool all_linear =
      std::all_of(f_.constraint_linear.begin(), f_.constraint_linear.end(), [](bool b) { return b; });
  const bool any_affine =
      std::any_of(f_.constraint_affine.begin(), f_.constraint_affine.end(), [](bool b) { return b; });
  f_.info.linear_constraints = all_linear && !any_affine;
  f_.info.affine_constraints = all_linear && any_affine;
  read_dependent_velocities();
  refuse_derived_names();
}


// [holonomic]: f^k(q) = 0, each taken by every formulation as its velocity
// form df^k/dq qdot = 0 (a linear constraint named after it, appended to
// C), and kept as a program of q for the state's admission and the drift.
void Loader::read_holonomic() {
  const toml::node* node = root_.get("holonomic");
  if (!node) return;
  if (!node->is_table()) fail(*node, "[holonomic] must be a table { name = \"expression in q\" }");
  f_.locations["holonomic"] = where(*node);
  const auto& q = f_.info.coordinates;
  const Bindings qonly = bind({{&q, 0}});
  const Bindings qqd = bind({{&q, 0}}, true);
  const toml::node* dependent = nullptr;
  for (auto&& [k, v] : in_file_order(*node->as_table())) {
    const std::string name(k.str());
    if (name == "dependent_coordinates") {
      dependent = &v;
      continue;
    }
    if (!is_identifier(name)) throw FileError(where(k.source()), "holonomic constraint '" + name + "' is not a name");
    if (std::count(f_.info.constraint_names.begin(), f_.info.constraint_names.end(), name))
      throw FileError(where(k.source()), "holonomic constraint '" + name + "' has the name of a constraint of [constraints]");
    GiNaC::ex F;
    expression_into(v, "holonomic constraint " + name, qonly, f_.holonomic, &F);
    GiNaC::ex form = 0;
    for (const auto& c : q) form += F.diff(sym_.symbol(c)) * sym_.symbol(c + "_dot");
    if (form.is_zero() || form.normal().is_zero())
      fail(v, "holonomic constraint " + name + " involves no coordinate: it is a constant, not a constraint");
    // The velocity form by the program graph's forward differentiation, not
    // GiNaC's diff: GiNaC's form (term order and grouping) changes from run
    // to run (its hashes are seeded with addresses), and so would its
    // rounding. GiNaC's form serves the check above.
    f_.constraints.add_derivative_along(expression::parse(string_of(v, "holonomic constraint " + name)), qqd, 0, 1,
                                        static_cast<int>(q.size()));
    f_.info.constraint_names.push_back(name);
    f_.holonomic_names.push_back(name);
    f_.constraint_linear.push_back(true);
    f_.constraint_affine.push_back(false);
    f_.constraint_homogeneous.push_back(true);
  }
  if (f_.holonomic_names.empty()) fail(*node, "[holonomic] has no constraint");
  if (dependent) {
    const auto names = names_of(*dependent, "holonomic dependent_coordinates");
    if (names.size() != f_.holonomic_names.size())
      fail(*dependent, "dependent_coordinates names " + std::to_string(names.size()) +
                           " coordinates, expected one per holonomic constraint (" +
                           std::to_string(f_.holonomic_names.size()) + ")");
    for (const auto& name : names) {
      const auto it = std::find(q.begin(), q.end(), name);
      if (it == q.end())
        fail(*dependent, "dependent_coordinates: '" + name + "' is not a coordinate (coordinates: " + join(q) + ")");
      const int index = static_cast<int>(it - q.begin());
      if (std::count(f_.holonomic_dependent.begin(), f_.holonomic_dependent.end(), index))
        fail(*dependent, "dependent_coordinates names '" + name + "' twice");
      f_.holonomic_dependent.push_back(index);
    }
  }
}


// The clock's constraint, clock = time_dot - 1 = 0 (affine, A5), after the
// file's constraints; FileError at `at` when a constraint has its name.
void Loader::add_clock_constraint(const toml::node& at) {
  auto& names = f_.info.constraint_names;
  if (std::count(names.begin(), names.end(), kClockConstraint))
    fail(at, "constraint '" + kClockConstraint + "': the system's expressions use the time t, and nhs adds the "
             "constraint '" + kClockConstraint + "' = " + kClock + "_dot - 1 for it: rename this constraint");
  f_.constraints.add(expression::parse(kClock + "_dot - 1"), bind({{&f_.info.coordinates, 0}}, true));
  names.push_back(kClockConstraint);
  f_.constraint_linear.push_back(true);
  f_.constraint_affine.push_back(true);
  f_.constraint_homogeneous.push_back(false);
}


// Voronec's split: the dependent velocities, one per constraint (linear or
// affine constraints only).
void Loader::read_dependent_velocities() {
  const auto& q = f_.info.coordinates;
  if (const auto* dep = root_.get("dependent_velocities")) {
    const auto names = names_of(*dep, "dependent_velocities");
    if (!f_.info.linear_constraints && !f_.info.affine_constraints)
      fail(*dep, "dependent_velocities (Voronec's split qdot_dep = a(q) qdot_indep + a0(q)) needs constraints "
                 "linear in the velocities (A(q) q_dot + a0(q) = 0)");
    // The clock's own constraint is solved for time_dot (a0 = 1), added here.
    const std::size_t expected = f_.info.constraint_names.size() - (clocked() ? 1 : 0);
    if (names.size() != expected)
      fail(*dep, "dependent_velocities names " + std::to_string(names.size()) +
                     " coordinates, expected one per constraint (" + std::to_string(expected) + ")");
    for (const auto& name : names) {
      const auto it = std::find(q.begin(), q.end(), name);
      if (it == q.end()) fail(*dep, "dependent_velocities: '" + name + "' is not a coordinate (coordinates: " + join(q) + ")");
      if (clocked() && name == kClock)
        fail(*dep, "dependent_velocities: '" + kClock + "' is the clock coordinate, solved for by its own "
                   "constraint (nhs adds it): name one coordinate per constraint of the file");
      const int index = static_cast<int>(it - q.begin());
      if (std::count(f_.info.dependent_velocities.begin(), f_.info.dependent_velocities.end(), index))
        fail(*dep, "dependent_velocities names '" + name + "' twice");
      f_.info.dependent_velocities.push_back(index);
    }
    if (clocked()) f_.info.dependent_velocities.push_back(f_.info.clock_coordinate);
  }
}

}  // namespace nhs::systemfile
