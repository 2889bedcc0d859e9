#!/usr/bin/env bash
# Type-checks and packages the VS Code client (needs Node and the npm
# registry; not part of .ci/run). Leaves cudalint-*.vsix here.
set -euo pipefail
cd "$(dirname "$0")"
npm install --no-audit --no-fund
npx tsc -p . --noEmit
npx tsc -p .
npx vsce package --allow-missing-repository --skip-license
