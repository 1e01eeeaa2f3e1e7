// SPDX-License-Identifier: GPL-2.0
/*
 * Reference model: walks every path of a program (no pruning, no joins)
 * and decides from the rules of SPEC.md whether it is safe.  It shares no
 * code and no representation with the verifier: it interprets the fuzzer's
 * operations, knows map elements by their key and objects by allocation,
 * and only answers "safe" or "unsafe, because ...".
 */
#include <string.h>
#include "ir.h"

#define MAX_OBJS	64
#define MAX_INST	64
#define MAX_FRAMES	16
#define MAX_PATHS	(1 << 18)

enum vkind { V_ZERO, V_SCALAR, V_MAP, V_OBJ };
enum ostate { O_GONE, O_OWNED, O_NONOWN, O_DEAD };

struct val {
	enum vkind kind;
	int id;		/* V_MAP: lookup instance, V_OBJ: object */
	int off;	/* V_OBJ: offset of the pointer into the object */
};

struct obj {
	enum ostate state;
	bool maybe_null;
	bool constructed;
};

struct inst {		/* the result of one lookup */
	int key;
	bool maybe_null;
	bool null;
};

struct frame {
	const struct block *b;
	int i;
};

struct state {
	struct val var[NR_VARS];
	struct obj obj[MAX_OBJS];
	struct inst inst[MAX_INST];
	int nobj, ninst;
	int lock_key;		/* -1: no lock held */
	struct frame fr[MAX_FRAMES];
	int nfr;
};

struct walk {
	bool allow_ptr_leaks;
	int paths;
	bool unsafe, too_many;
	char *reason;
	int len;
};

static void verdict(struct walk *w, const char *why, const struct op *op)
{
	static const char *const names[NR_OPS] = {
		"lookup", "nullchk", "alloc", "node_init", "free", "lock", "unlock",
		"list_add", "list_pop", "container_of", "load", "store", "store_ptr",
		"move", "if", "exit",
	};

	if (w->unsafe)
		return;
	w->unsafe = true;
	snprintf(w->reason, w->len, "%s: %s", op ? names[op->kind] : "end", why);
}

/* Is v a pointer to a live, non-NULL object?  Normalises NULL objects. */
static struct obj *live_obj(struct state *s, struct val *v)
{
	struct obj *o;

	if (v->kind != V_OBJ)
		return NULL;
	o = &s->obj[v->id];
	if (o->state == O_GONE) {
		v->kind = V_ZERO;
		return NULL;
	}
	return o;
}

static struct inst *map_inst(struct state *s, struct val *v)
{
	struct inst *in;

	if (v->kind != V_MAP)
		return NULL;
	in = &s->inst[v->id];
	if (in->null) {
		v->kind = V_ZERO;
		return NULL;
	}
	return in;
}

static bool is_ptr(struct state *s, struct val *v)
{
	return live_obj(s, v) || map_inst(s, v);
}

static void walk(struct walk *w, struct state *s);

static void fork_walk(struct walk *w, const struct state *s)
{
	struct state c = *s;

	walk(w, &c);
}

/* Field access at @off of @size bytes through @v */
static const char *check_access(struct state *s, struct val *v, int off, int size)
{
	struct obj *o = live_obj(s, v);
	struct inst *in = map_inst(s, v);
	int a;

	if (o) {
		if (o->maybe_null)
			return "object may be NULL";
		if (o->state == O_DEAD)
			return "object used after free or unlock";
		a = v->off + off;
		if (a < 0 || a + size > ELEM_SIZE)
			return "access outside the object";
		if (a + size > ELEM_NODE_OFF)
			return "access to bpf_list_node bytes";
		return NULL;
	}
	if (in) {
		if (in->maybe_null)
			return "map value may be NULL";
		off += v->off;
		if (off < 0 || off + size > MVAL_SIZE)
			return "access outside the map value";
		if (off < MVAL_LOCK_OFF + 4)
			return "access to bpf_spin_lock bytes";
		if (off + size > MVAL_HEAD_OFF)
			return "access to bpf_list_head bytes";
		return NULL;
	}
	return "access through a scalar";
}

