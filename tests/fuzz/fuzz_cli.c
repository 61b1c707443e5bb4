/*
 * libFuzzer harness: a command line through `iopath [options]` with --parse-only, as a user
 * types it. The input is split at newlines and NULs into arguments; each is made an option
 * (--...), so that no argument names a job file to read, and --output is dropped: with
 * --parse-only it writes the parsed jobs, and a fuzzer must not write files where it likes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"

#define ARGS_MAX 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[ARGS_MAX + 3], *buf = malloc(size * 3 + 3), *w = buf;
	size_t i = 0;
	int argc = 0;

	if (!buf)
		return 0;
	argv[argc++] = (char *)"iopath";
	while (i < size && argc <= ARGS_MAX) {
		argv[argc++] = w;
		if (size - i < 2 || data[i] != '-' || data[i + 1] != '-') {
			*w++ = '-';
			*w++ = '-';
		}
		for (; i < size && data[i] != '\n' && data[i] != '\0'; i++)
			*w++ = (char)data[i];
		*w++ = '\0';
		i++;
		if (!strncmp(argv[argc - 1], "--output", 8) &&
		    strncmp(argv[argc - 1], "--output-format", 15))
			argc--;
	}
	argv[argc++] = (char *)"--parse-only";
	argv[argc] = NULL;
	cmd_fio(argc, argv);
	free(buf);
	return 0;
}
