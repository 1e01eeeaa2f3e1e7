// SPDX-License-Identifier: GPL-2.0
/* NOT RUN by make test: kept for the follow-up of issue 28 (review notes,
 * 2026-12-07). A second review round of 0056 wrote these; they showed that
 * a run could converge with a state from an earlier pass of a loop of the
 * program around the call, which 0056 now refuses (callback_seq). With
 * that check nothing cuts such a loop short: the passes differ in
 * callback_unroll_depth, so the infinite loop check never fires, and the
 * verifier walks pass after pass up to its instruction limit. A run of
 * these four under TCG did not finish in 20 minutes and was stopped, so
 * how each is refused is not measured. What is missing: the check for
 * infinite loops should see two passes of such a loop as equal (e.g.
 * callback_unroll_depth reset on the code after the helper); then these
 * go back into progs/ as RUN_TESTS.
 *
 * Loops of the program through callback runs (a second round of attacks
 * on sync callbacks verified as loops).
 *
 * All programs below are one idea: a program loop whose every iteration
 * goes through at least one callback run. The exact convergence at a call
 * (is_state_visited(), calls_callback() && callback_depth != 0) is taken
 * for any state that came back from a run, and it may converge with an
 * ancestor at the call from an EARLIER iteration of the program loop, not
 * only with an earlier run of the same call. The cycle it cuts then goes
 * through the code after the helper and the program's back edge: that is
 * an unbounded program loop, not runs bounded by the helper. The ordinary
 * infinite loop check never sees it, because each iteration went through
 * a run and callback_unroll_depth (never reset on the after-path) differs
 * from one iteration to the next.
 *
 * Helper numbers: 164 bpf_for_each_map_elem, 181 bpf_loop.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_misc.h"

/* an address for inline asm, as later bpf_misc.h has it */
#define __imm_addr(name) [name]"i"(&name)


struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} one_elem SEC(".maps");

/* bpf_loop() callback: *ctx = 1 (a spilled constant in the caller) */
__attribute__((naked, used)) __noinline
static int set_flag_cb(void)
{
	asm volatile (
	"r1 = 1;"
	"*(u64 *)(r2 + 0) = r1;"
	"r0 = 0;"
	"exit;"
	::: "memory");
}

/* bpf_for_each_map_elem() callback: *ctx = 1 */
__attribute__((naked, used)) __noinline
static int set_flag_elem_cb(void)
{
	asm volatile (
	"r1 = 1;"
	"*(u64 *)(r4 + 0) = r1;"
	"r0 = 0;"
	"exit;"
	::: "memory");
}

/* ------------------------------------------------------------------ *
 * 1. while (1) { flag = 0; bpf_loop(1, set_flag_cb, &flag, 0);
 *                if (!flag) break; }
 *
 * At run time bpf_loop(1) always runs the callback, flag is 1 after it,
 * the program never leaves the loop (softirq lockup).
 * Verifier: iteration 1 reaches the call as C0 (flag STACK_ZERO, depth
 * 0). The zero-run after-path exits. Run 1 comes back with flag = spilled
 * 1, depth 1: not C0 (slot type differs), checkpoint C1; R1's umax 1 is
 * reached, the after-path (callback_unroll_depth 1) sees flag 1 and jumps
 * back. The head and the arrival at the call (C2, depth 0) escape the
 * infinite loop check: C0 has unroll depth 0, C1 has callback_depth 1 >
 * 0. C2's zero-run after-path exits; its run comes back with r0..r4 and
 * the stack exactly those of C1 (r0 = 0 set before the call, r5..r9
 * NOT_INIT, flag spilled 1, callback_depth 1, no widening: C2's slot is
 * STACK_ZERO). C1 is an ancestor with branches, so the run "converged"
 * and is pruned: nothing is left to explore, the program loads.
 * A correct verifier must not cut a cycle through the program's back
 * edge as converged runs; it should see the loop.
 * ------------------------------------------------------------------ */
