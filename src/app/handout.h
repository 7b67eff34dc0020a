/* handout.h - `clothsim handout FILE.lesson [--teacher] [--class C] [-o FILE.html]`: a
 * lesson as one self-contained HTML page to print (see handout.c). No curses.
 */
#ifndef CLOTHSIM_HANDOUT_H
#define CLOTHSIM_HANDOUT_H

#include <stdbool.h>
#include <stdio.h>

#include "lesson/lesson.h"

/* Plays lesson headless (as check --run does) and writes its handout into
 * f: every page's text, its questions with room to answer, pictures of the
 * panes drawn by the renderer at the page's key moments (when it stops
 * first, and after each run) and the figures the lesson's expects measured.
 * teacher adds the notes, the right answers, the feedback, the explanations
 * and the claims. language: the lesson's ("en", "uk"), the page's lang; the
 * labels are in the user's language (gettext). False when out of memory
 * (what was written is incomplete). */
bool handout_write(FILE *f, const Lesson *lesson, bool teacher, const char *language);
/* The same with a class's first answers (class_main.h: class_histograms)
 * under each of the first class_questions questions; NULL: none. */
bool handout_write_class(FILE *f, const Lesson *lesson, bool teacher, const char *language,
                         int (*class_counts)[LESSON_MAX_CHOICES], int class_questions);

/* The command: returns the exit status (0, 1 out of memory or a write that
 * failed, 2 a mistake in the arguments or the lesson). */
int handout_main(int argc, char **argv);

#endif
