// [[frames]] and the [[bodies]] given in a frame (docs/bodies.md,
// docs/system-files.md "Frames and bodies"): a frame's orientation is a
// product of elementary rotations Rx, Ry, Rz of angles in q and the
// parameters, body-fixed in the order written, relative to the space frame
// or to a parent frame above it, with an origin in the parent. A body in a
// frame has its mass, centre of mass and central inertia tensor in that
// frame; the loader derives its centre, angular velocity and inertia in
// space (nhs/rigid_frames.hpp over the tracing scalar, recorded into the
// bodies' program), from which T follows as for any body.
#include "loader.hpp"

#include "nhs/codegen/differentiate.hpp"

#include <algorithm>
#include <optional>
#include <string_view>
#include <tuple>

namespace nhs::systemfile {

using codegen::Expr;

namespace {

// "Rx(", "Ry(" or "Rz(" at the start of `text` (after blanks) and ")" at
// its end: the axis, the angle's offset and length; nullopt otherwise.
std::optional<std::tuple<frames::Axis, std::size_t, std::size_t>> elementary(std::string_view text) {
  std::size_t i = text.find_first_not_of(' ');
  const std::size_t last = text.find_last_not_of(' ');
  if (i == std::string_view::npos || text.size() - i < 5 || text[i] != 'R' || text[last] != ')') return std::nullopt;
  const char a = text[i + 1];
  if ((a != 'x' && a != 'y' && a != 'z') || text[i + 2] != '(') return std::nullopt;
  const frames::Axis axis = a == 'x' ? frames::Axis::x : a == 'y' ? frames::Axis::y : frames::Axis::z;
  return std::make_tuple(axis, i + 3, last - (i + 3));
}

}  // namespace

int Loader::node_in(const toml::node& n, std::size_t offset, std::size_t length, const std::string& what,
                    const Bindings& b, Program& p) {
  const std::string text = string_of(n, what).substr(offset, length);
  try {
    return p.node(expression::parse(text), b);
  } catch (const expression::ExpressionError& e) {
    throw FileError(where_in_string(n, offset + e.position), what + ": " + e.reason);
  }
}

void Loader::read_frames() {
  const toml::node* node = root_.get("frames");
  if (!node) return;
  if (!node->is_array_of_tables()) fail(*node, "frames must be an array of tables [[frames]]");
  std::vector<std::string> names;
  for (const toml::node& f : *node->as_array())
    if (const toml::node* n = f.as_table()->get("name"); n && n->is_string()) names.push_back(**n->as_string());
  int k = 0;
  for (const toml::node& f : *node->as_array()) {
    FrameSpec s;
    s.what = "frames[" + std::to_string(++k) + "]";
    const toml::table& t = *f.as_table();
    known_keys(t, s.what, {"name", "parent", "rotations", "origin"});
    const toml::node& n = *required(t, "name", s.what, f);
    s.name = string_of(n, s.what + " name");
    if (!is_identifier(s.name) || s.name == "space")
      fail(n, s.what + " name '" + s.name + "' is not a name of its own ('space' is the space frame)");
    claim(n, s.name, "frame");
    if (const toml::node* pn = t.get("parent")) {
      const std::string parent = string_of(*pn, s.what + " parent");
      const auto above = std::find(names.begin(), names.begin() + (k - 1), parent);
      if (parent == s.name) fail(*pn, s.what + ": frame '" + s.name + "' cannot be its own parent");
      if (above != names.begin() + (k - 1)) {
        s.parent = static_cast<int>(above - names.begin());
      } else if (parent != "space") {
        const bool below = std::find(names.begin(), names.end(), parent) != names.end();
        fail(*pn, s.what + ": unknown parent frame '" + parent + "'" +
                      (below ? " above it (a parent is written before its children, so that no frame is its own "
                               "ancestor)"
                             : " (known: space" + (k > 1 ? ", " + join(std::vector<std::string>(names.begin(), names.begin() + (k - 1))) : "") +
                                   ")"));
      }
    }
    if (const toml::node* rn = t.get("rotations"))
      for (const toml::node* r : array_of(*rn, s.what + " rotations")) {
        const auto e = elementary(string_of(*r, s.what + " rotation"));
        if (!e) fail(*r, s.what + " rotation: expected Rx(angle), Ry(angle) or Rz(angle)");
        s.rotations.emplace_back(std::get<0>(*e), r);
        s.angle_offsets.push_back(std::get<1>(*e));
      }
    if (const toml::node* on = t.get("origin")) {
      s.origin = array_of(*on, s.what + " origin");
      if (s.origin.size() != 3) fail(*on, s.what + " origin has " + std::to_string(s.origin.size()) +
                                              " entries, expected 3 (in the parent's frame)");
    }
    frames_.push_back(std::move(s));
  }
}

const frames::Placement<Expr>& Loader::placement_of(int f, Program& p, bool rates, Placements& done, bool lift) {
  if (const auto it = done.find(f); it != done.end()) return it->second;
  const FrameSpec& s = frames_[static_cast<std::size_t>(f)];
  const auto& q = f_.info.coordinates;
  const Bindings qonly = bind({{&q, 0}});
  std::vector<frames::ElementaryRotation<Expr>> rotations;
  for (std::size_t i = 0; i < s.rotations.size(); ++i) {
    const auto& [axis, at] = s.rotations[i];
    const std::string text = string_of(*at, s.what + " rotation");
    const std::size_t offset = s.angle_offsets[i], length = text.find_last_of(')') - offset;
    const int angle = node_in(*at, offset, length, s.what + " rotation angle", qonly, p);
    const int rate = rates ? p.derivative_along(angle, 0, 1, static_cast<int>(q.size())) : p.graph.constant(0);
    rotations.push_back({axis, Expr::from_id(angle), Expr::from_id(rate)});
  }
  Vector3<Expr> origin;
  for (int i = 0; i < 3; ++i)
    origin(i) = s.origin.empty() ? Expr(0)
                                 : Expr::from_id(node_in(*s.origin[static_cast<std::size_t>(i)], 0, std::string::npos,
                                                         s.what + " origin[" + std::to_string(i + 1) + "]", qonly, p));
  frames::Placement<Expr> relative = frames::placement(rotations, origin);
  if (s.parent >= 0) relative = frames::compose(placement_of(s.parent, p, rates, done, lift), relative);
  if (const auto it = lifted_.find(f); lift && it != lifted_.end()) {
    // The contact's height with the frames as written (unlifted), taken
    // off along the vertical: the contact then lies on the plane, for every q.
    Placements unlifted;
    const frames::ContactPoint<Expr> c = contact_of(it->second, p, false, unlifted, false);
    relative.origin -= up() * up().dot(c.point);
  }
  return done.emplace(f, std::move(relative)).first->second;
}

FileBody Loader::read_frame_body(const toml::node& b, const std::string& what, const BodyBindings& names,
                                 Program& p, Placements& done) {
  const toml::table& t = *b.as_table();
  known_keys(t, what, {"frame", "mass", "centre", "inertia"});
  const toml::node& fn = *t.get("frame");
  const std::string frame = string_of(fn, what + " frame");
  const auto it = std::find_if(frames_.begin(), frames_.end(), [&](const FrameSpec& s) { return s.name == frame; });
  if (it == frames_.end()) {
    std::vector<std::string> known;
    for (const FrameSpec& s : frames_) known.push_back(s.name);
    fail(fn, what + ": unknown frame '" + frame + "' (known: " + (known.empty() ? "none" : join(known)) + ")");
  }
  FileBody body{FileBody::Kind::Space, 3, static_cast<int>(p.outputs.size())};
  expression_into(*required(t, "mass", what, b), what + " mass", names.params, p);
  codegen::Recording recording(p.graph);  // before the first Expr, Zero() included
  Vector3<Expr> centre;
  Matrix3<Expr> inertia = Matrix3<Expr>::Zero();
  const auto node = [&](const toml::node& n, const std::string& item) {
    return Expr::from_id(node_in(n, 0, std::string::npos, item, names.params, p));
  };
  const toml::node* cn = t.get("centre");
  const auto cs = cn ? array_of(*cn, what + " centre") : std::vector<const toml::node*>{};
  if (cn && cs.size() != 3) fail(*cn, what + " centre has " + std::to_string(cs.size()) + " entries, expected 3");
  for (int i = 0; i < 3; ++i)
    centre(i) = cn ? node(*cs[static_cast<std::size_t>(i)], what + " centre[" + std::to_string(i + 1) + "]") : Expr(0);
  const toml::node& Jn = *required(t, "inertia", what, b);
  const auto rows = array_of(Jn, what + " inertia");
  if (rows.size() != 3) fail(Jn, what + " inertia must be a 3 x 3 array [[...], [...], [...]] in the body's frame");
  std::vector<std::vector<const toml::node*>> entries;
  for (int i = 0; i < 3; ++i) {
    const auto row = array_of(*rows[static_cast<std::size_t>(i)], what + " inertia row " + std::to_string(i + 1));
    if (row.size() != 3) fail(*rows[static_cast<std::size_t>(i)], what + " inertia rows have 3 entries");
    entries.push_back(row);
    for (int j = 0; j < 3; ++j)
      inertia(i, j) = node(*row[static_cast<std::size_t>(j)],
                           what + " inertia[" + std::to_string(i + 1) + "][" + std::to_string(j + 1) + "]");
  }
  check_inertia(Jn, what, entries);
  const int f = static_cast<int>(it - frames_.begin());
  const frames::Placement<Expr>& placed = placement_of(f, p, true, done);
  const Vector3<Expr> r = placed.origin + placed.rotation * centre;
  const Matrix3<Expr> J = frames::inertia_in_space(placed.rotation, inertia);
  FrameBodyNodes nodes{f_.body_layout.size()};
  for (int i = 0; i < 3; ++i) {
    nodes.omega[static_cast<std::size_t>(i)] = placed.omega_body(i).id();
    for (int j = 0; j < 3; ++j) nodes.inertia[static_cast<std::size_t>(3 * i + j)] = inertia(i, j).id();
  }
  frame_body_nodes_.push_back(nodes);
  for (int i = 0; i < 3; ++i) p.outputs.push_back(r(i).id());
  for (int i = 0; i < 3; ++i) p.outputs.push_back(placed.omega(i).id());
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) p.outputs.push_back(J(i, j).id());
  return body;
}

}  // namespace nhs::systemfile

