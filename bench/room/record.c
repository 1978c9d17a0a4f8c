/* record.c - a room post to JSON and back, and the rules an arrival is
 * held to (record.h). JSON through jansson: no hand-written parser sees
 * what a stranger sent.
 */
#include "record.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

static const char *const state_names[SL_ROOM_STATES][2] = {
    { "not_started", "not started" },
    { "wrong", "WRONG" },
    { "busy", "right, too busy to time" },
    { "slower", "slower than scalar" },
    { "slow", "right but slow" },
    { "caught_up", "caught up" },
};

/* The wrong answers' classes (report/verdict.h's names): the room may
 * only hear of these. */
static const char *const hint_names[] = { "crashed", "whole_loop", "checked", "race", "wrong" };

const char *sl_room_state_name(sl_room_state s)
{
    return s >= 0 && s < SL_ROOM_STATES ? state_names[s][0] : "?";
}

const char *sl_room_state_words(sl_room_state s)
{
    return s >= 0 && s < SL_ROOM_STATES ? state_names[s][1] : "?";
}

int sl_room_state_parse(const char *name)
{
    for (int s = 0; s < SL_ROOM_STATES; s++)
        if (strcmp(name, state_names[s][0]) == 0)
            return s;
    return -1;
}

char *sl_room_post_json(const sl_room_post *p)
{
    json_t *records = json_array();
    for (size_t i = 0; records && i < p->count; i++) {
        const sl_room_record *r = &p->records[i];
        json_array_append_new(records, json_pack(
            "{s:s, s:i, s:s, s:s, s:i, s:s, s:s, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:s}",
            "id", r->id, "lesson", r->lesson, "kernel", r->kernel, "variant", r->variant,
            "threads", r->threads, "state", sl_room_state_name(r->state), "hint", r->hint,
            "speedup", r->speedup, "ceiling_pct", r->ceiling_pct,
            "solution_pct", r->solution_pct, "solution_low", r->solution_low,
            "solution_high", r->solution_high, "seconds", r->seconds,
            "ran_at", r->ran_at, "source_hash", r->source_hash));
    }
    json_t *post = json_pack("{s:s, s:s, s:i, s:i, s:o}", "nickname", p->nickname,
                             "family", p->family, "lanes", p->lanes, "cores", p->cores,
                             "records", records);
    char *text = post ? json_dumps(post, JSON_COMPACT) : NULL;
    json_decref(post);
    return text;
}

/* Text a page can show: printable, or UTF-8 past ASCII; no control bytes. */
static int printable(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return 0;
    return 1;
}

/* A string field of o into out: 0, or -1 with why. */
static int text_field(json_t *o, const char *key, char *out, size_t len, int empty_ok,
                      char *why, size_t whylen)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_string(v))
        return snprintf(why, whylen, "\"%s\" is missing or not text", key), -1;
    const char *s = json_string_value(v);
    if (strlen(s) >= len || (!empty_ok && !s[0]) || !printable(s))
        return snprintf(why, whylen, "\"%s\" is empty, longer than %zu bytes or holds "
                        "control characters", key, len - 1), -1;
    snprintf(out, len, "%s", s);
    return 0;
}

/* A number field, within [lo, hi]. */
static int number_field(json_t *o, const char *key, double lo, double hi, double *out,
                        char *why, size_t whylen)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_number(v))
        return snprintf(why, whylen, "\"%s\" is missing or not a number", key), -1;
    *out = json_number_value(v);
    if (!(*out >= lo && *out <= hi))
        return snprintf(why, whylen, "\"%s\" is %g, outside [%g, %g]", key, *out, lo, hi), -1;
    return 0;
}

static int known_hint(const char *h)
{
    for (size_t i = 0; i < sizeof hint_names / sizeof hint_names[0]; i++)
        if (strcmp(h, hint_names[i]) == 0)
            return 1;
    return 0;
}

