// Verner's 8(7) pair with its 8th-order interpolant: the dense-output
// form of nhs's "verner87" in double, long double and float128.
//
// Source: J. H. Verner, "Numerically optimal Runge-Kutta pairs with
// interpolants", Numer. Algorithms 53 (2010) 383-396, pair RKV87.IIa (the
// 13 stages of verner87.hpp) and its interpolant of order 8, which adds the
// stages 14..21: stage 14 at c = 1 with a_14,j = b_j, i.e. f(t + h, y1),
// the next step's first stage; stages 15..21 below. Within the step,
//   y(t + theta h) = y0 + h sum_i b_i(theta) k_i,   b_i(theta) = sum_p r_ip theta^p,
// over i = 1, 6..12, 14..21 (b_i(0) = 0, b_i(1) = b_i of the pair). The
// step's ends are returned as they are (y0, y1), not interpolated.
//
// The coefficients of stages 15..21 and the r_ip are Verner's, as 40-digit
// decimals (the form in which the interpolant is distributed, e.g. by
// OrdinaryDiffEq.jl's Vern8; the pair's own coefficients are exact
// rationals, verner87.hpp). Row sums and b_i(1) = b_i hold to 6e-38 and
// 7e-34, the continuous order conditions to 1e-33 (tests/test_rk8.cpp
// checks them in mp100): enough where the scalar has at most 33 digits,
// not in mp50 or mp100, where verner87 keeps ending its steps on the output
// times (integrate.ipp). The weights are stored re-expanded about
// theta = 1/2 and summed one precision above S (Verner87WeightScalar): in
// the monomial form, summed in double, a weight carries up to 4e6 eps ~
// 1e-9 of round-off (sum_p |r_ip| against |b_i| <= 60), and the skate's
// error at rtol 1e-12 stayed at 2e-10.
//
// Cost: the extra stages 15..21 (7 RHS calls) are evaluated only for a
// step with an output time inside it, once per step (the singular-set scan
// uses the cubic Hermite interpolant of the step's ends instead). Stage
// 14, f(t + h, y1), is the next step's first stage, so an accepted step
// costs 12 new calls where the controlled verner87 makes 13.
//
// Step-size control: Odeint's default_error_checker and
// default_step_adjuster with the pair's orders (stepper order 8, error
// order 7), the rules of the controlled verner87; a step that fails 500
// times in a row raises Odeint's step_adjustment_error.
//
// Private to lib/src (used by integrate.ipp; tests/test_rk8.cpp includes it
// by path for the order conditions).
#pragma once

#include "verner87.hpp"

#include <boost/numeric/odeint/integrate/max_step_checker.hpp>
#include <boost/numeric/odeint/stepper/controlled_runge_kutta.hpp>

#include <array>
#include <cstddef>
#include <functional>
#include <utility>

