#!/usr/bin/env bash
# Fills the git-ignored folders that scripts/gpu-check.sh needs on the GPU
# machine, which lacks these packages: nlohmann-json and CLI11 headers,
# GoogleTest sources, and a copy of the shared test matrices.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p third_party/include
cp -r /usr/include/nlohmann third_party/include/
cp -r /usr/include/CLI third_party/include/
rm -rf third_party/googletest && cp -r /usr/src/googletest third_party/googletest
if [ -d ../shared/matrices ]; then rm -rf matrices && cp -r ../shared/matrices matrices; fi
du -sh third_party matrices 2>/dev/null
