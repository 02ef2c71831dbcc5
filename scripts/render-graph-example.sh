#!/usr/bin/env bash
# Renders the README's graph picture: the DOT text of the example in
# Tests/CogTests/ReadmeGraphTests.swift into docs/graph-example.dot (through the test, so the
# committed text is what the public API prints), then docs/graph-example.svg with Graphviz.
# Installs Debian's graphviz when `dot` is missing and it runs as root (not with COG_NO_INSTALL).
# Exit status: 0 both written; 1 the test run failed or Graphviz is missing or failed.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v dot >/dev/null; then
  if [[ -z "${COG_NO_INSTALL:-}" && $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    echo "render-graph-example: installing graphviz" >&2
    apt-get install -y -q graphviz >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q graphviz >/dev/null; }
  fi
  command -v dot >/dev/null || {
    echo "render-graph-example: Graphviz's dot is missing (Debian: apt-get install graphviz)" >&2
    exit 1
  }
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
COG_GRAPH_EXAMPLE_OUT="$tmp/graph-example.dot" swift test --filter readmeGraphExample >"$tmp/test.txt" 2>&1 || {
  cat "$tmp/test.txt" >&2
  echo "render-graph-example: the example's test failed" >&2
  exit 1
}
[[ -s "$tmp/graph-example.dot" ]] || { echo "render-graph-example: the test wrote no DOT text" >&2; exit 1; }
dot -Tsvg "$tmp/graph-example.dot" -o "$tmp/graph-example.svg"
mkdir -p docs
mv "$tmp/graph-example.dot" docs/graph-example.dot
mv "$tmp/graph-example.svg" docs/graph-example.svg
echo "render-graph-example: wrote docs/graph-example.dot and docs/graph-example.svg"
