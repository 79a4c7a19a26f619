/* An extra object for -bundle-objects: what Glow's bundle_with_extra_objects links in. */
const char *testMsg = "Hello from an object archived with the bundle";
