/* layout.c - the screen's rectangles (see layout.h). */
#include "layout.h"

#include <string.h>

void layout_compute(Layout *layout, int cols, int rows, int pane_count, bool lesson)
{
    memset(layout, 0, sizeof *layout);
    if (pane_count < 1)
        pane_count = 1;
    if (pane_count > LAYOUT_MAX_PANES)
        pane_count = LAYOUT_MAX_PANES;
    layout->pane_count = pane_count;
    layout->too_small = cols < LAYOUT_MIN_COLS || rows < LAYOUT_MIN_ROWS;
    if (layout->too_small)
        return;
    layout->status = (LayoutRect){0, 0, cols, 1};

    layout->panel_shown = cols >= 64 && (pane_count == 1 || cols >= 100);
    int panel_width = layout->panel_shown ? LAYOUT_PANEL_WIDTH : 0;
    int area_width = cols - panel_width, area_height = rows - 1;
    int panel_x = area_width, panel_y = 1, panel_height = area_height;
    if (lesson) {
        /* the narration: beside the panes on a wide terminal, under them otherwise */
        layout->panel_shown = true;
        if (cols >= 100) {
            panel_width = cols * 2 / 5 < 64 ? cols * 2 / 5 : 64;
            area_width = cols - panel_width;
            panel_x = area_width;
        } else {
            panel_width = cols;
            panel_height = (rows - 1) / 2;
            area_width = cols;
            area_height = rows - 1 - panel_height;
            panel_x = 0;
            panel_y = 1 + area_height;
        }
    }
    if (layout->panel_shown)
        layout->panel = (LayoutRect){panel_x, panel_y, panel_width, panel_height};

    /* panes side by side while each keeps LAYOUT_ROW_MIN columns: compared
     * panes read best on one line, at every size alike; else the grid
     * whose cells are squarest on the glass (a cell is about twice as tall
     * as wide) */
    int n = pane_count, grid_cols = n, best = -1;
    for (int columns = 1; columns <= n && area_width / n < LAYOUT_ROW_MIN; columns++) {
        int grid = (n + columns - 1) / columns;
        int width = area_width / columns, height = 2 * area_height / grid;
        int score = width < height ? width : height;
        if (score > best)
            best = score, grid_cols = columns;
    }
    int grid_rows = (n + grid_cols - 1) / grid_cols;
    for (int i = 0; i < n; i++) {
        int col = i % grid_cols, row = i / grid_cols;
        bool last_in_row = col == grid_cols - 1 || i == n - 1;
        int x = area_width * col / grid_cols;
        int width = (last_in_row ? area_width : area_width * (col + 1) / grid_cols) - x;
        int y = 1 + area_height * row / grid_rows;
        int height = 1 + area_height * (row + 1) / grid_rows - y;
        int plot_height = height >= 16 ? 4 : height >= 8 ? 2 : 0;
        layout->view[i] = (LayoutRect){x, y, width, height - plot_height};
        layout->plots[i] = (LayoutRect){x, y + height - plot_height, width, plot_height};
    }
}
