// SPDX-License-Identifier: GPL-2.0
/*
 * Compile a generated program to BPF instructions, and write the program
 * BTF it needs (the local types, the map value type, the functions).
 */
#include <string.h>
#include <stddef.h>
#include <linux/btf.h>
#include "emit.h"

/* encoders (tools/lib/bpf's, not in the UAPI header) */
#define BTF_INFO_ENC(kind, kind_flag, vlen) \
	((!!(kind_flag) << 31) | ((kind) << 24) | ((vlen) & BTF_MAX_VLEN))
#define BTF_INT_ENC(encoding, bits_offset, nr_bits) \
	((encoding) << 24 | (bits_offset) << 16 | (nr_bits))

const char *const kfunc_names[NR_KFUNCS] = {
	"bpf_kptr_alloc", "bpf_kptr_free", "bpf_list_node_init", "bpf_list_add",
	"bpf_list_add_tail", "bpf_list_pop_front", "bpf_list_pop_back",
	"bpf_spin_lock_init", "bpf_list_head_init", "bpf_list_head_fini",
	"bpf_obj_new_impl", "bpf_rbtree_add_impl", "bpf_rbtree_first", "bpf_rbtree_remove",
};

const char *const prog_kind_names[NR_PROG_KINDS] = { "tc", "tc action", "xdp" };

static const int prog_types[NR_PROG_KINDS] = {
	BPF_PROG_TYPE_SCHED_CLS, BPF_PROG_TYPE_SCHED_ACT, BPF_PROG_TYPE_XDP,
};

/* ---- BTF ------------------------------------------------------------- */

struct btfw {
	unsigned char types[2048];
	int tlen;
	char strs[1024];
	int slen;
	int ntypes;
};

static int str(struct btfw *w, const char *s)
{
	int off = w->slen;

	if (!*s)
		return 0;
	strcpy(w->strs + w->slen, s);
	w->slen += strlen(s) + 1;
	return off;
}

static void put(struct btfw *w, const void *p, int len)
{
	memcpy(w->types + w->tlen, p, len);
	w->tlen += len;
}

static int type(struct btfw *w, const char *name, int kind, int vlen, int kflag, __u32 size_type)
{
	struct btf_type t = {
		.name_off = str(w, name),
		.info = BTF_INFO_ENC(kind, kflag, vlen),
		.size = size_type,
	};

	put(w, &t, sizeof(t));
	return ++w->ntypes;
}

static void member(struct btfw *w, const char *name, int type_id, int bit_off)
{
	struct btf_member m = { .name_off = str(w, name), .type = type_id, .offset = bit_off };

	put(w, &m, sizeof(m));
}

/* A global variable @name of type @type_id: its VAR type */
static int var(struct btfw *w, const char *name, int type_id)
{
	__u32 linkage = BTF_VAR_GLOBAL_ALLOCATED;

	type(w, name, BTF_KIND_VAR, 0, 0, type_id);
	put(w, &linkage, sizeof(linkage));
	return w->ntypes;
}

static void secinfo(struct btfw *w, int type_id, int off, int size)
{
	struct btf_var_secinfo v = { .type = type_id, .offset = off, .size = size };

	put(w, &v, sizeof(v));
}

/* u64[@n], indexed by @t_u32 */
static int u64_array(struct btfw *w, int t_u64, int t_u32, int n)
{
	struct btf_array arr = { .type = t_u64, .index_type = t_u32, .nelems = n };
	int id = type(w, "", BTF_KIND_ARRAY, 0, 0, 0);

	put(w, &arr, sizeof(arr));
	return id;
}

/* An opaque kernel struct of @size bytes: struct @name { @arr __opaque; } */
static int opaque(struct btfw *w, const char *name, int arr, int size)
{
	int id = type(w, name, BTF_KIND_STRUCT, 1, 0, size);

	member(w, "__opaque", arr, 0);
	return id;
}

