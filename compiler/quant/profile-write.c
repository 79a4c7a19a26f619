/* Profiles as YAML through libyaml, in Glow's schema (see quant.h), written
 * deterministically (profile-read.c reads them, glowc's files and Glow's alike). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "quant/quant.h"

/* ---- writing ---- */

static int sb_write(void *data, unsigned char *buf, size_t size) {
  glow_sb_printf(data, "%.*s", (int)size, (const char *)buf);
  return 1;
}

static int emit(yaml_emitter_t *em, yaml_event_t *ev, int ok) {
  return ok && yaml_emitter_emit(em, ev);
}

static int scalar(yaml_emitter_t *em, const char *s, yaml_scalar_style_t style) {
  yaml_event_t ev;
  return emit(em, &ev, yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s), 1, 1, style));
}

static int number(yaml_emitter_t *em, const char *fmt, double v) {
  char buf[64];
  snprintf(buf, sizeof buf, fmt, v);
  return scalar(em, buf, YAML_PLAIN_SCALAR_STYLE);
}

static int mapping(yaml_emitter_t *em, int start) {
  yaml_event_t ev;
  return start ? emit(em, &ev, yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE))
               : emit(em, &ev, yaml_mapping_end_event_initialize(&ev));
}

static int sequence(yaml_emitter_t *em, int start, yaml_sequence_style_t style) {
  yaml_event_t ev;
  return start ? emit(em, &ev, yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, style))
               : emit(em, &ev, yaml_sequence_end_event_initialize(&ev));
}

static int document(yaml_emitter_t *em, int start) {
  yaml_event_t ev;
  return start ? emit(em, &ev, yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 0))
               : emit(em, &ev, yaml_document_end_event_initialize(&ev, 0));
}

/* One mapping document {key: value}. */
static int single(yaml_emitter_t *em, const char *key, const char *value) {
  return document(em, 1) && mapping(em, 1) && scalar(em, key, YAML_PLAIN_SCALAR_STYLE) &&
         scalar(em, value, YAML_ANY_SCALAR_STYLE) && mapping(em, 0) && document(em, 0);
}

static int entry(yaml_emitter_t *em, const glow_profile_entry *e) {
  /* Names are always quoted: "12:0" would read as a base-60 number in YAML 1.1. */
  int ok = mapping(em, 1) && scalar(em, "NodeOutputName", YAML_PLAIN_SCALAR_STYLE) &&
           scalar(em, e->name, YAML_SINGLE_QUOTED_SCALAR_STYLE) && scalar(em, "Min", YAML_PLAIN_SCALAR_STYLE) &&
           number(em, "%.9g", e->min) && scalar(em, "Max", YAML_PLAIN_SCALAR_STYLE) &&
           number(em, "%.9g", e->max) && scalar(em, "Histogram", YAML_PLAIN_SCALAR_STYLE) &&
           sequence(em, 1, YAML_FLOW_SEQUENCE_STYLE);
  for (int i = 0; ok && i < e->nbins; i++)
    ok = number(em, e->hist[i] == floor(e->hist[i]) ? "%.0f" : "%.9g", e->hist[i]);
  return ok && sequence(em, 0, 0) && mapping(em, 0);
}

int glow_profile_emit(const glow_profile *p, glow_strbuf *out) {
  yaml_emitter_t em;
  yaml_event_t ev;
  GLOW_ASSERT(yaml_emitter_initialize(&em));
  yaml_emitter_set_output(&em, sb_write, out);
  yaml_emitter_set_unicode(&em, 1);
  yaml_emitter_set_break(&em, YAML_LN_BREAK);
  char hash[32];
  snprintf(hash, sizeof hash, "0x%016" PRIX64, p->graph_hash);
  int ok = emit(&em, &ev, yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING)) &&
           single(&em, "GlowToolsVersion", p->tools_version ? p->tools_version : "") &&
           (!p->has_hash || single(&em, "GraphPreLowerHash", hash)) && document(&em, 1) &&
           sequence(&em, 1, YAML_BLOCK_SEQUENCE_STYLE);
  for (int i = 0; ok && i < p->nentries; i++)
    ok = entry(&em, &p->entries[i]);
  ok = ok && sequence(&em, 0, 0) && document(&em, 0) && emit(&em, &ev, yaml_stream_end_event_initialize(&ev));
  if (!ok)
    glow_error(NULL, "cannot write the profile as YAML: %s", em.problem ? em.problem : "libyaml failed");
  yaml_emitter_delete(&em);
  return ok ? 0 : -1;
}

int glow_profile_save(const glow_profile *p, const char *path) {
  glow_strbuf b = {0};
  int rc = glow_profile_emit(p, &b);
  if (!rc) {
    glow_outset *os = glow_outset_create();
    rc = glow_outset_write(os, path, b.s, b.len) || glow_outset_commit(os) ? -1 : 0;
    glow_outset_free(os);
  }
  glow_sb_free(&b);
  return rc;
}

void glow_profile_free(glow_profile *p) {
  if (!p)
    return;
  for (int i = 0; i < p->nentries; i++) {
    free(p->entries[i].name);
    free(p->entries[i].hist);
  }
  free(p->entries);
  free(p->tools_version);
  free(p);
}
