/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FUZZ_KERNEL_H
#define FUZZ_KERNEL_H
#include "emit.h"

int load_btf(const struct image *im, char *log, int log_len);
/* (Re)creates @m: the array, the array of maps with its inner map, the
 * global data map; -1 with errno if one fails (then all are closed)
 */
int create_maps(const struct image *im, int btf_fd, struct maps *m);
void close_maps(struct maps *m);
int load_prog(const struct image *im, int btf_fd, char *log, int log_len);
int test_run(int prog_fd, const void *data, int len, int repeat, __u32 *retval);
int find_kfuncs(int *ids, char *err, int err_len);
int drop_to_cap_bpf(void);
#endif