namespace nhs::systemfile {

std::vector<int> Loader::chart_coordinates(int f) const {
  const auto& q = f_.info.coordinates;
  std::vector<int> out;
  for (int g = f; g >= 0; g = frames_[static_cast<std::size_t>(g)].parent) {
    const FrameSpec& s = frames_[static_cast<std::size_t>(g)];
    for (std::size_t i = 0; i < s.rotations.size(); ++i) {
      const std::string text = string_of(*s.rotations[i].second, s.what + " rotation");
      const std::size_t offset = s.angle_offsets[i];
      const expression::Ast angle = expression::parse(text.substr(offset, text.find_last_of(')') - offset));
      const auto c = std::find(q.begin(), q.end(), angle.text);
      if (angle.kind == expression::Kind::Name && c != q.end()) {
        out.push_back(static_cast<int>(c - q.begin()));
        continue;
      }
      for (const std::string& name : expression::names_in(angle))  // a constant rotation: parameters only
        if (std::none_of(f_.info.parameters.begin(), f_.info.parameters.end(),
                         [&](const Parameter& p) { return p.name == name; }) && name != "pi")
          return {};
    }
  }
  std::vector<int> sorted = out;
  std::sort(sorted.begin(), sorted.end());
  if (out.size() != 3 || std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) return {};
  return out;
}

void Loader::add_chart_margins(Program& singular) {
  const int n = static_cast<int>(f_.info.coordinates.size());
  for (std::size_t f = 0; f < frames_.size(); ++f) {
    const FrameSpec& s = frames_[f];
    const std::vector<int> c = chart_coordinates(static_cast<int>(f));
    // Only the frame whose own rotations complete the chart: its descendants with constant
    // rotations share it (their parent has the same chart coordinates).
    if (c.empty() || (s.parent >= 0 && chart_coordinates(s.parent) == c)) continue;
    const std::string name = "margin_chart_" + s.name;
    if (std::any_of(f_.singular_sets.begin(), f_.singular_sets.end(), [&](const FileSingularSet& x) { return x.name == name; }))
      fail(*frames_[f].rotations.front().second,
           s.what + ": its Euler-angle chart's singular set " + name + " is already declared in [singular]");
    const codegen::Recording recording(singular.graph);
    Placements done;
    const frames::Placement<Expr>& P = placement_of(static_cast<int>(f), singular, true, done, false);
    // d omega / d qdot (graph array 2: qdot), the columns of the chart's three coordinates.
    const std::vector<int> J = codegen::jacobian_nodes(singular.graph, {P.omega(0).id(), P.omega(1).id(), P.omega(2).id()}, 2, n);
    Matrix3<Expr> M;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) M(i, j) = Expr::from_id(J[static_cast<std::size_t>(i * n + c[static_cast<std::size_t>(j)])]);
    singular.outputs.push_back(abs(M.determinant()).id());
    std::string angles;
    for (const int k : c) angles += (angles.empty() ? "" : ", ") + f_.info.coordinates[static_cast<std::size_t>(k)];
    f_.singular_sets.push_back({name, "frame " + s.name + ": its Euler-angle chart (" + angles +
                                          ") degenerates (gimbal lock: the rates of its angles do not "
                                          "determine its angular velocity)"});
  }
}

}  // namespace nhs::systemfile