namespace nhs {
namespace detail {

/// One coefficient of the interpolant: stage i, column j (a_ij), power p
/// (r_ip) or 0 (c_i); its value as decimal text, 40 significant digits.
struct Verner87DenseEntry {
  int i, j;
  const char* value;
};

// c_i of the extra stages 15..21 (stage 14 is f(t + h, y1)).
inline constexpr Verner87DenseEntry kVerner87DenseC[] = {
    {15, 0, "0.3110177634953863863927417318829099695921"},
    {16, 0, "0.1725"},
    {17, 0, "0.7846"},
    {18, 0, "0.37"},
    {19, 0, "0.5"},
    {20, 0, "0.7"},
    {21, 0, "0.9"},
};
// a_ij of the extra stages 15..21, the non-zero ones.
inline constexpr Verner87DenseEntry kVerner87DenseA[] = {
    {15, 1, "0.4620700646754963101730413150238116432863e-1"},
    {15, 6, "0.4503904160842480866828520384400679697151e-1"},
    {15, 7, "0.2336816697713424410788701065340221126565"},
    {15, 8, "37.83901368421067410780338220861855254153"},
    {15, 9, "-15.94911328945424610266139490307397370835"},
    {15, 10, "23.02836835181610285142510596329590091940"},
    {15, 11, "-44.85578507769412524816130998016948002745"},
    {15, 12, "-0.6379858768647444009509067402330140781326e-1"},
    {15, 14, "-0.1259503554386166268241032464519842162533e-1"},
    {16, 1, "0.5037946855482040993065158747220696112586e-1"},
    {16, 6, "0.4109836131046079339916530614028848248545e-1"},
    {16, 7, "0.1718054153348195783296309209549424619697"},
    {16, 8, "4.61410531998151886974342237185977124648"},
    {16, 9, "-1.791667883085396449712744996746836471721"},
    {16, 10, "2.531658930485041408462243518792913614971"},
    {16, 11, "-5.32497786020573071925718815977276269909"},
    {16, 12, "-0.3065532595385634734924449496356513113607e-1"},
    {16, 14, "-0.5254479979429613570549519094377878106127e-2"},
    {16, 15, "-0.8399194644224792997538653464258058697156e-1"},
    {17, 1, "0.4082897132997079620207118756242653796386e-1"},
    {17, 6, "0.4244479514247632218892086657732332485609"},
    {17, 7, "0.2326091531275234539465100096964845486081"},
    {17, 8, "2.677982520711806062780528871014035962908"},
    {17, 9, "0.7420826657338945216477607044022963622057"},
    {17, 10, "0.1460377847941461193920992339731312296021"},
    {17, 11, "-3.579344509890565218033356743825917680543"},
    {17, 12, "0.1138844389600173704531638716149985665239"},
    {17, 14, "0.1267790651033190047378693537615687232109e-1"},
    {17, 15, "-0.7443436349946674429752785032561552478382e-1"},
    {17, 16, "0.4782748079757851554575511473876987663388e-1"},
    {18, 1, "0.5212682393668413629928136927994514676607e-1"},
    {18, 6, "0.5392508396744797718209106862347065628649e-1"},
    {18, 7, "0.1660758097434640828541930599928251901718e-1"},
    {18, 8, "-4.454485757926779655418936993298463071587"},
    {18, 9, "6.835218278632146381711296817968152631469"},
    {18, 10, "-8.711334822181993739847172734848837971169"},
    {18, 11, "6.491635839232917053651267142703105653517"},
    {18, 12, "-0.7072551809844346422069985227700294651922e-1"},
    {18, 14, "-0.1854031491993216429111842937941202966440e-1"},
    {18, 15, "0.2350402105435384645116542087045962190647e-1"},
    {18, 16, "0.2344795103407822090556377813402774776461"},
    {18, 17, "-0.8241072501152898885823089698097768766651e-1"},
    {19, 1, "0.5020102870355713598699964419977883461362e-1"},
    {19, 6, "0.1552209034795498114932226104700567642339"},
    {19, 7, "0.1264268424089234914713091134864747506300"},
    {19, 8, "-5.14920630353984701704917414605721854951"},
    {19, 9, "8.46834099903692926607453176331494311551"},
    {19, 10, "-10.66213068108149527544209836207095498430"},
    {19, 11, "7.54183322495972836290996201569018333903"},
    {19, 12, "-0.743696811383214243944066492459357053774e-1"},
    {19, 14, "-0.2055887686618382619339821759221121764364e-1"},
    {19, 15, "0.775379526471029807261782993777862395844e-1"},
    {19, 16, "0.1046259220352544296313761971333987587377"},
    {19, 17, "-0.1179213306451979352145022687063013455111"},
    {20, 1, "0.3737341446457825692757506548800094134977e-1"},
    {20, 6, "0.3504930705338316406767087468339071089224"},
    {20, 7, "0.4922652819373025433298989824173484805373"},
    {20, 8, "8.553695439359312242284304421725315855379"},
    {20, 9, "-10.35317299030591348532574006719207803272"},
    {20, 10, "13.83320427252914990351082875460544773493"},
    {20, 11, "-12.28092433078461863729523583784519048012"},
    {20, 12, "0.1719151595656509762746810113378644307112"},
    {20, 14, "0.3641583114314496380113822384214528216140e-1"},
    {20, 15, "0.2961920580288763054890146412520723429115e-1"},
    {20, 16, "-0.2651793938627067002647615623738425030047"},
    {20, 17, "0.942950396173806655317007970358739475630e-1"},
    {21, 1, "0.3939058345528250943410670634923521987132e-1"},
    {21, 6, "0.3558516141234424183136697322755323715063"},
    {21, 7, "0.4197382225952610029372225526720065366258"},
    {21, 8, "0.872044977807194166293172525204036071060"},
    {21, 9, "0.898952083487659486126627160171417043611"},
    {21, 10, "-0.630580616105988359023456649527853470403"},
    {21, 11, "-1.121887220595483550736681645425215081433"},
    {21, 12, "0.4298219512400197176967511031829197714867e-1"},
    {21, 14, "0.1332557566873915707013495891889190564164e-1"},
    {21, 15, "0.1876227053964148034446101291928097773800e-1"},
    {21, 16, "-0.1859411132922105570515379368592596513699"},
    {21, 17, "0.1773614271924602745226064729836361000042"},
};
// s_ik: b_i(theta) = sum_k s_ik (theta - 1/2)^k, k = 0..8: Verner's
// b_i(theta) = sum_p r_ip theta^p (r_ip his 40-digit decimals) re-expanded
// about theta = 1/2 in exact rational arithmetic (every s_ik below is that
// expansion's exact decimal value, hence up to 48 digits). The monomial
// form cancels: sum_p |r_ip| reaches 4.2e6 where |b_i| <= 60, against 4.5e3
// for sum_k |s_ik| 2^-k.
inline constexpr Verner87DenseEntry kVerner87DenseS[] = {
    {1, 0, "0.04420996575915579874937568136831504453828125"},
    {1, 1, "-0.0000000000000000000000000000000000000021875"},
    {1, 2, "0.100217433826010013426851503404878978613125"},
    {1, 3, "0.26300761319071867558381589186465571119125"},
    {1, 4, "-2.3842667184931248329889246971719433032625"},
    {1, 5, "-3.624386830881296802829149000782075127825"},
    {1, 6, "16.61377214628281091521978671881880819135"},
    {1, 7, "13.1233387406387770897942596008768612015"},
    {1, 8, "-40.370661632119594296577586633558941808"},
    {6, 0, "0.366123450787823402544158953479660620828125"},
    {6, 1, "0.000000000000000000000000000000000002609375"},
    {6, 2, "-7.75895998904261199167968960481795647684375"},
    {6, 3, "-16.0454547638039467514983742235199019853125"},
    {6, 4, "188.669797186691800927933585344046148755625"},
    {6, 5, "148.19351470408848698295408514906719888525"},
    {6, 6, "-1185.3304692070988789405092078441107223045"},
    {6, 7, "-313.384066488454327941022820036055525831"},
    {6, 8, "2170.776389952444021264933974457050280938"},
    {7, 0, "0.256385423706846858247821429992705801790625"},
    {7, 1, "-0.000000000000000000000000000000000000446875"},
    {7, 2, "-5.43337019258019594111343813677051383730625"},
    {7, 3, "-11.2361573926357667538551022450064113501875"},
    {7, 4, "132.119878659254708733219203266131419901875"},
    {7, 5, "103.77553520884218587137954268612700369575"},
    {7, 6, "-830.0518689156986561968052251254548937275"},
    {7, 7, "-219.453592761475273320363706566033189913"},
    {7, 8, "1520.130500554341433782477059435641543286"},
    {8, 0, "-16.2268716760893643598135609346473642422265625"},
    {8, 1, "0.000000000000000000000000000000000053125"},
    {8, 2, "343.883047674731276242269941656909485273125"},
    {8, 3, "711.1468409807820323494065524096618666475"},
    {8, 4, "-8361.98987394684145396328928304763808394375"},
    {8, 5, "-6568.05004202118896565080835846916200937"},
    {8, 6, "52534.75399129523288966264366025204988573"},
    {8, 7, "13889.42178190660596574923609338849580196"},
    {8, 8, "-96210.47174510666745715793578288559674281"},
    {9, 0, "25.93543158827223612098198808036422105984375"},
    {9, 1, "0.0000000000000000000000000000000000440625"},
    {9, 2, "-549.628753795873405939274353191731709635625"},
    {9, 3, "-1136.62698588110860569516694161400561064375"},
    {9, 4, "13364.9800557145376465551432294770033126125"},
    {9, 5, "10497.723525120148351913936350404869206475"},
    {9, 6, "-83966.37043452057411980713539120254657435"},
    {9, 7, "-22199.4821685871077092729591158035878245"},
    {9, 8, "153773.3309185793956820086499888593205888"},
    {10, 0, "-32.815585016790247254500073474640341016953125"},
    {10, 1, "0.000000000000000000000000000000000080625"},
    {10, 2, "695.4343148859280411822430462472730720775"},
    {10, 3, "1438.1514863406348143272840363900658826125"},
    {10, 4, "-16910.4430660150706314423416782299835137625"},
    {10, 5, "-13282.56048675565399684483971384461379325"},
    {10, 6, "106240.9761012530069839966461921093468576"},
    {10, 7, "28088.5626272518012641695943614527305014"},
    {10, 8, "-194566.3328138133045593670938904445416121"},
    {11, 0, "23.716820914863153076768176720439992495390625"},
    {11, 1, "0.00000000000000000000000000000000003625"},
    {11, 2, "-502.6115211952227652246893807405694029575"},
    {11, 3, "-1039.3958002739669425633765820934015108"},
    {11, 4, "12221.6912964514754808524996066251448750625"},
    {11, 5, "9599.7102655351074418366434505402984185"},
    {11, 6, "-76783.5832493755139577912608606451255452"},
    {11, 7, "-20300.4581282216765133843990100460994056"},
    {11, 8, "140619.0037156383022701488158207833280861"},
    {12, 0, "-0.24414692579857663443569894911155620825625"},
    {12, 1, "0.000000000000000000000000000000000000584375"},
    {12, 2, "5.17400954416524197679062807674219691688125"},
    {12, 3, "10.6998020618272489746644884521333609384375"},
    {12, 4, "-125.813167321167732393162527010160921400875"},
    {12, 5, "-98.82183443981862781077135120814258602675"},
    {12, 6, "790.4295381505301232155622711620472834015"},
    {12, 7, "208.978027118380657918790225494350056549"},
    {12, 8, "-1447.56742858889238213003664663272962957"},
    {14, 0, "-0.029647647921930243413976842225516685948125"},
    {14, 1, "-0.0000000000000000000000000000000000000065625"},
    {14, 2, "0.809482314374774830847333785647352365698125"},
    {14, 3, "1.80861481142697651660932774634196600446875"},
    {14, 4, "-19.1139973224054727939035831879170740062375"},
    {14, 5, "-18.468918491415812132874621970735728042875"},
    {14, 6, "113.64662535726873278453471540199595007975"},
    {14, 7, "44.9378369828316242657492439414714560825"},
    {14, 8, "-192.979614522558813295932821273008896057"},
    {15, 0, "0.001490488305617209868762105081940517808671875"},
    {15, 1, "-0.0000000000000000000000000000000000004340625"},
    {15, 2, "-0.875226166529152549693608323140072384985625"},
    {15, 3, "-1.70599418477912287779583867062381756023125"},
    {15, 4, "21.297324504357794926097191453407414502975"},
    {15, 5, "13.647953478232983022366709364990540444525"},
    {15, 6, "-128.74930504770104274988743101751261424735"},
    {15, 7, "-27.2959069564659660447334187299810808967"},
    {15, 8, "229.8729377727072096359824945955196848017"},
    {16, 0, "-0.01065127795120752261236129453213640354375"},
    {16, 1, "0.0000000000000000000000000000000000010125"},
    {16, 2, "6.254512118437252258722285629803874223825"},
    {16, 3, "12.19131889646160044654827958560957029675"},
    {16, 4, "-152.1942319561119125968506131324328875605"},
    {16, 5, "-97.530551171692803572386236684876562337"},
    {16, 6, "920.064001119416318144899686229104057254"},
    {16, 7, "195.061102343385607144772473369753124676"},
    {16, 8, "-1642.710341604349689799450723704711058784"},
    {17, 0, "-0.003960741381189079233611001125417497541796875"},
    {17, 1, "-0.0000000000000000000000000000000000003875"},
    {17, 2, "2.32577772170846102469167175446973505950625"},
    {17, 3, "4.5334148132913609396062329308336534319"},
    {17, 4, "-56.5943349941893927940021663428149043130625"},
    {17, 5, "-36.267318506330887516849863446669227435"},
    {17, 6, "342.1312991050934174506215028160788310285"},
    {17, 7, "72.53463701266177503369972689333845488"},
    {17, 8, "-610.8516609091004863949139257772330194915"},
    {18, 0, "0.01160314031534551790213774336712397549484375"},
    {18, 1, "-0.00000000000000000000000000000000000013625"},
    {18, 2, "-1.0605473891678271734053774241180524094675"},
    {18, 3, "13.499958903222924017957974555211576424975"},
    {18, 4, "-27.770210824509276230535585327439168490375"},
    {18, 5, "-107.9996712257833921436637964416926114067"},
    {18, 6, "270.0975573554014615847955366751961258178"},
    {18, 7, "215.9993424515667842873275928833852228116"},
    {18, 8, "-571.1622272434449401356158886201861909946"},
    {19, 0, "-0.108150323490692499072845346405623028225625"},
    {19, 1, "0.9999999999999999999999999999999999995725"},
    {19, 2, "7.358846350944276979587939614993354448185"},
    {19, 3, "-4.42664307150458500111523152920711338135"},
    {19, 4, "-153.195887030964601719732513867903390313"},
    {19, 5, "-12.586855427963319991078147766343092985"},
    {19, 6, "900.028954216008798500287418103385604078"},
    {19, 7, "57.173710855926639982156295532686185964"},
    {19, 8, "-1592.261308015418013416409177206823360972"},
    {20, 0, "-0.228434903100920531177596406170480896384140625"},
    {20, 1, "-0.000000000000000000000000000000000000038125"},
    {20, 2, "3.488094461848644543809197272645062432965"},
    {20, 3, "12.4578994526143311523195138668272548323375"},
    {20, 4, "-54.7504275696554132926002542188584242445625"},
    {20, 5, "-99.66319562091464921855611093461803864535"},
    {20, 6, "329.0542215823440242194252446435475066794"},
    {20, 7, "199.3263912418292984371122218692360772978"},
    {20, 8, "-604.9687555793670790184208565420961249773"},
    {21, 0, "-0.1646164594860498608026964652355235123609375"},
    {21, 1, "-0.000000000000000000000000000000000000040625"},
    {21, 2, "2.54007622245197976746695187925869670085625"},
    {21, 3, "4.6846916943469622428278485472145802649875"},
    {21, 4, "-64.508888816908419935485687103412857906625"},
    {21, 5, "-37.47753355477569794262278837771664211195"},
    {21, 6, "436.2892654860010950109621017231794407923"},
    {21, 7, "74.9550671095513958852455767554332842266"},
    {21, 8, "-833.4379054819676018284720384103746063216"},
};

/// The scalar in which the weights b_i(theta) are summed: one precision
/// above S (their sums cancel by up to ~75x, sum_k |s_ik| 2^-k against
/// |b_i|), so that the weights are exact to S's rounding.
template <class S>
struct Verner87WeightScalar {
  using type = S;
};
template <>
struct Verner87WeightScalar<double> {
  using type = long double;
};
template <>
struct Verner87WeightScalar<long double> {
  using type = float128;
};
template <>
struct Verner87WeightScalar<float128> {
  using type = mp50;
};

/// The interpolant's coefficients, 0-based stage indices: the 13 stages of
/// Verner87Tableau, then stage 13 (the paper's 14: f(t + h, y1), a_13,j =
/// b_j) and stages 14..20 (the paper's 15..21) with c[i] and a[i][j] in S;
/// s[i][k] the coefficient of (theta - 1/2)^k in b_i(theta), k = 0..8, in
/// the weight scalar W (zero rows for the stages without weight: 2..5, 13).
template <class S>
struct Verner87DenseTableau {
  using W = typename Verner87WeightScalar<S>::type;
  static constexpr std::size_t stages = 21, terms = 9;
  Verner87Tableau<S> pair;
  std::array<S, stages> c;
  std::array<std::array<S, stages>, stages> a;
  std::array<std::array<W, terms>, stages> s;

