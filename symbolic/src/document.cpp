// Implementation of nhs/symbolic/document.hpp.
#include "nhs/symbolic/document.hpp"

#include "nhs/errors.hpp"

#include <algorithm>

namespace nhs::symbolic {
namespace {

// The HTML entity of c among & < > " (what both HTML and Markdown text
// escape), or nullptr.
const char* html_entity(char c) {
  switch (c) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '"': return "&quot;";
    default: return nullptr;
  }
}

std::string escaped(const std::string& s) {
  std::string t;
  t.reserve(s.size());
  for (char c : s) {
    if (const char* e = html_entity(c)) t += e;
    else t += c;
  }
  return t;
}

// Plain text in HTML: escaped, and kept from MathJax's delimiter scan when
// it has a backslash (a "\(" in plain text is not a formula).
std::string plain_html(const std::string& s) {
  if (s.find('\\') == std::string::npos) return escaped(s);
  return "<span class=\"tex2jax_ignore\">" + escaped(s) + "</span>";
}

std::string span_html(const Span& s) {
  if (s.math) return "\\(" + escaped(s.text) + "\\)";
  if (s.code) return "<code>" + escaped(s.text) + "</code>";
  if (!s.link.empty()) return "<a href=\"" + escaped(s.link) + "\">" + plain_html(s.text) + "</a>";
  return plain_html(s.text);
}

std::string spans_html(const std::vector<Span>& spans) {
  std::string t;
  for (const Span& s : spans) t += span_html(s);
  return t;
}

// Plain text in Markdown (to_markdown's comment).
std::string markdown_text(const std::string& s) {
  std::string t;
  t.reserve(s.size());
  for (char c : s) {
    if (const char* e = c == '"' ? nullptr : html_entity(c)) {
      t += e;
      continue;
    }
    switch (c) {
      case '\\': case '`': case '[': case ']': case '$': case '|': case '*': case '_':
        t += std::string("\\") + c;
        break;
      default: t += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? ' ' : c;
    }
  }
  return t;
}

// The longest run of backticks in s.
std::size_t longest_backtick_run(const std::string& s) {
  std::size_t longest = 0, run = 0;
  for (char c : s) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

std::string code_markdown(const std::string& s) {
  const std::string text = one_line(s), fence(longest_backtick_run(text) + 1, '`');
  const std::string pad = !text.empty() && (text.front() == '`' || text.back() == '`') ? " " : "";
  return fence + pad + text + pad + fence;
}

std::string span_markdown(const Span& s) {
  if (s.math) return "$" + s.text + "$";
  if (s.code) return code_markdown(s.text);
  if (!s.link.empty()) return "[" + markdown_text(s.text) + "](" + s.link + ")";
  return markdown_text(s.text);
}

std::string spans_markdown(const std::vector<Span>& spans) {
  std::string t;
  for (const Span& s : spans) t += span_markdown(s);
  return t;
}

// A link of a span: a relative path inside the page's folder (Span).
void check_link(const std::string& link) {
  const bool chars = std::all_of(link.begin(), link.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
           c == '-' || c == '/';
  });
  if (!chars || link.front() == '/' || link.find("..") != std::string::npos)
    throw UsageError("a page's link '" + link + "' is not a relative path inside its folder");
}

// MathJax 2's configuration, and the signals that count what it rendered
// and what failed (MathJax 2 documentation, "Using Signals": the "TeX Jax -
// parse error", "Math Processing Error" and "file load error" messages).
constexpr const char* kMathJaxConfig = R"js(<script type="text/x-mathjax-config">
var nhsMathErrors = 0, nhsFirstMathError = "";
function nhsMathError(message) {
  if (nhsMathErrors++ === 0) nhsFirstMathError = String(message[0]) + ": " + String(message[message.length > 2 && message[0] === "Math Processing Error" ? 2 : 1]).slice(0, 300);
}
MathJax.Hub.Register.MessageHook("TeX Jax - parse error", nhsMathError);
MathJax.Hub.Register.MessageHook("Math Processing Error", nhsMathError);
MathJax.Hub.Register.MessageHook("file load error", nhsMathError);
MathJax.Hub.Config({
  tex2jax: {inlineMath: [["\\(", "\\)"]], displayMath: [["\\[", "\\]"]], processEscapes: false},
  messageStyle: "none",
  TeX: {MAXBUFFER: NHS_MAXBUFFER},
  SVG: {font: "TeX"}
});
MathJax.Hub.Queue(function () {
  var body = document.body;
  body.setAttribute("data-mathjax-rendered", document.querySelectorAll("span.MathJax_SVG").length);
  body.setAttribute("data-mathjax-errors", nhsMathErrors);
  body.setAttribute("data-mathjax-first-error", nhsFirstMathError);
  body.setAttribute("data-mathjax", "done");
});
</script>
)js";

constexpr const char* kStyle = R"css(<style>
body { font-family: "DejaVu Serif", Georgia, serif; max-width: 72em; margin: 2em auto; padding: 0 1em; line-height: 1.45; }
h1, h2, h3 { font-family: "DejaVu Sans", Helvetica, sans-serif; }
.math { overflow-x: auto; overflow-y: hidden; padding: 0.2em 0; }
pre { background: #f4f4f4; padding: 0.6em; overflow-x: auto; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { border: 1px solid #bbb; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #eee; }
</style>
)css";

}  // namespace

