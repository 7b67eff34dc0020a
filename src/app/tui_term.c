/* tui_term.c - the terminal session: modes, signals, a counting output
 * stream, the asciicast recording, and restoring the terminal on every exit.
 *
 * Counting the bytes sent to the terminal. ncurses 6 keeps its own output
 * buffer and empties it with write(2) on fileno() of the stream newterm was
 * given, so a stdio-level stream such as fopencookie's (whose fileno is -1)
 * receives nothing. The stream we hand it is therefore the write end of a
 * pipe; a small forwarder thread reads the other end, counts the bytes, copies
 * them to the terminal and, with --record, into the asciicast file.
 *
 * Because ncurses's output is not the terminal, ncurses cannot set the
 * terminal's modes or read its size: this file does both itself (termios on
 * standard input, TIOCGWINSZ + resizeterm). That is also what makes the
 * restore safe in a signal handler: a crash handler writes a fixed string
 * with write(2) and calls tcsetattr, both async-signal-safe.
 *
 * Signals: every one whose default ends the process (SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE ...) sets a flag the frame loop
 * reads, so the normal path restores the terminal and tui_main returns 128 +
 * the signal. SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT and SIGSYS restore at
 * once and re-raise. SIGWINCH sets a flag. SIGTSTP (^Z) sets a flag too:
 * tui_term_wait gives the terminal back, waits for the forwarder to have sent
 * every byte, stops, and on SIGCONT takes the terminal again and repaints.
 *
 * A measuring session (clothsim bench) is the same ncurses set-up on a
 * pseudo-terminal this file opens itself, of a fixed size, or on a pipe where
 * there is none; a drain thread reads the other side, counts the bytes and
 * drops them. The process's terminal is never touched, so there is nothing
 * to restore: the signals keep their default effect (handlers of our own
 * only keep ncurses from installing its own).
 */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 600 /* posix_openpt, grantpt, unlockpt, ptsname */
#endif
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <term.h>
#include <time.h>
#include <unistd.h>

#include "colours.h"
#include "tui_term.h"
#include "i18n.h"

/* ---------------------------------------------------------------- signals */

static volatile sig_atomic_t quit_signal;
static volatile sig_atomic_t window_changed;
static volatile sig_atomic_t suspend_asked;

/* What the crash handler needs, fixed before any handler can run (and
 * rebuilt, with the signals blocked, when the window's size changes). */
static struct termios saved_modes;
static int restore_fd = -1;
static char restore_sequence[512];
static size_t restore_length;
static volatile sig_atomic_t session_active;

/* Every signal whose default is to end the process: each sets the flag the
 * frame loop reads, so the terminal is restored on the way out. SIGPIPE too:
 * ignored, a `kill -PIPE` left the sandbox running. The first three are the
 * ones a measuring session leaves to their default; it leaves the rest as
 * they are. */
static const int quit_signals[] = {SIGINT,  SIGTERM, SIGHUP,    SIGQUIT, SIGUSR1, SIGUSR2,
                                   SIGALRM, SIGPIPE, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ};
#define MEASURING_QUIT_SIGNALS 3
static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS};
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static struct sigaction saved_quit[COUNT(quit_signals)], saved_crash[COUNT(crash_signals)], saved_winch, saved_tstp;
static bool handlers_installed;

/* The forwarder thread (kept here so the header need not include pthread.h). */
static pthread_t forwarder_thread;

static void on_quit(int sig)
{
    quit_signal = sig;
}

static void on_winch(int sig)
{
    (void)sig;
    window_changed = 1;
}

/* ^Z or a `kill -TSTP`: the frame loop gives the terminal back and stops
 * (tui_term_wait), since a stopped process could not flush the restore
 * through the forwarder thread from here. */
static void on_suspend(int sig)
{
    (void)sig;
    suspend_asked = 1;
}

/* Async-signal-safe: write(2) and tcsetattr only. */
static void restore_now(void)
{
    if (!session_active)
        return;
    session_active = 0;
    size_t done = 0;
    while (done < restore_length) {
        ssize_t n = write(restore_fd, restore_sequence + done, restore_length - done);
        if (n <= 0 && errno != EINTR)
            break;
        if (n > 0)
            done += (size_t)n;
    }
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_modes);
}

static void on_crash(int sig)
{
    int saved_errno = errno;
    restore_now();
    errno = saved_errno;
    /* SA_RESETHAND put the default action back: raised again, it ends the
     * process as the crash would have (with a core if enabled). */
    raise(sig);
}

/* A measuring session: the default action, put back by SA_RESETHAND, taken
 * once the handler returns (the signal is blocked while it runs). */
static void on_measuring_signal(int sig)
{
    raise(sig);
}

static void on_measuring_winch(int sig)
{
    (void)sig; /* the real terminal's size is not the measured one's */
}

static void install_measuring_handlers(void)
{
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_handler = on_measuring_signal;
    action.sa_flags = SA_RESETHAND;
    for (int k = 0; k < COUNT(quit_signals); k++)
        sigaction(quit_signals[k], k < MEASURING_QUIT_SIGNALS ? &action : NULL, &saved_quit[k]);
    sigaction(SIGTSTP, &action, &saved_tstp);
    action.sa_handler = on_measuring_winch;
    action.sa_flags = 0;
    sigaction(SIGWINCH, &action, &saved_winch);
    for (int k = 0; k < COUNT(crash_signals); k++)
        sigaction(crash_signals[k], NULL, &saved_crash[k]); /* unchanged; restored as they are */
    handlers_installed = true;
}

static void install_suspend_handler(void)
{
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_handler = on_suspend;
    sigaction(SIGTSTP, &action, NULL);
}

static void install_handlers(void)
{
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);

    action.sa_handler = on_quit; /* no SA_RESTART: poll() returns at once */
    for (int k = 0; k < COUNT(quit_signals); k++)
        sigaction(quit_signals[k], &action, &saved_quit[k]);
    action.sa_handler = on_winch;
    sigaction(SIGWINCH, &action, &saved_winch);
    action.sa_handler = on_suspend;
    sigaction(SIGTSTP, &action, &saved_tstp);

    action.sa_handler = on_crash;
    action.sa_flags = SA_RESETHAND;
    for (int k = 0; k < COUNT(crash_signals); k++)
        sigaction(crash_signals[k], &action, &saved_crash[k]);
    handlers_installed = true;
}

