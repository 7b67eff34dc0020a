/* tui_camera.h - how the panes are framed (tui_camera.c). */
#ifndef CLOTHSIM_TUI_CAMERA_H
#define CLOTHSIM_TUI_CAMERA_H

#include "tui_state.h"

/* Every pane's camera fitted to its cloth, or a comparison's to them all
 * (tui_fit_shared_camera); a camera a lesson places is left. */
void tui_fit_cameras(Tui *tui);
/* The panes of a comparison framed by one camera (camera_fit_solvers), as
 * the preset shown wants it; false when there is no comparison to frame. */
bool tui_fit_shared_camera(Tui *tui);

#endif
