// The TOML reader of system files: toml++'s parse of a text (after the scan
// that guards it, toml_scan.hpp), and the reading of its values with their
// positions, each failure a FileError at "name:line:column". Private to the
// studies library (studies/systemfile/).
#pragma once

#include "toml_text.hpp"

#include "nhs/systemfile/system_file.hpp"

#include <string>
#include <vector>

namespace nhs::systemfile {

/// The strings of `v` joined by ", " (for the lists of messages).
std::string join(const std::vector<std::string>& v);

/// True when `s` is a name: a letter or '_', then letters, digits, '_'.
bool is_identifier(const std::string& s);

/// An entry of a TOML table.
struct Entry {
  const toml::key& first;
  const toml::node& second;
};
/// The entries of `t` in the order of the file: toml++ keeps a table sorted
/// by key, but the order of parameters, constraints and invariants is the
/// file's (as a C++ description lists them).
std::vector<Entry> in_file_order(const toml::table& t);

/// Reads the TOML text of the system file named `name` (its path, or the
/// name given to load_system_text) and its values; every failure is a
/// FileError at "name:line:column" of the offending value.
class TomlReader {
 public:
  explicit TomlReader(std::string name) : path_(std::move(name)) {}

  /// The text's table. Throws FileError "name:line:column: TOML syntax:
  /// ..." at a character toml++ cannot be given (unparseable_non_ascii)
  /// and at toml++'s parse error.
  toml::table parse(const std::string& text) const;

  /// "name:line:column" of a region's start, of a node.
  std::string where(const toml::source_region& r) const;
  std::string where(const toml::node& n) const { return where(n.source()); }
  /// "name:line:column" of character `i` of the string node `n`: one column
  /// after its opening quote (single-line strings without escapes;
  /// otherwise approximate).
  std::string where_in_string(const toml::node& n, std::size_t i) const;
  [[noreturn]] void fail(const toml::node& n, const std::string& reason) const;
  [[noreturn]] void fail_file(const std::string& reason) const;

  /// Keys of `t` must be among `known` (with the table's name for the message).
  void known_keys(const toml::table& t, const std::string& table, const std::vector<std::string>& known) const;
  /// t[key], or FileError at `at`: "missing key 'key' in [table]".
  const toml::node* required(const toml::table& t, const std::string& key, const std::string& table,
                             const toml::node& at) const;
  std::string string_of(const toml::node& n, const std::string& what) const;
  std::vector<const toml::node*> array_of(const toml::node& n, const std::string& what) const;
  /// An array of names (is_identifier), each a string.
  std::vector<std::string> names_of(const toml::node& n, const std::string& what) const;

  /// A decimal of the file (a parameter's default, an [[exact]] override or
  /// t_end): a number (from_string) finite in every precision, since every
  /// command may run in any of them (1e400 is finite in long double and
  /// beyond, not in double); otherwise FileError at `n`, naming `what`.
  void check_decimal(const toml::node& n, const std::string& what, const std::string& text) const;

 protected:
  std::string path_;
};

}  // namespace nhs::systemfile
