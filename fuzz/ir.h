/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fuzzer's program representation: a small structured language of the
 * operations the series adds (objects, locks, lists, trees) on a fixed set of
 * variables, with branches that join again.  The generator builds it, the
 * reference model interprets it on every path, the emitter compiles it to
 * BPF instructions.  The model never looks at BPF instructions.
 */
#ifndef FUZZ_IR_H
#define FUZZ_IR_H

#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>

/*
 * Variables.  O0/O1 hold object pointers (r6, r7), M0/M1 map value
 * pointers (r8, r9), T0/T1 live in stack slots (fp-8, fp-16) and can hold
 * either: a move into them is a spill, a move out a fill.
 */
enum var { O0, O1, M0, M1, T0, T1, NR_VARS };

enum op_kind {
	OP_LOOKUP,	/* v = a map value			(a: v, b: key, see KEY_*;
			 * an inner map's: body if the array of maps has none)
			 */
	OP_NULLCHK,	/* if (!v) { cleanup; exit }		(a: v, body: cleanup) */
	OP_ALLOC,	/* v = bpf_kptr_alloc(elem or box, 0)	(a: v, c: 1 box;
			 * c: 2 v = bpf_obj_new(struct telem), whole at once)
			 */
	OP_NODE_INIT,	/* bpf_list_node_init(&v->node)		(a: v) */
	OP_FREE,	/* bpf_kptr_free(v)			(a: v) */
	OP_LOCK,	/* bpf_spin_lock(v + off)		(a: v, off) */
	OP_UNLOCK,	/* bpf_spin_unlock(v + off)		(a: v, off) */
	OP_ADD,		/* bpf_list_add[_tail](&o->node, m + off)	(a: o, b: m, c: tail) */
	OP_POP,		/* o = bpf_list_pop_front/back(m + off)	(a: o, b: m, c: back) */
	OP_CONTAINER,	/* o -= offsetof(struct elem, node)	(a: o) */
	OP_LOAD,	/* r0 = *(size *)(v + off)		(a: v, off, size) */
	OP_STORE,	/* *(size *)(v + off) = 42		(a: v, off, size) */
	OP_STORE_PTR,	/* *(u64 *)(v + off) = w		(a: v, b: w, off) */
	OP_MOVE,	/* a = b */
	OP_XCHG,	/* a = bpf_kptr_xchg(&m->kp, c ? NULL : a)	(a, b: m, c) */
	OP_LOCK_INIT,	/* bpf_spin_lock_init(&v->lock)	of a box	(a: v) */
	OP_HEAD_INIT,	/* bpf_list_head_init(&v->head)	of a box	(a: v) */
	OP_HEAD_FINI,	/* bpf_list_head_fini(&v->head)	of a box	(a: v) */
	/* red-black trees of telems, the lock of the map value guarding them */
	OP_RB_ADD,	/* bpf_rbtree_add(m + off, &o->rb, less)	(a: o, b: m) */
	OP_RB_FIRST,	/* o = bpf_rbtree_first(m + off)	(a: o, b: m) */
	OP_RB_REMOVE,	/* o = bpf_rbtree_remove(m + off, o)	(a: o, b: m) */
	OP_IF,		/* if (random bit c) { body } else { body2 } */
	OP_EXIT,	/* r0 = 0; exit (from a subprogram: return) */
	/*
	 * Calls of a subprogram (body).  Its O0..M1 are its own registers,
	 * zero at entry; T0/T1 are the main program's stack slots, reached
	 * through the context pointer (passed on by nested calls).  Not
	 * under the lock; at most MAX_NEST deep.
	 */
	OP_LOOP,	/* bpf_loop(rand % 3, body, &t1, 0): body runs 0..2 times */
	OP_EACH,	/* bpf_for_each_map_elem(&map, body, &t1, 0): M0 = an element */
	OP_CALL,	/* static subprogram body(0, &t1), runs once */
	NR_OPS
};

struct op {
	enum op_kind kind;
	int a, b, c;
	int off, size;
	struct block *body, *body2;
};

struct block {
	int n, cap;
	struct op *ops;
};

/* The types of the generated BTF; the model uses their layout. */
#define ELEM_SIZE	24	/* struct elem { u64 data; struct bpf_list_node node; u64 flex[]; } */
#define ELEM_NODE_OFF	8
/* struct telem { u64 data; struct bpf_rb_node rb; }: its node where an
 * elem has its own, so that container_of() is the same for both
 */
#define TELEM_SIZE	40
#define TELEM_RB_OFF	ELEM_NODE_OFF
/* struct mval { bpf_spin_lock lock; (4 bytes) bpf_list_head head;
 *		 struct elem __local __kptr_ref *kp;
 *		 bpf_rb_root root __contains(telem, rb); }
 */
#define MVAL_SIZE	48
#define MVAL_LOCK_OFF	0
#define MVAL_HEAD_OFF	8
#define MVAL_KPTR_OFF	24
#define MVAL_ROOT_OFF	32
/* struct box { u64 data; bpf_spin_lock lock; u32 pad; bpf_list_head head; }:
 * a local type with a lock and a list of elems, constructed lock then head
 */
#define BOX_SIZE	32
#define BOX_LOCK_OFF	8
#define BOX_HEAD_OFF	16
#define NR_KEYS		2	/* array map entries */
/*
 * The map values a lookup reaches, by key: 0..NR_KEYS-1 the array map's
 * (bpf_map_lookup_elem), KEY_INNER + k the inner map's under an array of
 * maps (two lookups, either NULL), KEY_GLOBAL the global data map's one
 * value (a variable of a private data section: ld_imm64, never NULL).
 * All have the layout of struct mval.
 */
#define KEY_INNER	NR_KEYS
#define KEY_GLOBAL	(2 * NR_KEYS)
#define NR_LOOKUP_KEYS	(KEY_GLOBAL + 1)
#define key_is_inner(key)	((key) >= KEY_INNER && (key) < KEY_GLOBAL)
#define MAX_SUBS	32	/* subprograms of one program */
#define MAX_NEST	2	/* subprograms running at once */

/* The program types that may call the series' kfuncs and run by
 * BPF_PROG_TEST_RUN with a packet: the rules are the same for all three
 */
enum prog_kind { PT_TC, PT_TC_ACTION, PT_XDP, NR_PROG_KINDS };
extern const char *const prog_kind_names[NR_PROG_KINDS];

struct prog {
	struct block *main;
	uint64_t seed;
	enum prog_kind kind;
};

struct block *block_new(void);
void block_push(struct block *b, struct op op);
void prog_free(struct prog *p);

/* gen.c */
void gen_prog(struct prog *p, uint64_t seed);

/* model.c: 0 safe, 1 unsafe (reason filled in) */
int model_check(const struct prog *p, bool allow_ptr_leaks, char *reason, int len);

/* print.c */
void print_prog(const struct prog *p, FILE *f);

#endif
