/* The reference by topic, docs/TOPIC.md compiled in by scripts/embed-docs.sh: iopath help. */
#ifndef IOPATH_CLI_HELP_H
#define IOPATH_CLI_HELP_H

#include <stddef.h>

struct help_topic {
	const char *name;		/* docs/NAME.md */
	const char *summary;		/* the file's title: its first line without the "# " */
	const unsigned char *text;	/* the whole file, byte for byte */
	size_t len;
};

/* Every topic, in file-name order; the last entry's name is NULL (build/docs_data.c). */
extern const struct help_topic help_topics[];

#endif