static void restore_handlers(void)
{
    if (!handlers_installed)
        return;
    handlers_installed = false;
    for (int k = 0; k < COUNT(quit_signals); k++)
        sigaction(quit_signals[k], &saved_quit[k], NULL);
    for (int k = 0; k < COUNT(crash_signals); k++)
        sigaction(crash_signals[k], &saved_crash[k], NULL);
    sigaction(SIGWINCH, &saved_winch, NULL);
    sigaction(SIGTSTP, &saved_tstp, NULL);
}

int tui_term_quit_signal(void)
{
    return quit_signal;
}

double tui_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---------------------------------------------------------------- recording */

/* One asciicast v2 event line: [time, "o", "json-escaped text"]. Called by the
 * forwarder thread with each chunk; a UTF-8 sequence cut by the chunk's end is
 * kept for the next chunk, since JSON strings must be whole characters. */
static unsigned char record_pending[4];
static size_t record_pending_length;

static size_t utf8_length(unsigned char lead)
{
    return lead < 0x80 ? 1 : (lead & 0xE0) == 0xC0 ? 2 : (lead & 0xF0) == 0xE0 ? 3 : (lead & 0xF8) == 0xF0 ? 4 : 0;
}

static void record_output(TuiTerm *term, const char *data, size_t length)
{
    FILE *f = term->record;
    unsigned char joined[4 + 16384];
    size_t total = 0;
    memcpy(joined, record_pending, record_pending_length);
    total = record_pending_length;
    record_pending_length = 0;
    size_t take = length < sizeof joined - total ? length : sizeof joined - total;
    memcpy(joined + total, data, take);
    total += take;

    flockfile(f);
    fprintf(f, "[%.6f, \"o\", \"", tui_now() - term->record_start);
    size_t i = 0;
    while (i < total) {
        unsigned char c = joined[i];
        size_t n = utf8_length(c);
        if (n > 1) {
            if (i + n > total) { /* cut by the chunk's end: finish it next time */
                record_pending_length = total - i;
                memcpy(record_pending, joined + i, record_pending_length);
                break;
            }
            bool valid = true;
            for (size_t k = 1; k < n; k++)
                valid = valid && (joined[i + k] & 0xC0) == 0x80;
            if (valid) {
                fwrite(joined + i, 1, n, f);
                i += n;
                continue;
            }
        }
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c >= 0x7F)
            fprintf(f, "\\u%04x", c); /* a stray byte is shown as its Latin-1 character */
        else
            putc(c, f);
        i++;
    }
    fputs("\"]\n", f);
    output_check(term->recording); /* in this thread, while errno is the write's */
    funlockfile(f);
    if (take < length)
        record_output(term, data + take, length - take);
}

void tui_term_mark(TuiTerm *term, const char *label)
{
    if (!term->record)
        return;
    flockfile(term->record);
    fprintf(term->record, "[%.6f, \"m\", \"", tui_now() - term->record_start);
    for (const unsigned char *p = (const unsigned char *)label; *p; p++)
        if (*p == '"' || *p == '\\')
            fprintf(term->record, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7F)
            putc(' ', term->record);
        else
            putc(*p, term->record); /* UTF-8 passes whole */
    fputs("\"]\n", term->record);
    output_check(term->recording);
    funlockfile(term->record);
}

static void record_resize(TuiTerm *term)
{
    if (!term->record)
        return;
    flockfile(term->record);
    fprintf(term->record, "[%.6f, \"r\", \"%dx%d\"]\n", tui_now() - term->record_start, term->cols, term->rows);
    output_check(term->recording);
    funlockfile(term->record);
}

/* The header; write errors are seen where the recording is closed
 * (output_close, after the session). */
