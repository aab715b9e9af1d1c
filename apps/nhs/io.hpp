// The tool's file output (nhs/session/files.hpp: IoError naming the path,
// checked whole-file writes, the refusal of an output that names an input).
#pragma once

#include "nhs/session/files.hpp"
