/* test_colours.c - the colours the terminal shows for each palette entry
 * (app/colours.c) are readable on a dark and on a light background, and
 * what a terminal says of its background is read right.
 *
 * Contrast is computed here with WCAG 2's formula (relative luminance of
 * sRGB, (L1 + 0.05) / (L2 + 0.05)) from xterm's own colours: its 16 as
 * xterm's defaults set them (and as a screenshot of xterm 379 under Xvfb
 * shows them), its 6 x 6 x 6 cube and grey ramp. xterm draws a bold cell of
 * colour 0..7 in 8..15 (boldColors), so bold is checked too. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app/colours.h"

static const uint32_t xterm_16[16] = {
    0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
    0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
};

static uint32_t xterm_rgb(int index)
{
    if (index < 16)
        return xterm_16[index];
    if (index >= 232) {
        uint32_t grey = (uint32_t)(8 + 10 * (index - 232));
        return grey << 16 | grey << 8 | grey;
    }
    static const uint32_t level[6] = {0, 95, 135, 175, 215, 255};
    int i = index - 16;
    return level[i / 36] << 16 | level[(i / 6) % 6] << 8 | level[i % 6];
}

static double linear(uint32_t channel)
{
    double c = channel / 255.0;
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static double luminance(uint32_t rgb)
{
    return 0.2126 * linear(rgb >> 16 & 0xFF) + 0.7152 * linear(rgb >> 8 & 0xFF) + 0.0722 * linear(rgb & 0xFF);
}

static double contrast(uint32_t a, uint32_t b)
{
    double la = luminance(a), lb = luminance(b);
    return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

/* The colour xterm shows for entry, drawn bold or not. */
static uint32_t shown(TermColour c, int colours, bool bold)
{
    cr_assert_geq(c.colour, 0);
    cr_assert_lt(c.colour, colours >= 256 ? 256 : colours, "colour %d on a %d-colour terminal", c.colour, colours);
    int index = c.colour;
    if ((bold || c.bold) && !c.drop_bold && index < 8)
        index += 8;
    return xterm_rgb(index);
}

static const uint32_t background_rgb[PALETTE_BACKGROUND_COUNT] = {0x000000, 0xffffff};
static const char *const background_label[PALETTE_BACKGROUND_COUNT] = {"dark", "light"};
static const int depths[3] = {8, 16, 256};

/* the entries drawn as text: hints, titles and keys, the exploded banner
 * (reverse video: the same pair of colours) and a broken lesson's mark */
static const int text_roles[] = {PALETTE_DIM, PALETTE_HIGHLIGHT, PALETTE_STRAIN_WARN};

Test(colours, the_formula_gives_wcags_known_ratios)
{
    cr_expect_float_eq(contrast(0x000000, 0xffffff), 21.0, 1e-9);
    cr_expect_float_eq(contrast(0x777777, 0xffffff), 4.48, 0.01); /* the famous just-too-light grey */
    cr_expect_float_eq(contrast(0xffd700, 0xffffff), 1.40, 0.01); /* the gold title, issue 13 */
    cr_expect_eq(xterm_rgb(220), 0xffd700);
    cr_expect_eq(xterm_rgb(244), 0x808080);
}

Test(colours, every_text_colour_reads_on_its_background_in_every_variant)
{
    for (int bg = 0; bg < PALETTE_BACKGROUND_COUNT; bg++)
        for (int hc = 0; hc < 2; hc++)
            for (int d = 0; d < 3; d++)
                for (size_t r = 0; r < sizeof text_roles / sizeof text_roles[0]; r++)
                    for (int bold = 0; bold < 2; bold++) {
                        int role = text_roles[r];
                        TermColour c = colours_map(role, depths[d], (PaletteBackground)bg, hc);
                        uint32_t rgb = shown(c, depths[d], bold);
                        double ratio = contrast(rgb, background_rgb[bg]);
                        /* high contrast asks WCAG's enhanced 7:1 where 256 colours allow it */
                        double least = hc && depths[d] == 256 ? 7.0 : 4.5;
                        cr_expect_geq(ratio, least, "%s on %s, %d colours%s%s: %06x is %.2f:1", palette_names[role],
                                      background_label[bg], depths[d], hc ? ", high contrast" : "",
                                      bold ? ", bold" : "", rgb, ratio);
                        cr_expect(!c.dim, "%s is dimmed: faint text may vanish", palette_names[role]);
                    }
}

