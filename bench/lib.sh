# Shared by the benchmark scripts (bench/run-all.sh, bench/*/run.sh), sourced after `set -euo pipefail`:
#   . "$(dirname "$0")/../lib.sh" [TOOL...]
# checks that every TOOL is on PATH, and defines die, need and the CMake generator (Ninja when installed).
bench_script=${bench_script:-$(basename "$0")}

die() { echo "$bench_script: $*" >&2; exit 1; }

# need TOOL [HINT]: stops with "TOOL not found (HINT)" when TOOL is not on PATH
need() {
    command -v "$1" >/dev/null || die "$1 not found${2:+ ($2)}"
}

for bench_tool in "$@"; do need "$bench_tool"; done
unset bench_tool

# CMake's generator for every build a benchmark makes: Ninja when installed, else CMake's default
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