void emit_btf(struct image *im)
{
	struct btfw w = { .slen = 1 };
	struct btf_header h = {
		.magic = BTF_MAGIC, .version = BTF_VERSION, .hdr_len = sizeof(h),
	};
	__u32 u;
	int t_u32, t_u64, t_lock, t_arr, t_flex, t_node, t_head, t_ptr, t_proto, t_kptr;
	int t_rb_node, t_rb_root;
	int v_lock, v_head, v_kp, v_root;
	struct btf_param prm;

	t_u32 = type(&w, "unsigned int", BTF_KIND_INT, 0, 0, 4);
	u = BTF_INT_ENC(0, 0, 32);
	put(&w, &u, 4);
	t_u64 = type(&w, "unsigned long long", BTF_KIND_INT, 0, 0, 8);
	u = BTF_INT_ENC(0, 0, 64);
	put(&w, &u, 4);
	t_lock = type(&w, "bpf_spin_lock", BTF_KIND_STRUCT, 1, 0, 4);
	member(&w, "val", t_u32, 0);
	t_arr = u64_array(&w, t_u64, t_u32, 2);
	t_node = opaque(&w, "bpf_list_node", t_arr, 16);
	t_head = opaque(&w, "bpf_list_head", t_arr, 16);
	/* upstream 6.6's sizes: the node records the root it is in */
	t_rb_node = opaque(&w, "bpf_rb_node", u64_array(&w, t_u64, t_u32, 4), 32);
	t_rb_root = opaque(&w, "bpf_rb_root", t_arr, 16);
	t_flex = u64_array(&w, t_u64, t_u32, 0);
	/* a trailing flexible array: bpf_kptr_alloc() allocates ELEM_SIZE */
	im->elem_type_id = type(&w, "elem", BTF_KIND_STRUCT, 3, 0, ELEM_SIZE);
	member(&w, "data", t_u64, 0);
	member(&w, "node", t_node, ELEM_NODE_OFF * 8);
	member(&w, "flex", t_flex, ELEM_SIZE * 8);
	im->telem_type_id = type(&w, "telem", BTF_KIND_STRUCT, 2, 0, TELEM_SIZE);
	member(&w, "data", t_u64, 0);
	member(&w, "rb", t_rb_node, TELEM_RB_OFF * 8);
	/* struct elem __local __kptr_ref * */
	t_kptr = type(&w, "local", BTF_KIND_TYPE_TAG, 0, 0, im->elem_type_id);
	t_kptr = type(&w, "kptr_ref", BTF_KIND_TYPE_TAG, 0, 0, t_kptr);
	t_kptr = type(&w, "", BTF_KIND_PTR, 0, 0, t_kptr);
	/* no member for bytes 4-7: 6.1 finds no kptr in a struct with a member
	 * at an offset not aligned to 8 (btf_find_struct_field())
	 */
	im->mval_type_id = type(&w, "mval", BTF_KIND_STRUCT, 4, 0, MVAL_SIZE);
	member(&w, "lock", t_lock, MVAL_LOCK_OFF * 8);
	member(&w, "head", t_head, MVAL_HEAD_OFF * 8);
	member(&w, "kp", t_kptr, MVAL_KPTR_OFF * 8);
	member(&w, "root", t_rb_root, MVAL_ROOT_OFF * 8);
	type(&w, "contains:struct:elem:node", BTF_KIND_DECL_TAG, 0, 0, im->mval_type_id);
	u = 1;		/* component: member "head" */
	put(&w, &u, 4);
	type(&w, "contains:telem:rb", BTF_KIND_DECL_TAG, 0, 0, im->mval_type_id);
	u = 3;		/* component: member "root" */
	put(&w, &u, 4);
	im->box_type_id = type(&w, "box", BTF_KIND_STRUCT, 4, 0, BOX_SIZE);
	member(&w, "data", t_u64, 0);
	member(&w, "lock", t_lock, BOX_LOCK_OFF * 8);
	member(&w, "pad", t_u32, (BOX_LOCK_OFF + 4) * 8);
	member(&w, "head", t_head, BOX_HEAD_OFF * 8);
	type(&w, "contains:struct:elem:node", BTF_KIND_DECL_TAG, 0, 0, im->box_type_id);
	u = 3;		/* component: member "head" */
	put(&w, &u, 4);
	/* the global data map: a private data section with the variables
	 * glock, ghead, gkp and groot where struct mval has its members
	 */
	v_lock = var(&w, "glock", t_lock);
	v_head = var(&w, "ghead", t_head);
	type(&w, "contains:struct:elem:node", BTF_KIND_DECL_TAG, 0, 0, v_head);
	u = -1;		/* on the variable itself */
	put(&w, &u, 4);
	v_kp = var(&w, "gkp", t_kptr);
	v_root = var(&w, "groot", t_rb_root);
	type(&w, "contains:telem:rb", BTF_KIND_DECL_TAG, 0, 0, v_root);
	u = -1;
	put(&w, &u, 4);
	im->gdata_type_id = type(&w, ".bss.private", BTF_KIND_DATASEC, 4, 0, MVAL_SIZE);
	secinfo(&w, v_lock, MVAL_LOCK_OFF, 4);
	secinfo(&w, v_head, MVAL_HEAD_OFF, 16);
	secinfo(&w, v_kp, MVAL_KPTR_OFF, 8);
	secinfo(&w, v_root, MVAL_ROOT_OFF, 16);
	t_ptr = type(&w, "", BTF_KIND_PTR, 0, 0, 0);
	t_proto = type(&w, "", BTF_KIND_FUNC_PROTO, 1, 0, t_u32);
	prm = (struct btf_param){ .name_off = str(&w, "ctx"), .type = t_ptr };
	put(&w, &prm, sizeof(prm));
	im->func_type_id = type(&w, "fuzz_prog", BTF_KIND_FUNC, BTF_FUNC_GLOBAL, 0, t_proto);
	/* static long fuzz_sub(u64 arg, void *ctx): callbacks and subprograms */
	t_proto = type(&w, "", BTF_KIND_FUNC_PROTO, 2, 0, t_u64);
	prm = (struct btf_param){ .name_off = str(&w, "arg"), .type = t_u64 };
	put(&w, &prm, sizeof(prm));
	prm = (struct btf_param){ .name_off = str(&w, "ctx"), .type = t_ptr };
	put(&w, &prm, sizeof(prm));
	im->sub_type_id = type(&w, "fuzz_sub", BTF_KIND_FUNC, BTF_FUNC_STATIC, 0, t_proto);
	im->key_type_id = t_u32;

	h.type_off = 0;
	h.type_len = w.tlen;
	h.str_off = w.tlen;
	h.str_len = w.slen;
	memcpy(im->btf, &h, sizeof(h));
	memcpy(im->btf + sizeof(h), w.types, w.tlen);
	memcpy(im->btf + sizeof(h) + w.tlen, w.strs, w.slen);
	im->btf_len = sizeof(h) + w.tlen + w.slen;
}