Test(colours, body_text_is_the_terminals_own_colour)
{
    for (int bg = 0; bg < PALETTE_BACKGROUND_COUNT; bg++)
        for (int d = 0; d < 3; d++) {
            cr_expect_eq(colours_map(PALETTE_TEXT, depths[d], (PaletteBackground)bg, false).colour, -1);
            cr_expect_eq(colours_map(PALETTE_DEFAULT, depths[d], (PaletteBackground)bg, true).colour, -1);
        }
}

/* On white the cloth must not be pale: each shade is seen (2:1 and more),
 * the ramp goes away from the background step by step, and lit faces read
 * like text. Lines, points and plots: WCAG's 3:1 for graphics. */
Test(colours, the_cloth_and_the_lines_are_seen_on_white)
{
    const uint32_t white = 0xffffff;
    for (int hc = 0; hc < 2; hc++) {
        for (int first = PALETTE_FRONT_0; first <= PALETTE_BACK_0; first += PALETTE_SHADES) {
            double previous = 0.0;
            for (int k = 0; k < PALETTE_SHADES; k++) {
                uint32_t rgb = shown(colours_map(first + k, 256, PALETTE_ON_LIGHT, hc), 256, false);
                double ratio = contrast(rgb, white);
                cr_expect_geq(ratio, 2.0, "%s: %06x is %.2f:1 on white", palette_names[first + k], rgb, ratio);
                cr_expect_gt(ratio, previous, "%s is no farther from white than the shade before",
                             palette_names[first + k]);
                previous = ratio;
            }
            cr_expect_geq(previous, 4.5, "the lit %s shade is %.2f:1", palette_names[first], previous);
        }
        const int lines[] = {PALETTE_STRUCTURAL, PALETTE_SHEAR,     PALETTE_BEND,     PALETTE_STRAIN_0,
                             PALETTE_STRAIN_1,   PALETTE_STRAIN_2,  PALETTE_STRAIN_3, PALETTE_STRAIN_4,
                             PALETTE_STRAIN_5,   PALETTE_POINT,     PALETTE_PIN,      PALETTE_FLOOR,
                             PALETTE_COLLIDER_2, PALETTE_COLLIDER_3};
        for (size_t k = 0; k < sizeof lines / sizeof lines[0]; k++) {
            uint32_t rgb = shown(colours_map(lines[k], 256, PALETTE_ON_LIGHT, hc), 256, false);
            cr_expect_geq(contrast(rgb, white), 3.0, "%s: %06x is %.2f:1 on white", palette_names[lines[k]], rgb,
                          contrast(rgb, white));
        }
    }
    /* 8 and 16 colours: the cloth's two sides stay apart from white too */
    for (int d = 0; d < 2; d++)
        for (int k = PALETTE_FRONT_0; k <= PALETTE_BACK_5; k++)
            for (int bold = 0; bold < 2; bold++) {
                uint32_t rgb = shown(colours_map(k, depths[d], PALETTE_ON_LIGHT, false), depths[d], bold);
                cr_expect_geq(contrast(rgb, white), 3.0, "%s in %d colours: %06x", palette_names[k], depths[d], rgb);
            }
}

/* On black the cloth keeps WCAG's 3:1 for graphics in every shade (its
 * darkest went to the grey ramp at 1.2:1, a smudge on dark themes), its
 * two sides keep their hues, and the ramp goes away from black step by step. */
