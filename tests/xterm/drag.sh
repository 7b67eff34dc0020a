#!/bin/sh
# tests/xterm/drag.sh BINARY - clothsim in a real terminal emulator, xterm
# (EMULATOR=urxvt: rxvt-unicode), on a virtual X server (Xvfb); keys and a
# mouse drag sent with xdotool as a hand would (press, motion, release). The
# drag must move a held particle: --stats says how many times the mouse took,
# moved and let go of one. Every wait has a deadline; Xvfb and xterm are ended
# on every exit. `make test-xterm` runs it.
set -u
BIN=${1:-./clothsim}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
COLS=100 ROWS=30
. "$(dirname "$0")/common.sh"

# clothsim in xterm; its stats and exit status land in files
# INNER_TERM=tmux-256color: a type whose terminfo makes ncurses read X10
# mouse reports, in a terminal that an earlier program left sending SGR ones
# (1006), which would arrive as keys unless clothsim switches them off
cat >"$dir/run" <<SCRIPT
#!/bin/sh
if [ -n "${INNER_TERM:-}" ]; then printf '\033[?1006h'; TERM=${INNER_TERM:-}; export TERM; fi
"$BIN" --stats 2>"$dir/stats"
echo \$? >"$dir/exit"
SCRIPT
chmod +x "$dir/run"
case ${EMULATOR:-xterm} in
urxvt) set -- urxvt -geometry ${COLS}x${ROWS}+0+0 -fn 'xft:DejaVu Sans Mono:pixelsize=14' -b 0 -bl ;;
*) set -- xterm -geometry ${COLS}x${ROWS}+0+0 -fa 'DejaVu Sans Mono' -fs 10 -bw 0 -xrm 'XTerm*internalBorder: 0' ;;
esac
LANG=C.UTF-8 LC_ALL=C.UTF-8 "$@" -title clothsim-test -e "$dir/run" 2>"$dir/xterm.log" &
xterm_pid=$!
wait_until 100 xdotool search --name clothsim-test || fail "no xterm window: $(cat "$dir/xterm.log")"
window=$(xdotool search --name clothsim-test | head -n 1)
# the sandbox has taken the terminal once its terminal's echo is off (the
# mouse is switched on right after)
sandbox_ready() {
    pid=$(pgrep -f "^$BIN" | head -n 1) && [ -n "$pid" ] &&
        tty=$(readlink "/proc/$pid/fd/0") && stty -F "$tty" -a | grep -q -- '-echo '
}
wait_until 150 sandbox_ready || fail "clothsim did not take the terminal"
sleep 0.5

# the size of a cell, from the window's size
eval "$(xdotool getwindowgeometry --shell "$window")"
cell_w=$((WIDTH / COLS)) cell_h=$((HEIGHT / ROWS))
at() { echo $(( $1 * cell_w + cell_w / 2 )) $(( $2 * cell_h + cell_h / 2 )); }

xdotool windowfocus --sync "$window" 2>/dev/null || xdotool windowfocus "$window"
xdotool type --delay 50 ' '   # pause: the cloth stays where the drag finds it
sleep 0.3
# a left drag from the curtain's middle (column 40, row 17) up and right
xdotool mousemove --window "$window" $(at 40 17)
sleep 0.2
xdotool mousedown 1
sleep 0.2
for step in 1 2 3 4 5 6 7 8; do
    xdotool mousemove --window "$window" $(at $((40 + 2 * step)) $((17 - step)))
    sleep 0.08
done
xdotool mouseup 1
sleep 0.3
xdotool type --delay 50 'q'
wait_until 100 test -s "$dir/exit" || fail "q did not end clothsim"
status=$(cat "$dir/exit")
[ "$status" = 0 ] || fail "exit status $status: $(cat "$dir/stats")"
stats=$(grep 'the mouse took' "$dir/stats") || fail "no mouse line in --stats: $(cat "$dir/stats")"
set -- $(echo "$stats" | sed 's/[^0-9]/ /g')
grabs=$1 drags=$2 throws=$3
[ "$grabs" -ge 1 ] || fail "the press took no particle ($stats)"
[ "$drags" -ge 4 ] || fail "the motion of the held button did not move the particle ($stats)"
[ "$throws" -ge 1 ] || fail "the release did not let go ($stats)"
echo "test-xterm: ok${INNER_TERM:+ (TERM=$INNER_TERM)}: $stats"