/* ---- instructions ---------------------------------------------------- */

#define R0 BPF_REG_0
#define R1 BPF_REG_1
#define R2 BPF_REG_2
#define FP BPF_REG_10
#define SLOT_KEY	(-24)
#define SLOT_RAND	(-32)
#define SLOT_CTX	(-40)	/* in a subprogram: the caller's &t1 */
#define R5 BPF_REG_5

/* Emitting a subprogram's body: T0/T1 are the caller's, through SLOT_CTX */
static bool in_sub;

static void ins(struct image *im, __u8 code, int dst, int src, __s16 off, __s32 imm)
{
	struct bpf_insn *i;

	if (im->n >= MAX_INSNS) {
		im->overflow = 1;
		return;
	}
	i = &im->insn[im->n++];
	memset(i, 0, sizeof(*i));
	i->code = code;
	i->dst_reg = dst;
	i->src_reg = src;
	i->off = off;
	i->imm = imm;
}

static void mov_imm(struct image *im, int dst, __s32 imm)
{
	ins(im, BPF_ALU64 | BPF_MOV | BPF_K, dst, 0, 0, imm);
}

static void mov_reg(struct image *im, int dst, int src)
{
	ins(im, BPF_ALU64 | BPF_MOV | BPF_X, dst, src, 0, 0);
}