Test(colours, the_cloth_is_seen_on_black)
{
    const uint32_t black = 0x000000;
    for (int first = PALETTE_FRONT_0; first <= PALETTE_BACK_0; first += PALETTE_SHADES) {
        double previous = 0.0;
        for (int k = 0; k < PALETTE_SHADES; k++) {
            uint32_t rgb = shown(colours_map(first + k, 256, PALETTE_ON_DARK, false), 256, false);
            double ratio = contrast(rgb, black);
            cr_expect_geq(ratio, 3.0, "%s: %06x is %.2f:1 on black", palette_names[first + k], rgb, ratio);
            cr_expect_gt(ratio, previous, "%s is no farther from black than the shade before",
                         palette_names[first + k]);
            previous = ratio;
            int r = (int)(rgb >> 16 & 0xFF), b = (int)(rgb & 0xFF);
            if (first == PALETTE_FRONT_0)
                cr_expect_gt(r, b, "%s: %06x is not warm", palette_names[first + k], rgb);
            else
                cr_expect_gt(b, r, "%s: %06x is not cool", palette_names[first + k], rgb);
        }
    }
    /* 8 and 16 colours: no dim shade (a dark theme shows it at 1.5:1) */
    for (int d = 0; d < 2; d++)
        for (int k = PALETTE_FRONT_0; k <= PALETTE_BACK_5; k++) {
            TermColour c = colours_map(k, depths[d], PALETTE_ON_DARK, false);
            cr_expect(!c.dim, "%s is dimmed in %d colours", palette_names[k], depths[d]);
            uint32_t rgb = shown(c, depths[d], false);
            cr_expect_geq(contrast(rgb, black), 3.0, "%s in %d colours: %06x", palette_names[k], depths[d], rgb);
        }
}

/* 8 and 16 colours on white: xterm's yellow (cdcd00, 1.7:1) and bright
 * yellow (1.07:1) are not used, and a link about to tear is told from the
 * top of the strain ramp */
Test(colours, basic_colours_on_white_use_no_yellow_and_keep_the_warning_apart)
{
    for (int d = 0; d < 2; d++)
        for (int hc = 0; hc < 2; hc++) {
            for (int k = 1; k < PALETTE_COUNT; k++) {
                TermColour c = colours_map(k, depths[d], PALETTE_ON_LIGHT, hc);
                cr_expect(c.colour != 3 && c.colour != 11, "%s is yellow in %d colours", palette_names[k], depths[d]);
            }
            for (int k = PALETTE_STRAIN_0; k < PALETTE_STRAIN_WARN; k++)
                cr_expect_neq(colours_map(k, depths[d], PALETTE_ON_LIGHT, hc).colour,
                              colours_map(PALETTE_STRAIN_WARN, depths[d], PALETTE_ON_LIGHT, hc).colour,
                              "%s looks like strain_warn in %d colours", palette_names[k], depths[d]);
        }
}

Test(colours, the_dark_palette_is_what_it_was)
{
    /* the dark background keeps its colours: gold title, grey hints, magenta warning */
    cr_expect_eq(colours_map(PALETTE_HIGHLIGHT, 256, PALETTE_ON_DARK, false).colour, 220);
    cr_expect_eq(colours_map(PALETTE_DIM, 256, PALETTE_ON_DARK, false).colour, 244);
    cr_expect_eq(colours_map(PALETTE_STRAIN_WARN, 256, PALETTE_ON_DARK, false).colour, 201);
    TermColour gold = colours_map(PALETTE_HIGHLIGHT, 8, PALETTE_ON_DARK, false);
    cr_expect(gold.colour == 3 && gold.bold && !gold.drop_bold);
}

/* ---------------------------------------------------------------- COLORFGBG */

static int colorfgbg(const char *value)
{
    PaletteBackground background = (PaletteBackground)-1;
    return colours_parse_colorfgbg(value, &background) ? (int)background : -1;
}

Test(colours, colorfgbg_names_the_background_by_its_last_field)
{
    cr_expect_eq(colorfgbg("0;15"), PALETTE_ON_LIGHT);
    cr_expect_eq(colorfgbg("15;0"), PALETTE_ON_DARK);
    cr_expect_eq(colorfgbg("0;7"), PALETTE_ON_LIGHT);
    cr_expect_eq(colorfgbg("7;8"), PALETTE_ON_DARK);
    cr_expect_eq(colorfgbg("12;11"), PALETTE_ON_LIGHT);
    cr_expect_eq(colorfgbg("0;default;15"), PALETTE_ON_LIGHT); /* rxvt's three fields */
    cr_expect_eq(colorfgbg("default;default;0"), PALETTE_ON_DARK);
}