static void record_open(TuiTerm *term, Output *record)
{
    term->record = record->f;
    term->recording = record;
    const char *term_name = getenv("TERM");
    fprintf(term->record, "{\"version\": 2, \"width\": %d, \"height\": %d, \"timestamp\": %lld, ", term->cols,
            term->rows, (long long)time(NULL));
    fputs("\"title\": \"clothsim\", \"env\": {\"TERM\": \"", term->record);
    for (const char *p = term_name ? term_name : ""; *p; p++)
        if (*p != '"' && *p != '\\' && (unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7F)
            putc(*p, term->record);
    fputs("\"}}\n", term->record);
    term->record_start = tui_now();
}

/* ---------------------------------------------------------------- the forwarder */

static bool write_all(int fd, const char *data, size_t length)
{
    while (length > 0) {
        ssize_t n = write(fd, data, length);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false; /* the terminal is gone: drop the bytes, keep the pipe drained */
        data += n;
        length -= (size_t)n;
    }
    return true;
}

/* The forwarder reads ncurses's pipe (non-blocking, after poll) and a
 * control pipe: a byte there asks it to forward everything in the pipe now
 * and say so (tui_term_flush), so that what was written before is on the
 * terminal before the process stops (^Z). */
static int forward_control[2] = {-1, -1};
static pthread_mutex_t forward_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t forward_flushed = PTHREAD_COND_INITIALIZER;
static unsigned long flushes_asked, flushes_done; /* flushes_done under forward_lock */
static bool forward_dropping; /* under forward_lock: what ncurses writes is dropped (leave_first_state) */

/* Forwards what is in the pipe; false at its end (ncurses's stream closed). */
static bool forward_waiting(TuiTerm *term)
{
    static char buffer[16384];
    pthread_mutex_lock(&forward_lock);
    bool dropping = forward_dropping;
    pthread_mutex_unlock(&forward_lock);
    for (;;) {
        ssize_t n = read(term->pipe_fd[0], buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return true;
        if (n <= 0)
            return false;
        if (dropping)
            continue;
        term->bytes += (unsigned long long)n;
        write_all(term->tty_fd, buffer, (size_t)n);
        if (term->record)
            record_output(term, buffer, (size_t)n);
    }
}

static void *forward(void *arg)
{
    TuiTerm *term = arg;
    for (;;) {
        struct pollfd fds[2] = {{.fd = term->pipe_fd[0], .events = POLLIN},
                                {.fd = forward_control[0], .events = POLLIN}};
        int n = poll(fds, 2, -1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            break;
        if (fds[0].revents && !forward_waiting(term))
            break;
        if (fds[1].revents & POLLIN) {
            char asked[64];
            ssize_t got = read(forward_control[0], asked, sizeof asked);
            bool open = forward_waiting(term); /* all that was written before the asking */
            pthread_mutex_lock(&forward_lock);
            if (got > 0)
                flushes_done += (unsigned long)got;
            pthread_cond_broadcast(&forward_flushed);
            pthread_mutex_unlock(&forward_lock);
            if (!open)
                break;
        }
    }
    pthread_mutex_lock(&forward_lock);
    flushes_done = ~0UL; /* nothing left to wait for */
    pthread_cond_broadcast(&forward_flushed);
    pthread_mutex_unlock(&forward_lock);
    return NULL;
}

/* Waits (up to 2 s) until the forwarder has sent every byte written into
 * ncurses's stream so far. */
static void flush_forwarder(TuiTerm *term)
{
    if (!term->forwarding || forward_control[1] < 0)
        return;
    unsigned long target = ++flushes_asked;
    if (!write_all(forward_control[1], "f", 1))
        return;
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 2;
    pthread_mutex_lock(&forward_lock);
    int waited = 0;
    while (flushes_done < target && waited == 0)
        waited = pthread_cond_timedwait(&forward_flushed, &forward_lock, &deadline);
    pthread_mutex_unlock(&forward_lock);
}

/* ncurses 6 empties its output buffer at every cursor move it makes until
 * the program has once left and come back (endwin, then doupdate; its
 * _nc_mvcur flushes while the screen is in its first state). A frame then
 * went out in some 25 writes, each one a wake-up of the forwarder and a
 * write to the terminal (over SSH, a packet each). Leaving once at the start
 * makes ncurses write each frame in one piece. The bytes of ncurses's start
 * and of the leaving are dropped (a forwarder started with forward_dropping
 * set drops them; a measuring session does not count them): the first
 * doupdate, coming back, sends the start again (the other screen, the scroll
 * region, the cursor's shape) and clears the screen, as a first frame does. */
static void leave_first_state(TuiTerm *term)
{
    endwin();
    if (term->forwarding) {
        flush_forwarder(term);
        pthread_mutex_lock(&forward_lock);
        forward_dropping = false;
        pthread_mutex_unlock(&forward_lock);
    }
}

/* ---------------------------------------------------------------- the drain */

/* A measuring session's drain thread reads what ncurses wrote, counts it and
 * drops it. tui_term_sync writes a mark after ncurses's bytes and waits for
 * the thread to see it: then every byte before it has been counted. The mark
 * starts with a byte ncurses never writes (0xFF: not in UTF-8, and ASCII
 * output shows '?' for it) that occurs in the mark only once, so a plain
 * match across reads finds it; its bytes are not counted. */
static const char sync_mark[] = "\377clothsim sync mark";
#define SYNC_MARK_LENGTH (sizeof sync_mark - 1)

static pthread_t drain_thread;
static pthread_mutex_t drain_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t drain_moved = PTHREAD_COND_INITIALIZER;
static unsigned long marks_sent, marks_seen; /* marks_seen, drain_stop, drain_ended: under drain_lock */
static bool drain_stop, drain_ended;

static void *drain(void *arg)
{
    TuiTerm *term = arg;
    int fd = term->master_fd >= 0 ? term->master_fd : term->pipe_fd[0];
    static char buffer[16384];
    size_t matched = 0;
    for (;;) {
        struct pollfd ready = {.fd = fd, .events = POLLIN};
        int n_ready = poll(&ready, 1, 50);
        if (n_ready < 0 && errno == EINTR)
            continue;
        if (n_ready < 0)
            break;
        if (n_ready == 0) {
            pthread_mutex_lock(&drain_lock);
            bool stop = drain_stop;
            pthread_mutex_unlock(&drain_lock);
            if (stop)
                break;
            continue;
        }
        ssize_t n = read(fd, buffer, sizeof buffer);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0)
            break; /* the pipe's end, or EIO: no side of the pseudo-terminal is open */
        unsigned long marks = 0;
        for (ssize_t i = 0; i < n; i++) {
            if (buffer[i] == sync_mark[matched]) {
                if (++matched == SYNC_MARK_LENGTH) {
                    marks++;
                    matched = 0;
                }
            } else {
                matched = buffer[i] == sync_mark[0] ? 1 : 0;
            }
        }
        pthread_mutex_lock(&drain_lock);
        term->bytes += (unsigned long long)n - marks * SYNC_MARK_LENGTH;
        marks_seen += marks;
        if (marks)
            pthread_cond_broadcast(&drain_moved);
        pthread_mutex_unlock(&drain_lock);
    }
    pthread_mutex_lock(&drain_lock);
    drain_ended = true;
    pthread_cond_broadcast(&drain_moved);
    pthread_mutex_unlock(&drain_lock);
    return NULL;
}

bool tui_term_sync(TuiTerm *term, double seconds, unsigned long long *bytes)
{
    if (!term->measuring || !term->draining || !term->curses_out)
        return false;
    unsigned long target = ++marks_sent;
    if (!write_all(fileno(term->curses_out), sync_mark, SYNC_MARK_LENGTH))
        return false;
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    time_t whole = (time_t)seconds;
    deadline.tv_sec += whole;
    deadline.tv_nsec += (long)((seconds - (double)whole) * 1e9);
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&drain_lock);
    int waited = 0;
    while (marks_seen < target && !drain_ended && waited == 0)
        waited = pthread_cond_timedwait(&drain_moved, &drain_lock, &deadline);
    bool ok = marks_seen >= target;
    *bytes = term->bytes;
    pthread_mutex_unlock(&drain_lock);
    return ok;
}

/* leave_first_state for a measuring session, whose frames then go out as the
 * sandbox's do; the bytes until then are not counted. */
static void leave_first_state_measured(TuiTerm *term)
{
    endwin();
    unsigned long long ignored;
    if (tui_term_sync(term, 2.0, &ignored)) {
        pthread_mutex_lock(&drain_lock);
        term->bytes = 0;
        pthread_mutex_unlock(&drain_lock);
    }
}

/* Sequences ncurses does not send itself (the mouse's 1002: motion while a
 * button is held; the scroll region back to the whole window). They go into
 * ncurses's own stream, after what it has buffered (doupdate empties its
 * buffer): putp would write them to standard output, which stdio holds until
 * the process ends, and a 1002 that reached the terminal before ncurses's own
 * 1000 would be switched back to presses and releases by it. */
static void send_after_curses(TuiTerm *term, const char *sequence)
{
    doupdate();
    write_all(fileno(term->curses_out), sequence, strlen(sequence));
}

/* Whether ncurses reads mouse reports in the SGR encoding (1006): it does
 * when terminfo's XM, the string that switches the mouse on, asks for 1006;
 * otherwise it reads the X10 encoding (xterm's old one). */
static bool mouse_reads_sgr(void)
{
    const char *xm = tigetstr("XM");
    if (xm && xm != (char *)-1) {
        const char *code = strstr(xm, "[?");
        for (code = code ? code + 2 : NULL; code && *code >= '0' && *code <= '9';) {
            size_t digits = strspn(code, "0123456789");
            if (digits == 4 && strncmp(code, "1006", 4) == 0)
                return true;
            code += digits;
            if (*code != ';')
                break;
            code += strspn(code, ";");
        }
        return false;
    }
    return tigetnum("XM") == 1006;
}

static void close_on_exec(int fd)
{
    if (fd >= 0)
        fcntl(fd, F_SETFD, FD_CLOEXEC);
}

/* A terminfo string as the terminal should get it: without its padding,
 * $<5> or $<50*> (the delay an old terminal needed, which tputs turns into
 * waiting and which we never need: written as it is, a vt100 shows it as
 * text). At most size - 1 bytes into out; returns out ("" for none). */
static const char *without_padding(const char *value, char *out, size_t size)
{
    size_t used = 0;
    for (const char *c = value; c && c != (const char *)-1 && *c && used + 1 < size; c++) {
        if (c[0] == '$' && c[1] == '<') {
            const char *end = strchr(c, '>');
            if (end && strspn(c + 2, "0123456789.*/") == (size_t)(end - c - 2)) {
                c = end;
                continue;
            }
        }
        out[used++] = *c;
    }
    out[used] = '\0';
    return out;
}

/* ---------------------------------------------------------------- the session */

static void append_capability(const char *name)
{
    char bare[256];
    const char *value = without_padding(tigetstr(name), bare, sizeof bare);
    size_t length = strlen(value);
    if (restore_length + length < sizeof restore_sequence) {
        memcpy(restore_sequence + restore_length, value, length);
        restore_length += length;
    }
}

static void append_text(const char *text)
{
    size_t length = strlen(text);
    if (restore_length + length < sizeof restore_sequence) {
        memcpy(restore_sequence + restore_length, text, length);
        restore_length += length;
    }
}

/* ncurses keeps the eighth bit of input only in meta mode, which it turns on
 * by itself only where it could read the terminal's modes (CS8, no ISTRIP)
 * from its output: here a pipe, so every byte of a UTF-8 key would lose its
 * top bit (ф, d1 84, would arrive as Q and ^D). meta() also sends terminfo's
 * smm, which on xterm changes what Alt sends until the terminal is reset:
 * hidden for the call, as ncurses itself would not send it. */
static void eight_bit_input(void)
{
    char *saved = meta_on;
    meta_on = NULL;
    meta(stdscr, TRUE);
    meta_on = saved;
}

/* The crash handler's restore: mouse reporting off, attributes, cursor,
 * keypad, the scroll region back to the whole window (ncurses set it for the
 * size terminfo gave before it knew the real one, and does not reset it),
 * then the normal screen. Built with the signals blocked, as a handler may
 * read it. */
static void build_restore_sequence(const TuiTerm *term)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    restore_length = 0;
    append_text("\033[?1002l\033[?1000l\033[?1006l"); /* mouse reporting off */
    append_capability("sgr0");
    append_capability("cnorm");
    append_capability("rmkx");
    const char *csr = tigetstr("csr");
    char bare[256];
    if (csr && csr != (char *)-1)
        append_text(without_padding(tiparm(csr, 0, term->rows - 1), bare, sizeof bare));
    append_capability("rmcup");
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* The scroll region to the whole window, through ncurses's stream. */
static void reset_scroll_region(TuiTerm *term)
{
    const char *csr = tigetstr("csr");
    char bare[256];
    if (csr && csr != (char *)-1)
        send_after_curses(term, without_padding(tiparm(csr, 0, term->rows - 1), bare, sizeof bare));
}

/* Whether the terminal type can place the cursor (terminfo's cup): without
 * it (dumb, a printing terminal) every frame would go onto one line. */
static bool can_place_cursor(void)
{
    TERMINAL *saved = cur_term;
    int status = 0;
    if (setupterm(NULL, STDOUT_FILENO, &status) != OK)
        return true; /* an unknown type: newterm says so */
    const char *cup = tigetstr("cup");
    bool can = cup && cup != (char *)-1;
    del_curterm(cur_term);
    set_curterm(saved);
    return can;
}

static void read_size(TuiTerm *term)
{
    struct winsize size;
    if (ioctl(term->tty_fd, TIOCGWINSZ, &size) == 0 && size.ws_row > 0 && size.ws_col > 0) {
        term->rows = size.ws_row;
        term->cols = size.ws_col;
    } else {
        term->rows = 24;
        term->cols = 80;
    }
}

/* Starts a thread that takes no signals (they all go to the frame loop);
 * pthread_create's result. */
static int start_signal_free_thread(pthread_t *thread, void *(*run)(void *), void *arg)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int started = pthread_create(thread, NULL, run, arg);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return started;
}

