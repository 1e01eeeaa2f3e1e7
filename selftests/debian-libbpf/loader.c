// SPDX-License-Identifier: GPL-2.0
/* Load and run an upstream-style BPF object with the system's libbpf only
 * (Debian's libbpf-dev, no skeleton, no code of the series): prints one
 * "ok NAME" or "not ok NAME: why" line per check and exits non-zero if any
 * check failed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

static int failed;

static void report(int ok, const char *name, const char *why)
{
	if (ok) {
		printf("ok %s\n", name);
		return;
	}
	printf("not ok %s: %s\n", name, why);
	failed = 1;
}

static void check_eq(const char *name, long got, long want)
{
	char why[64];

	snprintf(why, sizeof(why), "got %ld, want %ld", got, want);
	report(got == want, name, why);
}

int main(int argc, char **argv)
{
	enum { R_PUSHED, R_FRONT, R_POPPED, R_ORDER_ERRORS, R_SUM, R_LEFT, R_HELD, R_MAX };
	char pkt[64] = {};
	LIBBPF_OPTS(bpf_test_run_opts, topts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = 1);
	long res[R_MAX] = {};
	struct bpf_program *prog;
	struct bpf_object *obj;
	struct bpf_map *map;
	int err, i;

	if (argc != 2) {
		fprintf(stderr, "usage: %s OBJECT.bpf.o\n", argv[0]);
		return 2;
	}
	printf("# libbpf %s (the system's), object %s\n", libbpf_version_string(), argv[1]);
	obj = bpf_object__open_file(argv[1], NULL);
	err = libbpf_get_error(obj);
	report(!err, "open", strerror(-err));
	if (err)
		return 1;
	map = bpf_object__find_map_by_name(obj, ".bss.Q");
	/* the system's libbpf creates a section of hidden globals unmmapable */
	report(map && !(bpf_map__map_flags(map) & BPF_F_MMAPABLE), "private_section_not_mmapable",
	       map ? "created BPF_F_MMAPABLE" : "no map .bss.Q");
	err = bpf_object__load(obj);
	report(!err, "load", strerror(-err));
	if (err)
		goto out;
	prog = bpf_object__find_program_by_name(obj, "queue_jobs");
	if (!prog) {
		report(0, "find_program", "no program queue_jobs");
		goto out;
	}
	err = bpf_prog_test_run_opts(bpf_program__fd(prog), &topts);
	report(!err, "run", strerror(errno));
	check_eq("retval", topts.retval, 0);
	map = bpf_object__find_map_by_name(obj, "results");
	for (i = 0; map && i < R_MAX; i++)
		if (bpf_map_lookup_elem(bpf_map__fd(map), &i, &res[i]))
			res[i] = -1;
	check_eq("pushed", res[R_PUSHED], 10);
	check_eq("front", res[R_FRONT], 0);
	check_eq("popped", res[R_POPPED], 10);
	check_eq("order", res[R_ORDER_ERRORS], 0);
	check_eq("sum", res[R_SUM], 45);
	check_eq("left_in_list", res[R_LEFT], 2);
	check_eq("left_in_kptr", res[R_HELD], 1);
out:
	/* the map frees what was left in it */
	bpf_object__close(obj);
	return failed;
}
