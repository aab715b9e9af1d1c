// The scene of a file with [[bodies]] (FileScene, nhs/systemfile/system_file.hpp;
// docs/animation.md): one program over q and the parameters whose outputs
// are each body's centre of mass and rotation matrix, and each [[rolling]]
// contact's point in space and its plane's rate; and one of the bodies'
// shape sizes, evaluated once. The poses
// come from the frames' placements (placement_of, with the heights that the
// contacts derive) and the contact points from contact_of, as the
// constraints are built, so that what is drawn is what is integrated.
#include "loader.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace nhs::systemfile {

using codegen::Expr;

namespace {

// Appends the outputs of v (3) to p.
void push3(Program& p, const Vector3<Expr>& v) {
  for (int i = 0; i < 3; ++i) p.outputs.push_back(v(i).id());
}

// The directions u_k of a Mesh's vertices (FileSceneBody: the UV sphere's
// poles and rings), in order.
std::vector<Eigen::Vector3d> mesh_directions() {
  const int lon = FileSceneBody::kMeshLongitudes, lat = FileSceneBody::kMeshLatitudes;
  const double pi = 3.141592653589793;
  std::vector<Eigen::Vector3d> u = {{0, 0, 1}};
  for (int i = 1; i < lat; ++i)
    for (int j = 0; j < lon; ++j) {
      const double theta = pi * i / lat, phi = 2 * pi * j / lon;
      u.emplace_back(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), std::cos(theta));
    }
  u.emplace_back(0, 0, -1);
  return u;
}

}  // namespace

void Loader::scene_shape(FileSceneBody& body, int frame, const Vector3<Expr>& centre, const toml::node& b,
                         const std::string& what, Program& p) {
  const Bindings qonly = bind({{&f_.info.coordinates, 0}});
  const auto expr = [&](const toml::node& n, const std::string& item) {
    return Expr::from_id(node_in(n, 0, std::string::npos, item, qonly, p));
  };
  body.size = static_cast<int>(p.outputs.size());
  // The first surface in the frame.
  const auto rolling =
      std::find_if(rolling_.begin(), rolling_.end(), [&](const RollingSpec& s) { return s.frame == frame; });
  if (rolling == rolling_.end()) {  // a box from the inertia's diagonal
    body.shape = FileSceneBody::Shape::Box;
    const toml::table& t = *b.as_table();
    p.outputs.push_back(expr(*t.get("mass"), what + " mass").id());
    const auto rows = array_of(*t.get("inertia"), what + " inertia");
    for (std::size_t i = 0; i < 3; ++i)
      p.outputs.push_back(expr(*array_of(*rows[i], what + " inertia")[i], what + " inertia").id());
    return;
  }
  const RollingSpec& s = *rolling;
  const Vector3<Expr> at =
      s.centre ? vector_in(*s.centre, s.what + " centre", p) : Vector3<Expr>(Expr(0), Expr(0), Expr(0));
  const Vector3<Expr> offset = at - centre;
  const auto unit_axis = [&] {
    const Vector3<Expr> a = vector_in(*s.axis, s.what + " axis", p);
    return Vector3<Expr>(a / sqrt(a.dot(a)));
  };
  switch (s.surface) {
    case RollingSurface::Sphere:
      body.shape = FileSceneBody::Shape::Sphere;
      p.outputs.push_back(expr(*s.radius, s.what + " radius").id());
      push3(p, offset);
      return;
    case RollingSurface::Disc:
      body.shape = FileSceneBody::Shape::Disc;
      p.outputs.push_back(expr(*s.radius, s.what + " radius").id());
      push3(p, offset);
      push3(p, unit_axis());
      return;
    case RollingSurface::Torus:
      body.shape = FileSceneBody::Shape::Torus;
      p.outputs.push_back(expr(*s.radius, s.what + " radius").id());
      p.outputs.push_back(expr(*s.crown, s.what + " crown").id());
      push3(p, offset);
      push3(p, unit_axis());
      return;
    case RollingSurface::Ellipsoid:
      body.shape = FileSceneBody::Shape::Ellipsoid;
      push3(p, vector_in(*s.semi_axes, s.what + " semi_axes", p));
      push3(p, offset);
      return;
    case RollingSurface::Support:  // grad h at the grid's directions, each u_k fresh nodes (support_at)
      body.shape = FileSceneBody::Shape::Mesh;
      push3(p, offset);
      for (const Eigen::Vector3d& u : mesh_directions()) {
        const Vector3<Expr> uk(Expr::from_id(p.graph.constant(u(0))), Expr::from_id(p.graph.constant(u(1))),
                               Expr::from_id(p.graph.constant(u(2))));
        push3(p, support_at(s, uk, p, false).gradient);
      }
      return;
  }
}