  Verner87DenseTableau() {
    c.fill(S(0));
    for (auto& row : a) row.fill(S(0));
    for (auto& row : s) row.fill(W(0));
    for (std::size_t i = 0; i < 13; ++i) {
      c[i] = pair.c[i];
      for (std::size_t j = 0; j < i; ++j) a[i][j] = pair.a[i][j];
    }
    c[13] = S(1);
    for (std::size_t j = 0; j < 13; ++j) a[13][j] = pair.b[j];
    for (const auto& x : kVerner87DenseC) c[x.i - 1] = from_string<S>(x.value);
    for (const auto& x : kVerner87DenseA) a[x.i - 1][x.j - 1] = from_string<S>(x.value);
    for (const auto& x : kVerner87DenseS) s[x.i - 1][x.j] = from_string<W>(x.value);
  }

  /// b_i(theta), i = 0..20, summed in W (Horner in theta - 1/2), rounded to S.
  std::array<S, stages> weights(const S& theta) const {
    const W u = W(theta) - W(1) / W(2);
    std::array<S, stages> w;
    for (std::size_t i = 0; i < stages; ++i) {
      W v(0);
      for (std::size_t k = terms; k-- > 0;) v = v * u + s[i][k];
      w[i] = static_cast<S>(v);
    }
    return w;
  }
};

/// Verner 8(7) as a dense-output stepper, with the interface of Odeint's
/// dense-output steppers that integrate.ipp's run_dense uses:
/// initialize(x0, t0, dt0); do_step(system) -> (t_old, t_new), one accepted
/// step; calc_state(t, x) for t in [t_old, t_new]; current_state(),
/// current_time(), current_time_step(). State: a std::vector-like container
/// of Value; system(x, dxdt, t) as Odeint's. The system given to do_step is
/// kept for calc_state's extra stages: it must outlive the step.
template <class State, class Value>
class Verner87Dense {
 public:
  using Tableau = Verner87DenseTableau<Value>;
  using Checker = boost::numeric::odeint::default_error_checker<
      Value, boost::numeric::odeint::range_algebra, boost::numeric::odeint::default_operations>;
  using Adjuster = boost::numeric::odeint::default_step_adjuster<Value, Value>;

