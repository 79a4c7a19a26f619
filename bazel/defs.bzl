"""Public Bazel API of glowc: `load("@glowc//bazel:defs.bzl", "glow_bundle", "glow_profile")`."""

load("//bazel/private:bundle.bzl", _glow_bundle = "glow_bundle")
load("//bazel/private:profile.bzl", _glow_profile = "glow_profile")

glow_bundle = _glow_bundle
glow_profile = _glow_profile
