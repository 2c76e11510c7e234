#!/usr/bin/env bash
# Refresh display/static/vendor/ from the npm registry (pinned in vendor-package.json + vendor-package-lock.json).
# Usage: display/update_vendor.sh            install from the lock file (npm ci), copy, check hashes
#        display/update_vendor.sh --upgrade  re-resolve vendor-package.json, rewrite the lock and SHA256SUMS
# The pages never fetch anything at run time: everything they load is copied here, with its licence.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
vendor="$here/static/vendor"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$here/vendor-package.json" "$work/package.json"
if [[ "${1:-}" == "--upgrade" ]]; then
  (cd "$work" && npm install --no-audit --no-fund --ignore-scripts)
  cp "$work/package-lock.json" "$here/vendor-package-lock.json"
else
  cp "$here/vendor-package-lock.json" "$work/package-lock.json"
  (cd "$work" && npm ci --no-audit --no-fund --ignore-scripts)
fi
nm="$work/node_modules"
mkdir -p "$vendor/socket.io" "$vendor/barcode-detector" "$vendor/fonts"
# the ES module builds: the pages import them (display/static/js/common.js, scan.js), no global on window
cp "$nm/socket.io-client/dist/socket.io.esm.min.js" "$nm/socket.io-client/LICENSE" "$vendor/socket.io/"
cp "$nm/barcode-detector/dist/es/ponyfill.js" "$nm/barcode-detector/dist/es/zxing-exported.js" \
   "$nm/barcode-detector/LICENSE" "$vendor/barcode-detector/"
cp "$nm/zxing-wasm/dist/reader/zxing_reader.wasm" "$vendor/barcode-detector/"
cp "$nm/zxing-wasm/LICENSE" "$vendor/barcode-detector/LICENSE.zxing-wasm"
for w in 400 700; do
  cp "$nm/@fontsource/atkinson-hyperlegible/files/atkinson-hyperlegible-latin-$w-normal.woff2" "$vendor/fonts/"
  cp "$nm/@fontsource/atkinson-hyperlegible/files/atkinson-hyperlegible-latin-ext-$w-normal.woff2" "$vendor/fonts/"
done
cp "$nm/@fontsource/atkinson-hyperlegible/LICENSE" "$vendor/fonts/LICENSE"
# the digits: Lexend's zero is plain (Atkinson's is slashed, read as 8 or 9 from the back of a hall)
for w in 400 700; do cp "$nm/@fontsource/lexend/files/lexend-latin-$w-normal.woff2" "$vendor/fonts/"; done
cp "$nm/@fontsource/lexend/LICENSE" "$vendor/fonts/LICENSE.lexend"
# The wasm must be the very build the ponyfill was made for (its glue code embeds the SHA-256).
want="$(grep -o '"[0-9a-f]\{64\}"' "$vendor/barcode-detector/zxing-exported.js" | tr -d '"' | head -1)"
got="$(sha256sum "$vendor/barcode-detector/zxing_reader.wasm" | cut -d' ' -f1)"
[[ "$want" == "$got" ]] || { echo "zxing_reader.wasm $got does not match the ponyfill's $want" >&2; exit 1; }
cd "$vendor"
if [[ "${1:-}" == "--upgrade" || ! -f SHA256SUMS ]]; then
  find . -type f ! -name SHA256SUMS | sort | xargs sha256sum > SHA256SUMS
  echo "SHA256SUMS rewritten"
else
  sha256sum --check --quiet SHA256SUMS && echo "vendor files match SHA256SUMS"
fi
