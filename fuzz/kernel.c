// SPDX-License-Identifier: GPL-2.0
/* The bpf() calls of the runner, kfunc ids from vmlinux BTF, privileges. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/btf.h>
#include <linux/capability.h>
#include "emit.h"
#include "kernel.h"

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

int load_btf(const struct image *im, char *log, int log_len)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.btf = (unsigned long)im->btf;
	a.btf_size = im->btf_len;
	if (log) {
		a.btf_log_buf = (unsigned long)log;
		a.btf_log_size = log_len;
		a.btf_log_level = 1;
	}
	return sys_bpf(BPF_BTF_LOAD, &a);
}

static int create_map(const struct image *im, const char *name, int type, int value_type_id,
		      int value_size, int max_entries, int btf_fd, int inner_fd)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_type = type;
	a.key_size = 4;
	a.value_size = value_size;
	a.max_entries = max_entries;
	if (value_type_id) {
		a.btf_fd = btf_fd;
		a.btf_key_type_id = im->key_type_id;
		a.btf_value_type_id = value_type_id;
	}
	a.inner_map_fd = inner_fd;
	strncpy(a.map_name, name, sizeof(a.map_name) - 1);
	return sys_bpf(BPF_MAP_CREATE, &a);
}

void close_maps(struct maps *m)
{
	if (m->array >= 0)
		close(m->array);	/* frees what its lists still hold */
	if (m->outer >= 0)
		close(m->outer);	/* and with it its inner map */
	if (m->global >= 0)
		close(m->global);
	m->array = m->outer = m->global = -1;
}

int create_maps(const struct image *im, int btf_fd, struct maps *m)
{
	union bpf_attr a;
	int inner, zero = 0, err;

	close_maps(m);
	m->array = create_map(im, "fuzz_lists", BPF_MAP_TYPE_ARRAY, im->mval_type_id, MVAL_SIZE,
			      NR_KEYS, btf_fd, 0);
	inner = create_map(im, "fuzz_inner", BPF_MAP_TYPE_ARRAY, im->mval_type_id, MVAL_SIZE,
			   NR_KEYS, btf_fd, 0);
	if (inner >= 0)
		m->outer = create_map(im, "fuzz_outer", BPF_MAP_TYPE_ARRAY_OF_MAPS, 0, 4, 1, btf_fd,
				      inner);
	m->global = create_map(im, ".bss.private", BPF_MAP_TYPE_ARRAY, im->gdata_type_id,
			       MVAL_SIZE, 1, btf_fd, 0);
	err = m->array < 0 || inner < 0 || m->outer < 0 || m->global < 0;
	if (!err) {
		memset(&a, 0, sizeof(a));
		a.map_fd = m->outer;
		a.key = (unsigned long)&zero;
		a.value = (unsigned long)&inner;
		err = sys_bpf(BPF_MAP_UPDATE_ELEM, &a) < 0;
	}
	if (inner >= 0)
		close(inner);	/* the outer map holds it */
	if (err) {
		int e = errno;

		close_maps(m);
		errno = e;
		return -1;
	}
	return 0;
}

int load_prog(const struct image *im, int btf_fd, char *log, int log_len)
{
	struct bpf_func_info fi[1 + MAX_SUBS] = { { .insn_off = 0, .type_id = im->func_type_id } };
	union bpf_attr a;
	int i;

	for (i = 0; i < im->nsubs; i++)
		fi[1 + i] = (struct bpf_func_info){ im->sub_off[i], im->sub_type_id };

	memset(&a, 0, sizeof(a));
	a.prog_type = im->prog_type;
	a.insns = (unsigned long)im->insn;
	a.insn_cnt = im->n;
	a.license = (unsigned long)"GPL";
	a.prog_btf_fd = btf_fd;
	a.func_info = (unsigned long)fi;
	a.func_info_cnt = 1 + im->nsubs;
	a.func_info_rec_size = sizeof(fi[0]);
	if (im->prog_type == BPF_PROG_TYPE_XDP)
		a.expected_attach_type = BPF_XDP;
	if (log) {
		log[0] = 0;
		a.log_buf = (unsigned long)log;
		a.log_size = log_len;
		a.log_level = 1;
	}
	return sys_bpf(BPF_PROG_LOAD, &a);
}

int test_run(int prog_fd, const void *data, int len, int repeat, __u32 *retval)
{
	union bpf_attr a;
	int err;

	memset(&a, 0, sizeof(a));
	a.test.prog_fd = prog_fd;
	a.test.data_in = (unsigned long)data;
	a.test.data_size_in = len;
	a.test.repeat = repeat;
	err = sys_bpf(BPF_PROG_TEST_RUN, &a);
	if (retval)
		*retval = a.test.retval;
	return err;
}

/* ---- vmlinux BTF ------------------------------------------------------ */

static int type_extra(const struct btf_type *t)
{
	int vlen = BTF_INFO_VLEN(t->info);

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return vlen * sizeof(struct btf_enum);
	case BTF_KIND_FUNC_PROTO:
		return vlen * sizeof(struct btf_param);
	case BTF_KIND_DATASEC:
		return vlen * sizeof(struct btf_var_secinfo);
	case 19:	/* BTF_KIND_ENUM64 */
		return vlen * 12;
	default:
		return 0;
	}
}

int find_kfuncs(int *ids, char *err, int err_len)
{
	int fd = open("/sys/kernel/btf/vmlinux", O_RDONLY), k, id = 0, found = 0;
	size_t cap = 16 << 20, len = 0;
	unsigned char *buf;
	struct btf_header *h;
	const char *strs;
	unsigned char *p, *end;
	ssize_t r;

	if (fd < 0) {
		snprintf(err, err_len, "/sys/kernel/btf/vmlinux: %s", strerror(errno));
		return -1;
	}
	buf = malloc(cap);
	while (buf && (r = read(fd, buf + len, cap - len)) > 0) {
		len += r;
		if (len == cap)
			buf = realloc(buf, cap *= 2);
	}
	close(fd);
	if (!buf)
		return -1;
	h = (struct btf_header *)buf;
	strs = (const char *)buf + h->hdr_len + h->str_off;
	p = buf + h->hdr_len + h->type_off;
	end = p + h->type_len;
	for (k = 0; k < NR_KFUNCS; k++)
		ids[k] = -1;
	while (p < end) {
		const struct btf_type *t = (const struct btf_type *)p;

		id++;
		if (BTF_INFO_KIND(t->info) == BTF_KIND_FUNC)
			for (k = 0; k < NR_KFUNCS; k++)
				if (ids[k] < 0 && !strcmp(strs + t->name_off, kfunc_names[k])) {
					ids[k] = id;
					found++;
				}
		p += sizeof(*t) + type_extra(t);
	}
	free(buf);
	for (k = 0; k < NR_KFUNCS; k++)
		if (ids[k] < 0) {
			snprintf(err, err_len, "kfunc %s not in vmlinux BTF: is the series applied?",
				 kfunc_names[k]);
			return -1;
		}
	return 0;
}

/* Keep only CAP_BPF and CAP_NET_ADMIN (what a tc loader needs) */
int drop_to_cap_bpf(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];
	__u64 caps = (1ULL << 39) | (1ULL << CAP_NET_ADMIN);	/* 39: CAP_BPF */

	memset(data, 0, sizeof(data));
	data[0].effective = data[0].permitted = (__u32)caps;
	data[1].effective = data[1].permitted = (__u32)(caps >> 32);
	return syscall(SYS_capset, &hdr, data);
}
