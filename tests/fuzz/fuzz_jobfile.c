/* libFuzzer harness: job-file text through the parser and job finishing, as `iopath job.fio`. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "job/job.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct job_list jobs = { 0 };
	struct job_parser p;
	struct iop_err err;
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	job_parser_init(&p, &jobs);
	if (!job_parse_text(&p, text, "fuzz.fio", &err))
		job_parser_finish(&p, &err);
	job_parser_free(&p);
	job_list_free(&jobs);
	free(text);
	return 0;
}
