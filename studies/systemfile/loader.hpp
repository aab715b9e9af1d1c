// The Loader of a system file (load_system_file, load.cpp): reads each table
// of the TOML text into a SystemFile, checks its names and its expressions
// (symbolic_checks.hpp) and adds the clock coordinate of a rheonomic system.
// Its readers are written by what they read: the names, coordinates and
// parameters (read_names.cpp), the dynamics and the bodies
// (read_dynamics.cpp), the constraints (read_constraints.cpp), psi, its chart
// and domain (read_parametrization.cpp), the invariants and singular sets
// (read_margins.cpp), the initial state, [[exact]] and [[steady]]
// (read_motions.cpp). Private to the studies library (studies/systemfile/).
#pragma once

#include "symbolic_checks.hpp"
#include "toml_reader.hpp"

#include "nhs/codegen/expr.hpp"
#include "nhs/rigid_frames.hpp"
#include "nhs/rolling_contact.hpp"

#include <array>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nhs::systemfile {

// The expression types the Loader's readers use.
using expression::Ast;
using expression::Bindings;
using expression::Kind;
using expression::Program;

// The clock coordinate that t becomes, its velocity and its constraint
// (docs/affine-constraints.md A5).
inline const std::string kClock = "time";
inline const std::string kClockConstraint = "clock";

// The surfaces of [[rolling]] (read_rolling.cpp).
enum class RollingSurface { Sphere, Disc, Torus, Ellipsoid, Support };

/// Loads the system file named `name` (its path, or load_system_text's name)
/// from its text, once: FileError "name:line:column: reason" for every
/// failure (nhs/systemfile/system_file.hpp, load_system_file).
class Loader : TomlReader {
 public:
  explicit Loader(std::string name) : TomlReader(std::move(name)) {}

  std::shared_ptr<const SystemFile> load(const std::string& text);

 private:
  toml::table root_;
  SystemFile f_;
  Symbolic sym_;
  // Every name in use, for uniqueness, with where it was claimed (the node
  // and the role, for the message of a collision with a derived name).
  std::map<std::string, std::pair<const toml::node*, std::string>> names_;

  // The system names t: q ends with the clock coordinate kClock.
  bool clocked() const { return f_.info.clock_coordinate >= 0; }
  // The coordinates the file lists (q without the clock).
  std::size_t file_coordinates() const { return f_.info.coordinates.size() - (clocked() ? 1 : 0); }

  // --- loader.cpp: names, expressions and their bindings
  // `name` in `role` (FileError at `at` when reserved or already in use).
  void claim(const toml::node& at, const std::string& name, const std::string& role);
  // Parses the expression in string node `n` into `program` as a new output,
  // with the names of `b`; errors at the character inside the string.
  void expression_into(const toml::node& n, const std::string& what, const Bindings& b, Program& program,
                       GiNaC::ex* symbolic = nullptr);
  // expression_into of `text`, the part of string node `n` that starts at
  // character `offset` of the string (a side of a domain condition).
  void expression_text_into(const toml::node& n, const std::string& text, std::size_t offset,
                            const std::string& what, const Bindings& b, Program& program,
                            GiNaC::ex* symbolic = nullptr);
  // n expressions from an array node (size checked); their GiNaC forms
  // appended to `symbolic` when given.
  void array_into(const toml::node& n, const std::string& what, std::size_t size, const Bindings& b,
                  Program& program, std::vector<GiNaC::ex>* symbolic = nullptr);
  // True when `column` is the margin column of a domain condition.
  bool is_domain_column(const std::string& column) const;
  // The parameters (array -1) and each of `arrays` (names, array index),
  // t as the clock coordinate with q, and <q>_dot as array 1 when asked.
  Bindings bind(std::initializer_list<std::pair<const std::vector<std::string>*, int>> arrays,
                bool velocities_of_coordinates = false) const;
  std::vector<std::string> velocity_names() const;
  // { formulation = "reason" }: formulations that cannot follow a motion.
  std::map<std::string, std::string> excluded_of(const toml::node& n, const std::string& what) const;

  // [let]: the named sub-expressions in the file's order, each tree at a
  // stable address (Binding::let points at it while the file is compiled).
  std::vector<std::string> let_names_;
  std::vector<std::unique_ptr<const expression::Ast>> let_trees_;

