// The list of traced studies (nhs/studies/traced.hpp).
#include "nhs/studies/traced.hpp"

namespace nhs {

std::vector<TracedStudy> traced_studies() {
  return {skate_traced(),           rolling_disc_traced(),    coaxial_discs_traced(),
          parallel_points_traced(), rolling_sphere_traced(),  bipendulum_traced(),
          linear_bipendulum_traced(), n_trailer_traced()};
}

}  // namespace nhs
