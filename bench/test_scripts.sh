#!/usr/bin/env bash
# The benchmark scripts' command lines, without running a benchmark (a few seconds):
#   bench/test_scripts.sh
# For every script under bench/ (but lib.sh and this one): --help prints the script's leading comment block (from its
# second line to the first line that is not a comment) and exits 0; an unknown option fails, naming the script and
# the option. Then every option of the script's usage line (the comment's "#   bench/....sh [--x N] ..." line) is
# tried: an option with a value given none fails saying that it "needs" one; a flag, or an option with a whole
# number (N, K), followed by an unknown option fails naming the unknown option (so the script took the first). Any
# cacheflow the scripts start is `false` (CACHEFLOW), and each run is cut off after 20 s. Prints one line per
# failure and a count; exit status 1 when any failed. Run by plugins/org.cacheflow.bench's BenchScriptsTest.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
export CACHEFLOW=false
failures=0
checks=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

# run SCRIPT ARG...: sets status, out and err
run() {
    local script=$1
    shift
    out=$(timeout 20 bash "$script" "$@" 2>"$errors")
    status=$?
    err=$(cat "$errors")
    checks=$((checks + 1))
}
errors=$(mktemp)
trap 'rm -f "$errors"' EXIT

scripts=$(find bench -name '*.sh' ! -name lib.sh ! -name test_scripts.sh ! -path '*/build/*' | sort)
[ -n "$scripts" ] || { echo "FAIL no scripts found"; exit 1; }
for script in $scripts; do
    name=$(basename "$script")
    header=$(awk 'NR == 1 && /^#!/ { next } /^#/ { print; next } { exit }' "$script")
    [ -n "$header" ] || fail "$script: no leading comment"
    run "$script" --help
    [ "$status" = 0 ] || fail "$script --help: exit status $status: $err"
    [ "$out" = "$header" ] || fail "$script --help: printed other than its $(wc -l <<<"$header") comment lines"
    run "$script" --no-such-option
    [ "$status" != 0 ] || fail "$script --no-such-option: exit status 0"
    [[ "$err" == *"$name"*--no-such-option* ]] || fail "$script --no-such-option: the error names not both: $err"

    # the usage line's options: [--flag], [--option VALUE] and [--option VALUE]...
    usage=$(grep -m1 -E "^#   bench/.*$name( |$)" "$script" || true)
    [ -n "$usage" ] || fail "$script: no usage line (#   bench/...$name [OPTIONS])"
    while read -r option value; do
        [ -n "$option" ] || continue
        if [ -z "$value" ]; then
            run "$script" "$option" --no-such-option
            [ "$status" != 0 ] && [[ "$err" == *"'--no-such-option'"* ]] ||
                fail "$script $option --no-such-option: not refused for the unknown option (status $status): $err"
        else
            run "$script" "$option"
            [ "$status" != 0 ] && [[ "$err" == *"$option needs"* ]] ||
                fail "$script $option (no value): status $status, no '$option needs': $err"
            if [[ "$value" =~ ^[NK]$ ]]; then # a whole number
                run "$script" "$option" 3 --no-such-option
                [ "$status" != 0 ] && [[ "$err" == *"'--no-such-option'"* ]] ||
                    fail "$script $option 3 --no-such-option: not refused for the unknown option (status $status): $err"
            fi
        fi
    done < <(grep -oE '\[--[a-z-]+( [^]]+)?\]' <<<"$usage" | tr -d '[]' | sed -E 's/^(--[a-z-]+) ?(.*)$/\1 \2/')
done
echo "$checks runs of $(wc -w <<<"$scripts") scripts, $failures failed"
[ "$failures" = 0 ]