SEC("tc")
__failure __msg("infinite loop detected")
__attribute__((naked))
int loop_through_runs_bpf_loop(void)
{
	asm volatile (
"1:"
	"r1 = 0;"
	"*(u64 *)(r10 - 8) = r1;"
	"r0 = 0;"
	"r1 = 1;"
	"r2 = set_flag_cb ll;"
	"r3 = r10;"
	"r3 += -8;"
	"r4 = 0;"
	"call 181;"
	"r1 = *(u64 *)(r10 - 8);"
	"if r1 == 0 goto 2f;"
	"goto 1b;"
"2:"
	"r0 = 0;"
	"exit;"
	::: "memory");
}

/* 1b. The same with checkpoints everywhere: the heads of iterations 1 and
 * 2 differ in callback_unroll_depth, the arrivals at the call in it or in
 * callback_depth, so the extra checkpoints do not find the loop either.
 */
SEC("tc")
__failure __flag(BPF_F_TEST_STATE_FREQ) __msg("infinite loop detected")
__attribute__((naked))
int loop_through_runs_bpf_loop_freq(void)
{
	asm volatile (
"1:"
	"r1 = 0;"
	"*(u64 *)(r10 - 8) = r1;"
	"r0 = 0;"
	"r1 = 1;"
	"r2 = set_flag_cb ll;"
	"r3 = r10;"
	"r3 += -8;"
	"r4 = 0;"
	"call 181;"
	"r1 = *(u64 *)(r10 - 8);"
	"if r1 == 0 goto 2f;"
	"goto 1b;"
"2:"
	"r0 = 0;"
	"exit;"
	::: "memory");
}

/* ------------------------------------------------------------------ *
 * 2. The same loop around bpf_for_each_map_elem() on a one-element array
 * (the callback always runs once, flag is always 1 afterwards). No run
 * limit: run 2 of the first iteration comes back equal to C1 (depth 2 >=
 * 1) and converges legitimately; the second iteration's run converges
 * with C1 of the first iteration as in 1, closing the program loop.
 * ------------------------------------------------------------------ */
SEC("tc")
__failure __msg("infinite loop detected")
__attribute__((naked))
int loop_through_runs_elem(void)
{
	asm volatile (
"1:"
	"r1 = 0;"
	"*(u64 *)(r10 - 8) = r1;"
	"r0 = 0;"
	"r1 = %[one_elem] ll;"
	"r2 = set_flag_elem_cb ll;"
	"r3 = r10;"
	"r3 += -8;"
	"r4 = 0;"
	"call 164;"
	"r1 = *(u64 *)(r10 - 8);"
	"if r1 == 0 goto 2f;"
	"goto 1b;"
"2:"
	"r0 = 0;"
	"exit;"
	:
	: __imm_addr(one_elem)
	: "memory");
}

/* ------------------------------------------------------------------ *
 * 3. The loop of 1 inside a callback: main runs outer_loop_cb once; its
 * frame (frame 1) loops around an inner bpf_loop() whose callback sets
 * the outer callback's stack flag. callback_depth and the convergence
 * test are per frame, so the inner run of the outer callback's second
 * iteration converges with the first iteration's C1 in frame 1 the same
 * way. The outer callback never returns at run time.
 * ------------------------------------------------------------------ */
__attribute__((naked, used)) __noinline
static int outer_loop_cb(void)
{
	asm volatile (
"1:"
	"r1 = 0;"
	"*(u64 *)(r10 - 8) = r1;"
	"r0 = 0;"
	"r1 = 1;"
	"r2 = set_flag_cb ll;"
	"r3 = r10;"
	"r3 += -8;"
	"r4 = 0;"
	"call 181;"
	"r1 = *(u64 *)(r10 - 8);"
	"if r1 == 0 goto 2f;"
	"goto 1b;"
"2:"
	"r0 = 0;"
	"exit;"
	::: "memory");
}

SEC("tc")
__failure __msg("infinite loop detected")
__attribute__((naked))
int loop_through_runs_nested(void)
{
	asm volatile (
	"r1 = 1;"
	"r2 = outer_loop_cb ll;"
	"r3 = 0;"
	"r4 = 0;"
	"call 181;"
	"r0 = 0;"
	"exit;"
	::: "memory");
}

char _license[] SEC("license") = "GPL";
