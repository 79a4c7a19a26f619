/* The extra object of the bundle_with_extra_objects test: a string with C linkage, archived into
 * the bundle with -bundle-objects=test.o. */
const char *testMsg = "testMsg from the extra object test.o, archived with the bundle\n";