/* Objects the program owns and did not give up: leaked at exit */
static const char *check_exit(struct state *s)
{
	int i;

	if (s->lock_key >= 0)
		return "exit with a bpf_spin_lock held";
	for (i = 0; i < s->nobj; i++)
		if (s->obj[i].state == O_OWNED)
			return "owned object not released at exit";
	return NULL;
}

/* An object the program owns, non-NULL, at offset 0: what free, the
 * constructor and list_add need.  NULL if so, else why not.
 */
static const char *owned_obj_err(struct state *s, struct val *v, const char *what)
{
	struct obj *o = live_obj(s, v);

	if (!o)
		return what;
	if (o->maybe_null)
		return "object may be NULL";
	if (o->state != O_OWNED)
		return "object not owned";
	if (v->off)
		return "object pointer at a wrong offset";
	return NULL;
}

/* The list head in @v is under the lock held. NULL if so, else why not. */
static const char *head_err(struct state *s, struct val *v)
{
	struct inst *in = map_inst(s, v);

	if (s->lock_key < 0)
		return "list kfunc without the lock held";
	if (!in)
		return "list head not in a map value";
	if (in->maybe_null)
		return "map value may be NULL";
	if (in->key != s->lock_key || v->off)
		return "list kfunc under the lock of another element";
	return NULL;
}

