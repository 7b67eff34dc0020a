/* budget.h - what a lesson may cost to play (the LESSON_BUDGET_ limits of
 * lesson.h); budget.c says how it is counted. */
#ifndef CLOTHSIM_LESSON_BUDGET_H
#define CLOTHSIM_LESSON_BUDGET_H

#include <stdbool.h>
#include <stddef.h>

#include "lesson.h"

/* Walks a parsed lesson as the player would and adds up what it costs
 * (the LESSON_BUDGET_ limits). False with "name:line:col: over the lesson's
 * budget: ..." naming the command that goes over. lesson_parse_buffer calls
 * it once, after parsing. */
bool lesson_check_budget(const Lesson *lesson, char *err, size_t err_size);

#endif
