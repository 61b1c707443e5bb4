/*
 * The fixture of the unit tests that parse job text: a parser and the jobs it builds, made
 * afresh for each test. Each test file that includes it has a fixture of its own.
 */
#ifndef IOPATH_TEST_JOBTEXT_H
#define IOPATH_TEST_JOBTEXT_H

#include <string.h>

#include "job/job.h"

static struct job_list jobs;
static struct job_parser parser;
static struct iop_err err;

/* The suite's .init; a test that parses twice calls it again. */
static void setup(void)
{
	/* free what an earlier parse built */
	job_list_free(&jobs);
	memset(&jobs, 0, sizeof(jobs));
	memset(&err, 0, sizeof(err));
	job_parser_init(&parser, &jobs);
}

/* The suite's .fini. */
static void teardown(void)
{
	job_list_free(&jobs);
}

/* Parse text as the job file test.fio and finish the jobs: 0 or -errno, with err. */
static int parse(const char *text)
{
	int ret = job_parse_text(&parser, text, "test.fio", &err);

	return ret ? ret : job_parser_finish(&parser, &err);
}

#endif
