/*
 * The bench's socket load generator: windows, ramps, rounds and reconnect storms in one C thread on
 * epoll, so counting frames costs a small share of a core and the generator is not what limits a
 * socket capacity on a 2-core machine. Driven by native-client.ts over stdin/stdout:
 *
 *   argv: host port path protocol(ws|socket.io) uuid-path(0|1) connect-concurrency stall-ms coalesce-us
 *   stdin, first: the plan, one client per "c <rated 0|1> <traded> <frames>" line followed by
 *     <frames> lines "f <text>", each text one subscribe frame as it goes on the wire
 *     (already a Socket.IO event for socket.io), then "end". Answer: {"ready":true}.
 *   then one command per line, each answered by one JSON line on stdout:
 *     connect [stall-ms]     every plan's socket open and  {"opened","failed":0,"retried","ms"}
 *                            its first frame in (ready)    or {"error"} naming what is missing
 *     wait <timeout-ms>      until each has a frame        {"ms","missing"}
 *     open [stall-ms]        a window from the moment      {"from","sockets","reconnected","readyMs"}
 *                            every socket is ready again   or {"error"}; never a window over fewer
 *     close <grace-ms>       ends it; counts after grace   {"from","to","seconds","raw":{"delivered","histogram"},…}
 *     end                    ends it, answers at once      {"from","to"}, then
 *     settle <min-grace-ms> <max-grace-ms> <raw> <rated>
 *                            counts until every frame published in it is in (raw and rated
 *                            delivered; -1: no early end) after min-grace, or max-grace: as close
 *     stats                                                {"open","frames"}
 *     storm <timeout-ms> <handshakes>, then one line per plan: its waits (ms), space-separated
 *                            every socket dropped at once, {"sockets","failed","retries","openMs",
 *                            each reopened after its wait,  "ms","missing"}
 *                            the next wait after a failure
 *     quit
 *
 * A storm's waits come from the web client's back-off code, drawn in Node (native-client.ts); here
 * each socket is reopened once its wait is over, at most <handshakes> at once. A socket out of
 * waits, or whose next wait ends past the timeout, has failed; one open without a frame at the end
 * is missing.
 *
 * The publish time is read from the end of each frame's text (with a top-level "ts" lookup as its
 * fallback), the market list's frames told by their symbol, and frames counted by publish time (see
 * window_record). Latencies go out as a sparse histogram, summarised by window-accounting.ts.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_LATENCY_MS 120000
#define READ_CHUNK 65536
#define MAX_EVENTS 2048
/* a pass with fewer ready sockets than this is followed by a pause of coalesce_us */
#define COALESCE_BELOW 256

enum { ST_IDLE, ST_CONNECTING, ST_HANDSHAKE, ST_ENGINE, ST_OPEN, ST_CLOSED };

typedef struct {
  int rated;
  char *traded;
  size_t traded_len;
  int nframes;
  char **frames;
} Plan;

typedef struct {
  int fd;
  int state;
  int plan;
  int awaiting_first;
  double started_ms; /* monotonic: when its latest attempt began */
  int attempts;      /* sockets opened for this plan since the fleet was last asked to be ready */
  uint8_t *in;       /* bytes not yet walked: a frame cut across reads, or the HTTP answer */
  size_t in_len, in_cap;
  uint8_t *msg; /* a fragmented message being put together */
  size_t msg_len, msg_cap;
  int msg_open;
  uint8_t *out; /* bytes the kernel did not take yet */
  size_t out_len, out_cap;
  int want_out;
  /* the reconnect storm */
  int storm;     /* STORM_*: where this socket is in the storm */
  double due_ms; /* monotonic: when its next attempt starts */
  double *waits; /* its waits before each attempt, from the back-off */
  int nwaits, next_wait;
} Conn;

enum { STORM_OFF, STORM_WAITING, STORM_TRYING, STORM_OPENED, STORM_GAVE_UP };

typedef struct {
  uint64_t delivered;
  uint32_t *histogram;
} Counts;

typedef struct {
  int active;  /* frames are recorded into it */
  int closing; /* closed, waiting out the grace */
  double from, to;
  double started_mono, seconds, ended_mono;
  double cpu_percent;
  uint64_t socket_errors;
  double grace_until;
  /* "settle": the grace may end early, once it has run min_grace_until and every frame published
   * in the window is in (expect_raw and expect_rated; -1 waits out the grace) */
  double min_grace_until;
  int64_t expect_raw, expect_rated;
  Counts raw, rated;
  uint64_t backlog;
  /* how long each pass over the ready sockets took, in 0.1 ms: a frame that arrives meanwhile waits */
  uint32_t *stalls;
  double stall_max;
} Window;
#define STALL_BUCKETS 10001

static const char *host, *base_path, *protocol;
static int port, uuid_path, socketio, concurrency = 200;
static double default_stall_ms = 30000;
static long coalesce_us = 0;
static Plan *plans;
static int nplans;
static Conn *conns;
static int epfd;
static uint8_t readbuf[READ_CHUNK];
static uint64_t total_frames, socket_errors, passes, events_seen;
static int awaiting;
static Window win;
static int urandom_fd = -1;

/* getting the fleet ready (prepare) */
#define MAX_ATTEMPTS 3
enum { PREPARE_NONE, PREPARE_CONNECT, PREPARE_OPEN };
static int preparing, inflight, failures;
static double prepare_started, last_progress, stall_ms;
static char last_failure[160];
/* wait */
static int waiting;
static double wait_started, wait_deadline;
/* storm */
static int storming, storm_handshakes, storm_lines_left, storm_retries;
static double storm_started, storm_deadline, storm_last_open;

