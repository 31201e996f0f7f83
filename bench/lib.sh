# Shared by the benchmark scripts (bench/run-all.sh, bench/*/run.sh), sourced after `set -euo pipefail`:
#   . "$(dirname "$0")/../lib.sh" [TOOL...]
# checks that every TOOL is on PATH, and defines die, need and the CMake generator (Ninja when installed), and the
# places a benchmark uses: bench_here (the script's folder), bench_root (the repository), bench_cacheflow (the
# command line tool: $CACHEFLOW, default ./cacheflow), bench_jobs ($CF_JOBS, default 2), bench_results
# (bench/results, created).
bench_script=${bench_script:-$(basename "$0")}
bench_here=$(cd "$(dirname "$0")" && pwd)
bench_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bench_cacheflow=${CACHEFLOW:-$bench_root/cacheflow}
bench_jobs=${CF_JOBS:-2}
bench_results="$bench_root/bench/results"
mkdir -p "$bench_results"

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
