"""The C flags glowc's own code is built with (CMakeLists.txt's), in BUILD files
rather than .bazelrc so that a workspace using glowc builds it the same way."""

GLOWC_COPTS = [
    "-std=c11",
    "-Wall",
    "-Wextra",
    # Host code is C11 plus POSIX (clock_gettime, posix_memalign, getpid).
    "-D_POSIX_C_SOURCE=200809L",
]