static void step(struct walk *w, struct state *s, const struct op *op)
{
	struct val *a = &s->var[op->a], *b = &s->var[op->b < NR_VARS ? op->b : 0];
	struct obj *o;
	struct inst *in = NULL;
	const char *why = NULL;
	int i;

	switch (op->kind) {
	case OP_LOOKUP:
		if (s->lock_key >= 0) {
			why = "helper call in a critical section";
			break;
		}
		if (s->ninst == MAX_INST) {
			w->too_many = true;
			return;
		}
		in = &s->inst[s->ninst];
		in->key = op->b;
		in->maybe_null = true;
		in->null = false;
		a->kind = V_MAP;
		a->id = s->ninst++;
		a->off = 0;
		break;
	case OP_NULLCHK:
		if (((o = live_obj(s, a)) && o->maybe_null) ||
		    ((in = map_inst(s, a)) && in->maybe_null)) {
			struct state c = *s;

			/* NULL: the object never existed, the lookup found nothing */
			if (o)
				c.obj[a->id].state = O_GONE;
			else
				c.inst[a->id].null = true;
			c.var[op->a].kind = V_ZERO;
			if (c.nfr == MAX_FRAMES) {
				w->too_many = true;
				return;
			}
			c.fr[c.nfr].b = op->body;
			c.fr[c.nfr++].i = 0;
			fork_walk(w, &c);
			if (o)
				o->maybe_null = false;
			else
				in->maybe_null = false;
		} else if (!is_ptr(s, a)) {
			/* a number: zero takes the exit, anything else both */
			struct state c = *s;

			c.fr[c.nfr].b = op->body;
			c.fr[c.nfr++].i = 0;
			fork_walk(w, &c);
			if (a->kind == V_ZERO)
				s->nfr = 0;	/* this path ended in the body */
		}
		break;
	case OP_ALLOC:
		if (s->lock_key >= 0) {
			why = "kfunc other than a list kfunc in a critical section";
			break;
		}
		if (s->nobj == MAX_OBJS) {
			w->too_many = true;
			return;
		}
		s->obj[s->nobj] = (struct obj){ O_OWNED, true, false };
		a->kind = V_OBJ;
		a->id = s->nobj++;
		a->off = 0;
		break;
	case OP_NODE_INIT:
		if (s->lock_key >= 0)
			why = "kfunc other than a list kfunc in a critical section";
		else if (!(why = owned_obj_err(s, a, "constructor on a non-object"))) {
			o = live_obj(s, a);
			if (o->constructed)
				why = "bpf_list_node constructed twice";
			o->constructed = true;
		}
		break;
	case OP_FREE:
		if (s->lock_key >= 0)
			why = "kfunc other than a list kfunc in a critical section";
		else if (!(why = owned_obj_err(s, a, "free of a non-object")))
			live_obj(s, a)->state = O_DEAD;
		break;
	case OP_LOCK:
		if (s->lock_key >= 0)
			why = "second bpf_spin_lock";
		else if (!(in = map_inst(s, a)))
			why = "bpf_spin_lock on a non-map value";
		else if (in->maybe_null)
			why = "map value may be NULL";
		else if (a->off)
			why = "bpf_spin_lock at a wrong offset";
		else
			s->lock_key = in->key;
		break;
	case OP_UNLOCK:
		if (s->lock_key < 0)
			why = "bpf_spin_unlock without a lock held";
		else if (!(in = map_inst(s, a)))
			why = "bpf_spin_unlock on a non-map value";
		else if (in->maybe_null)
			why = "map value may be NULL";
		else if (in->key != s->lock_key || a->off)
			why = "bpf_spin_unlock of a lock not held";
		else {
			s->lock_key = -1;
			for (i = 0; i < s->nobj; i++)
				if (s->obj[i].state == O_NONOWN)
					s->obj[i].state = O_DEAD;
		}
		break;
	case OP_ADD:
		if ((why = head_err(s, b)) ||
		    (why = owned_obj_err(s, a, "list node not in an object")))
			break;
		o = live_obj(s, a);
		if (!o->constructed)
			why = "adding an object whose node is not constructed";
		o->state = O_NONOWN;
		break;
	case OP_POP:
		if ((why = head_err(s, b)))
			break;
		if (s->nobj == MAX_OBJS) {
			w->too_many = true;
			return;
		}
		s->obj[s->nobj] = (struct obj){ O_OWNED, true, true };
		a->kind = V_OBJ;
		a->id = s->nobj++;
		a->off = ELEM_NODE_OFF;
		break;
	case OP_CONTAINER:
		/* arithmetic only: harmless on numbers and dead pointers */
		if ((o = live_obj(s, a))) {
			if (o->maybe_null)
				why = "pointer arithmetic on a maybe-NULL object";
			else if (o->state == O_DEAD)
				a->kind = V_SCALAR;
			else
				a->off -= ELEM_NODE_OFF;
		} else if ((in = map_inst(s, a))) {
			if (in->maybe_null)
				why = "pointer arithmetic on a maybe-NULL map value";
			else
				a->off -= ELEM_NODE_OFF;
		} else {
			a->kind = V_SCALAR;
		}
		break;
	case OP_LOAD:
	case OP_STORE:
		why = check_access(s, a, op->off, op->size);
		break;
	case OP_STORE_PTR:
		why = check_access(s, a, op->off, 8);
		if (!why && is_ptr(s, b) && !w->allow_ptr_leaks)
			why = "pointer stored into an object without CAP_PERFMON";
		break;
	case OP_MOVE:
		*a = *b;
		break;
	case OP_IF: {
		struct state c = *s;

		if (s->nfr == MAX_FRAMES) {
			w->too_many = true;
			return;
		}
		c.fr[c.nfr].b = op->body2;
		c.fr[c.nfr++].i = 0;
		fork_walk(w, &c);
		s->fr[s->nfr].b = op->body;
		s->fr[s->nfr++].i = 0;
		break;
	}
	case OP_EXIT:
		why = check_exit(s);
		s->nfr = 0;
		break;
	case NR_OPS:	/* removed by the minimiser */
		break;
	default:
		why = "unknown operation";
	}
	if (why)
		verdict(w, why, op);
}

static void walk(struct walk *w, struct state *s)
{
	if (++w->paths > MAX_PATHS) {
		w->too_many = true;
		return;
	}
	while (s->nfr > 0 && !w->unsafe && !w->too_many) {
		struct frame *f = &s->fr[s->nfr - 1];

		if (f->i == f->b->n) {
			s->nfr--;
			if (!s->nfr)
				verdict(w, "falls off the end of the program", NULL);
			continue;
		}
		step(w, s, &f->b->ops[f->i++]);
	}
}

int model_check(const struct prog *p, bool allow_ptr_leaks, char *reason, int len)
{
	static struct state s;
	struct walk w = { .allow_ptr_leaks = allow_ptr_leaks, .reason = reason, .len = len };

	memset(&s, 0, sizeof(s));
	s.lock_key = -1;
	s.fr[0].b = p->main;
	s.nfr = 1;
	reason[0] = 0;
	walk(&w, &s);
	if (w.too_many && !w.unsafe) {
		snprintf(reason, len, "too many paths or objects");
		return -1;
	}
	return w.unsafe ? 1 : 0;
}
