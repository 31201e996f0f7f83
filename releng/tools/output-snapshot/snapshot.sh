#!/bin/sh
# Everything cacheflow writes (generated projects, plan text, plan --json, plan reports, messages) for the graphs of
# graphs.txt (the bundled examples, the code generator's test graphs, and the corpus graphs when ../shared/corpus
# is there), every strategy, on 1, 2 and 4 cores: the check that a refactoring changed no output. Uses the tool as
# ./cacheflow last built it; takes about 4 minutes on 2 cores.
#
#   releng/tools/output-snapshot/snapshot.sh DIR       # e.g. before and after a change:
#   git stash; ./cacheflow --help >/dev/null; releng/tools/output-snapshot/snapshot.sh /tmp/before; git stash pop
#   ./cacheflow --help >/dev/null; releng/tools/output-snapshot/snapshot.sh /tmp/after; diff -r /tmp/before /tmp/after
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
out=$(mkdir -p "$1" && cd "$1" && pwd)
cli="$root/plugins/org.cacheflow.cli"
[ -f "$cli/target/lib/.built" ] || { echo "build the tool first: ./cacheflow --help" >&2; exit 2; }
classpath=""
for jar in "$root"/plugins/org.cacheflow.*/target/org.cacheflow.*-SNAPSHOT.jar "$cli"/target/lib/*.jar; do
  case "$jar" in *-sources.jar|*-tests.jar) continue ;; esac
  classpath="$classpath${classpath:+:}$jar"
done
graphs=$(mktemp)
trap 'rm -f "$graphs"' EXIT
# corpus graphs only when the corpus is there
grep -v '^#' "$here/graphs.txt" | while IFS= read -r line; do
  path=$(echo "$line" | cut -d'|' -f2 | tr -d ' ')
  if [ -e "$root/$path" ]; then echo "$line"; fi
done > "$graphs"
cd "$root"
CACHEFLOW_HOME="$root" java -Xss16m -cp "$classpath" "$here/Snapshot.java" "$out" "$graphs" \
  baseline,channels,alias,ntm,cow,prestore-demote,prestore-clean,prestore-skip,auto,homeforward,prestore 1,2,4 \
  2> "$out.log"
echo "snapshot: $(grep -c . "$out.log") cases in $out (progress in $out.log)"
