/* util/http-curl.c, the driver's only: GET/PUT of <url>/<key> through libcurl, for the remote
 * compile cache */
#ifndef GLOW_UTIL_HTTP_CURL_H
#define GLOW_UTIL_HTTP_CURL_H

#include "glowc.h"
#include "util/cache-entry.h" /* GLOW_CACHE_MAX_ENTRY_BYTES */

typedef struct glow_http_remote {
  const char *url;            /* http[s]://[<user>:<password>@]<host>[:<port>][/<prefix>] */
  const char *const *headers; /* "Name:Value", sent with every request */
  int nheaders;
  const char *ca_file; /* PEM file of the CAs to trust; NULL: the system's */
} glow_http_remote;
/* 0 if url is http[s]://[<user>:<password>@]<host>[:<port>][/<prefix>]; else -1, a message in err (without
 * the password). */
int glow_http_url_check(const char *url, char *err, size_t errcap);
char *glow_http_url_shown(const char *url); /* url without user and password, for messages (malloc'd) */
int glow_http_header_check(const char *header, char *err, size_t errcap); /* 0 if "Name:Value"; err never holds the value */
int glow_http_ca_check(const char *path, char *err, size_t errcap);       /* 0 if a readable PEM certificate file */
/* Returns the HTTP status, or -1 with a message in err on a network error (after one retry, as on a 5xx
 * status); the body of a 200 in *body (malloc'd) if body != NULL, at most GLOW_CACHE_MAX_ENTRY_BYTES. */
int glow_http_request(const glow_http_remote *r, const char *method, const char *key, const void *data, size_t size,
                      void **body, size_t *body_size, char *err, size_t errcap);

#endif