void Loader::read_scene() {
  const toml::node* node = root_.get("bodies");
  if (!node || !node->is_array_of_tables()) return;
  FileScene scene;
  scene.up_axis = static_cast<int>(up_axis_);
  scene.up_sign = up_sign_;
  Program& p = scene.program;
  const codegen::Recording recording(p.graph);
  const Bindings qonly = bind({{&f_.info.coordinates, 0}});
  Placements done;
  int k = 0;
  for (const toml::node& b : *node->as_array()) {
    const std::string what = "bodies[" + std::to_string(++k) + "]";
    const toml::table& t = *b.as_table();
    FileSceneBody body;
    body.pose = static_cast<int>(p.outputs.size());
    Vector3<Expr> centre(Expr(0), Expr(0), Expr(0));
    Matrix3<Expr> R = Matrix3<Expr>::Identity();
    int frame = -1;
    if (const toml::node* fn = t.get("frame")) {
      body.frame = string_of(*fn, what + " frame");
      frame = static_cast<int>(std::find_if(frames_.begin(), frames_.end(),
                                            [&](const FrameSpec& s) { return s.name == body.frame; }) -
                               frames_.begin());
      const frames::Placement<Expr>& placed = placement_of(frame, p, false, done);
      if (const toml::node* cn = t.get("centre")) centre = vector_in(*cn, what + " centre", p);
      R = placed.rotation;
      push3(p, Vector3<Expr>(placed.origin + R * centre));
      body.name = body.frame;
      for (int n = 2; std::any_of(scene.bodies.begin(), scene.bodies.end(),
                                  [&](const FileSceneBody& o) { return o.name == body.name; });
           ++n)
        body.name = body.frame + "_" + std::to_string(n);
    } else {
      body.name = "body" + std::to_string(k);
      const auto items = array_of(*t.get("position"), what + " position");
      for (std::size_t i = 0; i < 3; ++i)
        p.outputs.push_back(i < items.size() ? node_in(*items[i], 0, std::string::npos, what + " position", qonly, p)
                                             : Expr(0).id());
    }
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) p.outputs.push_back(R(i, j).id());
    Program& sizes = scene.sizes;
    const codegen::Recording in_sizes(sizes.graph);
    if (frame >= 0) {
      const toml::node* cn = t.get("centre");
      scene_shape(body, frame, cn ? vector_in(*cn, what + " centre", sizes) : Vector3<Expr>(Expr(0), Expr(0), Expr(0)),
                  b, what, sizes);
    } else {
      body.shape = FileSceneBody::Shape::Point;
      body.size = static_cast<int>(sizes.outputs.size());
      sizes.outputs.push_back(node_in(*t.get("mass"), 0, std::string::npos, what + " mass", qonly, sizes));
    }
    scene.bodies.push_back(std::move(body));
  }
  for (std::size_t c = 0; c < rolling_.size(); ++c) {
    const RollingSpec& s = rolling_[c];
    FileSceneContact contact{s.name, static_cast<int>(p.outputs.size()), -1};
    push3(p, contact_of(static_cast<int>(c), p, false, done, true).point);
    if (s.plane_rate) {
      contact.plane_rate = static_cast<int>(p.outputs.size());
      p.outputs.push_back(node_in(*s.plane_rate, 0, std::string::npos, s.what + " plane_rate", qonly, p));
    }
    scene.contacts.push_back(std::move(contact));
  }
  f_.scene = std::move(scene);
}

}  // namespace nhs::systemfile