static double mono_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
/* Date.now(): whole epoch milliseconds, the clock the feed stamps frames with. */
static double epoch_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (double)((int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}
static double cpu_ms(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec * 1e3 + ru.ru_utime.tv_usec / 1e3 + ru.ru_stime.tv_sec * 1e3 +
         ru.ru_stime.tv_usec / 1e3;
}
static void die(const char *what) {
  fprintf(stderr, "native-gen: %s: %s\n", what, strerror(errno));
  exit(2);
}
static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) die("out of memory");
  return q;
}
static void random_bytes(uint8_t *buf, size_t n) {
  if (urandom_fd < 0 && (urandom_fd = open("/dev/urandom", O_RDONLY)) < 0) die("/dev/urandom");
  while (n > 0) {
    ssize_t got = read(urandom_fd, buf, n);
    if (got <= 0) die("/dev/urandom");
    buf += got;
    n -= (size_t)got;
  }
}

static void reply(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void reply(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stdout, fmt, ap);
  va_end(ap);
  fputc('\n', stdout);
  fflush(stdout);
}

/* ---- publish time ---- */

static int is_space(int c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
static int is_digit(int c) { return c >= '0' && c <= '9'; }

/* The fallback's JSON.parse, reduced to what it is used for: the number under the top-level "ts"
 * of the object (or, after a Socket.IO "42", of the array's second element). */
static int parsed_ts(const uint8_t *p, size_t n, double *out) {
  size_t i = 0;
  int target_depth = 1, in_array = 0;
  if (n >= 3 && p[0] == '4' && p[1] == '2' && p[2] == '[') i = 2;
  while (i < n && is_space(p[i])) i++;
  if (i >= n) return 0;
  if (p[i] == '[') in_array = 1, target_depth = 2;
  else if (p[i] != '{') return 0;
  int depth = 0, element = 0, found = 0;
  double value = 0;
  for (; i < n; i++) {
    uint8_t c = p[i];
    if (c == '"') {
      size_t start = ++i;
      while (i < n && p[i] != '"') i += p[i] == '\\' ? 2 : 1;
      if (i >= n) return 0;
      size_t end = i;
      /* a key of the object looked in: a string at its depth followed by ':' */
      if (depth == target_depth && (!in_array || element == 1)) {
        size_t j = i + 1;
        while (j < n && is_space(p[j])) j++;
        if (j < n && p[j] == ':' && end - start == 2 && p[start] == 't' && p[start + 1] == 's') {
          j++;
          while (j < n && is_space(p[j])) j++;
          if (j < n && (is_digit(p[j]) || p[j] == '-')) {
            char tmp[64];
            size_t k = 0;
            while (j < n && k < sizeof tmp - 1 &&
                   (is_digit(p[j]) || p[j] == '.' || p[j] == '-' || p[j] == '+' || p[j] == 'e' || p[j] == 'E'))
              tmp[k++] = (char)p[j++];
            tmp[k] = 0;
            value = strtod(tmp, NULL);
            found = 1;
          } else {
            found = 0; /* a later "ts" that is not a number wins in JSON.parse, and is no time */
          }
        }
      }
    } else if (c == '{' || c == '[') {
      depth++;
    } else if (c == '}' || c == ']') {
      depth--;
      if (depth == 0) break;
    } else if (c == ',' && in_array && depth == 1) {
      element++;
    }
  }
  if (found) *out = value;
  return found;
}

static int extract_ts(const uint8_t *f, size_t n, double *out) {
  long i = (long)n - 1;
  while (i >= 0 && is_space(f[i])) i--;
  if (i >= 0 && f[i] == ']') {
    i--;
    while (i >= 0 && is_space(f[i])) i--;
  }
  if (i >= 0 && f[i] == '}') {
    i--;
    while (i >= 0 && is_space(f[i])) i--;
    long end = i + 1;
    int fractional = 0;
    while (i >= 0 && (is_digit(f[i]) || f[i] == '.')) {
      if (f[i] == '.') fractional = 1;
      i--;
    }
    long start = i + 1;
    while (i >= 0 && is_space(f[i])) i--;
    if (end > start && i >= 0 && f[i] == ':') {
      i--;
      while (i >= 0 && is_space(f[i])) i--;
      if (i >= 3 && memcmp(f + i - 3, "\"ts\"", 4) == 0) {
        if (fractional) {
          char tmp[64];
          long len = end - start < 63 ? end - start : 63;
          memcpy(tmp, f + start, (size_t)len);
          tmp[len] = 0;
          char *stop;
          *out = strtod(tmp, &stop);
          if (*stop) return parsed_ts(f, n, out); /* Number("1.2.3") is NaN; not a time */
          return 1;
        }
        double v = 0;
        for (long at = start; at < end; at++) v = v * 10 + (f[at] - '0');
        *out = v;
        return 1;
      }
    }
  }
  return parsed_ts(f, n, out);
}

/* listFrameTest: the market list's DETAIL, never the traded symbol's. */
static const char DETAIL_PREFIX[] = "{\"type\":\"DETAIL\",\"symbol\":\"";
static int is_list_frame(const Plan *plan, const uint8_t *p, size_t n, size_t offset) {
  size_t prefix = sizeof DETAIL_PREFIX - 1;
  if (n < offset + prefix + plan->traded_len + 1) return 0;
  if (memcmp(p + offset, DETAIL_PREFIX, prefix) != 0) return 0;
  const uint8_t *symbol = p + offset + prefix;
  return !(memcmp(symbol, plan->traded, plan->traded_len) == 0 && symbol[plan->traded_len] == '"');
}

/* ---- window accounting: a frame is the window's if it was published inside it, whenever it
 * arrives; one published before it that arrives while it is open is backlog ---- */

static void counts_add(Counts *c, double latency) {
  c->delivered++;
  double rounded = floor(latency + 0.5); /* Math.round */
  if (rounded < 0) rounded = 0;
  if (rounded > MAX_LATENCY_MS) rounded = MAX_LATENCY_MS;
  c->histogram[(int)rounded]++;
}
static void window_record(double published, double received, int rated) {
  if (published < win.from) {
    if (!win.closing || received <= win.to) win.backlog++;
    return;
  }
  if (win.closing && published > win.to) return;
  counts_add(rated ? &win.rated : &win.raw, received - published);
}

/* ---- sockets ---- */

static void out_append(Conn *c, const uint8_t *data, size_t n) {
  if (c->out_len + n > c->out_cap) {
    c->out_cap = (c->out_len + n) * 2;
    c->out = xrealloc(c->out, c->out_cap);
  }
  memcpy(c->out + c->out_len, data, n);
  c->out_len += n;
}

static void conn_close(Conn *c) {
  if (c->fd >= 0) {
    close(c->fd);
    c->fd = -1;
  }
  if (c->awaiting_first) {
    c->awaiting_first = 0;
    awaiting--;
  }
  c->state = ST_CLOSED;
  c->in_len = c->msg_len = c->out_len = 0;
  c->msg_open = 0;
  c->want_out = 0;
}

static void flush_out(Conn *c);

/* A client frame: FIN, the opcode, the payload masked as RFC 6455 requires (maskedFrame). */
static void send_frame(Conn *c, int opcode, const uint8_t *payload, size_t n) {
  uint8_t header[14];
  size_t h = 0;
  header[h++] = (uint8_t)(0x80 | opcode);
  if (n < 126) header[h++] = (uint8_t)(0x80 | n);
  else if (n < 65536) {
    header[h++] = 0x80 | 126;
    header[h++] = (uint8_t)(n >> 8);
    header[h++] = (uint8_t)n;
  } else {
    header[h++] = 0x80 | 127;
    for (int s = 56; s >= 0; s -= 8) header[h++] = (uint8_t)((uint64_t)n >> s);
  }
  uint8_t mask[4];
  random_bytes(mask, 4);
  memcpy(header + h, mask, 4);
  h += 4;
  out_append(c, header, h);
  size_t at = c->out_len;
  out_append(c, payload, n);
  for (size_t i = 0; i < n; i++) c->out[at + i] ^= mask[i & 3];
}
static void send_text(Conn *c, const char *text) { send_frame(c, 0x1, (const uint8_t *)text, strlen(text)); }

static void handshake_done(Conn *c, int ok);
static void fail(Conn *c, const char *why);
static void open_window(int reconnected, double waited_ms);

static void on_ready(Conn *c) {
  Plan *plan = &plans[c->plan];
  c->state = ST_OPEN;
  c->awaiting_first = 1;
  awaiting++;
  for (int i = 0; i < plan->nframes; i++) send_text(c, plan->frames[i]);
  handshake_done(c, 1);
}

static void on_frame(Conn *c, const uint8_t *p, size_t n, size_t offset, double now) {
  total_frames++;
  if (c->awaiting_first) {
    c->awaiting_first = 0;
    awaiting--;
    last_progress = mono_ms();
  }
  if (!win.active) return;
  double ts;
  if (!extract_ts(p, n, &ts)) return;
  Plan *plan = &plans[c->plan];
  window_record(ts, now, plan->rated && is_list_frame(plan, p, n, offset));
}

/* The server closed or refused a Socket.IO connect before it was ready: a failed open. */
static void refused(Conn *c) { fail(c, "the server refused the Socket.IO connect"); }

static const char EVENT_PREFIX[] = "42[\"message\",";

/* One whole text message: the gateway's protocol as it is, or a Socket.IO packet (readSocketIoPacket). */
static void on_text(Conn *c, const uint8_t *p, size_t n, double now) {
  if (!socketio) {
    on_frame(c, p, n, 0, now);
    return;
  }
  if (n == 0) return;
  uint8_t engine = p[0];
  if (engine == '0') {
    if (c->state == ST_ENGINE) send_text(c, "40");
  } else if (engine == '1') {
    if (c->state != ST_OPEN) refused(c);
  } else if (engine == '2') {
    send_text(c, "3");
  } else if (engine == '4' && n >= 2) {
    uint8_t packet = p[1];
    if (packet == '2') {
      size_t prefix = sizeof EVENT_PREFIX - 1;
      if (n >= prefix && memcmp(p, EVENT_PREFIX, prefix) == 0) on_frame(c, p, n, prefix, now);
    } else if (packet == '0') {
      if (c->state == ST_ENGINE) on_ready(c);
    } else if (packet == '1' || packet == '4') {
      if (c->state != ST_OPEN) refused(c);
    }
  }
}

/* Walks whole frames from p; returns how many bytes it used (the rest is a frame cut short). */
static size_t walk_frames(Conn *c, uint8_t *p, size_t n, double now) {
  size_t at = 0;
  while (n - at >= 2 && c->state != ST_CLOSED) {
    int fin = p[at] & 0x80;
    int opcode = p[at] & 0x0f;
    uint64_t length = p[at + 1] & 0x7f;
    size_t header = 2;
    if (length == 126) {
      if (n - at < 4) break;
      length = ((uint64_t)p[at + 2] << 8) | p[at + 3];
      header = 4;
    } else if (length == 127) {
      if (n - at < 10) break;
      length = 0;
      for (int i = 0; i < 8; i++) length = (length << 8) | p[at + 2 + i];
      header = 10;
    }
    int masked = p[at + 1] & 0x80;
    if (masked) header += 4;
    if (length > (uint64_t)1 << 40) { /* no server sends a terabyte frame: the stream is broken */
      socket_errors++;
      conn_close(c);
      return n;
    }
    if ((uint64_t)(n - at) < header + length) break;
    uint8_t *payload = p + at + header;
    size_t len = (size_t)length;
    if (masked) /* servers never mask; one that did still means its payload */
      for (size_t i = 0; i < len; i++) payload[i] ^= p[at + header - 4 + (i & 3)];
    if (opcode == 0x1 && fin && !c->msg_open) {
      on_text(c, payload, len, now);
    } else if (opcode == 0x1 || (opcode == 0x0 && c->msg_open)) {
      /* fragmented: the message counts once, when its last fragment is in */
      if (opcode == 0x1) c->msg_len = 0;
      c->msg_open = 1;
      if (c->msg_len + len > c->msg_cap) {
        c->msg_cap = (c->msg_len + len) * 2;
        c->msg = xrealloc(c->msg, c->msg_cap);
      }
      memcpy(c->msg + c->msg_len, payload, len);
      c->msg_len += len;
      if (fin) {
        c->msg_open = 0;
        on_text(c, c->msg, c->msg_len, now);
        c->msg_len = 0;
      }
    } else if (opcode == 0x9) {
      send_frame(c, 0xA, payload, len);
    } else if (opcode == 0x8) {
      /* the server's close: it ends the TCP connection itself */
      at += header + len;
      return n;
    }
    at += header + len;
  }
  return at;
}

static void keep_rest(Conn *c, const uint8_t *rest, size_t n) {
  if (n > c->in_cap) {
    c->in_cap = n * 2 > READ_CHUNK ? n * 2 : READ_CHUNK;
    c->in = xrealloc(c->in, c->in_cap);
  }
  memmove(c->in, rest, n);
  c->in_len = n;
}

static void arm(Conn *c, int out) {
  struct epoll_event ev = {.events = EPOLLIN | (out ? EPOLLOUT : 0), .data.u32 = (uint32_t)(c - conns)};
  if (epoll_ctl(epfd, EPOLL_CTL_MOD, c->fd, &ev) < 0) die("epoll_ctl");
  c->want_out = out;
}

static void flush_out(Conn *c) {
  if (c->fd < 0 || c->out_len == 0) {
    if (c->fd >= 0 && c->want_out && c->state >= ST_HANDSHAKE) arm(c, 0);
    return;
  }
  ssize_t sent = send(c->fd, c->out, c->out_len, MSG_NOSIGNAL);
  if (sent < 0) {
    if (errno == EAGAIN || errno == EWOULDBLOCK) sent = 0;
    else {
      if (c->state == ST_OPEN) socket_errors++;
      fail(c, strerror(errno));
      return;
    }
  }
  memmove(c->out, c->out + sent, c->out_len - (size_t)sent);
  c->out_len -= (size_t)sent;
  if ((c->out_len > 0) != (c->want_out != 0)) arm(c, c->out_len > 0);
}

static void on_http_answer(Conn *c, double now) {
  uint8_t *end = memmem(c->in, c->in_len, "\r\n\r\n", 4);
  if (!end) return;
  if (c->in_len < 12 || memcmp(c->in, "HTTP/1.1 101", 12) != 0) {
    fail(c, "the server answered the upgrade without 101");
    return;
  }
  size_t head = (size_t)(end - c->in) + 4;
  size_t rest = c->in_len - head;
  memmove(c->in, c->in + head, rest);
  c->in_len = rest;
  if (socketio) c->state = ST_ENGINE;
  else on_ready(c);
  if (rest > 0) {
    size_t used = walk_frames(c, c->in, c->in_len, now);
    if (c->state != ST_CLOSED) keep_rest(c, c->in + used, c->in_len - used);
  }
}

static void on_readable(Conn *c, double now) {
  if (c->state == ST_HANDSHAKE) {
    if (c->in_cap - c->in_len < 4096) {
      c->in_cap = c->in_cap * 2 + 4096;
      c->in = xrealloc(c->in, c->in_cap);
    }
    ssize_t got = recv(c->fd, c->in + c->in_len, c->in_cap - c->in_len, 0);
    if (got <= 0) {
      if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
      fail(c, got == 0 ? "the server closed the connection during the upgrade" : strerror(errno));
      return;
    }
    c->in_len += (size_t)got;
    on_http_answer(c, now);
    if (c->fd >= 0 && c->out_len > 0) flush_out(c);
    return;
  }
  uint8_t *data;
  size_t len;
  ssize_t got;
  if (c->in_len == 0) {
    got = recv(c->fd, readbuf, sizeof readbuf, 0);
    data = readbuf;
  } else {
    /* a frame was cut: read behind it, so it is copied once */
    if (c->in_cap - c->in_len < READ_CHUNK) {
      c->in_cap = c->in_len + READ_CHUNK * 2;
      c->in = xrealloc(c->in, c->in_cap);
    }
    got = recv(c->fd, c->in + c->in_len, c->in_cap - c->in_len, 0);
    data = c->in;
  }
  if (got <= 0) {
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
    if (got < 0) socket_errors++;
    fail(c, got == 0 ? "the server closed the connection" : strerror(errno));
    return;
  }
  len = data == readbuf ? (size_t)got : c->in_len + (size_t)got;
  size_t used = walk_frames(c, data, len, now);
  if (c->state == ST_CLOSED) return;
  if (data == readbuf) {
    if (used < len) keep_rest(c, data + used, len - used);
  } else {
    memmove(c->in, c->in + used, len - used);
    c->in_len = len - used;
  }
  if (c->out_len > 0) flush_out(c);
}

static void uuid4(char *out) {
  uint8_t b[16];
  random_bytes(b, 16);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  sprintf(out, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3],
          b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

static void on_connected(Conn *c) {
  int err = 0;
  socklen_t len = sizeof err;
  if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0 || err != 0) {
    fail(c, strerror(err ? err : errno));
    return;
  }
  uint8_t keybytes[16];
  random_bytes(keybytes, 16);
  static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  char key[25];
  int k = 0;
  for (int i = 0; i < 16; i += 3) {
    uint32_t v = (uint32_t)keybytes[i] << 16 | (i + 1 < 16 ? keybytes[i + 1] << 8 : 0) | (i + 2 < 16 ? keybytes[i + 2] : 0);
    key[k++] = b64[(v >> 18) & 63];
    key[k++] = b64[(v >> 12) & 63];
    key[k++] = i + 1 < 16 ? b64[(v >> 6) & 63] : '=';
    key[k++] = i + 2 < 16 ? b64[v & 63] : '=';
  }
  key[k] = 0;
  char path[1024], id[40] = "";
  if (uuid_path) uuid4(id);
  snprintf(path, sizeof path, "%s%s%s", base_path, uuid_path ? "/" : "", id);
  char request[2048];
  int n = snprintf(request, sizeof request,
                   "GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n",
                   path, host, port, key);
  c->state = ST_HANDSHAKE;
  out_append(c, (const uint8_t *)request, (size_t)n);
  flush_out(c);
}

static struct sockaddr_storage target;
static socklen_t target_len;

static void start_conn(int plan_index) {
  Conn *c = &conns[plan_index];
  c->plan = plan_index;
  c->attempts++;
  c->in_len = c->out_len = c->msg_len = 0;
  c->msg_open = 0;
  c->state = ST_CONNECTING;
  c->started_ms = mono_ms();
  inflight++;
  c->fd = socket(target.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (c->fd < 0) {
    fail(c, strerror(errno));
    return;
  }
  int one = 1;
  setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  struct epoll_event ev = {.events = EPOLLOUT | EPOLLIN, .data.u32 = (uint32_t)plan_index};
  c->want_out = 1;
  if (epoll_ctl(epfd, EPOLL_CTL_ADD, c->fd, &ev) < 0) die("epoll_ctl add");
  if (connect(c->fd, (struct sockaddr *)&target, target_len) < 0 && errno != EINPROGRESS)
    fail(c, strerror(errno));
}

/* A storm's socket waits its next wait from `from`, or has failed when none is left before the timeout. */
static void storm_schedule(Conn *c, double from) {
  if (c->next_wait >= c->nwaits || from + c->waits[c->next_wait] > storm_deadline) {
    c->storm = STORM_GAVE_UP;
    return;
  }
  c->due_ms = from + c->waits[c->next_wait++];
  c->storm = STORM_WAITING;
}

/* A socket's handshake ended: opened, or failed (the plan may be tried again); the next may start. */
static void handshake_done(Conn *c, int ok) {
  if (c->state != ST_CONNECTING && c->state != ST_HANDSHAKE && c->state != ST_ENGINE && !(ok && c->state == ST_OPEN))
    return;
  inflight--;
  double now = mono_ms();
  if (ok) {
    last_progress = now;
  } else {
    failures++;
    c->state = ST_CLOSED; /* conn_close follows */
  }
  if (c->storm != STORM_TRYING) return;
  if (ok) {
    c->storm = STORM_OPENED;
    storm_last_open = now;
  } else {
    storm_retries++;
    storm_schedule(c, now);
  }
}

/* A socket that cannot go on: its handshake counted as failed if it was in one, the reason kept. */
static void fail(Conn *c, const char *why) {
  if (preparing || c->state != ST_OPEN) snprintf(last_failure, sizeof last_failure, "%s", why);
  handshake_done(c, 0);
  conn_close(c);
}

/*
 * Getting the fleet ready, for "connect" and before every window ("open"): every plan's socket
 * opened (its upgrade answered, for Socket.IO its connect acknowledged), its subscribe frames sent
 * and a first frame received for them. At most `concurrency` handshakes at once, so the server's
 * accept queue and its upgrade work never see the whole fleet at one instant; a socket that fails
 * or is closed is opened again, up to MAX_ATTEMPTS times per plan. It ends when every socket is
 * ready, or with an error naming what was missing: a plan out of attempts, or no socket opening
 * or receiving its first frame for `stall_ms` (a server that stopped answering, however slow the
 * machine; one that is slow but answering keeps the fleet waiting).
 */
static void prepare_step(void) {
  if (!preparing) return;
  double now = mono_ms();
  int ready = 0, open = 0, handshaking = 0, given_up = 0;
  for (int i = 0; i < nplans; i++) {
    Conn *c = &conns[i];
    if ((c->state == ST_IDLE || c->state == ST_CLOSED) && c->attempts < MAX_ATTEMPTS && inflight < concurrency)
      start_conn(i);
    if (c->state == ST_OPEN) {
      open++;
      if (!c->awaiting_first) ready++;
    } else if (c->state == ST_CONNECTING || c->state == ST_HANDSHAKE || c->state == ST_ENGINE) {
      handshaking++;
    } else if (c->attempts >= MAX_ATTEMPTS) {
      given_up++;
    }
  }
  const char *why = NULL;
  if (ready == nplans) {
    int mode = preparing;
    preparing = 0;
    double ms = now - prepare_started;
    if (mode == PREPARE_CONNECT)
      reply("{\"opened\":%d,\"failed\":0,\"failedPlans\":[],\"retried\":%d,\"ms\":%.3f}", nplans, failures, ms);
    else
      open_window(failures, ms);
    return;
  }
  if (given_up > 0) why = "sockets failed on every attempt";
  else if (now - last_progress > stall_ms) why = "no socket opened or received its first frame";
  if (!why) return;
  preparing = 0;
  char detail[160];
  if (given_up > 0) snprintf(detail, sizeof detail, "%d of %d sockets failed %d times", given_up, nplans, MAX_ATTEMPTS);
  else snprintf(detail, sizeof detail, "%.0f ms with no socket opened and no first frame", stall_ms);
  reply("{\"error\":\"the fleet is not ready: %d of %d sockets ready (%d open, %d of them without a first frame; "
        "%d in their handshake; %d given up): %s (%s); last failure: %s\",\"ready\":%d,\"open\":%d,"
        "\"handshaking\":%d,\"givenUp\":%d}",
        ready, nplans, open, open - ready, handshaking, given_up, why, detail,
        last_failure[0] ? last_failure : "none", ready, open, handshaking, given_up);
}

/* Closes every socket at once, as a server going away would. */
static void drop_all(void) {
  for (int i = 0; i < nplans; i++)
    if (conns[i].fd >= 0) conn_close(&conns[i]);
  awaiting = 0;
  inflight = 0; /* handshakes left by a failed connect end here too */
}

/* Every socket dropped, then each waits its first wait (the waits are in, one line per plan). */
static void storm_begin(void) {
  drop_all();
  storm_started = storm_last_open = mono_ms();
  storm_deadline += storm_started;
  storm_retries = 0;
  for (int i = 0; i < nplans; i++) {
    conns[i].next_wait = 0;
    storm_schedule(&conns[i], storm_started);
  }
  storming = 1;
}

static void storm_line(char *line) {
  Conn *c = &conns[nplans - storm_lines_left--];
  c->nwaits = 0;
  for (char *at = line, *end;; at = end) {
    double wait = strtod(at, &end);
    if (end == at) break;
    c->waits = xrealloc(c->waits, sizeof(double) * (size_t)(c->nwaits + 1));
    c->waits[c->nwaits++] = wait;
  }
  if (storm_lines_left == 0) storm_begin();
}

/*
 * Starts the attempts whose wait is over, at most storm_handshakes at once, in plan order; ends the
 * storm once every socket has a frame again or has failed, or at the timeout.
 */
static void storm_step(void) {
  if (!storming) return;
  double now = mono_ms();
  int settled = 1;
  for (int i = 0; i < nplans; i++) {
    Conn *c = &conns[i];
    if (c->storm == STORM_WAITING) {
      settled = 0;
      if (now >= c->due_ms && inflight < storm_handshakes) {
        c->storm = STORM_TRYING;
        start_conn(i);
      }
    } else if (c->storm == STORM_TRYING || (c->storm == STORM_OPENED && c->state == ST_OPEN && c->awaiting_first)) {
      settled = 0;
    }
  }
  if (!settled && now < storm_deadline) return;
  int sockets = 0, failed = 0, missing = 0;
  for (int i = 0; i < nplans; i++) {
    Conn *c = &conns[i];
    if (c->storm != STORM_OPENED) {
      failed++;
    } else {
      sockets++;
      if (c->state != ST_OPEN || c->awaiting_first) missing++;
    }
    c->storm = STORM_OFF;
  }
  storming = 0;
  reply("{\"sockets\":%d,\"failed\":%d,\"retries\":%d,\"openMs\":%.3f,\"ms\":%.3f,\"missing\":%d}", sockets,
        failed, storm_retries, storm_last_open - storm_started, now - storm_started, missing);
}

static void prepare(int mode, double stall) {
  preparing = mode;
  prepare_started = last_progress = mono_ms();
  stall_ms = stall > 0 ? stall : default_stall_ms;
  failures = 0;
  last_failure[0] = 0;
  for (int i = 0; i < nplans; i++) conns[i].attempts = 0;
  prepare_step();
}

/* ---- commands ---- */

static void summarise_counts(const char *name, Counts *c) {
  printf("\"%s\":{\"delivered\":%llu,\"histogram\":[", name, (unsigned long long)c->delivered);
  int first = 1;
  for (int ms = 0; ms <= MAX_LATENCY_MS; ms++) {
    if (!c->histogram[ms]) continue;
    printf("%s[%d,%u]", first ? "" : ",", ms, c->histogram[ms]);
    first = 0;
  }
  printf("]}");
}

static void finish_window(void) {
  printf("{\"from\":%.0f,\"to\":%.0f,\"seconds\":%.6f,", win.from, win.to, win.seconds);
  summarise_counts("raw", &win.raw);
  putchar(',');
  summarise_counts("rated", &win.rated);
  uint64_t passes = 0, seen = 0;
  for (int i = 0; i < STALL_BUCKETS; i++) passes += win.stalls[i];
  double stall_p99 = 0;
  for (int i = 0; i < STALL_BUCKETS && passes > 0; i++) {
    seen += win.stalls[i];
    if (seen >= (uint64_t)ceil(0.99 * (double)passes)) {
      stall_p99 = i / 10.0;
      break;
    }
  }
  reply(",\"backlog\":%llu,\"clientCpuPercent\":%.3f,\"socketErrors\":%llu,\"stallMs\":{\"p99\":%.1f,\"max\":%.3f}}",
        (unsigned long long)win.backlog, win.cpu_percent, (unsigned long long)win.socket_errors, stall_p99,
        win.stall_max);
  win.active = win.closing = 0;
}

static double window_cpu_start;

/* A window from now: every socket is ready (prepare made sure), frames are recorded into it. */
static void open_window(int reconnected, double waited_ms) {
  memset(win.raw.histogram, 0, sizeof(uint32_t) * (MAX_LATENCY_MS + 1));
  memset(win.rated.histogram, 0, sizeof(uint32_t) * (MAX_LATENCY_MS + 1));
  win.raw.delivered = win.rated.delivered = win.backlog = 0;
  memset(win.stalls, 0, sizeof(uint32_t) * STALL_BUCKETS);
  win.stall_max = 0;
  win.from = epoch_ms();
  win.started_mono = mono_ms();
  window_cpu_start = cpu_ms();
  socket_errors = 0;
  win.active = 1;
  win.closing = 0;
  reply("{\"from\":%.0f,\"sockets\":%d,\"reconnected\":%d,\"readyMs\":%.3f}", win.from, nplans, reconnected,
        waited_ms);
}

/* The window's span ends now (its time, CPU and errors taken); frames published in it are still
 * counted until grace_until (a monotonic time, or INFINITY until "settle" sets it). */
static void stop_window(double grace_until) {
  win.to = epoch_ms();
  win.seconds = (mono_ms() - win.started_mono) / 1000;
  win.cpu_percent = win.seconds > 0 ? (cpu_ms() - window_cpu_start) / (win.seconds * 1000) * 100 : 0;
  win.socket_errors = socket_errors;
  win.closing = 1;
  win.grace_until = grace_until;
  win.expect_raw = -1;
}

static void command(char *line) {
  char *arg = strchr(line, ' ');
  if (arg) *arg++ = 0;
  double value = arg ? atof(arg) : 0;
  if (preparing || storming) {
    reply("{\"error\":\"%s while the fleet is being made ready\"}", line);
    return;
  }
  if (strcmp(line, "connect") == 0) {
    prepare(PREPARE_CONNECT, value);
  } else if (strcmp(line, "wait") == 0) {
    waiting = 1;
    wait_started = mono_ms();
    wait_deadline = wait_started + value;
  } else if (strcmp(line, "open") == 0) {
    if (win.closing) finish_window();
    prepare(PREPARE_OPEN, value);
  } else if (strcmp(line, "close") == 0) {
    if (!win.active) {
      reply("{\"error\":\"no window is open\"}");
      return;
    }
    stop_window(mono_ms() + value);
  } else if (strcmp(line, "end") == 0) {
    /* the window ends now; its grace is set by "settle" once the caller knows what was published */
    if (!win.active || win.closing) {
      reply("{\"error\":\"no window is open\"}");
      return;
    }
    stop_window(INFINITY);
    win.ended_mono = mono_ms();
    reply("{\"from\":%.0f,\"to\":%.0f}", win.from, win.to);
  } else if (strcmp(line, "settle") == 0) {
    double min_grace = 0, max_grace = 0;
    long long expect_raw = -1, expect_rated = -1;
    if (!win.closing || win.grace_until != INFINITY || !arg ||
        sscanf(arg, "%lf %lf %lld %lld", &min_grace, &max_grace, &expect_raw, &expect_rated) != 4) {
      reply("{\"error\":\"settle <min-grace-ms> <max-grace-ms> <raw> <rated> follows end\"}");
      return;
    }
    win.min_grace_until = win.ended_mono + min_grace;
    win.grace_until = win.ended_mono + max_grace;
    win.expect_raw = expect_raw;
    win.expect_rated = expect_rated;
  } else if (strcmp(line, "stats") == 0) {
    int open = 0;
    for (int i = 0; i < nplans; i++) open += conns[i].state == ST_OPEN;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    reply("{\"open\":%d,\"frames\":%llu,\"passes\":%llu,\"events\":%llu,\"userMs\":%.1f,\"systemMs\":%.1f}", open,
          (unsigned long long)total_frames, (unsigned long long)passes, (unsigned long long)events_seen,
          ru.ru_utime.tv_sec * 1e3 + ru.ru_utime.tv_usec / 1e3, ru.ru_stime.tv_sec * 1e3 + ru.ru_stime.tv_usec / 1e3);
  } else if (strcmp(line, "storm") == 0) {
    if (!arg || sscanf(arg, "%lf %d", &storm_deadline, &storm_handshakes) != 2 || storm_handshakes < 1) {
      reply("{\"error\":\"storm <timeout-ms> <handshakes>, then one line of waits per plan\"}");
      return;
    }
    storm_lines_left = nplans;
    if (nplans == 0) storm_begin();
  } else if (strcmp(line, "quit") == 0) {
    exit(0);
  } else {
    reply("{\"error\":\"unknown command\"}");
  }
}

/* The plan, then commands; one line at a time from stdin. */
static int plan_done, plan_frame_left;
static void plan_line(char *line) {
  if (strcmp(line, "end") == 0) {
    plan_done = 1;
    conns = calloc((size_t)(nplans ? nplans : 1), sizeof(Conn));
    if (!conns) die("out of memory");
    for (int i = 0; i < nplans; i++) conns[i].fd = -1, conns[i].state = ST_IDLE;
    reply("{\"ready\":true,\"clients\":%d}", nplans);
  } else if (line[0] == 'c' && line[1] == ' ') {
    plans = xrealloc(plans, sizeof(Plan) * (size_t)(nplans + 1));
    Plan *p = &plans[nplans++];
    char traded[256];
    if (sscanf(line + 2, "%d %255s %d", &p->rated, traded, &p->nframes) != 3) {
      fprintf(stderr, "native-gen: bad plan line: %s\n", line);
      exit(2);
    }
    p->traded = strdup(traded);
    p->traded_len = strlen(traded);
    p->frames = calloc((size_t)(p->nframes ? p->nframes : 1), sizeof(char *));
    plan_frame_left = p->nframes;
  } else if (line[0] == 'f' && line[1] == ' ' && nplans > 0 && plan_frame_left > 0) {
    Plan *p = &plans[nplans - 1];
    p->frames[p->nframes - plan_frame_left--] = strdup(line + 2);
  } else {
    fprintf(stderr, "native-gen: bad plan line: %s\n", line);
    exit(2);
  }
}

static char *stdin_buf;
static size_t stdin_len, stdin_cap;
static void on_stdin(void) {
  if (stdin_cap - stdin_len < 65536) {
    stdin_cap = stdin_cap * 2 + 65536;
    stdin_buf = xrealloc(stdin_buf, stdin_cap);
  }
  ssize_t got = read(0, stdin_buf + stdin_len, stdin_cap - stdin_len);
  if (got == 0) exit(0); /* the harness is gone */
  if (got < 0) {
    if (errno == EAGAIN || errno == EINTR) return;
    die("stdin");
  }
  stdin_len += (size_t)got;
  size_t start = 0;
  for (size_t i = 0; i < stdin_len; i++) {
    if (stdin_buf[i] != '\n') continue;
    stdin_buf[i] = 0;
    if (!plan_done) plan_line(stdin_buf + start);
    else if (storm_lines_left > 0) storm_line(stdin_buf + start);
    else command(stdin_buf + start);
    start = i + 1;
  }
  memmove(stdin_buf, stdin_buf + start, stdin_len - start);
  stdin_len -= start;
}

static void check_timers(void) {
  double now = mono_ms();
  prepare_step();
  storm_step();
  if (waiting && (awaiting == 0 || now >= wait_deadline)) {
    waiting = 0;
    reply("{\"ms\":%.3f,\"missing\":%d}", now - wait_started, awaiting);
  }
  if (win.closing &&
      (now >= win.grace_until ||
       (win.expect_raw >= 0 && now >= win.min_grace_until && win.raw.delivered >= (uint64_t)win.expect_raw &&
        (win.expect_rated < 0 || win.rated.delivered >= (uint64_t)win.expect_rated))))
    finish_window();
}

int main(int argc, char **argv) {
  if (argc < 6) {
    fprintf(stderr, "usage: native-gen host port path ws|socket.io uuid-path [concurrency] [stall-ms] [coalesce-us]\n");
    return 2;
  }
  host = argv[1];
  port = atoi(argv[2]);
  base_path = argv[3];
  protocol = argv[4];
  socketio = strcmp(protocol, "socket.io") == 0;
  uuid_path = atoi(argv[5]);
  if (argc > 6) concurrency = atoi(argv[6]);
  if (argc > 7) default_stall_ms = atof(argv[7]);
  if (argc > 8) coalesce_us = atol(argv[8]);
  if (coalesce_us < 0 || coalesce_us > 100000) coalesce_us = 0;

  struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res;
  char portText[16];
  snprintf(portText, sizeof portText, "%d", port);
  if (getaddrinfo(host, portText, &hints, &res) != 0 || !res) {
    fprintf(stderr, "native-gen: cannot resolve %s\n", host);
    return 2;
  }
  memcpy(&target, res->ai_addr, res->ai_addrlen);
  target_len = res->ai_addrlen;
  freeaddrinfo(res);

  struct rlimit limit;
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
  win.raw.histogram = calloc(MAX_LATENCY_MS + 1, sizeof(uint32_t));
  win.rated.histogram = calloc(MAX_LATENCY_MS + 1, sizeof(uint32_t));
  win.stalls = calloc(STALL_BUCKETS, sizeof(uint32_t));
  epfd = epoll_create1(EPOLL_CLOEXEC);
  if (epfd < 0) die("epoll_create1");
  fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);
  struct epoll_event ev = {.events = EPOLLIN, .data.u32 = UINT32_MAX};
  if (epoll_ctl(epfd, EPOLL_CTL_ADD, 0, &ev) < 0) die("epoll_ctl stdin");

  struct epoll_event events[MAX_EVENTS];
  for (;;) {
    int timeout = preparing || storming || waiting || win.closing ? 5 : 200;
    int n = epoll_wait(epfd, events, MAX_EVENTS, timeout);
    if (n < 0) {
      if (errno == EINTR) continue;
      die("epoll_wait");
    }
    if (n > 0) passes++, events_seen += (uint64_t)n;
    double now = epoch_ms();
    double pass_began = n > 0 && win.active ? mono_ms() : 0;
    for (int i = 0; i < n; i++) {
      uint32_t id = events[i].data.u32;
      if (id == UINT32_MAX) {
        on_stdin();
        continue;
      }
      Conn *c = &conns[id];
      if (c->fd < 0) continue;
      if (c->state == ST_CONNECTING) {
        if (events[i].events & (EPOLLOUT | EPOLLERR | EPOLLHUP)) on_connected(c);
        continue;
      }
      if (events[i].events & EPOLLOUT) flush_out(c);
      if (c->fd >= 0 && (events[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP))) on_readable(c, now);
    }
    if (pass_began > 0 && win.active) {
      double took = mono_ms() - pass_began;
      int bucket = (int)(took * 10);
      win.stalls[bucket < STALL_BUCKETS ? bucket : STALL_BUCKETS - 1]++;
      if (took > win.stall_max) win.stall_max = took;
    }
    check_timers();
    /* Few sockets were ready: let frames gather for a moment rather than wake for every few, each
     * wake-up and each read costing more in the kernel than the frames it brings. A frame that
     * arrives meanwhile is read up to coalesce_us later (counted in its latency, the same for
     * every system). Never while sockets are being opened or a window's grace runs out. */
    if (coalesce_us > 0 && n < COALESCE_BELOW && !preparing && !storming && !win.closing) {
      struct timespec pause = {.tv_sec = 0, .tv_nsec = coalesce_us * 1000L};
      nanosleep(&pause, NULL);
    }
  }
}
