"""Public Bazel API of glowc: `load("@glowc//bazel:defs.bzl", "glow_bundle")`."""

load("//bazel/private:bundle.bzl", _glow_bundle = "glow_bundle")

glow_bundle = _glow_bundle
