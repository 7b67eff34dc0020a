/* bench.h - `clothsim bench`: what the solver and the renderer cost on this
 * machine (issue 6). Never part of make test. */
#ifndef CLOTHSIM_BENCH_H
#define CLOTHSIM_BENCH_H

#include <stdbool.h>

#define BENCH_MAX_REPS 101

/* clothsim bench [--quick] [--json] [--reps N] (argv[0] is "bench").
 * Returns the process exit status. */
int bench_main(int argc, char **argv);

/* The bytes the sandbox's front end writes to its terminal per frame: the
 * default scene, set up and drawn by the sandbox's own code (tui_draw) at
 * cols x rows, ncurses writing to a pseudo-terminal that the benchmark opens
 * and drains itself; the physics of 1/30 s before each frame, as the sandbox
 * at 30 fps. settle_frames frames are drawn first and not counted (the first
 * of them paints the whole screen); then reps runs of `frames` frames. */
typedef struct FrameBytes {
    int cols, rows;
    int settle_frames, frames, reps;      /* reps at most BENCH_MAX_REPS */
    bool implicit;                        /* the default scene under integrator=implicit (else its own, jakobsen) */
    double per_frame[BENCH_MAX_REPS];     /* out: bytes a frame over each run */
    double first_frame;                   /* out: bytes of the first frame */
    double cpu_per_frame[BENCH_MAX_REPS]; /* out: the process's processor time a frame (s), each run: physics,
                                             drawing, ncurses and the terminal's pipe */
    char how[320];                        /* out: how it was measured, or why it could not be (English: the JSON's) */
    char note[640];                       /* out: the same in the user's language (the report's) */
} FrameBytes;

/* Measures fb; returns false (with the reason in fb->how) if it could not.
 * The process's own terminal is not touched; no terminal is needed. */
bool bench_frame_bytes(FrameBytes *fb);

#endif
