// The contact oscillator (McLachlan & Perlmutter 2006, Example 5.2): a unit
// point mass in R^3 in three unit-frequency oscillators, x and z coupled by
// eps, under the linear constraint C = xd + y zd (the contact form
// dx + y dz). The literature's test problem for non-holonomic integrators:
// besides the energy it conserves H_y = (y^2 + yd^2)/2. z = (v, w):
// xd = -y w, yd = v, zd = w.
#include "nhs/studies/all.hpp"
#include "nhs/studies/chart_state.hpp"
#include "nhs/studies/traced.hpp"

namespace nhs {
namespace {

enum Param { eps };

struct ContactOscillator {
  static constexpr int n = 3;  // coordinates: derivations in fixed-size AD
  static SystemInfo info() {
    return {.name = "contact-oscillator",
            .title = "contact oscillator: three oscillators under xd + y zd = 0",
            .source = "McLachlan & Perlmutter 2006, Ex. 5.2",
            .coordinates = {"x", "y", "z"},
            .parameters = {{"eps", "1", "coupling of x and z, V = |q|^2/2 + eps x^2 z^2/2"}},
            .constraint_names = {"C1"},
            .quasi_velocities = {"v", "w"},
            .linear_constraints = true,
            .dependent_velocities = {0}};  // xd = -y zd: coefficient 1, never singular
  }
  template <class T>
  static T kinetic_energy(const Params<T>&, const Vec<T>& q, const Vec<T>& qd) {
    (void)q;
    const T half = ratio<T>(1, 2);
    return half * (qd[0] * qd[0] + qd[1] * qd[1] + qd[2] * qd[2]);
  }
  template <class T>
  static T potential(const Params<T>& p, const Vec<T>& q) {
    const T half = ratio<T>(1, 2);
    return half * (q[0] * q[0] + q[1] * q[1] + q[2] * q[2]) +
           q[0] * q[0] * q[2] * q[2] * p[eps] * half;
  }
  template <class T>
  static void constraints(const Params<T>&, const Vec<T>& q, const Vec<T>& qd, Vec<T>& C) {
    C[0] = qd[0] + q[1] * qd[2];
  }
  template <class T>
  static void parametrization(const Params<T>&, const Vec<T>& q, const Vec<T>& z, Vec<T>& qd) {
    qd[0] = -q[1] * z[1];
    qd[1] = z[0];
    qd[2] = z[1];
  }
  template <class S>
  static void chart(const Params<S>&, const Vec<S>& q, const Vec<S>& qd, Vec<S>& z) {
    (void)q;
    z[0] = qd[1];
    z[1] = qd[2];
  }
  /// One point of unit mass at (x, y, z).
  template <class T>
  static void bodies(const Params<T>&, const Vec<T>& q, const Vec<T>&, Bodies<T>& out) {
    out.add_point(ratio<T>(1), space_position(q[0], q[1], q[2]));
  }
};

// docs/special-motions.md contact-oscillator (a): on y = yd = 0 the
// constraint freezes x = x0, and z oscillates at w = sqrt(1 + eps x0^2);
// eps = 2, x0 = 3/2, z(0) = 0.6, zd(0) = 0.9.
template <class S>
SpecialMotion<S> frozen_x_motion() {
  const S e = S(2), x0 = S(3) / S(2), z0 = from_string<S>("0.6"), zd0 = from_string<S>("0.9");
  using std::sqrt;
  const S w = sqrt(S(1) + e * x0 * x0);
  SpecialMotion<S> mo;
  mo.name = "y = 0: x frozen at 1.5, z at frequency sqrt(1 + eps x0^2), eps = 2";
  mo.source = "docs/special-motions.md contact-oscillator (a)";
  mo.parameters = {e};
  mo.t_end = S(20);
  mo.exact = [=](const S& t) {
    using std::cos;
    using std::sin;
    Vec<S> q(3), qd(3);
    q << x0, S(0), z0 * cos(w * t) + zd0 / w * sin(w * t);
    qd << S(0), S(0), -z0 * w * sin(w * t) + zd0 * cos(w * t);
    return State<S>{q, qd};
  };
  mo.initial = mo.exact(S(0));
  return mo;
}

// docs/special-motions.md contact-oscillator (b): x = z = 0, y the free
// oscillator 0.7 cos t - 0.4 sin t; default eps.
template <class S>
SpecialMotion<S> free_y_motion() {
  const S a = from_string<S>("0.7"), b = from_string<S>("-0.4");
  SpecialMotion<S> mo;
  mo.name = "x = z = 0: y a free oscillator";
  mo.source = "docs/special-motions.md contact-oscillator (b)";
  mo.parameters = {S(1)};
  mo.t_end = S(20);
  mo.exact = [=](const S& t) {
    using std::cos;
    using std::sin;
    Vec<S> q(3), qd(3);
    q << S(0), a * cos(t) + b * sin(t), S(0);
    qd << S(0), -a * sin(t) + b * cos(t), S(0);
    return State<S>{q, qd};
  };
  mo.initial = mo.exact(S(0));
  return mo;
}

}  // namespace

template <class S>
Study<S> contact_oscillator_study() {
  Study<S> st = study_of<S, ContactOscillator>();
  st.default_state = [](const System<S>& sys) {
    Vec<S> q(3);
    q << S(1) / S(2), S(4) / S(5), -S(3) / S(10);
    return state_from_chart(sys, q, {S(2) / S(5), S(7) / S(10)});
  };
  st.invariants = [](const System<S>& sys) {
    std::vector<Invariant<S>> inv;
    // y is a free oscillator: the reaction lambda (1, 0, y) has no y
    // component and V separates in y.
    inv.push_back({"H_y",
                   [](const Vec<S>& q, const Vec<S>& qd) {
                     return (q[1] * q[1] + qd[1] * qd[1]) / S(2);
                   },
                   true});
    // The energy left in x and z, E - H_y.
    const S e = sys.parameter("eps");
    inv.push_back({"H_xz",
                   [e](const Vec<S>& q, const Vec<S>& qd) {
                     return (qd[0] * qd[0] + qd[2] * qd[2] + q[0] * q[0] + q[2] * q[2] +
                             e * q[0] * q[0] * q[2] * q[2]) /
                            S(2);
                   },
                   true});
    return inv;
  };
  st.special_motions = [] {
    return std::vector<SpecialMotion<S>>{frozen_x_motion<S>(), free_y_motion<S>()};
  };
  return st;
}

#define NHS_CONTACT_OSCILLATOR_(S, NAME) template Study<S> contact_oscillator_study<S>();
NHS_FOR_EACH_SCALAR(NHS_CONTACT_OSCILLATOR_)

TracedStudy contact_oscillator_traced() { return traced_study_of<ContactOscillator>(); }

}  // namespace nhs
