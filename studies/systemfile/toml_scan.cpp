// The scan of a TOML text for the non-ASCII characters that toml++ 3.3
// cannot be given (toml_text.hpp, unparseable_non_ascii): a hand-written
// scanner of TOML's strings and comments, run before toml++ parses a system
// file or a sweep specification, which guards toml++'s undefined behaviour.
#include "toml_scan.hpp"

#include <cstring>

namespace nhs::detail {
namespace {

// unparseable_non_ascii's scan of a TOML text: where it is (a byte, its line and its column in code
// points) and in what (plain text, a comment or a kind of string).
class TomlScan {
 public:
  explicit TomlScan(const std::string& text) : text_(text), n_(text.size()) {}

  // The first non-ASCII character toml++ cannot parse, or nullopt (the text read to its end).
  std::optional<NonAscii> run() {
    while (i_ < n_) {
      const char c = text_[i_];
      switch (in_) {
        case In::text:
          if (auto found = step_text(c)) return found;
          break;
        case In::comment:
          if (c == '\n') in_ = In::text;
          advance(1);
          break;
        case In::basic:
          step_basic(c);
          break;
        case In::literal:
          if (c == '\'' || c == '\n') in_ = In::text;
          advance(1);
          break;
        case In::multi_basic:
          if (auto found = step_multi_basic(c)) return found;
          break;
        case In::multi_literal:
          if (starts("'''")) {
            advance(3);
            in_ = In::text;
            break;
          }
          advance(1);
          break;
      }
    }
    return std::nullopt;
  }

 private:
  enum class In { text, comment, basic, literal, multi_basic, multi_literal };
  const std::string& text_;
  const std::size_t n_;
  std::size_t line_ = 1, column_ = 0, i_ = 0;
  In in_ = In::text;

  bool non_ascii(std::size_t k) const { return k < n_ && static_cast<unsigned char>(text_[k]) >= 0x80; }
  bool blank(std::size_t k) const {
    return k < n_ && (text_[k] == ' ' || text_[k] == '\t' || text_[k] == '\r' || text_[k] == '\n');
  }
  void advance(std::size_t count) {
    for (std::size_t k = 0; k < count && i_ < n_; ++k, ++i_) {
      const auto c = static_cast<unsigned char>(text_[i_]);
      if (c == '\n') {
        ++line_;
        column_ = 0;
      } else if ((c & 0xC0) != 0x80) {
        ++column_;  // a code point starts here (UTF-8 continuation bytes do not)
      }
    }
  }
  NonAscii refuse(const char* why) const { return NonAscii{line_, column_ + 1, why}; }
  bool starts(const char* s) const { return text_.compare(i_, std::strlen(s), s) == 0; }

  // Outside strings and comments, at character c.
  std::optional<NonAscii> step_text(char c) {
    if (non_ascii(i_)) return refuse("a non-ASCII character outside a string or a comment");
    if (starts("\"\"\"")) {
      advance(3);
      in_ = In::multi_basic;
      return std::nullopt;
    }
    if (starts("'''")) {
      advance(3);
      in_ = In::multi_literal;
      return std::nullopt;
    }
    if (c == '#') in_ = In::comment;
    else if (c == '"') in_ = In::basic;
    else if (c == '\'') in_ = In::literal;
    advance(1);
    return std::nullopt;
  }
  // In a basic string "...", at character c.
  void step_basic(char c) {
    if (c == '\\') {
      advance(2);  // an escape: the backslash and the character it escapes
      return;
    }
    if (c == '"' || c == '\n') in_ = In::text;
    advance(1);
  }
  // In a multi-line basic string """...""", at character c.
  std::optional<NonAscii> step_multi_basic(char c) {
    if (starts("\"\"\"")) {
      advance(3);
      in_ = In::text;
      return std::nullopt;
    }
    if (c == '\\') {
      advance(1);
      if (non_ascii(i_)) return refuse("a non-ASCII character right after a backslash in a multi-line string");
      if (blank(i_)) {  // a line-ending backslash: the white space after it is removed
        while (blank(i_)) advance(1);
        if (non_ascii(i_))
          return refuse("a non-ASCII character first after a line-ending backslash in a multi-line string");
        return std::nullopt;
      }
      advance(1);  // the escaped character
      return std::nullopt;
    }
    advance(1);
    return std::nullopt;
  }
};

}  // namespace

// toml_text.hpp
std::optional<NonAscii> unparseable_non_ascii(const std::string& text) { return TomlScan(text).run(); }

}  // namespace nhs::detail
