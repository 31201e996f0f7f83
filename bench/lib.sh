# Shared by the benchmark scripts (bench/run-all.sh, bench/*/run.sh, ...), sourced after `set -euo pipefail` and
# before the script reads its command line:
#   . "$(dirname "$0")/../lib.sh" [TOOL...]
#   bench_options SPEC... -- "$@"
# defines die, need, bench_help, bench_options and the CMake generator (Ninja when installed), and the places a
# benchmark uses: bench_here (the script's folder), bench_root (the repository), bench_script (the script, as a path
# from the repository), bench_cacheflow (the command line tool: $CACHEFLOW, default ./cacheflow), bench_jobs
# ($CF_JOBS, default 2), bench_results (bench/results, created). The TOOLs must be on PATH: bench_options checks
# them once the command line is read, so that --help and a wrong option need none of them.
bench_here=$(cd "$(dirname "$0")" && pwd)
bench_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bench_script=${bench_script:-${bench_here#"$bench_root"/}/$(basename "$0")}
bench_cacheflow=${CACHEFLOW:-$bench_root/cacheflow}
bench_jobs=${CF_JOBS:-2}
bench_results="$bench_root/bench/results"
bench_tools=("$@")
mkdir -p "$bench_results"

die() { echo "$bench_script: $*" >&2; exit 1; }

# need TOOL [HINT]: stops with "TOOL not found (HINT)" when TOOL is not on PATH
need() {
    command -v "$1" >/dev/null || die "$1 not found${2:+ ($2)}"
}

# bench_help: prints the script's leading comment block (its help), without the #! line
bench_help() {
    awk 'NR == 1 && /^#!/ { next } /^#/ { print; next } { exit }' "$0"
}

# bench_usage MESSAGE: stops the script with status 2 (a wrong command line), naming it
bench_usage() {
    echo "$bench_script: $* (see --help)" >&2
    exit 2
}

# bench_options SPEC... -- ARG...: reads the script's command line (ARG..., its "$@"), in order, by SPEC, the options
# the script takes:
#   NAME=DEFAULT  --NAME VALUE sets the variable NAME (first set to DEFAULT); when DEFAULT is a whole number, VALUE
#                 must be one
#   quick         --quick sets quick=1 (first set to 0), then runs the script's function bench_quick if it has one
#   --NAME        a flag of the script's own: runs bench_option --NAME (a function the script defines)
#   --NAME=WHAT   an option of the script's own with a value: runs bench_option --NAME VALUE
#   WHAT...       operands (arguments that do not start with -), collected in the array bench_operands
# -h and --help print bench_help and exit 0. An option SPEC lacks, an operand without WHAT... or a value missing or
# not a whole number stops the script with status 2, naming the script and the argument. Then the TOOLs lib.sh was
# sourced with are checked.
bench_options() {
    local bench_spec=() bench_word bench_arg bench_taken
    while [ $# -gt 0 ] && [ "$1" != -- ]; do bench_spec+=("$1"); shift; done
    [ $# -gt 0 ] || bench_usage "bench_options: no -- before the arguments"
    shift
    bench_operands=()
    for bench_word in "${bench_spec[@]}"; do
        case "$bench_word" in
            quick) quick=0 ;;
            -*|*...) ;;
            *=*) printf -v "${bench_word%%=*}" '%s' "${bench_word#*=}" ;;
        esac
    done
    while [ $# -gt 0 ]; do
        bench_arg=$1
        shift
        case "$bench_arg" in -h|--help) bench_help; exit 0 ;; esac
        bench_taken=
        for bench_word in "${bench_spec[@]}"; do
            case "$bench_word" in
                quick)
                    if [ "$bench_arg" = --quick ]; then
                        quick=1
                        if declare -F bench_quick >/dev/null; then bench_quick; fi
                        bench_taken=1
                    fi ;;
                --*=*)
                    if [ "$bench_arg" = "${bench_word%%=*}" ]; then
                        [ -n "${1:-}" ] || bench_usage "$bench_arg needs ${bench_word#*=}"
                        bench_option "$bench_arg" "$1"
                        shift
                        bench_taken=1
                    fi ;;
                --*)
                    if [ "$bench_arg" = "$bench_word" ]; then bench_option "$bench_arg"; bench_taken=1; fi ;;
                *...)
                    if [[ "$bench_arg" != -* ]]; then bench_operands+=("$bench_arg"); bench_taken=1; fi ;;
                *=*)
                    if [ "$bench_arg" = "--${bench_word%%=*}" ]; then
                        if [[ "${bench_word#*=}" =~ ^[0-9]+$ ]]; then
                            [ -n "${1:-}" ] || bench_usage "$bench_arg needs a number"
                            [[ "$1" =~ ^[0-9]+$ ]] || bench_usage "$bench_arg needs a whole number, got '$1'"
                        else
                            [ -n "${1:-}" ] || bench_usage "$bench_arg needs a value"
                        fi
                        printf -v "${bench_word%%=*}" '%s' "$1"
                        shift
                        bench_taken=1
                    fi ;;
            esac
            [ -z "$bench_taken" ] || break
        done
        if [ -z "$bench_taken" ]; then
            if [[ "$bench_arg" == -* ]]; then bench_usage "unknown option '$bench_arg'"; fi
            bench_usage "unexpected argument '$bench_arg'"
        fi
    done
    for bench_word in "${bench_tools[@]}"; do need "$bench_word"; done
}

# CMake's generator for every build a benchmark makes: Ninja when installed, else CMake's default
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
