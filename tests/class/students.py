# The clients of tests/class/two_accounts.sh. "student SOCK CODE NAME": 15
# seats of this account answer question 1 at once, then try what they may
# not; "teacher SOCK CODE UID_A UID_B": waits for the 30 votes, checks each
# against the account that sent it, reveals, prints the figures.
import socket, sys, time

def connect(path):
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    return s.makefile("rwb", buffering=0), s

def lines_until(f, stop, limit=5.0):
    got = []
    end = time.time() + limit
    while time.time() < end:
        line = f.readline().decode().rstrip("\n")
        if not line:
            break
        got.append(line)
        if line.startswith(stop):
            break
    return got

role, path, code = sys.argv[1], sys.argv[2], sys.argv[3]
fail = lambda msg: (print("test-class:", msg), sys.exit(1))
if role == "student":
    seats = []
    for k in range(15):
        f, s = connect(path)
        f.write(b"HELLO %s student s%02d\n" % (code.encode(), k))
        lines_until(f, "READY")
        seats.append((f, s))
    for k, (f, s) in enumerate(seats):
        f.write(b"ANSWER 1 %d\n" % (k % 3 + 1))
    for f, s in seats:
        if lines_until(f, "OK")[-1:] != ["OK 1"]:
            fail("a student's answer had no OK")
    f, s = seats[0]
    heard = []
    for attempt in (b"REVEAL 1", b"END", b"HOLD 1"):
        f.write(attempt + b"\n")
        heard += lines_until(f, "ERR")
        if heard[-1:] != ["ERR only the teacher may do that"]:
            fail("a student could " + attempt.decode())
    f2, s2 = connect(path)
    f2.write(b"HELLO %s teacher\n" % code.encode())
    if not lines_until(f2, "ERR")[-1].startswith("ERR only the teacher"):
        fail("a student's account could teach")
    f3, s3 = connect(path)
    f3.write(b"HELLO %s student x/y\n" % code.encode())
    if not lines_until(f3, "ERR")[-1].startswith("ERR a seat"):
        fail("a seat could name another account")
    s.settimeout(5)  # the teacher reveals: the counts, never a vote
    rest = heard + ([] if any(l.startswith("REVEAL") for l in heard) else lines_until(f, "REVEAL"))
    rest = [l for l in rest if not l.startswith("ERR")]
    if any(l.startswith("VOTE") for l in rest) or "REVEAL 1 10 10 10" not in rest:
        fail("a student heard %r" % rest)
else:
    uid_a, uid_b = sys.argv[4], sys.argv[5]
    f, s = connect(path)
    s.settimeout(10)
    f.write(b"HELLO %s teacher\n" % code.encode())  # votes before it came are in its state
    votes, start, last = {}, None, None
    end = time.time() + 10
    while len(votes) < 30 and time.time() < end:
        try:
            line = f.readline().decode().rstrip("\n")
        except TimeoutError:
            fail("the teacher has %d votes of 30" % len(votes))
        if line.startswith("VOTE"):
            _, who, q, choice, right = line.split(" ")
            start = start or time.time()
            last = time.time()
            votes[who] = int(choice)
        elif not line:
            break
    uids = sorted({w.split("/")[0] for w in votes})
    if uids != sorted([uid_a, uid_b]):
        fail("votes came under %r, not the two accounts" % uids)
    for who, choice in votes.items():
        if choice != int(who.split("/s")[1]) % 3 + 1:
            fail("%s's vote is %d" % (who, choice))
    counts = [sum(1 for c in votes.values() if c == k) for k in (1, 2, 3)]
    if counts != [10, 10, 10]:
        fail("histogram %r" % counts)
    f.write(b"REVEAL 1\n")
    print("test-class: 30 students under 2 accounts: %d answers lost, histogram %r, the 30 votes reached the teacher within %.1f ms of the first"
          % (30 - len(votes), counts, (last - start) * 1e3))
