#!/usr/bin/env python3
"""Counts the actions of one mnemonic in Bazel's --execution_log_json_file (a stream of JSON
objects, one per spawn) and how many of them were remote cache hits; prints "<total> <hits>".
  exec-log.py <execution log> <mnemonic>"""
import json, sys

text, mnemonic = open(sys.argv[1]).read(), sys.argv[2]
dec, i, total, hits = json.JSONDecoder(), 0, 0, 0
while True:
    while i < len(text) and text[i].isspace():
        i += 1
    if i >= len(text):
        break
    entry, i = dec.raw_decode(text, i)
    if entry.get("mnemonic") == mnemonic:
        total += 1
        hits += bool(entry.get("remoteCacheHit"))
print(total, hits)
