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
	bool constructed;	/* elem: its node; box: its lock */
	bool box;
	int head;		/* box: 0 not constructed, 1 constructed, 2 destructed */
	bool tree;		/* a telem (bpf_rb_node), not an elem */
};

#define BOX_LOCK_KEY(id)	(1000 + (id))	/* lock_key of a box's lock */

struct inst {		/* the result of one lookup */
	int key;
	bool maybe_null;
	bool null;
};

struct frame {
	const struct block *b;
	int i;
};

/* A subprogram running: the caller's registers, the runs still to come */
struct cframe {
	const struct op *op;
	int base;		/* frames below the body's */
	int runs_left;
	struct val saved[T0];
};

struct state {
	struct val var[NR_VARS];
	struct obj obj[MAX_OBJS];
	struct inst inst[MAX_INST];
	int nobj, ninst;
	int lock_key;		/* -1: no lock held */
	struct frame fr[MAX_FRAMES];
	int nfr;
	struct cframe cf[MAX_NEST];	/* the subprograms running, innermost last */
	int ncf;
};

/* The innermost subprogram running; in_sub(): is one running */
#define top_cf(s)	(&(s)->cf[(s)->ncf - 1])
#define in_sub(s)	((s)->ncf > 0)

struct walk {
	bool allow_ptr_leaks;
	int paths;
	bool unsafe;
	const char *too_many;	/* the limit of the model reached */
	char *reason;
	int len;
};

