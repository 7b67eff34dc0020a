/* test_docs.c - the documentation's links work in a clone: every relative
 * link in every tracked Markdown file (git ls-files '*.md') names a file or
 * folder that exists, and a link with #anchor into a Markdown file names a
 * heading of that file, by GitHub's rule (lower case, spaces to '-',
 * punctuation dropped, a repeated heading -1, -2 ...). Links inside code
 * (fenced blocks and `spans`) are text, not links. */
#include <criterion/criterion.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <wchar.h>
#include <wctype.h>

enum { MAX_TEXT = 1 << 18, MAX_ANCHORS = 1024, MAX_ANCHOR = 256 };

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *text = malloc(MAX_TEXT);
    cr_assert_not_null(text);
    size_t n = fread(text, 1, MAX_TEXT - 1, f);
    fclose(f);
    text[n] = '\0';
    return text;
}

/* GitHub's anchor of a heading's text: letters and digits lower-cased,
 * '-' and '_' kept, each space a '-', everything else dropped. */
static void heading_anchor(const char *heading, size_t length, char *out, size_t size)
{
    mbstate_t in = {0};
    size_t o = 0;
    for (size_t i = 0; i < length;) {
        wchar_t c;
        size_t n = mbrtowc(&c, heading + i, length - i, &in);
        if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
            i++;
            memset(&in, 0, sizeof in);
            continue;
        }
        i += n;
        if (c == ' ')
            c = L'-';
        else if (iswalnum((wint_t)c))
            c = (wchar_t)towlower((wint_t)c);
        else if (c != L'-' && c != L'_')
            continue;
        char bytes[MB_LEN_MAX];
        mbstate_t outstate = {0};
        size_t m = wcrtomb(bytes, c, &outstate);
        if (m != (size_t)-1 && o + m < size) {
            memcpy(out + o, bytes, m);
            o += m;
        }
    }
    out[o] = '\0';
}

/* The anchors of a Markdown file's ATX headings ('#' to '######'), outside
 * fenced code. Returns how many. */
static int file_anchors(const char *text, char anchors[][MAX_ANCHOR])
{
    int count = 0;
    bool fenced = false;
    for (const char *line = text; *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : line + strlen(line)) {
        size_t length = strcspn(line, "\n");
        if (strncmp(line, "```", 3) == 0)
            fenced = !fenced;
        if (fenced || line[0] != '#')
            continue;
        size_t level = strspn(line, "#");
        if (level > 6 || line[level] != ' ')
            continue;
        const char *heading = line + level + 1;
        size_t heading_length = length - level - 1;
        while (heading_length > 0 && (heading[heading_length - 1] == ' ' || heading[heading_length - 1] == '#'))
            heading_length--;
        char anchor[MAX_ANCHOR];
        heading_anchor(heading, heading_length, anchor, sizeof anchor);
        static char bases[MAX_ANCHORS][MAX_ANCHOR];
        int same = 0;
        for (int k = 0; k < count; k++)
            same += strcmp(bases[k], anchor) == 0;
        cr_assert_lt(count, MAX_ANCHORS);
        snprintf(bases[count], MAX_ANCHOR, "%s", anchor);
        if (same == 0)
            snprintf(anchors[count++], MAX_ANCHOR, "%s", anchor);
        else
            snprintf(anchors[count++], MAX_ANCHOR, "%.200s-%d", anchor, same);
    }
    return count;
}

static bool has_anchor(const char *path, const char *anchor)
{
    char *text = read_text(path);
    if (!text)
        return false;
    static char anchors[MAX_ANCHORS][MAX_ANCHOR];
    int count = file_anchors(text, anchors);
    free(text);
    for (int k = 0; k < count; k++)
        if (strcmp(anchors[k], anchor) == 0)
            return true;
    return false;
}

/* Checks one link target written in the file `md` (a path from the top of
 * the clone) at `line`; returns 1 if it is broken. */
