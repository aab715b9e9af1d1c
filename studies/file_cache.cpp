// The caches of system files and of their studies (nhs/studies/system_file.hpp):
// each file loaded once per path (again when it changed), each text given
// once per name and text (cached_system_text), its study built once per
// path (or text's key) and scalar type.
#include "nhs/studies/system_file.hpp"

#include <filesystem>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

namespace nhs {
namespace {

/// The texts of cached_system_text: key -> its loaded system, and (name,
/// text) -> key.
struct TextSystems {
  std::mutex mutex;
  std::map<std::string, std::shared_ptr<const SystemFile>> files;
  std::map<std::pair<std::string, std::string>, std::string> keys;
};

TextSystems& text_systems() {
  static TextSystems texts;
  return texts;
}

/// The system kept under `key` by cached_system_text, or null.
std::shared_ptr<const SystemFile> text_system(const std::string& key) {
  if (key.rfind("text:", 0) != 0) return nullptr;
  TextSystems& texts = text_systems();
  const std::lock_guard<std::mutex> lock(texts.mutex);
  const auto it = texts.files.find(key);
  return it == texts.files.end() ? nullptr : it->second;
}

}  // namespace

std::string cached_system_text(const std::string& text, const std::string& name) {
  TextSystems& texts = text_systems();
  {
    const std::lock_guard<std::mutex> lock(texts.mutex);
    if (const auto it = texts.keys.find({name, text}); it != texts.keys.end()) return it->second;
  }
  // Loaded outside the lock (the checks take a while); a thread that
  // loaded the same pair meanwhile keeps the first key.
  std::shared_ptr<const SystemFile> file = load_system_text(text, name);  // FileError
  const std::lock_guard<std::mutex> lock(texts.mutex);
  if (const auto it = texts.keys.find({name, text}); it != texts.keys.end()) return it->second;
  const std::string key = "text:" + std::to_string(texts.keys.size() + 1) + "/" + name;
  texts.files.emplace(key, std::move(file));
  texts.keys.emplace(std::make_pair(name, text), key);
  return key;
}

std::shared_ptr<const SystemFile> cached_system_file(const std::string& name) {
  if (auto file = text_system(name)) return file;  // a text given, no file
  const std::string path = system_file_path(name);  // a bundled system's file
  // Keyed by the path, and loaded again when the file's modification time
  // or size changed (a notebook edits and reloads a file in one process).
  struct Entry {
    std::shared_ptr<const SystemFile> file;
    std::filesystem::file_time_type mtime;
    std::uintmax_t size = 0;
  };
  static std::mutex mutex;
  static std::map<std::string, Entry> cache;
  std::error_code ec_time, ec_size;
  const auto mtime = std::filesystem::last_write_time(path, ec_time);
  const auto size = std::filesystem::file_size(path, ec_size);
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto it = cache.find(path); it != cache.end()) {
    if (!ec_time && !ec_size && it->second.mtime == mtime && it->second.size == size) return it->second.file;
    cache.erase(it);
  }
  // A file that cannot be read (or is gone) is the loader's to report.
  Entry e{load_system_file(path), mtime, size};
  if (ec_time || ec_size) return e.file;  // not cached: nothing to compare with later
  return cache.emplace(path, std::move(e)).first->second.file;
}

template <class S>
const Study<S>& cached_file_study(const std::string& path) {
  // Built again when the file was (cached_system_file); the study of an
  // older version stays alive, since callers hold references to it.
  struct Entry {
    std::shared_ptr<const SystemFile> file;
    std::unique_ptr<Study<S>> study;
  };
  static std::mutex mutex;
  static std::map<std::string, Entry> cache;
  static std::vector<std::unique_ptr<Study<S>>> retired;
  const std::shared_ptr<const SystemFile> file = cached_system_file(path);
  const std::lock_guard<std::mutex> lock(mutex);
  Entry& entry = cache[path];
  if (entry.file != file) {
    auto study = std::make_unique<Study<S>>(file_study<S>(file));
    if (entry.study) retired.push_back(std::move(entry.study));
    entry = Entry{file, std::move(study)};
  }
  return *entry.study;
}

#define NHS_CACHED_FILE_STUDY_(S, NAME) template const Study<S>& cached_file_study<S>(const std::string&);
NHS_FOR_EACH_SCALAR(NHS_CACHED_FILE_STUDY_)

}  // namespace nhs
