// Systems from text files (docs/system-files.md): a TOML file names the
// coordinates, parameters, T, V, forces, constraints, psi and its chart,
// bodies, invariants and closed-form motions as expressions
// (nhs/expression.hpp). load_system_file() reads, parses and checks it once,
// in no particular scalar type (studies/systemfile/: the TOML reader, the
// symbolic checks, the readers of each table and the load);
// nhs/studies/system_file.hpp makes it a Study<S>.
#pragma once

#include "nhs/errors.hpp"
#include "nhs/expression.hpp"
#include "nhs/system.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nhs {

/// A system file that cannot be used: `where` is "path:line:column" (of the
/// TOML value; inside an expression, of the offending character), `reason`
/// what is wrong and what was expected. A usage error (exit code 2).
struct FileError : UsageError {
  FileError(const std::string& where_, const std::string& reason_)
      : UsageError(where_ + ": " + reason_), where(where_), reason(reason_) {}
  std::string where;
  std::string reason;
};

/// A closed-form motion of a file ([[exact]]): q(t) (and qdot(t), else
/// obtained by differentiating q(t)) as programs over input array 0 = (t),
/// the parameters of the file with `overrides` applied.
struct FileExactMotion {
  std::string name;
  std::vector<std::pair<std::string, std::string>> overrides;  ///< parameter name, exact decimal
  std::string t_end;                                           ///< exact decimal, > 0
  expression::Program q;     ///< n outputs, inputs (t)
  expression::Program qdot;  ///< n outputs, inputs (t); empty: d/dt of q
  /// Formulations that cannot follow this motion, with the reason
  /// (SpecialMotion::excluded), from `excluded = { voronec = "..." }`.
  std::map<std::string, std::string> excluded;
};

/// A family of steady motions of a file ([[steady]]; Study::steady_families):
/// q and the velocities (z through psi, or qdot) as programs over input
/// array 0 = mu, the family's parameters, and the file's parameters.
struct FileSteadyFamily {
  std::string name;
  std::vector<std::string> parameters;  ///< mu, size p >= 1
  expression::Program q;                ///< n outputs
  expression::Program v;                ///< m outputs (z) when in_z, else n (qdot)
  bool in_z = false;
};

/// One body of [[bodies]]: a point mass (no rotation), a planar rigid body
/// (position of size 2, angular velocity about the normal, moment of
/// inertia) or a rigid body in space (position of size 3, angular velocity
/// and central inertia tensor in the space frame). Its outputs in
/// SystemFile::bodies start at `first`: mass, position (2 or 3), then for a
/// planar body omega_z, I_z; for a body in space omega (3), J (9, row-major).
struct FileBody {
  enum class Kind { Point, Planar, Space } kind = Kind::Point;
  int dimension = 2;
  int first = 0;
};

/// One singular set of a file's [singular] table (System::singular_margins):
/// the margin's CSV-friendly name "margin_<key>" and the condition that
/// SingularState and the messages name ("meaning", or a default text naming
/// the key and its expression).
/// One size of a [[rolling]] surface that depends on the parameters only
/// (SystemFile::sizes): a radius or semi-axis must be > 0, a crown >= 0,
/// at the parameters of every build, not only at the defaults (where the
/// loader checks them): `what` names the table and key, `where` its
/// position in the file.
struct FileSizeCondition {
  std::string what;
  std::string where;
  bool zero_allowed = false;
};

/// A constant central inertia tensor of a [[bodies]] entry given in a
/// frame (its 9 entries are outputs of SystemFile::inertias, row-major):
/// checked by every build at its parameters (inertia_violation).
struct FileInertiaCondition {
  std::string what;   ///< "bodies[k] inertia"
  std::string where;  ///< "path:line:column" of the inertia key
};

/// Why J (3 x 3, kg m^2 or the file's units) is not the central inertia
/// tensor of a rigid body, or "" when it is: not symmetric (beyond 64 eps
/// of its largest entry), not positive semidefinite (a principal moment <
/// -64 eps scale), or breaking the triangle inequality of the principal
/// moments, A + B >= C for each ordering (Goldstein, Poole and Safko,
/// Classical Mechanics, 3rd ed., ch. 5). The reason names the entries or
/// moments and their values (studies/systemfile/body_checks.cpp).
std::string inertia_violation(const Eigen::Matrix3d& J);

struct FileSingularSet {
  std::string name;       ///< "margin_<key>", e.g. "margin_sin_theta"
  std::string condition;  ///< e.g. "Euler-angle chart singular (sin theta = 0)"
};

