// SPDX-License-Identifier: GPL-2.0
/*
 * Program generator.  It keeps a belief of one path's state so that most
 * programs are well formed and safe, then mutates: with a small chance an
 * operation is chosen without looking at the belief, and branches give the
 * two arms different aliases, so that only state pruning joins them.
 * Deterministic for a seed.
 */
#include <stdlib.h>
#include <string.h>
#include "ir.h"

static uint64_t rng;

static uint64_t rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int pick(int n)
{
	return (int)(rnd() % (uint64_t)n);
}

static bool chance(int percent)
{
	return pick(100) < percent;
}

/* The map most lookups of a program go to: 0 the array map, KEY_INNER
 * the inner map.  Two values of one map on two paths that join are what
 * state pruning must tell apart.
 */
static int home_map;

/* A map value to look up: mostly of the home map, else of the other map
 * or the global
 */
static int pick_key(void)
{
	int r = pick(100);

	if (r < 80)
		return home_map + pick(NR_KEYS);
	if (r < 90)
		return (KEY_INNER - home_map) + pick(NR_KEYS);
	return KEY_GLOBAL;
}

enum bkind { B_NONE, B_MAP, B_OBJ };

struct belief {
	enum bkind kind[NR_VARS];
	bool maybe_null[NR_VARS];
	bool owned[NR_VARS];		/* B_OBJ: owned, else non-owning */
	bool constructed[NR_VARS];	/* B_OBJ: node constructed */
	bool box[NR_VARS];		/* B_OBJ: a box, not an elem */
	bool tree[NR_VARS];		/* B_OBJ: a telem, not an elem */
	int bctor[NR_VARS];		/* box: fields constructed (lock, head) */
	int off[NR_VARS];		/* B_OBJ: 0 or ELEM_NODE_OFF */
	bool frozen[NR_VARS];		/* not to be touched (in a branch arm) */
	bool caller[NR_VARS];		/* in a subprogram: the caller's T0/T1 */
	bool in_sub;
	int nest;			/* subprograms this one is called from */
	int lock;			/* var whose lock is held, -1 */
	int depth;			/* IF nesting */
};

static int wild_rate;		/* percent of operations chosen blindly */

struct block *block_new(void)
{
	return calloc(1, sizeof(struct block));
}

void block_push(struct block *b, struct op op)
{
	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 16;
		b->ops = realloc(b->ops, b->cap * sizeof(*b->ops));
	}
	b->ops[b->n++] = op;
}

static void block_free(struct block *b)
{
	int i;

	if (!b)
		return;
	for (i = 0; i < b->n; i++) {
		block_free(b->ops[i].body);
		block_free(b->ops[i].body2);
	}
	free(b->ops);
	free(b);
}

void prog_free(struct prog *p)
{
	block_free(p->main);
	p->main = NULL;
}

static void emit(struct block *b, enum op_kind k, int a, int bb, int c)
{
	struct op op = { .kind = k, .a = a, .b = bb, .c = c };

	block_push(b, op);
}

static void emit_off(struct block *b, enum op_kind k, int a, int bb, int c, int off)
{
	struct op op = { .kind = k, .a = a, .b = bb, .c = c, .off = off };

	block_push(b, op);
}

/* Offsets of the lock and the list head of what @v points to */
static int lock_off(struct belief *s, int v)
{
	return v >= 0 && s->kind[v] == B_OBJ && s->box[v] ? BOX_LOCK_OFF : MVAL_LOCK_OFF;
}

static int head_off(struct belief *s, int v)
{
	return v >= 0 && s->kind[v] == B_OBJ && s->box[v] ? BOX_HEAD_OFF : MVAL_HEAD_OFF;
}

static void copy_var(struct belief *d, int dv, const struct belief *s, int sv)
{
	d->kind[dv] = s->kind[sv];
	d->maybe_null[dv] = s->maybe_null[sv];
	d->owned[dv] = s->owned[sv];
	d->constructed[dv] = s->constructed[sv];
	d->off[dv] = s->off[sv];
	d->box[dv] = s->box[sv];
	d->tree[dv] = s->tree[sv];
	d->bctor[dv] = s->bctor[sv];
}

