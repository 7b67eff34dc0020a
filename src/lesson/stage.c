/* stage.c - the panes a lesson has open and their settings (see stage.h). */
#include "stage.h"
#include "core/scene.h"
#include "core/text.h"

#include <stdio.h>
#include <string.h>

void stage_init(LessonStage *stage)
{
    memset(stage, 0, sizeof *stage);
    params_default(&stage->base, SCENE_CURTAIN);
}

int stage_find(const LessonStage *stage, const char *name)
{
    for (int i = 0; i < stage->pane_count; i++)
        if (strcmp(stage->names[i], name) == 0)
            return i;
    return -1;
}

bool stage_apply_settings(Params *params, const LessonSetting *settings, int count, char *err, size_t err_size,
                          int *col)
{
    for (int k = 0; k < count; k++) {
        if (strcmp(settings[k].info->name, "scene") == 0) {
            int scene = params_lookup_name(scene_names, settings[k].value);
            if (scene >= 0) {
                params_default(params, (SceneKind)scene);
                continue;
            }
        }
        if (!params_set(params, settings[k].info->name, settings[k].value, err, err_size)) {
            *col = settings[k].col;
            return false;
        }
    }
    if (!scene_validate(params, err, err_size)) {
        *col = count > 0 ? settings[0].col : 1;
        return false;
    }
    return true;
}

bool stage_play(LessonStage *stage, const LessonItem *item, unsigned *changed, char *err, size_t err_size, int *col)
{
    *changed = 0;
    *col = item->col;
    int index = item->pane ? stage_find(stage, item->pane) : -1;
    switch (item->kind) {
    case LESSON_SET:
        if (item->pane) {
            if (index < 0) {
                snprintf(err, err_size, T_("pane '%s' is not open"), item->pane);
                return false;
            }
            /* on a copy, so that a refused line changes nothing */
            Params p = stage->params[index];
            if (!stage_apply_settings(&p, item->settings, item->setting_count, err, err_size, col))
                return false;
            stage->params[index] = p;
            *changed = 1u << index;
            return true;
        } else {
            Params p = stage->base;
            if (!stage_apply_settings(&p, item->settings, item->setting_count, err, err_size, col))
                return false;
            Params panes[LESSON_MAX_PANES];
            for (int i = 0; i < stage->pane_count; i++) {
                panes[i] = stage->params[i];
                if (!stage_apply_settings(&panes[i], item->settings, item->setting_count, err, err_size, col)) {
                    char inner[TEXT_MESSAGE_SIZE];
                    snprintf(inner, sizeof inner, "%s", err);
                    snprintf(err, err_size, T_("in pane '%s': %s"), stage->names[i], inner);
                    return false;
                }
            }
            stage->base = p;
            for (int i = 0; i < stage->pane_count; i++)
                stage->params[i] = panes[i];
            *changed = (1u << LESSON_MAX_PANES) | ((1u << stage->pane_count) - 1u);
            return true;
        }
    case LESSON_PANE: {
        if (index >= 0) {
            snprintf(err, err_size, T_("pane '%s' is already open"), item->pane);
            return false;
        }
        if (stage->pane_count == LESSON_MAX_PANES) {
            snprintf(err, err_size, T_("too many panes: %d are open already (close one first)"), LESSON_MAX_PANES);
            return false;
        }
        Params p = stage->base;
        if (!stage_apply_settings(&p, item->settings, item->setting_count, err, err_size, col))
            return false;
        int i = stage->pane_count++;
        stage->names[i] = item->pane;
        stage->labels[i] = item->text;
        stage->params[i] = p;
        *changed = 1u << i;
        return true;
    }
    case LESSON_CLOSE:
    case LESSON_LABEL:
        if (index < 0) {
            snprintf(err, err_size, T_("pane '%s' is not open"), item->pane);
            return false;
        }
        if (item->kind == LESSON_LABEL) {
            stage->labels[index] = item->text;
            return true;
        }
        for (int i = index; i + 1 < stage->pane_count; i++) {
            stage->names[i] = stage->names[i + 1];
            stage->labels[i] = stage->labels[i + 1];
            stage->params[i] = stage->params[i + 1];
        }
        stage->pane_count--;
        return true;
    default:
        return true;
    }
}
