/*
 * Integration: iopath help and the docs it is built from. Every docs/TOPIC.md is a topic and
 * iopath help TOPIC prints it byte for byte; iopath help lists every topic with its title; an
 * unknown topic is refused in one line naming the topics (exit 2). The man page renders
 * without warnings and lists every topic; the README points at every topic.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

TestSuite(help);

#define DOCS_DIR "docs"
#define MAX_TOPICS 64
#define GROFF_BIN "/usr/bin/groff"

struct topics {
	char name[MAX_TOPICS][64];
	unsigned nr;
};

/* The topics there should be: docs/NAME.md, every one. */
static void docs_topics(struct topics *t)
{
	struct dirent *d;
	DIR *dir = opendir(DOCS_DIR);

	cr_assert_not_null(dir, "cannot open %s (run from the source tree)", DOCS_DIR);
	t->nr = 0;
	while ((d = readdir(dir))) {
		size_t len = strlen(d->d_name);

		if (len < 4 || strcmp(d->d_name + len - 3, ".md"))
			continue;
		cr_assert_lt(t->nr, MAX_TOPICS);
		cr_assert_lt(len - 3, sizeof(t->name[0]));
		memcpy(t->name[t->nr], d->d_name, len - 3);
		t->name[t->nr][len - 3] = '\0';
		t->nr++;
	}
	closedir(dir);
	cr_assert_gt(t->nr, 0, "no docs/*.md found");
}

