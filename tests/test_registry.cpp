// The study registry (nhs/studies/list.hpp): one list feeds studies<S>(),
// find_study and the traced studies of the generated code, in one order;
// every formulation a study excludes by name exists.
// ctest-labels: unit
#include "nhs/formulation.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/traced.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace nhs {
namespace {

TEST(Registry, OneListFeedsEveryRegistry) {
  const auto& all = studies<double>();
  const std::vector<TracedStudy> traced = traced_studies();
  ASSERT_EQ(all.size(), traced.size());
  std::set<std::string> ids;
  for (std::size_t k = 0; k < all.size(); ++k) {
    EXPECT_EQ(all[k].info.name, traced[k].info.name) << k;
    EXPECT_TRUE(ids.insert(all[k].info.name).second) << "study id repeated: " << all[k].info.name;
    // find_study finds a study by its name, the id of list.hpp with '-' for
    // '_' (registry.cpp): this holds every study to that rule.
    EXPECT_EQ(&find_study<double>(all[k].info.name), &all[k]);
    EXPECT_EQ(studies<mp50>()[k].info.name, all[k].info.name);
  }
#define NHS_COUNT_(ID) +1
  EXPECT_EQ(all.size(), std::size_t(0 NHS_FOR_EACH_STUDY(NHS_COUNT_)));
#undef NHS_COUNT_
}

TEST(Registry, ExcludedFormulationsExist) {
  std::set<std::string> names;
  for (const auto& f : formulations<double>()) names.insert(f->name());
  int checked = 0;
  for (const Study<double>& st : studies<double>()) {
    for (const auto& [name, why] : st.default_run_excluded) {
      EXPECT_TRUE(names.count(name)) << st.info.name << " default run excludes unknown '" << name << "'";
      EXPECT_FALSE(why.empty()) << st.info.name << " " << name;
      ++checked;
    }
    for (const SpecialMotion<double>& mo : st.special_motions())
      for (const auto& [name, why] : mo.excluded) {
        EXPECT_TRUE(names.count(name))
            << st.info.name << " / " << mo.name << " excludes unknown '" << name << "'";
        EXPECT_FALSE(why.empty()) << st.info.name << " / " << mo.name << " " << name;
        ++checked;
      }
  }
  EXPECT_GT(checked, 0);
}

}  // namespace
}  // namespace nhs
