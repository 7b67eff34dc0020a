#!/bin/sh
# layers.sh - every quoted #include in src/ goes down the layers, never up
# or sideways, in no loop, and lesson/ and app/ speak on stderr through one
# funnel (make check-layers; make test and make strict run it):
#   core    itself only (libc, libm): the physics, the plain code
#   fast    core: the fast path, which core calls through a table
#           (core/fast_table.h) and never includes
#   render  core
#   lesson  core, render
#   app     everything
# A file names a header of its own folder bare ("cloth.h"), another
# folder's as "core/cloth.h" (or <core/cloth.h>, which is checked too). Prints each include that breaks the rule as
# file:line: and exits 1.
#
# And no loops: a .c file and its .h (and its private X_internal.h) are one module (lesson/parser), a
# module depends on each module it includes, and no module may depend on
# itself through others (tsort finds the loops). A loop means neither file
# can be read, tested or moved without the other: move the function that
# closes it to where it belongs. None is known (the last ones, core's
# params/scene, render's canvas/raster and the fast path's relax_fast with
# relax_helix and relax_schedule, went when their shared names moved below
# them); a loop passes only while every module in it is listed here.
known_loops=""
cd "$(dirname "$0")/.." || exit 2
allowed() {
    case $1 in
    core) echo "" ;;
    fast) echo "core" ;;
    render) echo "core" ;;
    lesson) echo "core render" ;;
    app) echo "core fast render lesson app" ;;
    *) echo "?" ;;
    esac
}
broken=$(
for dir in src/*/; do
    layer=$(basename "$dir")
    ok=$(allowed "$layer")
    [ "$ok" = "?" ] && continue
    for file in "$dir"*.c "$dir"*.h; do
        [ -e "$file" ] || continue
        # quoted, or in angle brackets naming a folder of src/ (-Isrc)
        grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*("|<(core|fast|render|lesson|app)/)' "$file" |
        while IFS= read -r hit; do
            name=$(printf '%s\n' "$hit" | sed 's/^[^"<]*["<]\([^">]*\)[">].*/\1/')
            case $name in
            */*)
                case " $ok " in
                *" ${name%%/*} "*) ;;
                *) echo "$file:${hit%%:*}: $layer includes $name: $layer may include ${ok:-only its own folder}" ;;
                esac ;;
            *) [ -e "$dir$name" ] || echo "$file:${hit%%:*}: $name is not in $dir" ;;
            esac
        done
    done
done)

# "module module-it-includes", one line per quoted include between two modules
edges=$(
for file in src/*/*.c src/*/*.h; do
    [ -e "$file" ] || continue
    dir=${file%/*}
    module=${dir#src/}/$(basename "${file%.*}")
    module=${module%_internal} # a module's private header (solver_internal.h) is the module's
    grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*("|<(core|fast|render|lesson|app)/)' "$file" |
    sed 's/^[^"<]*["<]\([^">]*\)[">].*/\1/' |
    while IFS= read -r name; do
        case $name in
        */*) to=${name%.*} ;;
        *) [ -e "$dir/$name" ] || continue; to=${dir#src/}/${name%.*} ;;
        esac
        to=${to%_internal}
        [ "$to" = "$module" ] || echo "$module $to"
    done
done)
# tsort names the modules of each loop it meets, one per line after
# "input contains a loop"; a loop is reported unless all of it is known
loops=$(printf '%s\n' "$edges" | tsort 2>&1 >/dev/null | sed 's/^tsort: //' |
    awk -v known=" $(echo $known_loops) " '
        /input contains a loop/ { if (loop != "" && bad) print "loop:" loop; loop = ""; bad = 0; next }
        { loop = loop " " $0; if (index(known, " " $0 " ") == 0) bad = 1 }
        END { if (loop != "" && bad) print "loop:" loop }' | sort -u)
if [ -n "$loops" ]; then
    broken=$(printf '%s\n%s' "$broken" "$(printf '%s\n' "$loops" |
        sed 's/$/: these modules include one another (a .c and its .h are one module)/')")
fi
# One funnel: in lesson/ and app/ only cli.c writes to stderr (cli_error,
# cli_say), so every line there is "clothsim: ..." or file:line:col, with
# its control characters escaped. A usage text after an error is not a
# message.
funnel=$(grep -nE '(fprintf|fputs|fputc|putc|vfprintf|fwrite)[[:space:]]*\([^;]*stderr' src/lesson/*.c src/app/*.c |
    grep -v '^src/app/cli\.c:' | grep -v '_usage' |
    sed 's/^\([^:]*:[0-9]*\):.*/\1: writes to stderr itself: say it through cli_error (cli.h)/')
[ -n "$funnel" ] && broken=$(printf '%s\n%s' "$broken" "$funnel")
[ -z "$broken" ] && exit 0
printf '%s\n' "$broken" | sed '/^$/d'
exit 1