/* The whole file, NUL-terminated; *len its size. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	cr_assert_not_null(f, "cannot open %s", path);
	cr_assert_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	cr_assert_geq(n, 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	cr_assert_not_null(buf);
	cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n, "short read of %s", path);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

Test(help, topic_prints_its_docs_file_byte_for_byte)
{
	struct topics t;
	unsigned i;

	docs_topics(&t);
	for (i = 0; i < t.nr; i++) {
		char path[128];
		size_t len;
		char *want;
		struct run_out r = iopath_run("help", t.name[i], NULL);

		snprintf(path, sizeof(path), DOCS_DIR "/%s.md", t.name[i]);
		want = slurp(path, &len);
		cr_assert_eq(r.status, 0, "iopath help %s: exit %d: %s", t.name[i], r.status, r.err);
		cr_assert_str_empty(r.err, "iopath help %s wrote to stderr: %s", t.name[i], r.err);
		cr_assert_eq(strlen(r.out), len, "iopath help %s: %zu bytes, %s has %zu",
			     t.name[i], strlen(r.out), path, len);
		cr_assert(!memcmp(r.out, want, len), "iopath help %s differs from %s", t.name[i],
			  path);
		free(want);
		run_out_free(&r);
	}
}

Test(help, lists_every_docs_file_with_its_title_and_nothing_else)
{
	struct run_out r = iopath_run("help", NULL);
	struct topics t;
	const char *list, *p;
	unsigned i, listed = 0;

	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.out, "\ncommands:\n"), "no command list:\n%s", r.out);
	list = strstr(r.out, "\ntopics ");
	cr_assert_not_null(list, "no topic list:\n%s", r.out);
	list = strchr(list + 1, '\n') + 1;
	docs_topics(&t);
	for (i = 0; i < t.nr; i++) {
		char path[128], line[512];
		size_t len;
		char *text = NULL, *nl;

		snprintf(path, sizeof(path), DOCS_DIR "/%s.md", t.name[i]);
		text = slurp(path, &len);
		nl = strchr(text, '\n');
		cr_assert_not_null(nl, "%s has no title line", path);
		*nl = '\0';
		cr_assert(!strncmp(text, "# ", 2), "%s does not start with a '# ' title", path);
		snprintf(line, sizeof(line), "  %-12s %s\n", t.name[i], text + 2);
		cr_assert_not_null(strstr(list, line), "'iopath help' does not list \"%.*s\":\n%s",
				   (int)strlen(line) - 1, line, list);
		free(text);
	}
	for (p = list; *p == ' '; p = strchr(p, '\n') + 1)
		listed++;
	cr_assert_eq(listed, t.nr, "'iopath help' lists %u topics, docs/ has %u:\n%s", listed,
		     t.nr, list);
	run_out_free(&r);
}

Test(help, unknown_topic_is_refused_in_one_line_naming_the_topics)
{
	struct run_out r = iopath_run("help", "no-such-topic", NULL);
	struct topics t;
	unsigned i;

	cr_assert_eq(r.status, 2, "exit %d", r.status);
	cr_assert_str_empty(r.out);
	cr_assert(!strncmp(r.err, "iopath help: no topic 'no-such-topic' (accepted: ", 49),
		  "stderr: %s", r.err);
	cr_assert_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1, "not one line: %s", r.err);
	docs_topics(&t);
	for (i = 0; i < t.nr; i++)
		cr_assert_not_null(strstr(r.err, t.name[i]), "%s not named: %s", t.name[i], r.err);
	run_out_free(&r);
}

Test(help, two_topics_are_refused)
{
	struct run_out r = iopath_run("help", "safety", "engines", NULL);

	cr_assert_eq(r.status, 2, "exit %d", r.status);
	cr_assert_str_empty(r.out);
	cr_assert_not_null(strstr(r.err, "one topic at a time"), "stderr: %s", r.err);
	run_out_free(&r);
}

Test(help, man_page_renders_without_warnings)
{
	char *argv[] = { GROFF_BIN, "-man", "-Tutf8", "-ww", "-z", DOCS_DIR "/iopath.1", NULL };
	struct run_out r;

	if (access(GROFF_BIN, X_OK))
		cr_skip_test("groff is not installed (groff-base; scripts/deps.sh installs it)");
	r = prog_runv(GROFF_BIN, argv);
	cr_assert_eq(r.status, 0, "groff: exit %d: %s", r.status, r.err);
	cr_assert_str_empty(r.err, "groff warns about docs/iopath.1:\n%s", r.err);
	run_out_free(&r);
}

Test(help, man_page_and_readme_name_every_topic)
{
	struct topics t;
	size_t len;
	char *man = slurp(DOCS_DIR "/iopath.1", &len);
	char *readme = slurp("README.md", &len);
	char *topics = strstr(man, "\n.SH TOPICS\n");
	char *end;
	unsigned i;

	cr_assert_not_null(topics, "docs/iopath.1 has no TOPICS section");
	end = strstr(topics + 1, "\n.SH ");
	if (end)
		*end = '\0';
	docs_topics(&t);
	for (i = 0; i < t.nr; i++) {
		char want[128], roff[128], *s, *d;

		/* the roff spelling of the name: '-' is written \- */
		for (s = t.name[i], d = roff; *s && d < roff + sizeof(roff) - 3; s++) {
			if (*s == '-')
				*d++ = '\\';
			*d++ = *s;
		}
		*d = '\0';
		snprintf(want, sizeof(want), "\n.TP\n.B %s\n", roff);
		cr_assert_not_null(strstr(topics, want), "docs/iopath.1's TOPICS lacks %s",
				   t.name[i]);
		snprintf(want, sizeof(want), "(docs/%s.md)", t.name[i]);
		cr_assert_not_null(strstr(readme, want), "README.md does not link %s", want + 1);
	}
	free(man);
	free(readme);
}

/* The section of the man page that starts with the line ".SH NAME\n", to the next (to free). */
static char *man_section(const char *name)
{
	size_t len;
	char *man = slurp(DOCS_DIR "/iopath.1", &len), *start, *end, *sec;
	char head[64];

	snprintf(head, sizeof(head), "\n.SH %s\n", name);
	start = strstr(man, head);
	cr_assert_not_null(start, "docs/iopath.1 has no %s section", name);
	start += strlen(head);
	end = strstr(start, "\n.SH ");
	sec = strndup(start, end ? (size_t)(end - start) + 1 : strlen(start));
	cr_assert_not_null(sec);
	free(man);
	return sec;
}

