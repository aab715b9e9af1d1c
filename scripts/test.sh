#!/usr/bin/env bash
# Builds nhs and runs the quick test suite (ctest, without the `slow` label)
# in ./build. On a fresh Debian 12 machine this is all the set-up there is.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
# About 1.5 GB of memory per compile job (docs/numerics.md): NHS_JOBS overrides.
cmake --build build -j"${NHS_JOBS:-$(nproc)}"
cd build
ctest --output-on-failure -LE slow -j"$(nproc)"