/// One condition of [parametrization] domain (SystemFile::domain): a strict
/// inequality "a > b" or "a < b" between two expressions in q, z and the
/// parameters. Its margin, "margin_domain_<k>" (k from 1, in the file's
/// order), is a - b (for '>') or b - a (for '<') at z = chart(q, qdot),
/// positive inside the domain, clamped to 0 outside.
struct FileDomainCondition {
  std::string text;     ///< as written (on one line, cut to 80 characters), e.g. "v > 0"
  bool greater = true;  ///< a > b (else a < b)
  std::string name;     ///< "margin_domain_<k>"
};

/// One drawable body of a file's scene (FileScene; docs/animation.md): a
/// [[bodies]] entry, in the file's order. `pose` is the index of its first
/// output in FileScene::program: its centre of mass in space (3), then its
/// frame's rotation matrix R (9, row-major; space = R * frame; the identity
/// for a body given by its position, which has no orientation). A planar
/// body's centre is (x, y, 0). Its shape's outputs start at `size`:
///   Sphere: radius, offset (3);  Disc: radius, offset (3), unit axis (3);
///   Torus: radius, crown, offset (3), unit axis (3);
///   Ellipsoid: semi-axes (3), offset (3);
///   Box: mass, J11, J22, J33 (the central inertia's diagonal in the frame);
///   Point: mass;
///   Mesh (a support-function surface): offset (3), then kMeshVertices
///     points grad h(u_k) (3 each, from the surface's centre) at the
///     directions u_k of mesh_directions(): a UV sphere whose grid's
///     triangles, carried by the homeomorphism u -> grad h(u) of the sphere
///     onto the smooth strictly convex surface, triangulate it;
/// offsets and axes in the body's frame, offset = the surface's centre minus
/// the centre of mass. The shape is the first [[rolling]] surface fixed in
/// the body's frame, else a Box for a body in a frame, else a Point.
struct FileSceneBody {
  enum class Shape { Sphere, Disc, Torus, Ellipsoid, Box, Point, Mesh };
  /// The grid of a Mesh: kMeshLongitudes meridians and kMeshLatitudes
  /// bands from pole to pole; its vertices are the north pole (0, 0, 1),
  /// the kMeshLatitudes - 1 rings (polar angle pi i / kMeshLatitudes, i =
  /// 1, ..., from the north; on each, azimuth 2 pi j / kMeshLongitudes, j =
  /// 0, 1, ...), then the south pole (docs/animation.md, "Shapes").
  static constexpr int kMeshLongitudes = 24, kMeshLatitudes = 12;
  static constexpr int kMeshVertices = 2 + (kMeshLatitudes - 1) * kMeshLongitudes;
  Shape shape = Shape::Point;
  std::string name;   ///< its frame's name ("_2", "_3" for more bodies in it), or "body<k>" (k from 1)
  std::string frame;  ///< its frame, or "" for a body given by its position
  int pose = 0;  ///< its 12 outputs of FileScene::program: centre, then R row-major
  int size = 0;  ///< its first output of FileScene::sizes
};

/// One [[rolling]] contact of a file's scene: its lowest point in space (3
/// outputs of FileScene::program from `point`) and, when the plane turns
/// (plane_rate given), the output of that rate (else -1).
struct FileSceneContact {
  std::string name;
  int point = 0;
  int plane_rate = -1;
};

/// What `nhs animate` and `nhs run --poses` draw of a file with [[bodies]]
/// (studies/systemfile/read_scene.cpp): one program over input array 0 = q
/// (t through the clock coordinate of a rheonomic file) and the parameters,
/// whose outputs FileSceneBody and FileSceneContact index, built from the
/// frames' placements (heights derived by the contacts included) and the
/// contacts' points as the constraints are.
struct FileScene {
  expression::Program program;
  /// The bodies' shape sizes (FileSceneBody::size indexes its outputs), over
  /// q and the parameters as `program`: evaluated once, at a run's first
  /// sample, so that a support surface's mesh (3 kMeshVertices gradients)
  /// is not evaluated with the poses at every sample.
  expression::Program sizes;
  std::vector<FileSceneBody> bodies;      ///< the [[bodies]] but the clock's, in order
  std::vector<FileSceneContact> contacts; ///< the [[rolling]] entries, in order
  int up_axis = 2;  ///< the file's `up`: 0 x, 1 y, 2 z
  int up_sign = 1;  ///< +1 or -1
};

