// The Loader's readers of the dynamics (loader.hpp): [dynamics] (T, V,
// forces), [nonideal], and [[bodies]] with the kinetic energy they give.
#include "loader.hpp"

#include "nhs/codegen/differentiate.hpp"

#include <algorithm>

namespace nhs::systemfile {

namespace {

// T of the bodies (for T when [dynamics] gives none), built in the graph
// of their program `bodies` (inputs q, q_dot; `layout` as read_body lays
// it out; n coordinates): per body 1/2 m |dr/dt|^2 with dr/dt = sum_i
// dr/dq^i q^i_dot by the graph's forward differentiation
// (codegen/differentiate.hpp; positions depend on q alone), plus
// 1/2 I_z omega_z^2 (planar) or 1/2 omega^T J omega (space), or, for a body
// given in a frame (`in_frame`), 1/2 Omega^T J Omega with Omega and J in
// that frame: the same value (omega = R Omega, J_space = R J R^T), whose J
// does not depend on q and whose Omega is the elementary rotations' own
// recursion (rigid_frames.hpp), so the second kind's derivatives of T cost
// less (reports/bench/bodies_bicycle.md). Not GiNaC's
// derivatives: GiNaC's term order and grouping change from run to run (its
// hashes are seeded with addresses), and so would T's rounding.
template <class FrameNodes>
Program bodies_kinetic_energy(const Program& bodies, const std::vector<FileBody>& layout, int n,
                              const std::vector<FrameNodes>& in_frame) {
  Program T = bodies;
  codegen::Graph& g = T.graph;
  const auto out = [&](int k) { return bodies.outputs[static_cast<std::size_t>(k)]; };
  const auto mul = [&](int a, int b) { return g.apply(codegen::Op::Mul, a, b); };
  const auto add = [&](int a, int b) { return g.apply(codegen::Op::Add, a, b); };
  const int half = g.rational(1, 2);
  int total = g.constant(0);
  for (std::size_t b = 0; b < layout.size(); ++b) {
    const FileBody& body = layout[b];
    std::vector<int> r;
    for (int j = 0; j < body.dimension; ++j) r.push_back(out(body.first + 1 + j));
    const std::vector<int> d = codegen::jacobian_nodes(g, r, 1, n);  // graph array 1: q
    int v2 = g.constant(0);
    for (int j = 0; j < body.dimension; ++j) {
      int v = g.constant(0);
      for (int i = 0; i < n; ++i) v = add(v, mul(d[static_cast<std::size_t>(j * n + i)], g.input(2, i)));
      v2 = add(v2, mul(v, v));
    }
    int Tk = mul(out(body.first), v2);
    const int w = body.first + 1 + body.dimension;  // the angular velocity, then the inertia
    if (body.kind == FileBody::Kind::Planar) Tk = add(Tk, mul(out(w + 1), mul(out(w), out(w))));
    const auto framed = std::find_if(in_frame.begin(), in_frame.end(), [&](const auto& f) { return f.body == b; });
    if (framed != in_frame.end()) {
      const auto at = [](const auto& a, int k) { return a[static_cast<std::size_t>(k)]; };
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          Tk = add(Tk, mul(at(framed->omega, i), mul(at(framed->inertia, 3 * i + j), at(framed->omega, j))));
    } else if (body.kind == FileBody::Kind::Space) {
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) Tk = add(Tk, mul(out(w + i), mul(out(w + 3 + 3 * i + j), out(w + j))));
    }
    total = add(total, mul(half, Tk));
  }
  T.outputs = {total};
  return T;
}

}  // namespace


void Loader::read_dynamics() {
  const toml::node* node = root_.get("dynamics");
  const toml::node* bodies = root_.get("bodies");
  if (!node && !bodies) fail_file("missing table [dynamics] (with kinetic_energy), or [[bodies]]");
  const auto& q = f_.info.coordinates;
  const Bindings qqd = bind({{&q, 0}}, true);
  if (!node) return;
  if (!node->is_table()) fail(*node, "[dynamics] must be a table");
  const toml::table& t = *node->as_table();
  known_keys(t, "dynamics", {"kinetic_energy", "potential", "forces"});
  if (const auto* T = t.get("kinetic_energy")) {
    f_.locations["dynamics.kinetic_energy"] = where(*T);
    Program file_T;
    expression_into(*T, "kinetic_energy", qqd, file_T);  // its errors at their character
    if (!clocked()) {
      f_.kinetic_energy = std::move(file_T);
    } else {  // T + 1/2 time_dot^2: the clock's unit mass (A5)
      Ast sum;
      sum.kind = Kind::Add;
      sum.args.push_back(expression::parse(string_of(*T, "kinetic_energy")));
      sum.args.push_back(expression::parse(kClock + "_dot^2/2"));
      f_.kinetic_energy.add(sum, qqd);
    }
  } else if (!bodies) {
    fail(*node, "missing key 'kinetic_energy' in [dynamics] (or give [[bodies]])");
  }
  if (const auto* V = t.get("potential")) {
    Program p;
    expression_into(*V, "potential", bind({{&q, 0}}), p);
    f_.potential = std::move(p);
  }
  if (const auto* F = t.get("forces")) f_.forces = by_coordinate(*F, "forces");
}