/* Free an owned object: back to offset 0, a box's list destructed first */
static void free_obj(struct block *b, struct belief *s, int v, bool sloppy)
{
	if (s->off[v])
		emit(b, OP_CONTAINER, v, 0, 0);
	if (s->box[v] && s->bctor[v] == 2 && !(sloppy && chance(3)))
		emit(b, OP_HEAD_FINI, v, 0, 0);
	emit(b, OP_FREE, v, 0, 0);
	s->kind[v] = B_NONE;
}

static void unlock(struct block *b, struct belief *s)
{
	int v;

	emit_off(b, OP_UNLOCK, s->lock, 0, 0, lock_off(s, s->lock));
	s->lock = -1;
	for (v = 0; v < NR_VARS; v++)
		if (s->kind[v] == B_OBJ && !s->owned[v])
			s->kind[v] = B_NONE;
}

static int var_of(struct belief *s, enum bkind k, bool need_nonnull)
{
	int cand[NR_VARS], n = 0, v;

	for (v = 0; v < NR_VARS; v++)
		if (s->kind[v] == k && (!need_nonnull || !s->maybe_null[v]) && !s->frozen[v])
			cand[n++] = v;
	return n ? cand[pick(n)] : -1;
}

static int free_var(struct belief *s, bool obj)
{
	int cand[NR_VARS], n = 0, v;

	for (v = 0; v < NR_VARS; v++) {
		if ((s->kind[v] == B_OBJ && s->owned[v]) || s->frozen[v] || s->caller[v])
			continue;
		if (obj && v != O0 && v != O1 && v != T0 && v != T1)
			continue;
		if (!obj && v != M0 && v != M1 && v != T0 && v != T1)
			continue;
		if (s->lock == v)
			continue;
		cand[n++] = v;
	}
	return n ? cand[pick(n)] : -1;
}

/* What a well-formed program does before leaving: unlock, free. */
static void cleanup(struct block *b, struct belief *s, int except)
{
	/* @except: NULL on this path, nothing to free */
	int v;

	if (s->lock >= 0)
		unlock(b, s);
	/* NULL-check first: the NULL branch frees the others and leaves */
	for (v = 0; v < NR_VARS; v++) {
		if (v == except || s->kind[v] != B_OBJ || !s->owned[v] || !s->maybe_null[v] ||
		    s->caller[v])
			continue;
		s->maybe_null[v] = false;
		{
			struct op op = { .kind = OP_NULLCHK, .a = v, .body = block_new() };
			struct belief t = *s;

			t.kind[v] = B_NONE;
			cleanup(op.body, &t, except);
			emit(op.body, OP_EXIT, 0, 0, 0);
			block_push(b, op);
		}
	}
	for (v = 0; v < NR_VARS; v++) {
		if (v == except || s->kind[v] != B_OBJ || !s->owned[v] || s->caller[v])
			continue;
		free_obj(b, s, v, false);
	}
}

static void nullchk(struct block *b, struct belief *s, int v)
{
	struct op op = { .kind = OP_NULLCHK, .a = v, .body = block_new() };
	struct belief t = *s;

	if (!wild_rate || !chance(2))	/* else: leave without cleaning up */
		cleanup(op.body, &t, v);
	emit(op.body, OP_EXIT, 0, 0, 0);
	block_push(b, op);
	s->maybe_null[v] = false;
}

/* @v = an elem or telem at @off that a kfunc returned and which may be
 * NULL: a list pop or bpf_kptr_xchg() (owned), bpf_rbtree_first() (not);
 * mostly NULL-checked
 */
static void found_obj(struct block *b, struct belief *s, int v, bool tree, bool owned, int off)
{
	s->kind[v] = B_OBJ;
	s->box[v] = false;
	s->tree[v] = tree;
	s->maybe_null[v] = true;
	s->owned[v] = owned;
	s->constructed[v] = true;
	s->off[v] = off;
	if (chance(90))
		nullchk(b, s, v);
}

