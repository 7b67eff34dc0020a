/* bench_course.c - the course's checks, timed (`clothsim bench`).
 *
 * `clothsim check --run` plays every lesson headless and checks its
 * claims; a teacher and CI run it over the whole course. The bench runs it
 * as a child process over the lessons the learn menu finds (./lessons, the
 * installed ones, $CLOTHSIM_LESSONS) and reads the child's processor time
 * from wait4: user and system, every thread, nothing of the bench's own.
 */
#include "bench_course.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "i18n.h"
#include "lesson_menu.h"

bool bench_course_check(const char *program, BenchCourseFigure *out)
{
    memset(out, 0, sizeof *out);
    LessonCatalogue catalogue = {0};
    lesson_catalogue_find(&catalogue);
    int count = 0;
    for (int k = 0; k < catalogue.count; k++)
        count += !catalogue.entries[k].broken;
    const char **argv = calloc((size_t)count + 4, sizeof *argv);
    if (count == 0 || !argv) {
        snprintf(out->why, sizeof out->why, "%s",
                 count == 0 ? _("no lessons found (./lessons, the installed course or $CLOTHSIM_LESSONS)")
                            : _("could not start clothsim check"));
        free(argv);
        lesson_catalogue_free(&catalogue);
        return false;
    }
    int n = 0;
    argv[n++] = program;
    argv[n++] = "check";
    argv[n++] = "--run";
    for (int k = 0; k < catalogue.count; k++)
        if (!catalogue.entries[k].broken)
            argv[n++] = catalogue.entries[k].path;
    argv[n] = NULL;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
        }
        execv(program, (char *const *)argv);
        _exit(127);
    }
    free(argv);
    lesson_catalogue_free(&catalogue);
    if (pid < 0) {
        snprintf(out->why, sizeof out->why, _("could not start clothsim check: %s"), strerror(errno));
        return false;
    }
    struct timeval start, end;
    gettimeofday(&start, NULL);
    int status = 0;
    struct rusage usage;
    while (wait4(pid, &status, 0, &usage) < 0)
        if (errno != EINTR) {
            snprintf(out->why, sizeof out->why, _("lost clothsim check: %s"), strerror(errno));
            return false;
        }
    gettimeofday(&end, NULL);
    out->lessons = count;
    out->cpu_seconds = (double)usage.ru_utime.tv_sec + 1e-6 * (double)usage.ru_utime.tv_usec +
                       (double)usage.ru_stime.tv_sec + 1e-6 * (double)usage.ru_stime.tv_usec;
    out->wall_seconds = (double)(end.tv_sec - start.tv_sec) + 1e-6 * (double)(end.tv_usec - start.tv_usec);
    out->passed = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!out->passed)
        snprintf(out->why, sizeof out->why,
                 _("clothsim check --run failed (exit status %d): run it to see which claim"),
                 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
    return true;
}