static void add_imm(struct image *im, int dst, __s32 imm)
{
	/* as a compiler would: without CAP_PERFMON, even "+= 0" onto a
	 * map value's bpf_spin_lock is refused as out of range
	 */
	if (imm)
		ins(im, BPF_ALU64 | BPF_ADD | BPF_K, dst, 0, 0, imm);
}

static void call_helper(struct image *im, int id)
{
	ins(im, BPF_JMP | BPF_CALL, 0, 0, 0, id);
}

static void call_kfunc(struct image *im, const int *ids, enum kfunc k)
{
	ins(im, BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, ids ? ids[k] : -1);
}

static int var_reg(int v)
{
	static const int regs[] = { BPF_REG_6, BPF_REG_7, BPF_REG_8, BPF_REG_9 };

	return v < T0 ? regs[v] : -1;
}

static int var_slot(int v)
{
	return v == T0 ? -8 : -16;
}

/* offset of a T variable from the caller's &t1 (the context pointer) */
static int ctx_off(int v)
{
	return var_slot(v) + 16;
}

static void load_var(struct image *im, int dst, int v)
{
	if (var_reg(v) >= 0) {
		mov_reg(im, dst, var_reg(v));
	} else if (in_sub) {
		ins(im, BPF_LDX | BPF_MEM | BPF_DW, dst, FP, SLOT_CTX, 0);
		ins(im, BPF_LDX | BPF_MEM | BPF_DW, dst, dst, ctx_off(v), 0);
	} else {
		ins(im, BPF_LDX | BPF_MEM | BPF_DW, dst, FP, var_slot(v), 0);
	}
}

static void store_var(struct image *im, int v, int src)
{
	if (var_reg(v) >= 0) {
		mov_reg(im, var_reg(v), src);
	} else if (in_sub) {
		ins(im, BPF_LDX | BPF_MEM | BPF_DW, R5, FP, SLOT_CTX, 0);
		ins(im, BPF_STX | BPF_MEM | BPF_DW, R5, src, ctx_off(v), 0);
	} else {
		ins(im, BPF_STX | BPF_MEM | BPF_DW, FP, src, var_slot(v), 0);
	}
}

static int size_code(int size)
{
	return size == 1 ? BPF_B : size == 2 ? BPF_H : size == 4 ? BPF_W : BPF_DW;
}

struct ectx {
	struct image *im;
	const struct maps *maps;
	const int *ids;
	/* subprograms to emit after main, and the instructions to patch */
	const struct op *sub[MAX_SUBS];
	int site[MAX_SUBS];
	int nsub;
	/* the loads of less()'s address, patched once it is emitted */
	int less_site[MAX_INSNS / 16];
	int nless;
};

/* A call of @op's body: remember the site, patched once it is emitted */
static void sub_site(struct ectx *e, const struct op *op)
{
	if (e->nsub == MAX_SUBS) {
		e->im->overflow = 1;
		return;
	}
	e->sub[e->nsub] = op;
	e->site[e->nsub++] = e->im->n;
}

/* r = the address of the subprogram (patched later) */
static void ld_func(struct ectx *e, const struct op *op, int dst)
{
	sub_site(e, op);
	ins(e->im, BPF_LD | BPF_IMM | BPF_DW, dst, BPF_PSEUDO_FUNC, 0, 0);
	ins(e->im, 0, 0, 0, 0, 0);
}

static void emit_block(struct ectx *e, const struct block *b);

/* r = the context of a call: &t1 of the main program, wherever it runs */
static void ctx_arg(struct image *im, int dst)
{
	if (in_sub) {
		ins(im, BPF_LDX | BPF_MEM | BPF_DW, dst, FP, SLOT_CTX, 0);
	} else {
		mov_reg(im, dst, FP);
		add_imm(im, dst, -16);
	}
}

