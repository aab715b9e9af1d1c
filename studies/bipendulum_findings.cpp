// What the suite finds about the bipendulum (docs/special-motions.md, docs/errata.md):
// the circle of 000 eq. 89 as the epsilon -> 0 limit of regular motions, the
// linear bipendulum against the bipendulum (Hertz's limit), the energy
// separation, the symmetric motion up to its singular turning point; and the
// tables of `nhs findings` with the parameters they were made with
// (nhs/studies/bipendulum_findings.hpp).
#include "nhs/studies/bipendulum_findings.hpp"

#include "nhs/studies/all.hpp"
#include "nhs/studies/bipendulum.hpp"

#include "nhs/first_kind.hpp"
#include "nhs/formulation.hpp"
#include "nhs/integrate.hpp"
#include "nhs/singular_set.hpp"

#include <cmath>
#include <iomanip>
#include <sstream>

namespace nhs {

BipendulumSetup bipendulum_setup_a(const std::string& g) {
  return {"0.8", "1.5", g, "0", {"1.2", "0.3", "-0.9", "-0.5"}, {"0.4", "0.6", "-0.8"}};
}

BipendulumSetup bipendulum_setup_harmonic() {
  return {"0.8", "1.5", "0", "1", {"1.5", "0", "0.5", "1"}, {"0", "1", "-1"}};
}

namespace {

// docs/special-motions.md bipendulum (b), the family whose epsilon -> 0
// limit is the circle of eq. 89: m1 = m2 = 1, g = 0, P1 = (x1, y1) turning
// about P0 = P2 = (0, y0) with rate w1, v2 = (0, epsilon).
struct CircleSetup {
  std::string m1 = "1", m2 = "1", g = "0", x1 = "1", y1 = "0.5", y0 = "-0.4", w1 = "0.9";
};

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
  const CircleSetup c;
  const Study<S>& st = find_study<S>("bipendulum");
  const System<S> sys =
      st.build({from_string<S>(c.m1), from_string<S>(c.m2), from_string<S>(c.g), S(0)});
  const S y0 = from_string<S>(c.y0), w1 = from_string<S>(c.w1);
  Vec<S> q(4), qd(4);
  q << from_string<S>(c.x1), from_string<S>(c.y1), S(0), y0;
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
  const BipendulumSetup a = bipendulum_setup_a("0");  // docs/special-motions.md bipendulum (a)
  const std::vector<S> p = setup_parameters<S>(a);  // (m1, m2, g, k)
  const System<S> sys_bi = bi.build(p);
  const System<S> sys_lin = lin.build({p[0], p[1], m0, p[2]});  // (m1, m2, m0, g)
  const State<S> x_bi = setup_state<S>(a);
  const Vec<S>& q = x_bi.q;
  Vec<S> z(3);
  for (int i = 0; i < 3; ++i) z[i] = from_string<S>(a.z[i]);
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
        out.push_back(
            {s.t, bipendulum_hidden_y0(p, pd), s.q[4],
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

template <class S>
std::vector<EnergyDrift<S>> energy_drifts(const BipendulumSetup& setup, const S& t_end,
                                          const S& dt_out, const FindingSettings<S>& fs) {
  const Study<S>& st = find_study<S>("bipendulum");
  const System<S> sys = st.build(setup_parameters<S>(setup));
  const State<S> x0 = setup_state<S>(setup);
  const auto inv = st.invariants(sys);  // E1, E2, y0
  const S e10 = inv[0].value(x0.q, x0.qdot), e20 = inv[1].value(x0.q, x0.qdot);
  std::vector<EnergyDrift<S>> out;
  integrate<S>(
      sys, find_formulation<S>(fs.formulation), x0.q, x0.qdot, options(t_end, dt_out, fs),
      [&](const Sample<S>& s) {
        using std::abs;
        out.push_back({s.t, abs(inv[0].value(s.q, s.qdot) - e10),
                       abs(inv[1].value(s.q, s.qdot) - e20)});
      },
      nullptr);
  return out;
}

template <class S>
std::vector<PendulumSample<S>> symmetric_pendulum_errors(const S& fraction, int samples,
                                                         const FindingSettings<S>& fs) {
  using std::atan2;
  using std::max;
  const SpecialMotion<S> mo = symmetric_pendulum_motion<S>(fraction);
  const PendulumMotion<S> p = symmetric_pendulum<S>();
  const System<S> sys = find_study<S>("bipendulum").build(mo.parameters);
  std::vector<PendulumSample<S>> out;
  integrate<S>(
      sys, find_formulation<S>(fs.formulation), mo.initial.q, mo.initial.qdot,
      options(mo.t_end, mo.t_end / S(samples), fs),
      [&](const Sample<S>& s) {
        const State<S> e = mo.exact(s.t);
        out.push_back(
            {s.t, atan2(e.q[1], e.q[0]),
             max((s.q - e.q).cwiseAbs().maxCoeff(), (s.qdot - e.qdot).cwiseAbs().maxCoeff()),
             regularity_margins(sys, s.q, s.qdot).front().value, s.t / p.quarter_period});
      },
      nullptr);
  return out;
}

namespace {

// A cell of a findings CSV: full precision (%.17g in double, to_string
// otherwise); a missing or non-finite value is an empty field, never "nan".
template <class S>
std::string cell(const S& x) {
  using boost::multiprecision::isfinite;
  using std::isfinite;
  if (!isfinite(x)) return "";
  if constexpr (std::is_same_v<S, double>) {
    std::ostringstream os;
    os << std::setprecision(17) << x;
    return os.str();
  } else {
    return to_string<S>(x);
  }
}

// A parameter's value for the metadata, to 6 digits (a tolerance as "1e-13").
template <class S>
std::string brief(const S& x) {
  std::ostringstream os;
  os << std::setprecision(6) << static_cast<double>(x);
  return os.str();
}

std::string point(const std::string& x, const std::string& y) { return "(" + x + ", " + y + ")"; }

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

using Parameters = std::vector<std::pair<std::string, std::string>>;

// A setup's keys under `prefix`: m1, m2, g, k, P1, P2, z.
void add_setup(Parameters& p, const std::string& prefix, const BipendulumSetup& b) {
  p.insert(p.end(), {{prefix + "m1", b.m1},
                     {prefix + "m2", b.m2},
                     {prefix + "g", b.g},
                     {prefix + "k", b.k},
                     {prefix + "P1", point(b.q[0], b.q[1])},
                     {prefix + "P2", point(b.q[2], b.q[3])},
                     {prefix + "z", "(" + joined({b.z[0], b.z[1], b.z[2]}) + ")"}});
}

// The symmetric motion's keys: m (both masses), g, l, amplitude (rad) and
// the quarter period T/4.
void add_pendulum(Parameters& p) {
  const PendulumMotion<double> pm = symmetric_pendulum<double>();
  p.insert(p.end(), {{"m", brief(pm.m)},
                     {"g", brief(pm.g)},
                     {"l", brief(pm.l)},
                     {"amplitude", brief(pm.amplitude)},
                     {"quarter_period", brief(pm.quarter_period)}});
}

// The i-th drift of series v as a cell (E1 or E2), empty past its end.
template <class S>
std::string drift_cell(const std::vector<EnergyDrift<S>>& v, std::size_t i, bool first) {
  return i < v.size() ? cell(static_cast<double>(first ? v[i].e1 : v[i].e2)) : "";
}

// Takes each finished table (bipendulum_findings's `write`).
using TableWriter = std::function<void(const FindingTable&)>;

// bipendulum_energy_separation.csv: energy separation (000 eqs. 85-86), double and mp50, default
// tolerances; quick: the mp50 harmonic run to t = 2, not 20.
void write_energy_separation(bool quick, const TableWriter& write) {
  const BipendulumSetup incline = bipendulum_setup_a("2.2");
  const BipendulumSetup harmonic = bipendulum_setup_harmonic();
  const double t_incline = 2, t_harmonic = 20, dt = 1.0 / 10;
  const mp50 t_harmonic50(quick ? 2 : 20);
  const FindingSettings<double> fsd{default_tolerance<double>()};
  const FindingSettings<mp50> fsm{default_tolerance<mp50>()};
  const auto inc = energy_drifts<double>(incline, t_incline, dt, fsd);
  const auto har = energy_drifts<double>(harmonic, t_harmonic, dt, fsd);
  const auto har50 = energy_drifts<mp50>(harmonic, t_harmonic50, mp50(1) / mp50(10), fsm);
  FindingTable t{
      "bipendulum_energy_separation.csv",
      "energy separation T_k + V_k, eqs. 85-86",
      {"t", "E1_drift_incline_double", "E2_drift_incline_double", "E1_drift_harmonic_double",
       "E2_drift_harmonic_double", "E1_drift_harmonic_mp50", "E2_drift_harmonic_mp50"},
      {},
      {}};
  add_setup(t.parameters, "incline.", incline);
  add_setup(t.parameters, "harmonic.", harmonic);
  t.parameters.insert(t.parameters.end(), {{"incline.t_end", brief(t_incline)},
                                           {"incline.precisions", "double"},
                                           {"harmonic.t_end", brief(t_harmonic)},
                                           {"harmonic.t_end_mp50", brief(t_harmonic50)},
                                           {"harmonic.precisions", "double, mp50"},
                                           {"dt_out", brief(dt)},
                                           {"formulation", fsd.formulation},
                                           {"rtol.double", brief(fsd.tol)},
                                           {"rtol.mp50", brief(fsm.tol)}});
  for (std::size_t i = 0; i < har.size(); ++i)
    t.rows.push_back({cell(0.1 * static_cast<double>(i)), drift_cell(inc, i, true),
                      drift_cell(inc, i, false), drift_cell(har, i, true),
                      drift_cell(har, i, false), drift_cell(har50, i, true),
                      drift_cell(har50, i, false)});
  write(t);
}

// bipendulum_linear_nonlinear.csv: the linear vs the non-linear bipendulum (Hertz's limit), double.
void write_linear_nonlinear(const TableWriter& write) {
  const BipendulumSetup a = bipendulum_setup_a("0");
  const double t_end = 10, dt = 0.05;
  const FindingSettings<double> fsd{1e-13};
  const auto x = hertz_comparison<double>(1.0, t_end, dt, fsd);
  const auto y = hertz_comparison<double>(1e-8, t_end, dt, fsd);
  FindingTable t{
      "bipendulum_linear_nonlinear.csv",
      "linear vs non-linear bipendulum (Hertz's limit)",
      {"t", "distance_P1", "distance_P2", "y0_bipendulum", "y0_linear_m0_1", "y0_linear_m0_1e-8"},
      {},
      {}};
  add_setup(t.parameters, "setup.", a);
  t.parameters.insert(t.parameters.end(), {{"m0", "1, 1e-8"},
                                           {"t_end", brief(t_end)},
                                           {"dt_out", brief(dt)},
                                           {"precision", "double"},
                                           {"rtol", brief(fsd.tol)},
                                           {"formulation", fsd.formulation}});
  for (std::size_t i = 0; i < x.size() && i < y.size(); ++i)
    t.rows.push_back({cell(x[i].t), cell(x[i].distance_P1), cell(x[i].distance_P2),
                      cell(x[i].y0_bipendulum), cell(x[i].y0_linear), cell(y[i].y0_linear)});
  write(t);
}

// bipendulum_symmetric_pendulum.csv: the symmetric motion against the exact pendulum, to 0.999 T/4.
void write_symmetric_pendulum(const TableWriter& write) {
  const double fraction = 0.999;
  const int samples = 200;
  const FindingSettings<double> fsd{1e-13};
  FindingTable t{
      "bipendulum_symmetric_pendulum.csv",
      "symmetric bipendulum against the simple pendulum",
      {"t", "theta_exact", "error_double", "sigma_min_dC_dqdot", "t_over_quarter_period"},
      {},
      {}};
  add_pendulum(t.parameters);
  t.parameters.insert(t.parameters.end(), {{"fraction", brief(fraction)},
                                           {"samples", std::to_string(samples)},
                                           {"precision", "double"},
                                           {"rtol", brief(fsd.tol)},
                                           {"formulation", fsd.formulation}});
  for (const PendulumSample<double>& s :
       symmetric_pendulum_errors<double>(fraction, samples, fsd))
    t.rows.push_back({cell(s.t), cell(s.theta_exact), cell(s.error), cell(s.sigma_min),
                      cell(s.t_over_quarter_period)});
  write(t);
}

// bipendulum_near_singular.csv: digits kept near the singular turning point, per precision.
void write_near_singular(const TableWriter& write) {
  const std::vector<std::string> distances = {"0.1", "0.01", "0.001", "0.0001", "0.00001"};
  const FindingSettings<double> fsd{1e-13};
  const FindingSettings<mp50> fsm{from_string<mp50>("1e-42")};
  FindingTable t{"bipendulum_near_singular.csv",
                 "digits kept per precision near the singular turning point",
                 {"one_minus_fraction", "error_double", "error_mp50", "sigma_min_double",
                  "sigma_min_mp50"},
                 {},
                 {}};
  add_pendulum(t.parameters);
  t.parameters.insert(t.parameters.end(), {{"one_minus_fraction", joined(distances)},
                                           {"precisions", "double, mp50"},
                                           {"rtol.double", brief(fsd.tol)},
                                           {"rtol.mp50", brief(fsm.tol)},
                                           {"formulation", fsd.formulation}});
  for (const std::string& f : distances) {
    const auto d = symmetric_near_turning_point<double>(1.0 - std::stod(f), fsd);
    const auto m = symmetric_near_turning_point<mp50>(mp50(1) - from_string<mp50>(f), fsm);
    t.rows.push_back({f, cell(d.error), cell(m.error), cell(d.sigma_min), cell(m.sigma_min)});
  }
  write(t);
}

// bipendulum_epsilon_circle.csv and its _paths.csv: the epsilon-limit of the circle of eq. 89 (mp50);
// quick: without the two smallest epsilons.
void write_epsilon_circle(bool quick, const TableWriter& write) {
  const CircleSetup c;
  const std::vector<std::string> all = {"1e-2", "1e-3", "1e-4", "1e-5", "1e-6"};
  const std::vector<std::string> epsilons(all.begin(), all.end() - (quick ? 2 : 0));
  const mp50 t_end(3), dt = mp50(1) / mp50(20);
  const FindingSettings<mp50> fsm{from_string<mp50>("1e-25")};
  const Parameters p = {{"m1", c.m1},
                        {"m2", c.m2},
                        {"g", c.g},
                        {"P1", point(c.x1, c.y1)},
                        {"P0", point("0", c.y0)},
                        {"w1", c.w1},
                        {"epsilons", joined(epsilons)},
                        {"t_end", brief(t_end)},
                        {"dt_out", brief(dt)},
                        {"precision", "mp50"},
                        {"rtol", brief(fsm.tol)},
                        {"formulation", fsm.formulation}};
  FindingTable t{"bipendulum_epsilon_circle.csv",
                 "the epsilon-limit of the circle of eq. 89",
                 {"epsilon", "distance_from_eq89", "radial_distance", "min_sigma_dC_dqdot"},
                 {},
                 p};
  FindingTable paths{"bipendulum_epsilon_circle_paths.csv",
                     "P1's paths for each epsilon",
                     {"epsilon", "t", "x1", "y1", "x2", "y2"},
                     {},
                     p};
  for (const std::string& e : epsilons) {
    const CircleLimit<mp50> r = circle_limit<mp50>(from_string<mp50>(e), t_end, dt, fsm);
    t.rows.push_back({e, cell(r.distance), cell(r.radial_distance), cell(r.min_sigma)});
    for (std::size_t i = 0; i < r.samples.size(); ++i)
      paths.rows.push_back({e, cell(0.05 * static_cast<double>(i)), cell(r.samples[i].q[0]),
                            cell(r.samples[i].q[1]), cell(r.samples[i].q[2]),
                            cell(r.samples[i].q[3])});
  }
  write(t);
  write(paths);
}

}  // namespace

void bipendulum_findings(bool quick, const std::function<void(const FindingTable&)>& write) {
  write_energy_separation(quick, write);
  write_linear_nonlinear(write);
  write_symmetric_pendulum(write);
  write_near_singular(write);
  write_epsilon_circle(quick, write);
}

#define NHS_BIPENDULUM_FINDINGS_(S, NAME) NHS_BIPENDULUM_FINDINGS_INSTANTIATE(, S)
NHS_FOR_EACH_SCALAR(NHS_BIPENDULUM_FINDINGS_)

}  // namespace nhs