/* The man page's SYNOPSIS is the command table's, as help --synopsis=man writes it */
Test(help, man_synopsis_is_the_command_tables)
{
	struct run_out r = iopath_run("help", "--synopsis=man", NULL);
	char *syn = man_section("SYNOPSIS");

	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.out, ".SY iopath\n.B report\n"), "%s", r.out);
	cr_assert_str_eq(syn, r.out,
			 "docs/iopath.1's SYNOPSIS is not the command table's: run scripts/man-synopsis");
	free(syn);
	run_out_free(&r);
}

/* The names of the commands, from the synopsis "iopath NAME ..." lines (at most max). */
static unsigned synopsis_commands(const char *synopsis, char names[][32], unsigned max)
{
	const char *p;
	unsigned n = 0;

	for (p = synopsis; (p = strstr(p, "iopath ")); p++) {
		size_t w = strcspn(p + 7, " \n");

		if (p[7] < 'a' || p[7] > 'z' || w >= 32)
			continue;
		if (n && !strncmp(names[n - 1], p + 7, w) && !names[n - 1][w])
			continue;
		cr_assert_lt(n, max);
		memcpy(names[n], p + 7, w);
		names[n++][w] = '\0';
	}
	return n;
}

/*
 * Each command's --help starts with its forms of the synopsis ("usage: iopath NAME ...", the
 * others under it); iopath help and iopath --help start with all of them.
 */
Test(help, every_commands_help_starts_with_its_synopsis)
{
	struct run_out all = iopath_run("help", "--synopsis", NULL), r;
	char names[32][32];
	unsigned i, n;

	cr_assert_eq(all.status, 0, "exit %d: %s", all.status, all.err);
	cr_assert(!strncmp(all.out, "usage: iopath ", 14), "%s", all.out);
	n = synopsis_commands(all.out, names, 32);
	cr_assert_geq(n, 12, "only %u commands in:\n%s", n, all.out);
	for (i = 0; i < n; i++) {
		char want[2048], line[512], *p = all.out;
		size_t len = 0;

		want[0] = '\0';
		snprintf(line, sizeof(line), "iopath %s", names[i]);
		while ((p = strstr(p, line))) {
			size_t w = strcspn(p, "\n");

			if (p[strlen(line)] == ' ' || p[strlen(line)] == '\n')
				len += (size_t)snprintf(want + len, sizeof(want) - len, "%s%.*s\n",
							len ? "       " : "usage: ", (int)w, p);
			p += w;
		}
		if (!strcmp(names[i], "help"))
			continue;	/* help --help is the whole list, below */
		r = iopath_run(names[i], "--help", NULL);
		cr_assert_eq(r.status, 0, "iopath %s --help: exit %d: %s", names[i], r.status, r.err);
		cr_assert(!strncmp(r.out, want, strlen(want)),
			  "iopath %s --help does not start with its synopsis:\n%s\nbut:\n%s", names[i],
			  want, r.out);
		run_out_free(&r);
	}
	r = iopath_run("help", NULL);
	cr_assert(!strncmp(r.out, all.out, strlen(all.out)), "iopath help:\n%s", r.out);
	run_out_free(&r);
	r = iopath_run("--help", NULL);
	cr_assert(!strncmp(r.out, all.out, strlen(all.out)), "iopath --help:\n%s", r.out);
	run_out_free(&r);
	run_out_free(&all);
}

/* and every command of the table has its entry in the man page's COMMANDS */
Test(help, man_page_describes_every_command)
{
	struct run_out all = iopath_run("help", "--synopsis", NULL);
	char names[32][32], *cmds = man_section("COMMANDS");
	unsigned i, n = synopsis_commands(all.out, names, 32);

	for (i = 0; i < n; i++) {
		char want[64];
		const char *p;

		snprintf(want, sizeof(want), "\n.B %s", names[i]);
		for (p = strstr(cmds, want); p; p = strstr(p + 1, want))
			if (p[strlen(want)] == ' ' || p[strlen(want)] == '\n')
				break;
		cr_assert_not_null(p, "docs/iopath.1's COMMANDS lacks '%s'", names[i]);
	}
	free(cmds);
	run_out_free(&all);
}
