#!/bin/sh
# Build SecGraph's command-line mode (commandLine.commandLineMode) from its public source, OUTSIDE
# the privlab repository.  Usage:  benchmarks/secgraph/build.sh SRC_DIR OUT_DIR
#   SRC_DIR  a checkout of SecGraph's source tree (the folder holding src/commandLine/...)
#   OUT_DIR  where the classes and secgraph-cli.jar go (e.g. /work/secgraph-build)
# Needs javac 17 and Debian's libcommons-cli-java and libcommons-math3-java.  The GUI (src/views,
# SWT) is not built.  Two libraries SecGraph calls but does not ship are replaced by the stubs
# next to this script, which throw if reached (see README.md).
# Optional: DEANON_SRC=DIR (the fork's "Shirin's community de-anonymization code/
# de-anonymization-master/code/deAnon" folder) compiles Nilizadeh et al.'s real deAnon.matching and
# deAnon.deg_anon sources instead of the Comm_Enhanced stub, so `-m d -a Community` runs; it needs
# Debian's libjung-free-java (JUNG 2.1.1, with libguava-java) and the shim in deanon-shims/.
set -eu
if [ $# -ne 2 ]; then
    echo "usage: $0 SRC_DIR OUT_DIR" >&2
    exit 2
fi
src=$(cd "$1" && pwd)
out=$2
here=$(cd "$(dirname "$0")" && pwd)
case "$(cd "$(dirname "$out")" 2>/dev/null && pwd)/" in
    "$(cd "$here/../.." && pwd)"/*) echo "OUT_DIR must be outside the privlab repository" >&2; exit 2 ;;
esac
[ -f "$src/src/commandLine/commandLineMode.java" ] || {
    echo "$src does not look like SecGraph's source (no src/commandLine/commandLineMode.java)" >&2
    exit 2
}
cp_jars=/usr/share/java/commons-cli.jar:/usr/share/java/commons-math3.jar
for j in /usr/share/java/commons-cli.jar /usr/share/java/commons-math3.jar; do
    [ -f "$j" ] || { echo "missing $j: apt-get install libcommons-cli-java libcommons-math3-java" >&2; exit 2; }
done
deanon=${DEANON_SRC:-}
if [ -n "$deanon" ]; then
    [ -f "$deanon/matching/Comm_Enhanced.java" ] || {
        echo "DEANON_SRC=$deanon has no matching/Comm_Enhanced.java (give the deAnon folder)" >&2
        exit 2
    }
    for j in jung-api jung-graph-impl jung-algorithms jung-io guava; do
        [ -f "/usr/share/java/$j.jar" ] || { echo "missing /usr/share/java/$j.jar: apt-get install libjung-free-java" >&2; exit 2; }
        cp_jars=$cp_jars:/usr/share/java/$j.jar
    done
fi
mkdir -p "$out/classes"
list=$(mktemp)
find "$src/src" -name '*.java' ! -path '*/views/*' > "$list"
if [ -n "$deanon" ]; then
    # the real matching/ and deg_anon/ (graph/OverlappedGraphs.java imports a package the fork
    # lacks and no attack uses it), the collections15 shim, and every stub but Comm_Enhanced's
    find "$deanon/matching" "$deanon/deg_anon" -name '*.java' >> "$list"
    find "$here/deanon-shims" -name '*.java' >> "$list"
    find "$here/stubs" -name '*.java' ! -path '*/deAnon/*' >> "$list"
else
    find "$here/stubs" -name '*.java' >> "$list"
fi
sed 's/.*/"&"/' "$list" > "$list.q"  # javac's @file: quote each path ("Shirin's …" has a ' and spaces)
javac --release 17 -nowarn -encoding UTF-8 -cp "$cp_jars" -d "$out/classes" @"$list.q" 2>&1 \
    | grep -vE '^Note: ' || true
rm -f "$list" "$list.q"
[ -f "$out/classes/commandLine/commandLineMode.class" ] || { echo "javac failed" >&2; exit 1; }
printf 'Main-Class: commandLine.commandLineMode\nClass-Path: %s\n' \
    "$(echo "$cp_jars" | tr ':' ' ')" > "$out/MANIFEST.MF"
jar --create --file "$out/secgraph-cli.jar" --manifest "$out/MANIFEST.MF" -C "$out/classes" .
echo "built $out/secgraph-cli.jar  (run: java -jar $out/secgraph-cli.jar -m d -a NS ...)"
# privHRG (Xiao, Chen & Tan's C++ DP-HRG, called by SecGraph's -m a -a XiaoDP), if the source
# tree has it: one g++ line (the authors' makefile is the same without -O2).
if [ -f "$src/privHRG-master/src/main.cpp" ] && command -v g++ >/dev/null 2>&1; then
    g++ -std=c++11 -O2 "$src/privHRG-master/src/main.cpp" -o "$out/privHRG" && echo "built $out/privHRG"
fi
