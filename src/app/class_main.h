/* class_main.h - clothsim class: a class session (see class_server.h). */
#ifndef CLOTHSIM_APP_CLASS_MAIN_H
#define CLOTHSIM_APP_CLASS_MAIN_H

#include <stdbool.h>

#include "lesson/lesson.h"

/* clothsim class start|resume|join|teach|present|watch|report ...; argv[0] is "class".
 * Returns the exit status. */
int class_main(int argc, char **argv);

/* The first answers of a class (operand: its CODE or FILE.db) per question
 * and choice: counts[q][c] students chose choice c + 1 at question q + 1,
 * for the first `questions` questions. 0, or the exit status with one line
 * said (2 not a code nor a FILE.db, 1 a database that cannot be read). */
int class_histograms(const char *operand, int questions, int (*counts)[LESSON_MAX_CHOICES]);

/* A student's screen: plays the class's lesson, sending each answer and
 * page to the server at socket_path (class_screen.c); as the presenter
 * (class present, the teacher's), its frames instead. argv[0] is "join";
 * the lessons' screen options are taken. */
int class_join(const char *code, const char *socket_path, bool presenter, int argc, char **argv);

/* A watcher's screen (class watch): the presenter's frames, read-only. */
int class_watch(const char *code, const char *socket_path);

/* The teacher's screen for the class at socket_path (class_screen.c). */
int class_teach(const char *code, const char *socket_path, int argc, char **argv);

#endif
