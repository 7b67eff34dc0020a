/* test_completion.c - the bash completion file (src/completion/clothsim.bash)
 * completes commands, scenes, --set keys and lesson files from what the
 * binary itself lists; and the man page is where make install takes it. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What bash's completion offers for the words given (the last is the one
 * being completed), space-separated, run in the source folder. */
static const char *complete(const char *words)
{
    static char out[8192];
    char command[2048];
    snprintf(command, sizeof command,
             "cd '%s' && bash --norc --noprofile -c 'source src/completion/clothsim.bash; "
             "COMP_WORDS=(%s); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _clothsim; "
             "echo \" ${COMPREPLY[*]} \"' 2>&1",
             CLOTHSIM_SRCDIR, words);
    out[0] = '\0';
    FILE *f = popen(command, "r");
    cr_assert(f, "cannot run bash");
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = '\0';
    pclose(f);
    return out;
}

#define WORDS(...) "\"" CLOTHSIM_BIN "\" " __VA_ARGS__

Test(completion, commands_scenes_keys_and_lessons)
{
    if (system("bash --version >/dev/null 2>&1") != 0)
        cr_skip_test("bash is not installed");
    const char *got = complete(WORDS("\"\""));
    cr_expect(strstr(got, " run ") && strstr(got, " learn ") && strstr(got, " params "), "commands: %s", got);
    got = complete(WORDS("--scene \"\""));
    cr_expect(strstr(got, " curtain ") && strstr(got, " flag ") && strstr(got, " net "), "scenes: %s", got);
    got = complete(WORDS("--set gra"));
    cr_expect(strstr(got, " gravity= ") != NULL, "--set keys: %s", got);
    got = complete(WORDS("run --set wind"));
    cr_expect(strstr(got, " wind_x= ") != NULL, "--set keys after run: %s", got);
    got = complete(WORDS("--set w"));
    cr_expect(strstr(got, " wind_x= ") && !strstr(got, " which="), "--set keys, not words of their meaning: %s", got);
    got = complete(WORDS("lessons/01"));
    cr_expect(strstr(got, " lessons/01-meet-the-cloth.lesson ") != NULL, "lesson files: %s", got);
    got = complete(WORDS("--preset it"));
    cr_expect(strstr(got, " iterations ") != NULL, "presets: %s", got);
    got = complete(WORDS("--pre"));
    cr_expect(strstr(got, " --preset ") != NULL, "the sandbox's options: %s", got);
    got = complete(WORDS("run --st"));
    cr_expect(strstr(got, " --steps ") != NULL, "run's options: %s", got);
}

Test(completion, background_and_its_values)
{
    if (system("bash --version >/dev/null 2>&1") != 0)
        cr_skip_test("bash is not installed");
    const char *got = complete(WORDS("--back"));
    cr_expect(strstr(got, " --background ") != NULL, "the sandbox's options: %s", got);
    got = complete(WORDS("learn --"));
    cr_expect(strstr(got, " --background ") && strstr(got, " --fps ") && strstr(got, " --ascii "),
              "learn's options: %s", got);
    got = complete(WORDS("--background \"\""));
    cr_expect(strstr(got, " dark ") && strstr(got, " light ") && strstr(got, " auto "), "its values: %s", got);
    got = complete(WORDS("learn --background l"));
    cr_expect_str_eq(got, " light \n");
}

Test(completion, the_teachers_options)
{
    if (system("bash --version >/dev/null 2>&1") != 0)
        cr_skip_test("bash is not installed");
    const char *got = complete(WORDS("learn --t"));
    cr_expect_str_eq(got, " --teacher \n");
    got = complete(WORDS("lessons/01-meet-the-cloth.lesson --t"));
    cr_expect_str_eq(got, " --teacher \n", "a lesson file takes learn's options");
    got = complete(WORDS("progress --csv --a"));
    cr_expect_str_eq(got, " --answers \n");
    got = complete(WORDS("hand"));
    cr_expect_str_eq(got, " handout \n");
    got = complete(WORDS("handout lessons/02"));
    cr_expect(strstr(got, " lessons/02-euler-vs-verlet.lesson ") != NULL, "handout's lesson files: %s", got);
    got = complete(WORDS("handout lessons/02-euler-vs-verlet.lesson --t"));
    cr_expect_str_eq(got, " --teacher \n");
}

/* The man page renders in any locale (a Cyrillic letter was lost in the C
 * locale: it is ASCII only) and gives its date as mandoc reads it. */
Test(completion, the_man_page_is_ascii_with_an_iso_date)
{
    FILE *f = fopen(CLOTHSIM_SRCDIR "/src/clothsim.1", "r");
    cr_assert_not_null(f);
    static char text[1 << 17];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    int line = 1;
    for (size_t i = 0; i < n; i++) {
        line += text[i] == '\n';
        cr_expect((unsigned char)text[i] < 0x80, "line %d: a byte not ASCII (0x%02x)", line, (unsigned char)text[i]);
    }
    int year, month, day;
    cr_expect(sscanf(text, ".TH CLOTHSIM 1 %4d-%2d-%2d ", &year, &month, &day) == 3 && month >= 1 && month <= 12 &&
                  day >= 1 && day <= 31,
              "the date is not YYYY-MM-DD: %.60s", text);
}

Test(completion, the_man_page_and_the_completion_are_under_src)
{
    cr_expect_eq(access(CLOTHSIM_SRCDIR "/src/clothsim.1", R_OK), 0, "no src/clothsim.1");
    cr_expect_neq(access(CLOTHSIM_SRCDIR "/clothsim.1", F_OK), 0, "a man page is left at the top level");
    cr_expect_eq(access(CLOTHSIM_SRCDIR "/src/completion/clothsim.bash", R_OK), 0);
}

/* bash splits a word at "=": "--set integrator=ve" comes as --set,
 * integrator, =, ve; the values come from clothsim params. */
Test(completion, values_after_an_equals_sign)
{
    if (system("bash --version >/dev/null 2>&1") != 0)
        cr_skip_test("bash is not installed");
    const char *got = complete(WORDS("--set integrator = \"\""));
    cr_expect(strstr(got, " euler ") && strstr(got, " verlet ") && strstr(got, " implicit "), "integrators: %s", got);
    got = complete(WORDS("run --set integrator = ve"));
    cr_expect_str_eq(got, " verlet \n");
    got = complete(WORDS("--set material = \"\""));
    cr_expect(strstr(got, " silk ") && strstr(got, " rubber "), "materials: %s", got);
    got = complete(WORDS("--set order = j"));
    cr_expect_str_eq(got, " jacobi \n");
    got = complete(WORDS("--background = l"));
    cr_expect_str_eq(got, " light \n");
    got = complete(WORDS("--set gravity = \"\""));
    cr_expect_str_eq(got, "  \n", "a number: nothing to offer");
}
