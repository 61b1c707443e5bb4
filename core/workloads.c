/* Look-up in the built-in workload table. */
#include <string.h>

#include "workloads.h"

const struct builtin_workload *workload_find(const char *name)
{
	const struct builtin_workload *w;

	for (w = builtin_workloads; w->name; w++)
		if (!strcmp(w->name, name))
			return w;
	return NULL;
}
