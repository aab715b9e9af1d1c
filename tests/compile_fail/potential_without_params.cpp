// Must NOT compile (ctest DescriptionMemberSignature): a description whose
// optional `potential` lacks its Params argument. describe() would otherwise
// ignore it and integrate with V = 0; its static_assert names the member.
#include "nhs/system.hpp"

struct WrongPotential {
  static nhs::SystemInfo info() {
    return {.name = "wrong", .title = "t", .source = "s", .coordinates = {"x"},
            .parameters = {{"m", "1", "mass"}}, .constraint_names = {}};
  }
  template <class T>
  static T kinetic_energy(const nhs::Params<T>& p, const nhs::Vec<T>& q, const nhs::Vec<T>& qd) {
    (void)q;
    return qd[0] * qd[0] * p[0];
  }
  template <class T>
  static void constraints(const nhs::Params<T>&, const nhs::Vec<T>&, const nhs::Vec<T>&,
                          nhs::Vec<T>&) {}
  template <class T>
  static T potential(const nhs::Vec<T>& q) {  // wrong: no Params
    return q[0];
  }
};

int main() { (void)nhs::describe<double, WrongPotential>({1.0}); }