/// A parsed and checked system file (load_system_file). Every program's
/// inputs and names are as docs/system-files.md lists them: q (array 0)
/// and qdot (array 1) as <coordinate> and <coordinate>_dot, z (array 1 in
/// the parametrization) by the quasi-velocities' names, parameters by name.
struct SystemFile {
  std::string path;
  SystemInfo info;                       ///< linear_constraints / affine_constraints from the per-C^a flags below
  std::vector<bool> constraint_linear;   ///< per C^a: d^2 C^a / dqdot^2 == 0 (GiNaC)
  /// Per C^a: linear with a term free of the velocities, C^a = A^a_i(q)
  /// qdot^i + a0^a(q) with a0^a != 0 (GiNaC): a moving support. Such a
  /// system has info.linear_constraints false and, when every C^a is
  /// linear, info.affine_constraints true (the discrete
  /// Lagrange-d'Alembert integrator needs A(q) qdot = 0; Voronec takes it).
  std::vector<bool> constraint_affine;
  /// Per C^a: homogeneous in qdot, sum_i qdot^i dC^a/dqdot^i = k C^a with k
  /// free of the velocities (proved by GiNaC: the degree read off the
  /// expression's structure, or the normalized ratio). Euler's theorem: the
  /// reaction lambda_a dC^a/dqdot then does no work on C (its power is
  /// lambda_a k C^a = 0); otherwise it does, and T + V is not a first
  /// integral (energy_not_conserved_reason).
  std::vector<bool> constraint_homogeneous;
  /// 1 output, (q, qdot): [dynamics] kinetic_energy, or, when the file
  /// gives only [[bodies]], their kinetic energy written out symbolically
  /// (kinetic_energy_from_bodies).
  expression::Program kinetic_energy;
  /// T was derived from [[bodies]]: sum of 1/2 m |dr/dt|^2, dr/dt =
  /// sum_i dr/dq^i q^i_dot (GiNaC), plus 1/2 I_z omega_z^2 (planar) or
  /// 1/2 omega^T J omega (space) per rigid body.
  bool kinetic_energy_from_bodies = false;
  /// What the loader derived instead of reading it (`nhs list` names it):
  /// "T" (from [[bodies]]), "V" (from `gravity`), "psi" (from
  /// dependent_velocities), and the name of each constraint a [[rolling]]
  /// contact adds (docs/bodies.md), in that order of discovery.
  std::vector<std::string> derived;
  std::optional<expression::Program> potential;                ///< 1 output, (q)
  std::optional<expression::Program> forces;                   ///< n outputs, (q, qdot)
  /// [nonideal]: seed 003's C (System::nonideal_constraint_force), n outputs, (q, qdot)
  std::optional<expression::Program> nonideal;
  expression::Program constraints;                             ///< r outputs, (q, qdot)
  std::optional<expression::Program> parametrization;          ///< n outputs, (q, z)
  std::optional<expression::Program> chart;                    ///< m outputs, (q, qdot)
  /// [parametrization] domain: the open set of (q, z) where psi and the
  /// chart hold, one condition each (in the file's order). A z outside it
  /// is refused by psi (SingularState naming the condition, in every scalar
  /// type: a motion whose state holds z stops there; never mapped by the
  /// chart to another z), and each condition is a
  /// margin of System::singular_margins at z = chart(q, qdot), after those
  /// of [singular], so that a state outside the domain, or a motion that
  /// reaches its boundary, is refused by name as at a singular set.
  std::vector<FileDomainCondition> domain_conditions;
  /// Two outputs per condition (its sides a, b), inputs (q, z); empty
  /// without a domain.
  std::optional<expression::Program> domain;
  std::optional<expression::Program> bodies;                   ///< see FileBody, (q, qdot)
  std::vector<FileBody> body_layout;
  /// The sizes of the rolling surfaces (FileSizeCondition), one output
  /// each, parameters only; checked by every build at its parameters
  /// (file_description.hpp, file_parameter_violation).
  std::optional<expression::Program> sizes;
  std::vector<FileSizeCondition> size_conditions;
  /// The constant inertias of the bodies given in frames (FileInertiaCondition),
  /// 9 outputs each, parameters only; checked by every build at its parameters.
  std::optional<expression::Program> inertias;
  std::vector<FileInertiaCondition> inertia_conditions;
  /// The scene drawn of the bodies (FileScene); empty without [[bodies]].
  std::optional<FileScene> scene;
  expression::Program initial_q;                               ///< n outputs, parameters only
  /// Formulations that cannot follow the default motion (Study::default_run_excluded).
  std::map<std::string, std::string> initial_excluded;
  std::optional<expression::Program> initial_qdot;             ///< n outputs, parameters only
  std::optional<expression::Program> initial_z;                ///< m outputs, parameters only
  std::vector<std::string> invariant_names;
  std::optional<expression::Program> invariants;               ///< one output each, (q, qdot)
  /// [holonomic]: f^k(q), one output each, inputs (q); their velocity forms
  /// are the last constraints of `constraints` (named holonomic_names).
  expression::Program holonomic;
  std::vector<std::string> holonomic_names;
  std::vector<int> holonomic_dependent;  ///< dependent_coordinates (indices), empty or one per f^k
  std::vector<FileExactMotion> exact;
  std::vector<FileSteadyFamily> steady;                        ///< [[steady]], in the file's order
  /// [singular], in the order of the file: one per output of `singular`.
  std::vector<FileSingularSet> singular_sets;
  /// One output per singular set, (q, qdot); the margin is the absolute value
  /// of the output (0 on the set). Empty when the file declares none.
  std::optional<expression::Program> singular;
  /// "path:line:column" of each section and of some keys ("constraints",
  /// "parametrization", "domain", "chart", "initial", "dynamics.kinetic_energy" (the [[bodies]] when T
  /// comes from them), "bodies", "singular", "exact.<k>", "steady.<k>"),
  /// for the checks made after parsing.
  std::map<std::string, std::string> locations;
  /// "path:line:column" of `key` in locations, or the path alone.
  std::string where(const std::string& key) const {
    const auto it = locations.find(key);
    return it == locations.end() ? path : it->second;
  }
};