  /// atol, rtol: Odeint's error checker (err_i / (atol + rtol (|x_i| + h |x'_i|)) <= 1).
  Verner87Dense(const Value& atol, const Value& rtol) : checker_(atol, rtol) {}

  void initialize(const State& x0, const Value& t0, const Value& dt0) {
    if (!(have_k1_ && x0 == x_ && t0 == t_)) have_k1_ = false;  // a new state: f(x) again
    x_ = x0;
    t_ = t0;
    dt_ = dt0;
  }

  template <class System>
  std::pair<Value, Value> do_step(System system) {
    rhs_ = [system](const State& x, State& dxdt, const Value& t) mutable { system(x, dxdt, t); };
    const std::size_t n = x_.size();
    resize(n);
    if (!have_k1_) rhs_(x_, k_[0], t_);
    have_k1_ = true;
    boost::numeric::odeint::failed_step_checker fail_checker;
    boost::numeric::odeint::range_algebra algebra;
    while (true) {
      const Value h = dt_;
      for (std::size_t s = 1; s < 13; ++s) {
        for (std::size_t i = 0; i < n; ++i) {
          Value sum(0);
          for (std::size_t j = 0; j < s; ++j)
            if (tab_.a[s][j] != 0) sum += tab_.a[s][j] * k_[j][i];
          tmp_[i] = x_[i] + h * sum;
        }
        rhs_(tmp_, k_[s], t_ + tab_.c[s] * h);
      }
      for (std::size_t i = 0; i < n; ++i) {
        Value y(0), e(0);
        for (std::size_t j = 0; j < 13; ++j) {
          if (tab_.pair.b[j] != 0) y += tab_.pair.b[j] * k_[j][i];
          if (tab_.pair.e[j] != 0) e += tab_.pair.e[j] * k_[j][i];
        }
        x_new_[i] = x_[i] + h * y;
        err_[i] = h * e;
      }
      const Value err = checker_.error(algebra, x_, k_[0], err_, h);
      if (err > Value(1)) {
        dt_ = adjuster_.decrease_step(h, err, kErrorOrder);
        fail_checker();
        continue;
      }
      x_old_.swap(x_);
      x_.swap(x_new_);
      t_old_ = t_;
      t_ = t_old_ + h;
      dt_old_ = h;
      dt_ = adjuster_.increase_step(h, err, kStepperOrder);
      // Stage 14 = f(t_new, y1): kept for the interpolant, and the next step's k1.
      rhs_(x_, k_[13], t_);
      extras_ = false;
      std::swap(k_[0], k_[13]);  // k_[0]: the next k1; stage 14 now in first_
      first_.swap(k_[13]);
      return {t_old_, t_};
    }
  }

