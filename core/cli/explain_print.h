/* The explain object (core/results/explain.h) as text, for explain, sweep and suite. */
#ifndef IOPATH_EXPLAIN_PRINT_H
#define IOPATH_EXPLAIN_PRINT_H

#include <jansson.h>
#include <stdio.h>

/* Per target: the verdict, each finding with its figures, the notes and what is missing. */
void explain_print(FILE *f, const json_t *explain);

#endif
