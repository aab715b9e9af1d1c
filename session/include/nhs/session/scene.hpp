// The scene of a system (docs/animation.md): what `nhs run --poses` writes
// as CSV columns and `nhs animate` and Run.animate draw. A system file with [[bodies]] has
// its loader's scene (nhs/systemfile/system_file.hpp, FileScene): each body's
// centre of mass and rotation matrix, its shape, the contact points. A
// built-in study whose description has bodies gets a point at each centre of
// mass (no orientation: R = I). Anything else is refused.
#pragma once

#include "nhs/expression.hpp"
#include "nhs/session/problem.hpp"
#include "nhs/systemfile/system_file.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace nhs {

/// One body as drawn: its name (the CSV columns' prefix), its frame ("" for
/// none), its shape ("sphere", "disc", "torus", "ellipsoid", "box",
/// "point", "mesh"; FileSceneBody::Shape) and the shape's sizes in metres of the
/// file (FileSceneBody's list, evaluated at the run's parameters and its
/// first state; a box's: half-lengths (3) from the inertia's diagonal, a
/// point's: its mass).
struct SceneBody {
  std::string name, frame, shape;
  std::vector<double> size;
};

/// Whether `system` (a system file's path or a study id) has bodies that a
/// Scene draws: a file with [[bodies]], a study whose description has a
/// `bodies` member (at its default parameters). UsageError for an unknown
/// study or a file that does not load, as find_study and the loader give.
bool system_has_bodies(const std::string& system);

/// The scene of the run of `problem`: bodies and contacts in order, and the
/// poses at a state. Shapes: values() has 12 entries per body (centre x, y,
/// z, then R11, R12, ..., R33 row-major, space = R frame) then 3 per contact
/// (its point x, y, z), in S.
template <class S>
class Scene {
 public:
  /// The scene of `problem`'s system at its parameters. Throws UsageError
  /// "<system> has no bodies to draw: ..." naming what it lacks (a file
  /// without [[bodies]], a built-in study whose description has no bodies).
  explicit Scene(const Problem<S>& problem);

  const std::vector<SceneBody>& bodies() const { return bodies_; }
  const std::vector<std::string>& contacts() const { return contacts_; }
  /// The file's up axis (0 x, 1 y, 2 z) and sign; z, +1 for a study.
  int up_axis() const { return up_axis_; }
  int up_sign() const { return up_sign_; }
  /// True when some contact's plane turns (plane_rates() is not empty).
  bool plane_turns() const { return !rate_outputs_.empty(); }

  /// The CSV columns of values(): <body>_x, _y, _z, <body>_R11 ... _R33,
  /// then <contact>_point_x, _point_y, _point_z; a name among `taken` (the
  /// run's own columns) or already given is prefixed "pose_" (then "_2", ...).
  std::vector<std::string> columns(const std::vector<std::string>& taken) const;
  /// The poses at (q, qdot) (see the class comment). Throws NonFiniteValue
  /// naming the column when a value is not finite.
  std::vector<S> values(const Vec<S>& q, const Vec<S>& qdot) const;
  /// The turning planes' rates at q (one per contact with plane_rate, in order).
  std::vector<S> plane_rates(const Vec<S>& q) const;
  /// Fills SceneBody::size at the state (q, qdot): called once, at the first sample.
  void size_at(const Vec<S>& q);

 private:
  const Problem<S>* problem_;
  std::shared_ptr<const SystemFile> file_;  ///< null for a built-in study
  std::vector<SceneBody> bodies_;
  std::vector<std::string> contacts_;
  std::vector<int> rate_outputs_;
  expression::Constants<S> constants_;  ///< of the file's scene program
  int up_axis_ = 2, up_sign_ = 1;
  std::vector<S> outputs(const Vec<S>& q) const;
};

}  // namespace nhs
