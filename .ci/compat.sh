#!/usr/bin/env bash
# Compatibility tier: installs the real Uniswap V2/V3 + WETH9 artifacts and
# anvil from npm (pinned, never committed) and runs internal/compat against
# them. Prints the node_modules path it used.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${TOKENRISK_COMPAT_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tokenrisk-compat}
mkdir -p "$dir"
cat > "$dir/package.json" <<'JSON'
{
  "name": "tokenrisk-compat",
  "private": true,
  "dependencies": {
    "@uniswap/v2-core": "1.0.1",
    "@uniswap/v2-periphery": "1.1.0-beta.0",
    "@uniswap/v3-core": "1.0.1",
    "@uniswap/v3-periphery": "1.4.4",
    "@foundry-rs/anvil": "1.7.1"
  }
}
JSON
if [ ! -x "$dir/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil" ] || [ ! -f "$dir/node_modules/@uniswap/v3-periphery/package.json" ]; then
  (cd "$dir" && npm install --no-audit --no-fund --loglevel=error >/dev/null)
fi
export TOKENRISK_COMPAT_MODULES="$dir/node_modules"
cd "$root"
go test -count=1 ./internal/compat/...
