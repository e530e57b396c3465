#!/usr/bin/env bash
# Installs what the code-server tests need: Debian's Chromium, ripgrep and strace, and code-server 4.100.3 (the
# last release that runs on Node 20) in a git-ignored folder, outside the project's own dependency tree.
# Needs root for apt; idempotent, so CI can call it on every run.
set -euo pipefail
cd "$(dirname "$0")/.."

CODE_SERVER_VERSION=4.100.3
DIR=test/real-clients/.code-server

missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v rg >/dev/null || missing+=(ripgrep)
command -v strace >/dev/null || missing+=(strace)
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "install-code-server: missing ${missing[*]} and not root: apt-get install them first" >&2
    exit 1
  fi
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi

if [ -x "$DIR/node_modules/.bin/code-server" ] &&
   [ "$(node -p "require('./$DIR/node_modules/code-server/package.json').version")" = "$CODE_SERVER_VERSION" ]; then
  echo "code-server $CODE_SERVER_VERSION already in $DIR"
  exit 0
fi

# @vscode/ripgrep's postinstall downloads rg from GitHub, which these machines cannot reach;
# seed its download cache with Debian's rg instead.
cache="${TMPDIR:-/tmp}/vscode-ripgrep-cache-1.15.11"
mkdir -p "$cache"
tar czf "$cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$(dirname "$(command -v rg)")" rg

mkdir -p "$DIR"
[ -f "$DIR/package.json" ] || echo '{ "name": "herald-code-server", "private": true }' > "$DIR/package.json"
# unsafe_perm: code-server's postinstall refuses to run as root otherwise;
# yes: a nested `npx node-gyp` aborts at its prompt without it.
(cd "$DIR" && npm_config_yes=true npm_config_unsafe_perm=true npm install --no-audit --no-fund --no-save "code-server@$CODE_SERVER_VERSION")
echo "code-server $("$DIR/node_modules/.bin/code-server" --version | head -1) in $DIR"
