/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FUZZ_KERNEL_H
#define FUZZ_KERNEL_H
#include "emit.h"

int load_btf(const struct image *im, char *log, int log_len);
int create_map(const struct image *im, int btf_fd);
int load_prog(const struct image *im, int btf_fd, char *log, int log_len);
int test_run(int prog_fd, const void *data, int len, int repeat, __u32 *retval);
int find_kfuncs(int *ids, char *err, int err_len);
int drop_to_cap_bpf(void);
#endif