  // [[frames]] (read_frames.cpp): a frame's parent (-1: space), its
  // elementary rotations (axis, the string node of "R<axis>(angle)" and the
  // angle's offset in it) and its origin (string nodes, or none: 0).
  struct FrameSpec {
    std::string name;
    int parent = -1;
    std::vector<std::pair<frames::Axis, const toml::node*>> rotations;
    std::vector<std::size_t> angle_offsets;
    std::vector<const toml::node*> origin;
    std::string what;
  };
  std::vector<FrameSpec> frames_;
  // The frames' placements built in one program (by frame).
  using Placements = std::map<int, frames::Placement<codegen::Expr>>;
  // A [[bodies]] entry given in a frame, for its kinetic energy: its index
  // in body_layout, and the nodes (in the bodies' program) of its angular
  // velocity in its own frame Omega and of its inertia J in that frame, so
  // that T's rotational part is 1/2 Omega . J Omega (J constant in q).
  struct FrameBodyNodes {
    std::size_t body = 0;
    std::array<int, 3> omega{};
    std::array<int, 9> inertia{};
  };
  std::vector<FrameBodyNodes> frame_body_nodes_;

  // [[rolling]] (read_rolling.cpp): a convex surface fixed in a frame,
  // rolling on the plane up . x = 0 (turning about the vertical through the
  // space origin at plane_rate), its string nodes as read (null: absent).
  struct RollingSpec {
    using Surface = RollingSurface;
    std::string name, what;
    int frame = -1;
    Surface surface = Surface::Sphere;
    const toml::node* entry = nullptr;
    const toml::node *centre = nullptr, *radius = nullptr, *axis = nullptr, *crown = nullptr,
                     *semi_axes = nullptr, *plane_rate = nullptr, *support = nullptr;
    int solve_for = -1;  // the coordinate solved for the contact condition; -1: the height is derived
    bool no_spin = false;
    bool affine = false;  // plane_rate is not identically 0
    double support_scale = 1;  // support: the smallest radius of curvature over check_support's directions
  };
  std::vector<RollingSpec> rolling_;
  // The root frame whose height a contact derives -> that contact.
  std::map<int, int> lifted_;
  // The vertical (file key `up`): +z unless declared.
  frames::Axis up_axis_ = frames::Axis::z;
  int up_sign_ = 1;

