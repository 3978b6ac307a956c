// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtracectl - the Prometheus text exposition format (prom.h): families,
 * samples with escaped label values, and the file written under a
 * temporary name, flushed to disk, then renamed over the final one.
 */
#define _GNU_SOURCE	/* asprintf() */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prom.h"

/**
 * ibt_prom_escape() - a label value as the exposition format writes it
 * @in: the value
 * @out: where the escaped text goes, NUL-terminated; cut before the
 *	first character whose escape does not fit in @len - 1
 * @len: its size, at least 1
 *
 * Backslash, double quote and newline become \\, \" and \n.
 *
 * Return: the length of the whole escaped text (as snprintf()).
 */
size_t ibt_prom_escape(const char *in, char *out, size_t len)
{
	size_t n = 0, put = 0, l;

	for (; *in; in++) {
		const char *esc = *in == '\\' ? "\\\\" : *in == '"' ? "\\\"" :
				  *in == '\n' ? "\\n" : NULL;
		char one[2] = { *in, '\0' };
		const char *s = esc ? esc : one;

		l = strlen(s);
		/* an escape is written whole or not at all */
		if (put == n && n + l < len) {
			memcpy(out + n, s, l);
			put += l;
		}
		n += l;
	}
	out[put] = '\0';
	return n;
}

/**
 * ibt_prom_open() - start a metrics file
 * @p: the writer
 * @path: the file's final name (e.g. in node_exporter's textfile
 *	directory, ending in .prom); it is written as PATH.tmp.PID first
 * @common: labels every sample carries first (kept by reference)
 * @ncommon: how many
 *
 * Return: 0, or an errno (nothing is left behind then).
 */
int ibt_prom_open(struct ibt_prom *p, const char *path,
		  const struct ibt_prom_label *common, size_t ncommon)
{
	int fd, err;

	memset(p, 0, sizeof(*p));
	p->path = strdup(path);
	if (!p->path || asprintf(&p->tmp, "%s.tmp.%ld", path, (long)getpid()) < 0) {
		free(p->path);
		p->path = NULL;
		p->tmp = NULL;
		return ENOMEM;
	}
	fd = open(p->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd >= 0)
		p->f = fdopen(fd, "w");
	if (!p->f) {
		err = errno;
		if (fd >= 0) {
			close(fd);
			unlink(p->tmp);
		}
		ibt_prom_discard(p);
		return err;
	}
	p->common = common;
	p->ncommon = ncommon;
	return 0;
}

/**
 * ibt_prom_open_file() - write metrics to an open stream (tests)
 * @p: the writer
 * @f: the stream; ibt_prom_commit() leaves it open
 * @common: as ibt_prom_open()
 * @ncommon: as ibt_prom_open()
 */
void ibt_prom_open_file(struct ibt_prom *p, FILE *f,
			const struct ibt_prom_label *common, size_t ncommon)
{
	memset(p, 0, sizeof(*p));
	p->f = f;
	p->common = common;
	p->ncommon = ncommon;
}

/**
 * ibt_prom_family() - a metric family's HELP and TYPE lines
 * @p: the writer
 * @name: the metric's name
 * @type: "gauge" or "counter"
 * @help: what it measures (one line, no backslash)
 */
void ibt_prom_family(struct ibt_prom *p, const char *name, const char *type,
		     const char *help)
{
	fprintf(p->f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A sample's name and labels, the common ones first. */
static void prom_head(struct ibt_prom *p, const char *name,
		      const struct ibt_prom_label *labels, size_t n)
{
	char buf[1024];
	size_t i, k = 0;

	fputs(name, p->f);
	for (i = 0; i < p->ncommon + n && k < IBT_PROM_MAX_LABELS; i++, k++) {
		const struct ibt_prom_label *l = i < p->ncommon ?
			&p->common[i] : &labels[i - p->ncommon];

		ibt_prom_escape(l->value ? l->value : "", buf, sizeof(buf));
		fprintf(p->f, "%s%s=\"%s\"", k ? "," : "{", l->name, buf);
	}
	if (k)
		fputc('}', p->f);
}

/**
 * ibt_prom_u64() - one sample of an integer value
 * @p: the writer
 * @name: the metric's name (its family written before)
 * @labels: its own labels, after the common ones
 * @n: how many
 * @v: the value
 */
void ibt_prom_u64(struct ibt_prom *p, const char *name,
		  const struct ibt_prom_label *labels, size_t n, uint64_t v)
{
	prom_head(p, name, labels, n);
	fprintf(p->f, " %" PRIu64 "\n", v);
}

/**
 * ibt_prom_double() - one sample of a real value (seconds, say)
 * @p: the writer
 * @name: the metric's name (its family written before)
 * @labels: its own labels, after the common ones
 * @n: how many
 * @v: the value
 */
void ibt_prom_double(struct ibt_prom *p, const char *name,
		     const struct ibt_prom_label *labels, size_t n, double v)
{
	prom_head(p, name, labels, n);
	fprintf(p->f, " %.9g\n", v);
}

/**
 * ibt_prom_commit() - finish the file: flushed to disk, then renamed over
 *	its final name
 * @p: the writer; freed (a stream of ibt_prom_open_file() is only
 *	flushed)
 *
 * Return: 0, or an errno (the temporary file is removed then).
 */
int ibt_prom_commit(struct ibt_prom *p)
{
	int err = 0;

	if (fflush(p->f) || ferror(p->f))
		err = errno ? errno : EIO;
	if (!p->path)
		return err;
	if (!err && fsync(fileno(p->f)))
		err = errno;
	if (fclose(p->f) && !err)
		err = errno ? errno : EIO;
	p->f = NULL;
	if (!err && rename(p->tmp, p->path))
		err = errno;
	if (err)
		unlink(p->tmp);
	ibt_prom_discard(p);
	return err;
}

/**
 * ibt_prom_discard() - give up a file: the temporary one removed, the
 *	final one left as it was
 * @p: the writer; freed
 */
void ibt_prom_discard(struct ibt_prom *p)
{
	if (p->path && p->f) {
		fclose(p->f);
		unlink(p->tmp);
	}
	free(p->path);
	free(p->tmp);
	p->path = NULL;
	p->tmp = NULL;
	p->f = NULL;
}
