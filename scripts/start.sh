#!/usr/bin/env bash
# Sets up what building and serving need (not the test tools: see setup.sh --serve), builds,
# then serves the repository root and prints the demo URL (on $PORT, default 8080).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh --serve
SKIP_SETUP=1 bash scripts/build.sh
exec node scripts/serve.mjs
