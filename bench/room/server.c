/* server.c - the room server (server.h). */
#define _DEFAULT_SOURCE
#include "server.h"

#include <ctype.h>
#include <dirent.h>
#include <microhttpd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "args.h"
#include "page.h"
#include "results.h"

int sl_room_allow(sl_room_limit *l, const char *nickname, double now)
{
    size_t i = 0;
    while (i < l->n && strcmp(l->b[i].nickname, nickname) != 0)
        i++;
    if (i == l->n) {
        if (l->n == sizeof l->b / sizeof l->b[0])
            return 0;            /* more names than a room has: a flood */
        l->n++;
        snprintf(l->b[i].nickname, sizeof l->b[i].nickname, "%s", nickname);
        l->b[i].tokens = SL_ROOM_BURST, l->b[i].at = now;
    }
    sl_room_bucket *b = &l->b[i];
    b->tokens += (now - b->at) / SL_ROOM_REFILL_S;
    b->tokens = b->tokens > SL_ROOM_BURST ? SL_ROOM_BURST : b->tokens;
    b->at = now;
    if (b->tokens < 1.0)
        return 0;
    b->tokens -= 1.0;
    return 1;
}

int sl_room_code_ok(const char *code)
{
    size_t n = strlen(code);
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)code[i]))
            return 0;
    return n >= 4 && n <= 32;
}

void sl_room_shipped(sl_room_server *s, const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char sub[SL_PATH_BUF], path[SL_PATH_BUF];
        DIR *k = sl_path_join(sub, sizeof sub, dir, e->d_name) == 0 ? opendir(sub) : NULL;
        struct dirent *f;
        while (k && s->nshipped < SL_ROOM_MAX_SHIPPED && (f = readdir(k)) != NULL) {
            char hash[24];
            if (f->d_name[0] != '.' && sl_path_join(path, sizeof path, sub, f->d_name) == 0 &&
                sl_room_hash_file(path, hash, sizeof hash) == 0)
                s->shipped[s->nshipped++] = strdup(hash);
        }
        if (k)
            closedir(k);
    }
    if (d)
        closedir(d);
}

int sl_room_take(sl_room_server *s, sl_room_db *db, const char *body, size_t len,
                 int from_folder, double now, char *reply, size_t replylen)
{
    sl_room_post *p = malloc(sizeof *p);
    char why[256];
    int status = 200;
    if (p == NULL)
        snprintf(reply, replylen, "refused: the server is out of memory"), status = 503;
    else if (len > SL_ROOM_MAX_BODY)
        snprintf(reply, replylen, "refused: the post is over %d bytes", SL_ROOM_MAX_BODY),
            status = 413;
    else if (sl_room_post_parse(body, len, p, why, sizeof why) != 0)
        snprintf(reply, replylen, "refused: %s", why), status = 400;
    else if (!from_folder && !sl_room_allow(&s->limit, p->nickname, now))
        snprintf(reply, replylen, "refused: too many posts from %.32s; wait a minute",
                 p->nickname), status = 429;
    else if (sl_room_store_add(db, p, now, why, sizeof why) != 0)
        snprintf(reply, replylen, "not stored: %s", why), status = 503;
    else
        snprintf(reply, replylen, "stored %zu records", p->count), s->changed = 1;
    if (status == 200)
        s->accepted++;
    else
        s->refused++;
    free(p);
    return status;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int taken(const sl_room_server *s, const char *name)
{
    for (size_t i = 0; i < s->ntaken; i++)
        if (strcmp(s->taken[i], name) == 0)
            return 1;
    return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

int sl_room_import(sl_room_server *s, sl_room_db *db, char *why, size_t whylen)
{
    /* In name order: a participant's runs (NICK-TIME-PID.json) oldest first. */
    struct dirent **names;
    int count = scandir(s->folder, &names, NULL, by_name);
    if (count < 0)
        return snprintf(why, whylen, "cannot read the room's folder %s", s->folder), -1;
    int n = 0;
    for (int i = 0; i < count; i++) {
        const struct dirent *e = names[i];
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || len < 6 || strcmp(e->d_name + len - 5, ".json") != 0 ||
            taken(s, e->d_name))
            continue;
        char path[SL_PATH_BUF], reply[320];
        FILE *f = sl_path_join(path, sizeof path, s->folder, e->d_name) == 0 ? fopen(path, "rb")
                                                                             : NULL;
        char *body = f ? malloc(SL_ROOM_MAX_BODY + 2) : NULL;
        size_t got = body ? fread(body, 1, SL_ROOM_MAX_BODY + 1, f) : 0;
        if (f)
            fclose(f);
        if (body == NULL)
            continue;
        int status = sl_room_take(s, db, body, got, 1, now_s(), reply, sizeof reply);
        free(body);
        if (status == 503)
            continue;      /* not taken: tried again at the next look */
        if (status != 200)
            printf("room: %s: %s\n", e->d_name, reply);
        char **more = realloc(s->taken, (s->ntaken + 1) * sizeof *more);
        if (more)
            s->taken = more, s->taken[s->ntaken++] = strdup(e->d_name);
        n += status == 200;
    }
    for (int i = 0; i < count; i++)
        free(names[i]);
    free(names);
    return n;
}

int sl_room_refresh(sl_room_server *s, sl_room_db *db, FILE *console, int plots, char *why,
                    size_t whylen)
{
    size_t n;
    sl_room_row *rows = sl_room_store_load(db, &n, why, whylen);
    sl_room_view *v = rows ? malloc(sizeof *v) : NULL;
    if (v == NULL) {
        free(rows);
        return rows ? snprintf(why, whylen, "out of memory"), -1 : -1;
    }
    sl_room_view_make(rows, n, (const char *const *)s->shipped, s->nshipped,
                      s->stuck_minutes, v);
    int rc = 0;
    if (plots && sl_room_figure_data(s->dir, v) == 0) {
        int drawn = sl_run_plots(s->dir);
        if (drawn != 0 && !s->said_plots++)
            printf("room: the figure was not drawn (plots/plot.sh exit %d%s)\n", drawn,
                   drawn == 3 ? ": gnuplot is missing" : "");
    }
    rc = sl_room_pages(s->dir, v, s->top, s->refresh_s);
    if (rc != 0)
        snprintf(why, whylen, "cannot write the pages in %s", s->dir);
    if (rc == 0 && console) {
        size_t len;
        char *md = sl_room_markdown(v, 1, s->top, &len);
        if (md)
            fprintf(console, "\n%s(%zu records; %ld posts taken, %ld refused)\n", md, n,
                    s->accepted, s->refused);
        fflush(console);
        free(md);
    }
    free(v);
    free(rows);
    return rc;
}

/* One connection's body as it arrives. */
typedef struct upload { char *body; size_t n; int too_big; } upload;

static enum MHD_Result answer(struct MHD_Connection *c, int status, const char *type,
                              const char *text, size_t len)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)text,
                                                             MHD_RESPMEM_MUST_COPY);
    if (r == NULL)
        return MHD_NO;
    MHD_add_response_header(r, "Content-Type", type);
    enum MHD_Result rc = MHD_queue_response(c, (unsigned)status, r);
    MHD_destroy_response(r);
    return rc;
}