Test(colours, colorfgbg_that_says_nothing_clear_is_ignored)
{
    const char *bad[] = {"",      "15",   ";15",  "15;",   "0;default", "0;16",  "0;150", "0;x",
                         "0;1 5", "0;-1", "a;15", "0;15;", "0;;15",     "0;15x", "0; 15"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        cr_expect_eq(colorfgbg(bad[k]), -1, "COLORFGBG='%s' taken", bad[k]);
    cr_expect_eq(colorfgbg(NULL), -1);
}

/* ---------------------------------------------------------------- OSC 11 */

static long osc11(const char *reply)
{
    uint32_t rgb = 0x123456;
    if (!colours_parse_osc11(reply, strlen(reply), &rgb)) {
        cr_expect_eq(rgb, 0x123456, "changed on failure");
        return -1;
    }
    return (long)rgb;
}

Test(colours, an_osc_11_reply_gives_the_colour)
{
    cr_expect_eq(osc11("\033]11;rgb:ffff/ffff/ffff\033\\"), 0xffffff);
    cr_expect_eq(osc11("\033]11;rgb:0000/0000/0000\a"), 0x000000);
    cr_expect_eq(osc11("\033]11;rgb:fdf6/e3e3/0000\033\\"), 0xfde300); /* 16 bits a channel, top byte */
    cr_expect_eq(osc11("\033]11;rgb:ff/80/00\a"), 0xff8000);
    cr_expect_eq(osc11("\033]11;rgb:f/8/0\a"), 0xff8800); /* one digit: 8/15 of full */
    cr_expect_eq(osc11("\033]11;rgba:ffff/ffff/ffff/ffff\033\\"), 0xffffff);
    /* among other replies and keys: the DA1 answer after it, a key before */
    cr_expect_eq(osc11("q\033]11;rgb:2020/2020/2020\033\\\033[?64;1;2;6c"), 0x202020);
}

Test(colours, a_malformed_osc_11_reply_is_refused)
{
    const char *bad[] = {
        "",
        "\033[?1;2c",                        /* only the DA1 answer: no OSC 11 */
        "\033]11;rgb:ffff/ffff/ffff",        /* cut before its end */
        "\033]11;rgb:ffff/ffff\033\\",       /* two channels */
        "\033]11;rgb:fffff/ffff/ffff\033\\", /* five digits */
        "\033]11;rgb:/ffff/ffff\033\\",      /* an empty channel */
        "\033]11;rgb:gggg/ffff/ffff\033\\",  /* not hex */
        "\033]11;#ffffff\033\\",             /* not the rgb: form */
        "\033]10;rgb:ffff/ffff/ffff\033\\",  /* the foreground, not the background */
        "\033]11;?\033\\",                   /* the query echoed back */
        "\033]11;rgb:ffff/ffff/ffff/ffff\a", /* a fourth channel without rgba */
        "]11;rgb:ffff/ffff/ffff\a",          /* no ESC */
        "\033]11;rgb:ffff/ffff/ffff\033",    /* half a string terminator */
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        cr_expect_eq(osc11(bad[k]), -1, "reply %zu taken", k);
}

Test(colours, light_and_dark_backgrounds_are_told_apart_by_luminance)
{
    cr_expect_eq(colours_background_of(0xffffff), PALETTE_ON_LIGHT);
    cr_expect_eq(colours_background_of(0xfdf6e3), PALETTE_ON_LIGHT); /* Solarized light */
    cr_expect_eq(colours_background_of(0xcccccc), PALETTE_ON_LIGHT);
    cr_expect_eq(colours_background_of(0x000000), PALETTE_ON_DARK);
    cr_expect_eq(colours_background_of(0x002b36), PALETTE_ON_DARK); /* Solarized dark */
    cr_expect_eq(colours_background_of(0x300a24), PALETTE_ON_DARK); /* Ubuntu's aubergine */
    cr_expect_eq(colours_background_of(0x555555), PALETTE_ON_DARK);
}
