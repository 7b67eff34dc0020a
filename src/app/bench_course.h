/* bench_course.h - `clothsim check --run` over the course, timed
 * (bench_course.c). */
#ifndef CLOTHSIM_BENCH_COURSE_H
#define CLOTHSIM_BENCH_COURSE_H

#include <stdbool.h>

typedef struct BenchCourseFigure {
    int lessons;
    double cpu_seconds, wall_seconds;
    bool passed;   /* every claim held */
    char why[320]; /* no figure, or the check failed: why, in one line, in the user's language */
} BenchCourseFigure;

/* Runs `program check --run` (program: clothsim's path) over every lesson
 * the learn menu finds, in a child process. False, with out->why, when
 * there was nothing to time. */
bool bench_course_check(const char *program, BenchCourseFigure *out);

#endif
