/* html.h - a run folder's index.html: the summary's text and tables and
 * every figure, one static page that opens from the file system (no
 * server, no network) for projecting or copying into slides.
 *
 * The page is made from the same Markdown as summary.md (one source for
 * the tables and figures), rendered in memory; it shows no test of itself
 * (tests/e2e/lib.sh checks a copy in a headless browser).
 */
#ifndef SPEEDLAB_HTML_H
#define SPEEDLAB_HTML_H

#include <stddef.h>
#include <stdio.h>

/* A page piece by piece: the head (with its check line), Markdown text
 * (the subset summary.md uses, plus "![caption](file.png)" figures; dir is
 * where SVG twins are looked for), and the tail with the script that
 * counts loaded images and says whether the element with id "headline"
 * is above the fold. */
void sl_html_begin(FILE *f, const char *title);
void sl_html_markdown(FILE *f, const char *md, size_t len, const char *dir);
void sl_html_end(FILE *f);

/* Is this line of a Markdown table ("|---|--:|", up to its newline or
 * end) the separator? Only a table's second line can be: the page and the
 * console (report.c) both ask here, so they drop the same lines. */
int sl_md_separator(const char *line);

/* A whole page at path from Markdown (written atomically), its first
 * table the headline (id "headline"). 0, or -1 with errno. */
int sl_html_page(const char *path, const char *title, const char *md, size_t len,
                 const char *dir);

/* The same, reloading itself every refresh_s seconds (0: never): the
 * room's page (bench/room/page.h). */
int sl_html_page_every(const char *path, const char *title, const char *md, size_t len,
                       const char *dir, int refresh_s);

/* The PNG files in dir, sorted by name, into names[0 .. cap) (each to
 * free). Returns how many, or -1 when dir cannot be read. */
int sl_list_pngs(const char *dir, char **names, int cap);

/* The PNG files that plots/plot.sh will draw from dir's data files
 * (<kind>-<rest>.dat with a data row, or .bin), listed the same way, for a
 * run plotted later (on another machine: the GPU bundle's runs). */
int sl_list_planned_pngs(const char *dir, char **names, int cap);

#endif
