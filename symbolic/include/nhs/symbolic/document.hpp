// A page of headings, paragraphs, LaTeX formulas, preformatted text and
// tables, written out as HTML (formulas typeset by MathJax) or as Markdown
// with LaTeX (`$...$`, `$$...$$`). The Markdown format of `nhs equations`
// and `nhs worksheet`'s two files are built as one Document
// (docs/equations.md, "Worksheet"), so that the HTML page and its Markdown
// version say the same.
#pragma once

#include <string>
#include <vector>

namespace nhs::symbolic {

/// A piece of running text: plain text, inline LaTeX when `math`, or
/// code (a command, a file name) when `code`; plain text is a link to
/// `link` when it is not empty: a relative path inside the page's own
/// folder (letters, digits, '.', '_', '-', '/'; no "..", no leading '/'),
/// checked by Document::paragraph (UsageError otherwise).
struct Span {
  std::string text;
  bool math = false;
  bool code = false;
  std::string link;
};

/// One block of a page.
struct Block {
  enum class Kind { heading, paragraph, display_math, preformatted, table };
  Kind kind = Kind::paragraph;
  int level = 2;            ///< heading: 1 (the title) to 3
  std::vector<Span> spans;  ///< heading (plain text only) and paragraph
  std::string text;         ///< display_math: LaTeX; preformatted: plain text
  /// table: plain-text cells, the first row being the header; every row has
  /// the header's number of cells.
  std::vector<std::vector<std::string>> rows;
};

/// A page: its title (the HTML <title>) and blocks, in order.
struct Document {
  std::string title;
  std::vector<Block> blocks;

  void heading(int level, const std::string& text);
  /// UsageError naming the link when a span's link is not a relative path
  /// inside the page's folder (Span).
  void paragraph(std::vector<Span> spans);
  void paragraph(const std::string& text) { paragraph({Span{text, false}}); }
  void display_math(const std::string& latex);
  void preformatted(const std::string& text);
  /// Throws UsageError when a row's length differs from the header's.
  void table(std::vector<std::vector<std::string>> rows);
};

/// The number of formulas of `d` (inline and display), each of which
/// MathJax typesets as one element.
int formula_count(const Document& d);

/// A standalone HTML5 page (UTF-8). Text is HTML-escaped; formulas go
/// between \( \) and \[ \] for MathJax 2, loaded from `mathjax_script`
/// (a URL relative to the page, e.g. "mathjax/MathJax.js", loaded with the
/// TeX-AMS_SVG-full configuration: SVG output, no web fonts). When MathJax
/// has typeset the page, a script sets on <body>:
///   data-mathjax="done", data-mathjax-rendered = the number of typeset
///   formulas, data-mathjax-errors = the number of TeX parse errors, math
///   processing errors and files that failed to load;
/// <body data-formulas> holds formula_count(d), so that a browser test can
/// check that every formula rendered.
std::string to_html(const Document& d, const std::string& mathjax_script);

/// Markdown with LaTeX math ($...$ inline, $$ blocks), tables as pipe
/// tables, preformatted text fenced (by more backticks than any run in
/// it). Plain text (headings, paragraphs, cells) is escaped as the HTML
/// is: '<', '>' and '&' as entities, so that no tag (<script>, <img
/// onerror=...>) reaches a renderer; '\\', '`', '[', ']', '$', '|' and
/// '*', '_' behind a backslash (no link, code, math or emphasis); a line
/// break as a space. Code spans hold one_line(text), fenced by more
/// backticks than any run in it.
std::string to_markdown(const Document& d);

/// `s` on one line: each control character (a line break, a tab, ...) as
/// its C escape (\\n, \\r, \\t, \\xHH). For a command line or file name
/// written into a comment or a code span of a generated file.
std::string one_line(const std::string& s);

}  // namespace nhs::symbolic
