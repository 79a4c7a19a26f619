/* The remote compile cache's options and requests: -remote-cache (or GLOWC_REMOTE_CACHE),
 * -remote-cache-header (or GLOWC_REMOTE_CACHE_HEADER), -remote-cache-mode (or
 * GLOWC_REMOTE_CACHE_MODE) and GLOWC_REMOTE_CACHE_CA, each checked before anything compiles; GET and PUT through
 * util/http-curl.c, whose every failure is a warning here (the compile goes on locally).
 * d->remote_cache is the URL as shown, without user and password; only libcurl sees
 * d->remote_cache_url. */
#include <stdlib.h>
#include <string.h>

#include "driver/option-table.h"

static int set_url(glow_driver_options *d, const char *where, const char *url) {
  char err[512];
  if (glow_http_url_check(url, err, sizeof err)) {
    glow_error(where, "%s%s", err, where[0] == '-' ? "" : " (the environment variable; unset it or fix it)");
    return -1;
  }
  free(d->owned_remote_cache);
  d->remote_cache = d->owned_remote_cache = glow_http_url_shown(url);
  d->remote_cache_url = url;
  return 0;
}

int glow_opt_remote_cache(glow_driver_options *d, const char *v) { return set_url(d, "-remote-cache", v); }

int glow_opt_remote_cache_header(glow_driver_options *d, const char *v) {
  char err[256];
  if (glow_http_header_check(v, err, sizeof err)) {
    glow_error("-remote-cache-header", "%s", err);
    return -1;
  }
  d->remote_headers = glow_xrealloc(d->remote_headers, (size_t)(d->nremote_headers + 1) * sizeof *d->remote_headers);
  d->remote_headers[d->nremote_headers++] = v;
  return 0;
}

static int set_mode(glow_driver_options *d, const char *where, const char *v) {
  static const char *const modes[] = {[GLOW_REMOTE_CACHE_RW] = "rw", [GLOW_REMOTE_CACHE_READ] = "r",
                                      [GLOW_REMOTE_CACHE_WRITE] = "w"};
  for (int m = GLOW_REMOTE_CACHE_RW; m <= GLOW_REMOTE_CACHE_WRITE; m++)
    if (!strcmp(v, modes[m]))
      return d->remote_cache_mode = m, 0;
  glow_error(where, "'%s' is not rw (read and write), r (read only) or w (write only)", v);
  return -1;
}

int glow_opt_remote_cache_mode(glow_driver_options *d, const char *v) { return set_mode(d, "-remote-cache-mode", v); }

int glow_remote_cache_env(glow_driver_options *d) {
  const char *url = getenv("GLOWC_REMOTE_CACHE"), *ca = getenv("GLOWC_REMOTE_CACHE_CA");
  const char *header = getenv("GLOWC_REMOTE_CACHE_HEADER"), *mode = getenv("GLOWC_REMOTE_CACHE_MODE");
  if (!d->remote_cache && url && *url && set_url(d, "GLOWC_REMOTE_CACHE", url))
    return -1;
  if (d->remote_cache && !d->nremote_headers && header && *header) {
    char err[256];
    if (glow_http_header_check(header, err, sizeof err)) {
      glow_error("GLOWC_REMOTE_CACHE_HEADER", "%s (the environment variable; unset it or fix it)", err);
      return -1;
    }
    glow_opt_remote_cache_header(d, header);
  }
  if (!d->remote_cache_mode && mode && *mode && set_mode(d, "GLOWC_REMOTE_CACHE_MODE", mode))
    return -1;
  if (d->remote_cache && ca && *ca) {
    char err[512];
    if (glow_http_ca_check(ca, err, sizeof err)) {
      glow_error("GLOWC_REMOTE_CACHE_CA", "%s (point it at the PEM file of the cache server's CA, or unset it)", err);
      return -1;
    }
    d->remote_cache_ca = ca;
  }
  return 0;
}

static int request(const glow_driver_options *d, const char *method, const char *key, const void *data, size_t size,
                   void **body, size_t *body_size, char *err, size_t errcap) {
  glow_http_remote r = {.url = d->remote_cache_url, .headers = d->remote_headers, .nheaders = d->nremote_headers,
                        .ca_file = d->remote_cache_ca};
  return glow_http_request(&r, method, key, data, size, body, body_size, err, errcap);
}

/* Why a server may refuse a request, for the warning. */
static const char *status_hint(int status) {
  if (status == 401 || status == 403)
    return ": the credentials were refused (check the user and password in the URL or ~/.netrc, or "
           "-remote-cache-header)";
  return "";
}

int glow_remote_cache_get(const glow_driver_options *d, const char *key, void **bytes, size_t *size) {
  char err[512];
  *bytes = NULL;
  *size = 0;
  int status = request(d, "GET", key, NULL, 0, bytes, size, err, sizeof err);
  if (status < 0)
    glow_note("glowc: warning: remote cache %s: %s (compiling)\n", d->remote_cache, err);
  else if (status != 200 && status != 404)
    glow_note("glowc: warning: remote cache %s: GET %s: HTTP status %d%s (compiling)\n", d->remote_cache, key,
              status, status_hint(status));
  else if (status == 200 && d->verbose)
    glow_note("glowc: remote cache %s: GET %s: %zu bytes\n", d->remote_cache, key, *size);
  return status == 200 ? 1 : status == 404 ? 0 : -1;
}

void glow_remote_cache_put(const glow_driver_options *d, const char *key, const void *data, size_t size) {
  char err[512];
  if (size > GLOW_CACHE_MAX_ENTRY_BYTES) {
    glow_note("glowc: warning: remote cache %s: entry of %zu bytes is over the limit of %llu (not stored)\n",
              d->remote_cache, size, (unsigned long long)GLOW_CACHE_MAX_ENTRY_BYTES);
    return;
  }
  int status = request(d, "PUT", key, data, size, NULL, NULL, err, sizeof err);
  if (status < 0)
    glow_note("glowc: warning: remote cache %s: %s (not stored)\n", d->remote_cache, err);
  else if (status < 200 || status > 299)
    glow_note("glowc: warning: remote cache %s: PUT %s: HTTP status %d%s (not stored)\n", d->remote_cache, key,
              status, status_hint(status));
  else if (d->verbose)
    glow_note("glowc: remote cache %s: PUT %s: %zu bytes\n", d->remote_cache, key, size);
}
