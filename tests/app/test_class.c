/* test_class.c - a class session's server (issue 36) as its clients meet
 * it: sixty students answering at once, the teacher's histogram, answers
 * no one else sees before the reveal, hostile clients (garbage, a 1 MB
 * line, half a message, one that never reads), a killed student who joins
 * again, a killed server started again on its database. The students here
 * are one account's seats (class start --seats); make test-class runs
 * clients under two real accounts (tests/class/two_accounts.sh). */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../support.h"
#include "../tmux_session.h"
#include "app/class_conn.h"

#define LESSON CLOTHSIM_SRCDIR "/lessons/01-meet-the-cloth.lesson"
#define STUDENTS 60 /* the largest class the issue names; a third at each choice */
#define THIRD (STUDENTS / 3)

typedef struct Class {
    char dir[64], socket_path[128], db[128];
    pid_t server;
} Class;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static void sleep_ms(long ms)
{
    nanosleep(&(struct timespec){.tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000L}, NULL);
}

/* Starts (resume: starts again) the server of class "t" in a folder of its
 * own, and waits until it listens. */
static void class_start(Class *c, bool resume)
{
    if (!resume) {
        snprintf(c->dir, sizeof c->dir, "/tmp/clothsim-test-class-XXXXXX");
        cr_assert(mkdtemp(c->dir));
        snprintf(c->socket_path, sizeof c->socket_path, "%s/class-t.sock", c->dir);
        snprintf(c->db, sizeof c->db, "%s/t.db", c->dir);
    }
    c->server = fork();
    cr_assert(c->server >= 0);
    if (c->server == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM); /* a failed test leaves no server behind */
        int null_fd = open("/dev/null", O_RDWR);
        dup2(null_fd, 0);
        dup2(null_fd, 1);
        if (resume)
            execl(CLOTHSIM_BIN, CLOTHSIM_BIN, "class", "resume", c->db, "--dir", c->dir, "--serve", "--seats",
                  (char *)NULL);
        else
            execl(CLOTHSIM_BIN, CLOTHSIM_BIN, "class", "start", LESSON, "--dir", c->dir, "--code", "t", "--db", c->db,
                  "--serve", "--seats", (char *)NULL);
        _exit(127);
    }
    for (int tries = 0; tries < 500; tries++) {
        ClassConn probe;
        char err[256];
        if (class_conn_open(&probe, c->socket_path, err, sizeof err)) {
            class_conn_close(&probe);
            return;
        }
        sleep_ms(10);
    }
    cr_assert_fail("the server did not listen at %s in 5 s", c->socket_path);
}

static bool server_alive(Class *c)
{
    return waitpid(c->server, NULL, WNOHANG) == 0;
}

static void class_stop(Class *c)
{
    kill(c->server, SIGTERM);
    waitpid(c->server, NULL, 0);
    char command[200];
    snprintf(command, sizeof command, "rm -rf %s", c->dir);
    cr_assert(system(command) == 0);
}

static void open_as(Class *c, ClassConn *conn, const char *hello)
{
    char err[256], line[CLASS_LINE_MAX];
    cr_assert(class_conn_open(conn, c->socket_path, err, sizeof err), "%s", err);
    cr_assert(class_conn_send(conn, "%s", hello));
    do
        cr_assert(class_conn_wait_line(conn, line, sizeof line, 5000), "no READY after %s", hello);
    while (strcmp(line, "READY") != 0);
}

/* Lines that arrive within ms, appended to text (a line a row). */
static int gather(ClassConn *conn, char *text, size_t size, int ms)
{
    char line[CLASS_LINE_MAX];
    int count = 0;
    size_t used = strlen(text);
    while (class_conn_wait_line(conn, line, sizeof line, ms)) {
        used += (size_t)snprintf(text + used, used < size ? size - used : 0, "%s\n", line);
        count++;
    }
    return count;
}

static bool ping(Class *c)
{
    ClassConn conn;
    char err[256], line[CLASS_LINE_MAX];
    if (!class_conn_open(&conn, c->socket_path, err, sizeof err))
        return false;
    bool ok = class_conn_send(&conn, "PING") && class_conn_wait_line(&conn, line, sizeof line, 3000) &&
              strcmp(line, "PONG") == 0;
    class_conn_close(&conn);
    return ok;
}

