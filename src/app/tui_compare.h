/* tui_compare.h - the sandbox's ready comparisons (tui_compare.c, the
 * presets of presets.h: e, i and T) and the v key's wire view. */
#ifndef CLOTHSIM_TUI_COMPARE_H
#define CLOTHSIM_TUI_COMPARE_H

#include "tui_state.h"

struct Preset;
/* Opens preset in the sandbox (its key): the sandbox's settings are kept
 * for tui_preset_close; the same preset's key again closes it. False, with
 * a message, leaving the sandbox as it was, when the panes cannot be built. */
bool tui_preset_open(Tui *tui, const struct Preset *preset);
bool tui_preset_close(Tui *tui);
void tui_preset_key(Tui *tui, const struct Preset *preset);
/* --preset: the panes parse_options set up, shown as the key shows them;
 * false when there is no preset. */
bool tui_start_preset(Tui *tui);
/* The line the sandbox shows at start: the ready comparisons' keys. */
void tui_presets_hint(Tui *tui);
/* v: wire mode, and which link families it draws: all, then each alone. */
void tui_next_families(Tui *tui);

#endif
