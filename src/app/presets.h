/* presets.h - the ready comparisons the sandbox opens with one key and the
 * command line with --preset NAME: the three contrasts the lessons are
 * built on, each a scene and settings chosen so that the panes differ at a
 * glance (lessons 02, 05 and 10 measure the same scenes). No curses.
 */
#ifndef CLOTHSIM_PRESETS_H
#define CLOTHSIM_PRESETS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/params.h"
#include "render/render.h"

typedef struct Preset {
    const char *name;  /* on the command line: --preset euler-verlet */
    int key;           /* the sandbox's key */
    const char *title; /* N_(): what the panes compare, for a person */
    const char *look;  /* N_(): what to look at, said when it opens */
    SceneKind scene;
    const char *settings; /* KEY=VALUE ..., on top of the scene's defaults */
    const char *compare;  /* KEY=V1,V2[,V3,V4]: what differs between the panes */
    RenderMode mode;      /* how the panes are drawn */
    bool front;           /* seen square on (yaw 0, pitch 0) */
    float zoom;           /* the framing's zoom (lessons' zoom=): below 1 leaves room under the cloth */
} Preset;

extern const Preset presets[];
extern const int preset_count;

/* The preset called name, or NULL. */
const Preset *preset_find(const char *name);
/* The preset on key, or NULL. */
const Preset *preset_for_key(int key);
/* The preset's name nearest to name if it is close enough to be a typo, or NULL. */
const char *preset_suggest(const char *name);
/* "euler-verlet, iterations, tearing" */
void preset_names(char *out, size_t out_size);

/* The preset's settings: the scene's defaults, then its own. False with
 * why in err if they do not hold (not reached: the table is tested). */
bool preset_params(const Preset *preset, Params *out, char *err, size_t err_size);

/* The compared key of the preset and its values (up to 4, 64 bytes each);
 * returns how many. */
int preset_values(const Preset *preset, char *key, size_t key_size, char values[][64], int max);

#endif
