/* layout.h - where the panes, their plots and the side panel go on a
 * terminal of a given size: pure geometry, no curses.
 *
 * The front end opens its windows on these rectangles, and the lesson
 * checker renders each pane at the size a student's terminal gives it
 * (lesson_view_measure), so that a claim about what the screen shows is
 * checked on the screen the student has.
 */
#ifndef CLOTHSIM_LAYOUT_H
#define CLOTHSIM_LAYOUT_H

#include <stdbool.h>

#define LAYOUT_MAX_PANES 4
#define LAYOUT_MIN_COLS 40 /* smaller terminals get a notice instead */
#define LAYOUT_MIN_ROWS 12
#define LAYOUT_PANEL_WIDTH 30 /* the sandbox's settings panel */
#define LAYOUT_ROW_MIN 20     /* columns a pane keeps when panes stand side by side */

typedef struct LayoutRect {
    int x, y, width, height; /* cells; y = 0 is the status line */
} LayoutRect;

typedef struct Layout {
    bool too_small;
    bool panel_shown;
    LayoutRect status, panel;
    int pane_count;
    LayoutRect view[LAYOUT_MAX_PANES];  /* the cloth, label and banners */
    LayoutRect plots[LAYOUT_MAX_PANES]; /* height 0: no plots at this size */
} Layout;

/* The rectangles for pane_count panes (1..LAYOUT_MAX_PANES) on a cols x rows
 * terminal. lesson: the narration panel, beside the panes from 100 columns,
 * under them below that; otherwise the sandbox's settings panel where it fits. */
void layout_compute(Layout *layout, int cols, int rows, int pane_count, bool lesson);

#endif