/* newterm on ncurses's pipe, of the window's real size: ncurses cannot read
 * it from a pipe and would take terminfo's (24 x 80), and set the scroll
 * region for it, unless LINES and COLUMNS say otherwise (put back after). */
static SCREEN *newterm_sized(const TuiTerm *term)
{
    const char *names[2] = {"LINES", "COLUMNS"};
    char *saved[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++) {
        const char *value = getenv(names[k]);
        saved[k] = value ? strdup(value) : NULL;
        char size[16];
        snprintf(size, sizeof size, "%d", k == 0 ? term->rows : term->cols);
        setenv(names[k], size, 1);
    }
    SCREEN *screen = newterm(NULL, term->curses_out, stdin);
    for (int k = 0; k < 2; k++) {
        if (saved[k])
            setenv(names[k], saved[k], 1);
        else
            unsetenv(names[k]);
        free(saved[k]);
    }
    return screen;
}

/* Our own cbreak mode (ncurses cannot set modes through a pipe): keys one at
 * a time, no echo; ^C interrupts and ^Z suspends (SIGTSTP); ^S and ^Q are
 * plain keys. */
static void take_modes(void)
{
    struct termios modes = saved_modes;
    modes.c_lflag &= (tcflag_t) ~(ICANON | ECHO | IEXTEN);
    modes.c_iflag &= (tcflag_t) ~(IXON);
    modes.c_cc[VMIN] = 1;
    modes.c_cc[VTIME] = 0;
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &modes);
}

