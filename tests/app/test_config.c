/* test_config.c - the lasting display choices in
 * $XDG_CONFIG_HOME/clothsim/config: read, checked with their place, and
 * taken by the sandbox. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/config.h"

static char path[128];

static const char *write_config(const char *text)
{
    snprintf(path, sizeof path, "/tmp/clothsim-config-%d", (int)getpid());
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0);
    return path;
}

Test(config, every_choice_is_read)
{
    DisplayConfig c;
    char err[512] = "";
    cr_assert(config_read(write_config("# a teacher's projector\n\nbackground = light\n  fps=20   # smooth enough\n"
                                       "ascii = yes\nhigh-contrast = on\n"),
                          &c, err, sizeof err),
              "%s", err);
    cr_expect(c.has_background && c.background == BACKGROUND_LIGHT);
    cr_expect(c.has_fps && c.fps == 20);
    cr_expect(c.has_ascii && c.ascii);
    cr_expect(c.has_high_contrast && c.high_contrast);
    cr_assert(config_read(write_config("ascii = no\n"), &c, err, sizeof err));
    cr_expect(c.has_ascii && !c.ascii && !c.has_fps && !c.has_background && !c.has_high_contrast);
    unlink(path);
    cr_expect(config_read(path, &c, err, sizeof err), "no file is no mistake");
    cr_expect(!c.has_ascii && !c.has_fps);
}

Test(config, a_mistake_is_one_line_with_its_place)
{
    static const struct {
        const char *text, *error;
    } cases[] = {
        {"fps = 500\n", ":1:7: fps: '500' is not a whole number from 1 to 240"},
        {"\n  background = grey\n", ":2:16: background: 'grey' is not one of dark, light, auto"},
        {"colour = red\n", ":1:1: unknown setting 'colour' (background, fps, ascii, high-contrast)"},
        {"ascii = maybe\n", ":1:9: ascii: 'maybe' is not yes or no"},
        {"fps 20\n", ":1:1: 'fps 20' is not KEY = VALUE"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        DisplayConfig c;
        char err[512], expected[512];
        cr_expect(!config_read(write_config(cases[k].text), &c, err, sizeof err), "case %zu", k);
        snprintf(expected, sizeof expected, "%s%s", path, cases[k].error);
        cr_expect_str_eq(err, expected, "case %zu", k);
    }
    unlink(path);
}

Test(config, the_file_is_under_xdg_config_home_or_home)
{
    char where[256];
    setenv("XDG_CONFIG_HOME", "/x/conf", 1);
    cr_assert(config_path(where, sizeof where));
    cr_expect_str_eq(where, "/x/conf/clothsim/config");
    unsetenv("XDG_CONFIG_HOME");
    setenv("HOME", "/home/t", 1);
    cr_assert(config_path(where, sizeof where));
    cr_expect_str_eq(where, "/home/t/.config/clothsim/config");
}
