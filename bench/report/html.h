/* html.h - a run folder's index.html: the summary's text and tables and
 * every figure, one static page that opens from the file system (no
 * server, no network) for projecting or copying into slides.
 *
 * The page is made from summary.md (one source for the tables) and the
 * PNG files that are in the folder when it is written, so it shows only
 * figures that exist. A small script on the page counts the images that
 * loaded and says so at the top (tests/e2e/lib.sh reads that line in a
 * headless browser).
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

/* The PNG files in dir, sorted by name, into names[0 .. cap) (each to
 * free). Returns how many, or -1 when dir cannot be read. */
int sl_list_pngs(const char *dir, char **names, int cap);

/* The PNG files that plots/plot.sh will draw from dir's data files
 * (<kind>-<rest>.dat with a data row, or .bin), listed the same way, for a
 * run plotted later (on another machine: the GPU bundle's runs). */
int sl_list_planned_pngs(const char *dir, char **names, int cap);

/* Write index.html in dir from its summary.md and PNG files. Returns 0, or -1
 * with errno set. */
int sl_write_html(const char *dir, const char *title);

#endif
