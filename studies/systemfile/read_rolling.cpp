// [[rolling]], `up` and `gravity` (docs/bodies.md, docs/system-files.md
// "Rolling contacts"): a convex surface fixed in a frame rolls on the plane
// up . x = 0, fixed or turning about the vertical through the space origin
// at plane_rate. From the surface and the frame's placement the loader
// derives the contact point (nhs/rolling_contact.hpp over the tracing
// scalar, recorded into each program that needs it), the two no-slip
// constraints (and no_spin's), and the contact condition up . P = 0: either
// the frame tree's height is derived from it (its root frame moved along the
// vertical), or it is a holonomic constraint solved for a coordinate.
#include "loader.hpp"

#include "nhs/scalar.hpp"

#include <algorithm>

namespace nhs::systemfile {

using codegen::Expr;
using Surface = RollingSurface;

namespace {

// The keys each surface takes (besides name, frame, surface, height,
// no_spin, plane_rate).
std::vector<std::string> surface_keys(Surface s) {
  switch (s) {
    case Surface::Sphere: return {"centre", "radius"};
    case Surface::Disc: return {"centre", "radius", "axis"};
    case Surface::Torus: return {"centre", "radius", "axis", "crown"};
    case Surface::Ellipsoid: return {"centre", "semi_axes"};
    case Surface::Support: return {"centre", "support"};
  }
  return {};
}

// The space axis of `a` and the two tangent axes that follow it cyclically.
std::pair<int, int> tangents(frames::Axis a) {
  const int u = static_cast<int>(a);
  return {(u + 1) % 3, (u + 2) % 3};
}

const char* axis_name(int i) { return i == 0 ? "x" : i == 1 ? "y" : "z"; }

}  // namespace

Vector3<Expr> Loader::up() const {
  Vector3<Expr> e = frames::unit<Expr>(up_axis_);
  return up_sign_ > 0 ? e : Vector3<Expr>(-e);
}

void Loader::read_up() {
  const toml::node* n = root_.get("up");
  if (!n) return;
  const std::string text = string_of(*n, "up");
  static const std::vector<std::string> known = {"x", "y", "z", "+x", "+y", "+z", "-x", "-y", "-z"};
  if (std::find(known.begin(), known.end(), text) == known.end())
    fail(*n, "up = '" + text + "': expected one of the space axes x, y, z, -x, -y, -z (the upward vertical)");
  up_sign_ = text[0] == '-' ? -1 : 1;
  const char axis = text.back();
  up_axis_ = axis == 'x' ? frames::Axis::x : axis == 'y' ? frames::Axis::y : frames::Axis::z;
}

Vector3<Expr> Loader::vector_in(const toml::node& n, const std::string& what, Program& p) {
  const auto items = array_of(n, what);
  if (items.size() != 3) fail(n, what + " has " + std::to_string(items.size()) + " entries, expected 3");
  const Bindings qonly = bind({{&f_.info.coordinates, 0}});
  Vector3<Expr> v;
  for (int i = 0; i < 3; ++i)
    v(i) = Expr::from_id(node_in(*items[static_cast<std::size_t>(i)], 0, std::string::npos,
                                 what + "[" + std::to_string(i + 1) + "]", qonly, p));
  return v;
}

frames::ContactPoint<Expr> Loader::contact_of(int k, Program& p, bool rates, Placements& done, bool lift) {
  const RollingSpec& s = rolling_[static_cast<std::size_t>(k)];
  const frames::Placement<Expr> P = placement_of(s.frame, p, rates, done, lift);
  const Bindings qonly = bind({{&f_.info.coordinates, 0}});
  const auto scalar = [&](const toml::node* n, const std::string& key) {
    return Expr::from_id(node_in(*n, 0, std::string::npos, s.what + " " + key, qonly, p));
  };
  const Vector3<Expr> centre_in_frame =
      s.centre ? vector_in(*s.centre, s.what + " centre", p) : Vector3<Expr>(Expr(0), Expr(0), Expr(0));
  const Vector3<Expr> centre = P.origin + P.rotation * centre_in_frame;
  const Vector3<Expr> e_up = up();
  switch (s.surface) {
    case Surface::Sphere: return frames::sphere_contact(centre, scalar(s.radius, "radius"), e_up);
    case Surface::Disc:
    case Surface::Torus: {
      const Vector3<Expr> a = vector_in(*s.axis, s.what + " axis", p);
      const Vector3<Expr> axis = P.rotation * (a / sqrt(a.dot(a)));
      if (s.surface == Surface::Disc) return frames::disc_contact(centre, axis, scalar(s.radius, "radius"), e_up);
      return frames::torus_contact(centre, axis, scalar(s.radius, "radius"), scalar(s.crown, "crown"), e_up);
    }
    case Surface::Ellipsoid: {
      const Vector3<Expr> semi = vector_in(*s.semi_axes, s.what + " semi_axes", p);
      const frames::Placement<Expr> at_centre{P.rotation, centre, P.omega};
      return frames::support_contact(
          at_centre, [&](const Vector3<Expr>& u) { return frames::ellipsoid_support_gradient(semi, u); }, e_up);
    }
    case Surface::Support: {
      const frames::Placement<Expr> at_centre{P.rotation, centre, P.omega};
      return frames::support_contact(
          at_centre, [&](const Vector3<Expr>& u) { return support_at(s, u, p, false).gradient; }, e_up);
    }
  }
  return {};
}

void Loader::read_rolling() {
  const toml::node* node = root_.get("rolling");
  if (!node) return;
  if (!node->is_array_of_tables()) fail(*node, "rolling must be an array of tables [[rolling]]");
  f_.locations["rolling"] = where(*node);
  const auto& q = f_.info.coordinates;
  int k = 0;
  for (const toml::node& entry : *node->as_array()) {
    RollingSpec s = rolling_spec(entry, ++k);
    const toml::table& t = *entry.as_table();
    const toml::node* hn = t.get("height");
    const std::string height = hn ? string_of(*hn, s.what + " height") : "derived";
    int root = s.frame;
    while (frames_[static_cast<std::size_t>(root)].parent >= 0) root = frames_[static_cast<std::size_t>(root)].parent;
    if (height == "derived") {
      if (const auto other = lifted_.find(root); other != lifted_.end())
        fail(hn ? *hn : entry, s.what + ": the height of frame '" + frames_[static_cast<std::size_t>(root)].name +
                                   "' is already derived from " + rolling_[static_cast<std::size_t>(other->second)].what +
                                   " (" + rolling_[static_cast<std::size_t>(other->second)].name +
                                   "); give height = \"<coordinate>\", the coordinate solved for this contact");
      lifted_[root] = k - 1;
    } else {
      const auto c = std::find(q.begin(), q.end(), height);
      if (c == q.end())
        fail(*hn, s.what + " height '" + height + "': expected \"derived\" or a coordinate to solve for the contact "
                           "(coordinates: " + join(q) + ")");
      s.solve_for = static_cast<int>(c - q.begin());
    }
    rolling_.push_back(std::move(s));
  }
}

Loader::RollingSpec Loader::rolling_spec(const toml::node& entry, int k) {
  const auto& q = f_.info.coordinates;
  RollingSpec s;
  s.what = "rolling[" + std::to_string(k) + "]";
  s.entry = &entry;
  if (!entry.is_table()) fail(entry, s.what + " must be a table");
  const toml::table& t = *entry.as_table();
  const toml::node& nn = *required(t, "name", s.what, entry);
  s.name = string_of(nn, s.what + " name");
  if (!is_identifier(s.name)) fail(nn, s.what + " name '" + s.name + "' is not a name");
  claim(nn, s.name, "rolling contact");
  const toml::node& fn = *required(t, "frame", s.what, entry);
  const std::string frame = string_of(fn, s.what + " frame");
  const auto it = std::find_if(frames_.begin(), frames_.end(), [&](const FrameSpec& f) { return f.name == frame; });
  if (it == frames_.end()) {
    std::vector<std::string> known;
    for (const FrameSpec& f : frames_) known.push_back(f.name);
    fail(fn, s.what + ": unknown frame '" + frame + "' (known: " + (known.empty() ? "none" : join(known)) + ")");
  }
  s.frame = static_cast<int>(it - frames_.begin());
  const toml::node& sn = *required(t, "surface", s.what, entry);
  const std::string surface = string_of(sn, s.what + " surface");
  static const std::map<std::string, Surface> surfaces = {
      {"sphere", Surface::Sphere},       {"disc", Surface::Disc},       {"torus", Surface::Torus},
      {"ellipsoid", Surface::Ellipsoid}, {"support", Surface::Support}};
  const auto found = surfaces.find(surface);
  if (found == surfaces.end())
    fail(sn, s.what + " surface '" + surface + "': expected sphere, disc, torus, ellipsoid or support");
  s.surface = found->second;
  std::vector<std::string> keys = {"name", "frame", "surface", "height", "no_spin", "plane_rate"};
  const auto own = surface_keys(s.surface);
  keys.insert(keys.end(), own.begin(), own.end());
  known_keys(t, s.what, keys);
  for (const auto& key : own)
    if (key != "centre") required(t, key, s.what + " (a " + surface + ")", entry);
  for (const char* key : {"radius", "crown"})
    if (const toml::node* v = t.get(key)) check_size(*v, s.what + " " + key, std::string(key) == "crown");
  if (const toml::node* v = t.get("semi_axes"))
    for (const toml::node* e : array_of(*v, s.what + " semi_axes")) check_size(*e, s.what + " semi_axes entry");
  s.centre = t.get("centre");
  s.radius = t.get("radius");
  s.axis = t.get("axis");
  s.crown = t.get("crown");
  s.semi_axes = t.get("semi_axes");
  s.plane_rate = t.get("plane_rate");
  s.support = t.get("support");
  if (s.support) check_support(s, *s.support);
  if (const toml::node* b = t.get("no_spin")) {
    if (!b->is_boolean()) fail(*b, s.what + " no_spin must be true or false");
    s.no_spin = **b->as_boolean();
  }
  if (s.plane_rate) {
    Program scratch;
    GiNaC::ex rate;
    expression_into(*s.plane_rate, s.what + " plane_rate", bind({{&q, 0}}), scratch, &rate);
    s.affine = !rate.is_zero() && !rate.normal().is_zero();
  }
  return s;
}

void Loader::add_no_slip() {
  const auto& q = f_.info.coordinates;
  const auto [t1, t2] = tangents(up_axis_);
  for (std::size_t k = 0; k < rolling_.size(); ++k) {
    const RollingSpec& s = rolling_[k];
    Program& p = f_.constraints;
    const codegen::Recording recording(p.graph);
    Placements done;
    const frames::ContactPoint<Expr> c = contact_of(static_cast<int>(k), p, true, done, true);
    const frames::Placement<Expr>& P = done.at(s.frame);
    Vector3<Expr> v_origin;
    for (int i = 0; i < 3; ++i)
      v_origin(i) = Expr::from_id(p.derivative_along(P.origin(i).id(), 0, 1, static_cast<int>(q.size())));
    const Vector3<Expr> v = frames::material_velocity(P.origin, v_origin, P.omega, c.point);
    const Expr rate = s.plane_rate ? Expr::from_id(node_in(*s.plane_rate, 0, std::string::npos, s.what + " plane_rate",
                                                           bind({{&q, 0}}), p))
                                   : Expr(0);
    const Vector3<Expr> origin(Expr(0), Expr(0), Expr(0));
    const auto [c1, c2] = frames::no_slip(v, c.point, up(), frames::unit<Expr>(static_cast<frames::Axis>(t1)),
                                          frames::unit<Expr>(static_cast<frames::Axis>(t2)), rate, origin);
    std::vector<std::pair<std::string, Expr>> added = {{s.name + "_" + axis_name(t1), c1},
                                                       {s.name + "_" + axis_name(t2), c2}};
    if (s.no_spin) added.emplace_back(s.name + "_spin", P.omega.dot(up()) - rate);
    for (const auto& [name, value] : added) {
      if (std::count(f_.info.constraint_names.begin(), f_.info.constraint_names.end(), name))
        fail(*s.entry, s.what + ": its constraint '" + name + "' has the name of a constraint of [constraints]");
      p.outputs.push_back(value.id());
      f_.info.constraint_names.push_back(name);
      f_.derived.push_back(name);
      f_.constraint_linear.push_back(true);
      f_.constraint_affine.push_back(s.affine);
      f_.constraint_homogeneous.push_back(!s.affine);
    }
  }
}

void Loader::add_contact_conditions() {
  const auto& q = f_.info.coordinates;
  for (std::size_t k = 0; k < rolling_.size(); ++k) {
    const RollingSpec& s = rolling_[k];
    if (s.solve_for < 0) continue;
    if (!f_.holonomic_names.empty() && f_.holonomic_dependent.empty())
      fail(*s.entry, s.what + " solves for '" + q[static_cast<std::size_t>(s.solve_for)] +
                         "', so [holonomic] must name its dependent_coordinates too (one per constraint)");
    if (std::count(f_.holonomic_dependent.begin(), f_.holonomic_dependent.end(), s.solve_for))
      fail(*s.entry, s.what + ": coordinate '" + q[static_cast<std::size_t>(s.solve_for)] +
                         "' is already solved for by another holonomic constraint");
    const std::string name = s.name + "_contact";
    {  // f(q) = up . P, q only
      const codegen::Recording recording(f_.holonomic.graph);
      Placements done;
      f_.holonomic.outputs.push_back(up().dot(contact_of(static_cast<int>(k), f_.holonomic, false, done, true).point).id());
    }
    {  // its velocity form df/dq qdot, a constraint
      Program& p = f_.constraints;
      const codegen::Recording recording(p.graph);
      Placements done;
      const Expr height = up().dot(contact_of(static_cast<int>(k), p, false, done, true).point);
      p.outputs.push_back(p.derivative_along(height.id(), 0, 1, static_cast<int>(q.size())));
    }
    f_.info.constraint_names.push_back(name);
    f_.derived.push_back(name);
    f_.holonomic_names.push_back(name);
    f_.holonomic_dependent.push_back(s.solve_for);
    f_.constraint_linear.push_back(true);
    f_.constraint_affine.push_back(false);
    f_.constraint_homogeneous.push_back(true);
  }
}

void Loader::add_contact_margins(Program& singular) {
  for (std::size_t k = 0; k < rolling_.size(); ++k) {
    const RollingSpec& s = rolling_[k];
    if (s.surface != Surface::Disc && s.surface != Surface::Torus && s.surface != Surface::Support) continue;
    const std::string name = "margin_" + s.name;
    if (std::any_of(f_.singular_sets.begin(), f_.singular_sets.end(), [&](const FileSingularSet& x) { return x.name == name; }))
      fail(*s.entry, s.what + ": its singular set " + name + " is already declared in [singular]");
    const codegen::Recording recording(singular.graph);
    if (s.surface == Surface::Support) {
      singular.outputs.push_back(support_margin(static_cast<int>(k), singular).id());
      f_.singular_sets.push_back({name, "rolling contact " + s.name + ": the smallest radius of curvature of its "
                                        "support surface at the contact (in units of its smallest over the surface "
                                        "at the default parameters, " + to_string<double>(s.support_scale) +
                                        ") is not positive: not strictly convex there"});
      continue;
    }
    Placements done;
    singular.outputs.push_back(contact_of(static_cast<int>(k), singular, false, done, true).margin.id());
    f_.singular_sets.push_back(
        {name, "rolling contact " + s.name + ": the lowest point is not unique (the " +
                   (s.surface == Surface::Disc ? "disc" : "torus") + "'s axis is vertical: it lies flat on the plane)"});
  }
}

void Loader::read_gravity() {
  const toml::node* gn = root_.get("gravity");
  if (!gn) return;
  const toml::node* bodies = root_.get("bodies");
  if (!bodies || !bodies->is_array_of_tables()) fail(*gn, "gravity acts on [[bodies]], and the file gives none");
  const auto& q = f_.info.coordinates;
  const Bindings qonly = bind({{&q, 0}});
  const auto g_items = array_of(*gn, "gravity");
  Program V;
  const codegen::Recording recording(V.graph);
  std::vector<Expr> g;
  for (std::size_t i = 0; i < g_items.size(); ++i)
    g.push_back(Expr::from_id(node_in(*g_items[i], 0, std::string::npos, "gravity[" + std::to_string(i + 1) + "]", qonly, V)));
  Placements done;
  Expr total(0);
  int k = 0;
  for (const toml::node& b : *bodies->as_array()) {
    const std::string what = "bodies[" + std::to_string(++k) + "]";
    const toml::table& t = *b.as_table();
    const Expr m = Expr::from_id(node_in(*t.get("mass"), 0, std::string::npos, what + " mass", qonly, V));
    std::vector<Expr> r;
    if (const toml::node* fn = t.get("frame")) {
      const auto it = std::find_if(frames_.begin(), frames_.end(),
                                   [&](const FrameSpec& s) { return s.name == string_of(*fn, what + " frame"); });
      const frames::Placement<Expr>& P = placement_of(static_cast<int>(it - frames_.begin()), V, false, done);
      const Vector3<Expr> c = t.get("centre") ? vector_in(*t.get("centre"), what + " centre", V)
                                              : Vector3<Expr>(Expr(0), Expr(0), Expr(0));
      const Vector3<Expr> x = P.origin + P.rotation * c;
      r = {x(0), x(1), x(2)};
    } else {
      for (const toml::node* e : array_of(*t.get("position"), what + " position"))
        r.push_back(Expr::from_id(node_in(*e, 0, std::string::npos, what + " position", qonly, V)));
    }
    if (r.size() != g.size())
      fail(*gn, "gravity has " + std::to_string(g.size()) + " entries and " + what + " is a body in " +
                    std::to_string(r.size()) + " dimensions: give gravity in the bodies' space");
    for (std::size_t i = 0; i < g.size(); ++i) total = total - m * g[i] * r[i];
  }
  if (const toml::node* d = root_.get("dynamics"); d && d->is_table() && d->as_table()->get("potential"))
    total = total + Expr::from_id(node_in(*d->as_table()->get("potential"), 0, std::string::npos, "potential", qonly, V));
  V.outputs = {total.id()};
  f_.potential = std::move(V);
  f_.derived.push_back("V");
}

}  // namespace nhs::systemfile
