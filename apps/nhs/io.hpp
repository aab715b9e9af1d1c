// The tool's file output: one error for a failed write (IoError, exit 5,
// naming the path and the system's reason), a checked write of a whole
// file, and the refusal of an output path that names an input. Every
// command writes through these (run, verify, check, findings, sweep), so
// that a full disk or an unwritable directory is exit 5 everywhere.
#pragma once

#include "nhs/errors.hpp"

#include <cerrno>
#include <string>

namespace nhs::cli {

/// Throws IoError (exit 5) "<what> '<path>': <strerror(err)>" (e.g. what =
/// "cannot write"); "write error" when err is 0 (a stream that failed
/// without setting errno).
[[noreturn]] void throw_io_error(const std::string& what, const std::string& path, int err = errno);

/// Writes `text` to `path`, replacing it: open, write, flush and close
/// are each checked; IoError (throw_io_error) naming `path` when any fails.
/// Not atomic (a kill may leave part of the file); SweepOutput renames a
/// temporary file written by it into place where that matters.
void write_text_file(const std::string& path, const std::string& text);

/// Refuses (UsageError, exit 2) an output `output` (of option `option`)
/// that is the input file `input` (std::filesystem::equivalent: the same
/// file under another name or link too), so that nothing the user gave as
/// input is overwritten. Nothing when either does not exist.
void refuse_overwriting(const std::string& input, const std::string& output, const std::string& option);

}  // namespace nhs::cli
