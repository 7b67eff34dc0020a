#!/bin/sh
# calls.sh BUILD - no loop of calls among the modules of src/*/ (make
# check-calls, after the objects are built; make test and make strict run
# it). layers.sh reads the #include lines, which miss a call to a function
# declared in a header its file does not own (lesson.h declaring what
# parser.c defines, as app's one tui_private.h once did for seven files);
# this reads the objects instead (nm): a module calls each module that
# defines a symbol it uses. Prints each loop's modules and exits 1.
#
# None is known: core's params and scene were one (params_validate called
# scene_collider_fits, scene.c reads params' names) until the check moved
# to scene.c as scene_validate. A loop passes only while every module in
# it is listed in known_loops.
build=${1:-build}
cd "$(dirname "$0")/.." || exit 2
known_loops=""
for o in "$build"/src/*/*.o; do
    [ -e "$o" ] || { echo "calls.sh: no objects in $build/src (build first)"; exit 2; }
    module=${o#"$build"/src/}
    nm "$o" | awk -v m="${module%.o}" 'NF == 3 && $2 ~ /^[TDBR]$/ { print "D", m, $3 } NF == 2 && $1 == "U" { print "U", m, $2 }'
done |
awk '$1 == "D" { def[$3] = $2; next } { use[NR] = $2 " " $3 } END {
        for (k in use) { split(use[k], f, " "); if ((f[2] in def) && def[f[2]] != f[1]) print f[1], def[f[2]] } }' |
sort -u > "$build/calls.edges"
loops=$(tsort "$build/calls.edges" 2>&1 >/dev/null | sed 's/^tsort: //' |
    awk -v known=" $(echo $known_loops) " '
        /input contains a loop/ { if (loop != "" && bad) print "loop:" loop; loop = ""; bad = 0; next }
        { loop = loop " " $0; if (index(known, " " $0 " ") == 0) bad = 1 }
        END { if (loop != "" && bad) print "loop:" loop }' | sort -u)
# And the terminal files call only those listed before them in
# src/app/tui_state.h's list (its " *   FILE.c" lines), as it says.
upward=$(sed -n 's/^ \*   \([a-z_]*\)\.c .*/app\/\1/p' src/app/tui_state.h |
    awk 'FNR == NR { rank[$1] = FNR; next } ($1 in rank) && ($2 in rank) && rank[$2] > rank[$1] {
        print $1 " calls " $2 ", listed after it in src/app/tui_state.h" }' - "$build/calls.edges")
[ -z "$loops" ] && [ -z "$upward" ] && exit 0
[ -n "$loops" ] && printf '%s\n' "$loops" | sed 's/$/: these modules call one another (nm of the objects)/'
[ -n "$upward" ] && printf '%s\n' "$upward"
exit 1
