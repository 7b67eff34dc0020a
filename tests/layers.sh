#!/bin/sh
# layers.sh - every quoted #include in src/ goes down the layers, never up
# or sideways (make check-layers; make test and make strict run it):
#   core    itself only (libc, libm): the physics, the plain code
#   fast    core: the fast path, which core calls through a table
#           (core/fast_table.h) and never includes
#   render  core
#   lesson  core, render
#   app     everything
# A file names a header of its own folder bare ("cloth.h"), another
# folder's as "core/cloth.h" (or <core/cloth.h>, which is checked too). Prints each include that breaks the rule as
# file:line: and exits 1.
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
[ -z "$broken" ] && exit 0
printf '%s\n' "$broken"
exit 1
