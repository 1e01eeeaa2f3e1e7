// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_fuzz: differential fuzzer of the verifier's object, lock and list
 * rules.  Each program is generated from a seed, judged by the reference
 * model, loaded, and run when the verifier accepts it.
 *
 *   bpf_fuzz print SEED             the program, the model's verdicts, insns
 *   bpf_fuzz model SEED COUNT       model verdicts only (no kernel needed)
 *   bpf_fuzz run SEED SECONDS DIR [unpriv]
 *                                   the fuzzing loop (in the guest); findings
 *                                   and a summary line in DIR; SECONDS < 0:
 *                                   exactly -SECONDS programs from SEED
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "emit.h"
#include "kernel.h"

#define LOG_LEN (1 << 20)
#define OP_NOP NR_OPS

static char vlog[LOG_LEN];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmd_print(uint64_t seed)
{
	struct prog p;
	struct image im;
	char r1[256], r2[256];
	int v1, v2;

	gen_prog(&p, seed);
	print_prog(&p, stdout);
	v1 = model_check(&p, true, r1, sizeof(r1));
	v2 = model_check(&p, false, r2, sizeof(r2));
	printf("model (root): %s%s%s\n", v1 == 0 ? "safe" : v1 > 0 ? "unsafe" : "unknown",
	       v1 ? ": " : "", r1);
	printf("model (CAP_BPF): %s%s%s\n", v2 == 0 ? "safe" : v2 > 0 ? "unsafe" : "unknown",
	       v2 ? ": " : "", r2);
	emit_btf(&im);
	emit_prog(&im, &p, NULL, NULL);
	print_insns(&im, stdout);
	prog_free(&p);
	return 0;
}

static int cmd_model(uint64_t seed, long count)
{
	long i, safe = 0, unsafe = 0, unknown = 0, ops = 0;
	char r[256];

	for (i = 0; i < count; i++) {
		struct prog p;
		int v;

		gen_prog(&p, seed + i);
		ops += p.main->n;
		v = model_check(&p, true, r, sizeof(r));
		if (v == 0)
			safe++;
		else if (v > 0)
			unsafe++;
		else
			unknown++;
		if (v != 0 && getenv("FUZZ_VERBOSE"))
			printf("%llu: %s\n", (unsigned long long)(seed + i), r);
		prog_free(&p);
	}
	printf("model: %ld programs, %ld safe, %ld unsafe, %ld unknown, %.1f top-level ops each\n",
	       count, safe, unsafe, unknown, (double)ops / count);
	return 0;
}

/* ---- run -------------------------------------------------------------- */

struct run {
	int kfunc_ids[NR_KFUNCS];
	struct image im;
	int btf_fd;
	struct maps maps;
	bool unpriv;
	const char *dir;
	long generated, accepted, rejected, findings, fuzzer_bugs, gaps, unknown, runs;
	long run_errors;			/* BPF_PROG_TEST_RUN failures: fuzzer bugs */
	long with_calls, calls_accepted;	/* programs with a callback/subprogram */
	double first_finding;			/* seconds to the first finding */
};

static bool has_calls(const struct block *b)
{
	int i;

	for (i = 0; i < b->n; i++) {
		const struct op *op = &b->ops[i];

		if (op->kind == OP_LOOP || op->kind == OP_EACH || op->kind == OP_CALL)
			return true;
		if ((op->body && has_calls(op->body)) || (op->body2 && has_calls(op->body2)))
			return true;
	}
	return false;
}

/* Rejections that mean the generator wrote a malformed program */
static bool malformed(const char *log)
{
	static const char *const pats[] = {
		"unknown opcode", "invalid bpf_ld_imm64", "jump out of range", "back-edge",
		"invalid func", "func_info", "BTF", "unreachable insn", "invalid insn",
		"last insn is not an exit", NULL,
	};
	int i;

	for (i = 0; pats[i]; i++)
		if (strstr(log, pats[i]))
			return true;
	return false;
}

static const char *last_line(char *log)
{
	char *e = log + strlen(log), *s;

	while (e > log && (e[-1] == '\n' || e[-1] == ' '))
		*--e = 0;
	/* the verifier ends with "processed N insns ..." after the error */
	s = strrchr(log, '\n');
	if (s && !strncmp(s + 1, "processed ", 10)) {
		*s = 0;
		s = strrchr(log, '\n');
	}
	return s ? s + 1 : log;
}

static int load(struct run *r, const struct prog *p, char *log, int log_len)
{
	emit_prog(&r->im, p, &r->maps, r->kfunc_ids);
	if (r->im.overflow)
		return -E2BIG;
	return load_prog(&r->im, r->btf_fd, log, log_len);
}

