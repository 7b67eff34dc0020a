/* class_link.c - a student's link to a class (see class_link.h). */
#include "class_link.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"

static double monotonic(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static int to_int(const char *word)
{
    return (int)strtol(word, NULL, 10);
}

/* One line from the server. True if the screen should show something new. */
static bool take(ClassLink *link, char *line, bool *ready)
{
    char *w[CLASS_WORDS_MAX];
    int n = class_split(line, w);
    if (n <= 0)
        return false;
    if (strcmp(w[0], "LESSON") == 0 && n == 2)
        snprintf(link->lesson_path, sizeof link->lesson_path, "%s", w[1]);
    else if (strcmp(w[0], "YOU") == 0 && n == 3) {
        snprintf(link->id, sizeof link->id, "%s", w[1]);
        if (!link->my_page)
            link->my_page = to_int(w[2]);
        link->page_sent = to_int(w[2]);
    } else if (strcmp(w[0], "OK") == 0 && n == 2) {
        int question = to_int(w[1]);
        for (int k = 0; k < link->pending_count; k++)
            if (link->pending[k][0] == question) {
                memmove(link->pending[k], link->pending[k + 1],
                        sizeof link->pending[0] * (size_t)(link->pending_count - k - 1));
                link->pending_count--;
                break;
            }
    } else if (strcmp(w[0], "CLASSPAGE") == 0 && n == 2)
        link->class_page = to_int(w[1]);
    else if (strcmp(w[0], "GOTO") == 0 && n == 2) {
        link->class_page = link->goto_page = to_int(w[1]);
        return true;
    } else if (strcmp(w[0], "HOLD") == 0 && n == 2) {
        bool changed = link->hold != to_int(w[1]);
        link->hold = to_int(w[1]);
        return changed;
    } else if (strcmp(w[0], "REVEAL") == 0 && n >= 3) {
        link->revealed = to_int(w[1]);
        link->choice_count = n - 2 < 9 ? n - 2 : 9;
        for (int k = 0; k < link->choice_count; k++)
            link->counts[k] = to_int(w[k + 2]);
        link->reveal_new = *ready; /* the last reveal of the state is old news */
        return *ready;
    } else if (strcmp(w[0], "END") == 0) {
        link->ended = true;
        return true;
    } else if (strcmp(w[0], "READY") == 0)
        *ready = true;
    return false;
}

static void lost(ClassLink *link)
{
    class_conn_close(&link->conn);
    link->connected = false;
    link->retry_at = monotonic() + CLASS_LINK_RETRY_SECONDS;
}

static bool hello(ClassLink *link, char *err, size_t err_size)
{
    if (!class_conn_open(&link->conn, link->socket_path, err, err_size))
        return false;
    char line[CLASS_LINE_MAX];
    bool ready = false;
    if (!class_conn_send(&link->conn, "HELLO %s %s", link->code, link->presenter ? "presenter" : "student")) {
        snprintf(err, err_size, _("%.200s: the class closed the connection"), link->socket_path);
        class_conn_close(&link->conn);
        return false;
    }
    while (!ready) {
        if (!class_conn_wait_line(&link->conn, line, sizeof line, 5000)) {
            snprintf(err, err_size, _("%.200s: the class does not answer"), link->socket_path);
            class_conn_close(&link->conn);
            return false;
        }
        if (strncmp(line, "ERR ", 4) == 0) {
            snprintf(err, err_size, _("the class refused: %s"), line + 4);
            class_conn_close(&link->conn);
            return false;
        }
        take(link, line, &ready);
    }
    link->connected = true;
    link->frame_sent_length = 0; /* the server may have lost it: send the next frame whole */
    if (link->presenter)
        return true;
    /* what the server may not have: the answers it did not acknowledge, our page */
    for (int k = 0; k < link->pending_count; k++)
        class_conn_send(&link->conn, "ANSWER %d %d", link->pending[k][0], link->pending[k][1]);
    if (link->my_page > 0 && link->my_page != link->page_sent && class_conn_send(&link->conn, "PAGE %d", link->my_page))
        link->page_sent = link->my_page;
    return true;
}

bool class_link_open(ClassLink *link, const char *code, const char *socket_path, bool presenter, char *err,
                     size_t err_size)
{
    memset(link, 0, sizeof *link);
    link->conn.fd = -1;
    link->presenter = presenter;
    snprintf(link->code, sizeof link->code, "%s", code);
    snprintf(link->socket_path, sizeof link->socket_path, "%s", socket_path);
    return hello(link, err, err_size);
}

void class_link_close(ClassLink *link)
{
    class_conn_close(&link->conn);
    link->connected = false;
}

int class_link_fd(const ClassLink *link)
{
    return link->connected ? link->conn.fd : -1;
}

bool class_link_poll(ClassLink *link, double now)
{
    if (!link->connected) {
        if (link->ended || now < link->retry_at)
            return false;
        char err[256];
        link->retry_at = now + CLASS_LINK_RETRY_SECONDS;
        return hello(link, err, sizeof err);
    }
    bool changed = false, ready = true;
    bool alive = class_conn_read(&link->conn);
    char line[CLASS_LINE_MAX];
    while (class_conn_line(&link->conn, line, sizeof line))
        changed = take(link, line, &ready) || changed;
    if (!alive || link->conn.eof) {
        lost(link);
        changed = true;
    }
    return changed;
}

void class_link_frame(ClassLink *link, double now)
{
    link->frame_waiting = false;
    if (!link->connected || (link->frame_length == link->frame_sent_length &&
                             memcmp(link->frame, link->frame_sent, link->frame_length) == 0))
        return;
    if (now - link->frame_at < CLASS_LINK_FRAME_SECONDS) {
        link->frame_waiting = true;
        return;
    }
    for (size_t start = 0, end; start < link->frame_length; start = end + 1) {
        end = start;
        while (end < link->frame_length && link->frame[end] != '\n')
            end++;
        if (!class_conn_send(&link->conn, "%.*s", (int)(end - start), link->frame + start)) {
            lost(link);
            return;
        }
    }
    memcpy(link->frame_sent, link->frame, link->frame_length);
    link->frame_sent_length = link->frame_length;
    link->frame_at = now;
}

void class_link_answer(ClassLink *link, int question, int choice)
{
    if (link->presenter)
        return; /* the teacher's answer is no student's */
    for (int k = 0; k < link->pending_count; k++)
        if (link->pending[k][0] == question)
            return; /* the first try is on its way */
    if (link->pending_count < CLASS_LINK_PENDING) {
        link->pending[link->pending_count][0] = question;
        link->pending[link->pending_count][1] = choice;
        link->pending_count++;
    }
    if (link->connected && !class_conn_send(&link->conn, "ANSWER %d %d", question, choice))
        lost(link); /* poll reconnects; the answer waits in pending */
}

void class_link_page(ClassLink *link, int page)
{
    if (link->presenter)
        return;
    link->my_page = page;
    if (link->connected && page != link->page_sent) {
        if (class_conn_send(&link->conn, "PAGE %d", page))
            link->page_sent = page;
        else
            lost(link);
    }
}
