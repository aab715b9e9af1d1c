// The scene of a system (scene.hpp): a file's FileScene program evaluated
// in S at the run's parameters, or a built-in study's bodies as points.
#include "nhs/session/scene.hpp"

#include "nhs/expression.hpp"
#include "nhs/session/figures.hpp"  // to_double
#include "nhs/studies/system_file.hpp"

#include <algorithm>
#include <cmath>

namespace nhs {

namespace {

const char* shape_name(FileSceneBody::Shape s) {
  switch (s) {
    case FileSceneBody::Shape::Sphere: return "sphere";
    case FileSceneBody::Shape::Disc: return "disc";
    case FileSceneBody::Shape::Torus: return "torus";
    case FileSceneBody::Shape::Ellipsoid: return "ellipsoid";
    case FileSceneBody::Shape::Box: return "box";
    case FileSceneBody::Shape::Point: return "point";
    case FileSceneBody::Shape::Mesh: return "mesh";
  }
  return "point";
}

// The number of size outputs of each shape (FileSceneBody's list).
int size_count(FileSceneBody::Shape s) {
  switch (s) {
    case FileSceneBody::Shape::Sphere: return 4;
    case FileSceneBody::Shape::Disc: return 7;
    case FileSceneBody::Shape::Torus: return 8;
    case FileSceneBody::Shape::Ellipsoid: return 6;
    case FileSceneBody::Shape::Box: return 4;
    case FileSceneBody::Shape::Point: return 1;
    case FileSceneBody::Shape::Mesh: return 3 + 3 * FileSceneBody::kMeshVertices;
  }
  return 0;
}

// Half-lengths of the homogeneous box of mass m with central moments J
// (J11 = m (b^2 + c^2) / 3 for half-lengths a, b, c); a side whose square
// comes out below 1/100 of the largest is drawn at a tenth of the largest.
std::vector<double> box_half_lengths(double m, double J1, double J2, double J3) {
  std::vector<double> h2 = {1.5 * (J2 + J3 - J1) / m, 1.5 * (J1 + J3 - J2) / m, 1.5 * (J1 + J2 - J3) / m};
  const double largest = std::max({h2[0], h2[1], h2[2], 0.0});
  std::vector<double> h;
  for (double x : h2) h.push_back(largest > 0 && x > largest / 100 ? std::sqrt(x) : std::sqrt(largest) / 10);
  if (!(largest > 0) || !std::isfinite(largest)) h = {0.1, 0.1, 0.1};
  return h;
}

}  // namespace

template <class S>
Scene<S>::Scene(const Problem<S>& problem) : problem_(&problem) {
  const std::string& name = problem.sys.info.name;
  if (is_system_file_name(problem.system)) {
    file_ = cached_system_file(problem.system);
    if (!file_->scene)
      throw UsageError("system '" + name + "' has no bodies to draw: its file gives no [[bodies]] (a body in a "
                       "[[frames]] frame, or a position; docs/bodies.md, docs/animation.md)");
    const FileScene& scene = *file_->scene;
    for (const FileSceneBody& b : scene.bodies) bodies_.push_back({b.name, b.frame, shape_name(b.shape), {}});
    for (const FileSceneContact& c : scene.contacts) {
      contacts_.push_back(c.name);
      if (c.plane_rate >= 0) rate_outputs_.push_back(c.plane_rate);
    }
    constants_ = expression::constants_of<S>(scene.program);
    up_axis_ = scene.up_axis;
    up_sign_ = scene.up_sign;
    return;
  }
  if (!problem.sys.has_bodies())
    throw UsageError("study '" + name + "' has no bodies to draw: its description has no `bodies` member "
                     "(point masses or rigid bodies with their positions; nhs/bodies.hpp)");
  Bodies<S> b;
  problem.sys.bodies(problem.q, problem.qdot, b);
  const std::size_t count = b.points.size() + b.rigid_bodies.size();
  for (std::size_t k = 0; k < count; ++k) bodies_.push_back({"body" + std::to_string(k + 1), "", "point", {}});
}

template <class S>
std::vector<S> Scene<S>::outputs(const Vec<S>& q) const {
  const expression::Program& p = file_->scene->program;
  std::vector<S> out(p.outputs.size());
  const Params<S> params(problem_->sys.parameters);
  expression::evaluate(p, constants_, params, {&q}, out.data());
  return out;
}

template <class S>
std::vector<std::string> Scene<S>::columns(const std::vector<std::string>& taken) const {
  std::vector<std::string> names;
  const auto add = [&](const std::string& name) {
    const auto used = [&](const std::string& c) {
      return std::count(taken.begin(), taken.end(), c) || std::count(names.begin(), names.end(), c);
    };
    std::string c = used(name) ? "pose_" + name : name;
    for (int k = 2; used(c); ++k) c = "pose_" + name + "_" + std::to_string(k);
    names.push_back(c);
  };
  for (const SceneBody& b : bodies_) {
    for (const char* axis : {"x", "y", "z"}) add(b.name + "_" + axis);
    for (int i = 1; i <= 3; ++i)
      for (int j = 1; j <= 3; ++j) add(b.name + "_R" + std::to_string(i) + std::to_string(j));
  }
  for (const std::string& c : contacts_)
    for (const char* axis : {"x", "y", "z"}) add(c + "_point_" + axis);
  return names;
}

template <class S>
std::vector<S> Scene<S>::values(const Vec<S>& q, const Vec<S>& qdot) const {
  using std::isfinite;
  using boost::multiprecision::isfinite;
  std::vector<S> v;
  v.reserve(12 * bodies_.size() + 3 * contacts_.size());
  if (file_) {
    const std::vector<S> out = outputs(q);
    const FileScene& scene = *file_->scene;
    for (const FileSceneBody& b : scene.bodies)
      for (int i = 0; i < 12; ++i) v.push_back(out[static_cast<std::size_t>(b.pose + i)]);
    for (const FileSceneContact& c : scene.contacts)
      for (int i = 0; i < 3; ++i) v.push_back(out[static_cast<std::size_t>(c.point + i)]);
  } else {
    Bodies<S> b;
    problem_->sys.bodies(q, qdot, b);
    const auto pose = [&](const Vec<S>& r) {
      for (int i = 0; i < 3; ++i) v.push_back(i < r.size() ? r[i] : S(0));
      for (int i = 0; i < 9; ++i) v.push_back(i % 4 == 0 ? S(1) : S(0));
    };
    for (const PointMass<S>& p : b.points) pose(p.position);
    for (const RigidBody<S>& r : b.rigid_bodies) pose(r.centre);
  }
  for (std::size_t k = 0; k < v.size(); ++k)
    if (!isfinite(v[k]))
      throw NonFiniteValue("the pose value " + columns({})[k] + " is not finite (" + to_string<S>(v[k]) + ")");
  return v;
}

template <class S>
std::vector<S> Scene<S>::plane_rates(const Vec<S>& q) const {
  std::vector<S> rates;
  if (rate_outputs_.empty()) return rates;
  const std::vector<S> out = outputs(q);
  for (int k : rate_outputs_) rates.push_back(out[static_cast<std::size_t>(k)]);
  return rates;
}

template <class S>
void Scene<S>::size_at(const Vec<S>& q) {
  if (!file_) {
    for (SceneBody& b : bodies_) b.size = {0};
    return;
  }
  const FileScene& scene = *file_->scene;
  std::vector<S> out(scene.sizes.outputs.size());
  const Params<S> params(problem_->sys.parameters);
  expression::evaluate(scene.sizes, expression::constants_of<S>(scene.sizes), params, {&q}, out.data());
  for (std::size_t k = 0; k < bodies_.size(); ++k) {
    const FileSceneBody& fb = scene.bodies[k];
    std::vector<double> size;
    for (int i = 0; i < size_count(fb.shape); ++i) size.push_back(to_double(out[static_cast<std::size_t>(fb.size + i)]));
    if (fb.shape == FileSceneBody::Shape::Box) size = box_half_lengths(size[0], size[1], size[2], size[3]);
    bodies_[k].size = size;
  }
}

bool system_has_bodies(const std::string& system) {
  if (is_system_file_name(system)) return cached_system_file(system)->scene.has_value();
  const Study<double>& study = find_study<double>(system);
  return study.build(study.default_parameters()).has_bodies();
}

#define NHS_SESSION_SCENE_(S, NAME) template class Scene<S>;
NHS_FOR_EACH_SCALAR(NHS_SESSION_SCENE_)
#undef NHS_SESSION_SCENE_

}  // namespace nhs