void Document::heading(int level, const std::string& text) {
  Block b;
  b.kind = Block::Kind::heading;
  b.level = level;
  b.spans = {Span{text, false}};
  blocks.push_back(std::move(b));
}

void Document::paragraph(std::vector<Span> spans) {
  for (const Span& s : spans)
    if (!s.link.empty()) check_link(s.link);
  Block b;
  b.kind = Block::Kind::paragraph;
  b.spans = std::move(spans);
  blocks.push_back(std::move(b));
}

void Document::display_math(const std::string& latex) {
  Block b;
  b.kind = Block::Kind::display_math;
  b.text = latex;
  blocks.push_back(std::move(b));
}

void Document::preformatted(const std::string& text) {
  Block b;
  b.kind = Block::Kind::preformatted;
  b.text = text;
  blocks.push_back(std::move(b));
}

void Document::table(std::vector<std::vector<std::string>> rows) {
  for (const auto& r : rows)
    if (r.size() != rows.front().size())
      throw UsageError("document table: a row of " + std::to_string(r.size()) + " cells under a header of " +
                       std::to_string(rows.front().size()));
  Block b;
  b.kind = Block::Kind::table;
  b.rows = std::move(rows);
  blocks.push_back(std::move(b));
}

int formula_count(const Document& d) {
  int k = 0;
  for (const Block& b : d.blocks) {
    if (b.kind == Block::Kind::display_math) ++k;
    for (const Span& s : b.spans) k += s.math ? 1 : 0;
  }
  return k;
}

std::string to_html(const Document& d, const std::string& mathjax_script) {
  // MathJax's TeX input refuses a formula whose text grows past MAXBUFFER
  // characters (5 KB by default: a guard against recursive macros, which
  // these pages do not define); the n-trailer's KKT block is 30 KB.
  std::size_t longest = 0;
  for (const Block& b : d.blocks) {
    if (b.kind == Block::Kind::display_math) longest = std::max(longest, b.text.size());
    for (const Span& s : b.spans) longest = std::max(longest, s.math ? s.text.size() : 0);
  }
  std::string config = kMathJaxConfig;
  config.replace(config.find("NHS_MAXBUFFER"), 13, std::to_string(std::max<std::size_t>(5 * 1024, 2 * longest)));
  std::string t = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + escaped(d.title) +
                  "</title>\n" + kStyle + config + "<script src=\"" + escaped(mathjax_script) +
                  "?config=TeX-AMS_SVG-full\"></script>\n</head>\n<body data-formulas=\"" +
                  std::to_string(formula_count(d)) + "\">\n";
  for (const Block& b : d.blocks) {
    switch (b.kind) {
      case Block::Kind::heading: {
        const std::string h = "h" + std::to_string(b.level);
        t += "<" + h + ">" + spans_html(b.spans) + "</" + h + ">\n";
        break;
      }
      case Block::Kind::paragraph: t += "<p>" + spans_html(b.spans) + "</p>\n"; break;
      case Block::Kind::display_math: t += "<div class=\"math\">\\[\n" + escaped(b.text) + "\\]</div>\n"; break;
      case Block::Kind::preformatted: t += "<pre>" + escaped(b.text) + "</pre>\n"; break;
      case Block::Kind::table: {
        t += "<table>\n";
        for (std::size_t i = 0; i < b.rows.size(); ++i) {
          const std::string cell = i == 0 ? "th" : "td";
          t += "<tr>";
          for (const auto& c : b.rows[i]) t += "<" + cell + ">" + plain_html(c) + "</" + cell + ">";
          t += "</tr>\n";
        }
        t += "</table>\n";
        break;
      }
    }
  }
  return t + "</body>\n</html>\n";
}

std::string to_markdown(const Document& d) {
  std::string t;
  for (const Block& b : d.blocks) {
    if (!t.empty()) t += "\n";
    switch (b.kind) {
      case Block::Kind::heading: t += std::string(static_cast<std::size_t>(b.level), '#') + " " + spans_markdown(b.spans) + "\n"; break;
      case Block::Kind::paragraph: t += spans_markdown(b.spans) + "\n"; break;
      case Block::Kind::display_math: t += "$$\n" + b.text + "$$\n"; break;
      case Block::Kind::preformatted: {
        const std::string fence(std::max<std::size_t>(3, longest_backtick_run(b.text) + 1), '`');
        t += fence + "\n" + b.text + (b.text.empty() || b.text.back() != '\n' ? "\n" : "") + fence + "\n";
        break;
      }
      case Block::Kind::table:
        for (std::size_t i = 0; i < b.rows.size(); ++i) {
          t += "|";
          for (const auto& c : b.rows[i]) t += " " + markdown_text(c) + " |";
          t += "\n";
          if (i == 0) {
            t += "|";
            for (std::size_t k = 0; k < b.rows[0].size(); ++k) t += "---|";
            t += "\n";
          }
        }
        break;
    }
  }
  return t;
}

std::string one_line(const std::string& s) {
  static const char* digits = "0123456789abcdef";
  std::string t;
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') t += "\\n";
    else if (c == '\r') t += "\\r";
    else if (c == '\t') t += "\\t";
    else if (u < 0x20 || u == 0x7f) t += std::string("\\x") + digits[u >> 4] + digits[u & 15];
    else t += c;
  }
  return t;
}

}  // namespace nhs::symbolic
