#!/bin/sh
# sigh's Interactive Sudoku Solver (JavaScript, github.com/sigh/Interactive-
# Sudoku-Solver), unpacked outside the repository and run under Node.js, for
# `cargo xtask bench variants` only: nothing of it is copied here or shipped.
#
#   iss.sh fetch [SOURCE [REV]]  unpacks $ISS_DIR from SOURCE: a git
#                              repository (its REV, default HEAD; default
#                              the mirror /work/.mirror/sigh+Interactive-
#                              Sudoku-Solver/repo, else a clone from GitHub)
#   iss.sh run FILE [RUNS]     solves each constraint string of FILE (one per
#                              line) up to 2 solutions, RUNS passes (default
#                              3), and prints "count nanoseconds digits" per
#                              line, the best pass's time (iss_driver.mjs)
#   iss.sh dir                 prints $ISS_DIR
#
# Needs git and node (18 or newer). ISS_DIR defaults to
# ~/.cache/cover-peers/iss.
set -eu

dir=${ISS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/cover-peers/iss}
mirror=/work/.mirror/sigh+Interactive-Sudoku-Solver/repo
here=$(cd "$(dirname "$0")" && pwd)

fetch() {
    source=${1:-}
    rev=${2:-HEAD}
    repo=$(git -C "$here" rev-parse --show-toplevel 2>/dev/null || echo /nonexistent)
    case "$(realpath -m "$dir")/" in
    "$(realpath -m "$repo")"/*) echo "iss.sh: ISS_DIR $dir is inside the repository" >&2; exit 2 ;;
    esac
    if [ -z "$source" ]; then
        if [ -d "$mirror" ]; then
            source=$mirror
        else
            source=$(mktemp -d)
            git clone -q --depth 1 https://github.com/sigh/Interactive-Sudoku-Solver "$source"
        fi
    fi
    rm -rf "$dir"
    mkdir -p "$dir"
    git -C "$source" archive "$rev" | tar -x -C "$dir"
    git -C "$source" rev-parse "$rev" >"$dir/REVISION"
    echo "$dir"
}

run() {
    file=$1
    runs=${2:-3}
    [ -f "$dir/js/sudoku_parser.js" ] || { echo "iss.sh: no checkout in $dir; run iss.sh fetch first" >&2; exit 2; }
    pin=
    command -v taskset >/dev/null && pin="taskset -c 0"
    $pin node "$here/iss_driver.mjs" "$dir" "$runs" <"$file"
}

case "${1:-}" in
fetch) shift; fetch "$@" ;;
run) shift; [ $# -ge 1 ] || { echo "usage: iss.sh run FILE [RUNS]" >&2; exit 2; }; run "$@" ;;
dir) echo "$dir" ;;
*) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0" >&2; exit 2 ;;
esac
