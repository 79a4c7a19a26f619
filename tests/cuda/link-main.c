/* A main for linking a CUDA bundle's object alone against libcuda (the toolkit's
 * stub): the link checks that every driver call the object makes is one libcuda
 * exports. Never run. */
int main(void) { return 0; }