  /// The interpolant at t in [t_old, t_new] of the last step (the first
  /// call per step evaluates the stages 15..21).
  void calc_state(const Value& t, State& x) {
    const std::size_t n = x_.size();
    if (t == t_ || t == t_old_) {  // the step's ends, exactly
      x = t == t_ ? x_ : x_old_;
      return;
    }
    if (!extras_) {
      // Stage 14 of the step is f(t_new, y1), now k_[0]; the step's own k1 in first_.
      for (std::size_t s = 14; s < Tableau::stages; ++s) {
        for (std::size_t i = 0; i < n; ++i) {
          Value sum(0);
          for (std::size_t j = 0; j < s; ++j)
            if (tab_.a[s][j] != 0) sum += tab_.a[s][j] * stage(j)[i];
          tmp_[i] = x_old_[i] + dt_old_ * sum;
        }
        rhs_(tmp_, k_[s], t_old_ + tab_.c[s] * dt_old_);
      }
      extras_ = true;
    }
    const auto w = tab_.weights((t - t_old_) / dt_old_);
    x.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      Value sum(0);
      for (std::size_t j = 0; j < Tableau::stages; ++j)
        if (w[j] != 0) sum += w[j] * stage(j)[i];
      x[i] = x_old_[i] + dt_old_ * sum;
    }
  }