/* Is the finding still there: the model says unsafe, the kernel accepts? */
static bool still_found(struct run *r, struct prog *p)
{
	char reason[256];
	int fd;

	if (model_check(p, !r->unpriv, reason, sizeof(reason)) != 1)
		return false;
	fd = load(r, p, NULL, 0);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/*
 * Delete operations while the finding stays: first windows of operations
 * (halving their width), so that pairs like an allocation and its free go
 * together, then single ones, then inside the branches and subprograms
 * that are left.  Returns whether anything was deleted.
 */
static bool minimise_block(struct run *r, struct prog *p, struct block *b)
{
	enum op_kind saved[b->n ? b->n : 1];
	bool changed = false;
	int w, i, j;

	for (w = b->n / 2 > 0 ? b->n / 2 : 1; w >= 1; w /= 2) {
		for (i = 0; i + w <= b->n; i++) {
			int n = 0;

			for (j = i; j < i + w; j++) {
				saved[j] = b->ops[j].kind;
				if (saved[j] != OP_EXIT && saved[j] != OP_NOP) {
					b->ops[j].kind = OP_NOP;
					n++;
				}
			}
			if (n && still_found(r, p)) {
				changed = true;
				continue;	/* not needed */
			}
			for (j = i; j < i + w; j++)
				b->ops[j].kind = saved[j];
		}
	}
	for (i = 0; i < b->n; i++) {
		if (b->ops[i].kind == OP_NOP)
			continue;
		if (b->ops[i].body)
			changed |= minimise_block(r, p, b->ops[i].body);
		if (b->ops[i].body2)
			changed |= minimise_block(r, p, b->ops[i].body2);
	}
	return changed;
}

static void minimise(struct run *r, struct prog *p)
{
	int round;

	for (round = 0; round < 4 && minimise_block(r, p, p->main); round++)
		;
}

static void save_finding(struct run *r, struct prog *p, const char *kind, const char *why,
			 const char *log)
{
	char path[512];
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/%s-%llu%s.txt", r->dir, kind,
		 (unsigned long long)p->seed, r->unpriv ? "-unpriv" : "");
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "kind: %s\nseed: %llu\nprivileges: %s\nmodel: %s\n", kind,
		(unsigned long long)p->seed, r->unpriv ? "CAP_BPF+CAP_NET_ADMIN" : "root", why);
	if (log && *log)
		fprintf(f, "verifier: %s\n", log);
	fprintf(f, "\n");
	print_prog(p, f);
	emit_prog(&r->im, p, &r->maps, r->kfunc_ids);
	fprintf(f, "\n");
	print_insns(&r->im, f);
	fprintf(f, "\ninsns:");
	for (i = 0; i < r->im.n * 8; i++)
		fprintf(f, "%s%02x", i % 32 ? "" : "\n", ((unsigned char *)r->im.insn)[i]);
	fprintf(f, "\nbtf:");
	for (i = 0; i < r->im.btf_len; i++)
		fprintf(f, "%s%02x", i % 32 ? "" : "\n", r->im.btf[i]);
	fprintf(f, "\n");
	fclose(f);
	printf("fuzz: %s %s\n", kind, path);
}

struct runner_arg {
	int fd, n;
	unsigned int seed;
	int failed;		/* BPF_PROG_TEST_RUN calls that returned an error */
};

static void *run_thread(void *p)
{
	struct runner_arg *a = p;
	unsigned char pkt[256];
	int i;

	for (i = 0; i < a->n; i++) {
		int len = 14 + rand_r(&a->seed) % 200;

		memset(pkt, rand_r(&a->seed), sizeof(pkt));
		if (test_run(a->fd, pkt, len, 1, NULL))
			a->failed++;
	}
	return NULL;
}

static void exercise(struct run *r, int fd, uint64_t seed)
{
	struct runner_arg a[2] = { { fd, 4, (unsigned int)seed, 0 }, { fd, 50, (unsigned int)seed * 3, 0 } };
	pthread_t t[2];

	if (seed % 8) {
		run_thread(&a[0]);
		r->runs += a[0].n;
		r->run_errors += a[0].failed;
		return;
	}
	/* every eighth program from two CPUs at once */
	a[0].n = 50;
	pthread_create(&t[0], NULL, run_thread, &a[0]);
	pthread_create(&t[1], NULL, run_thread, &a[1]);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	r->runs += 100;
	r->run_errors += a[0].failed + a[1].failed;
}

static int new_map(struct run *r)
{
	return create_maps(&r->im, r->btf_fd, &r->maps);
}

