#!/bin/sh
# mutants.sh - plants each bug of tests/mutants.txt, one at a time, in a
# scratch copy of the tree and runs the physics suites against it: every
# mutant must make them fail. `make mutants` runs it; CI does too.
#
#   sh tests/mutants.sh
#
# MUTANT_JOBS (default 2): mutants tested side by side, each in its own copy
# of the tree under build/mutants/slotK (below: from make test's objects),
# where a mutant is planted, built (its file and the links), tested with
# the suites below, and taken out again. MUTANTS=a,b: only those (by
# name). MUTANT_EVERY_TEST=1: every test of the suites runs for each
# mutant, not only up to the first failure. MUTANT_TIMEOUT (default 600 s):
# a mutant whose tests run longer counts as caught, and says so.
#
# The work tree is never touched. A mutant's text must occur exactly once
# in its file: one that does not stops the run before anything is built, so
# that the list cannot stop mutating in silence when the code changes. The
# unmutated copy must pass the same tests first, or no kill would mean
# anything.
set -u
cd "$(dirname "$0")/.." || exit 2

LIST=tests/mutants.txt
ROOT=build/mutants
JOBS=${MUTANT_JOBS:-2}
ONLY=${MUTANTS:-}
TIMEOUT=${MUTANT_TIMEOUT:-600}
# MUTANT_EVERY_TEST=1: each mutant's suites run to the end, and the report
# names up to three of the tests that caught it (not only the first).
FAIL_FAST=--fail-fast
[ -z "${MUTANT_EVERY_TEST:-}" ] || FAIL_FAST=
# The physics suites (Criterion's pattern) and the lessons' claims: no tmux
# test, and not the fast path's equality tests (suite fast, half the time:
# every mutant here is caught without them).
SUITES='@(cloth|collide|implicit|params|selfcollide|solver|springs|strain_limit)/*'
LESSONS='lessons/*.lesson'

start=$(date +%s)
# One run at a time in a tree: a second would take the first's copies away.
mkdir -p build
if ! mkdir build/mutants.lock 2>/dev/null; then
    echo "clothsim: another make mutants is running in this tree (build/mutants.lock; remove it if none is)" >&2
    exit 2
fi
trap 'rmdir build/mutants.lock 2>/dev/null' EXIT
rm -rf "$ROOT"
mkdir -p "$ROOT/list" "$ROOT/results"

# ---------------------------------------------------------------- the list
# Each mutant's fields into $ROOT/list/N.name, .file, .text, .into (no
# newline: the exact text); one line file:line:col: message a mistake.
awk -v out="$ROOT/list" -v list="$LIST" '
function fail(msg) { printf "%s:%d:1: %s\n", list, NR, msg > "/dev/stderr"; bad = 1 }
function close_block() {
    if (!open) return
    for (k = 1; k <= 4; k++)
        if (!(keys[k] in seen))
            { printf "%s:%d:1: the mutant that starts here has no %s\n", list, first, keys[k] > "/dev/stderr"; bad = 1 }
    if (("text" in seen) && ("into" in seen) && value["text"] == value["into"])
        { printf "%s:%d:1: its text and into are the same: no mutation\n", list, first > "/dev/stderr"; bad = 1 }
    n++
    for (k = 1; k <= 4; k++) { f = out "/" n "." keys[k]; printf "%s", value[keys[k]] > f; close(f) }
    open = 0; split("", seen); split("", value)
}
BEGIN { keys[1] = "name"; keys[2] = "file"; keys[3] = "text"; keys[4] = "into" }
/^#/ { next }
/^[ \t]*$/ { close_block(); next }
{
    if (!match($0, /^(name|file|text|into):/)) { fail("expected name:, file:, text: or into:"); next }
    key = substr($0, 1, RLENGTH - 1); rest = substr($0, RLENGTH + 1)
    if (rest != "" && substr(rest, 1, 1) != " ") { fail("a space after the colon"); next }
    rest = substr(rest, 2)
    if (!open) { open = 1; first = NR }
    if (key in seen) { fail("a second " key ": in one mutant"); next }
    if (key != "into" && rest == "") { fail(key ": is empty") ; next }
    if (key == "name") {
        if (rest !~ /^[a-z0-9_]+$/) { fail("a name is lower-case letters, digits and _"); next }
        if (rest in names) { fail("a second mutant named " rest); next }
        names[rest] = 1
    }
    seen[key] = 1; value[key] = rest
}
END { close_block(); if (bad) exit 2; print n > (out "/count") }
' "$LIST" || exit 2
count=$(cat "$ROOT/list/count")

