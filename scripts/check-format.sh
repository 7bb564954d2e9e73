#!/usr/bin/env bash
# Fails when a C++ file is not formatted as .clang-format says; `scripts/check-format.sh --fix`
# formats them in place.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=(--dry-run --Werror)
[[ "${1:-}" == --fix ]] && mode=(-i)
git ls-files -z '*.cpp' '*.hpp' | xargs -0 clang-format "${mode[@]}"
echo "every C++ file is formatted as .clang-format says"
