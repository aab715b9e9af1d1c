// The TOML reader of system files (toml_reader.hpp).
#include "toml_reader.hpp"

#include "nhs/scalar.hpp"

#include <algorithm>
#include <cctype>

namespace nhs::systemfile {

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

std::vector<Entry> in_file_order(const toml::table& t) {
  std::vector<std::pair<const toml::key*, const toml::node*>> sorted;
  for (auto&& [k, v] : t) sorted.emplace_back(&k, &v);
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    const auto& pa = a.first->source().begin;
    const auto& pb = b.first->source().begin;
    return pa.line != pb.line ? pa.line < pb.line : pa.column < pb.column;
  });
  std::vector<Entry> out;
  out.reserve(sorted.size());
  for (const auto& [k, v] : sorted) out.push_back({*k, *v});
  return out;
}

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

toml::table TomlReader::parse(const std::string& text) const {
  if (const auto bad = detail::unparseable_non_ascii(text))
    throw FileError(path_ + ":" + std::to_string(bad->line) + ":" + std::to_string(bad->column),
                    "TOML syntax: " + bad->reason);
  try {
    return toml::parse(text, path_);
  } catch (const toml::parse_error& e) {
    throw FileError(where(e.source()), "TOML syntax: " + std::string(e.description()));
  }
}

std::string TomlReader::where(const toml::source_region& r) const {
  return path_ + ":" + std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column);
}

std::string TomlReader::where_in_string(const toml::node& n, std::size_t i) const {
  const auto r = n.source();
  return path_ + ":" + std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column + 1 + i);
}

void TomlReader::fail(const toml::node& n, const std::string& reason) const { throw FileError(where(n), reason); }

void TomlReader::fail_file(const std::string& reason) const { throw FileError(path_, reason); }

void TomlReader::known_keys(const toml::table& t, const std::string& table,
                            const std::vector<std::string>& known) const {
  for (auto&& [k, v] : t) {
    const std::string key(k.str());
    if (std::find(known.begin(), known.end(), key) == known.end())
      throw FileError(where(k.source()), "unknown key '" + key + "'" +
                                             (table.empty() ? "" : " in [" + table + "]") +
                                             " (expected: " + join(known) + ")");
  }
}

const toml::node* TomlReader::required(const toml::table& t, const std::string& key, const std::string& table,
                                       const toml::node& at) const {
  const toml::node* n = t.get(key);
  if (!n)
    fail(at, "missing key '" + key + "'" + (table.empty() ? "" : " in [" + table + "]"));
  return n;
}

std::string TomlReader::string_of(const toml::node& n, const std::string& what) const {
  if (!n.is_string()) fail(n, what + " must be a string (in quotes)");
  return std::string(n.as_string()->get());
}

std::vector<const toml::node*> TomlReader::array_of(const toml::node& n, const std::string& what) const {
  if (!n.is_array()) fail(n, what + " must be an array [ ... ]");
  std::vector<const toml::node*> out;
  for (const toml::node& e : *n.as_array()) out.push_back(&e);
  return out;
}

std::vector<std::string> TomlReader::names_of(const toml::node& n, const std::string& what) const {
  std::vector<std::string> out;
  for (const toml::node* e : array_of(n, what)) {
    const std::string s = string_of(*e, "each entry of " + what);
    if (!is_identifier(s))
      fail(*e, "'" + s + "' in " + what + " is not a name (a letter or '_', then letters, digits, '_')");
    out.push_back(s);
  }
  return out;
}

void TomlReader::check_decimal(const toml::node& n, const std::string& what, const std::string& text) const {
  try {
    (void)from_string<mp100>(text);  // the syntax, and a range beyond every other precision's
  } catch (const MalformedNumber& e) {
    fail(n, what + ": " + e.what());
  }
  if (const auto r = detail::out_of_range(text))
    fail(n, what + ": " + r->message + " (not finite in " + r->precision +
                "; a value of the file must be finite in every precision)");
}

}  // namespace nhs::systemfile