static int check_target(const char *md, int line, const char *target)
{
    if (strstr(target, "://") || strncmp(target, "mailto:", 7) == 0)
        return 0;
    char path[3 * PATH_MAX], file[PATH_MAX];
    const char *hash = strchr(target, '#');
    size_t file_length = hash ? (size_t)(hash - target) : strlen(target);
    /* %20 and the like, as a browser reads them */
    size_t f = 0;
    for (size_t i = 0; i < file_length && f + 1 < sizeof file; i++) {
        unsigned int byte;
        if (target[i] == '%' && i + 2 < file_length && sscanf(target + i + 1, "%2x", &byte) == 1) {
            file[f++] = (char)byte;
            i += 2;
        } else
            file[f++] = target[i];
    }
    file[f] = '\0';
    const char *slash = strrchr(md, '/');
    if (file[0] == '\0')
        snprintf(path, sizeof path, "%s/%s", CLOTHSIM_SRCDIR, md);
    else if (file[0] == '/')
        snprintf(path, sizeof path, "%s%s", CLOTHSIM_SRCDIR, file);
    else
        snprintf(path, sizeof path, "%s/%.*s%s", CLOTHSIM_SRCDIR, slash ? (int)(slash - md + 1) : 0, md, file);
    struct stat st;
    if (stat(path, &st) != 0) {
        cr_log_error("%s:%d: the link %s names %s, which is not there", md, line, target, file);
        return 1;
    }
    size_t path_length = strlen(path);
    if (hash && hash[1] && S_ISREG(st.st_mode) && path_length > 3 && strcmp(path + path_length - 3, ".md") == 0 &&
        !has_anchor(path, hash + 1)) {
        cr_log_error("%s:%d: the link %s: no heading of %s has the anchor #%s", md, line, target, file[0] ? file : md,
                     hash + 1);
        return 1;
    }
    return 0;
}

/* Every inline link and image, [text](target "title"), of a Markdown file,
 * outside code; returns how many are broken, and counts the links seen. */
static int check_file(const char *md, int *links)
{
    char full[2 * PATH_MAX];
    snprintf(full, sizeof full, "%s/%s", CLOTHSIM_SRCDIR, md);
    char *text = read_text(full);
    cr_assert_not_null(text, "cannot read %s", md);
    int broken = 0, line = 1;
    bool fenced = false, code = false;
    for (const char *p = text; *p; p++) {
        if (p == text || p[-1] == '\n') {
            if (p[0] == '\n')
                code = false; /* a code span ends with its paragraph */
            if (strncmp(p, "```", 3) == 0) {
                fenced = !fenced;
                p += strcspn(p, "\n");
                if (!*p)
                    break;
            }
        }
        if (*p == '\n') {
            line++;
            continue;
        }
        if (fenced)
            continue;
        if (*p == '`') {
            code = !code;
            continue;
        }
        if (code || p[0] != ']' || p[1] != '(')
            continue;
        const char *target = p + 2;
        size_t length = strcspn(target, " )\n");
        if (target[length] != ')' && target[length] != ' ')
            continue;
        char copy[PATH_MAX / 2];
        snprintf(copy, sizeof copy, "%.*s", (int)length, target);
        if (copy[0] == '<')
            continue;
        (*links)++;
        broken += check_target(md, line, copy);
    }
    free(text);
    return broken;
}

Test(docs, every_relative_link_in_the_markdown_files_works)
{
    setlocale(LC_CTYPE, "C.UTF-8");
    char command[PATH_MAX + 128];
    snprintf(command, sizeof command,
             "cd '%s' && { git ls-files -- '*.md' 2>/dev/null || find . -name '*.md' ! -path './build/*'; }",
             CLOTHSIM_SRCDIR);
    FILE *list = popen(command, "r");
    cr_assert_not_null(list);
    char md[PATH_MAX];
    int files = 0, links = 0, broken = 0;
    while (fgets(md, sizeof md, list)) {
        md[strcspn(md, "\n")] = '\0';
        const char *name = strncmp(md, "./", 2) == 0 ? md + 2 : md;
        files++;
        broken += check_file(name, &links);
    }
    pclose(list);
    cr_expect_geq(files, 5, "only %d Markdown files found", files);
    cr_expect_geq(links, 20, "only %d links found in %d files: the reader misses links", links, files);
    cr_expect_eq(broken, 0, "%d of %d links in %d Markdown files are broken (above)", broken, links, files);
}

/* The anchor rule itself, on headings of the kind the pages have. */
Test(docs, a_heading_anchor_follows_githubs_rule)
{
    setlocale(LC_CTYPE, "C.UTF-8");
    char anchor[MAX_ANCHOR];
    const char *cases[][2] = {
        {"What the physics promises", "what-the-physics-promises"},
        {"The integrators (`--set integrator=...`)", "the-integrators---set-integrator"},
        {"A class session: everyone on their own screen (`clothsim class`)",
         "a-class-session-everyone-on-their-own-screen-clothsim-class"},
        {"Contact, against seed 003's measurements", "contact-against-seed-003s-measurements"},
        {"Заняття на 45 хвилин", "заняття-на-45-хвилин"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        heading_anchor(cases[k][0], strlen(cases[k][0]), anchor, sizeof anchor);
        cr_expect_str_eq(anchor, cases[k][1], "%s", cases[k][0]);
    }
}
