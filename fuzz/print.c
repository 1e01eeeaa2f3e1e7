// SPDX-License-Identifier: GPL-2.0
/* Readable form of a generated program, for reproducers and debugging. */
#include "ir.h"

static const char *const var_names[NR_VARS] = { "o0", "o1", "m0", "m1", "t0", "t1" };

static const char *vn(int v)
{
	return v >= 0 && v < NR_VARS ? var_names[v] : "?";
}

static void print_block(const struct block *b, FILE *f, int ind)
{
	int i;

	for (i = 0; i < b->n; i++) {
		const struct op *op = &b->ops[i];

		if (op->kind == NR_OPS)	/* removed by the minimiser */
			continue;
		fprintf(f, "%*s", ind * 2, "");
		switch (op->kind) {
		case OP_LOOKUP:
			if (op->b == KEY_GLOBAL)
				fprintf(f, "%s = &global\n", vn(op->a));
			else if (op->b >= KEY_INNER) {
				fprintf(f, "if (!(inner = map_lookup(&outer, 0))) {\n");
				if (op->body)
					print_block(op->body, f, ind + 1);
				fprintf(f, "%*s}\n%*s%s = map_lookup(inner, key %d)\n", ind * 2, "",
					ind * 2, "", vn(op->a), op->b - KEY_INNER);
			}
			else
				fprintf(f, "%s = map_lookup(key %d)\n", vn(op->a), op->b);
			break;
		case OP_NULLCHK:
			fprintf(f, "if (!%s) {\n", vn(op->a));
			print_block(op->body, f, ind + 1);
			fprintf(f, "%*s}\n", ind * 2, "");
			break;
		case OP_ALLOC:
			if (op->c == 2)
				fprintf(f, "%s = bpf_obj_new(struct telem)\n", vn(op->a));
			else
				fprintf(f, "%s = bpf_kptr_alloc(struct %s)\n", vn(op->a),
					op->c ? "box" : "elem");
			break;
		case OP_NODE_INIT:
			fprintf(f, "bpf_list_node_init(&%s->node)\n", vn(op->a));
			break;
		case OP_FREE:
			fprintf(f, "bpf_kptr_free(%s)\n", vn(op->a));
			break;
		case OP_LOCK:
			fprintf(f, "bpf_spin_lock(%s %+d)\n", vn(op->a), op->off);
			break;
		case OP_UNLOCK:
			fprintf(f, "bpf_spin_unlock(%s %+d)\n", vn(op->a), op->off);
			break;
		case OP_ADD:
			fprintf(f, "bpf_list_add%s(&%s->node, %s %+d)\n", op->c ? "_tail" : "",
				vn(op->a), vn(op->b), op->off);
			break;
		case OP_POP:
			fprintf(f, "%s = bpf_list_pop_%s(%s %+d)\n", vn(op->a),
				op->c ? "back" : "front", vn(op->b), op->off);
			break;
		case OP_RB_ADD:
			fprintf(f, "bpf_rbtree_add(%s %+d, &%s->rb, less)\n", vn(op->b), op->off,
				vn(op->a));
			break;
		case OP_RB_FIRST:
			fprintf(f, "%s = bpf_rbtree_first(%s %+d)\n", vn(op->a), vn(op->b), op->off);
			break;
		case OP_RB_REMOVE:
			fprintf(f, "%s = bpf_rbtree_remove(%s %+d, %s)\n", vn(op->a), vn(op->b),
				op->off, vn(op->a));
			break;
		case OP_CONTAINER:
			fprintf(f, "%s = container_of(%s, node at +%d)\n", vn(op->a), vn(op->a),
				ELEM_NODE_OFF);
			break;
		case OP_LOAD:
			fprintf(f, "r0 = *(u%d *)(%s %+d)\n", op->size * 8, vn(op->a), op->off);
			break;
		case OP_STORE:
			fprintf(f, "*(u%d *)(%s %+d) = 42\n", op->size * 8, vn(op->a), op->off);
			break;
		case OP_STORE_PTR:
			fprintf(f, "*(u64 *)(%s %+d) = %s\n", vn(op->a), op->off, vn(op->b));
			break;
		case OP_XCHG:
			fprintf(f, "%s = bpf_kptr_xchg(&%s->kp, %s)\n", vn(op->a), vn(op->b),
				op->c ? "NULL" : vn(op->a));
			break;
		case OP_LOCK_INIT:
			fprintf(f, "bpf_spin_lock_init(&%s->lock)\n", vn(op->a));
			break;
		case OP_HEAD_INIT:
			fprintf(f, "bpf_list_head_init(&%s->head)\n", vn(op->a));
			break;
		case OP_HEAD_FINI:
			fprintf(f, "bpf_list_head_fini(&%s->head)\n", vn(op->a));
			break;
		case OP_MOVE:
			fprintf(f, "%s = %s\n", vn(op->a), vn(op->b));
			break;
		case OP_IF:
			fprintf(f, "if (!(rand & %d)) {\n", 1 << op->c);
			print_block(op->body, f, ind + 1);
			fprintf(f, "%*s} else {\n", ind * 2, "");
			print_block(op->body2, f, ind + 1);
			fprintf(f, "%*s}\n", ind * 2, "");
			break;
		case OP_EXIT:
			fprintf(f, "return 0\n");
			break;
		case OP_LOOP:
		case OP_EACH:
		case OP_CALL:
			fprintf(f, "%s(%s&t1) {\n", op->kind == OP_LOOP ? "bpf_loop(rand % 3, " :
				op->kind == OP_EACH ? "bpf_for_each_map_elem(&map, m0 = elem, " :
				"call(", op->kind == OP_CALL ? "0, " : "");
			print_block(op->body, f, ind + 1);
			fprintf(f, "%*s}\n", ind * 2, "");
			break;
		default:
			fprintf(f, "?\n");
		}
	}
}

void print_prog(const struct prog *p, FILE *f)
{
	fprintf(f, "/* seed %llu, %s; o0 r6, o1 r7, m0 r8, m1 r9, t0 fp-8, t1 fp-16 */\n",
		(unsigned long long)p->seed, prog_kind_names[p->kind]);
	print_block(p->main, f, 0);
}
