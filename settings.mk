# Settings of the harness: the one place for versions, toolchain and guest
# sizes.  Every value can be overridden from the command line or the
# environment, e.g. `make KERNEL_DEB_VERSION=6.1.192-1 QEMU_ACCEL=tcg`.
# scripts/lib.sh reads this file too, so scripts run by hand agree with make.

# Debian package holding the base tree (linux-source-6.1), pinned.
KERNEL_DEB_VERSION ?= 6.1.192-3

# Toolchain: the kernel is built with gcc, BPF programs with this clang/LLVM.
LLVM_VERSION ?= 16
JOBS ?= 3
USE_CCACHE ?= 1

# Guest: accelerator auto|kvm|tcg, vCPUs, memory (MiB), hard timeouts (s).
QEMU_ACCEL ?= auto
QEMU_SMP ?= 2
QEMU_MEM ?= 4096
QEMU_TIMEOUT ?= 1800
KVM_PROBE_TIMEOUT ?= 10

# Where everything is built (git-ignored).
BUILD_DIR ?= build
# vCPUs of the guest of make test-debug (the concurrency tests want 4), and
# its hard timeout: the KASAN/lockdep kernel under TCG is several times
# slower than the normal one
QEMU_DEBUG_SMP ?= 4
QEMU_DEBUG_TIMEOUT ?= 3600

# make stress: these test_progs tests, STRESS_REPEAT times in one boot
STRESS_TESTS ?= linked_list_stress,linked_list_lifetime,rbtree_stress,refcount_stress
STRESS_REPEAT ?= 10

# make regress: the pristine run applies this many leading patches of the
# series (selftests build fixes only, checked), and its guests get this long
PRISTINE_FIXES ?= 1
REGRESS_TIMEOUT ?= 5400

# make bench: interleaved rounds (one run of each benchmark per round),
# seconds per run (after 1 s of warm-up), operations per trigger; a perf
# profile of the list cases (1) or not (0); objects of each size the memory
# figures allocate
BENCH_RUNS ?= 10
BENCH_SECONDS ?= 1
BENCH_LOOPS ?= 1000
BENCH_PROFILE ?= 1
BENCH_MEM_OBJECTS ?= 1000000
# make bench: the boots to run (smp1 smp2) and, if set, only these benchmarks
# (e.g. "local-kptr-list native-list queue-map")
BENCH_BOOTS ?= smp1 smp2
BENCH_ONLY ?=

# make fuzz: seconds of fuzzing (half as root, half with CAP_BPF only) and
# the first seed; make test runs FUZZ_TEST_SECONDS of it on the normal kernel
FUZZ_SECONDS ?= 600
FUZZ_SEED ?= 1
FUZZ_TEST_SECONDS ?= 120
# make fuzz-reverted: at most this many seconds of fuzzing per undone check
FUZZ_REVERTED_SECONDS ?= 600

# make test-distro / bench-distro: the version of the Debian kernel image
# package whose /boot/config-* the distro kernel starts from; "pin" is
# KERNEL_DEB_VERSION
DISTRO_DEB_VERSION ?= pin
