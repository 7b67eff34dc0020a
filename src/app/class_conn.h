/* class_conn.h - a class session's line protocol, and one connection's end
 * of it (the student's, the teacher's, the tests').
 *
 * A class is a server (class_server.h) on a Unix domain socket; every
 * message is one line of printable ASCII words separated by single spaces,
 * ending in '\n', at most CLASS_LINE_MAX bytes with the newline. Who sends a
 * message is never in it: the server knows each client by the user id the
 * kernel reports for the socket's peer (SO_PEERCRED).
 *
 *   client -> server                        server -> client
 *   HELLO CODE student|teacher [SEAT]       LESSON PATH, then the state:
 *                                           YOU ID PAGE (a student) with
 *                                           ANSWERED Q CHOICE for each of
 *                                           theirs; STUDENT ID PAGE ONLINE
 *                                           NAME and VOTE ID Q CHOICE RIGHT
 *                                           (the teacher's); CLASSPAGE P,
 *                                           HOLD Q (0: none), REVEAL Q N1 N2
 *                                           ... for each revealed; READY
 *   PAGE P          (a student, from 1)     the teacher gets PAGE ID P
 *   ANSWER Q CHOICE (a student, from 1)     OK Q once it is in the database
 *                                           (the first try is kept); the
 *                                           teacher gets VOTE ID Q CHOICE RIGHT
 *   HOLD Q | REVEAL Q | GOTO P | END        everyone gets HOLD Q, REVEAL Q
 *                   (the teacher only)      N1 ..., GOTO P or END
 *   PING                                    PONG
 *                                           ERR WORDS: a message refused
 *   HELLO CODE presenter  (the teacher's    the state as a student's, less
 *                 account: class present)   YOU and ANSWERED
 *   FRAME W H, ROW Y X FG BG ATTRIBUTES     each watcher gets the frame's
 *   TEXT ..., SHOW  (the presenter only)    lines on SHOW
 *   HELLO CODE watcher    (anyone)          READY, the last frame, then
 *                                           each new one; nothing else
 *
 * A frame is the presenter's screen, W columns by H rows: ROW puts TEXT
 * (UTF-8, each byte outside ! to ~ and each % written %XX) at row Y,
 * column X (from 0), in colours FG and BG (0 to 255; 255: the terminal's
 * own) with ATTRIBUTES (CLASS_BOLD ...). A watcher's screen is read-only by
 * design: the server ignores everything a watcher sends after its hello.
 *
 * ID is the user id, or UID/SEAT where the server was started with --seats
 * (the tests' simulated students: many under one account). RIGHT is 1, 0,
 * or - (the question names no right answer). JOIN ID NAME and LEAVE ID tell
 * the teacher who comes and goes. A student never receives another's
 * answer: only REVEAL's counts, once the teacher reveals.
 */
#ifndef CLOTHSIM_APP_CLASS_CONN_H
#define CLOTHSIM_APP_CLASS_CONN_H

#include <stdbool.h>
#include <stddef.h>

#define CLASS_LINE_MAX 512 /* bytes, the newline included */
#define CLASS_CODE_MAX 16  /* a class's code: 1 to 16 of a-z, 0-9 and - */
#define CLASS_WORDS_MAX 16 /* words in one message */

/* ROW's ATTRIBUTES, or-ed */
enum { CLASS_BOLD = 1, CLASS_DIM = 2, CLASS_REVERSE = 4, CLASS_UNDERLINE = 8 };
#define CLASS_COLOUR_DEFAULT 255

/* TEXT of a ROW from UTF-8 text (length bytes): at most out_size - 1
 * bytes, whole escapes only; returns the bytes of text taken. */
size_t class_text_encode(const char *text, size_t length, char *out, size_t out_size);

/* The UTF-8 text of a ROW's TEXT, in place; false if an escape is bad. */
bool class_text_decode(char *text);

/* Whether code is a class's code (1 to CLASS_CODE_MAX of a-z, 0-9, -). */
bool class_code_valid(const char *code);

/* The folder and the socket of class code: dir (NULL: $CLOTHSIM_CLASS_DIR,
 * else /tmp/clothsim-class-CODE) and DIR/class-CODE.sock. False with one
 * line in err when the path is too long for a socket's address. */
bool class_socket_path(const char *dir, const char *code, char *folder, size_t folder_size, char *socket_path,
                       size_t socket_size, char *err, size_t err_size);

/* Splits line (modified) at single spaces into at most CLASS_WORDS_MAX
 * words; returns the count, or -1 if there are more or an empty word. */
int class_split(char *line, char **words);

/* One client's connection: a non-blocking socket and what came in of the
 * next lines. */
typedef struct ClassConn {
    int fd; /* -1: closed */
    char in[8 * CLASS_LINE_MAX];
    size_t in_length;
    bool eof; /* the server closed it */
} ClassConn;

/* Connects to the socket at path. False with one line in err. */
bool class_conn_open(ClassConn *conn, const char *socket_path, char *err, size_t err_size);
void class_conn_close(ClassConn *conn);

/* Sends one line (the newline is added); waits until it is written. False
 * when the connection is gone. */
bool class_conn_send(ClassConn *conn, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* Reads what has arrived without waiting. False when the connection is gone
 * and nothing is left to take. */
bool class_conn_read(ClassConn *conn);

/* Takes the next whole line (without its newline) into line; false when
 * none has arrived yet. */
bool class_conn_line(ClassConn *conn, char *line, size_t line_size);

/* Waits up to timeout_ms for the next line (reading as needed). */
bool class_conn_wait_line(ClassConn *conn, char *line, size_t line_size, int timeout_ms);

#endif
