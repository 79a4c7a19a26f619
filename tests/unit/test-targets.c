/* The target descriptions (targets/target.h) as the compiler reads them: every target
 * at this interface version, its conv_tile_probe one of its own probes; the conv tiles
 * the compiler asks for (x86 zmm: 4 blocks, else 1); and the CUDA target's supports_op,
 * which refuses a call of the bundle's caller and an RNN over its fixed buffers. */
#include <stdio.h>
#include <string.h>

#include "glowc.h"
#include "target.h"

static int failures;
#define CHECK(c) ((c) ? (void)0 : (void)(failures++, fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c)))

static int tiles(const char *triple, const char *cpu) {
  glow_target_options o;
  memset(&o, 0, sizeof o);
  o.triple = triple;
  o.cpu = cpu;
  o.pic = -1;
  return glow_target_conv_tile_blocks(&o);
}

int main(void) {
  for (int i = 0; i < glow_ntargets; i++) {
    const glow_target *t = glow_targets[i];
    CHECK(t->version == GLOW_TARGET_INTERFACE_VERSION);
    CHECK(t->conv_tile_blocks == 0 || t->conv_tile_blocks == 1 || t->conv_tile_blocks == 2 ||
          t->conv_tile_blocks == 4);
    int own = !t->conv_tile_probe;
    for (const glow_target_probe *pr = t->probes; pr && pr->name; pr++)
      own |= pr == t->conv_tile_probe;
    CHECK(own);
  }
  CHECK(tiles("x86_64-unknown-linux-gnu", "skylake-avx512") == 4);
  CHECK(tiles("x86_64-unknown-linux-gnu", "x86-64-v3") == 1);
  CHECK(tiles("aarch64-unknown-linux-gnu", NULL) == 1);

  const glow_target *cuda = glow_target_for_triple("nvptx64-nvidia-cuda");
  const glow_target *x86 = glow_target_for_triple("x86_64-unknown-linux-gnu");
  CHECK(cuda && cuda->supports_op && x86 && !x86->supports_op);
  if (cuda && cuda->supports_op) {
    char why[512] = "";
    int64_t p[8] = {2, 1, 1, 1, 16}; /* an LSTM (kind 2) of hidden size 16 (p[4]) */
    glow_target_step s = {"glow_k_rnn_f32", p, 8, 0};
    CHECK(cuda->supports_op(cuda, &s, why, sizeof why));
    p[4] = 1000;
    CHECK(!cuda->supports_op(cuda, &s, why, sizeof why) && strstr(why, "hidden size 1000 is over"));
    glow_target_step ext = {"my_op", NULL, 0, 1};
    CHECK(!cuda->supports_op(cuda, &ext, why, sizeof why) && strstr(why, "calls my_op, a function of the bundle's"));
    glow_target_step add = {"glow_k_add_f32", p, 8, 0};
    CHECK(cuda->supports_op(cuda, &add, why, sizeof why));
  }
  if (failures)
    return 1;
  printf("targets: ok\n");
  return 0;
}
