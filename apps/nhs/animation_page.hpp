// The page that `nhs animate` writes as DIR/index.html (docs/animation.md):
// apps/nhs/animation/index.html, compiled into the tool by CMake
// (apps/nhs/animation/page.cpp.in), so that an installed nhs needs no data
// file of its own.
#pragma once

namespace nhs::cli {

/// The text of index.html: three.js r111 (three.min.js, OrbitControls.js
/// next to it) and data.js's window.NHS_ANIMATION drawn; never null.
const char* animation_page_html();

}  // namespace nhs::cli
