# tests/xterm/common.sh - what the xterm tests share, sourced by each: a
# scratch folder and a virtual X server of their own, both ended on every
# exit; fail and wait_until. Sets dir, DISPLAY, xvfb_pid; a script sets
# xterm_pid once it starts xterm, so that the exit ends it too.
dir=$(mktemp -d "${TMPDIR:-/tmp}/clothsim-xterm.XXXXXX") || exit 1
xvfb_pid= xterm_pid=
cleanup() {
    [ -n "$xterm_pid" ] && kill "$xterm_pid" 2>/dev/null
    [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
fail() { echo "test-xterm: FAIL: $*"; exit 1; }
# waits up to $1 tenths of a second for the command after it to succeed
wait_until() {
    n=$1; shift
    while ! "$@" >/dev/null 2>&1; do
        n=$((n - 1)); [ "$n" -gt 0 ] || return 1
        sleep 0.1
    done
}

# a display of its own: Xvfb picks a free number and writes it to fd 3;
# -noreset: without it the server resets when its last client leaves, and an
# xterm started next, in that moment, finds no display
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -noreset 3>"$dir/display" 2>"$dir/xvfb.log" &
xvfb_pid=$!
wait_until 100 test -s "$dir/display" || fail "Xvfb did not start: $(cat "$dir/xvfb.log")"
DISPLAY=:$(cat "$dir/display")
export DISPLAY