static int cmd_run(uint64_t seed, double seconds, const char *dir, bool unpriv, bool stop)
{
	static struct run r;
	char err[256], reason[256], path[512];
	double t0 = now(), el;
	FILE *last, *gaps;
	uint64_t s;

	r.dir = dir;
	r.unpriv = unpriv;
	r.maps = (struct maps){ -1, -1, -1 };
	if (find_kfuncs(r.kfunc_ids, err, sizeof(err))) {
		fprintf(stderr, "bpf_fuzz: %s\n", err);
		return 2;
	}
	emit_btf(&r.im);
	r.btf_fd = load_btf(&r.im, vlog, LOG_LEN);
	if (r.btf_fd < 0) {
		fprintf(stderr, "bpf_fuzz: BTF load: %s\n%s\n", strerror(errno), vlog);
		return 2;
	}
	if (new_map(&r) < 0) {
		fprintf(stderr, "bpf_fuzz: map create: %s\n", strerror(errno));
		return 2;
	}
	if (unpriv && drop_to_cap_bpf()) {
		fprintf(stderr, "bpf_fuzz: capset: %s\n", strerror(errno));
		return 2;
	}
	snprintf(path, sizeof(path), "%s/gaps-%s.list", dir, unpriv ? "cap_bpf" : "root");
	gaps = fopen(path, "w");
	if (gaps)
		setvbuf(gaps, NULL, _IOLBF, 0);
	snprintf(path, sizeof(path), "%s/last-seed%s", dir, unpriv ? "-unpriv" : "");
	/* SECONDS < 0: exactly -SECONDS programs (to replay seeds) */
	for (s = seed; seconds < 0 ? s < seed + (uint64_t)-seconds : now() - t0 < seconds; s++) {
		if (stop && r.findings)
			break;
		struct prog p;
		int v, fd;
		bool calls;

		gen_prog(&p, s);
		r.generated++;
		last = fopen(path, "w");
		if (last) {
			fprintf(last, "%llu\n", (unsigned long long)s);
			fclose(last);
		}
		v = model_check(&p, !unpriv, reason, sizeof(reason));
		if (v < 0)
			r.unknown++;
		calls = has_calls(p.main);
		r.with_calls += calls;
		fd = load(&r, &p, NULL, 0);
		if (fd >= 0) {
			r.accepted++;
			r.calls_accepted += calls;
			if (v > 0) {
				if (!r.findings++)
					r.first_finding = now() - t0;
				close(fd);
				minimise(&r, &p);
				v = model_check(&p, !unpriv, reason, sizeof(reason));
				save_finding(&r, &p, "soundness", reason, NULL);
			} else {
				exercise(&r, fd, s);
				close(fd);
			}
		} else {
			r.rejected++;
			load(&r, &p, vlog, LOG_LEN);
			if (malformed(vlog)) {
				r.fuzzer_bugs++;
				save_finding(&r, &p, "fuzzer-bug", reason, last_line(vlog));
			} else if (v == 0) {
				r.gaps++;
				/* FUZZ_VERBOSE=1: the reason, 2: the log's end too */
				if (getenv("FUZZ_VERBOSE") && atoi(getenv("FUZZ_VERBOSE")) > 1)
					printf("gap %llu log:\n%s\n", (unsigned long long)s,
					       vlog + (strlen(vlog) > 1500 ? strlen(vlog) - 1500 : 0));
				if (getenv("FUZZ_VERBOSE"))
					printf("gap %llu: %s\n", (unsigned long long)s, last_line(vlog));
				/* every gap is listed: seed and the verifier's reason */
				if (gaps)
					fprintf(gaps, "%llu: %s\n", (unsigned long long)s, last_line(vlog));
			}
		}
		prog_free(&p);
		if (r.generated % 64 == 0 && new_map(&r) < 0) {
			fprintf(stderr, "bpf_fuzz: map create: %s\n", strerror(errno));
			return 2;
		}
	}
	el = now() - t0;
	if (gaps)
		fclose(gaps);
	printf("fuzz-summary privileges=%s seed=%llu generated=%ld accepted=%ld rejected=%ld "
	       "per_second=%.1f soundness=%ld fuzzer_bugs=%ld completeness_gaps=%ld "
	       "model_unknown=%ld test_runs=%ld seconds=%.0f with_calls=%ld calls_accepted=%ld "
	       "first_finding_seconds=%.0f test_run_errors=%ld\n",
	       unpriv ? "cap_bpf" : "root", (unsigned long long)seed, r.generated, r.accepted,
	       r.rejected, r.generated / el, r.findings, r.fuzzer_bugs, r.gaps, r.unknown, r.runs,
	       el, r.with_calls, r.calls_accepted, r.findings ? r.first_finding : -1.0,
	       r.run_errors);
	return r.findings || r.fuzzer_bugs || r.run_errors ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "print"))
		return cmd_print(strtoull(argv[2], NULL, 0));
	if (argc >= 4 && !strcmp(argv[1], "model"))
		return cmd_model(strtoull(argv[2], NULL, 0), strtol(argv[3], NULL, 0));
	if (argc >= 5 && !strcmp(argv[1], "run")) {
		bool unpriv = false, stop = false;
		int i;

		for (i = 5; i < argc; i++) {
			if (!strcmp(argv[i], "unpriv"))
				unpriv = true;
			else if (!strcmp(argv[i], "stop"))
				stop = true;
			else
				goto usage;
		}
		return cmd_run(strtoull(argv[2], NULL, 0), atof(argv[3]), argv[4], unpriv, stop);
	}
usage:
	fprintf(stderr, "usage: bpf_fuzz print SEED | model SEED COUNT | "
		"run SEED SECONDS DIR [unpriv] [stop]\n"
		"  unpriv: load with CAP_BPF+CAP_NET_ADMIN only; stop: at the first finding\n");
	return 2;
}
