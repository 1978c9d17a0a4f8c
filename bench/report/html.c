/* html.c - summary.md plus the figures into index.html (html.h).
 *
 * summary.md is written by this program, so the Markdown here is only what
 * it uses: "#" headings, "- " lists, "|" tables (the second row is the
 * alignment row), paragraphs, **bold** and `code`.
 */
#define _DEFAULT_SOURCE
#include "html.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "atomic_file.h"

/* The largest figure list a page shows. */
enum { MAX_FIGURES = 256 };

static const char PAGE_HEAD[] =
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n%s"
    "<title>%s</title>\n<style>\n"
    "body { font-family: sans-serif; margin: 2em auto; max-width: 1100px; "
    "padding: 0 1em; color: #222; }\n"
    "table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }\n"
    "th, td { border: 1px solid #bbb; padding: 0.25em 0.6em; }\n"
    "th { background: #eef; } td.num { text-align: right; }\n"
    "code { background: #f4f4f4; padding: 0 0.2em; }\n"
    "figure { margin: 1.5em 0; } figure img { max-width: 100%%; "
    "border: 1px solid #ddd; }\n"
    "figcaption { font-size: 0.85em; color: #555; }\n"
    "details { margin: 2em 0; } summary { font-size: 1.3em; font-weight: bold; "
    "cursor: pointer; }\n"
    "</style>\n</head>\n<body>\n";

static const char PAGE_TAIL[] = "</body>\n</html>\n";

static void figure_inline(FILE *f, const char *dir, const char *cap, size_t caplen,
                          const char *src, size_t srclen);

/* Text with &, <, > and " escaped; **bold** and `code` as tags; figures
 * (figure_inline) with their SVGs looked for in dir (may be NULL). */
static void inline_text(FILE *f, const char *dir, const char *s, size_t n)
{
    int bold = 0, code = 0;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        const char *close, *end;
        if (!code && ch == '!' && i + 1 < n && s[i + 1] == '[' &&
            (close = memchr(s + i, ']', n - i)) != NULL && close + 1 < s + n &&
            close[1] == '(' && (end = memchr(close, ')', (size_t)(s + n - close))) != NULL) {
            figure_inline(f, dir, s + i + 2, (size_t)(close - (s + i + 2)), close + 2,
                          (size_t)(end - (close + 2)));
            i = (size_t)(end - s);
        } else if (ch == '`') {
            fputs(code ? "</code>" : "<code>", f);
            code = !code;
        } else if (!code && ch == '*' && i + 1 < n && s[i + 1] == '*') {
            fputs(bold ? "</strong>" : "<strong>", f);
            bold = !bold;
            i++;
        } else if (ch == '&') {
            fputs("&amp;", f);
        } else if (ch == '<') {
            fputs("&lt;", f);
        } else if (ch == '>') {
            fputs("&gt;", f);
        } else if (ch == '"') {
            fputs("&quot;", f);
        } else {
            fputc(ch, f);
        }
    }
    if (code)
        fputs("</code>", f);
    if (bold)
        fputs("</strong>", f);
}

/* Does a table cell hold a number (right-aligned)? */
static int numeric_cell(const char *s, size_t n)
{
    return n > 0 && ((s[0] >= '0' && s[0] <= '9') || s[0] == '-' || s[0] == '*' || s[0] == '~') &&
           !(n == 1 && s[0] == '-');
}

/* One "| a | b |" row as <tr>; header rows get <th>. */
static void table_row(FILE *f, const char *dir, const char *line, int header)
{
    fputs("<tr>", f);
    const char *p = line + 1;   /* after the leading '|' */
    for (;;) {
        const char *bar = strchr(p, '|');
        if (bar == NULL)
            break;
        const char *a = p, *b = bar;
        while (a < b && *a == ' ')
            a++;
        while (b > a && b[-1] == ' ')
            b--;
        fputs(header ? "<th>" : numeric_cell(a, (size_t)(b - a)) ? "<td class=\"num\">"
                                                                   : "<td>", f);
        inline_text(f, dir, a, (size_t)(b - a));
        fputs(header ? "</th>" : "</td>", f);
        p = bar + 1;
    }
    fputs("</tr>\n", f);
}

typedef enum { IN_NOTHING, IN_PARA, IN_LIST, IN_TABLE } block;

static void close_block(FILE *f, block *b)
{
    static const char *const end[] = { "", "</p>\n", "</ul>\n", "</table>\n" };
    fputs(end[*b], f);
    *b = IN_NOTHING;
}

/* "![caption](file.png)": a figure, its caption, and the SVG beside it
 * for slides when there is one. */
static void figure_inline(FILE *f, const char *dir, const char *cap, size_t caplen,
                          const char *src, size_t srclen)
{
    fprintf(f, "<figure><img src=\"%.*s\" alt=\"", (int)srclen, src);
    inline_text(f, dir, cap, caplen);
    fputs("\"><figcaption>", f);
    inline_text(f, dir, cap, caplen);
    char svg[512], path[SL_PATH_BUF];
    if (srclen > 4 && strncmp(src + srclen - 4, ".png", 4) == 0 && dir) {
        snprintf(svg, sizeof svg, "%.*s.svg", (int)srclen - 4, src);
        FILE *probe = sl_path_join(path, sizeof path, dir, svg) == 0 ? fopen(path, "r") : NULL;
        if (probe) {
            fclose(probe);
            fprintf(f, " (<a href=\"%s\">SVG for slides</a>)", svg);
        }
    }
    fputs("</figcaption></figure>", f);
}

