// The scene of a system, for `nhs run --poses` (run.cpp): the session's
// (nhs/session/scene.hpp), which `nhs animate` and the Python module share.
#pragma once

#include "nhs/session/scene.hpp"
