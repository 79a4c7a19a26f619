/* A minimal HTTP/1.1 client for the remote compile cache: one request per
 * connection (Connection: close), body sized by Content-Length (or the close)
 * and capped at GLOW_CACHE_MAX_ENTRY_BYTES, plain http:// only. The same
 * GET/PUT protocol as Bazel's HTTP remote cache (nginx WebDAV). */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "glowc.h"

#define TIMEOUT_MS 10000

int glow_http_url_check(const char *url, char *err, size_t errcap) {
  if (!strncmp(url, "https://", 8)) {
    snprintf(err, errcap, "https is not supported: glowc speaks plain http:// only (put a TLS-terminating proxy "
                          "on localhost in front of the cache)");
    return -1;
  }
  if (strncmp(url, "http://", 7) || !url[7] || url[7] == '/' || url[7] == ':') {
    snprintf(err, errcap, "'%s' is not http://host[:port][/prefix]", url);
    return -1;
  }
  return 0;
}

/* "http://host[:port][/prefix]" + key -> host, port, "/prefix/key". */
static void split_url(const char *url, const char *key, char **host, char **port, char **path) {
  const char *h = url + 7, *slash = strchr(h, '/');
  size_t hl = slash ? (size_t)(slash - h) : strlen(h);
  const char *colon = memchr(h, ':', hl);
  size_t nl = colon ? (size_t)(colon - h) : hl;
  *host = glow_xmalloc(nl + 1);
  memcpy(*host, h, nl);
  (*host)[nl] = 0;
  size_t pn = colon ? hl - nl - 1 : 0;
  *port = glow_xmalloc(pn + 3);
  snprintf(*port, pn + 3, "%.*s", (int)pn, pn ? colon + 1 : "80");
  if (!pn)
    strcpy(*port, "80");
  const char *prefix = slash ? slash : "";
  size_t pl = strlen(prefix);
  while (pl && prefix[pl - 1] == '/')
    pl--;
  *path = glow_xmalloc(pl + strlen(key) + 2);
  snprintf(*path, pl + strlen(key) + 2, "%.*s/%s", (int)pl, prefix, key);
}

static int connect_to(const char *host, const char *port, char *err, size_t errcap) {
  struct addrinfo hints, *res, *ai;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  int rc = getaddrinfo(host, port, &hints, &res);
  if (rc) {
    snprintf(err, errcap, "cannot resolve %s:%s: %s", host, port, gai_strerror(rc));
    return -1;
  }
  int fd = -1;
  for (ai = res; ai && fd < 0; ai = ai->ai_next) {
    fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
    if (fd < 0)
      continue;
    /* Non-blocking connect, so an unreachable cache costs seconds, not minutes. */
    int fl = fcntl(fd, F_GETFL);
    fcntl(fd, F_SETFL, fl | O_NONBLOCK);
    int ok = connect(fd, ai->ai_addr, ai->ai_addrlen) == 0;
    if (!ok && errno == EINPROGRESS) {
      struct pollfd p = {.fd = fd, .events = POLLOUT};
      int soerr = 0;
      socklen_t sl = sizeof soerr;
      ok = poll(&p, 1, TIMEOUT_MS) == 1 && !getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) && !soerr;
      errno = soerr ? soerr : ETIMEDOUT;
    }
    if (!ok) {
      snprintf(err, errcap, "cannot connect to %s:%s: %s", host, port, strerror(errno));
      close(fd);
      fd = -1;
      continue;
    }
    fcntl(fd, F_SETFL, fl);
    struct timeval tv = {TIMEOUT_MS / 1000, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  }
  freeaddrinfo(res);
  return fd;
}

