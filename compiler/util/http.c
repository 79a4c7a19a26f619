/* A minimal HTTP/1.1 client for the remote compile cache: one request per
 * connection (Connection: close), body sized by Content-Length, plain http://
 * only. The same GET/PUT protocol as Bazel's HTTP remote cache (nginx WebDAV). */
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

/* Status line, Content-Length, body; the server closes the connection. */
static int parse_response(char *r, size_t n, void **body, size_t *body_size, char *err, size_t errcap) {
  char *end = NULL;
  for (size_t i = 0; i + 3 < n && !end; i++)
    if (!memcmp(r + i, "\r\n\r\n", 4))
      end = r + i;
  int status;
  if (!end || sscanf(r, "HTTP/1.%*d %d", &status) != 1) {
    snprintf(err, errcap, "malformed HTTP response");
    return -1;
  }
  *end = 0;
  size_t have = n - (size_t)(end + 4 - r), len = have;
  for (char *line = strstr(r, "\r\n"); line; line = strstr(line + 2, "\r\n")) {
    if (!strncasecmp(line + 2, "Content-Length:", 15))
      len = (size_t)strtoull(line + 17, NULL, 10);
    if (!strncasecmp(line + 2, "Transfer-Encoding:", 18)) {
      snprintf(err, errcap, "chunked HTTP responses are not supported");
      return -1;
    }
  }
  if (len > have) {
    snprintf(err, errcap, "HTTP response truncated (%zu of %zu body bytes)", have, len);
    return -1;
  }
  if (body) {
    *body = glow_xmalloc(len ? len : 1);
    memcpy(*body, end + 4, len);
    *body_size = len;
  }
  return status;
}

int glow_http_request(const char *method, const char *url, const char *key, const void *data, size_t size,
                      void **body, size_t *body_size, char *err, size_t errcap) {
  char *host, *port, *path;
  split_url(url, key, &host, &port, &path);
  int status = -1, fd = connect_to(host, port, err, errcap);
  char *resp = NULL;
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
  size_t n = 0, cap = 1 << 16;
  resp = glow_xmalloc(cap);
  for (;;) {
    if (n == cap)
      resp = glow_xrealloc(resp, cap *= 2);
    ssize_t r = recv(fd, resp + n, cap - n, 0);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0) {
      snprintf(err, errcap, "cannot read the response from %s:%s: %s", host, port, strerror(errno));
      goto done;
    }
    if (r == 0)
      break;
    n += (size_t)r;
  }
  status = parse_response(resp, n, body, body_size, err, errcap);
done:
  if (fd >= 0)
    close(fd);
  free(resp);
  free(host);
  free(port);
  free(path);
  return status;
}
