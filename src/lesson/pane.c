/* pane.c - what a played pane shows beyond its cloth: the links the passes
 * moved, the last particle's trace (see pane.h). */
#include "pane.h"

const uint8_t *lesson_pane_marks(const LessonPane *pane)
{
    const Solver *s = pane->solver;
    if (!pane->view.marks || !pane->marked || pane->marks_substep < 0 || s->phase != PHASE_RELAXING ||
        s->step != pane->marks_step || s->substep != pane->marks_substep)
        return NULL;
    return pane->marked;
}

const float *lesson_pane_trace(const LessonPane *pane, int *count)
{
    *count = 0;
    if (!pane->view.trace || pane->trace_count < 2)
        return NULL;
    *count = pane->trace_count;
    /* the newest trace_count points end just before trace_next + LESSON_TRACE_POINTS */
    return pane->trace + 3 * (pane->trace_next + LESSON_TRACE_POINTS - pane->trace_count);
}
