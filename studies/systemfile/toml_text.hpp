// toml++ as the studies library compiles it, and the check on the text of a
// TOML file before toml++ parses it (toml_scan.cpp), shared by the readers
// of system files (systemfile/toml_reader.cpp) and sweep specifications
// (sweep_spec.cpp). Every translation unit that parses TOML includes
// toml++ through this header: header-only, its functions are inline, and
// two units compiled with different TOML_ settings would break the
// one-definition rule (the linker keeps one unit's version for both).
// Private to the studies library (not installed).
#pragma once

#define TOML_EXCEPTIONS 1
// toml++ is compiled in, header-only (docs/cli.md, "Start-up"). Its internal
// assertions are compiled out, as in Debian's libtomlplusplus (built with
// NDEBUG, where GCC turns them into nothing): one of them (parser.inl,
// parse_key) fires on a malformed key the fuzz test writes, where the parser
// goes on to report a parse error. The sanitized build (ctest -L asan) runs
// the fuzz test with them compiled out and finds no memory error after it.
#define TOML_ASSERT(expr) static_cast<void>(0)
#include <toml++/toml.h>

#include "decimal_range.hpp"  // out_of_range, for the readers of TOML values
#include "toml_scan.hpp"       // unparseable_non_ascii, before toml++ parses a text
