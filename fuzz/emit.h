/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FUZZ_EMIT_H
#define FUZZ_EMIT_H

#include <linux/bpf.h>
#include "ir.h"

#define MAX_INSNS 4096

/* vmlinux BTF ids of the kfuncs the programs call */
enum kfunc {
	KF_ALLOC, KF_FREE, KF_NODE_INIT, KF_ADD, KF_ADD_TAIL, KF_POP_FRONT, KF_POP_BACK,
	KF_LOCK_INIT, KF_HEAD_INIT, KF_HEAD_FINI,
	KF_OBJ_NEW, KF_RB_ADD, KF_RB_FIRST, KF_RB_REMOVE,
	NR_KFUNCS
};
extern const char *const kfunc_names[NR_KFUNCS];

struct image {
	struct bpf_insn insn[MAX_INSNS];
	int n;
	int overflow;
	/* program BTF */
	unsigned char btf[4096];
	int btf_len;
	int elem_type_id, box_type_id, mval_type_id, key_type_id, func_type_id, sub_type_id;
	int telem_type_id;
	int gdata_type_id;	/* the DATASEC of the global data map */
	int prog_type;		/* BPF_PROG_TYPE_* */
	/* first instruction of each subprogram (for func_info) */
	int sub_off[MAX_SUBS];
	int nsubs;
};

/* The maps a program uses (file descriptors) */
struct maps {
	int array;	/* BPF_MAP_TYPE_ARRAY of struct mval, NR_KEYS entries */
	int outer;	/* BPF_MAP_TYPE_ARRAY_OF_MAPS, entry 0: such an array */
	int global;	/* global data: one value, a DATASEC laid out as struct mval */
};

void emit_btf(struct image *im);
void emit_prog(struct image *im, const struct prog *p, const struct maps *maps,
	       const int *kfunc_ids);
void print_insns(const struct image *im, FILE *f);

#endif
