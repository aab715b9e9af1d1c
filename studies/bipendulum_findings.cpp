// What the suite finds about the bipendulum (docs/special-motions.md, docs/errata.md):
// the circle of 000 eq. 89 as the epsilon -> 0 limit of regular motions, and
// the linear bipendulum against the bipendulum (Hertz's limit).
#include "nhs/studies/all.hpp"
#include "nhs/studies/bipendulum.hpp"

#include "nhs/first_kind.hpp"
#include "nhs/formulation.hpp"
#include "nhs/integrate.hpp"
#include "nhs/singular_set.hpp"

namespace nhs {

namespace {

template <class S>
IntegrationOptions<S> options(const S& t_end, const S& dt_out, const FindingSettings<S>& fs) {
  IntegrationOptions<S> io;
  io.t_end = t_end;
  io.dt_out = dt_out;
  io.rtol = io.atol = fs.tol;
  io.stepper = fs.stepper;
  return io;
}

}  // namespace

template <class S>
CircleLimit<S> circle_limit(const S& epsilon, const S& t_end, const S& dt_out,
                            const FindingSettings<S>& fs) {
  using std::abs;
  using std::min;
  using std::sqrt;
  const Study<S>& st = find_study<S>("bipendulum");
  const System<S> sys = st.build({S(1), S(1), S(0), S(0)});
  // P1 = (1, 0.5) turns about P0 = P2 = (0, -0.4) with w1 = 0.9; v2 = (0, eps).
  const S y0 = from_string<S>("-0.4"), w1 = from_string<S>("0.9");
  Vec<S> q(4), qd(4);
  q << S(1), from_string<S>("0.5"), S(0), y0;
  qd << -(w1 * (q[1] - y0)), w1 * q[0], S(0), epsilon;
  const S r0 = sqrt(q[0] * q[0] + (q[1] - y0) * (q[1] - y0));

  CircleLimit<S> out{epsilon, S(0), S(0), S(-1), {}};
  integrate<S>(
      sys, find_formulation<S>(fs.formulation), q, qd, options(t_end, dt_out, fs),
      [&](const Sample<S>& s) {
        const S sigma = regularity_margins(sys, s.q, s.qdot).front().value;
        out.min_sigma = out.min_sigma < 0 ? sigma : min(out.min_sigma, sigma);
        out.samples.push_back({s.q, s.qdot});
        using std::cos;
        using std::sin;
        const S r = sqrt(s.q[0] * s.q[0] + (s.q[1] - y0) * (s.q[1] - y0));
        out.radial_distance = abs(r - r0);
        const S c = cos(w1 * s.t), sn = sin(w1 * s.t);
        const S dx = q[0], dy = q[1] - y0;
        const S ex = s.q[0] - (dx * c - dy * sn), ey = s.q[1] - (y0 + dx * sn + dy * c);
        out.distance = sqrt(ex * ex + ey * ey);
      },
      nullptr);
  return out;
}

template <class S>
std::vector<HertzSample<S>> hertz_comparison(const S& m0, const S& t_end, const S& dt_out,
                                             const FindingSettings<S>& fs) {
  const Study<S>& bi = find_study<S>("bipendulum");
  const Study<S>& lin = find_study<S>("linear-bipendulum");
  const S mass1 = from_string<S>("0.8"), mass2 = from_string<S>("1.5");
  const System<S> sys_bi = bi.build({mass1, mass2, S(0), S(0)});
  const System<S> sys_lin = lin.build({mass1, mass2, m0, S(0)});
  // docs/special-motions.md bipendulum (a).
  Vec<S> q(4), z(3);
  q << from_string<S>("1.2"), from_string<S>("0.3"), from_string<S>("-0.9"),
      from_string<S>("-0.5");
  z << from_string<S>("0.4"), from_string<S>("0.6"), from_string<S>("-0.8");
  const State<S> x_bi = bipendulum_state<S>(q, z[0], z[1], z[2]);
  // The linear model starts with P0 where the bipendulum has it, moving as
  // it does at t = 0: y0d = zdot^1 of the first kind.
  const S y0d = first_kind<S>(sys_bi, q, z).zdot[0];
  Vec<S> q_lin(5), qd_lin(5);
  q_lin << q, z[0];
  qd_lin << x_bi.qdot, y0d;

  const IntegrationOptions<S> io = options(t_end, dt_out, fs);
  const Formulation<S>& f = find_formulation<S>(fs.formulation);
  std::vector<Sample<S>> bi_samples;
  integrate<S>(sys_bi, f, x_bi.q, x_bi.qdot, io,
               [&](const Sample<S>& s) { bi_samples.push_back(s); }, nullptr);
  std::vector<HertzSample<S>> out;
  integrate<S>(
      sys_lin, f, q_lin, qd_lin, io,
      [&](const Sample<S>& s) {
        using std::sqrt;
        if (out.size() >= bi_samples.size()) return;
        const Vec<S>& p = bi_samples[out.size()].q;
        const Vec<S>& pd = bi_samples[out.size()].qdot;
        out.push_back({s.t, bipendulum_hidden_y0(p, pd), s.q[4],
                       sqrt((s.q[0] - p[0]) * (s.q[0] - p[0]) + (s.q[1] - p[1]) * (s.q[1] - p[1])),
                       sqrt((s.q[2] - p[2]) * (s.q[2] - p[2]) + (s.q[3] - p[3]) * (s.q[3] - p[3]))});
      },
      nullptr);
  return out;
}

template <class S>
NearSingular<S> symmetric_near_turning_point(const S& fraction, const FindingSettings<S>& fs) {
  using std::max;
  const SpecialMotion<S> mo = symmetric_pendulum_motion<S>(fraction);
  const System<S> sys = find_study<S>("bipendulum").build(mo.parameters);
  State<S> last;
  integrate<S>(sys, find_formulation<S>(fs.formulation), mo.initial.q, mo.initial.qdot,
               options(mo.t_end, mo.t_end, fs),
               [&](const Sample<S>& s) { last = {s.q, s.qdot}; }, nullptr);
  const State<S> e = mo.exact(mo.t_end);
  return {max((last.q - e.q).cwiseAbs().maxCoeff(), (last.qdot - e.qdot).cwiseAbs().maxCoeff()),
          regularity_margins(sys, last.q, last.qdot).front().value};
}

#define NHS_BIPENDULUM_FINDINGS_(S, NAME)                                                   \
  template CircleLimit<S> circle_limit<S>(const S&, const S&, const S&,                     \
                                          const FindingSettings<S>&);                       \
  template std::vector<HertzSample<S>> hertz_comparison<S>(const S&, const S&, const S&,    \
                                                           const FindingSettings<S>&);      \
  template NearSingular<S> symmetric_near_turning_point<S>(const S&, const FindingSettings<S>&);
NHS_FOR_EACH_SCALAR(NHS_BIPENDULUM_FINDINGS_)

}  // namespace nhs
