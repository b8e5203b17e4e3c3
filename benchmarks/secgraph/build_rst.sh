#!/bin/sh
# Build SecGraph's randomized-spanning-tree attack (-m d -a RST) for real, OUTSIDE the privlab
# repository: SecGraph's source + APTED's Java source (Pawlik & Augsten, the successor of the RTED
# library SecGraph calls; MIT) + our adapter rst/convenience/RTED.java in place of the throwing
# stub.  Usage:  benchmarks/secgraph/build_rst.sh SECGRAPH_SRC_DIR APTED_SRC_DIR OUT_DIR
#   SECGRAPH_SRC_DIR  the folder holding src/commandLine/... (as for build.sh)
#   APTED_SRC_DIR     a checkout of github.com/DatabaseGroup/apted (the folder holding src/main/java)
#   OUT_DIR           where classes/ and secgraph-rst.jar go (e.g. /work/secgraph-extra/sh)
# The adapter's assumptions are in its header and docs/graph/srivatsa-hicks.md.
set -eu
if [ $# -ne 3 ]; then
    echo "usage: $0 SECGRAPH_SRC_DIR APTED_SRC_DIR OUT_DIR" >&2
    exit 2
fi
src=$(cd "$1" && pwd)
apted=$(cd "$2" && pwd)
out=$3
here=$(cd "$(dirname "$0")" && pwd)
case "$(cd "$(dirname "$out")" 2>/dev/null && pwd)/" in
    "$(cd "$here/../.." && pwd)"/*) echo "OUT_DIR must be outside the privlab repository" >&2; exit 2 ;;
esac
[ -f "$src/src/deAnonymize/RandomizedSpanningTree.java" ] || { echo "$src: not SecGraph's source" >&2; exit 2; }
[ -d "$apted/src/main/java/at/unisalzburg/dbresearch/apted" ] || { echo "$apted: not APTED's source" >&2; exit 2; }
cp_jars=/usr/share/java/commons-cli.jar:/usr/share/java/commons-math3.jar
mkdir -p "$out/classes"
list=$(mktemp)
find "$src/src" -name '*.java' ! -path '*/views/*' > "$list"
find "$apted/src/main/java/at" -name '*.java' ! -name 'CommandLine.java' >> "$list"
find "$here/stubs" -name '*.java' ! -path '*/convenience/*' >> "$list"
find "$here/rst" -name '*.java' >> "$list"
javac --release 17 -nowarn -encoding UTF-8 -cp "$cp_jars" -d "$out/classes" @"$list" 2>&1 \
    | grep -vE '^Note: ' || true
rm -f "$list"
[ -f "$out/classes/convenience/RTED.class" ] || { echo "javac failed" >&2; exit 1; }
printf 'Main-Class: commandLine.commandLineMode\nClass-Path: %s\n' \
    "$(echo "$cp_jars" | tr ':' ' ')" > "$out/MANIFEST.MF"
jar --create --file "$out/secgraph-rst.jar" --manifest "$out/MANIFEST.MF" -C "$out/classes" .
echo "built $out/secgraph-rst.jar  (run: java -jar $out/secgraph-rst.jar -m d -a RST ... -n TREES)"