namespace detail {
/// The checks of load_system_file that evaluate the system
/// (studies/file_checks.cpp). Returns true when g is singular at the initial
/// state but positive semidefinite with [g; A] of full rank (massless parts:
/// SystemInfo::semidefinite_metric); throws FileError when g is neither
/// that nor positive definite.
bool check_system_file_numerically(const std::shared_ptr<const SystemFile>& file);
}  // namespace detail

/// Why T + V is not a first integral of the file's system, or "" when it
/// is: "non-conservative forces do work" when [dynamics] has forces, "the
/// non-ideal constraint force [nonideal] does work" when the file has it, and
/// "constraint <name> is not homogeneous in the velocities: its reaction
/// does work" for the constraints that are not
/// (SystemFile::constraint_homogeneous), joined by "; ". file_study's
/// conserves_energy is true exactly when this is empty.
std::string energy_not_conserved_reason(const SystemFile& file);

/// True when `name` designates a system file rather than a built-in study:
/// it contains '/', ends with ".toml", or is a bundled system's name
/// (nhs/studies/bundled.hpp).
bool is_system_file_name(const std::string& name);

/// Reads, parses and checks the system file at `path` (docs/system-files.md;
/// a bundled system's name reads its file, system_file_path):
/// TOML syntax, known and required keys, names, the expressions (syntax,
/// unknown names with the known ones listed, division of constants by
/// zero), entry counts, holonomic "constraints" (no velocity), linearity of
/// each C^a in qdot (detected symbolically), the declared Voronec split,
/// T from [[bodies]] when [dynamics] gives no kinetic_energy (refused, at
/// the [[bodies]], when it cannot be written as an expression), the
/// [singular] table, and at the default parameters, in 50 digits: psi
/// satisfies C and the chart inverts psi (at the initial state and at
/// random states near it), the metric g is positive definite at the initial
/// state, the bodies' T equals `kinetic_energy`, the initial state and each
/// [[exact]] motion's start are off every singular set of [singular].
/// Also refused, at the offending function or power: a constant (no name
/// in it) argument outside a function's real domain (sqrt or log of a
/// negative number, asin(2), acosh(0.5), atanh(1), 0^-1, (-8)^(1/3), ...).
/// Throws FileError ("path:line:column: reason") for every failure, and
/// ("path: reason") when the file cannot be read (missing, unreadable, a
/// directory): all usage errors (exit code 2).
std::shared_ptr<const SystemFile> load_system_file(const std::string& path);

/// load_system_file of a system file's `text` held in memory (no file is
/// read): the same TOML guard (the pre-scan of non-ASCII text before
/// toml++), the same checks and the same errors, FileError
/// "name:line:column: reason" naming `name` where the path version names
/// the path; `name` also gives the system's name when the text has no
/// `name` key (its last '/'-part without ".toml", as a path's). Nothing
/// is cached (cached_system_text keeps texts for the other commands).
std::shared_ptr<const SystemFile> load_system_text(const std::string& text, const std::string& name);

}  // namespace nhs