/* ---------------------------------------------------------------- the background */

/* How long the start waits for the terminal to say its background, ms. A
 * terminal here answers within a few; one that does not know OSC 11 still
 * answers the request for its attributes (DA1, ESC [ c) sent after it, and
 * replies come in order, so that answer ends the wait at once. */
#define BACKGROUND_WAIT_MS 100
/* After a wait that ran out (a slow link), replies still on their way are
 * taken out of the keys for this long, s: they must not act as keys. */
#define LATE_REPLY_SECONDS 5.0
/* The longest gap inside a reply split across reads, ms. */
#define REPLY_GAP_MS 50
#define REPLY_BYTES 64

typedef enum ReplyState { REPLY_NONE, REPLY_OSC, REPLY_CSI } ReplyState;

static double replies_due_until; /* monotonic s; 0: none awaited */
static ReplyState reply_state;   /* inside a reply the keys are swallowing */
static char reply_text[REPLY_BYTES];
static size_t reply_length;
static bool late_background;
static uint32_t late_rgb;
static bool query_modes; /* the query changed the modes: tui_term_stop restores them */

/* Keys typed while the replies were read, handed to ncurses after newterm. */
static char typed_keys[REPLY_BYTES];
static size_t typed_length;
static bool keys_given_back; /* tui_term_wait says input at once */

/* Splits what was read after the query into replies (an OSC reply, ESC ]
 * .. BEL or ESC \, and a DA1 reply, ESC [ ? .. c) and typed keys; returns
 * whether the DA1 reply came, and leaves reply_state inside a reply that
 * was cut off. */
static bool split_replies(const char *buffer, size_t length)
{
    bool attributes = false;
    typed_length = 0;
    reply_state = REPLY_NONE;
    for (size_t i = 0; i < length;) {
        bool osc = buffer[i] == '\033' && i + 1 < length && buffer[i + 1] == ']';
        bool csi = buffer[i] == '\033' && i + 2 < length && buffer[i + 1] == '[' && buffer[i + 2] == '?';
        if (!osc && !csi) {
            if (typed_length < sizeof typed_keys)
                typed_keys[typed_length++] = buffer[i];
            i++;
            continue;
        }
        size_t j = i + 2;
        bool ended = false;
        for (; j < length && !ended; j++) {
            unsigned char c = (unsigned char)buffer[j];
            ended = osc ? c == '\a' || (c == '\\' && buffer[j - 1] == '\033') : c >= 0x40 && c <= 0x7E;
            if (ended && csi && c == 'c')
                attributes = true;
        }
        if (!ended)
            reply_state = osc ? REPLY_OSC : REPLY_CSI;
        i = j;
    }
    return attributes;
}

/* Asks the terminal its background colour (OSC 11) and its attributes
 * (DA1), with echo off so that the replies show nowhere, and reads them for
 * up to BACKGROUND_WAIT_MS; sets term->background_known and _rgb. */
static void ask_background(TuiTerm *term)
{
    static const char query[] = "\033]11;?\033\\\033[c";
    struct termios modes = saved_modes;
    modes.c_lflag &= (tcflag_t) ~(ICANON | ECHO | IEXTEN);
    modes.c_cc[VMIN] = 0;
    modes.c_cc[VTIME] = 0;
    if (tcsetattr(STDIN_FILENO, TCSANOW, &modes) != 0)
        return;
    query_modes = true;
    if (!write_all(term->tty_fd, query, sizeof query - 1))
        return;
    char buffer[512];
    size_t length = 0;
    bool answered = false;
    double deadline = tui_now() + BACKGROUND_WAIT_MS / 1000.0;
    while (!answered && !quit_signal && length < sizeof buffer) {
        int left = (int)((deadline - tui_now()) * 1000.0 + 0.999);
        if (left <= 0)
            break;
        struct pollfd fd = {.fd = STDIN_FILENO, .events = POLLIN};
        int n = poll(&fd, 1, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0 || !(fd.revents & POLLIN))
            break;
        ssize_t got = read(STDIN_FILENO, buffer + length, sizeof buffer - length);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (got <= 0)
            break;
        length += (size_t)got;
        answered = split_replies(buffer, length);
    }
    split_replies(buffer, length);
    uint32_t rgb;
    if (colours_parse_osc11(buffer, length, &rgb)) {
        term->background_known = true;
        term->background_rgb = rgb;
    }
    /* DA1's answer ends the wait (terminals answer in order) but not the
     * watch for a late background reply: GNU screen answers DA1 itself */
    replies_due_until = term->background_known ? 0.0 : tui_now() + LATE_REPLY_SECONDS;
    reply_length = 0;
}

bool tui_term_late_background(uint32_t *rgb)
{
    if (!late_background)
        return false;
    late_background = false;
    *rgb = late_rgb;
    return true;
}

