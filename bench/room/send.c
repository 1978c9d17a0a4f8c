/* send.c - the participant's side of the room (send.h). */
#define _DEFAULT_SOURCE
#include "send.h"

#include <curl/curl.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "atomic_file.h"
#include "run_dir.h"

void sl_room_nickname(const char *results, char *out, size_t len)
{
    const char *mine = getenv(SL_ROOM_NICK_ENV);
    if (mine && mine[0]) {
        snprintf(out, len, "%s", mine);
        return;
    }
    char path[SL_PATH_BUF], line[SL_ROOM_NICK + 2] = "";
    if (sl_path_join(path, sizeof path, results, "room") == 0)
        sl_make_folders(path);    /* so that the first run's nickname is kept */
    FILE *f = sl_path_join(path, sizeof path, results, "room/nickname") == 0 ? fopen(path, "r")
                                                                              : NULL;
    if (f && fgets(line, sizeof line, f))
        line[strcspn(line, "\n")] = '\0';
    if (f)
        fclose(f);
    if (line[0]) {
        snprintf(out, len, "%s", line);
        return;
    }
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    sl_room_random_nickname(out, len, (uint64_t)now.tv_sec * 1000000007ULL ^
                                      (uint64_t)now.tv_nsec ^ ((uint64_t)getpid() << 32));
    char text[SL_ROOM_NICK + 2];
    snprintf(text, sizeof text, "%s\n", out);
    sl_atomic_write(path, text);   /* not kept: a new one next time, no harm */
}

/* <results>/room/<sub>, made. */
static int room_dir(const char *results, const char *sub, char *out, size_t len)
{
    if (sl_path_format(out, len, "%s/room/%s", results, sub) != 0)
        return -1;
    return sl_make_folders(out);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The queue's files, oldest first (names start with the time). */
static int queued(const char *dir, char **names, int cap)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    while (d && n < cap && (e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] != '.' && len > 5 && strcmp(e->d_name + len - 5, ".json") == 0)
            names[n++] = strdup(e->d_name);
    }
    if (d)
        closedir(d);
    qsort(names, (size_t)n, sizeof *names, by_name);
    return n;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = f ? malloc(SL_ROOM_MAX_BODY + 1) : NULL;
    *len = buf ? fread(buf, 1, SL_ROOM_MAX_BODY, f) : 0;
    if (buf)
        buf[*len] = '\0';
    if (f)
        fclose(f);
    return buf;
}

typedef struct reply { char text[4352]; size_t n; } reply;

static size_t keep_reply(char *data, size_t size, size_t count, void *to)
{
    reply *r = to;
    size_t n = size * count, room = sizeof r->text - 1 - r->n;
    memcpy(r->text + r->n, data, n < room ? n : room);
    r->n += n < room ? n : room;
    r->text[r->n] = '\0';
    return n;
}

/* POST body to url: the HTTP status (0: no answer, why in r). */
static long post(const char *url, const char *body, size_t len, reply *r)
{
    CURL *curl = curl_easy_init();
    if (curl == NULL)
        return snprintf(r->text, sizeof r->text, "libcurl did not start"), 0;
    struct curl_slist *hdr = curl_slist_append(NULL, "Content-Type: application/json");
    char err[CURL_ERROR_SIZE] = "";
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, hdr);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, (long)len);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, SL_ROOM_CONNECT_S);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, SL_ROOM_TIMEOUT_S);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, err);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, keep_reply);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, r);
    long status = 0;
    if (curl_easy_perform(curl) == CURLE_OK)
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    else
        snprintf(r->text, sizeof r->text, "%s", err[0] ? err : "no answer");
    curl_slist_free_all(hdr);
    curl_easy_cleanup(curl);
    r->text[strcspn(r->text, "\n")] = '\0';
    return status;
}

/* Deliver one queued file: 1 delivered, 0 refused (moved aside), -1 not
 * now (why in r). */
static int deliver(const char *room, const char *qdir, const char *name, const char *nick,
                   const char *refused_dir, reply *r)
{
    char path[SL_PATH_BUF], to[SL_PATH_BUF];
    size_t len;
    char *body = sl_path_join(path, sizeof path, qdir, name) == 0 ? slurp(path, &len) : NULL;
    if (body == NULL)
        return snprintf(r->text, sizeof r->text, "cannot read %.4000s", path), -1;
    int rc;
    if (strncmp(room, "http://", 7) == 0 || strncmp(room, "https://", 8) == 0) {
        char url[4200];
        snprintf(url, sizeof url, "%s%sruns", room, room[strlen(room) - 1] == '/' ? "" : "/");
        long status = post(url, body, len, r);
        rc = status == 200 ? 1 : status >= 400 && status < 500 && status != 429 ? 0 : -1;
        if (status && rc == -1 && !r->text[0])
            snprintf(r->text, sizeof r->text, "HTTP %ld", status);
    } else {
        /* The shared folder: the whole file appears at once (atomic
         * rename in that folder), one per participant and run. */
        rc = sl_path_format(to, sizeof to, "%s/%s-%s", room, nick, name) == 0 &&
                     sl_atomic_write(to, body) == 0 ? 1 : -1;
        if (rc < 0)
            snprintf(r->text, sizeof r->text, "cannot write in %s: %s", room, strerror(errno));
    }
    free(body);
    if (rc == 1)
        unlink(path);
    if (rc == 0) {
        if (sl_path_join(to, sizeof to, refused_dir, name) == 0)
            rename(path, to);
    }
    return rc;
}

int sl_room_send(const char *results, const char *room, const sl_room_post *p, FILE *f)
{
    char qdir[SL_PATH_BUF], refused[SL_PATH_BUF], path[SL_PATH_BUF];
    if (room_dir(results, "queue", qdir, sizeof qdir) != 0 ||
        room_dir(results, "refused", refused, sizeof refused) != 0) {
        fprintf(f, "room: cannot keep this run in %s: %s; not sent\n", qdir, strerror(errno));
        return 0;
    }
    char *text = p && p->count ? sl_room_post_json(p) : NULL;
    if (text) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        if (sl_path_format(path, sizeof path, "%s/%lld%09ld-%d.json", qdir,
                           (long long)now.tv_sec, now.tv_nsec, (int)getpid()) != 0 ||
            sl_atomic_write(path, text) != 0)
            fprintf(f, "room: cannot keep this run in %s: %s\n", qdir, strerror(errno));
        free(text);
    }
    char *names[512];
    int n = queued(qdir, names, 512), sent = 0, left = n;
    reply r = { "", 0 };
    for (int i = 0; i < n; i++) {
        reply one = { "", 0 };
        int rc = deliver(room, qdir, names[i], p ? p->nickname : "someone", refused, &one);
        if (rc < 0) {
            r = one;      /* the room is not there: the rest waits too */
            break;
        }
        left--;
        sent += rc;
        if (rc == 0)
            fprintf(f, "room: the room refused a run (%s); kept in %s\n", one.text, refused);
    }
    for (int i = 0; i < n; i++)
        free(names[i]);
    if (left > 0)
        fprintf(f, "room: %s not reachable (%s); %d run(s) kept in %s, sent at your next "
                "run\n", room, r.text, left, qdir);
    else if (sent > 1)
        fprintf(f, "room: sent %d runs (%d kept from before) to %s\n", sent, sent - 1, room);
    return left;
}
