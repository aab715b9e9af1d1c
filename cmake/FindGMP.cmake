# FindGMP: the GNU multiple precision arithmetic library (needed by MPFR).
#
# Defines the IMPORTED target GMP::GMP and GMP_FOUND, GMP_INCLUDE_DIR,
# GMP_LIBRARY. Installed next to nhsConfig.cmake, so that the exported
# nhs::nhs names GMP::GMP rather than this machine's path to libgmp.
find_path(GMP_INCLUDE_DIR gmp.h)
find_library(GMP_LIBRARY gmp)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(GMP REQUIRED_VARS GMP_LIBRARY GMP_INCLUDE_DIR)
mark_as_advanced(GMP_INCLUDE_DIR GMP_LIBRARY)

if(GMP_FOUND AND NOT TARGET GMP::GMP)
  add_library(GMP::GMP UNKNOWN IMPORTED)
  set_target_properties(GMP::GMP PROPERTIES
    IMPORTED_LOCATION "${GMP_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${GMP_INCLUDE_DIR}")
endif()
