// The TOML text checks and toml++ (systemfile/toml_text.hpp), where the
// readers of system files and of sweep specifications include them.
#pragma once

#include "systemfile/toml_text.hpp"
