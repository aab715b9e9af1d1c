// A [[rolling]] surface given by its support function (docs/bodies.md,
// "Support functions"): surface = "support", support = "h(ux, uy, uz)", h
// the 1-homogeneous support function of a smooth strictly convex body in
// its frame (the origin of h at `centre`). The contact point is grad h(u)
// at u = -R^T up (frames::support_contact), grad h and the Hessian of h are
// the graph's own derivatives with respect to u (codegen::gradient_nodes),
// and the smallest radius of curvature at the contact, over the smallest
// found on the surface at the default parameters, is the contact's singular
// margin (frames::principal_radii).
#include "loader.hpp"

#include "nhs/codegen/differentiate.hpp"
#include "nhs/scalar.hpp"

#include <cmath>
#include <sstream>

namespace nhs::systemfile {

using codegen::Expr;

namespace {

// The names of the direction's components in `support`.
const std::array<std::string, 3> kDirection = {"ux", "uy", "uz"};

// Directions at which check_support evaluates h: the six axes and 58 points
// of a Fibonacci lattice on the unit sphere (deterministic, nearly uniform).
std::vector<Eigen::Vector3d> probe_directions() {
  std::vector<Eigen::Vector3d> out;
  for (int i = 0; i < 3; ++i)
    for (const double sign : {1.0, -1.0}) {
      Eigen::Vector3d e = Eigen::Vector3d::Zero();
      e(i) = sign;
      out.push_back(e);
    }
  const int count = 58;
  const double golden = M_PI * (3 - std::sqrt(5.0));
  for (int k = 0; k < count; ++k) {
    const double z = 1 - (2 * k + 1.0) / count, r = std::sqrt(1 - z * z);
    out.emplace_back(r * std::cos(golden * k), r * std::sin(golden * k), z);
  }
  return out;
}

std::string vector_text(const Eigen::Vector3d& v) {
  std::ostringstream o;
  o.precision(6);
  o << "(" << v(0) << ", " << v(1) << ", " << v(2) << ")";
  return o.str();
}

}  // namespace

Loader::SupportAt Loader::support_at(const RollingSpec& s, const Vector3<Expr>& u, Program& p, bool hessian) {
  Bindings b = bind({});
  std::vector<int> seeds;
  for (int i = 0; i < 3; ++i) {
    // A node of its own equal to u_i (u + 0, appended: never shared), the
    // variable that h is differentiated by.
    seeds.push_back(p.graph.append(codegen::Op::Add, u(i).id(), p.graph.constant(0)));
    b[kDirection[static_cast<std::size_t>(i)]] = {-1, -1, nullptr, seeds.back()};
  }
  SupportAt out;
  out.h = Expr::from_id(node_in(*s.support, 0, std::string::npos, s.what + " support", b, p));
  const std::vector<int> g = codegen::gradient_nodes(p.graph, {out.h.id()}, seeds);
  for (int i = 0; i < 3; ++i) out.gradient(i) = Expr::from_id(g[static_cast<std::size_t>(i)]);
  if (hessian) {
    const std::vector<int> H = codegen::gradient_nodes(p.graph, g, seeds);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) out.hessian(i, j) = Expr::from_id(H[static_cast<std::size_t>(3 * i + j)]);
  }
  return out;
}

Expr Loader::support_margin(int k, Program& p) {
  const RollingSpec& s = rolling_[static_cast<std::size_t>(k)];
  Placements done;
  const frames::Placement<Expr>& P = placement_of(s.frame, p, false, done, false);
  const Vector3<Expr> u = -(P.rotation.transpose() * up());
  return frames::principal_radii(support_at(s, u, p, true).hessian, u).first / Expr(s.support_scale);
}

void Loader::check_support(RollingSpec& s, const toml::node& n) {
  const std::string what = s.what + " support";
  for (const std::string& name : kDirection)
    if (const auto it = names_.find(name); it != names_.end())
      fail(n, what + ": '" + name + "' is already the name of a " + it->second.second +
                  ", and in a support function ux, uy, uz are the direction u's components");
  // h, grad h (3) and its Hessian (9) over u = input array 0.
  Program p;
  Bindings b = bind({});
  for (int i = 0; i < 3; ++i) b[kDirection[static_cast<std::size_t>(i)]] = {0, i};
  const int h = node_in(n, 0, std::string::npos, what, b, p);
  const std::vector<int> g = codegen::jacobian_nodes(p.graph, {h}, 1, 3);
  const std::vector<int> H = codegen::jacobian_nodes(p.graph, g, 1, 3);
  p.outputs = {h};
  p.outputs.insert(p.outputs.end(), g.begin(), g.end());
  p.outputs.insert(p.outputs.end(), H.begin(), H.end());
  std::vector<double> defaults;
  for (const Parameter& par : f_.info.parameters) defaults.push_back(from_string<double>(par.default_value));
  const expression::Constants<double> c = expression::constants_of<double>(p);
  const Params<double> params(defaults);
  const auto at = [&](const Eigen::Vector3d& u) {
    const Vec<double> in = u;
    std::array<double, 13> out{};
    expression::evaluate(p, c, params, {&in}, out.data());
    return out;
  };
  std::ostringstream o;
  o.precision(17);
  const std::vector<Eigen::Vector3d> directions = probe_directions();
  for (const Eigen::Vector3d& u : directions) {
    const auto v = at(u), v2 = at(2 * u);
    if (!std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); }) || !std::isfinite(v2[0])) {
      o << what << " is not defined (h or its derivatives are not finite) at u = " << vector_text(u)
        << ", at the default parameters";
      fail(n, o.str());
    }
  }
  s.support_scale = std::numeric_limits<double>::infinity();
  for (const Eigen::Vector3d& u : directions) {
    const auto v = at(u), v2 = at(2 * u);
    const double scale = std::abs(v[0]) + std::hypot(v[1], v[2], v[3]);
    if (std::abs(v2[0] - 2 * v[0]) > 1e-10 * scale) {
      o << what << " is not 1-homogeneous: h(2u) = " << v2[0] << " but 2 h(u) = " << 2 * v[0]
        << " at u = " << vector_text(u) << " (the default parameters); write it as |u| h(u/|u|)";
      fail(n, o.str());
    }
    Eigen::Matrix3d hess;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) hess(i, j) = v[static_cast<std::size_t>(4 + 3 * i + j)];
    const auto [r_min, r_max] = frames::principal_radii<double>(hess, u);
    if (!(r_min > 64 * std::numeric_limits<double>::epsilon() * scale)) {
      o << what << ": its radii of curvature at u = " << vector_text(u) << " are " << r_min << " and " << r_max
        << " (the default parameters): h must be the support function of a smooth strictly convex body, "
           "whose radii of curvature are all positive";
      fail(n, o.str());
    }
    s.support_scale = std::min(s.support_scale, r_min);
  }
}

}  // namespace nhs::systemfile