static void emit_op(struct ectx *e, const struct op *op)
{
	struct image *im = e->im;
	int at, at2;

	switch (op->kind) {
	case OP_LOOKUP:
		if (op->b == KEY_GLOBAL) {
			/* r0 = &glock: the value of the global data map */
			ins(im, BPF_LD | BPF_IMM | BPF_DW, R0, BPF_PSEUDO_MAP_VALUE, 0,
			    e->maps->global);
			ins(im, 0, 0, 0, 0, 0);
			store_var(im, op->a, R0);
			break;
		}
		if (op->b >= KEY_INNER) {
			/* r1 = the inner map; if none: the body, which leaves */
			ins(im, BPF_ST | BPF_MEM | BPF_W, FP, 0, SLOT_KEY, 0);
			ins(im, BPF_LD | BPF_IMM | BPF_DW, R1, BPF_PSEUDO_MAP_FD, 0,
			    e->maps->outer);
			ins(im, 0, 0, 0, 0, 0);
			mov_reg(im, R2, FP);
			add_imm(im, R2, SLOT_KEY);
			call_helper(im, BPF_FUNC_map_lookup_elem);
			at = im->n;
			ins(im, BPF_JMP | BPF_JNE | BPF_K, R0, 0, 0, 0);
			if (op->body)
				emit_block(e, op->body);
			im->insn[at].off = im->n - at - 1;
			mov_reg(im, R1, R0);
		} else {
			ins(im, BPF_LD | BPF_IMM | BPF_DW, R1, BPF_PSEUDO_MAP_FD, 0,
			    e->maps->array);
			ins(im, 0, 0, 0, 0, 0);
		}
		ins(im, BPF_ST | BPF_MEM | BPF_W, FP, 0, SLOT_KEY,
		    op->b >= KEY_INNER ? op->b - KEY_INNER : op->b);
		mov_reg(im, R2, FP);
		add_imm(im, R2, SLOT_KEY);
		call_helper(im, BPF_FUNC_map_lookup_elem);
		store_var(im, op->a, R0);
		break;
	case OP_NULLCHK:
		load_var(im, R1, op->a);
		at = im->n;
		ins(im, BPF_JMP | BPF_JNE | BPF_K, R1, 0, 0, 0);
		emit_block(e, op->body);
		im->insn[at].off = im->n - at - 1;
		break;
	case OP_ALLOC:
		if (op->c == 2) {
			mov_imm(im, R1, im->telem_type_id);
			mov_imm(im, R2, 0);
			call_kfunc(im, e->ids, KF_OBJ_NEW);
			store_var(im, op->a, R0);
			break;
		}
		mov_imm(im, R1, op->c ? im->box_type_id : im->elem_type_id);
		mov_imm(im, R2, 0);
		call_kfunc(im, e->ids, KF_ALLOC);
		store_var(im, op->a, R0);
		break;
	case OP_NODE_INIT:
		load_var(im, R1, op->a);
		add_imm(im, R1, ELEM_NODE_OFF);
		call_kfunc(im, e->ids, KF_NODE_INIT);
		break;
	case OP_FREE:
		load_var(im, R1, op->a);
		call_kfunc(im, e->ids, KF_FREE);
		break;
	case OP_XCHG:
		load_var(im, R1, op->b);
		add_imm(im, R1, MVAL_KPTR_OFF);
		if (op->c)
			mov_imm(im, R2, 0);
		else
			load_var(im, R2, op->a);
		call_helper(im, BPF_FUNC_kptr_xchg);
		store_var(im, op->a, R0);
		break;
	case OP_LOCK_INIT:
		load_var(im, R1, op->a);
		add_imm(im, R1, BOX_LOCK_OFF);
		call_kfunc(im, e->ids, KF_LOCK_INIT);
		break;
	case OP_HEAD_INIT:
	case OP_HEAD_FINI:
		load_var(im, R1, op->a);
		add_imm(im, R1, BOX_HEAD_OFF);
		call_kfunc(im, e->ids, op->kind == OP_HEAD_INIT ? KF_HEAD_INIT : KF_HEAD_FINI);
		break;
	case OP_LOCK:
	case OP_UNLOCK:
		load_var(im, R1, op->a);
		add_imm(im, R1, op->off);
		call_helper(im, op->kind == OP_LOCK ? BPF_FUNC_spin_lock : BPF_FUNC_spin_unlock);
		break;
	case OP_RB_ADD:
		load_var(im, R1, op->b);
		add_imm(im, R1, op->off);
		load_var(im, R2, op->a);
		add_imm(im, R2, TELEM_RB_OFF);
		if (e->nless == (int)(sizeof(e->less_site) / sizeof(e->less_site[0]))) {
			im->overflow = 1;
			break;
		}
		e->less_site[e->nless++] = im->n;
		ins(im, BPF_LD | BPF_IMM | BPF_DW, BPF_REG_3, BPF_PSEUDO_FUNC, 0, 0);
		ins(im, 0, 0, 0, 0, 0);
		mov_imm(im, BPF_REG_4, 0);
		mov_imm(im, R5, 0);
		call_kfunc(im, e->ids, KF_RB_ADD);
		break;
	case OP_RB_FIRST:
		load_var(im, R1, op->b);
		add_imm(im, R1, op->off);
		call_kfunc(im, e->ids, KF_RB_FIRST);
		store_var(im, op->a, R0);
		break;
	case OP_RB_REMOVE:
		load_var(im, R1, op->b);
		add_imm(im, R1, op->off);
		load_var(im, R2, op->a);
		call_kfunc(im, e->ids, KF_RB_REMOVE);
		store_var(im, op->a, R0);
		break;
	case OP_ADD:
		load_var(im, R1, op->a);
		add_imm(im, R1, ELEM_NODE_OFF);
		load_var(im, R2, op->b);
		add_imm(im, R2, op->off);
		call_kfunc(im, e->ids, op->c ? KF_ADD_TAIL : KF_ADD);
		break;
	case OP_POP:
		load_var(im, R1, op->b);
		add_imm(im, R1, op->off);
		call_kfunc(im, e->ids, op->c ? KF_POP_BACK : KF_POP_FRONT);
		store_var(im, op->a, R0);
		break;
	case OP_CONTAINER:
		load_var(im, R1, op->a);
		add_imm(im, R1, -ELEM_NODE_OFF);
		store_var(im, op->a, R1);
		break;
	case OP_LOAD:
		load_var(im, R1, op->a);
		ins(im, BPF_LDX | BPF_MEM | size_code(op->size), R0, R1, op->off, 0);
		break;
	case OP_STORE:
		load_var(im, R1, op->a);
		mov_imm(im, R2, 42);
		ins(im, BPF_STX | BPF_MEM | size_code(op->size), R1, R2, op->off, 0);
		break;
	case OP_STORE_PTR:
		load_var(im, R1, op->a);
		load_var(im, R2, op->b);
		ins(im, BPF_STX | BPF_MEM | BPF_DW, R1, R2, op->off, 0);
		break;
	case OP_MOVE:
		load_var(im, R1, op->b);
		store_var(im, op->a, R1);
		break;
	case OP_IF:
		ins(im, BPF_LDX | BPF_MEM | BPF_DW, R1, FP, SLOT_RAND, 0);
		at = im->n;
		ins(im, BPF_JMP | BPF_JSET | BPF_K, R1, 0, 0, 1 << op->c);
		emit_block(e, op->body);
		at2 = im->n;
		ins(im, BPF_JMP | BPF_JA, 0, 0, 0, 0);
		im->insn[at].off = im->n - at - 1;
		emit_block(e, op->body2);
		im->insn[at2].off = im->n - at2 - 1;
		break;
	case OP_EXIT:
		mov_imm(im, R0, 0);
		ins(im, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
		break;
	case OP_LOOP:
		ins(im, BPF_LDX | BPF_MEM | BPF_DW, R1, FP, SLOT_RAND, 0);
		ins(im, BPF_ALU64 | BPF_MOD | BPF_K, R1, 0, 0, 3);
		ld_func(e, op, R2);
		ctx_arg(im, BPF_REG_3);
		mov_imm(im, BPF_REG_4, 0);
		call_helper(im, BPF_FUNC_loop);
		break;
	case OP_EACH:
		ins(im, BPF_LD | BPF_IMM | BPF_DW, R1, BPF_PSEUDO_MAP_FD, 0, e->maps->array);
		ins(im, 0, 0, 0, 0, 0);
		ld_func(e, op, R2);
		ctx_arg(im, BPF_REG_3);
		mov_imm(im, BPF_REG_4, 0);
		call_helper(im, BPF_FUNC_for_each_map_elem);
		break;
	case OP_CALL:
		mov_imm(im, R1, 0);
		ctx_arg(im, R2);
		sub_site(e, op);
		ins(im, BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 0);
		break;
	default:
		break;
	}
}

static void emit_block(struct ectx *e, const struct block *b)
{
	int i;

	for (i = 0; i < b->n; i++)
		emit_op(e, &b->ops[i]);
}

/*
 * The subprograms, after main: save the context pointer, zero the
 * registers the body uses, draw its own random bits, then the body.
 */
static void emit_subs(struct ectx *e)
{
	struct image *im = e->im;
	int i, v, start;

	im->nsubs = 0;
	in_sub = true;
	for (i = 0; i < e->nsub; i++) {
		const struct op *op = e->sub[i];
		int ctx = op->kind == OP_EACH ? BPF_REG_4 : R2;

		start = im->n;
		if (im->nsubs < MAX_SUBS)
			im->sub_off[im->nsubs++] = start;
		/* a call site's imm: from the instruction after it */
		im->insn[e->site[i]].imm = start - e->site[i] - 1;
		ins(im, BPF_STX | BPF_MEM | BPF_DW, FP, ctx, SLOT_CTX, 0);
		for (v = O0; v < T0; v++)
			if (op->kind == OP_EACH && v == M0)
				mov_reg(im, var_reg(v), BPF_REG_3);	/* the element */
			else
				mov_imm(im, var_reg(v), 0);
		call_helper(im, BPF_FUNC_get_prandom_u32);
		ins(im, BPF_STX | BPF_MEM | BPF_DW, FP, R0, SLOT_RAND, 0);
		emit_block(e, op->body);
	}
	in_sub = false;
	if (!e->nless)
		return;
	/*
	 * less() of every bpf_rbtree_add(): a static subprogram the kernel
	 * calls with two nodes, which compares their data words:
	 * container_of(a, struct telem, rb)->data < container_of(b, ...)->data
	 */
	start = im->n;
	if (im->nsubs < MAX_SUBS)
		im->sub_off[im->nsubs++] = start;
	else
		im->overflow = 1;
	for (i = 0; i < e->nless; i++)
		im->insn[e->less_site[i]].imm = start - e->less_site[i] - 1;
	ins(im, BPF_LDX | BPF_MEM | BPF_DW, R1, R1, -TELEM_RB_OFF, 0);
	ins(im, BPF_LDX | BPF_MEM | BPF_DW, R2, R2, -TELEM_RB_OFF, 0);
	mov_imm(im, R0, 1);
	ins(im, BPF_JMP | BPF_JLT | BPF_X, R1, R2, 1, 0);
	mov_imm(im, R0, 0);
	ins(im, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

void emit_prog(struct image *im, const struct prog *p, const struct maps *maps,
	       const int *kfunc_ids)
{
	static const struct maps none = { -1, -1, -1 };
	struct ectx e = { .im = im, .maps = maps ? maps : &none, .ids = kfunc_ids };
	int v;

	im->n = 0;
	im->overflow = 0;
	im->prog_type = prog_types[p->kind];
	/* a number the verifier cannot know: the packet length times a mix
	 * (tc), a random number (XDP: its context has no length)
	 */
	if (p->kind == PT_XDP) {
		call_helper(im, BPF_FUNC_get_prandom_u32);
		mov_reg(im, R2, R0);
	} else {
		ins(im, BPF_LDX | BPF_MEM | BPF_W, R2, R1, offsetof(struct __sk_buff, len), 0);
	}
	ins(im, BPF_ALU64 | BPF_MUL | BPF_K, R2, 0, 0, 0x9e3779b1);
	ins(im, BPF_STX | BPF_MEM | BPF_DW, FP, R2, SLOT_RAND, 0);
	for (v = 0; v < NR_VARS; v++) {
		if (var_reg(v) >= 0)
			mov_imm(im, var_reg(v), 0);
		else
			ins(im, BPF_ST | BPF_MEM | BPF_DW, FP, 0, var_slot(v), 0);
	}
	emit_block(&e, p->main);
	emit_subs(&e);
}

static const char *alu_op(int op)
{
	switch (op) {
	case BPF_ADD: return "+=";
	case BPF_SUB: return "-=";
	case BPF_MUL: return "*=";
	case BPF_MOV: return "=";
	case BPF_MOD: return "%=";
	case BPF_AND: return "&=";
	default: return "?=";
	}
}

static const char *jmp_op(int op)
{
	switch (op) {
	case BPF_JEQ: return "==";
	case BPF_JNE: return "!=";
	case BPF_JSET: return "&";
	case BPF_JLT: return "<";
	default: return "?";
	}
}

static const char *sz(int code)
{
	switch (BPF_SIZE(code)) {
	case BPF_B: return "u8";
	case BPF_H: return "u16";
	case BPF_W: return "u32";
	default: return "u64";
	}
}

/* BPF assembly in the verifier's own notation */
void print_insns(const struct image *im, FILE *f)
{
	int i;

	for (i = 0; i < im->n; i++) {
		const struct bpf_insn *x = &im->insn[i];
		int cls = BPF_CLASS(x->code);

		fprintf(f, "%4d: ", i);
		if (x->code == (BPF_LD | BPF_IMM | BPF_DW) && x->src_reg == BPF_PSEUDO_FUNC) {
			fprintf(f, "r%d = subprog[%d] ll\n", x->dst_reg, i + x->imm + 1);
			i++;
		} else if (x->code == (BPF_LD | BPF_IMM | BPF_DW) &&
			   x->src_reg == BPF_PSEUDO_MAP_VALUE) {
			fprintf(f, "r%d = map_value[fd %d] + %d ll\n", x->dst_reg, x->imm, x[1].imm);
			i++;
		} else if (x->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			fprintf(f, "r%d = map[fd %d] ll\n", x->dst_reg, x->imm);
			i++;
		} else if (cls == BPF_ALU64 && BPF_SRC(x->code) == BPF_K) {
			fprintf(f, "r%d %s %d\n", x->dst_reg, alu_op(BPF_OP(x->code)), x->imm);
		} else if (cls == BPF_ALU64) {
			fprintf(f, "r%d %s r%d\n", x->dst_reg, alu_op(BPF_OP(x->code)), x->src_reg);
		} else if (cls == BPF_LDX) {
			fprintf(f, "r%d = *(%s *)(r%d %+d)\n", x->dst_reg, sz(x->code), x->src_reg,
				x->off);
		} else if (cls == BPF_STX) {
			fprintf(f, "*(%s *)(r%d %+d) = r%d\n", sz(x->code), x->dst_reg, x->off,
				x->src_reg);
		} else if (cls == BPF_ST) {
			fprintf(f, "*(%s *)(r%d %+d) = %d\n", sz(x->code), x->dst_reg, x->off,
				x->imm);
		} else if (x->code == (BPF_JMP | BPF_CALL)) {
			if (x->src_reg == BPF_PSEUDO_KFUNC_CALL)
				fprintf(f, "call kfunc#%d\n", x->imm);
			else if (x->src_reg == BPF_PSEUDO_CALL)
				fprintf(f, "call pc%+d\n", x->imm);
			else
				fprintf(f, "call helper#%d\n", x->imm);
		} else if (x->code == (BPF_JMP | BPF_EXIT)) {
			fprintf(f, "exit\n");
		} else if (x->code == (BPF_JMP | BPF_JA)) {
			fprintf(f, "goto %+d\n", x->off);
		} else if (cls == BPF_JMP && BPF_SRC(x->code) == BPF_X) {
			fprintf(f, "if r%d %s r%d goto %+d\n", x->dst_reg, jmp_op(BPF_OP(x->code)),
				x->src_reg, x->off);
		} else if (cls == BPF_JMP) {
			fprintf(f, "if r%d %s %d goto %+d\n", x->dst_reg, jmp_op(BPF_OP(x->code)),
				x->imm, x->off);
		} else {
			fprintf(f, "code %02x dst r%d src r%d off %d imm %d\n", x->code, x->dst_reg,
				x->src_reg, x->off, x->imm);
		}
	}
}
