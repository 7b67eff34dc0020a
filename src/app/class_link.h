/* class_link.h - a student's link to a class (class_conn.h's protocol):
 * what the lesson screen sends (each answer, each page) and what it hears
 * (the class's page, a hold on a question, a reveal, the end).
 *
 * Nothing is lost with the connection: an answer is kept until the server
 * says OK, and sent again after a reconnection (the server keeps the first
 * try); the page is sent again too. A lost connection is tried again every
 * CLASS_LINK_RETRY_SECONDS. No terminal: the screen polls class_link_fd. */
#ifndef CLOTHSIM_APP_CLASS_LINK_H
#define CLOTHSIM_APP_CLASS_LINK_H

#include <limits.h>
#include <stdbool.h>

#include "class_conn.h"

#define CLASS_LINK_RETRY_SECONDS 2.0
#define CLASS_LINK_PENDING 64           /* answers not yet acknowledged */
#define CLASS_LINK_FRAME_MAX (60 << 10) /* bytes of a frame's lines: under the server's cap */
#define CLASS_LINK_FRAME_SECONDS 0.1    /* frames at most this often */

typedef struct ClassLink {
    ClassConn conn;
    char code[CLASS_CODE_MAX + 1];
    char socket_path[PATH_MAX];
    char lesson_path[PATH_MAX]; /* the class's lesson, as the server names it */
    char id[48];                /* ours, as the server knows us */
    bool connected;
    double retry_at; /* monotonic s: the next try to reconnect */
    int my_page;     /* the page we were on (from 1; 0: none yet) */
    int page_sent;   /* the last page the server has */
    int class_page;  /* the teacher's page (0: none) */
    int goto_page;   /* the teacher moved the class here: the screen goes (0: none) */
    int hold;        /* the question the class is held on (0: none) */
    int revealed;    /* the question whose counts came last (0: none) */
    int counts[9], choice_count;
    bool reveal_new; /* a reveal to show */
    bool ended;
    int pending[CLASS_LINK_PENDING][2]; /* question, choice */
    int pending_count;
    /* the teacher's lesson on the projector (class present): no answers,
     * no pages; its frames go to the class's watchers */
    bool presenter;
    char frame[CLASS_LINK_FRAME_MAX], frame_sent[CLASS_LINK_FRAME_MAX];
    size_t frame_length, frame_sent_length;
    double frame_at;    /* monotonic s: the last frame sent */
    bool frame_waiting; /* a changed frame waits for its time */
} ClassLink;

/* Connects, says hello (as the presenter: the teacher's lesson on the
 * projector) and reads the class's state. False with one line in err. */
bool class_link_open(ClassLink *link, const char *code, const char *socket_path, bool presenter, char *err,
                     size_t err_size);
void class_link_close(ClassLink *link);

/* The socket to poll for input, or -1 while disconnected. */
int class_link_fd(const ClassLink *link);

/* Reads and takes what the server sent; reconnects when the connection
 * is lost and the time has come (now: monotonic s). True if anything
 * changed that the screen shows. */
bool class_link_poll(ClassLink *link, double now);

/* The student's first (or later) answer to question (from 1), choice from 1. */
void class_link_answer(ClassLink *link, int question, int choice);

/* The presenter's frame, its lines (FRAME .. SHOW, class_conn.h) in
 * link->frame: sent if it differs from the last one sent and that one is
 * CLASS_LINK_FRAME_SECONDS old (now: monotonic s); else frame_waiting
 * says to come back. */
void class_link_frame(ClassLink *link, double now);

/* The student is on page (from 1; page_count + 1: the end). */
void class_link_page(ClassLink *link, int page);

#endif
