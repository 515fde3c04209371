#!/usr/bin/env bash
# install-deps.sh — install every package facet needs to build and test, when missing.
# Debian 12 (bookworm); run as root or with sudo available. Idempotent and quiet
# when everything is already there.
set -euo pipefail

packages=(
	cmake make gcc pkg-config python3
	clang-22 llvm-22-dev llvm-22-tools lld-22   # LLVM 22: C API, opt/llvm-dis, the linker for LTO bitcode
	libsqlite3-dev libjansson-dev libcmocka-dev # catalog, JSON, unit tests
	graphviz                                    # renders --format dot
	libcurl4-openssl-dev                        # the openai oracle's HTTP client
	libclang-22-dev                             # facet source: the C parse without a build (libclang C API)
)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