/* One record, and the rules between its fields. */
static int parse_record(json_t *o, sl_room_record *r, char *why, size_t whylen)
{
    char state[16];
    double lesson, threads;
    if (!json_is_object(o))
        return snprintf(why, whylen, "a record is not an object"), -1;
    if (text_field(o, "id", r->id, sizeof r->id, 0, why, whylen) ||
        text_field(o, "kernel", r->kernel, sizeof r->kernel, 0, why, whylen) ||
        text_field(o, "variant", r->variant, sizeof r->variant, 0, why, whylen) ||
        text_field(o, "state", state, sizeof state, 0, why, whylen) ||
        text_field(o, "hint", r->hint, sizeof r->hint, 1, why, whylen) ||
        text_field(o, "source_hash", r->source_hash, sizeof r->source_hash, 0, why, whylen) ||
        number_field(o, "lesson", 0, 99, &lesson, why, whylen) ||
        number_field(o, "threads", 0, 4096, &threads, why, whylen) ||
        number_field(o, "speedup", 0, 1e5, &r->speedup, why, whylen) ||
        number_field(o, "ceiling_pct", -1, 100, &r->ceiling_pct, why, whylen) ||
        number_field(o, "solution_pct", -1, SL_ROOM_MOST_SOLUTION_PCT, &r->solution_pct, why,
                     whylen) ||
        number_field(o, "solution_low", -1, SL_ROOM_MOST_SOLUTION_PCT, &r->solution_low, why,
                     whylen) ||
        number_field(o, "solution_high", -1, SL_ROOM_MOST_SOLUTION_PCT, &r->solution_high, why,
                     whylen) ||
        number_field(o, "seconds", 0, 1e5, &r->seconds, why, whylen) ||
        number_field(o, "ran_at", 1e9, 1e10, &r->ran_at, why, whylen))
        return -1;
    r->lesson = (int)lesson, r->threads = (int)threads;
    r->state = sl_room_state_parse(state);
    if (r->state < 0)
        return snprintf(why, whylen, "unknown state \"%.15s\"", state), -1;
    int wrong = r->state == SL_ROOM_WRONG;
    if (wrong && !known_hint(r->hint))
        return snprintf(why, whylen, "a WRONG record with an unknown hint class \"%.23s\"",
                        r->hint), -1;
    if (!wrong && r->hint[0])
        return snprintf(why, whylen, "a hint class on a record that is not WRONG"), -1;
    if (r->solution_pct >= 0.0 && !(r->solution_low <= r->solution_pct &&
                                    r->solution_pct <= r->solution_high))
        return snprintf(why, whylen, "a share of the solution's speed outside its own "
                        "interval (%g not in [%g, %g])", r->solution_pct, r->solution_low,
                        r->solution_high), -1;
    if (wrong && (r->speedup != 0.0 || r->ceiling_pct > 0.0 || r->solution_pct > 0.0))
        return snprintf(why, whylen, "a speedup from a variant that did not validate "
                        "(%s %s)", r->kernel, r->variant), -1;
    int busy = r->state == SL_ROOM_BUSY;
    if (busy && (r->speedup != 0.0 || r->solution_pct >= 0.0))
        return snprintf(why, whylen, "a speed figure on a record too busy to time (%s %s)",
                        r->kernel, r->variant), -1;
    if (!wrong && !busy && (r->speedup <= 0.0 || r->seconds <= 0.0))
        return snprintf(why, whylen, "a right record with no speedup or no time"), -1;
    if (r->state == SL_ROOM_SLOWER && r->speedup >= 1.0)
        return snprintf(why, whylen, "\"slower\" with a speedup of %.2f", r->speedup), -1;
    return 0;
}

int sl_room_post_parse(const char *body, size_t len, sl_room_post *p, char *why,
                       size_t whylen)
{
    memset(p, 0, sizeof *p);
    if (len > SL_ROOM_MAX_BODY)
        return snprintf(why, whylen, "the post is %zu bytes, over the limit of %d", len,
                        SL_ROOM_MAX_BODY), -1;
    json_error_t err;
    json_t *post = json_loadb(body, len, JSON_REJECT_DUPLICATES, &err);
    if (post == NULL)
        return snprintf(why, whylen, "malformed JSON: %s (line %d)", err.text, err.line), -1;
    int rc = -1;
    double lanes, cores;
    json_t *records = json_object_get(post, "records");
    if (!json_is_object(post))
        snprintf(why, whylen, "the post is not a JSON object");
    else if (text_field(post, "nickname", p->nickname, sizeof p->nickname, 0, why, whylen) ||
             text_field(post, "family", p->family, sizeof p->family, 0, why, whylen) ||
             number_field(post, "lanes", 1, 512, &lanes, why, whylen) ||
             number_field(post, "cores", 1, 65536, &cores, why, whylen))
        ;
    else if (!json_is_array(records) || json_array_size(records) == 0 ||
             json_array_size(records) > SL_ROOM_MAX_RECORDS)
        snprintf(why, whylen, "\"records\" is not a list of 1 to %d records",
                 SL_ROOM_MAX_RECORDS);
    else {
        p->lanes = (int)lanes, p->cores = (int)cores;
        p->count = json_array_size(records);
        rc = 0;
        for (size_t i = 0; rc == 0 && i < p->count; i++)
            rc = parse_record(json_array_get(records, i), &p->records[i], why, whylen);
    }
    json_decref(post);
    return rc;
}

int sl_room_hash_file(const char *path, char *out, size_t len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return -1;
    uint64_t h = 1469598103934665603ULL;
    int ch;
    while ((ch = getc(f)) != EOF)
        h = (h ^ (uint64_t)(unsigned char)ch) * 1099511628211ULL;
    int bad = ferror(f);
    fclose(f);
    snprintf(out, len, "%016llx", (unsigned long long)h);
    return bad ? -1 : 0;
}

int sl_room_gpu_variant(const char *variant)
{
    return strcmp(variant, "cuda") == 0 || strncmp(variant, "gpu", 3) == 0;
}

void sl_room_random_nickname(char *out, size_t len, uint64_t seed)
{
    /* 16 x 16 x 10000 names: two of a room of 30 share one about once
     * in 5000 rooms. */
    static const char *const adjectives[16] = {
        "quiet", "swift", "brave", "lucky", "calm", "bold", "keen", "merry",
        "sunny", "misty", "rapid", "gentle", "clever", "eager", "jolly", "noble" };
    static const char *const animals[16] = {
        "otter", "heron", "lynx", "panda", "gecko", "finch", "koala", "marten",
        "badger", "raven", "bison", "ibex", "puffin", "lemur", "walrus", "hare" };
    uint64_t z = seed + 0x9e3779b97f4a7c15ULL;          /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    snprintf(out, len, "%s-%s-%04u", adjectives[z & 15], animals[(z >> 4) & 15],
             (unsigned)((z >> 8) % 10000));
}
