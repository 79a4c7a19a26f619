/* GET and PUT of <url>/<key> through libcurl, for the remote compile cache: the protocol of
 * Bazel's HTTP cache (nginx WebDAV, bazel-remote). http and https (the system's CAs, or a PEM
 * file), basic auth from the URL's user and password or ~/.netrc, extra headers, proxies from
 * the environment (curl's http_proxy, https_proxy, no_proxy). A body is kept only up to
 * GLOW_CACHE_MAX_ENTRY_BYTES, its memory grows with the bytes received (never with a claimed
 * size), and no byte past Content-Length is read. One retry, after RETRY_MS, on a 5xx status or
 * a connection cut short. No message holds the URL's user or password: callers show
 * glow_http_url_shown()'s form, and curl's own messages name only the host. */
#include <curl/curl.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "util/http-curl.h"

#define CONNECT_TIMEOUT_S 10L
#define STALL_TIMEOUT_S 20L /* a transfer slower than 1 byte/s for this long is given up */
#define RETRY_MS 1000

/* The authority's start (after "scheme://") in *auth, and its last '@' (the end of any user info). */
static const char *userinfo_at(const char *url, const char **auth) {
  const char *p = strstr(url, "://"), *at = NULL;
  *auth = p ? p + 3 : url;
  for (const char *q = *auth; *q && !strchr("/?#", *q); q++)
    at = *q == '@' ? q : at;
  return at;
}

char *glow_http_url_shown(const char *url) {
  const char *host, *at = userinfo_at(url, &host);
  if (!at)
    return glow_xstrdup(url);
  glow_strbuf b = {0};
  glow_sb_printf(&b, "%.*s%s", (int)(host - url), url, at + 1);
  return b.s;
}

int glow_http_url_check(const char *url, char *err, size_t errcap) {
  char *shown = glow_http_url_shown(url), *scheme = NULL, *host = NULL, *query = NULL, *fragment = NULL;
  const char *h, *at = userinfo_at(url, &h);
  CURLU *u = curl_url();
  /* curl's parser, and what it lets pass: a query, a second '@', no host (it reads https:///x as https://x/) */
  int bad = !u || curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
            curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
            (strcmp(scheme, "http") && strcmp(scheme, "https")) || strncmp(url, scheme, strlen(scheme)) ||
            curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK || !*host ||
            curl_url_get(u, CURLUPART_QUERY, &query, 0) != CURLUE_NO_QUERY ||
            curl_url_get(u, CURLUPART_FRAGMENT, &fragment, 0) != CURLUE_NO_FRAGMENT ||
            (at && memchr(h, '@', (size_t)(at - h))) || strchr("/:", (at ? at + 1 : h)[0]);
  if (bad) /* the URL as shown: a password in a malformed URL stays out of the message too */
    snprintf(err, errcap, "'%s' is not http[s]://[<user>:<password>@]<host>[:<port>][/<prefix>]", shown);
  curl_free(scheme);
  curl_free(host);
  curl_free(query);
  curl_free(fragment);
  curl_url_cleanup(u);
  free(shown);
  return bad ? -1 : 0;
}