bool tui_term_start(TuiTerm *term, Output *record, bool ask, char *err, size_t err_size)
{
    *term = (TuiTerm){.tty_fd = STDOUT_FILENO, .pipe_fd = {-1, -1}, .master_fd = -1};
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        snprintf(err, err_size,
                 _("the sandbox needs a terminal on standard input and output "
                   "(clothsim run works without one)"));
        return false;
    }
    if (tcgetattr(STDIN_FILENO, &saved_modes) != 0) {
        snprintf(err, err_size, _("cannot read the terminal's modes: %s"), strerror(errno));
        return false;
    }
    if (!can_place_cursor()) {
        const char *name = getenv("TERM");
        snprintf(err, err_size,
                 _("this terminal (TERM=%s) cannot place the cursor; use a terminal such as xterm, "
                   "or run `clothsim run --frames` for text output"),
                 name ? name : "");
        term->refused = true;
        return false;
    }
    read_size(term);
    if (record)
        record_open(term, record);

    quit_signal = 0;
    window_changed = 0;
    suspend_asked = 0;
    /* before newterm, so that ncurses does not install handlers of its own */
    install_handlers();
    replies_due_until = 0.0;
    reply_state = REPLY_NONE;
    typed_length = 0;
    if (ask)
        ask_background(term); /* before ncurses reads a key: the replies are not keys */

    if (pipe(term->pipe_fd) != 0 || pipe(forward_control) != 0) {
        snprintf(err, err_size, _("cannot make a pipe: %s"), strerror(errno));
        goto fail;
    }
    close_on_exec(forward_control[0]);
    close_on_exec(forward_control[1]);
    fcntl(term->pipe_fd[0], F_SETFL, fcntl(term->pipe_fd[0], F_GETFL) | O_NONBLOCK);
    pthread_mutex_lock(&forward_lock);
    flushes_asked = flushes_done = 0;
    forward_dropping = true; /* until leave_first_state */
    pthread_mutex_unlock(&forward_lock);
    pthread_t thread;
    int started = start_signal_free_thread(&thread, forward, term);
    if (started != 0) {
        snprintf(err, err_size, _("cannot start the output thread: %s"), strerror(started));
        goto fail;
    }
    term->forwarding = true;
    forwarder_thread = thread;

    term->curses_out = fdopen(term->pipe_fd[1], "w");
    if (!term->curses_out) {
        snprintf(err, err_size, _("cannot open the output stream: %s"), strerror(errno));
        goto fail;
    }
    term->pipe_fd[1] = -1; /* owned by curses_out now */
    term->screen = newterm_sized(term);
    if (!term->screen) {
        const char *name = getenv("TERM");
        if (name && *name) /* most often a terminal newer than this system's terminfo (kitty, alacritty ...) */
            snprintf(err, err_size,
                     _("cannot use the terminal type '%s': this system has no terminfo entry for it; install "
                       "Debian's ncurses-term (apt-get install ncurses-term), or start with TERM=xterm-256color"),
                     name);
        else
            snprintf(err, err_size, "%s",
                     _("TERM is not set: start with TERM=xterm-256color (or your terminal's type)"));
        goto fail;
    }
    leave_first_state(term);
    eight_bit_input();
    for (size_t k = typed_length; k > 0; k--) /* ungetch puts each in front */
        ungetch((unsigned char)typed_keys[k - 1]);
    keys_given_back = typed_length > 0; /* waiting in ncurses, not on standard input */
    typed_length = 0;

    take_modes();
    restore_fd = term->tty_fd;
    build_restore_sequence(term);
    session_active = 1;

    resizeterm(term->rows, term->cols);
    return true;

fail:
    tui_term_stop(term);
    return false;
}

bool tui_term_start_measured(TuiTerm *term, const char *term_name, int cols, int rows, bool *through_pipe, char *err,
                             size_t err_size)
{
    *term =
        (TuiTerm){.tty_fd = -1, .rows = rows, .cols = cols, .pipe_fd = {-1, -1}, .master_fd = -1, .measuring = true};
    *through_pipe = false;
    pthread_mutex_lock(&drain_lock);
    marks_sent = marks_seen = 0;
    drain_stop = drain_ended = false;
    pthread_mutex_unlock(&drain_lock);

    /* a pseudo-terminal of our own, its output as written (no \n -> \r\n):
     * the bytes the sandbox counts are the bytes ncurses writes */
    int out_fd = -1, in_fd = -1;
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master >= 0 && grantpt(master) == 0 && unlockpt(master) == 0) {
        const char *name = ptsname(master);
        out_fd = name ? open(name, O_RDWR | O_NOCTTY) : -1;
    }
    if (out_fd >= 0) {
        term->master_fd = master;
        close_on_exec(master);
        close_on_exec(out_fd);
        struct winsize size = {.ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols};
        ioctl(out_fd, TIOCSWINSZ, &size);
        struct termios modes;
        if (tcgetattr(out_fd, &modes) == 0) {
            modes.c_oflag &= (tcflag_t) ~(OPOST);
            tcsetattr(out_fd, TCSANOW, &modes);
        }
        in_fd = dup(out_fd);
    } else {
        /* no pseudo-terminal here (no /dev/ptmx): a pipe, as the sandbox's own stream */
        if (master >= 0)
            close(master);
        if (pipe(term->pipe_fd) != 0) {
            snprintf(err, err_size, _("cannot open a pseudo-terminal or a pipe: %s"), strerror(errno));
            goto fail;
        }
        *through_pipe = true;
        out_fd = term->pipe_fd[1];
        term->pipe_fd[1] = -1;
        close_on_exec(term->pipe_fd[0]);
        close_on_exec(out_fd);
        in_fd = open("/dev/null", O_RDONLY);
    }
    close_on_exec(in_fd);
    term->curses_out = out_fd >= 0 ? fdopen(out_fd, "w") : NULL;
    if (!term->curses_out) {
        if (out_fd >= 0)
            close(out_fd);
        if (in_fd >= 0)
            close(in_fd);
        snprintf(err, err_size, _("cannot open the output stream: %s"), strerror(errno));
        goto fail;
    }
    term->curses_in = in_fd >= 0 ? fdopen(in_fd, "r") : NULL;
    if (!term->curses_in) {
        if (in_fd >= 0)
            close(in_fd);
        snprintf(err, err_size, _("cannot open the input stream: %s"), strerror(errno));
        goto fail;
    }

    pthread_t thread;
    int started = start_signal_free_thread(&thread, drain, term);
    if (started != 0) {
        snprintf(err, err_size, _("cannot start the drain thread: %s"), strerror(started));
        goto fail;
    }
    term->draining = true;
    drain_thread = thread;

    install_measuring_handlers(); /* before newterm: see there */
    term->screen = newterm(term_name, term->curses_out, term->curses_in);
    if (!term->screen) {
        snprintf(err, err_size, _("cannot use the terminal type '%s'"), term_name ? term_name : "");
        goto fail;
    }
    leave_first_state_measured(term);
    eight_bit_input();
    resizeterm(rows, cols); /* whatever LINES and COLUMNS say */
    return true;

