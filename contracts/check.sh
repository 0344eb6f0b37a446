#!/bin/sh
# Recompiles contracts/src into a temporary directory and fails when the
# committed artifacts differ (stale or missing).
set -eu
cd "$(dirname "$0")"
if [ ! -d node_modules/solc ]; then
	npm install --no-audit --no-fund --no-package-lock >&2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
node compile.js --out "$tmp" >&2
if ! diff -r artifacts "$tmp" >/dev/null; then
	echo "contracts/artifacts are stale: run 'cd contracts && node compile.js' and commit the result" >&2
	diff -r artifacts "$tmp" | head -20 >&2 || true
	exit 1
fi
echo "contracts/artifacts are up to date" >&2