int glow_http_header_check(const char *h, char *err, size_t errcap) {
  const char *colon = strchr(h, ':');
  if (!colon) { /* nothing shown: the whole of it may be a token */
    snprintf(err, errcap, "no ':' between the name and the value (the form is <Name>:<Value>)");
    return -1;
  }
  size_t n = (size_t)(colon - h), k = strspn(h, "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
  if (!n || k != n) { /* shown up to the bad character only: the rest may be a value that lacked its ':' */
    snprintf(err, errcap, "the header name %s'%.*s' (a name is letters, digits and !#$%%&'*+-.^_`|~, then ':')",
             n ? "has a character it cannot hold after " : "is empty: ", (int)(k < 60 ? k : 60), h);
    return -1;
  }
  const char *v = h + n + 1;
  v += strspn(v, " \t");
  int ctl = 0;
  for (const char *p = v; *p; p++)
    ctl |= ((unsigned char)*p < 0x20 && *p != '\t') || *p == 0x7f;
  if (!*v || ctl) { /* the value is not shown: it may be a token */
    snprintf(err, errcap, "header %.*s: %s", (int)n, h,
             !*v ? "no value after ':'" : "the value holds a control character (a line break?)");
    return -1;
  }
  return 0;
}

int glow_http_ca_check(const char *path, char *err, size_t errcap) {
  FILE *f = fopen(path, "rb");
  glow_strbuf pem = {0};
  char buf[1 << 14];
  for (size_t n; f && (n = fread(buf, 1, sizeof buf, f)) > 0;)
    glow_sb_append(&pem, buf, n);
  int bad = !f || ferror(f);
  if (bad)
    snprintf(err, errcap, "cannot read the CA file '%s': %s", path, strerror(errno));
  else if (!pem.s || !strstr(pem.s, "-----BEGIN CERTIFICATE-----"))
    bad = snprintf(err, errcap, "'%s' holds no PEM certificate (no -----BEGIN CERTIFICATE-----)", path) > 0;
  if (f)
    fclose(f);
  glow_sb_free(&pem);
  return bad ? -1 : 0;
}

typedef struct transfer {
  CURL *c;
  const char *data; /* PUT: the body, sent from `sent` */
  size_t size, sent;
  char *body; /* GET: the body received */
  size_t len, cap;
  int over;           /* the body ran past GLOW_CACHE_MAX_ENTRY_BYTES */
  long long claimed; /* the last response's Content-Length; -1: none */
} transfer;

/* The Content-Length, for messages (curl reports none when it refuses one over its limit). */
static size_t on_header(char *p, size_t one, size_t n, void *arg) {
  transfer *t = arg;
  if (n * one > 5 && !memcmp(p, "HTTP/", 5))
    t->claimed = -1;
  else if (n * one > 15 && !strncasecmp(p, "Content-Length:", 15))
    t->claimed = strtoll(p + 15, NULL, 10);
  return n * one;
}

static size_t on_body(char *p, size_t one, size_t n, void *arg) {
  transfer *t = arg;
  long status = 0;
  curl_easy_getinfo(t->c, CURLINFO_RESPONSE_CODE, &status);
  if (status != 200) /* an error page: not kept */
    return n * one;
  if (n > GLOW_CACHE_MAX_ENTRY_BYTES - t->len) {
    t->over = 1;
    return 0; /* curl stops: CURLE_WRITE_ERROR */
  }
  if (t->len + n > t->cap) {
    size_t want = t->cap ? t->cap * 2 : 1 << 16;
    t->cap = want < t->len + n ? t->len + n : want;
    t->body = glow_xrealloc(t->body, t->cap);
  }
  memcpy(t->body + t->len, p, n);
  t->len += n;
  return n;
}

static size_t on_send(char *p, size_t one, size_t n, void *arg) {
  transfer *t = arg;
  size_t k = t->size - t->sent < n * one ? t->size - t->sent : n * one;
  memcpy(p, t->data + t->sent, k);
  t->sent += k;
  return k;
}

static int on_seek(void *arg, curl_off_t at, int origin) { /* curl rewinds to resend (after a 401, say) */
  transfer *t = arg;
  if (origin != SEEK_SET || at < 0 || (uint64_t)at > t->size)
    return CURL_SEEKFUNC_CANTSEEK;
  t->sent = (size_t)at;
  return CURL_SEEKFUNC_OK;
}

/* One try: the status, or -1 with err set. */
static int attempt(transfer *t, char *err, size_t errcap, int *retry) {
  char why[CURL_ERROR_SIZE] = "";
  t->len = t->sent = 0;
  t->over = 0;
  t->claimed = -1;
  curl_easy_setopt(t->c, CURLOPT_ERRORBUFFER, why);
  CURLcode rc = curl_easy_perform(t->c);
  curl_easy_setopt(t->c, CURLOPT_ERRORBUFFER, NULL);
  long status = 0;
  curl_easy_getinfo(t->c, CURLINFO_RESPONSE_CODE, &status);
  *retry = rc == CURLE_OK ? status >= 500 && status <= 599
                          : rc == CURLE_RECV_ERROR || rc == CURLE_SEND_ERROR || rc == CURLE_GOT_NOTHING ||
                                rc == CURLE_PARTIAL_FILE;
  if (rc == CURLE_OK)
    return (int)status;
  if (rc == CURLE_FILESIZE_EXCEEDED)
    snprintf(err, errcap, "HTTP response claims %lld body bytes, over the limit of %llu: refused", t->claimed,
             (unsigned long long)GLOW_CACHE_MAX_ENTRY_BYTES);
  else if (t->over)
    snprintf(err, errcap, "HTTP response body over the limit of %llu bytes: refused",
             (unsigned long long)GLOW_CACHE_MAX_ENTRY_BYTES);
  else if (rc == CURLE_PARTIAL_FILE && t->claimed >= 0)
    snprintf(err, errcap, "HTTP response truncated (%zu of %lld body bytes)", t->len, t->claimed);
  else
    snprintf(err, errcap, "%s", *why ? why : curl_easy_strerror(rc));
  return -1;
}

int glow_http_request(const glow_http_remote *r, const char *method, const char *key, const void *data, size_t size,
                      void **body, size_t *body_size, char *err, size_t errcap) {
  static CURLcode started = CURLE_FAILED_INIT; /* the driver's one thread asks for the cache */
  if (started != CURLE_OK)
    started = curl_global_init(CURL_GLOBAL_DEFAULT);
  transfer t = {.c = started == CURLE_OK ? curl_easy_init() : NULL, .data = data, .size = size};
  if (!t.c) {
    snprintf(err, errcap, "libcurl failed to start");
    return -1;
  }
  glow_strbuf url = {0};
  size_t n = strlen(r->url);
  while (n && r->url[n - 1] == '/')
    n--;
  glow_sb_printf(&url, "%.*s/%s", (int)n, r->url, key);
  struct curl_slist *headers = curl_slist_append(NULL, "Expect:"); /* no 1 s wait for "100 Continue" */
  for (int i = 0; i < r->nheaders; i++)
    headers = curl_slist_append(headers, r->headers[i]);
  CURL *c = t.c;
  curl_easy_setopt(c, CURLOPT_URL, url.s);
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_USERAGENT, "glowc/" GLOWC_VERSION);
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(c, CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, CONNECT_TIMEOUT_S);
  curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, STALL_TIMEOUT_S);
  curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)GLOW_CACHE_MAX_ENTRY_BYTES);
  if (r->ca_file)
    curl_easy_setopt(c, CURLOPT_CAINFO, r->ca_file);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &t);
  if (!strcmp(method, "PUT")) {
    curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, (curl_off_t)size);
    curl_easy_setopt(c, CURLOPT_READFUNCTION, on_send);
    curl_easy_setopt(c, CURLOPT_READDATA, &t);
    curl_easy_setopt(c, CURLOPT_SEEKFUNCTION, on_seek);
    curl_easy_setopt(c, CURLOPT_SEEKDATA, &t);
  }
  int status, retry;
  status = attempt(&t, err, errcap, &retry);
  if (retry) {
    struct timespec pause = {RETRY_MS / 1000, RETRY_MS % 1000 * 1000000L};
    nanosleep(&pause, NULL);
    status = attempt(&t, err, errcap, &retry);
  }
  if (body && status == 200) {
    *body = t.body;
    *body_size = t.len;
  } else {
    free(t.body);
  }
  curl_easy_cleanup(c);
  curl_slist_free_all(headers);
  glow_sb_free(&url);
  return status;
}
