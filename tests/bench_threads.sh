#!/bin/sh
# bench_threads.sh - wall time of `clothsim run` on 1 thread, on 2 and on the
# default (threads=0: the idle cores), at 100 x 100 and 200 x 200, with the
# machine as it is and with its other cores kept busy by spinning shells, as
# on a school server shared by a class. `make bench-threads` runs it.
#
#   sh tests/bench_threads.sh [CLOTHSIM] [SETTINGS...]
#
# SETTINGS: the columns, each a threads value, or `old`: the clothsim named
# by OLD (one built from an earlier commit) with its defaults; default
# "1 2 0". The ratios are to threads=1's column. REPS (default 3)
# runs of each, interleaved, the fastest kept: other programs come and go.
# SPINNERS (default "0 1 2"): how many busy shells run beside it; with 2 on a
# 2-core machine no core is idle, with 1 the other one is busy. WORK (default
# 30000): a run's steps are WORK / size, about a second on one free core at
# the AVX-512 level. The kernel level is the processor's best, or the one
# CLOTHSIM_KERNELS names in the environment (src/fast/README.md).
# Processor time is not measured here (clothsim bench does that): a thread
# waiting for a core that another program holds costs wall time, not
# processor time.
set -eu
bin=${1:-./clothsim}
[ $# -gt 0 ] && shift
columns=${*:-1 2 0}
reps=${REPS:-3}
spinners=${SPINNERS:-0 1 2}

now() { date +%s.%N; }

# run SIZE STEPS SETTING: prints the wall time of one run, in seconds
run() {
    set -- "$1" "$2" "$3"
    start=$(now)
    if [ "$3" = old ]; then
        "$OLD" run --set cols="$1" --set rows="$1" --steps "$2" --dump /dev/null
    else
        "$bin" run --set cols="$1" --set rows="$1" --set threads="$3" --steps "$2" --dump /dev/null
    fi
    end=$(now)
    awk "BEGIN { print $end - $start }"
}

spin_pids=""
stop_spinning() {
    for pid in $spin_pids; do kill "$pid" 2>/dev/null || :; done
    spin_pids=""
}
trap stop_spinning EXIT
trap 'exit 130' INT TERM

printf '%s, %s cores, load %s\n' "$("$bin" --version | head -n 1)" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %-9s' size spinners
for c in $columns; do printf ' %10s' "threads=$c"; done
for c in $columns; do [ "$c" = 1 ] || printf ' %9s' "$c/1"; done
printf '\n'
for spinning in $spinners; do
    stop_spinning
    k=0
    while [ "$k" -lt "$spinning" ]; do
        sh -c 'while :; do :; done' &
        spin_pids="$spin_pids $!"
        k=$((k + 1))
    done
    for size in 100 200; do
        steps=$((${WORK:-30000} / size)) # about a second each on one free core (AVX-512)
        best=""
        for c in $columns; do eval "best_$c=999999"; done
        r=0
        while [ "$r" -lt "$reps" ]; do
            for c in $columns; do
                t=$(run "$size" "$steps" "$c")
                eval "b=\$best_$c"
                if awk "BEGIN { exit !($t < $b) }"; then eval "best_$c=$t"; fi
            done
            r=$((r + 1))
        done
        printf '%-8s %-9s' "${size}x$size" "$spinning"
        for c in $columns; do eval "printf ' %9.2fs' \$best_$c"; done
        for c in $columns; do
            [ "$c" = 1 ] && continue
            eval "b=\$best_$c"
            # shellcheck disable=SC2154
            printf ' %8.2fx' "$(awk "BEGIN { print $b / $best_1 }")"
        done
        printf '\n'
    done
done