  // --- read_names.cpp
  void read_header();
  void read_parameters();
  void refuse_derived_names() const;
  // --- read_lets.cpp
  void read_lets();
  // The names of [let] that `ast` uses directly, with the position of the first use of each.
  std::vector<std::pair<std::string, std::size_t>> lets_used(const expression::Ast& ast) const;
  // --- read_dynamics.cpp
  void read_dynamics();
  Program by_coordinate(const toml::node& node, const std::string& what);
  void read_nonideal();
  void read_bodies();
  // The names a [[bodies]] entry's expressions may use: the parameters (mass, a planar inertia), and q
  // (position, a space inertia), and q and qdot (angular velocity).
  struct BodyBindings {
    Bindings params, qonly, qqd;
  };
  // Entry `b` of [[bodies]] (`what`: "bodies[k]"), its expressions appended to `p`; returns
  // its layout in p.
  FileBody read_body(const toml::node& b, const std::string& what, const BodyBindings& names, Program& p);
  // --- read_frames.cpp
  void read_frames();
  // Frame `f`'s placement in space, built in `p` (angles and origins from
  // q; with `rates`, omega from the angles' rates along qdot, array 1).
  // With `lift`, a root frame whose height a [[rolling]] contact derives is
  // moved along the vertical so that the contact touches the plane.
  const frames::Placement<codegen::Expr>& placement_of(int f, Program& p, bool rates, Placements& done,
                                                       bool lift = true);
  // The three coordinates (in the order the rotations turn by them) that make frame f's orientation,
  // its rotations and its parents', an Euler-angle chart: each the whole angle of one rotation, the
  // other angles functions of the parameters only; empty when the orientation is not such a chart.
  std::vector<int> chart_coordinates(int f) const;
  // margin_chart_<frame>: |det d omega / d (its chart's coordinate rates)| of each frame whose
  // orientation is an Euler-angle chart (0 at gimbal lock), appended to `singular`.
  void add_chart_margins(Program& singular);
  // A [[bodies]] entry with a `frame`: mass, centre and central inertia in
  // that frame; its space-frame outputs (centre, omega, R J R^T) appended.
  FileBody read_frame_body(const toml::node& b, const std::string& what, const BodyBindings& names, Program& p,
                           Placements& done);
  // The node of the expression of string node `n` from character `offset`
  // (`length` characters, npos: to its end), errors at their character.
  int node_in(const toml::node& n, std::size_t offset, std::size_t length, const std::string& what,
              const Bindings& b, Program& p);
  // --- read_rolling.cpp
  void read_up();
  void read_rolling();
  // Entry k (from 1) of [[rolling]]: its frame, surface and keys (the height is read_rolling's).
  RollingSpec rolling_spec(const toml::node& entry, int k);
  // The no-slip (and no-spin) constraints of every contact, appended to C.
  void add_no_slip();
  // The contact conditions solved for a coordinate: holonomic, after [holonomic].
  void add_contact_conditions();
  // One singular margin per contact whose lowest point can stop being unique (disc, torus), or
  // whose surface can stop being strictly convex there (support: the smallest radius of curvature).
  void add_contact_margins(Program& singular);
  // V of `gravity` (a vector in space): -sum_b m_b g . r_b, plus [dynamics] potential.
  void read_gravity();
  Vector3<codegen::Expr> up() const;
  // Contact k's lowest point in space, built in `p` (inside a Recording of p.graph).
  frames::ContactPoint<codegen::Expr> contact_of(int k, Program& p, bool rates, Placements& done, bool lift);
  // A 3-vector of expressions of q and the parameters (string nodes of array node `n`).
  Vector3<codegen::Expr> vector_in(const toml::node& n, const std::string& what, Program& p);
  // --- read_support.cpp: a surface given by its support function h(u) (docs/bodies.md)
  // h, grad h and (with `hessian`) its Hessian at the body-frame direction u (nodes of p): h compiled
  // with ux, uy, uz bound to fresh nodes equal to u's, differentiated with respect to them
  // (codegen::gradient_nodes), so that h depends on q only through u.
  struct SupportAt {
    codegen::Expr h;
    Vector3<codegen::Expr> gradient;
    Matrix3<codegen::Expr> hessian;
  };
  SupportAt support_at(const RollingSpec& s, const Vector3<codegen::Expr>& u, Program& p, bool hessian);
  // Contact k's smallest radius of curvature at the contact (a support surface) over its
  // support_scale, built in p: a margin of unit scale, as the other margins (>= about 1 at the
  // default parameters; 0 where the surface stops being strictly convex).
  codegen::Expr support_margin(int k, Program& p);
  // Reads `support` (names: the parameters, the lets, ux, uy, uz) and checks h at the default
  // parameters over a fixed set of directions: finite, 1-homogeneous, radii of curvature > 0; sets
  // s.support_scale.
  void check_support(RollingSpec& s, const toml::node& n);
  // --- read_scene.cpp: SystemFile::scene, after [[bodies]] and [[rolling]]
  void read_scene();
  // Body `body`'s shape in frame `frame` (the first [[rolling]] surface fixed in it, else a box from
  // entry `b`'s inertia), its sizes appended to `p`; `centre`: its centre of mass in the frame.
  void scene_shape(FileSceneBody& body, int frame, const Vector3<codegen::Expr>& centre, const toml::node& b,
                   const std::string& what, Program& p);
  // --- body_checks.cpp
  // The value of string node `n` at the default parameters; nullopt when it
  // names anything but parameters.
  std::optional<double> at_defaults(const toml::node& n, const std::string& what);
  // A constant inertia (3 x 3 string nodes) symmetric, positive semidefinite, triangle inequality.
  void check_inertia(const toml::node& Jn, const std::string& what,
                     const std::vector<std::vector<const toml::node*>>& rows);
  // A constant size > 0 (>= 0 when zero_allowed).
  void check_size(const toml::node& n, const std::string& what, bool zero_allowed = false);
  // --- read_constraints.cpp
  void read_constraints();
  void read_holonomic();
  void add_clock_constraint(const toml::node& at);
  void read_dependent_velocities();
  // --- read_parametrization.cpp
  void read_parametrization();
  // --- derive_parametrization.cpp: psi from Voronec's split when the file
  // gives dependent_velocities, linear or affine constraints and no psi.
  bool derives_parametrization() const;
  void derive_parametrization();
  // margin_split: how far the derived psi's dependent block A_dep of dC/dqdot is from losing rank,
  // |det A_dep| with each row of dC/dqdot over its norm, over its value at the initial state (1 there;
  // 0 where the split is singular).
  void add_split_margin(Program& singular);
  // The last output of p (inputs q, qdot) at the initial q, qdot = 0 and the default parameters, in double.
  double value_at_initial(const Program& p) const;
  void read_domain(const toml::node& node, const Bindings& qz);
  // --- read_margins.cpp
  void read_invariants();
  void read_singular();
  // The [singular] table `n`, its margins appended to `p`.
  void read_declared_singular(const toml::node& n, Program& p);
  // --- read_motions.cpp
  void read_initial();
  void read_exact();
  void read_steady();
};

}  // namespace nhs::systemfile
