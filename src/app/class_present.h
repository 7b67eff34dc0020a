/* class_present.h - the presenter's screen, as curses drew it, sent to a
 * class's watchers (class_present.c; the frames' lines: class_link.h). */
#ifndef CLOTHSIM_CLASS_PRESENT_H
#define CLOTHSIM_CLASS_PRESENT_H

#include "class_link.h"

/* The screen as drawn, sent to the class's watchers when link presents;
 * now: monotonic s. Nothing without a link or when it does not present. */
void class_present_screen(ClassLink *link, double now);

#endif
