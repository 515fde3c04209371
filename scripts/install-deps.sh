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
	ccache                                      # tests/capture: facet capture with ccache in front of cc
)

# Wanted but not required: a failed install says so and changes nothing else
# (the test that needs it skips with a message).
optional=(
	chromium                                    # headless browser test of facet report (tests/report)
)

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=()
for p in "${packages[@]}"; do
	installed "$p" || missing+=("$p")
done
missing_optional=()
for p in "${optional[@]}"; do
	installed "$p" || missing_optional+=("$p")
done
[ ${#missing[@]} -eq 0 ] && [ ${#missing_optional[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq || [ ${#missing[@]} -eq 0 ]
if [ ${#missing[@]} -gt 0 ]; then
	echo "install-deps: installing ${missing[*]}" >&2
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
for p in "${missing_optional[@]}"; do
	echo "install-deps: installing $p (optional)" >&2
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$p" >&2 ||
		echo "install-deps: $p did not install; the tests that need it skip with a message" >&2
done
exit 0