fail:
    tui_term_stop(term);
    return false;
}

void tui_term_stop(TuiTerm *term)
{
    if (term->screen) {
        if (term->mouse) {
            mousemask(0, NULL);
            send_after_curses(term, "\033[?1002l");
        }
        bool leave_clear = false;
        if (!term->measuring) {
            /* the window's size now: a resize just before the end may not
             * have been taken by the frame loop yet */
            read_size(term);
            reset_scroll_region(term);
            const char *rmcup = tigetstr("rmcup");
            leave_clear = !rmcup || rmcup == (char *)-1; /* no other screen to go back to: clear this one */
        }
        endwin();
        if (leave_clear) {
            char clear[256];
            without_padding(tigetstr("clear"), clear, sizeof clear);
            write_all(fileno(term->curses_out), clear, strlen(clear));
        }
        delscreen(term->screen);
        term->screen = NULL;
    }
    if (term->curses_out) {
        fclose(term->curses_out); /* the forwarder reads the end of the pipe and stops */
        term->curses_out = NULL;
    }
    if (term->curses_in) {
        fclose(term->curses_in);
        term->curses_in = NULL;
    }
    if (term->pipe_fd[1] >= 0)
        close(term->pipe_fd[1]);
    term->pipe_fd[1] = -1;
    if (term->forwarding) {
        pthread_join(forwarder_thread, NULL);
        term->forwarding = false;
    }
    for (int k = 0; k < 2; k++) {
        if (forward_control[k] >= 0)
            close(forward_control[k]);
        forward_control[k] = -1;
    }
    if (term->draining) {
        pthread_mutex_lock(&drain_lock);
        drain_stop = true; /* once nothing is left to read */
        pthread_mutex_unlock(&drain_lock);
        pthread_join(drain_thread, NULL);
        term->draining = false;
    }
    if (term->master_fd >= 0)
        close(term->master_fd);
    term->master_fd = -1;
    if (term->pipe_fd[0] >= 0)
        close(term->pipe_fd[0]);
    term->pipe_fd[0] = -1;
    if (session_active || query_modes) {
        session_active = 0;
        query_modes = false;
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_modes);
    }
    restore_handlers();
    term->record = NULL; /* its Output closes it: the caller's */
    term->recording = NULL;
}

int tui_key_by_place(unsigned letter)
{
    /* the Ukrainian and Russian layouts' letters, key by key, as on the
     * US layout's q w e r t y ... rows; upper case the same, shifted */
    static const struct {
        unsigned short letter;
        char key;
    } places[] = {
        {0x0439, 'q'},  {0x0446, 'w'},  {0x0443, 'e'}, {0x043A, 'r'}, {0x0435, 't'}, {0x043D, 'y'},
        {0x0433, 'u'},  {0x0448, 'i'},  {0x0449, 'o'}, {0x0437, 'p'}, {0x0445, '['}, {0x0457, ']'},
        {0x044A, ']'},  {0x0444, 'a'},  {0x0456, 's'}, {0x044B, 's'}, {0x0432, 'd'}, {0x0430, 'f'},
        {0x043F, 'g'},  {0x0440, 'h'},  {0x043E, 'j'}, {0x043B, 'k'}, {0x0434, 'l'}, {0x0436, ';'},
        {0x0454, '\''}, {0x044D, '\''}, {0x044F, 'z'}, {0x0447, 'x'}, {0x0441, 'c'}, {0x043C, 'v'},
        {0x0438, 'b'},  {0x0442, 'n'},  {0x044C, 'm'}, {0x0431, ','}, {0x044E, '.'}, {0x0451, '`'},
    };
    static const char shifted[] = "{}:\"<>~";
    static const char plain[] = "[];',.`";
    unsigned lower = letter;
    bool upper = false;
    if (letter >= 0x0410 && letter <= 0x042F)
        lower = letter + 0x20, upper = true;
    else if (letter >= 0x0400 && letter <= 0x040F)
        lower = letter + 0x50, upper = true;
    for (size_t k = 0; k < sizeof places / sizeof places[0]; k++)
        if (places[k].letter == lower) {
            char key = places[k].key;
            if (!upper)
                return key;
            if (key >= 'a' && key <= 'z')
                return key - 'a' + 'A';
            const char *at = strchr(plain, key);
            return at ? shifted[at - plain] : key;
        }
    return TUI_KEY_OTHER;
}

static int read_one(void)
{
    wint_t key;
    int got = get_wch(&key);
    if (got == ERR)
        return ERR;
    if (got == KEY_CODE_YES)
        return key <= KEY_MAX ? (int)key : TUI_KEY_OTHER;
    return key < 0x80 ? (int)key : tui_key_by_place((unsigned)key);
}

/* A key read ahead, back in front of the ones waiting. */
static void give_back(int key)
{
    if (key > 0xFF)
        ungetch(key);
    else if (key != ERR)
        unget_wch((wchar_t)key);
}

/* One byte more of the reply being swallowed. */
static void reply_goes_on(int key)
{
    if (reply_length < sizeof reply_text)
        reply_text[reply_length++] = (char)key;
    bool string_end = key == '\a' || (key == '\\' && reply_length >= 2 && reply_text[reply_length - 2] == '\033');
    bool ended = reply_state == REPLY_OSC ? string_end : key >= 0x40 && key <= 0x7E;
    if (!ended && reply_length < sizeof reply_text)
        return;
    uint32_t rgb;
    if (reply_state == REPLY_OSC && colours_parse_osc11(reply_text, reply_length, &rgb)) {
        late_background = true, late_rgb = rgb;
        replies_due_until = 0.0; /* the reply that was awaited */
    }
    reply_state = REPLY_NONE;
    reply_length = 0;
}

/* The next key, waiting up to REPLY_GAP_MS for it: the rest of a reply
 * split across reads (a slow link, a multiplexer passing it on). */
static int read_soon(void)
{
    int key = read_one();
    if (key != ERR)
        return key;
    struct pollfd fd = {.fd = STDIN_FILENO, .events = POLLIN};
    if (poll(&fd, 1, REPLY_GAP_MS) <= 0)
        return ERR;
    return read_one();
}