field() { cat "$ROOT/list/$1.$2"; }

# How often the text of mutant $1 occurs in its file under $2 (a tree).
occurrences() {
    MUT_TEXT=$(field "$1" text) awk 'BEGIN { t = ENVIRON["MUT_TEXT"] }
        { line = $0; while ((i = index(line, t)) > 0) { n++; line = substr(line, i + length(t)) } }
        END { print n + 0 }' "$2/$(field "$1" file)"
}

# Plants mutant $1 in tree $2: its file rewritten with the text replaced.
plant() {
    f="$2/$(field "$1" file)"
    MUT_TEXT=$(field "$1" text) MUT_INTO=$(field "$1" into) awk '
        BEGIN { t = ENVIRON["MUT_TEXT"]; r = ENVIRON["MUT_INTO"] }
        { line = $0; done = ""
          while ((i = index(line, t)) > 0) { done = done substr(line, 1, i - 1) r; line = substr(line, i + length(t)) }
          print done line }' "$f" > "$f.mutant" && mv "$f.mutant" "$f"
}

# Which mutants run (MUTANTS=a,b), each found exactly once.
chosen=
problems=0
for i in $(seq 1 "$count"); do
    name=$(field "$i" name)
    if [ -n "$ONLY" ] && ! printf ',%s,' "$ONLY" | grep -q ",$name,"; then
        continue
    fi
    file=$(field "$i" file)
    if [ ! -f "$file" ]; then
        echo "$LIST: mutant $name: no file $file" >&2
        problems=1
        continue
    fi
    found=$(occurrences "$i" .)
    if [ "$found" != 1 ]; then
        echo "$LIST: mutant $name: its text is in $file $found times, not once: mend the text so that it plants the same bug" >&2
        echo "    text: $(field "$i" text)" >&2
        problems=1
    fi
    chosen="$chosen $i"
done
[ "$problems" = 0 ] || exit 2
if [ -n "$ONLY" ]; then
    for name in $(printf '%s' "$ONLY" | tr ',' ' '); do
        grep -qx "$name" "$ROOT"/list/*.name 2>/dev/null ||
            { echo "$LIST: no mutant named $name" >&2; exit 2; }
    done
fi
set -- $chosen
total=$#
[ "$total" -gt 0 ] || { echo "clothsim: no mutant to run" >&2; exit 2; }
[ "$JOBS" -ge 1 ] 2>/dev/null || JOBS=1
[ "$JOBS" -le "$total" ] || JOBS=$total

echo "clothsim: $total mutants of $LIST, $JOBS at a time, each against the suites $SUITES"
echo "clothsim: and clothsim check --run $LESSONS (copies of the tree in $ROOT)"

# ---------------------------------------------------------------- the copies
# The sources copied with their times, and the work tree's objects where it
# has them (make then builds only what is missing or older than its
# source): a whole build a copy took three minutes here beside other work.
# The test objects then name the work tree's clothsim and lessons
# (CLOTHSIM_BIN, CLOTHSIM_SRCDIR): the suites below call neither, and the
# lessons are checked with the copy's own clothsim.
pids=
trap 'kill $pids 2>/dev/null; rmdir build/mutants.lock 2>/dev/null; exit 130' INT TERM
for k in $(seq 1 "$JOBS"); do
    slot="$ROOT/slot$k"
    mkdir -p "$slot/build"
    tar -cf - --exclude=./build --exclude=./.git --exclude=./clothsim . | tar -xf - -C "$slot"
    for kept in build/config build/src build/tests build/libclothsim.a build/clothsim-tests; do
        if [ -e "$kept" ]; then cp -pR "$kept" "$slot/build/"; fi
    done
    (cd "$slot" && make -j1 AUTO_PACKAGES=no build/clothsim-tests clothsim >../slot$k-build.log 2>&1) &
    pids="$pids $!"
done
for pid in $pids; do
    if ! wait "$pid"; then
        echo "clothsim: the unmutated copy does not build:" >&2
        tail -20 "$ROOT"/slot*-build.log >&2
        exit 2
    fi
done
pids=

# The suites, then (if they pass) the lessons, in tree $1, into log $2;
# $3 extra Criterion options. Returns their status (124: timed out).
run_tests() {
    (cd "$1" && timeout "$TIMEOUT" build/clothsim-tests --filter "$SUITES" -j2 --short-filename $3) >"$2" 2>&1 ||
        return $?
    # shellcheck disable=SC2086
    (cd "$1" && timeout "$TIMEOUT" ./clothsim check --run $LESSONS) >>"$2" 2>&1
}

# What caught a mutant, from its log: the failed tests, or the lesson.
caught_by() {
    tests=$(sed -n 's/^\[FAIL\] \([^:]*::[^:]*\):.*/\1/p' "$1" | head -3 | tr '\n' ' ')
    if [ -n "$tests" ]; then
        printf '%s' "$tests"
    else
        grep -v ': ok (' "$1" | grep '\.lesson' | head -1 | cut -c1-100
    fi
}