static int send_all(int fd, const void *data, size_t size) {
  const char *p = data;
  while (size) {
    ssize_t n = send(fd, p, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return -1;
    p += n, size -= (size_t)n;
  }
  return 0;
}

#define HEAD_MAX (64 << 10) /* status line and headers */

/* The head (status line and headers, NUL-terminated in place of the blank line): the status, and
 * the Content-Length in *len, or UINT64_MAX without one; -1 if malformed. */
static int parse_head(char *r, uint64_t *len, char *err, size_t errcap) {
  int status;
  if (sscanf(r, "HTTP/1.%*d %d", &status) != 1 || status < 100 || status > 999) {
    snprintf(err, errcap, "malformed HTTP response");
    return -1;
  }
  *len = UINT64_MAX;
  for (char *line = strstr(r, "\r\n"); line; line = strstr(line + 2, "\r\n")) {
    if (!strncasecmp(line + 2, "Transfer-Encoding:", 18)) {
      snprintf(err, errcap, "chunked HTTP responses are not supported");
      return -1;
    }
    if (strncasecmp(line + 2, "Content-Length:", 15))
      continue;
    const char *p = line + 17;
    uint64_t v = 0;
    while (*p == ' ' || *p == '\t')
      p++;
    const char *digits = p;
    for (; *p >= '0' && *p <= '9'; p++) /* saturates: a claim too big for 64 bits is over any limit */
      v = v > (UINT64_MAX - 9) / 10 ? UINT64_MAX - 1 : v * 10 + (uint64_t)(*p - '0');
    while (*p == ' ' || *p == '\t')
      p++;
    if (p == digits || (*p && *p != '\r') || (*len != UINT64_MAX && *len != v)) {
      snprintf(err, errcap, "malformed HTTP response (bad or conflicting Content-Length)");
      return -1;
    }
    *len = v;
  }
  return status;
}

/* Reads the response as it arrives: the head first, then the body up to its Content-Length (not
 * waiting for the close), or without one up to the close. Memory grows with the bytes received,
 * never with a claimed size, and never past GLOW_CACHE_MAX_ENTRY_BYTES of body. */
static int read_response(int fd, const char *where, void **body, size_t *body_size, char *err, size_t errcap) {
  char *r = NULL;
  size_t n = 0, cap = 0, head = 0; /* head: bytes of head and blank line, once seen */
  uint64_t len = UINT64_MAX, limit = HEAD_MAX; /* limit: bytes to read at most (+1 to see "more") */
  int status = -1;
  for (;;) {
    if (head && len != UINT64_MAX && n >= head + len)
      break;
    if (n == cap) {
      uint64_t want = cap ? (uint64_t)cap * 2 : 1 << 16;
      cap = (size_t)(want < limit + 1 ? want : limit + 1);
      r = glow_xrealloc(r, cap + 1);
    }
    size_t room = cap - n;
    if (head && len != UINT64_MAX && room > head + len - n)
      room = (size_t)(head + len - n);
    ssize_t got = recv(fd, r + n, room, 0);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0) {
      snprintf(err, errcap, "cannot read the response from %s: %s", where, strerror(errno));
      goto fail;
    }
    if (got == 0)
      break;
    size_t from = n > 3 ? n - 3 : 0;
    n += (size_t)got;
    if (!head) {
      for (size_t i = from; i + 3 < n && !head; i++)
        if (!memcmp(r + i, "\r\n\r\n", 4))
          head = i + 4;
      if (!head && n > HEAD_MAX) {
        snprintf(err, errcap, "malformed HTTP response (no end of headers in %d bytes)", HEAD_MAX);
        goto fail;
      }
      if (!head)
        continue;
      r[head - 2] = 0;
      if ((status = parse_head(r, &len, err, errcap)) < 0)
        goto fail;
      if (len != UINT64_MAX && len > GLOW_CACHE_MAX_ENTRY_BYTES) {
        snprintf(err, errcap, "HTTP response claims %llu body bytes, over the limit of %llu: refused",
                 (unsigned long long)len, (unsigned long long)GLOW_CACHE_MAX_ENTRY_BYTES);
        goto fail;
      }
      limit = head + (len != UINT64_MAX ? len : GLOW_CACHE_MAX_ENTRY_BYTES);
    }
    if (len == UINT64_MAX && n > limit) {
      snprintf(err, errcap, "HTTP response body over the limit of %llu bytes: refused",
               (unsigned long long)GLOW_CACHE_MAX_ENTRY_BYTES);
      goto fail;
    }
  }
  if (!head) {
    snprintf(err, errcap, "malformed HTTP response");
    goto fail;
  }
  size_t have = n - head;
  if (len != UINT64_MAX && have < len) {
    snprintf(err, errcap, "HTTP response truncated (%zu of %llu body bytes)", have, (unsigned long long)len);
    goto fail;
  }
  if (len != UINT64_MAX) /* bytes past Content-Length (in the head's read) are not the body's */
    have = (size_t)len;
  if (body) {
    memmove(r, r + head, have); /* the body in place: no second copy of a big entry */
    *body = r;
    *body_size = have;
  } else {
    free(r);
  }
  return status;
fail:
  free(r);
  return -1;
}

int glow_http_request(const char *method, const char *url, const char *key, const void *data, size_t size,
                      void **body, size_t *body_size, char *err, size_t errcap) {
  char *host, *port, *path;
  split_url(url, key, &host, &port, &path);
  int status = -1, fd = connect_to(host, port, err, errcap);
  if (fd < 0)
    goto done;
  char head[1024];
  int hn = snprintf(head, sizeof head,
                    "%s %s HTTP/1.1\r\nHost: %s:%s\r\nUser-Agent: glowc/" GLOWC_VERSION
                    "\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n",
                    method, path, host, port, size);
  if (hn < 0 || (size_t)hn >= sizeof head || send_all(fd, head, (size_t)hn) || (size && send_all(fd, data, size))) {
    snprintf(err, errcap, "cannot send the request to %s:%s: %s", host, port, strerror(errno));
    goto done;
  }
  char where[300];
  snprintf(where, sizeof where, "%s:%s", host, port);
  status = read_response(fd, where, body, body_size, err, errcap);
done:
  if (fd >= 0)
    close(fd);
  free(host);
  free(port);
  free(path);
  return status;
}
