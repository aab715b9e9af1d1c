// What the equations of motion are built from (derivatives, regularity,
// the constraint manifold C, the singular set, the description check) and
// the formulation registry, instantiated together per scalar (see
// instantiate.cpp.in). Each formulation's own equations are an
// instantiation unit of their own per scalar (CMakeLists.txt,
// NHS_INSTANTIATION_PARTS), so that editing one formulation recompiles
// only its units.
#include "derivatives.ipp"
#include "description_check.ipp"
#include "formulations.ipp"
#include "manifold.ipp"
#include "regularity.ipp"
#include "semidefinite_mass.ipp"
#include "singular_set.ipp"

#define NHS_EQUATIONS_INSTANTIATE(EXTERN, S) \
  NHS_DERIVATIVES_INSTANTIATE(EXTERN, S)     \
  NHS_REGULARITY_INSTANTIATE(EXTERN, S)      \
  NHS_SEMIDEFINITE_MASS_INSTANTIATE(EXTERN, S) \
  NHS_MANIFOLD_INSTANTIATE(EXTERN, S)        \
  NHS_SINGULAR_SET_INSTANTIATE(EXTERN, S)    \
  NHS_FORMULATION_INSTANTIATE(EXTERN, S)      \
  NHS_DESCRIPTION_CHECK_INSTANTIATE(EXTERN, S)