/* The terminal's replies to the start's query (ask_background) are never
 * keys: ESC ] 1 1 ; r g b ... would reset, pick integrators and so on. A
 * reply that comes after the start's wait arrives among the keys: while
 * replies are due (until the background's reply came, or for
 * LATE_REPLY_SECONDS), ESC ] and ESC [ ? start one that is taken out, and
 * at any time after, ESC ] followed by a digit and ESC [ ? do (no one types
 * those three keys inside REPLY_GAP_MS). GNU screen answers DA1 itself and
 * passes OSC 11 on to the terminal outside, whose answer comes after DA1's:
 * DA1 no longer ends the wait for it. An OSC 11 reply is kept for
 * tui_term_late_background. */
int tui_read_key(void)
{
    for (;;) {
        int key = read_one();
        if (key == ERR)
            return key;
        if (replies_due_until > 0.0 && reply_state == REPLY_NONE && tui_now() > replies_due_until)
            replies_due_until = 0.0;
        if (reply_state != REPLY_NONE) {
            if (key > 0xFF) { /* a key of the keyboard's own: no reply after all */
                reply_state = REPLY_NONE;
                return key;
            }
            reply_goes_on(key);
            continue;
        }
        if (key != 27)
            return key;
        int next = read_soon();
        if (next == ']' || next == '[') {
            int third = read_soon();
            bool due = replies_due_until > 0.0;
            if ((next == ']' && (due || (third >= '0' && third <= '9')) && third != ERR && third <= 0xFF) ||
                (next == '[' && third == '?')) {
                reply_state = next == ']' ? REPLY_OSC : REPLY_CSI;
                reply_length = 0;
                reply_text[reply_length++] = '\033';
                reply_text[reply_length++] = (char)next;
                if (third == '?')
                    reply_text[reply_length++] = '?';
                else
                    reply_goes_on(third);
                continue;
            }
            give_back(third);
        }
        give_back(next);
        return key;
    }
}

/* ^Z: the terminal as it was (ncurses's endwin, the scroll region, the
 * modes), every byte on it, then stopped as SIGTSTP's default would; on fg,
 * the modes again (read anew: the shell may have changed them) and the last
 * screen repainted; a change of size is noticed as a resize. */
static void suspend(TuiTerm *term)
{
    suspend_asked = 0;
    if (term->measuring || !session_active)
        return;
    if (term->mouse)
        send_after_curses(term, "\033[?1002l");
    reset_scroll_region(term);
    endwin();
    const char *rmcup = tigetstr("rmcup");
    if (!rmcup || rmcup == (char *)-1) {
        char clear[256];
        without_padding(tigetstr("clear"), clear, sizeof clear);
        write_all(fileno(term->curses_out), clear, strlen(clear));
    }
    flush_forwarder(term);
    session_active = 0;
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_modes);

    struct sigaction stop_action;
    memset(&stop_action, 0, sizeof stop_action);
    sigemptyset(&stop_action.sa_mask);
    stop_action.sa_handler = SIG_DFL;
    sigaction(SIGTSTP, &stop_action, NULL);
    raise(SIGTSTP); /* stops here until SIGCONT */
    install_suspend_handler();

    tcgetattr(STDIN_FILENO, &saved_modes);
    take_modes();
    session_active = 1;
    window_changed = 1;
    clearok(curscr, TRUE);
    char smkx[256]; /* ncurses sends it again only at its next read */
    if (*without_padding(tigetstr("smkx"), smkx, sizeof smkx))
        send_after_curses(term, smkx);
    if (term->mouse) /* doupdate comes back from endwin: the screen and ncurses's mouse */
        send_after_curses(term, mouse_reads_sgr() ? "\033[?1002h" : "\033[?1006l\033[?1002h");
    else
        doupdate();
}

TuiWait tui_term_wait(TuiTerm *term, int timeout_ms)
{
    if (suspend_asked) {
        suspend(term);
        return WAIT_SIGNAL;
    }
    if (quit_signal || window_changed)
        return WAIT_SIGNAL;
    if (keys_given_back) {
        keys_given_back = false;
        return WAIT_INPUT;
    }
    struct pollfd fds[2] = {{.fd = STDIN_FILENO, .events = POLLIN}, {.fd = term->other_fd, .events = POLLIN}};
    struct pollfd fd = fds[0];
    int n = poll(fds, term->other_fd > 0 ? 2 : 1, timeout_ms);
    fd = fds[0];
    if (n < 0 && errno == EINTR && suspend_asked) {
        suspend(term);
        return WAIT_SIGNAL;
    }
    if (n < 0)
        return errno == EINTR ? WAIT_SIGNAL : WAIT_HANGUP;
    if (n == 0)
        return WAIT_TIMEOUT;
    if (fd.revents & POLLIN)
        return WAIT_INPUT;
    if (term->other_fd > 0 && !fd.revents && fds[1].revents)
        return WAIT_OTHER;
    return WAIT_HANGUP; /* POLLHUP, POLLERR, POLLNVAL: the terminal went away */
}

bool tui_term_take_resize(TuiTerm *term)
{
    if (!window_changed)
        return false;
    window_changed = 0;
    int rows = term->rows, cols = term->cols;
    read_size(term);
    if (rows == term->rows && cols == term->cols)
        return false;
    resizeterm(term->rows, term->cols);
    if (!term->measuring)
        build_restore_sequence(term);
    record_resize(term);
    return true;
}

void tui_term_mouse_on(TuiTerm *term)
{
    mmask_t want = BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON3_PRESSED | BUTTON3_RELEASED | BUTTON4_PRESSED |
                   REPORT_MOUSE_POSITION;
#ifdef BUTTON5_PRESSED
    want |= BUTTON5_PRESSED;
#endif
    if (mousemask(want, NULL) == 0)
        return;
    mouseinterval(0); /* presses and releases as they come, no click detection delay */
    /* ncurses has asked for presses and releases (1000), in the encoding it
     * reads, into its output. Drags need the motion of a held button (1002,
     * far less chatty than 1003), asked after it; and where ncurses reads X10,
     * SGR reports (1006, left on by an earlier program) would arrive as keys:
     * switch them off */
    send_after_curses(term, mouse_reads_sgr() ? "\033[?1002h" : "\033[?1006l\033[?1002h");
    term->mouse = true;
}
