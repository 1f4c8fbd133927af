#!/usr/bin/env bash
# Browser tests of the web client: installs Debian's Chromium, playwright-core
# and redis-server when missing, builds the lobby, runs the tests (they start
# the lobby themselves; this script starts a Redis for the restart test) and
# stops everything on exit. Exits non-zero when a test fails.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
export DEBIAN_FRONTEND=noninteractive

updated=
need() { # need BINARY PACKAGE
	if ! command -v "$1" >/dev/null 2>&1; then
		echo "== installing $2"
		if [ -z "$updated" ]; then apt-get update -qq; updated=1; fi
		apt-get install -y -qq "$2" >/dev/null
	fi
}
need /usr/bin/chromium chromium
need redis-server redis-server
need node nodejs
need npm npm

cd "$here"
if [ ! -d node_modules/playwright-core ]; then
	npm ci --no-audit --no-fund --loglevel=error
fi

tmp="$(mktemp -d)"
redis_pid=
cleanup() {
	if [ -n "$redis_pid" ]; then kill "$redis_pid" 2>/dev/null || true; wait "$redis_pid" 2>/dev/null || true; fi
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

echo "== building the lobby"
(cd "$root" && go build -o "$tmp/lobby" ./cmd/lobby)

port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --daemonize no >"$tmp/redis.log" 2>&1 &
redis_pid=$!
for _ in $(seq 1 100); do
	redis-cli -p "$port" ping >/dev/null 2>&1 && break
	sleep 0.05
done

export LOBBY_BIN="$tmp/lobby" REDIS_URL="redis://127.0.0.1:$port/0"
export SHOTS_DIR="${SHOTS_DIR:-$here/screenshots}"
echo "== browser tests (screenshots in ${SHOTS_DIR#$root/})"
# Arguments name test files (tests/x.test.mjs) to run only those.
if [ $# -gt 0 ]; then
	node --test --test-concurrency=1 --test-timeout=180000 "$@"
else
	node --test --test-concurrency=1 --test-timeout=180000 tests/
fi