static void gen_block(struct block *b, struct belief *s, int budget);

/*
 * A branch arm: it leaves the objects and the lock of before the branch
 * alone and gives back what it took, so that both arms join in the same
 * state (unless a blind operation says otherwise).
 */
static void gen_arm(struct block *b, const struct belief *entry, struct belief *a)
{
	int v;

	for (v = 0; v < NR_VARS; v++)
		a->frozen[v] = (entry->kind[v] == B_OBJ) || entry->lock == v;
	if (entry->lock >= 0) {
		/* under the lock: only neutral operations */
		a->frozen[entry->lock] = true;
		gen_block(b, a, 1 + pick(2));
		return;
	}
	gen_block(b, a, 1 + pick(3));
	if (a->lock >= 0)
		unlock(b, a);
	for (v = 0; v < NR_VARS; v++) {
		if (a->frozen[v] || a->kind[v] != B_OBJ || !a->owned[v])
			continue;
		if (a->maybe_null[v]) {
			struct op op = { .kind = OP_NULLCHK, .a = v, .body = block_new() };

			emit(op.body, OP_EXIT, 0, 0, 0);
			block_push(b, op);
		}
		free_obj(b, a, v, false);
	}
	/* map values the arm looked up may be NULL on the other arm */
	for (v = 0; v < NR_VARS; v++)
		if (!a->frozen[v] && a->kind[v] != entry->kind[v])
			emit(b, OP_MOVE, v, v == T0 ? T1 : T0, 0), a->kind[v] = B_NONE;
}

/*
 * A callback or static subprogram.  Its body works on its own registers
 * and cleans up after itself; the caller's objects in T0/T1 are left
 * alone, except that now and then the body changes one on purpose: safe in
 * a subprogram that runs once, unsafe in a callback that may run twice or
 * not at all.
 */
static void gen_call(struct block *b, struct belief *s)
{
	static const enum op_kind kinds[] = { OP_LOOP, OP_EACH, OP_CALL };
	struct op op = { .kind = kinds[pick(3)], .body = block_new() };
	struct belief c;
	int v, t = -1;

	memset(&c, 0, sizeof(c));
	c.lock = -1;
	c.in_sub = true;
	c.nest = s->nest + 1;
	c.depth = s->depth;
	for (v = T0; v <= T1; v++) {
		c.kind[v] = s->kind[v];
		c.maybe_null[v] = s->maybe_null[v];
		c.owned[v] = s->owned[v];
		c.constructed[v] = s->constructed[v];
		c.box[v] = s->box[v];
		c.tree[v] = s->tree[v];
		c.bctor[v] = s->bctor[v];
		c.off[v] = s->off[v];
		c.caller[v] = true;
		c.frozen[v] = s->kind[v] == B_OBJ;
		if (s->kind[v] == B_OBJ && s->owned[v] && !s->maybe_null[v] && !s->frozen[v])
			t = v;
	}
	if (op.kind == OP_EACH) {
		c.kind[M0] = B_MAP;
		c.maybe_null[M0] = false;
	}
	if (t >= 0 && chance(op.kind == OP_CALL ? 30 : 15)) {
		/* the caller goes on as if the change happened once: right for a
		 * subprogram; for a callback, what a verifier that walks it once
		 * would believe
		 */
		bool once = op.kind == OP_CALL || chance(50);
		int what = pick(3);

		if (what == 0) {
			struct belief tmp = *s;

			free_obj(op.body, &tmp, t, false);
			if (once)
				s->kind[t] = B_NONE;
		} else if (what == 1 && !s->constructed[t] && !s->off[t] && !s->box[t] &&
			   !s->tree[t]) {
			emit(op.body, OP_NODE_INIT, t, 0, 0);
			if (once)
				s->constructed[t] = true;
		} else {
			struct op ld = { .kind = OP_LOAD, .a = t, .off = -s->off[t], .size = 8 };

			block_push(op.body, ld);
		}
		c.kind[t] = B_NONE;
	}
	gen_block(op.body, &c, 1 + pick(6));
	cleanup(op.body, &c, -1);
	emit(op.body, OP_EXIT, 0, 0, 0);
	block_push(b, op);
}