// { coordinate = "expression", ... } of (q, qdot) and the parameters: n
// outputs, 0 for a coordinate not named ([dynamics] forces, [nonideal]).
Program Loader::by_coordinate(const toml::node& node, const std::string& what) {
  const auto& q = f_.info.coordinates;
  const Bindings qqd = bind({{&q, 0}}, true);
  if (!node.is_table()) fail(node, what + " must be a table { coordinate = \"expression\", ... }");
  std::vector<const toml::node*> by_coordinate(q.size(), nullptr);
  for (auto&& [k, v] : *node.as_table()) {
    const std::string c(k.str());
    const auto it = std::find(q.begin(), q.end(), c);
    if (it == q.end())
      throw FileError(where(k.source()), what + ": '" + c + "' is not a coordinate (coordinates: " + join(q) + ")");
    if (clocked() && c == kClock)
      throw FileError(where(k.source()), what + ": '" + c + "' is the clock coordinate that nhs adds for t; it "
                                                "takes no entry here");
    by_coordinate[static_cast<std::size_t>(it - q.begin())] = &v;
  }
  Program p;
  for (std::size_t i = 0; i < q.size(); ++i) {
    if (by_coordinate[i]) {
      expression_into(*by_coordinate[i], what + "." + q[i], qqd, p);
    } else {
      p.add(expression::parse("0"), qqd);
    }
  }
  return p;
}


// [nonideal]: seed 003's vector C of a non-ideal constraint, by coordinate.
void Loader::read_nonideal() {
  if (const toml::node* node = root_.get("nonideal")) {
    f_.locations["nonideal"] = where(*node);
    f_.nonideal = by_coordinate(*node, "nonideal");
  }
}


void Loader::read_bodies() {
  const toml::node* node = root_.get("bodies");
  if (!node) return;
  f_.locations["bodies"] = where(*node);
  if (!node->is_array_of_tables()) fail(*node, "bodies must be an array of tables [[bodies]]");
  const auto& q = f_.info.coordinates;
  const BodyBindings names{bind({}), bind({{&q, 0}}), bind({{&q, 0}}, true)};
  // T from the bodies when [dynamics] has none.
  const bool derive_T = f_.kinetic_energy.outputs.empty();
  Program p;
  Placements placements;
  int k = 0;
  for (const toml::node& b : *node->as_array()) {
    ++k;
    const std::string what = "bodies[" + std::to_string(k) + "]";
    const bool in_frame = b.is_table() && b.as_table()->get("frame");
    f_.body_layout.push_back(in_frame ? read_frame_body(b, what, names, p, placements) : read_body(b, what, names, p));
  }
  if (clocked()) {  // the clock's unit mass at (time, 0), whose T is 1/2 time_dot^2 (A5)
    const toml::table clock{{"mass", "1"}, {"position", toml::array{kClock, "0"}}};
    f_.body_layout.push_back(read_body(clock, "the clock body", names, p));
  }
  if (derive_T) {
    f_.kinetic_energy = bodies_kinetic_energy(p, f_.body_layout, static_cast<int>(q.size()), frame_body_nodes_);
    f_.kinetic_energy_from_bodies = true;
    f_.derived.push_back("T");
    f_.locations["dynamics.kinetic_energy"] = where(*node);
  }
  f_.bodies = std::move(p);
}


FileBody Loader::read_body(const toml::node& b, const std::string& what, const BodyBindings& names,
                                    Program& p) {
  const Bindings& params = names.params;
  const Bindings& qonly = names.qonly;
  const Bindings& qqd = names.qqd;
  const toml::table& t = *b.as_table();
  known_keys(t, what, {"mass", "position", "angular_velocity", "inertia"});
  FileBody body;
  body.first = static_cast<int>(p.outputs.size());
  expression_into(*required(t, "mass", what, b), what + " mass", params, p);
  const toml::node* pos = required(t, "position", what, b);
  const auto items = array_of(*pos, what + " position");
  if (items.size() != 2 && items.size() != 3)
    fail(*pos, what + " position has " + std::to_string(items.size()) + " entries, expected 2 (plane) or 3 (space)");
  body.dimension = static_cast<int>(items.size());
  array_into(*pos, what + " position", items.size(), qonly, p);
  const toml::node* wn = t.get("angular_velocity");
  const toml::node* Jn = t.get("inertia");
  if ((wn != nullptr) != (Jn != nullptr))
    fail(b, what + " needs both angular_velocity and inertia (a rigid body) or neither (a point mass)");
  if (!wn) {
    body.kind = FileBody::Kind::Point;
  } else if (body.dimension == 2) {
    body.kind = FileBody::Kind::Planar;
    expression_into(*wn, what + " angular_velocity (about the plane's normal)", qqd, p);
    expression_into(*Jn, what + " inertia (about the normal through the centre of mass)", params, p);
  } else {
    body.kind = FileBody::Kind::Space;
    array_into(*wn, what + " angular_velocity", 3, qqd, p);
    const auto rows = array_of(*Jn, what + " inertia");
    if (rows.size() != 3) fail(*Jn, what + " inertia must be a 3 x 3 array [[...], [...], [...]]");
    for (std::size_t i = 0; i < 3; ++i)
      array_into(*rows[i], what + " inertia row " + std::to_string(i + 1), 3, qonly, p);
  }
  return body;
}

}  // namespace nhs::systemfile