now=$(date +%s)
if ! run_tests "$ROOT/slot1" "$ROOT/base.log" ""; then
    echo "clothsim: the unmutated copy fails these tests ($ROOT/base.log), so no kill would mean anything:" >&2
    caught_by "$ROOT/base.log" >&2
    echo >&2
    exit 2
fi
echo "clothsim: the unmutated tree passes them ($(($(date +%s) - now)) s); now the mutants"

# ---------------------------------------------------------------- the mutants
# Slot k takes the mutants k, k + JOBS, ... of the chosen ones.
worker() {
    k=$1
    slot="$ROOT/slot$k"
    shift
    n=0
    for i in "$@"; do
        n=$((n + 1))
        [ $(((n - 1) % JOBS + 1)) = "$k" ] || continue
        name=$(field "$i" name)
        file=$(field "$i" file)
        log="$ROOT/results/$name.log"
        began=$(date +%s)
        cp "$slot/$file" "$ROOT/slot$k.original"
        plant "$i" "$slot"
        if ! (cd "$slot" && make -j1 AUTO_PACKAGES=no build/clothsim-tests clothsim) >"$log" 2>&1; then
            verdict="BROKEN  $name: does not build ($log)"
        else
            run_tests "$slot" "$log" "$FAIL_FAST"
            status=$?
            seconds=$(($(date +%s) - began))
            if [ "$status" = 0 ]; then
                verdict="SURVIVED $name: the suites and the lessons pass with it (${seconds} s)"
            elif [ "$status" = 124 ]; then
                verdict="caught  $name: the tests ran past ${TIMEOUT} s (${seconds} s)"
            else
                verdict="caught  $name by $(caught_by "$log")(${seconds} s)"
            fi
        fi
        # back as it was, and newer than the mutant's objects
        cp "$ROOT/slot$k.original" "$slot/$file" && touch "$slot/$file"
        echo "$verdict" | tee "$ROOT/results/$name"
    done
}

for k in $(seq 1 "$JOBS"); do
    worker "$k" "$@" &
    pids="$pids $!"
done
wait
pids=

survived=0
broken=0
for i in "$@"; do
    name=$(field "$i" name)
    case "$(cat "$ROOT/results/$name" 2>/dev/null)" in
    SURVIVED*) survived=$((survived + 1)) ;;
    caught*) ;;
    *) broken=$((broken + 1)) ;;
    esac
done
elapsed=$(($(date +%s) - start))
if [ "$survived" -gt 0 ] || [ "$broken" -gt 0 ]; then
    echo "clothsim: $survived of $total mutants survived, $broken did not build or run (${elapsed} s): the suite misses them"
    exit 1
fi
echo "clothsim: all $total mutants caught (${elapsed} s)"
