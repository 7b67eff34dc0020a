/* tui_sliders.h - the side panel's rows (tui_sliders.c): which settings
 * the sandbox lets a person slide, over what range and by what step. */
#ifndef CLOTHSIM_TUI_SLIDERS_H
#define CLOTHSIM_TUI_SLIDERS_H

#include <stddef.h>

#include "tui_state.h"

void tui_sliders_init(Tui *tui);
/* The panel's rows again for the panes' settings: only the keys that act
 * (compliances under xpbd, the sphere's radius with a sphere ...); the
 * chosen row stays chosen while it is shown. */
void tui_sliders_update(Tui *tui);
/* The text of the value `presses` steps (negative: down) from key's value in
 * params, along the sandbox's slider for key (or a plain one if it has none). */
void tui_slider_value(const Tui *tui, const Params *params, const ParamInfo *info, int presses, char *out,
                      size_t out_size);
/* The same for a row of the panel, from the sandbox's settings. */
void tui_slider_moved(const Tui *tui, const TuiSlider *slider, int presses, char *out, size_t out_size);

#endif