static void verdict(struct walk *w, const char *why, const struct op *op)
{
	static const char *const names[NR_OPS] = {
		"lookup", "nullchk", "alloc", "node_init", "free", "lock", "unlock",
		"list_add", "list_pop", "container_of", "load", "store", "store_ptr",
		"move", "kptr_xchg", "lock_init", "head_init", "head_fini", "rbtree_add",
		"rbtree_first", "rbtree_remove", "if", "exit", "bpf_loop",
		"for_each_map_elem", "call",
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
static const char *check_access(struct state *s, struct val *v, int off, int size, bool load)
{
	struct obj *o = live_obj(s, v);
	struct inst *in = map_inst(s, v);
	int a;

	if (o && o->box) {
		if (o->maybe_null)
			return "object may be NULL";
		if (o->state == O_DEAD)
			return "object used after free or unlock";
		if (o->head == 2)
			return "access to an object being destructed";
		a = v->off + off;
		if (a < 0 || a + size > BOX_SIZE)
			return "access outside the object";
		if (a < BOX_LOCK_OFF + 4 && a + size > BOX_LOCK_OFF)
			return "access to bpf_spin_lock bytes";
		if (a + size > BOX_HEAD_OFF)
			return "access to bpf_list_head bytes";
		return NULL;
	}
	if (o) {
		/* an elem or a telem: a data word, then its node */
		if (o->maybe_null)
			return "object may be NULL";
		if (o->state == O_DEAD)
			return "object used after free or unlock";
		a = v->off + off;
		if (a < 0 || a + size > (o->tree ? TELEM_SIZE : ELEM_SIZE))
			return "access outside the object";
		if (a + size > ELEM_NODE_OFF)
			return o->tree ? "access to bpf_rb_node bytes" :
					 "access to bpf_list_node bytes";
		return NULL;
	}
	if (in) {
		if (in->maybe_null)
			return "map value may be NULL";
		off += v->off;
		if (off < 0 || off + size > MVAL_SIZE)
			return "access outside the map value";
		if (off + size > MVAL_ROOT_OFF)
			return "access to bpf_rb_root bytes";
		if (off + size > MVAL_KPTR_OFF && !(load && off == MVAL_KPTR_OFF && size == 8))
			return "access to a kptr field other than an 8-byte load";
		if (off < MVAL_LOCK_OFF + 4)
			return "access to bpf_spin_lock bytes";
		if (off < MVAL_KPTR_OFF && off + size > MVAL_HEAD_OFF)
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

/*
 * The box or map element that holds a special field at @v + @off (a box
 * has it at @box_off, a map value at @mval_off): the key of its lock, and
 * the box if it is one.  NULL if so, else why not (@what: no such field).
 */
static const char *field_holder(struct state *s, struct val *v, int off, int box_off,
				int mval_off, const char *what, int *key, struct obj **box)
{
	struct inst *in = map_inst(s, v);
	struct obj *o = live_obj(s, v);

	*box = NULL;
	if (o && o->box) {
		if (o->maybe_null)
			return "object may be NULL";
		if (o->state != O_OWNED)
			return "special field of an object not owned";
		if (v->off + off != box_off)
			return what;
		*key = BOX_LOCK_KEY(v->id);
		*box = o;
		return NULL;
	}
	if (!in)
		return what;
	if (in->maybe_null)
		return "map value may be NULL";
	if (v->off + off != mval_off)
		return what;
	*key = in->key;
	return NULL;
}

/* The list head at @v + @off is under the lock held. NULL if so, else why not. */
static const char *head_err(struct state *s, struct val *v, int off)
{
	const char *why;
	struct obj *box;
	int key;

	if (s->lock_key < 0)
		return "list kfunc without the lock held";
	why = field_holder(s, v, off, BOX_HEAD_OFF, MVAL_HEAD_OFF,
			   "list kfunc on no list head", &key, &box);
	if (why)
		return why;
	if (box && box->head != 1)
		return "list head not constructed or destructed";
	if (key != s->lock_key)
		return "list kfunc under the lock of another element or object";
	return NULL;
}

/* The tree root at @v + @off is under the lock held (boxes have none) */
static const char *root_err(struct state *s, struct val *v, int off)
{
	const char *why;
	struct obj *box;
	int key;

	if (s->lock_key < 0)
		return "tree kfunc without the lock held";
	why = field_holder(s, v, off, -1, MVAL_ROOT_OFF, "tree kfunc on no tree root", &key,
			   &box);
	if (why)
		return why;
	if (key != s->lock_key)
		return "tree kfunc under the lock of another element or object";
	return NULL;
}

/* The key of the lock at @v + @off, or why there is none */
static const char *lock_of(struct state *s, struct val *v, int off, int *key)
{
	const char *why;
	struct obj *box;

	why = field_holder(s, v, off, BOX_LOCK_OFF, MVAL_LOCK_OFF, "no bpf_spin_lock there",
			   key, &box);
	if (why)
		return why;
	if (box && !box->constructed)
		return "bpf_spin_lock not constructed";
	if (box && box->head == 2)
		return "bpf_spin_lock of an object being destructed";
	return NULL;
}

/* A box constructor or destructor: an owned box at offset 0, no lock held */
static const char *box_err(struct state *s, struct val *v, const char *what)
{
	const char *why;

	if (s->lock_key >= 0)
		return "kfunc other than a list kfunc in a critical section";
	if ((why = owned_obj_err(s, v, what)))
		return why;
	if (!live_obj(s, v)->box)
		return what;
	return NULL;
}

/* One run of the subprogram: fresh registers, its body on the frames */
static void start_run(struct walk *w, struct state *s)
{
	int v;

	for (v = O0; v < T0; v++)
		s->var[v] = (struct val){ V_ZERO };
	if (top_cf(s)->op->kind == OP_EACH) {
		/* some element, which one is not known: an identity of its own */
		if (s->ninst == MAX_INST) {
			w->too_many = "map values";
			return;
		}
		s->inst[s->ninst] = (struct inst){ .key = 100 + s->ninst };
		s->var[M0] = (struct val){ V_MAP, s->ninst++, 0 };
	}
	s->fr[s->nfr].b = top_cf(s)->op->body;
	s->fr[s->nfr++].i = 0;
}

static void enter_sub(struct walk *w, struct state *s, const struct op *op, int runs)
{
	struct cframe *cf = &s->cf[s->ncf++];

	cf->op = op;
	cf->base = s->nfr;
	cf->runs_left = runs - 1;
	memcpy(cf->saved, s->var, sizeof(cf->saved));
	start_run(w, s);
}

/* The subprogram returned: run it again or give the caller its registers */
static const char *leave_sub(struct walk *w, struct state *s)
{
	struct cframe *cf = top_cf(s);

	if (s->lock_key >= 0)
		return "subprogram returns with a bpf_spin_lock held";
	s->nfr = cf->base;
	if (cf->runs_left > 0) {
		cf->runs_left--;
		start_run(w, s);
		return NULL;
	}
	memcpy(s->var, cf->saved, sizeof(cf->saved));
	s->ncf--;
	return NULL;
}

/* @a = a new owned object that may be NULL; false if the model is full */
static bool new_obj(struct walk *w, struct state *s, struct val *a, bool box, bool whole,
		    int off)
{
	if (s->nobj == MAX_OBJS) {
		w->too_many = "objects";
		return false;
	}
	s->obj[s->nobj] = (struct obj){ O_OWNED, true, whole, box, 0, false };
	*a = (struct val){ V_OBJ, s->nobj++, off };
	return true;
}

/* @a = a new telem, owned or not, that may be NULL, at @off */
static bool new_telem(struct walk *w, struct state *s, struct val *a, enum ostate state, int off)
{
	if (!new_obj(w, s, a, false, true, off))
		return false;
	s->obj[a->id].state = state;
	s->obj[a->id].tree = true;
	return true;
}

static bool released(struct state *s, int v)
{
	struct obj *o = v >= 0 && v < NR_VARS ? live_obj(s, &s->var[v]) : NULL;

	return o && o->state == O_DEAD;
}

static const char *dead_read(struct state *s, const struct op *op)
{
	static const char *const why = "read of a released pointer without CAP_PERFMON";

	switch (op->kind) {
	case OP_LOOKUP:
	case OP_ALLOC:
	case OP_IF:
	case OP_EXIT:
	case OP_LOOP:
	case OP_EACH:
	case OP_CALL:
	case NR_OPS:
		return NULL;
	case OP_POP:
		return released(s, op->b) ? why : NULL;
	case OP_XCHG:
		return released(s, op->b) || (!op->c && released(s, op->a)) ? why : NULL;
	case OP_MOVE:
		return released(s, op->b) ? why : NULL;
	case OP_RB_FIRST:
		return released(s, op->b) ? why : NULL;
	case OP_ADD:
	case OP_STORE_PTR:
	case OP_RB_ADD:
	case OP_RB_REMOVE:
		return released(s, op->a) || released(s, op->b) ? why : NULL;
	default:
		return released(s, op->a) ? why : NULL;
	}
}

/* Without CAP_PERFMON, 6.1 refuses pointer arithmetic that leaves a map
 * value pointer on a special field or outside the value (&v->head too)
 */
static const char *map_arith(struct walk *w, struct state *s, int v, int add)
{
	int off;

	if (w->allow_ptr_leaks || !map_inst(s, &s->var[v]))
		return NULL;
	off = s->var[v].off + add;
	if (!add || (off >= MVAL_LOCK_OFF + 4 && off < MVAL_HEAD_OFF))
		return NULL;
	return "map value pointer arithmetic onto a special field without CAP_PERFMON";
}

/* Walk @c on into @body, a block that leaves; false at the frame limit */
static bool fork_into(struct walk *w, struct state *c, const struct block *body)
{
	if (c->nfr == MAX_FRAMES) {
		w->too_many = "frames";
		return false;
	}
	c->fr[c->nfr].b = body;
	c->fr[c->nfr++].i = 0;
	fork_walk(w, c);
	return true;
}

static void step(struct walk *w, struct state *s, const struct op *op)
{
	struct val *a = &s->var[op->a], *b = &s->var[op->b < NR_VARS ? op->b : 0];
	struct obj *o;
	struct inst *in = NULL;
	const char *why = NULL;
	int i;

	/*
	 * 6.1 makes every copy of a released pointer (freed, or non-owning
	 * after unlock) uninitialised without CAP_PERFMON: reading it is an error
	 */
	if (!w->allow_ptr_leaks && (why = dead_read(s, op))) {
		verdict(w, why, op);
		return;
	}
	switch (op->kind) {
	case OP_LOOKUP:
		if (s->lock_key >= 0) {
			why = "helper call in a critical section";
			break;
		}
		if (s->ninst == MAX_INST) {
			w->too_many = "map values";
			return;
		}
		if (op->body) {
			/* no inner map: the body, which leaves */
			struct state c = *s;

			if (!fork_into(w, &c, op->body))
				return;
		}
		in = &s->inst[s->ninst];
		in->key = op->b;
		/* the address of a global is never NULL */
		in->maybe_null = op->b != KEY_GLOBAL;
		in->null = false;
		a->kind = V_MAP;
		a->id = s->ninst++;
		a->off = 0;
		break;
	case OP_NULLCHK:
		/* a released pointer reads as some number */
		if ((o = live_obj(s, a)) && o->state == O_DEAD)
			a->kind = V_SCALAR;
		o = NULL;
		if (((o = live_obj(s, a)) && o->maybe_null) ||
		    ((in = map_inst(s, a)) && in->maybe_null)) {
			struct state c = *s;

			/* NULL: the object never existed, the lookup found nothing */
			if (o)
				c.obj[a->id].state = O_GONE;
			else
				c.inst[a->id].null = true;
			c.var[op->a].kind = V_ZERO;
			if (!fork_into(w, &c, op->body))
				return;
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
		if (op->c == 2) {
			/* bpf_obj_new(): zeroed, its node ready for a tree */
			if (!new_telem(w, s, a, O_OWNED, 0))
				return;
			break;
		}
		if (!new_obj(w, s, a, op->c != 0, false, 0))
			return;
		break;
	case OP_NODE_INIT:
		if (s->lock_key >= 0)
			why = "kfunc other than a list kfunc in a critical section";
		else if (!(why = owned_obj_err(s, a, "constructor on a non-object"))) {
			o = live_obj(s, a);
			if (o->box || o->tree)
				why = "bpf_list_node_init on no list node";
			else if (o->constructed)
				why = "bpf_list_node constructed twice";
			o->constructed = true;
		}
		break;
	case OP_FREE:
		if (s->lock_key >= 0)
			why = "kfunc other than a list kfunc in a critical section";
		else if (!(why = owned_obj_err(s, a, "free of a non-object"))) {
			o = live_obj(s, a);
			if (o->box && o->head == 1)
				why = "free of a box whose bpf_list_head is not destructed";
			o->state = O_DEAD;
		}
		break;
	case OP_LOCK:
		if (s->lock_key >= 0)
			why = "second bpf_spin_lock";
		else if (!(why = map_arith(w, s, op->a, op->off)) &&
			 !(why = lock_of(s, a, op->off, &i)))
			s->lock_key = i;
		break;
	case OP_UNLOCK:
		if (s->lock_key < 0)
			why = "bpf_spin_unlock without a lock held";
		else if (!(why = map_arith(w, s, op->a, op->off)) &&
			 !(why = lock_of(s, a, op->off, &i))) {
			if (i != s->lock_key) {
				why = "bpf_spin_unlock of a lock not held";
				break;
			}
			s->lock_key = -1;
			for (i = 0; i < s->nobj; i++)
				if (s->obj[i].state == O_NONOWN)
					s->obj[i].state = O_DEAD;
		}
		break;
	case OP_XCHG:
		/* a helper: moves an owned whole elem into the map, returns what was there */
		if (s->lock_key >= 0) {
			why = "helper call in a critical section";
			break;
		}
		if ((why = map_arith(w, s, op->b, MVAL_KPTR_OFF)))
			break;
		if (!(in = map_inst(s, b)) || in->maybe_null || b->off) {
			why = "bpf_kptr_xchg on no kptr field";
			break;
		}
		if (!op->c && a->kind != V_ZERO) {
			if ((why = owned_obj_err(s, a, "bpf_kptr_xchg of no object")))
				break;
			o = live_obj(s, a);
			if (o->box || o->tree || !o->constructed) {
				why = "bpf_kptr_xchg of an object that is not a whole elem";
				break;
			}
			o->state = O_DEAD;	/* the map has it */
		}
		if (!new_obj(w, s, a, false, true, 0))
			return;
		break;
	case OP_LOCK_INIT:
		if (!(why = box_err(s, a, "bpf_spin_lock_init on no lock"))) {
			o = live_obj(s, a);
			if (o->head == 2)
				why = "constructor on an object being destructed";
			else if (o->constructed)
				why = "bpf_spin_lock constructed twice";
			o->constructed = true;
		}
		break;
	case OP_HEAD_INIT:
		if (!(why = box_err(s, a, "bpf_list_head_init on no list head"))) {
			o = live_obj(s, a);
			if (o->head)
				why = "bpf_list_head constructed twice or after destruction";
			else if (!o->constructed)
				why = "bpf_list_head constructed before the lock below it";
			o->head = 1;
		}
		break;
	case OP_HEAD_FINI:
		if (!(why = box_err(s, a, "bpf_list_head_fini on no list head"))) {
			o = live_obj(s, a);
			if (o->head != 1)
				why = "bpf_list_head destructed but not constructed, or twice";
			o->head = 2;
		}
		break;
	case OP_ADD:
		if ((why = map_arith(w, s, op->b, op->off)) || (why = head_err(s, b, op->off)) ||
		    (why = owned_obj_err(s, a, "list node not in an object")))
			break;
		o = live_obj(s, a);
		if (o->box || o->tree) {
			why = "list node not in an object";
			break;
		}
		if (!o->constructed)
			why = "adding an object whose node is not constructed";
		o->state = O_NONOWN;
		break;
	case OP_POP:
		if ((why = map_arith(w, s, op->b, op->off)) || (why = head_err(s, b, op->off)))
			break;
		if (!new_obj(w, s, a, false, true, ELEM_NODE_OFF))
			return;
		break;
	case OP_RB_ADD:
		if ((why = map_arith(w, s, op->b, op->off)) || (why = root_err(s, b, op->off)) ||
		    (why = owned_obj_err(s, a, "tree node not in an object")))
			break;
		o = live_obj(s, a);
		if (!o->tree) {
			why = "tree node not in a telem";
			break;
		}
		o->state = O_NONOWN;
		break;
	case OP_RB_FIRST:
		if ((why = map_arith(w, s, op->b, op->off)) || (why = root_err(s, b, op->off)))
			break;
		if (!new_telem(w, s, a, O_NONOWN, TELEM_RB_OFF))
			return;
		break;
	case OP_RB_REMOVE:
		if ((why = map_arith(w, s, op->b, op->off)) || (why = root_err(s, b, op->off)))
			break;
		o = live_obj(s, a);
		if (!o || !o->tree)
			why = "bpf_rbtree_remove of no tree node";
		else if (o->maybe_null)
			why = "object may be NULL";
		else if (o->state != O_NONOWN)
			why = "bpf_rbtree_remove of a node not known to be in a tree";
		else if (a->off != TELEM_RB_OFF)
			why = "tree node pointer at a wrong offset";
		if (why)
			break;
		/* this node or, if another tree holds it, NULL */
		if (!new_telem(w, s, a, O_OWNED, TELEM_RB_OFF))
			return;
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
			else if (!(why = map_arith(w, s, op->a, -ELEM_NODE_OFF)))
				a->off -= ELEM_NODE_OFF;
		} else {
			a->kind = V_SCALAR;
		}
		break;
	case OP_LOAD:
	case OP_STORE:
		why = check_access(s, a, op->off, op->size, op->kind == OP_LOAD);
		break;
	case OP_STORE_PTR:
		why = check_access(s, a, op->off, 8, false);
		if (!why && is_ptr(s, b) && !w->allow_ptr_leaks)
			why = "pointer stored into an object without CAP_PERFMON";
		break;
	case OP_MOVE:
		*a = *b;
		break;
	case OP_IF: {
		struct state c = *s;

		if (s->nfr == MAX_FRAMES) {
			w->too_many = "frames";
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
		if (in_sub(s)) {
			why = leave_sub(w, s);
			break;
		}
		why = check_exit(s);
		s->nfr = 0;
		break;
	case OP_LOOP:
	case OP_EACH:
	case OP_CALL:
		if (s->ncf == MAX_NEST || s->nfr + 2 >= MAX_FRAMES) {	/* never generated */
			w->too_many = "call depth";
			return;
		}
		if (s->lock_key >= 0) {
			why = "call in a critical section";
			break;
		}
		if (op->kind == OP_CALL) {
			enter_sub(w, s, op, 1);
			break;
		}
		/* a callback runs zero, one or more times */
		for (i = 0; i < 2; i++) {
			struct state c = *s;

			if (i)
				enter_sub(w, &c, op, 1);
			fork_walk(w, &c);
		}
		enter_sub(w, s, op, 2);
		break;
	case NR_OPS:	/* removed by the minimiser */
		break;
	default:
		why = "unknown operation";
	}
	if (why)
		verdict(w, why, op);
}

/*
 * States already walked from, by a 64-bit hash of everything the future
 * of a path depends on.  Arms that leave the same state behind meet again
 * here, so a path is not walked twice: the same verdicts, fewer paths.
 */
#define SEEN_BITS	18
static struct { uint64_t hash; unsigned int gen; } seen[1 << SEEN_BITS];
static unsigned int seen_gen;

static uint64_t mix(uint64_t h, uint64_t x)
{
	h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdULL;
}

/*
 * The hash names objects and lookups by where the variables first point
 * to them, not by when they were made, and keeps of the others only
 * whether one is owned (a leak to come): two arms that allocated and freed
 * different numbers of objects still meet.
 */
struct canon {
	int obj[MAX_OBJS], inst[MAX_INST], key[MAX_INST + 100];
	int nobj, ninst, nkey;
};

static int canon_key(struct canon *c, int key)
{
	if (key < 100)
		return key;
	if (!c->key[key])
		c->key[key] = 100 + ++c->nkey;
	return c->key[key];
}

static uint64_t val_hash(const struct state *s, struct canon *c, uint64_t h, const struct val *v)
{
	const struct obj *o;
	const struct inst *in;

	h = mix(h, v->kind | (uint64_t)(uint32_t)v->off << 32);
	if (v->kind == V_OBJ) {
		if (!c->obj[v->id]) {
			c->obj[v->id] = ++c->nobj;
			o = &s->obj[v->id];
			h = mix(h, o->state | o->maybe_null << 4 | o->constructed << 5 |
				o->box << 6 | o->head << 7 | o->tree << 9);
		}
		h = mix(h, c->obj[v->id]);
	} else if (v->kind == V_MAP) {
		if (!c->inst[v->id]) {
			c->inst[v->id] = ++c->ninst;
			in = &s->inst[v->id];
			h = mix(h, canon_key(c, in->key) | (uint64_t)in->maybe_null << 32 |
				(uint64_t)in->null << 33);
		}
		h = mix(h, c->inst[v->id]);
	}
	return h;
}

static uint64_t state_hash(const struct state *s)
{
	static struct canon c;
	uint64_t h = 1;
	bool leak = false;
	int i, n;

	memset(&c, 0, sizeof(c));
	for (i = 0; i < NR_VARS; i++)
		h = val_hash(s, &c, h, &s->var[i]);
	for (n = 0; n < s->ncf; n++) {
		for (i = O0; i < T0; i++)
			h = val_hash(s, &c, h, &s->cf[n].saved[i]);
		h = mix(h, (uintptr_t)s->cf[n].op ^ (uint64_t)s->cf[n].base << 48 ^
			(uint64_t)s->cf[n].runs_left << 56);
	}
	for (i = 0; i < s->nobj; i++)
		if (!c.obj[i] && s->obj[i].state == O_OWNED)
			leak = true;
	h = mix(h, (s->lock_key < 0 ? 0 : s->lock_key >= 1000 ?
		    (c.obj[s->lock_key - 1000] ? 5000 + c.obj[s->lock_key - 1000] : 9999) :
		    canon_key(&c, s->lock_key) + 1) | (uint64_t)leak << 16 |
		(uint64_t)s->ncf << 24);
	for (i = 0; i < s->nfr; i++)
		h = mix(h, (uintptr_t)s->fr[i].b ^ (uint64_t)s->fr[i].i << 48);
	return h;
}

/* true if this state was walked from before; else remember it */
static bool seen_before(const struct state *s)
{
	uint64_t h = state_hash(s);
	unsigned int i = h & ((1 << SEEN_BITS) - 1), n;

	for (n = 0; n < 8; n++, i = (i + 1) & ((1 << SEEN_BITS) - 1)) {
		if (seen[i].gen != seen_gen) {
			seen[i].gen = seen_gen;
			seen[i].hash = h;
			return false;
		}
		if (seen[i].hash == h)
			return true;
	}
	return false;	/* table crowded here: walk it again */
}

static void walk(struct walk *w, struct state *s)
{
	if (++w->paths > MAX_PATHS) {
		w->too_many = "paths";
		return;
	}
	while (s->nfr > 0 && !w->unsafe && !w->too_many) {
		struct frame *f = &s->fr[s->nfr - 1];

		if (f->i < f->b->n && f->b->ops[f->i].kind >= OP_IF &&
		    f->b->ops[f->i].kind != OP_EXIT && seen_before(s))
			return;

		if (f->i == f->b->n) {
			s->nfr--;
			if (!s->nfr)
				verdict(w, "falls off the end of the program", NULL);
			else if (in_sub(s) && s->nfr == top_cf(s)->base)
				verdict(w, "falls off the end of a subprogram", NULL);
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
	if (!++seen_gen) {
		memset(seen, 0, sizeof(seen));
		seen_gen = 1;
	}
	s.lock_key = -1;
	s.fr[0].b = p->main;
	s.nfr = 1;
	reason[0] = 0;
	walk(&w, &s);
	if (w.too_many && !w.unsafe) {
		snprintf(reason, len, "beyond the model: too many %s", w.too_many);
		return -1;
	}
	return w.unsafe ? 1 : 0;
}
