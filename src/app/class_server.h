/* class_server.h - a class session's server: one process, owned by the
 * teacher, that listens on a Unix domain socket and keeps the class in an
 * SQLite database only the teacher's account can read (mode 0600).
 *
 * It knows each client by the user id the kernel reports for the socket's
 * peer (SO_PEERCRED), never by what a message says; the teacher is the
 * account the server runs as. One poll() loop serves every client without
 * blocking: each has an input buffer of one line (CLASS_LINE_MAX; a longer
 * line is dropped with one ERR) and an output buffer with a cap (a client
 * that reads nothing is let go: what it sent is already in the database).
 * An answer is acknowledged (OK) only once the database holds it, so a
 * client that did not see the OK sends it again, and the first try stays.
 * The protocol: class_conn.h.
 */
#ifndef CLOTHSIM_APP_CLASS_SERVER_H
#define CLOTHSIM_APP_CLASS_SERVER_H

#include <stdbool.h>
#include <stddef.h>

#include "class_conn.h"

typedef struct ClassSetup {
    const char *lesson_path; /* a new class; NULL to resume the one in db_path */
    const char *dir;         /* NULL: $CLOTHSIM_CLASS_DIR or /tmp/clothsim-class-CODE */
    const char *db_path;     /* NULL: $XDG_STATE_HOME/clothsim/classes/CODE.db */
    const char *code;        /* NULL: six random letters and digits */
    const char *group;       /* NULL: any account may connect; else the group's members */
    bool seats;              /* many students under one account (HELLO's SEAT): for tests */
} ClassSetup;

typedef struct ClassServer ClassServer;

/* Opens (or, lesson_path NULL, reopens) the class's database, makes its
 * folder and socket and listens. NULL with one line in err. */
ClassServer *class_server_open(const ClassSetup *setup, char *err, size_t err_size);

const char *class_server_code(const ClassServer *server);
const char *class_server_socket(const ClassServer *server);
const char *class_server_folder(const ClassServer *server);
const char *class_server_database(const ClassServer *server);
const char *class_server_lesson(const ClassServer *server);

/* Serves until the teacher ends the class (returns 0) or SIGINT, SIGTERM
 * or SIGHUP arrives (returns 0; the class can be resumed). 1 when the
 * database fails, with one line in err. */
int class_server_run(ClassServer *server, char *err, size_t err_size);

/* Closes every connection, removes the socket (and the folder it made),
 * closes the database. */
void class_server_close(ClassServer *server);

/* The database of class code in the default place (db_path of a ClassSetup
 * left NULL). False with one line in err. */
bool class_default_database(const char *code, char *out, size_t out_size, char *err, size_t err_size);

#endif
