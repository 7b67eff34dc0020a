#!/bin/sh
# tests/xterm/background.sh BINARY - the background clothsim finds in a real
# xterm on a virtual X server (Xvfb), with no COLORFGBG: only xterm's answer
# to the OSC 11 query can tell it. In xterm's own black on white, in
# `xterm -rv` (white on black) and on Solarized light (fdf6e3) the status
# line's title must be drawn in the colour of the right palette, read off a
# screenshot (ImageMagick's import): 8 colours (TERM=xterm) blue 0000ee on
# light and bold yellow ffff00 on dark; 256 (INNER_TERM=xterm-256color)
# 875f00 and ffd700. Every wait has a deadline; Xvfb and xterm are ended on
# every exit. `make test-xterm` runs it.
set -u
BIN=${1:-./clothsim}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
INNER_TERM=${INNER_TERM:-xterm}
case $INNER_TERM in
*256color) LIGHT=875F00 DARK=FFD700 ;;
*) LIGHT=0000EE DARK=FFFF00 ;;
esac
COLS=100 ROWS=30
. "$(dirname "$0")/common.sh"
if command -v magick >/dev/null 2>&1; then CONVERT=magick; else CONVERT=convert; fi
wait_until 50 xdotool getdisplaygeometry || fail "Xvfb on $DISPLAY takes no connection: $(cat "$dir/xvfb.log")"

cat >"$dir/run" <<SCRIPT
#!/bin/sh
unset COLORFGBG
TERM=$INNER_TERM; export TERM
"$BIN" 2>"$dir/err"
echo \$? >"$dir/exit"
SCRIPT
chmod +x "$dir/run"

sandbox_ready() {
    pid=$(pgrep -f "^$BIN" | head -n 1) && [ -n "$pid" ] &&
        tty=$(readlink "/proc/$pid/fd/0") && stty -F "$tty" -a | grep -q -- '-echo '
}

# one_case NAME EXPECTED XTERM-OPTIONS...
one_case() {
    name=$1 expected=$2; shift 2
    rm -f "$dir/exit"
    LANG=C.UTF-8 LC_ALL=C.UTF-8 xterm -geometry ${COLS}x${ROWS}+0+0 -fa 'DejaVu Sans Mono' -fs 10 -bw 0 \
        -xrm 'XTerm*internalBorder: 0' "$@" -title clothsim-bg -e "$dir/run" 2>"$dir/xterm.log" &
    xterm_pid=$!
    wait_until 100 xdotool search --name clothsim-bg || fail "$name: no xterm window on $DISPLAY: $(tail -n 1 "$dir/xterm.log"); Xvfb: $(kill -0 $xvfb_pid 2>&1 && echo alive) $(cat "$dir/xvfb.log")"
    window=$(xdotool search --name clothsim-bg | head -n 1)
    wait_until 150 sandbox_ready || fail "$name: clothsim did not take the terminal"
    sleep 1
    eval "$(xdotool getwindowgeometry --shell "$window")"
    cell_w=$((WIDTH / COLS)) cell_h=$((HEIGHT / ROWS))
    import -window "$window" "$dir/shot.png" || fail "$name: no screenshot"
    # the title, "jakobsen", in columns 1 to 8 of the top row
    colours=$($CONVERT "$dir/shot.png" -crop $((8 * cell_w))x${cell_h}+${cell_w}+0 +repage -unique-colors txt:- |
        grep -o '#[0-9A-F]\{6\}' | tr '\n' ' ')
    xdotool windowfocus --sync "$window" 2>/dev/null || xdotool windowfocus "$window"
    xdotool type --delay 50 'q'
    wait_until 100 test -s "$dir/exit" || fail "$name: q did not end clothsim"
    wait "$xterm_pid" 2>/dev/null
    xterm_pid=
    [ "$(cat "$dir/exit")" = 0 ] || fail "$name: exit status $(cat "$dir/exit"): $(cat "$dir/err")"
    case " $colours " in
    *" #$expected "*) echo "test-xterm: ok: $name, TERM=$INNER_TERM: the title in #$expected" ;;
    *) fail "$name, TERM=$INNER_TERM: the title is not #$expected (colours there: $colours)" ;;
    esac
}

one_case "black on white (xterm's default)" "$LIGHT"
one_case "white on black (xterm -rv)" "$DARK" -rv
one_case "Solarized light (fdf6e3)" "$LIGHT" -bg '#fdf6e3' -fg '#586e75'
