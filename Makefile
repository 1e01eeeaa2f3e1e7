# Local kptrs and BPF linked lists for Linux 6.1: a quilt series and the
# harness that fetches the base, applies it, builds, boots and tests it.
# Each target's real work is in scripts/; `make help` lists them.

include settings.mk
export KERNEL_DEB_VERSION DISTRO_DEB_VERSION LLVM_VERSION JOBS USE_CCACHE
export QEMU_ACCEL QEMU_SMP QEMU_MEM QEMU_TIMEOUT KVM_PROBE_TIMEOUT BUILD_DIR
export STRESS_TESTS BENCH_RUNS BENCH_SECONDS BENCH_LOOPS BENCH_PROFILE BENCH_MEM_OBJECTS BENCH_BOOTS BENCH_ONLY FUZZ_SEED

S := scripts

.DEFAULT_GOAL := all
.PHONY: all test test-distro test-debug bench-distro bench-compare stress stress-debug regress bench fuzz fuzz-reverted help deps fetch unpack apply config kernel selftests \
	initramfs run vm hygiene harness-test tree export rebase check-bases posting prefix-test bisect clean distclean

all: ## main job: deps, fetch, apply, build, boot, run selftests, summary
	@$(S)/pipeline.sh run

test: ## `make` plus series hygiene and harness tests (what CI runs)
	@$(S)/pipeline.sh test

test-distro: ## the tests of `make test` on the series built with Debian's own config
	@VARIANT=distro $(S)/pipeline.sh distro

test-debug: ## the tests on a KASAN/kmemleak/lockdep kernel, 4 vCPUs
	@VARIANT=debug QEMU_SMP=$(QEMU_DEBUG_SMP) QEMU_TIMEOUT=$(QEMU_DEBUG_TIMEOUT) $(S)/pipeline.sh debug

stress: ## the stress and lifetime tests STRESS_REPEAT (10) times in one boot
	@STRESS_RUNS=$(STRESS_REPEAT) $(S)/pipeline.sh stress

stress-debug: ## make stress on the debug kernel, 4 vCPUs, then its reports
	@VARIANT=debug QEMU_SMP=$(QEMU_DEBUG_SMP) QEMU_TIMEOUT=$(QEMU_DEBUG_TIMEOUT) STRESS_RUNS=$(STRESS_REPEAT) \
		$(S)/pipeline.sh stress

regress: ## all of test_progs and test_verifier, patched vs pristine 6.1 (long)
	@$(S)/pipeline.sh regress

fuzz: ## differential fuzzer on the debug kernel: FUZZ_SECONDS (600), FUZZ_SEED (1)
	@VARIANT=debug QEMU_SMP=$(QEMU_DEBUG_SMP) QEMU_TIMEOUT=$(QEMU_DEBUG_TIMEOUT) FUZZ_ONLY=1 FUZZ_RUN_SECONDS=$(FUZZ_SECONDS) \
		$(S)/pipeline.sh fuzz

fuzz-reverted: ## each soundness check undone in turn: time for the fuzzer to find it
	@$(S)/fuzz-reverted.sh

bench: ## benchmarks of local kptrs and lists vs queue/hash maps, veristat figures
	@$(S)/pipeline.sh bench

bench-distro: ## make bench on the series built with Debian's own config (build/bench-distro)
	@VARIANT=distro $(S)/pipeline.sh bench

bench-compare: ## the headline figures of make bench and make bench-distro side by side
	@$(S)/bench-compare.sh "make bench" $(BUILD_DIR)/bench/report.txt "Debian config" \
		$(BUILD_DIR)/bench-distro/report.txt

help: ## list the targets
	@grep -hE '^[a-z-]+:.*## ' Makefile | \
		awk -F':.*## ' '{ printf "  make %-13s %s\n", $$1, $$2 }'

deps: ## install the Debian packages the harness needs
	@$(S)/install-deps.sh

fetch: ## download the pinned linux-source-6.1 .deb (SHA256 checked)
	@$(S)/fetch.sh

unpack: fetch ## unpack the pristine base tree under build/src
	@$(S)/unpack.sh

apply: unpack ## apply `series` (quilt, zero fuzz) into build/linux
	@$(S)/apply.sh

config: apply ## allnoconfig + selftests/bpf/config + kconfig-fragment
	@$(S)/config.sh

kernel: config ## build bzImage, vmlinux with BTF, modules
	@$(S)/build-kernel.sh

selftests: kernel ## build test_progs, test_verifier, bpf_testmod.ko
	@$(S)/build-selftests.sh

initramfs: ## build the busybox initramfs of the guest
	@$(S)/mkinitramfs.sh

run: initramfs ## boot the built kernel and run selftests/tests.list (no rebuild)
	@$(S)/reset-results.sh; $(S)/run-tests.sh; $(S)/summary.sh

vm: initramfs ## boot the built kernel and drop to a shell in the guest
	@mkdir -p $(BUILD_DIR)/vm && qemu/launch.sh shell \
		$$($(S)/pick-accel.sh) $(abspath $(BUILD_DIR))/vm

hygiene: unpack ## series checks only: format, checkpatch --strict, series
	@$(S)/reset-results.sh; $(S)/hygiene.sh; $(S)/summary.sh

harness-test: unpack ## the harness's own tests (bad input handling) only
	@$(S)/reset-results.sh; selftests/harness/run.sh; $(S)/summary.sh

tree: unpack ## git repo build/tree: pristine base + one commit per patch
	@$(S)/tree.sh

export: ## write patches/ and series back from build/tree
	@$(S)/export.sh

rebase: ## replay build/tree onto KERNEL_DEB_VERSION=X with git; then make export
	@$(S)/rebase.sh

check-bases: ## apply the series to every linux-source-6.1 apt offers: a table
	@$(S)/check-bases.sh

posting: unpack ## the series in parts (posting/parts): cover letters and mboxes in build/posting, checked with git am
	@$(S)/posting.sh

prefix-test: unpack ## build and boot patches 1-PREFIX (or PREFIX_TREE), run PREFIX_TESTS (tests.list format)
	@export VARIANT=prefix; $(S)/reset-results.sh; $(S)/prefix-test.sh; $(S)/summary.sh

bisect: kernel ## apply patches one by one, build each (and the selftests where a patch touches them), name the first failure
	@$(S)/bisect.sh

clean: ## remove build output, keep the downloaded .deb and pristine tree
	rm -rf $(BUILD_DIR)/linux $(BUILD_DIR)/linux-pristine $(BUILD_DIR)/prefix $(BUILD_DIR)/kbuild* \
		$(BUILD_DIR)/selftests* $(BUILD_DIR)/bisect $(BUILD_DIR)/run* \
		$(BUILD_DIR)/results* $(BUILD_DIR)/regress $(BUILD_DIR)/src/staging* \
		$(BUILD_DIR)/initramfs.cpio.gz $(BUILD_DIR)/probe

distclean: ## remove all of build/, downloads and build/tree included
	rm -rf $(BUILD_DIR)
