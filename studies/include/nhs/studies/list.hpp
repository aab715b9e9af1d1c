// The built-in studies, one line each, in the order `nhs list` shows them.
//
// X(id) names the file studies/<id>.cpp, which defines
//   template <class S> Study<S> <id>_study();   (for every scalar of NHS_FOR_EACH_SCALAR)
//   TracedStudy <id>_traced();                  (the description over the tracing scalar,
//                                                for the generated code, nhs_codegen)
// Adding a built-in study is its file and one line here: the registry
// (studies<S>(), find_study), the generated code, the CLI, `nhs verify`
// and the tests that iterate studies<S>() pick it up.
#pragma once

#define NHS_FOR_EACH_STUDY(X) \
  X(skate)             /* 001 §9.1 */          \
  X(rolling_disc)      /* 001 §9.2, 004 */     \
  X(coaxial_discs)     /* 001 §9.3 */          \
  X(parallel_points)   /* 001 §9.4 */          \
  X(rolling_sphere)    /* 002 */               \
  X(bipendulum)        /* 000 §13 */           \
  X(linear_bipendulum) /* 000 §13.7 */         \
  X(n_trailer)         /* N = 3; n-trailer-<N> for any N (n_trailer.cpp) */ \
  X(contact_oscillator) /* McLachlan & Perlmutter 2006, Ex. 5.2 */ \
  X(massless_trailer)  /* g semidefinite: 003; Udwadia & Phohomsiri 2006 */ \
  X(turntable_ball)    /* affine constraints: docs/affine-constraints.md */ \
  X(spinup_turntable_ball) /* Omega(t), clock coordinate: docs/affine-constraints.md */