/* Markdown, line by line, into the page; dir: where figures' SVGs are
 * looked for (may be NULL); table_id: an id for the first table (NULL:
 * none). */
static void markdown_dir(FILE *f, FILE *md, const char *dir, const char *table_id)
{
    char line[8192];
    block b = IN_NOTHING;
    int table_rows = 0;
    while (fgets(line, sizeof line, md)) {
        line[strcspn(line, "\n")] = '\0';
        size_t n = strlen(line);
        if (n == 0) {
            close_block(f, &b);
        } else if (line[0] == '#') {
            close_block(f, &b);
            int level = 0;
            while (line[level] == '#')
                level++;
            const char *text = line + level + (line[level] == ' ');
            fprintf(f, "<h%d>", level);
            inline_text(f, dir, text, strlen(text));
            fprintf(f, "</h%d>\n", level);
        } else if (line[0] == '|') {
            if (b != IN_TABLE) {
                close_block(f, &b);
                fprintf(f, table_id ? "<table id=\"%s\">\n" : "<table>\n", table_id);
                table_id = NULL;
                b = IN_TABLE;
                table_rows = 0;
            }
            if (table_rows != 1 || !sl_md_separator(line))
                table_row(f, dir, line, table_rows == 0);
            table_rows++;
        } else if (line[0] == '-' && line[1] == ' ') {
            if (b != IN_LIST) {
                close_block(f, &b);
                fputs("<ul>\n", f);
                b = IN_LIST;
            }
            fputs("<li>", f);
            inline_text(f, dir, line + 2, n - 2);
            fputs("</li>\n", f);
        } else {
            if (b != IN_PARA) {
                close_block(f, &b);
                fputs("<p>", f);
                b = IN_PARA;
            } else {
                fputc('\n', f);
            }
            inline_text(f, dir, line, n);
        }
    }
    close_block(f, &b);
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether a .dat file has a data row (plot.sh draws nothing without). */
static int has_data_row(const char *dir, const char *file)
{
    char path[SL_PATH_BUF], line[512];
    FILE *f = sl_path_join(path, sizeof path, dir, file) == 0 ? fopen(path, "r") : NULL;
    if (f == NULL)
        return 0;
    int found = 0;
    while (!found && fgets(line, sizeof line, f))
        found = line[0] != '#' && line[strspn(line, " \t\r\n")] != '\0';
    fclose(f);
    return found;
}

/* A PNG itself (planned = 0), or a data file plot.sh makes one from. */
static int figure_file(const char *dir, const char *name, int planned)
{
    size_t len = strlen(name);
    if (name[0] == '.' || len <= 4)
        return 0;
    const char *ext = name + len - 4;
    if (!planned)
        return strcmp(ext, ".png") == 0;
    return (strchr(name, '-') != NULL && strcmp(ext, ".bin") == 0) ||
           (strcmp(ext, ".dat") == 0 && has_data_row(dir, name));
}

/* The figures of dir, sorted, each named as its PNG. */
static int list_figures(const char *dir, char **names, int cap, int planned)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < cap) {
        if (!figure_file(dir, e->d_name, planned) || (names[n] = strdup(e->d_name)) == NULL)
            continue;
        memcpy(names[n++] + strlen(e->d_name) - 4, ".png", 4);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_name);
    return n;
}

int sl_list_pngs(const char *dir, char **names, int cap)
{
    return list_figures(dir, names, cap, 0);
}

int sl_list_planned_pngs(const char *dir, char **names, int cap)
{
    return list_figures(dir, names, cap, 1);
}

int sl_md_separator(const char *line)
{
    return strspn(line, "|-: ") == strcspn(line, "\n");
}

void sl_html_begin(FILE *f, const char *title)
{
    fprintf(f, PAGE_HEAD, "", title);
}

/* Markdown text in memory into the page (markdown_dir). */
static void markdown_text(FILE *f, const char *md, size_t len, const char *dir,
                          const char *table_id)
{
    FILE *in = fmemopen((void *)md, len, "r");
    if (in == NULL)
        return;
    markdown_dir(f, in, dir, table_id);
    fclose(in);
}

void sl_html_markdown(FILE *f, const char *md, size_t len, const char *dir)
{
    markdown_text(f, md, len, dir, NULL);
}

void sl_html_end(FILE *f)
{
    fputs(PAGE_TAIL, f);
}

int sl_html_page(const char *path, const char *title, const char *md, size_t len,
                 const char *dir)
{
    return sl_html_page_every(path, title, md, len, dir, 0);
}

int sl_html_page_every(const char *path, const char *title, const char *md, size_t len,
                       const char *dir, int refresh_s)
{
    sl_atomic_file af;
    if (sl_atomic_open(&af, path) != 0)
        return -1;
    char refresh[64] = "";
    if (refresh_s > 0)
        snprintf(refresh, sizeof refresh, "<meta http-equiv=\"refresh\" content=\"%d\">\n",
                 refresh_s);
    fprintf(af.fp, PAGE_HEAD, refresh, title);
    markdown_text(af.fp, md, len, dir, "headline");
    sl_html_end(af.fp);
    return sl_atomic_commit(&af);
}
