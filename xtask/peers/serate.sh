#!/bin/sh
# Sudoku Explainer's command-line rater (serate, in SukakuExplainer), built
# from its public source and run, for `cargo xtask bench rate` only: the
# jar lives outside the repository and is never shipped (SukakuExplainer is
# LGPL; nothing of it is copied here).
#
#   serate.sh build [SOURCE [REV]]
#                              builds $SERATE_DIR/SukakuExplainer.jar from
#                              SOURCE: a source folder (holding diuf/) or a
#                              git repository (its REV, default HEAD);
#                              default the mirror
#                              /work/.mirror/SudokuMonster+SukakuExplainer/repo.
#                              se_rated.txt's ratings are v1.15.10's (all
#                              1,587 agree); HEAD (1.18.1) rates 42 lower
#   serate.sh run FILE [OPT]   rates each puzzle of FILE (the first
#                              81-character field of each line, so
#                              se_rated.txt's "hash puzzle rating" lines do;
#                              lines starting with # are skipped), one thread
#                              (pinned to CPU 0 when taskset is here), and
#                              prints "ordinal rating seconds" per puzzle;
#                              OPT are more serate options
#   serate.sh jar              prints the jar's path
#
# Needs a JDK (javac, jar, java; Debian's openjdk-17 does). SERATE_DIR
# defaults to ~/.cache/cover-peers/sukaku.
set -eu

dir=${SERATE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/cover-peers/sukaku}
jar=$dir/SukakuExplainer.jar
mirror=/work/.mirror/SudokuMonster+SukakuExplainer/repo

build() {
    source=${1:-$mirror}
    rev=${2:-HEAD}
    repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel 2>/dev/null || echo /nonexistent)
    case "$(realpath -m "$dir")/" in
    "$(realpath -m "$repo")"/*) echo "serate.sh: SERATE_DIR $dir is inside the repository" >&2; exit 2 ;;
    esac
    rm -rf "$dir/src" "$dir/classes"
    mkdir -p "$dir/src" "$dir/classes"
    if [ -d "$source/diuf" ]; then
        cp -r "$source/diuf" "$dir/src/"
    else
        git -C "$source" archive "$rev" | tar -x -C "$dir/src"
    fi
    # The sources are Latin-1 (a few comments and strings say so).
    (cd "$dir/src" && find diuf -name '*.java' >../sources.txt &&
        javac -nowarn -encoding ISO-8859-1 -d ../classes @../sources.txt)
    # The GUI's pages and images, so that the jar is the whole program.
    (cd "$dir/src" && find diuf -type f ! -name '*.java' | while read -r f; do
        mkdir -p "../classes/$(dirname "$f")" && cp "$f" "../classes/$f"
    done)
    jar cf "$jar" -C "$dir/classes" .
    echo "$jar"
}

run() {
    file=$1
    shift
    [ -f "$jar" ] || { echo "serate.sh: no $jar; run serate.sh build first" >&2; exit 2; }
    input=$(mktemp)
    output=$(mktemp)
    trap 'rm -f "$input" "$output"' EXIT
    awk '!/^#/ { for (i = 1; i <= NF; i++) if (length($i) == 81) { print $i; break } }' \
        "$file" >"$input"
    pin=
    command -v taskset >/dev/null && pin="taskset -c 0"
    # %n ordinal, %r the rating (ER), %e the time serate took on it.
    $pin java -Xrs -Xmx500m -cp "$jar" diuf.sudoku.test.serate --threads=1 \
        --format='%n %r %e' --input="$input" --output="$output" "$@"
    cat "$output"
}

case "${1:-}" in
build) shift; build "$@" ;;
run) shift; [ $# -ge 1 ] || { echo "usage: serate.sh run FILE [OPTION ...]" >&2; exit 2; }; run "$@" ;;
jar) echo "$jar" ;;
*) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0" >&2; exit 2 ;;
esac
