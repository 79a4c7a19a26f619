/* Output and exit through Arm semihosting: a 'bkpt 0xab' that the debugger
 * (or QEMU with -semihosting-config enable=on) answers. Without one attached
 * the breakpoint faults, so a board meant to run alone replaces this file. */
#include "board.h"

enum { SYS_WRITE0 = 0x04, SYS_GET_CMDLINE = 0x15, SYS_EXIT_EXTENDED = 0x20 };
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u

static uint32_t semihost(uint32_t op, const void *arg) {
  register uint32_t r0 __asm__("r0") = op;
  register const void *r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

static char line[128];
static unsigned used;

static void flush(void) {
  line[used] = '\0';
  if (used)
    semihost(SYS_WRITE0, line);
  used = 0;
}

void board_print(const char *s) {
  for (; *s; s++) {
    line[used++] = *s;
    if (*s == '\n' || used == sizeof line - 1)
      flush();
  }
}

static void print_digits(uint32_t v, unsigned base) {
  char buf[11], *p = buf + sizeof buf;
  *--p = '\0';
  do {
    *--p = "0123456789abcdef"[v % base];
    v /= base;
  } while (v);
  board_print(p);
}

void board_print_uint(uint32_t v) { print_digits(v, 10); }

void board_print_hex(uint32_t v) {
  board_print("0x");
  print_digits(v, 16);
}

/* SYS_GET_CMDLINE: QEMU answers with the image's name and -append's words. */
int board_arg(const char *word) {
  static char cmdline[256];
  uint32_t block[2] = {(uint32_t)cmdline, sizeof cmdline - 1};
  if (semihost(SYS_GET_CMDLINE, block) != 0 || block[1] >= sizeof cmdline)
    return 0;
  cmdline[block[1]] = '\0';
  for (const char *p = cmdline; *p;) {
    while (*p == ' ')
      p++;
    const char *w = word;
    while (*w && *p == *w)
      p++, w++;
    if (!*w && (*p == ' ' || !*p))
      return 1;
    while (*p && *p != ' ')
      p++;
  }
  return 0;
}

/* SYS_EXIT_EXTENDED rather than SYS_EXIT: on 32-bit Arm only it carries a status. */
_Noreturn void board_exit(int status) {
  const uint32_t block[2] = {ADP_STOPPED_APPLICATION_EXIT, (uint32_t)status};
  flush();
  semihost(SYS_EXIT_EXTENDED, block);
  for (;;)
    ;
}