  const State& current_state() const { return x_; }
  const Value& current_time() const { return t_; }
  const Value& current_time_step() const { return dt_; }

  /// The last step's ends and their derivatives, y0, f(t_old, y0), y1 and
  /// f(t_new, y1), known without an RHS call: integrate.ipp's singular-set
  /// scan interpolates them (cubic Hermite, as for the controlled
  /// steppers), so that a step without output costs no extra stage.
  const State& previous_state() const { return x_old_; }
  const State& previous_derivative() const { return first_; }
  const State& current_derivative() const { return k_[0]; }

 private:
  static constexpr int kStepperOrder = 8, kErrorOrder = 7;

  // The derivative of stage j (0-based) of the last accepted step.
  const State& stage(std::size_t j) const {
    if (j == 0) return first_;
    if (j == 13) return k_[0];
    return k_[j];
  }

  void resize(std::size_t n) {
    for (auto& k : k_) k.resize(n);
    first_.resize(n);
    tmp_.resize(n);
    x_new_.resize(n);
    err_.resize(n);
  }

  Tableau tab_;
  Checker checker_;
  Adjuster adjuster_;
  std::function<void(const State&, State&, const Value&)> rhs_;
  std::array<State, Tableau::stages> k_;
  State first_, tmp_, x_new_, err_, x_, x_old_;
  Value t_{0}, dt_{0}, t_old_{0}, dt_old_{0};
  bool have_k1_ = false, extras_ = false;
};

}  // namespace detail
}  // namespace nhs
