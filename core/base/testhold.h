/* Holds for tests that must act at an exact point of a run (set through the environment). */
#ifndef IOPATH_TESTHOLD_H
#define IOPATH_TESTHOLD_H

/*
 * When the environment variable var names a path P, create P<suffix> and wait until
 * P<suffix>.go exists or a stop is requested; otherwise return at once. A test waits for
 * P<suffix>, does what it must at that point (changes a file, sends a signal), then creates
 * P<suffix>.go. Under MPI both names end in the rank's ".rankN" (fleet_file_suffix).
 */
void test_hold(const char *var, const char *suffix);

#endif
