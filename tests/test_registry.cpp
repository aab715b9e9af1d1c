// The study registry (nhs/studies/list.hpp): one list feeds studies<S>(),
// find_study and the traced studies of the generated code, in one order;
// every formulation a study excludes by name exists; a bundled system's name
// (nhs/studies/bundled.hpp) reads its file, whose own name it is.
// ctest-labels: unit
#include "nhs/session/error_table.hpp"
#include "nhs/formulation.hpp"
#include "nhs/studies/bundled.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/system_file.hpp"
#include "nhs/studies/traced.hpp"

#include <gtest/gtest.h>

#include <filesystem>

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

TEST(Registry, BundledSystemsNameTheirFiles) {
  ASSERT_FALSE(bundled_systems().empty());
  for (const BundledSystem& b : bundled_systems()) {
    EXPECT_FALSE(b.name.empty());
    EXPECT_FALSE(b.title.empty()) << b.name;
    EXPECT_EQ(find_bundled_system(b.name), &b);
    EXPECT_TRUE(is_system_file_name(b.name)) << b.name;
    for (const Study<double>& st : studies<double>()) EXPECT_NE(st.info.name, b.name) << "a built-in study's name";
    const std::string path = system_file_path(b.name);
    EXPECT_TRUE(std::filesystem::is_regular_file(path)) << path;
    EXPECT_EQ(std::filesystem::path(path).filename(), std::filesystem::path(b.source_path).filename());
    // The name is the file's own `name`, and find_study gives the file's study.
    EXPECT_EQ(cached_system_file(b.name)->info.name, b.name);
    EXPECT_EQ(find_study<double>(b.name).info.name, b.name);
  }
  // Other names pass through unchanged: a path, or an unknown name (which
  // find_study refuses, listing the bundled names among the known ones).
  EXPECT_EQ(system_file_path("examples/skate.toml"), "examples/skate.toml");
  EXPECT_EQ(find_bundled_system("skate"), nullptr);
  try {
    find_study<double>("no-such-study");
    ADD_FAILURE() << "an unknown name was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(bundled_systems().front().name), std::string::npos) << e.what();
  }
}

// A bundled system whose file is nowhere is an input that cannot be read
// (FileError, a UsageError: exit 2), as a system file given by path that
// is missing; not an output that could not be written (IoError, exit 5).
TEST(Registry, AMissingBundledFileIsAnUnreadableInput) {
  const std::filesystem::path nowhere = std::filesystem::temp_directory_path() / "nhs-no-such-dir-7f3a";
  const std::vector<std::filesystem::path> places = {nowhere / "a.toml", nowhere / "share" / "b.toml"};
  try {
    bundled_file_among("some-bundled-system", places);
    ADD_FAILURE() << "a missing bundled file was found";
  } catch (const FileError& e) {
    EXPECT_EQ(error_class(classify_error(std::current_exception()).category).exit_code, 2);
    EXPECT_EQ(e.where, "some-bundled-system");
    for (const auto& p : places) EXPECT_NE(e.reason.find(p.string()), std::string::npos) << e.what();
  }
  try {
    cached_system_file((nowhere / "c.toml").string());
    ADD_FAILURE() << "a missing system file was read";
  } catch (const FileError& e) {
    EXPECT_NE(e.reason.find("cannot read"), std::string::npos) << e.what();
  }
  // The first place that is a file is taken.
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe");
  EXPECT_EQ(bundled_file_among("x", {nowhere / "a.toml", self}), self.string());
}

}  // namespace
}  // namespace nhs
