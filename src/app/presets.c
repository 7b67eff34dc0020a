/* presets.c - the three ready comparisons (presets.h).
 *
 * Each is the scene of the lesson that teaches the contrast, so that what
 * the sandbox shows at a key is what `clothsim check --run` measures there:
 *   euler-verlet  lesson 02: Hooke springs, dt 1/60 s in 70 substeps, no
 *                 sphere. Euler shivers, then flies apart at t = 2.64 s;
 *                 Verlet hangs (max strain under 2 %).
 *   iterations    lesson 05: a ribbon 1.5 m long, 12 x 90 particles, one
 *                 substep, Jakobsen relaxation. After 4 s the mean strain is
 *                 93 %, 13 % and 3.8 % with 2, 10 and 40 passes: the
 *                 2-pass ribbon hangs far longer, in one camera (redder too
 *                 where the pane is wide: at 80x24 the ribbon is two cells
 *                 wide and its unstretched cross links colour most cells).
 *   tearing       lesson 10: the curtain hit by a sphere every 0.6 s, tear
 *                 limit 0.2. Naive tearing has torn 299 links after 6 s,
 *                 hysteresis (hold 4 steps) none.
 */
#include "presets.h"

#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "core/scene.h"
#include "core/text.h"

const Preset presets[] = {
    {"euler-verlet", 'e', N_("Euler against Verlet"),
     N_("same springs, same step: Euler flies apart within seconds, Verlet holds"), SCENE_CURTAIN,
     "substeps=70 collider=none", "integrator=euler,verlet", RENDER_STRAIN, false, 1.0f},
    {"iterations", 'i', N_("2, 10 and 40 passes"), N_("the same ribbon: the fewer passes, the longer it hangs"),
     SCENE_CURTAIN, "cols=12 rows=90 spacing=0.0167 collider=none wind_z=0 turbulence=0 substeps=1 integrator=jakobsen",
     "iterations=2,10,40", RENDER_STRAIN, true, 0.45f},
    {"tearing", 'T', N_("naive against hysteresis tearing"),
     N_("a sphere strikes every 0.6 s: naive tearing shreds, hysteresis holds"), SCENE_CURTAIN,
     "sphere_period=0.6 tear_limit=0.2", "tear=naive,hysteresis", RENDER_SHADED, true, 1.3f},
};
const int preset_count = (int)(sizeof presets / sizeof presets[0]);

const Preset *preset_find(const char *name)
{
    for (int k = 0; k < preset_count; k++)
        if (strcmp(presets[k].name, name) == 0)
            return &presets[k];
    return NULL;
}

const Preset *preset_for_key(int key)
{
    for (int k = 0; k < preset_count; k++)
        if (presets[k].key == key)
            return &presets[k];
    return NULL;
}

const char *preset_suggest(const char *name)
{
    const char *names[8];
    for (int k = 0; k < preset_count; k++)
        names[k] = presets[k].name;
    return text_suggest(name, names, preset_count);
}

void preset_names(char *out, size_t out_size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int k = 0; k < preset_count && used < out_size; k++)
        used += (size_t)snprintf(out + used, out_size - used, "%s%s", k ? ", " : "", presets[k].name);
}

/* Each space-separated KEY=VALUE of list into params. */
static bool assign_list(Params *params, const char *list, char *err, size_t err_size)
{
    char word[128];
    while (*list) {
        while (*list == ' ')
            list++;
        size_t n = strcspn(list, " ");
        if (n == 0)
            break;
        snprintf(word, sizeof word, "%.*s", (int)n, list);
        if (!params_assign(params, word, err, err_size))
            return false;
        list += n;
    }
    return true;
}

bool preset_params(const Preset *preset, Params *out, char *err, size_t err_size)
{
    params_default(out, preset->scene);
    return assign_list(out, preset->settings, err, err_size) && scene_validate(out, err, err_size);
}

int preset_values(const Preset *preset, char *key, size_t key_size, char values[][64], int max)
{
    const char *equals = strchr(preset->compare, '=');
    snprintf(key, key_size, "%.*s", (int)(equals - preset->compare), preset->compare);
    int count = 0;
    const char *p = equals + 1;
    while (*p && count < max) {
        size_t n = strcspn(p, ",");
        snprintf(values[count++], 64, "%.*s", (int)n, p);
        p += n;
        if (*p == ',')
            p++;
    }
    return count;
}
