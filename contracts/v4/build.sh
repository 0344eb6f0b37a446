#!/bin/sh
# Installs the pinned Uniswap V4 packages and solc from npm (package.json
# here) and compiles the PoolManager and StateView from their published
# sources into contracts/v4/out (git-ignored; package contracts embeds what
# is there when Go builds). Nothing of Uniswap's is committed. A second run
# with the same pins does nothing.
set -eu
cd "$(dirname "$0")"
if [ ! -f node_modules/@uniswap/v4-core/package.json ] || [ ! -f node_modules/@uniswap/v4-periphery/package.json ] || [ ! -d node_modules/solc ]; then
	npm install --no-audit --no-fund --no-package-lock --loglevel=error >&2
fi
if [ -f out/PoolManager.json ] && [ -f out/StateView.json ] && [ out/PoolManager.json -nt package.json ] && [ out/PoolManager.json -nt build.js ]; then
	echo "contracts/v4/out is up to date (Uniswap V4 $(node -p 'require("./node_modules/@uniswap/v4-core/package.json").version'))" >&2
	exit 0
fi
node build.js --modules node_modules --out out >&2
