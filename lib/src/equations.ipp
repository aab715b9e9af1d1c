// The equations of motion and what they are built from, instantiated
// together per scalar (see instantiate.cpp.in).
#include "derivatives.ipp"
#include "description_check.ipp"
#include "first_kind.ipp"
#include "formulations.ipp"
#include "gauss.ipp"
#include "gibbs_appell.ipp"
#include "lagrange_multipliers.ipp"
#include "maggi.ipp"
#include "manifold.ipp"
#include "naive_reduced.ipp"
#include "regularity.ipp"
#include "second_kind.ipp"
#include "semidefinite_mass.ipp"
#include "singular_set.ipp"
#include "udwadia_kalaba.ipp"
#include "voronec.ipp"

#define NHS_EQUATIONS_INSTANTIATE(EXTERN, S) \
  NHS_DERIVATIVES_INSTANTIATE(EXTERN, S)     \
  NHS_REGULARITY_INSTANTIATE(EXTERN, S)      \
  NHS_SEMIDEFINITE_MASS_INSTANTIATE(EXTERN, S) \
  NHS_FIRST_KIND_INSTANTIATE(EXTERN, S)      \
  NHS_MAGGI_INSTANTIATE(EXTERN, S)           \
  NHS_GIBBS_APPELL_INSTANTIATE(EXTERN, S)    \
  NHS_SECOND_KIND_INSTANTIATE(EXTERN, S)     \
  NHS_UDWADIA_KALABA_INSTANTIATE(EXTERN, S)  \
  NHS_GAUSS_INSTANTIATE(EXTERN, S)           \
  NHS_LAGRANGE_MULTIPLIERS_INSTANTIATE(EXTERN, S) \
  NHS_VORONEC_INSTANTIATE(EXTERN, S)         \
  NHS_NAIVE_REDUCED_INSTANTIATE(EXTERN, S)   \
  NHS_MANIFOLD_INSTANTIATE(EXTERN, S)        \
  NHS_SINGULAR_SET_INSTANTIATE(EXTERN, S)    \
  NHS_FORMULATION_INSTANTIATE(EXTERN, S)      \
  NHS_DESCRIPTION_CHECK_INSTANTIATE(EXTERN, S)