/* One operation chosen from what the belief allows (mostly). */
static void gen_op(struct block *b, struct belief *s)
{
	bool wild = chance(wild_rate);
	int r = pick(100), v, w;
	struct op op = { 0 };

	if (wild) {
		/* any operation on any variables: the model sorts it out */
		op.kind = pick(OP_IF);
		op.a = pick(NR_VARS);
		op.b = pick(NR_VARS);
		op.c = pick(op.kind == OP_ALLOC ? 3 : 2);
		op.off = (int)pick(56) - 8;
		op.size = 1 << pick(4);
		if (op.kind == OP_NULLCHK) {
			op.body = block_new();
			emit(op.body, OP_EXIT, 0, 0, 0);
		}
		if (op.kind == OP_LOOKUP) {
			op.b = pick_key();
			if (key_is_inner(op.b)) {
				op.body = block_new();
				emit(op.body, OP_EXIT, 0, 0, 0);
			}
		}
		if (op.kind == OP_EXIT)
			op.kind = OP_LOAD;
		block_push(b, op);
		/* the belief no longer says much: forget what this touched */
		if (op.kind == OP_LOOKUP || op.kind == OP_ALLOC || op.kind == OP_POP ||
		    op.kind == OP_MOVE || op.kind == OP_XCHG || op.kind == OP_RB_FIRST ||
		    op.kind == OP_RB_REMOVE) {
			bool node = op.kind == OP_POP || op.kind == OP_RB_FIRST ||
				    op.kind == OP_RB_REMOVE;

			s->kind[op.a] = op.kind == OP_LOOKUP ? B_MAP : B_OBJ;
			s->maybe_null[op.a] = true;
			s->owned[op.a] = op.kind != OP_RB_FIRST;
			s->constructed[op.a] = node || op.kind == OP_XCHG ||
					       (op.kind == OP_ALLOC && op.c == 2);
			s->off[op.a] = node ? ELEM_NODE_OFF : 0;
			s->box[op.a] = op.kind == OP_ALLOC && op.c == 1;
			s->tree[op.a] = op.kind == OP_RB_FIRST || op.kind == OP_RB_REMOVE ||
					(op.kind == OP_ALLOC && op.c == 2);
			s->bctor[op.a] = 0;
		}
		return;
	}

	if (s->lock >= 0) {
		/* in a critical section: list operations, accesses, unlock */
		int m = s->lock;

		bool map_lock = !(s->kind[m] == B_OBJ && s->box[m]);

		if (r < 30 && (v = var_of(s, B_OBJ, true)) >= 0 && s->owned[v] &&
		    s->constructed[v] && !s->off[v] && !s->box[v]) {
			w = chance(85) ? m : var_of(s, B_MAP, true);
			/* a telem into the tree, an elem onto the list (mostly) */
			if (s->tree[v] != chance(3) && map_lock)
				emit_off(b, OP_RB_ADD, v, w, 0, MVAL_ROOT_OFF);
			else
				emit_off(b, OP_ADD, v, w, pick(2), head_off(s, w));
			s->owned[v] = false;
		} else if (r < 40 && map_lock && (v = var_of(s, B_OBJ, true)) >= 0 &&
			   !s->owned[v] && s->tree[v] && s->off[v] == TELEM_RB_OFF) {
			/* a node bpf_rbtree_first() found: take it out */
			w = chance(90) ? m : var_of(s, B_MAP, true);
			emit_off(b, OP_RB_REMOVE, v, w, 0, MVAL_ROOT_OFF);
			s->owned[v] = true;
			s->maybe_null[v] = true;
			if (chance(90))
				nullchk(b, s, v);
		} else if (r < 50 && map_lock && chance(50) && (v = free_var(s, true)) >= 0) {
			w = chance(90) ? m : var_of(s, B_MAP, true);
			emit_off(b, OP_RB_FIRST, v, w, 0, MVAL_ROOT_OFF);
			found_obj(b, s, v, true, false, ELEM_NODE_OFF);
		} else if (r < 55 && (v = free_var(s, true)) >= 0) {
			w = chance(85) ? m : var_of(s, B_MAP, true);
			emit_off(b, OP_POP, v, w, pick(2), head_off(s, w));
			found_obj(b, s, v, false, true, ELEM_NODE_OFF);
		} else if (r < 70 && (v = var_of(s, B_OBJ, true)) >= 0) {
			op.kind = chance(50) ? OP_LOAD : OP_STORE;
			op.a = v;
			op.off = chance(90) ? -s->off[v] : (int)pick(32) - s->off[v];
			op.size = 8;
			block_push(b, op);
		} else if (r < 80 && (v = var_of(s, B_OBJ, true)) >= 0 && s->off[v]) {
			emit(b, OP_CONTAINER, v, 0, 0);
			s->off[v] = 0;
		} else {
			unlock(b, s);
		}
		return;
	}

	if (r < 15 && (v = free_var(s, false)) >= 0) {
		struct op op = { .kind = OP_LOOKUP, .a = v, .b = pick_key() };
		int key = op.b;

		if (key_is_inner(key)) {
			/* if (!inner_map) { cleanup; exit } */
			struct belief t = *s;

			op.body = block_new();
			if (!wild_rate || !chance(2))
				cleanup(op.body, &t, -1);
			emit(op.body, OP_EXIT, 0, 0, 0);
		}
		block_push(b, op);
		s->kind[v] = B_MAP;
		s->maybe_null[v] = key != KEY_GLOBAL;
		if (s->maybe_null[v] ? chance(95) : chance(10))
			nullchk(b, s, v);
	} else if (r < 30 && (v = free_var(s, true)) >= 0) {
		s->box[v] = chance(30);
		s->tree[v] = !s->box[v] && chance(35);
		s->bctor[v] = 0;
		emit(b, OP_ALLOC, v, 0, s->tree[v] ? 2 : s->box[v]);
		s->kind[v] = B_OBJ;
		s->maybe_null[v] = true;
		s->owned[v] = true;
		/* bpf_obj_new() hands out a telem ready for a tree */
		s->constructed[v] = s->tree[v];
		s->off[v] = 0;
		if (chance(95))
			nullchk(b, s, v);
		if (s->box[v] && !s->maybe_null[v] && chance(70)) {
			/* most boxes are built whole at once */
			emit(b, OP_LOCK_INIT, v, 0, 0);
			emit(b, OP_HEAD_INIT, v, 0, 0);
			s->bctor[v] = 2;
		}
	} else if (r < 40 && (v = var_of(s, B_OBJ, true)) >= 0 && s->owned[v] &&
		   s->box[v] && s->bctor[v] < 2 && !s->off[v]) {
		/* a box's constructors: lock, then head (now and then the wrong one) */
		bool head = (s->bctor[v] == 1) != chance(3);

		emit(b, head ? OP_HEAD_INIT : OP_LOCK_INIT, v, 0, 0);
		s->bctor[v]++;
	} else if (r < 40 && (v = var_of(s, B_OBJ, true)) >= 0 && s->owned[v] &&
		   !s->constructed[v] && !s->off[v] && !s->box[v] && !s->tree[v]) {
		emit(b, OP_NODE_INIT, v, 0, 0);
		s->constructed[v] = true;
	} else if (r < 48 && (v = var_of(s, B_OBJ, true)) >= 0 && s->owned[v] &&
		   s->box[v] && s->bctor[v] == 2 && !s->off[v]) {
		emit_off(b, OP_LOCK, v, 0, 0, BOX_LOCK_OFF);
		s->lock = v;
	} else if (r < 55 && (v = var_of(s, B_MAP, true)) >= 0) {
		emit_off(b, OP_LOCK, v, 0, 0, MVAL_LOCK_OFF);
		s->lock = v;
	} else if (r < 63 && (v = var_of(s, B_OBJ, true)) >= 0 && s->owned[v]) {
		free_obj(b, s, v, true);
	} else if (r < 72 && (v = var_of(s, B_OBJ, true)) >= 0) {
		op.kind = pick(4) ? (chance(50) ? OP_LOAD : OP_STORE) : OP_STORE_PTR;
		op.a = v;
		op.b = pick(NR_VARS);
		op.off = chance(85) ? -s->off[v] : (int)pick(48) - 8 - s->off[v];
		op.size = op.kind == OP_STORE_PTR ? 8 : 1 << pick(4);
		block_push(b, op);
	} else if (r < 82 && (w = pick(NR_VARS)) >= 0 && s->kind[w] != B_NONE && !s->frozen[w] &&
		   (v = (w == M0 || w == M1 || w == O0 || w == O1) ? T0 + pick(2) :
			(s->kind[w] == B_MAP ? M0 + pick(2) : O0 + pick(2))) != w &&
		   !(s->kind[v] == B_OBJ && s->owned[v]) && s->lock != v && !s->frozen[v] &&
		   !s->caller[v]) {
		/* spill to / fill from the stack */
		emit(b, OP_MOVE, v, w, 0);
		copy_var(s, v, s, w);
		/* two names, one object: the old name is given up */
		if (s->kind[w] == B_OBJ)
			s->kind[w] = B_NONE;
	} else if (r >= 82 && r < 86 && (!s->in_sub || (s->nest < MAX_NEST && chance(40)))) {
		gen_call(b, s);
	} else if (r >= 86 && r < 89 && (w = var_of(s, B_MAP, true)) >= 0 &&
		   (((v = var_of(s, B_OBJ, true)) >= 0 && s->owned[v] && !s->box[v] &&
		     !s->tree[v] && s->constructed[v] && !s->off[v] && chance(50)) ||
		    (v = free_var(s, true)) >= 0)) {
		/* an elem into the map's kptr field (or NULL), what was there out */
		bool null = !(s->kind[v] == B_OBJ && s->owned[v]);

		emit(b, OP_XCHG, v, w, null);
		found_obj(b, s, v, false, true, 0);
	} else if (r < 92 && s->depth < 2) {
		struct op op2 = { .kind = OP_IF, .c = pick(8), .body = block_new(),
				  .body2 = block_new() };
		struct belief a = *s, bb = *s;
		int m0 = var_of(s, B_MAP, true), m1 = var_of(s, B_MAP, true);

		a.depth++;
		bb.depth++;
		if (m0 >= 0 && m1 >= 0 && m0 != m1 && chance(60) && s->lock != T0 &&
		    !s->caller[T0]) {
			/* the two arms alias different map values */
			emit(op2.body, OP_MOVE, T0, m0, 0);
			emit(op2.body2, OP_MOVE, T0, m1, 0);
			a.kind[T0] = bb.kind[T0] = B_MAP;
			a.maybe_null[T0] = bb.maybe_null[T0] = false;
		} else {
			gen_arm(op2.body, s, &a);
			gen_arm(op2.body2, s, &bb);
			a = *s;
			a.depth++;
		}
		block_push(b, op2);
		*s = a;		/* continue with the first arm's view */
		s->depth--;
	} else if ((v = var_of(s, B_MAP, true)) >= 0 && s->lock < 0) {
		emit_off(b, OP_LOCK, v, 0, 0, MVAL_LOCK_OFF);
		s->lock = v;
	}
}

static void gen_block(struct block *b, struct belief *s, int budget)
{
	while (budget-- > 0)
		gen_op(b, s);
}

void gen_prog(struct prog *p, uint64_t seed)
{
	struct belief s;

	memset(&s, 0, sizeof(s));
	s.lock = -1;
	rng = seed;
	p->seed = seed;
	wild_rate = (int[]){ 0, 0, 0, 1, 3 }[pick(5)];
	home_map = chance(70) ? 0 : KEY_INNER;
	p->main = block_new();
	gen_block(p->main, &s, 4 + pick(20));
	if (!chance(3))
		cleanup(p->main, &s, -1);
	emit(p->main, OP_EXIT, 0, 0, 0);
	p->kind = (enum prog_kind[]){ PT_TC, PT_TC, PT_TC_ACTION, PT_XDP }[pick(4)];
}
