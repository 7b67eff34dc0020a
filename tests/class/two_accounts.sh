#!/usr/bin/env bash
# make test-class: a class under two real Unix accounts (issue 36). As root:
# two throwaway accounts (useradd, removed at the end), a class started by
# root (the teacher), 15 students under each account answering at once
# (tests/class/students.py under setpriv), and checks that every answer
# arrived under the account that sent it, that neither account may teach,
# claim a seat in another's name or see the others' answers, and that the
# histogram is right. Prints the answers lost and the time to the teacher.
set -euo pipefail
BIN=$(realpath "${1:-./clothsim}")
HERE=$(cd "$(dirname "$0")" && pwd)
LESSON=$(realpath "$HERE/../../lessons/01-meet-the-cloth.lesson")
[ "$(id -u)" = 0 ] || { echo "test-class: run as root (it makes two throwaway accounts)"; exit 1; }
A=clothsim-t1-$$; B=clothsim-t2-$$
CODE=two-$$
WORK=$(mktemp -d /tmp/clothsim-test-class2-XXXXXX)
cleanup() {
  [ -n "${SERVER:-}" ] && kill "$SERVER" 2>/dev/null && wait "$SERVER" 2>/dev/null
  userdel "$A" 2>/dev/null || true; userdel "$B" 2>/dev/null || true
  rm -rf "$WORK" "/tmp/clothsim-class-$CODE"
}
trap cleanup EXIT
trap "exit 1" INT TERM
useradd -M -r -s /usr/sbin/nologin "$A"
useradd -M -r -s /usr/sbin/nologin "$B"
chmod 755 "$WORK"
XDG_STATE_HOME=$WORK/state "$BIN" class start "$LESSON" --code "$CODE" --serve --seats >"$WORK/server.out" 2>&1 &
SERVER=$!
SOCK=/tmp/clothsim-class-$CODE/class-$CODE.sock
for _ in $(seq 100); do [ -S "$SOCK" ] && break; sleep 0.05; done
[ -S "$SOCK" ] || { echo "test-class: the server did not listen"; cat "$WORK/server.out"; exit 1; }
cp "$HERE/students.py" "$WORK/" && chmod 644 "$WORK/students.py"
/usr/bin/python3 "$WORK/students.py" teacher "$SOCK" "$CODE" "$(id -u "$A")" "$(id -u "$B")" &
TEACHER=$!
sleep 0.3
for U in "$A" "$B"; do
  setpriv --reuid="$U" --regid="$U" --clear-groups /usr/bin/python3 "$WORK/students.py" student "$SOCK" "$CODE" "$U" &
done
status=0
for job in $(jobs -p); do [ "$job" = "$SERVER" ] && continue; wait "$job" || status=1; done
kill -0 "$SERVER" || { echo "test-class: the server died"; status=1; }
[ $status = 0 ] && echo "test-class: passed" || echo "test-class: FAILED"
exit $status
