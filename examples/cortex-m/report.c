#include "report.h"

#include "board.h"

void report_bytes(const char *label, const void *bytes, size_t size) {
  const uint8_t *b = bytes;
  char hex[65];
  size_t used = 0;
  board_print(label);
  board_print(": ");
  for (size_t i = 0; i < size; i++) {
    hex[used++] = "0123456789abcdef"[b[i] >> 4];
    hex[used++] = "0123456789abcdef"[b[i] & 15];
    if (used == sizeof hex - 1 || i + 1 == size) {
      hex[used] = '\0';
      board_print(hex);
      used = 0;
    }
  }
  board_print("\n");
}

static void print_u64(uint64_t v) {
  if (v >= 1000000000u) {
    print_u64(v / 1000000000u);
    uint32_t low = (uint32_t)(v % 1000000000u);
    for (uint32_t d = 100000000u; d > low && d > 1; d /= 10)
      board_print("0");
    board_print_uint(low);
  } else {
    board_print_uint((uint32_t)v);
  }
}

void report_ticks(uint64_t ticks, uint32_t runs) {
  if (!board_arg("icount") || runs == 0)
    return;
  uint32_t hz = board_tick_hz();
  board_print("ticks per inference: ");
  print_u64(ticks / runs);
  board_print(" (SysTick at ");
  board_print_uint(hz);
  board_print(" Hz)\ninstructions per inference: ");
  print_u64(ticks * 1000000000u / hz / runs);
  board_print("\n");
}
