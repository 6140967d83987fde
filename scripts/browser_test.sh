#!/usr/bin/env bash
# Plays all five games on the `shishi serve` page in headless Chromium by clicking, and saves
# screenshots (docs/SERVE.md, "Browser test"). Installs Debian's chromium and
# chromium-driver (apt-get) and Python's selenium (pip) when they are missing.
#
# Usage: scripts/browser_test.sh [OUTDIR]   (default target/browser-test)
# SHISHI=path/to/shishi uses that binary instead of building target/release/shishi.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/browser-test}
mkdir -p "$out"

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver
fi
if ! python3 -c 'import selenium' 2>/dev/null; then
  python3 -m pip install --quiet selenium
fi

shishi=${SHISHI:-}
if [ -z "$shishi" ]; then
  nice -n 10 cargo build --release
  shishi=target/release/shishi
fi

log="$out/server.log"
"$shishi" serve --port 0 >"$out/server.out" 2>"$log" &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  grep -q 'http://' "$out/server.out" 2>/dev/null && break
  sleep 0.1
done
url=$(grep -o 'http://[^ ]*' "$out/server.out" | head -1)
echo "server: $(head -1 "$out/server.out")"
python3 scripts/browser_test.py "$url" "$out"
echo "screenshots in $out:"
ls "$out"/*.png
