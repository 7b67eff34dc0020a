/* tui_camera.c - how the sandbox's and a lesson's panes are framed: each
 * pane's camera fitted to its cloth, or the panes of a comparison under one
 * camera fitted to them all (camera_fit_solvers), so that a ribbon stretched
 * twice as long is drawn twice as long. No curses: the layout (tui_draw.c)
 * and every change of panes call it, the drawing only reads the cameras. */
#include "presets.h"
#include "tui_camera.h"

bool tui_fit_shared_camera(Tui *tui)
{
    if (tui->pane_count < 2 || !tui->compare_key)
        return false;
    const Solver *solvers[TUI_MAX_PANES];
    int width = 0, height = 0;
    for (int i = 0; i < tui->pane_count; i++) {
        const TuiPane *pane = &tui->panes[i];
        if (!pane->solver || pane->camera_set)
            return false;
        solvers[i] = pane->solver;
        int w = pane->view ? pane->view->width : 80, h = pane->view ? pane->view->height : 24;
        width = i == 0 || w < width ? w : width; /* the smallest view holds it all */
        height = i == 0 || h < height ? h : height;
    }
    Camera shared = tui->panes[0].camera; /* its angle: the person may have turned it */
    camera_set_viewport(&shared, width > 0 ? width : 1, height > 0 ? height : 1);
    float lo[3], hi[3];
    if (!camera_fit_solvers(&shared, solvers, tui->pane_count, lo, hi))
        return false;
    if (tui->preset)
        camera_zoom_framed(&shared, lo, hi, tui->preset->zoom);
    camera_zoom(&shared, tui->zoom);
    for (int i = 0; i < tui->pane_count; i++) {
        TuiPane *pane = &tui->panes[i];
        int w = pane->view ? pane->view->width : 80, h = pane->view ? pane->view->height : 24;
        pane->camera = shared;
        camera_set_viewport(&pane->camera, w > 0 ? w : 1, h > 0 ? h : 1);
    }
    return true;
}

void tui_fit_cameras(Tui *tui)
{
    if (tui_fit_shared_camera(tui))
        return; /* compared panes: one camera */
    for (int i = 0; i < tui->pane_count; i++) {
        TuiPane *pane = &tui->panes[i];
        if (!pane->solver || pane->camera_set)
            continue;
        int width = pane->view ? pane->view->width : 80, height = pane->view ? pane->view->height : 24;
        camera_set_viewport(&pane->camera, width > 0 ? width : 1, height > 0 ? height : 1);
        camera_fit_solver(&pane->camera, pane->solver);
        camera_zoom(&pane->camera, tui->zoom);
    }
}
