// Moved: the one error table is session's, nhs/session/error_table.hpp
// (issue 58), where simulate and the front ends that link nhs::session read
// it. This forwarding header stays for one release for code that includes
// the old path (it needs nhs::session's include directory: link
// nhs::session); include the new path instead.
#pragma once

#include "nhs/session/error_table.hpp"
