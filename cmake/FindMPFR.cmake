# FindMPFR: the GNU MPFR library (Boost.Multiprecision's mpfr_float backend).
#
# Defines the IMPORTED target MPFR::MPFR and MPFR_FOUND, MPFR_INCLUDE_DIR,
# MPFR_LIBRARY. Installed next to nhsConfig.cmake, so that the exported
# nhs::nhs names MPFR::MPFR rather than this machine's path to libmpfr.
find_path(MPFR_INCLUDE_DIR mpfr.h)
find_library(MPFR_LIBRARY mpfr)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(MPFR REQUIRED_VARS MPFR_LIBRARY MPFR_INCLUDE_DIR)
mark_as_advanced(MPFR_INCLUDE_DIR MPFR_LIBRARY)

if(MPFR_FOUND AND NOT TARGET MPFR::MPFR)
  add_library(MPFR::MPFR UNKNOWN IMPORTED)
  set_target_properties(MPFR::MPFR PROPERTIES
    IMPORTED_LOCATION "${MPFR_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${MPFR_INCLUDE_DIR}")
endif()