Test(class, sixty_students_answer_at_once_and_every_answer_reaches_the_teacher, .timeout = 30)
{
    Class c;
    class_start(&c, false);
    ClassConn teacher, students[STUDENTS];
    open_as(&c, &teacher, "HELLO t teacher");
    for (int k = 0; k < STUDENTS; k++) {
        char hello[64];
        snprintf(hello, sizeof hello, "HELLO t student s%02d", k);
        open_as(&c, &students[k], hello);
    }
    /* the teacher hears each join */
    char line[CLASS_LINE_MAX];
    int joins = 0;
    while (joins < STUDENTS && class_conn_wait_line(&teacher, line, sizeof line, 3000))
        joins += strncmp(line, "JOIN ", 5) == 0;
    cr_assert_eq(joins, STUDENTS);

    /* question 1 (three choices, the first right): student k says k % 3 + 1,
     * all at once; then each tries again with another choice, which the
     * class does not count (first tries) */
    double sent_at[STUDENTS];
    for (int k = 0; k < STUDENTS; k++) {
        sent_at[k] = now_s();
        cr_assert(class_conn_send(&students[k], "ANSWER 1 %d", k % 3 + 1));
    }
    int votes = 0, histogram[3] = {0}, right = 0;
    double worst = 0, total = 0;
    while (votes < STUDENTS && class_conn_wait_line(&teacher, line, sizeof line, 5000)) {
        int seat, question, choice;
        char mark;
        if (sscanf(line, "VOTE %*d/s%d %d %d %c", &seat, &question, &choice, &mark) != 4)
            continue;
        cr_assert(seat >= 0 && seat < STUDENTS && question == 1 && choice >= 1 && choice <= 3, "%s", line);
        cr_assert_eq(choice, seat % 3 + 1, "the first try counts: %s", line);
        cr_assert_eq(mark, choice == 1 ? '1' : '0', "%s", line);
        double latency = now_s() - sent_at[seat];
        worst = latency > worst ? latency : worst;
        total += latency;
        histogram[choice - 1]++;
        right += mark == '1';
        votes++;
    }
    cr_assert_eq(votes, STUDENTS, "answers lost: %d", STUDENTS - votes);
    for (int k = 0; k < STUDENTS; k++)
        cr_assert(class_conn_send(&students[k], "ANSWER 1 %d", (k + 1) % 3 + 1));
    char later[4096] = "";
    gather(&teacher, later, sizeof later, 200);
    cr_assert_null(strstr(later, "VOTE"), "a second try counted: %s", later);
    cr_assert(histogram[0] == THIRD && histogram[1] == THIRD && histogram[2] == THIRD);
    cr_assert_eq(right, THIRD);
    fprintf(stderr,
            "class: %d students answered at once: %d answers lost; answer to the teacher's connection "
            "%.2f ms on average, %.2f ms at most\n",
            STUDENTS, STUDENTS - votes, total / votes * 1e3, worst * 1e3);

    /* every student heard OK for both tries, and nothing of the others' */
    for (int k = 0; k < STUDENTS; k++) {
        char text[4096] = "";
        gather(&students[k], text, sizeof text, k == 0 ? 200 : 20);
        cr_assert(strstr(text, "OK 1\nOK 1\n"), "student %d heard: %s", k, text);
        cr_assert_null(strstr(text, "VOTE"), "student %d heard a vote: %s", k, text);
        cr_assert_null(strstr(text, "REVEAL"), "student %d heard the counts before the reveal: %s", k, text);
    }
    /* a student may not reveal, nor answer in another's name */
    cr_assert(class_conn_send(&students[0], "REVEAL 1"));
    cr_assert(class_conn_wait_line(&students[0], line, sizeof line, 2000));
    cr_assert_str_eq(line, "ERR only the teacher may do that");
    cr_assert(class_conn_send(&students[0], "ANSWER 2 1 0/s05"));
    cr_assert(class_conn_wait_line(&students[0], line, sizeof line, 2000));
    cr_assert(strncmp(line, "ERR", 3) == 0, "%s", line);

    /* the teacher reveals: everyone gets the histogram */
    cr_assert(class_conn_send(&teacher, "REVEAL 1"));
    for (int k = 0; k < STUDENTS; k++) {
        cr_assert(class_conn_wait_line(&students[k], line, sizeof line, 3000));
        char reveal[64];
        snprintf(reveal, sizeof reveal, "REVEAL 1 %d %d %d", THIRD, THIRD, THIRD);
        cr_assert_str_eq(line, reveal);
    }
    for (int k = 0; k < STUDENTS; k++)
        class_conn_close(&students[k]);
    class_conn_close(&teacher);
    cr_assert(server_alive(&c));

    /* the report: a row per student, each first try; the CSV a line an answer */
    static char report[1 << 16], report_err[4096];
    const char *table[] = {CLOTHSIM_BIN, "class", "report", c.db, NULL};
    cr_assert_eq(support_exec(table, report, sizeof report, report_err, sizeof report_err), 0, "%s", report_err);
    char tally[64];
    snprintf(tally, sizeof tally, "right/answered       %d/%d", THIRD, STUDENTS);
    cr_assert(strstr(report, "/s07") && strstr(report, tally), "%s", report);
    char *at = strstr(report, "/s04 "); /* seat 4 said 2, wrong; no other question */
    cr_assert(at);
    while (at > report && at[-1] != '\n')
        at--;
    cr_assert(strncmp(at + 20, " 2-    .     .", 14) == 0, "%s", report);
    const char *csv[] = {CLOTHSIM_BIN, "class", "report", c.db, "--csv", NULL};
    cr_assert_eq(support_exec(csv, report, sizeof report, report_err, sizeof report_err), 0, "%s", report_err);
    int lines = 0;
    for (const char *p = report; (p = strchr(p, '\n')); p++)
        lines++;
    cr_assert_eq(lines, STUDENTS + 1, "%s", report);
    cr_assert(strncmp(report, "student,question,page,choice,right\n", 35) == 0, "%s", report);
    cr_assert(strstr(report, "/s05,1,2,3,0\n"), "%s", report);

    /* the handout with the class's answers: question 1's three bars, alike */
    char lesson[256];
    snprintf(lesson, sizeof lesson, "%s/one.lesson", c.dir);
    FILE *f = fopen(lesson, "w");
    cr_assert(f);
    fputs("title One question\nsummary A question\nduration 1 min\npage One\nquestion Which?\nchoice A\nchoice "
          "B\nfeedback No.\nchoice C\n"
          "feedback No.\nanswer 1\n",
          f);
    fclose(f);
    const char *handout[] = {CLOTHSIM_BIN, "handout", lesson, "--class", c.db, "-o", "-", NULL};
    cr_assert_eq(support_exec(handout, report, sizeof report, report_err, sizeof report_err), 0, "%s", report_err);
    char bars[256] = "";
    for (int k = 0; k < 20; k++)
        strcat(bars, "&#9608;");
    char expected[512];
    snprintf(
        expected, sizeof expected,
        "(%d first tries):</b><br>\n1 <span class=\"bar\">%s</span> %d<br>\n2 <span class=\"bar\">%s</span> %d<br>\n3 "
        "<span class=\"bar\">%s</span> %d<br>",
        STUDENTS, bars, THIRD, bars, THIRD, bars, THIRD);
    cr_assert(strstr(report, expected), "%s", report);
    class_stop(&c);
}

