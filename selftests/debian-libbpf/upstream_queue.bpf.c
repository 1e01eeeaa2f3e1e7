// SPDX-License-Identifier: GPL-2.0
/* A BPF program as written for upstream Linux 6.4-7.0, built with Debian's
 * clang and libbpf headers only (no header of the series): a queue of
 * objects in a global list, allocated with bpf_obj_new(), pushed with
 * bpf_list_push_back(), peeked at with bpf_list_front(), taken off with
 * bpf_list_pop_front(), freed with bpf_obj_drop(); objects left in a map
 * value's list and in a __kptr field for the map to free.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

/* What upstream's bpf_experimental.h and bpf_helpers.h declare */
#define __contains(name, node) __attribute__((btf_decl_tag("contains:" #name ":" #node)))
#define private(name) SEC(".bss." #name) __hidden __attribute__((aligned(8)))
#ifndef container_of
#define container_of(ptr, type, member) \
	((type *)((void *)(ptr) - __builtin_offsetof(type, member)))
#endif

extern void *bpf_obj_new_impl(__u64 local_type_id, void *meta) __ksym;
#define bpf_obj_new(type) ((type *)bpf_obj_new_impl(bpf_core_type_id_local(type), NULL))
extern void bpf_obj_drop_impl(void *kptr, void *meta) __ksym;
#define bpf_obj_drop(kptr) bpf_obj_drop_impl(kptr, NULL)
extern int bpf_list_push_back_impl(struct bpf_list_head *head, struct bpf_list_node *node,
				   void *meta, __u64 off) __ksym;
#define bpf_list_push_back(head, node) bpf_list_push_back_impl(head, node, NULL, 0)
extern struct bpf_list_node *bpf_list_pop_front(struct bpf_list_head *head) __ksym;
extern struct bpf_list_node *bpf_list_front(struct bpf_list_head *head) __ksym;

struct job {
	long prio;
	struct bpf_list_node node;
};

private(Q) struct bpf_spin_lock qlock;
private(Q) struct bpf_list_head queue __contains(job, node);

struct map_value {
	struct bpf_spin_lock lock;
	struct bpf_list_head head __contains(job, node);
	struct job __kptr *held;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct map_value);
	__uint(max_entries, 1);
} values SEC(".maps");

enum { R_PUSHED, R_FRONT, R_POPPED, R_ORDER_ERRORS, R_SUM, R_LEFT, R_HELD, R_MAX };

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, long);
	__uint(max_entries, R_MAX);
} results SEC(".maps");

#define N 10

static void set(int key, long val)
{
	bpf_map_update_elem(&results, &key, &val, BPF_ANY);
}

SEC("tc")
int queue_jobs(struct __sk_buff *ctx)
{
	long pushed = 0, popped = 0, errors = 0, sum = 0, front = -1;
	struct bpf_list_node *n;
	struct map_value *v;
	struct job *j;
	int i, key = 0;

	for (i = 0; i < N; i++) {
		j = bpf_obj_new(struct job);
		if (!j)
			return 1;
		j->prio = i;
		bpf_spin_lock(&qlock);
		bpf_list_push_back(&queue, &j->node);
		bpf_spin_unlock(&qlock);
		pushed++;
	}
	bpf_spin_lock(&qlock);
	n = bpf_list_front(&queue);
	if (n)
		front = container_of(n, struct job, node)->prio;
	bpf_spin_unlock(&qlock);
	for (i = 0; i < N + 1; i++) {
		bpf_spin_lock(&qlock);
		n = bpf_list_pop_front(&queue);
		bpf_spin_unlock(&qlock);
		if (!n)
			break;
		j = container_of(n, struct job, node);
		if (j->prio != i)
			errors++;
		sum += j->prio;
		popped++;
		bpf_obj_drop(j);
	}

	/* left for the map to free: two jobs on its list, one in its field */
	v = bpf_map_lookup_elem(&values, &key);
	if (!v)
		return 2;
	for (i = 0; i < 2; i++) {
		j = bpf_obj_new(struct job);
		if (!j)
			return 3;
		bpf_spin_lock(&v->lock);
		bpf_list_push_back(&v->head, &j->node);
		bpf_spin_unlock(&v->lock);
	}
	j = bpf_obj_new(struct job);
	if (!j)
		return 4;
	j->prio = 77;
	j = bpf_kptr_xchg(&v->held, j);
	if (j)
		bpf_obj_drop(j);

	set(R_PUSHED, pushed);
	set(R_FRONT, front);
	set(R_POPPED, popped);
	set(R_ORDER_ERRORS, errors);
	set(R_SUM, sum);
	set(R_LEFT, 2);
	set(R_HELD, 1);
	return 0;
}

char _license[] SEC("license") = "GPL";
