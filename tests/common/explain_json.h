/*
 * Reading explain's JSON in tests (the unit tests' classifier output and the integration
 * tests' result files alike): a target's verdict, its findings, their confidence and evidence.
 */
#ifndef IOPATH_TEST_EXPLAIN_JSON_H
#define IOPATH_TEST_EXPLAIN_JSON_H

#include <jansson.h>
#include <string.h>

static inline const char *verdict(const json_t *t)
{
	return json_string_value(json_object_get(t, "verdict"));
}

/* The finding of this code, or NULL. */
static inline const json_t *finding(const json_t *t, const char *code)
{
	const json_t *f;
	size_t i;

	json_array_foreach(json_object_get(t, "findings"), i, f)
		if (!strcmp(json_string_value(json_object_get(f, "code")), code))
			return f;
	return NULL;
}

static inline const char *conf(const json_t *f)
{
	return json_string_value(json_object_get(f, "confidence"));
}

/* A figure of the finding's evidence. */
static inline double ev(const json_t *f, const char *key)
{
	return json_number_value(json_object_get(json_object_get(f, "evidence"), key));
}

#endif