static enum MHD_Result say(struct MHD_Connection *c, int status, const char *line)
{
    char text[400];
    int n = snprintf(text, sizeof text, "%s\n", line);
    return answer(c, status, "text/plain; charset=utf-8", text, (size_t)n);
}

/* GET /CODE/: the room's page as last written. */
static enum MHD_Result page(sl_room_server *s, struct MHD_Connection *c)
{
    char path[SL_PATH_BUF];
    FILE *f = sl_path_join(path, sizeof path, s->dir, "room.html") == 0 ? fopen(path, "rb") : NULL;
    char *buf = f ? malloc(1 << 20) : NULL;
    size_t n = buf ? fread(buf, 1, 1 << 20, f) : 0;
    if (f)
        fclose(f);
    enum MHD_Result rc = buf ? answer(c, 200, "text/html; charset=utf-8", buf, n)
                             : say(c, 404, "no page yet");
    free(buf);
    return rc;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *data,
                              size_t *size, void **state)
{
    (void)version;
    sl_room_server *s = cls;
    upload *u = *state;
    if (u == NULL) {                      /* the headers: nothing to read yet */
        u = calloc(1, sizeof *u);
        *state = u;
        return u ? MHD_YES : MHD_NO;
    }
    if (*size) {
        if (!u->too_big && u->n + *size <= SL_ROOM_MAX_BODY) {
            char *more = realloc(u->body, u->n + *size + 1);
            if (more)
                memcpy(more + u->n, data, *size), u->body = more, u->n += *size;
        } else {
            u->too_big = 1;
        }
        *size = 0;
        return MHD_YES;
    }
    size_t clen = strlen(s->code);
    if (url[0] != '/' || strncmp(url + 1, s->code, clen) != 0 ||
        (url[clen + 1] != '/' && url[clen + 1] != '\0')) {
        s->refused += strcmp(method, "POST") == 0;
        return say(c, 403, "refused: wrong room code");
    }
    const char *rest = url + clen + 1;
    if (strcmp(method, "GET") == 0 && (!*rest || !strcmp(rest, "/") || !strcmp(rest, "/room.html")))
        return page(s, c);
    if (strcmp(method, "POST") != 0 || strcmp(rest, "/runs") != 0)
        return say(c, 404, "not here: POST /CODE/runs, GET /CODE/");
    char reply[320];
    int status = u->too_big ? 413 : 0;
    if (u->too_big) {
        snprintf(reply, sizeof reply, "refused: the post is over %d bytes", SL_ROOM_MAX_BODY);
        s->refused++;
    } else {
        status = sl_room_take(s, s->db, u->body ? u->body : "", u->n, 0, now_s(), reply,
                              sizeof reply);
    }
    return say(c, status, reply);
}

static void done(void *cls, struct MHD_Connection *c, void **state,
                 enum MHD_RequestTerminationCode why)
{
    (void)cls, (void)c, (void)why;
    upload *u = *state;
    if (u)
        free(u->body), free(u);
    *state = NULL;
}

int sl_room_listen(sl_room_server *s, int port, char *why, size_t whylen)
{
    /* One thread answers every connection: the store's only writer, in
     * the order posts arrive. */
    s->daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG,
                                 (uint16_t)port, NULL, NULL, handle, s,
                                 MHD_OPTION_NOTIFY_COMPLETED, done, s,
                                 MHD_OPTION_CONNECTION_TIMEOUT, 10u,
                                 MHD_OPTION_CONNECTION_LIMIT, 256u, MHD_OPTION_END);
    if (s->daemon == NULL)
        return snprintf(why, whylen, "cannot listen on port %d (in use? try --port)", port), -1;
    return 0;
}

void sl_room_stop(sl_room_server *s)
{
    if (s->daemon)
        MHD_stop_daemon(s->daemon);
    s->daemon = NULL;
}
