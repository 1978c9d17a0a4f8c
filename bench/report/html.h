/* html.h - a run folder's index.html: the summary's text and tables and
 * every figure, one static page that opens from the file system (no
 * server, no network) for projecting or copying into slides.
 *
 * The page is made from summary.md (one source for the tables) and the
 * PNG files that are in the folder when it is written, so it shows only
 * figures that exist. A small script on the page counts the images that
 * loaded and says so at the top (tests/e2e.sh reads that line in a
 * headless browser).
 */
#ifndef SPEEDLAB_HTML_H
#define SPEEDLAB_HTML_H

/* Write index.html in dir from its summary.md and PNG files. Returns 0, or -1
 * with errno set. */
int sl_write_html(const char *dir, const char *title);

#endif
