/* tui_scales.h - how the panes' plots are scaled, and what compared panes
 * share beside their camera (tui_scales.c). */
#ifndef CLOTHSIM_TUI_SCALES_H
#define CLOTHSIM_TUI_SCALES_H

#include <stddef.h>

#include "tui_state.h"

/* How a pane's plots are scaled, for a lesson's view line and the sandbox
 * alike: energy between lo and hi (both NAN: the values' own range), on a
 * log scale if log, the dotted line at the starting energy start (NAN:
 * none); strain between strain_lo and strain_hi (NAN: own range), the
 * dotted line at Provot's 10 % when it is fixed. */
void tui_pane_scales(TuiPane *pane, float lo, float hi, bool log, float start, float strain_lo, float strain_hi);
/* After samples: the sandbox's plot scales and the compared panes' ramp
 * grown to hold them (a new history starts them again). */
void tui_scales_hold(Tui *tui);
/* The scales pane i's plots are drawn with now. */
void tui_pane_plot_scales(const Tui *tui, int i, RenderPlotScale *energy, RenderPlotScale *strain);
/* A compared pane's label with the links it has torn after it ("torn 12 "),
 * where it tears and the view (width cells) has room: the count that
 * tells naive tearing from hysteresis. */
void tui_pane_torn(const Tui *tui, int i, char *label, size_t size, int width);

#endif
