// File output and messages that quote user text: one error for a failed
// write (IoError, exit 5, naming the path and the system's reason), a
// checked write of a whole file, the refusal of an output path that names
// an input, and echo_text, which makes a name or value safe to quote in a
// message. Every command and the Python module write through these, so
// that a full disk or an unwritable directory is exit 5 (nhs.IoError)
// everywhere.
#pragma once

#include "nhs/errors.hpp"

#include <cerrno>
#include <cstddef>
#include <string>

namespace nhs {

/// `text` made safe to echo on one line of a message: control characters
/// written as \n, \r, \t or \xNN (a value holding a newline stays on
/// one line, a terminal's escape sequences are not played); every run of
/// more than 240 bytes without a blank (a name, a number, a path) cut to
/// its first 200 and last 40 bytes with "...[<k> bytes]..." between; and
/// the whole cut the same way to about max_bytes (its first three quarters
/// and its last quarter kept). Cuts fall on UTF-8 character boundaries.
/// report_error passes every error line through it; commands use it where
/// they echo user text in other messages.
std::string echo_text(const std::string& text, std::size_t max_bytes = 4000);

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

}  // namespace nhs