Test(class, hostile_clients_neither_stop_the_server_nor_lose_an_answer, .timeout = 30)
{
    Class c;
    class_start(&c, false);
    ClassConn student;
    open_as(&c, &student, "HELLO t student honest");
    char line[CLASS_LINE_MAX];
    cr_assert(class_conn_send(&student, "ANSWER 1 1"));
    cr_assert(class_conn_wait_line(&student, line, sizeof line, 3000));
    cr_assert_str_eq(line, "OK 1");

    /* garbage: NULs, control characters, bytes over 127, words it does not know */
    ClassConn bad;
    char err[256];
    cr_assert(class_conn_open(&bad, c.socket_path, err, sizeof err));
    static const char garbage[] = "\0\1\2\377\376HELLO\n\n  \nHELLO t\tstudent\nANSWER -1 99999999999\nDROP TABLE\n";
    cr_assert(send(bad.fd, garbage, sizeof garbage - 1, MSG_NOSIGNAL) > 0);
    class_conn_close(&bad);
    cr_assert(ping(&c));

    /* a 1 MB line, then a good message: one ERR, then the message is served */
    cr_assert(class_conn_open(&bad, c.socket_path, err, sizeof err));
    fcntl(bad.fd, F_SETFL, fcntl(bad.fd, F_GETFL) & ~O_NONBLOCK);
    static char huge[1 << 20];
    memset(huge, 'x', sizeof huge);
    for (size_t sent = 0; sent < sizeof huge;) {
        ssize_t w = send(bad.fd, huge + sent, sizeof huge - sent, MSG_NOSIGNAL);
        cr_assert(w > 0);
        sent += (size_t)w;
    }
    fcntl(bad.fd, F_SETFL, fcntl(bad.fd, F_GETFL) | O_NONBLOCK);
    cr_assert(class_conn_send(&bad, "\nPING"));
    char text[4096] = "";
    gather(&bad, text, sizeof text, 500);
    cr_assert_str_eq(text, "ERR line too long (at most 512 bytes)\nPONG\n");
    class_conn_close(&bad);

    /* half a message, then gone */
    cr_assert(class_conn_open(&bad, c.socket_path, err, sizeof err));
    cr_assert(send(bad.fd, "HELLO t student half\nANSWER 2", 29, MSG_NOSIGNAL) == 29);
    class_conn_close(&bad);

    /* one that asks and never reads: let go when its answers pile up past
     * the cap, while the others are served */
    ClassConn sloth;
    cr_assert(class_conn_open(&sloth, c.socket_path, err, sizeof err));
    int rcvbuf = 4096;
    setsockopt(sloth.fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    char pings[5 * 500];
    for (int k = 0; k < 500; k++)
        memcpy(pings + 5 * k, "PING\n", 5);
    bool gone = false;
    for (int round = 0; round < 2000 && !gone; round++) {
        ssize_t w = send(sloth.fd, pings, sizeof pings, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0 && errno != EAGAIN)
            gone = true;
        if (w < 0 && errno == EAGAIN) {
            struct pollfd p = {.fd = sloth.fd, .events = POLLOUT};
            if (poll(&p, 1, 1000) <= 0 || (p.revents & (POLLHUP | POLLERR)))
                gone = p.revents & (POLLHUP | POLLERR);
        }
    }
    cr_assert(gone, "the server kept a client that read nothing");
    class_conn_close(&sloth);

    /* the honest student is still served and nothing was lost */
    cr_assert(class_conn_send(&student, "ANSWER 2 2"));
    cr_assert(class_conn_wait_line(&student, line, sizeof line, 3000));
    cr_assert_str_eq(line, "OK 2");
    cr_assert(server_alive(&c));
    ClassConn teacher;
    char votes[4096] = "";
    cr_assert(class_conn_open(&teacher, c.socket_path, err, sizeof err));
    cr_assert(class_conn_send(&teacher, "HELLO t teacher"));
    gather(&teacher, votes, sizeof votes, 300);
    cr_assert(strstr(votes, "/honest 1 1 1\n") && strstr(votes, "/honest 2 2 "), "%s", votes);
    cr_assert_null(strstr(votes, "/half 2"), "half a message was taken: %s", votes);
    class_conn_close(&teacher);
    class_conn_close(&student);
    class_stop(&c);
}

Test(class, a_killed_student_and_a_killed_server_continue_where_they_were, .timeout = 30)
{
    Class c;
    class_start(&c, false);
    ClassConn teacher;
    open_as(&c, &teacher, "HELLO t teacher");
    /* a student's process: joins, reaches page 3, answers question 2, and
     * is killed */
    pid_t student = fork();
    cr_assert(student >= 0);
    if (student == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        alarm(20);
        ClassConn conn;
        char err[256], line[CLASS_LINE_MAX];
        if (!class_conn_open(&conn, c.socket_path, err, sizeof err))
            _exit(1);
        class_conn_send(&conn, "HELLO t student ana");
        class_conn_send(&conn, "PAGE 3");
        class_conn_send(&conn, "ANSWER 2 1");
        while (class_conn_wait_line(&conn, line, sizeof line, 5000) && strcmp(line, "OK 2") != 0)
            ;
        pause();
        _exit(0);
    }
    char line[CLASS_LINE_MAX];
    while (class_conn_wait_line(&teacher, line, sizeof line, 5000) && strncmp(line, "VOTE", 4) != 0)
        ;
    cr_assert(strstr(line, "/ana 2 1"), "%s", line);
    kill(student, SIGKILL);
    waitpid(student, NULL, 0);
    while (class_conn_wait_line(&teacher, line, sizeof line, 3000) && strncmp(line, "LEAVE", 5) != 0)
        ;
    cr_assert(strstr(line, "LEAVE") && strstr(line, "/ana"), "%s", line);
    cr_assert(class_conn_send(&teacher, "GOTO 2"));
    cr_assert(class_conn_send(&teacher, "HOLD 2"));
    class_conn_close(&teacher);
    sleep_ms(100);

    /* she joins again: her page and her answer are there */
    ClassConn again;
    char err[256], text[4096] = "";
    cr_assert(class_conn_open(&again, c.socket_path, err, sizeof err));
    cr_assert(class_conn_send(&again, "HELLO t student ana"));
    gather(&again, text, sizeof text, 300);
    cr_assert(strstr(text, "/ana 3\n") && strstr(text, "ANSWERED 2 1\n"), "%s", text);
    class_conn_close(&again);

    /* the server is killed outright, and started again on its database */
    kill(c.server, SIGKILL);
    waitpid(c.server, NULL, 0);
    class_start(&c, true);
    cr_assert(class_conn_open(&again, c.socket_path, err, sizeof err));
    cr_assert(class_conn_send(&again, "HELLO t student ana"));
    text[0] = '\0';
    gather(&again, text, sizeof text, 300);
    cr_assert(strstr(text, "/ana 3\n") && strstr(text, "ANSWERED 2 1\n") && strstr(text, "CLASSPAGE 2\n") &&
                  strstr(text, "HOLD 2\n"),
              "%s", text);
    class_conn_close(&again);
    class_stop(&c);
}

Test(class, the_database_and_the_socket_have_the_modes_they_should, .timeout = 15)
{
    Class c;
    class_start(&c, false);
    struct stat st;
    cr_assert(stat(c.db, &st) == 0);
    cr_assert_eq(st.st_mode & 0777, 0600);
    cr_assert(stat(c.socket_path, &st) == 0);
    cr_assert_eq(st.st_mode & 0777, 0666);
    class_stop(&c);
}

/* ---------------------------------------------------------------- the screens, in tmux */

static void start_pane(Class *c, const char *command, int width, int height)
{
    if (system("tmux -V >/dev/null 2>&1") != 0)
        cr_skip_test("tmux is not installed");
    snprintf(server, sizeof server, "clothsim-class-%d", (int)getpid());
    snprintf(exit_path, sizeof exit_path, "/tmp/clothsim-class-%d.exit", (int)getpid());
    snprintf(stty_path, sizeof stty_path, "/tmp/clothsim-class-%d.stty", (int)getpid());
    unlink(exit_path);
    unlink(stty_path);
    int status = tmux_new_session("-d -s t -x %d -y %d \"sh -c 'cd %s && %s %s --dir %s; e=\\$?; stty -a > %s; "
                                  "echo EXIT=\\$e > %s; sleep 60'\"",
                                  width, height, c->dir, CLOTHSIM_BIN, command, c->dir, stty_path, exit_path);
    cr_assert_eq(status, 0, "tmux could not start a session");
}

/* The line a client hears next that starts with prefix (others skipped). */
static bool hear(ClassConn *conn, const char *prefix, char *line, size_t size)
{
    while (class_conn_wait_line(conn, line, size, 5000))
        if (strncmp(line, prefix, strlen(prefix)) == 0)
            return true;
    return false;
}

Test(class, a_students_screen_sends_the_first_try_and_waits_for_the_reveal, .timeout = 40, .fini = stop)
{
    Class c;
    class_start(&c, false);
    ClassConn teacher;
    open_as(&c, &teacher, "HELLO t teacher");
    cr_assert(class_conn_send(&teacher, "HOLD 1"));
    start_pane(&c, "class join t", 80, 24);
    cr_assert(wait_for("held on question 1"), "%s", screen);
    /* the teacher hears the page the student starts on, before any page is turned */
    char line[CLASS_LINE_MAX];
    cr_assert(hear(&teacher, "PAGE", line, sizeof line));
    cr_assert(strlen(line) > 2 && strcmp(line + strlen(line) - 2, " 1") == 0, "%s", line);
    /* page 1 (a run), then page 2's question; Enter on a question would skip it */
    tmux("send-keys -t t Enter");
    cr_assert(wait_for("next page"), "%s", screen);
    tmux("send-keys -t t Enter");
    cr_assert(wait_for("Which family"), "%s", screen);
    double pressed = now();
    tmux("send-keys -t t 1");
    cr_assert(hear(&teacher, "VOTE", line, sizeof line));
    double latency = now() - pressed;
    char expected[64];
    snprintf(expected, sizeof expected, "VOTE %u 1 1 1", (unsigned)getuid());
    cr_assert_str_eq(line, expected);
    fprintf(stderr, "class: a student's key 1 to the teacher's connection in %.1f ms (tmux included)\n", latency * 1e3);
    /* held: Enter says why and stays */
    tmux("send-keys -t t Enter");
    cr_assert(wait_for("holds the class here"), "%s", screen);
    cr_assert(class_conn_send(&teacher, "REVEAL 1"));
    cr_assert(wait_for("question 1:  1: 1  2: 0  3: 0"), "%s", screen);
    cr_assert(wait_screen("held on question", true), "%s", screen);
    tmux("send-keys -t t q");
    cr_assert_eq(exit_status(), 0);
    stop();
    class_conn_close(&teacher);
    class_stop(&c);
}

Test(class, the_teachers_screen_shows_the_answers_and_holds_reveals_and_moves_the_class, .timeout = 40, .fini = stop)
{
    Class c;
    class_start(&c, false);
    ClassConn student;
    open_as(&c, &student, "HELLO t student ana");
    cr_assert(class_conn_send(&student, "PAGE 2"));
    cr_assert(class_conn_send(&student, "ANSWER 1 2"));
    start_pane(&c, "class teach t", 80, 24);
    cr_assert(wait_for("1 of 1 answered"), "%s", screen);
    cr_assert(strstr(screen, "hidden from the students") && strstr(screen, "/ana"), "%s", screen);
    /* a second student's answer, from the socket to the teacher's screen */
    ClassConn second;
    open_as(&c, &second, "HELLO t student bo");
    double sent = now();
    cr_assert(class_conn_send(&second, "ANSWER 1 2"));
    cr_assert(wait_for("2 of 2 answered"), "%s", screen);
    fprintf(stderr, "class: an answer to the teacher's screen (tmux's pane) in %.0f ms\n", (now() - sent) * 1e3);
    class_conn_close(&second);
    char line[CLASS_LINE_MAX];
    tmux("send-keys -t t h");
    cr_assert(hear(&student, "HOLD", line, sizeof line));
    cr_assert_str_eq(line, "HOLD 1");
    cr_assert(wait_for("HELD"), "%s", screen);
    tmux("send-keys -t t r");
    cr_assert(hear(&student, "REVEAL", line, sizeof line));
    cr_assert_str_eq(line, "REVEAL 1 0 2 0");
    cr_assert(wait_for("revealed to the class"), "%s", screen);
    tmux("send-keys -t t Right");
    cr_assert(hear(&student, "GOTO", line, sizeof line));
    cr_assert_str_eq(line, "GOTO 2");
    tmux("send-keys -t t q");
    cr_assert_eq(exit_status(), 0);
    stop();
    class_conn_close(&student);
    class_stop(&c);
}

/* ---------------------------------------------------------------- mistakes */

static char out[8192], err[8192];

/* Issue 36 item 6: the teacher's lesson on the projector, followed by
 * watchers who can change nothing. The presenter here is a connection that
 * speaks for class present (whose frames tmux shows in the test below). */
Test(class, a_watcher_gets_the_teachers_frames_and_nothing_it_sends_changes_the_class, .timeout = 20)
{
    Class c;
    class_start(&c, false);
    ClassConn presenter, watcher, teacher, student;
    open_as(&c, &teacher, "HELLO t teacher");
    open_as(&c, &student, "HELLO t student s1");
    open_as(&c, &presenter, "HELLO t presenter");
    char why[256], line[CLASS_LINE_MAX], text[8192] = "";
    cr_assert(class_conn_open(&watcher, c.socket_path, why, sizeof why), "%s", why);
    cr_assert(class_conn_send(&watcher, "HELLO t watcher"));
    cr_assert(class_conn_wait_line(&watcher, line, sizeof line, 3000));
    cr_assert_str_eq(line, "READY");
    /* a frame, "Сторінка 1" in the lesson's colours: the watcher gets it whole */
    char coded[200];
    class_text_encode("Сторінка 1", strlen("Сторінка 1"), coded, sizeof coded);
    cr_assert(class_conn_send(&presenter, "FRAME 80 24"));
    cr_assert(class_conn_send(&presenter, "ROW 0 1 220 255 1 %s", coded));
    cr_assert(class_conn_send(&presenter, "SHOW"));
    gather(&watcher, text, sizeof text, 500);
    char drained[1024] = "";
    gather(&teacher, drained, sizeof drained, 50); /* the student's JOIN */
    char expected[400];
    snprintf(expected, sizeof expected, "FRAME 80 24\nROW 0 1 220 255 1 %s\nSHOW\n", coded);
    cr_assert_str_eq(text, expected);
    char *row = strstr(text, "ROW 0 1 220 255 1 ") + 18;
    *strchr(row, '\n') = '\0';
    cr_assert(class_text_decode(row));
    cr_assert_str_eq(row, "Сторінка 1");
    /* garbage, a student's answer, the teacher's commands and a frame of its
     * own from the watcher: no reply, and the class hears none of it */
    int fd = watcher.fd;
    const char garbage[] = "\x01\xff\xfe garbage\n\n  \nANSWER 1 1\nPAGE 3\nGOTO 2\nHOLD 1\nREVEAL 1\n"
                           "FRAME 80 24\nROW 0 0 1 1 0 owned\nSHOW\nHELLO t teacher\nHELLO t student\nEND\n";
    cr_assert(write(fd, garbage, sizeof garbage - 1) == (ssize_t)(sizeof garbage - 1));
    static char big[70000];
    memset(big, 'A', sizeof big - 1);
    big[sizeof big - 1] = '\n';
    cr_assert(write(fd, big, sizeof big) == (ssize_t)sizeof big);
    text[0] = '\0';
    cr_assert_eq(gather(&watcher, text, sizeof text, 400), 0, "the watcher was answered: %s", text);
    text[0] = '\0';
    cr_assert_eq(gather(&teacher, text, sizeof text, 200), 0, "the teacher heard: %s", text);
    text[0] = '\0';
    cr_assert_eq(gather(&student, text, sizeof text, 50), 0, "the student heard: %s", text);
    cr_assert(server_alive(&c));
    /* the class is as it was: no answer kept, page and hold unmoved, and a
     * new watcher still gets the presenter's frame */
    ClassConn again;
    cr_assert(class_conn_open(&again, c.socket_path, why, sizeof why));
    cr_assert(class_conn_send(&again, "HELLO t teacher"));
    text[0] = '\0';
    gather(&again, text, sizeof text, 300);
    cr_assert(strstr(text, "CLASSPAGE 0\nHOLD 0\nREADY") && !strstr(text, "VOTE") && !strstr(text, "REVEAL"), "%s",
              text);
    ClassConn second;
    cr_assert(class_conn_open(&second, c.socket_path, why, sizeof why));
    cr_assert(class_conn_send(&second, "HELLO t watcher"));
    text[0] = '\0';
    gather(&second, text, sizeof text, 300);
    snprintf(expected, sizeof expected, "READY\nFRAME 80 24\nROW 0 1 220 255 1 %s\nSHOW\n", coded);
    cr_assert_str_eq(text, expected);
    /* the student cannot present either */
    cr_assert(class_conn_send(&student, "FRAME 80 24"));
    cr_assert(class_conn_wait_line(&student, line, sizeof line, 2000));
    cr_assert(strncmp(line, "ERR ", 4) == 0, "%s", line);
    class_conn_close(&second);
    class_conn_close(&again);
    class_conn_close(&watcher);
    class_conn_close(&presenter);
    class_conn_close(&student);
    class_conn_close(&teacher);
    class_stop(&c);
}

/* class watch as a student sees it: the frame clipped to a terminal smaller
 * than the teacher's, its colours, the next frame in its place; keys other
 * than q do nothing; q gives the terminal back as it was. */
Test(class, the_watchers_screen_shows_the_frame_and_q_restores_the_terminal, .timeout = 30, .fini = stop)
{
    Class c;
    class_start(&c, false);
    ClassConn presenter;
    open_as(&c, &presenter, "HELLO t presenter");
    start_pane(&c, "class watch t", 60, 12);
    cr_assert(wait_for("waiting for the teacher's screen"), "%s", screen);
    char coded[200];
    class_text_encode("Сторінка 1 з 6", strlen("Сторінка 1 з 6"), coded, sizeof coded);
    cr_assert(class_conn_send(&presenter, "FRAME 110 34"));
    cr_assert(class_conn_send(&presenter, "ROW 0 1 1 255 1 %s", coded));
    cr_assert(class_conn_send(&presenter, "ROW 5 50 255 255 0 right-edge-of-the-teacher"));
    cr_assert(class_conn_send(&presenter, "ROW 33 0 255 255 0 below-the-watcher"));
    cr_assert(class_conn_send(&presenter, "SHOW"));
    cr_assert(wait_for("Сторінка 1 з 6"), "%s", screen);
    cr_assert(strstr(screen, "right-edge") && !strstr(screen, "of-the") && !strstr(screen, "below-the"),
              "not clipped to 60x12:\n%s", screen);
    cr_assert(capture_colours() && strstr(screen, "\033[1m\033[31m"), "no bold red:\n%s", screen);
    cr_assert(class_conn_send(&presenter, "FRAME 80 24"));
    cr_assert(class_conn_send(&presenter, "ROW 2 0 255 255 0 page%%202"));
    cr_assert(class_conn_send(&presenter, "SHOW"));
    cr_assert(wait_for("page 2"), "%s", screen);
    cr_assert(!strstr(screen, "Сторінка"), "the old frame stayed:\n%s", screen);
    tmux("send-keys -t t x Enter 1 E Right");
    pause_ms(200);
    cr_assert(capture() && strstr(screen, "page 2"), "a key changed the watcher's screen:\n%s", screen);
    tmux("send-keys -t t q");
    cr_assert_eq(exit_status(), 0);
    cr_assert_str_eq(pane_terminal_state(), "0 1 0 0 0 0,11");
    FILE *modes = fopen(stty_path, "r");
    cr_assert(modes, "no stty output");
    char text[4096];
    size_t n = fread(text, 1, sizeof text - 1, modes);
    text[n] = '\0';
    fclose(modes);
    cr_assert(strstr(text, " icanon") && !strstr(text, "-icanon") && !strstr(text, "-echo "), "%s", text);
    stop();
    class_conn_close(&presenter);
    class_stop(&c);
}

/* class present as the teacher runs it: the lesson's screen reaches a
 * watcher as drawn (the title at its place, in its colours), at most 10
 * frames a second while the run plays, and none while it stands still. */
Test(class, the_presenters_screen_reaches_a_watcher_at_most_ten_frames_a_second, .timeout = 30, .fini = stop)
{
    Class c;
    class_start(&c, false);
    ClassConn watcher;
    open_as(&c, &watcher, "HELLO t watcher");
    start_pane(&c, "class present t", 80, 24);
    cr_assert(wait_for("Meet the cloth"), "%s", screen);
    static char text[1 << 20];
    text[0] = '\0';
    gather(&watcher, text, sizeof text, 500);
    cr_assert(strstr(text, "FRAME 80 24\nROW 0 1 220 255 1 Meet%20the%20cloth\n") && strstr(text, "\nSHOW\n"), "%.600s",
              text);
    tmux("send-keys -t t Enter"); /* lesson 1's run: 3 s */
    text[0] = '\0';
    double start = now();
    char line[CLASS_LINE_MAX];
    int frames = 0;
    while (now() - start < 2.0)
        if (class_conn_wait_line(&watcher, line, sizeof line, 100))
            frames += strcmp(line, "SHOW") == 0;
    cr_assert(frames >= 5 && frames <= 21, "%d frames in 2 s of the run", frames);
    fprintf(stderr, "class: %d frames in 2 s of a run reached the watcher\n", frames);
    /* the run is over when the screen says so (slower than the clock under
     * the sanitizers on a busy machine), then its last frames drained */
    cr_assert(wait_for("t 3.00 s"), "%s", screen);
    pause_ms(1500); /* what the page shows after its run */
    while (class_conn_wait_line(&watcher, line, sizeof line, 300))
        ;
    text[0] = '\0';
    cr_assert_eq(gather(&watcher, text, sizeof text, 1000), 0, "frames of a still screen: %.300s", text);
    tmux("send-keys -t t q");
    cr_assert_eq(exit_status(), 0);
    stop();
    class_conn_close(&watcher);
    class_stop(&c);
}

Test(class, a_persons_mistakes_get_one_line_and_status_2, .timeout = 20)
{
    char dir[] = "/tmp/clothsim-test-class-XXXXXX", lesson[128];
    cr_assert(mkdtemp(dir));
    snprintf(lesson, sizeof lesson, "%s/bad.lesson", dir);
    FILE *f = fopen(lesson, "w");
    cr_assert(f);
    fputs("title A lesson\npage One\nquestion Which?\nchoice A\nanswer 7\n", f);
    fclose(f);
    const char *start[] = {CLOTHSIM_BIN, "class", "start", lesson, "--dir", dir, "--serve", NULL};
    cr_assert_eq(support_exec(start, out, sizeof out, err, sizeof err), 2);
    char expected[400];
    snprintf(expected, sizeof expected, "%s:5:", lesson);
    cr_assert(strncmp(err, expected, strlen(expected)) == 0 && strchr(err, '\n') == err + strlen(err) - 1, "%s", err);
    const char *code[] = {CLOTHSIM_BIN, "class", "join", "Not/A_Code", NULL};
    cr_assert_eq(support_exec(code, out, sizeof out, err, sizeof err), 2);
    cr_assert_str_eq(err, "clothsim: 'Not/A_Code' is not a class's code (1 to 16 of a-z, 0-9, -)\n");
    const char *unknown[] = {CLOTHSIM_BIN, "class", "stop", NULL};
    cr_assert_eq(support_exec(unknown, out, sizeof out, err, sizeof err), 2);
    cr_assert_str_eq(
        err, "clothsim: class: unknown command 'stop' (start, resume, join, teach, present, watch or report)\n");
    const char *option[] = {CLOTHSIM_BIN, "class", "start", lesson, "--colour", NULL};
    cr_assert_eq(support_exec(option, out, sizeof out, err, sizeof err), 2);
    cr_assert_str_eq(err, "clothsim: class start: unknown option '--colour' (clothsim class --help lists them)\n");
    /* no class there: the environment, status 1, the terminal untouched */
    const char *nobody[] = {CLOTHSIM_BIN, "class", "join", "nobody", "--dir", dir, NULL};
    cr_assert_eq(support_exec(nobody, out, sizeof out, err, sizeof err), 1);
    cr_assert(strstr(err, "no class is running there") && strchr(err, '\n') == err + strlen(err) - 1, "%s", err);
    /* a start that fails (a file in the socket's way) leaves no class behind */
    char in_the_way[160], db[160];
    snprintf(in_the_way, sizeof in_the_way, "%s/class-x.sock", dir);
    snprintf(db, sizeof db, "%s/x.db", dir);
    fclose(fopen(in_the_way, "w"));
    const char *blocked[] = {CLOTHSIM_BIN, "class", "start",   CLOTHSIM_SRCDIR "/lessons/01-meet-the-cloth.lesson",
                             "--dir",      dir,     "--code",  "x",
                             "--db",       db,      "--serve", NULL};
    cr_assert_eq(support_exec(blocked, out, sizeof out, err, sizeof err), 1);
    snprintf(expected, sizeof expected, "clothsim: %s: in the way of the class's socket\n", in_the_way);
    cr_assert_str_eq(err, expected);
    cr_assert(access(db, F_OK) != 0, "the failed start left %s", db);
    char command[200];
    snprintf(command, sizeof command, "rm -rf %s", dir);
    cr_assert(system(command) == 0);
}
