#!/usr/bin/env bash
# The main job: run the stages in order, stop at the first one that fails
# (counted as a failure), then print the summary.
#   pipeline.sh run    fetch .. run-tests          ('make')
#   pipeline.sh test   the same plus series hygiene and the harness's
#                      own tests ('make test')
#   pipeline.sh distro the tests as 'test' runs them (no hygiene or harness
#                      tests) on the kernel built with Debian's own config
#                      (VARIANT=distro, 'make test-distro')
#   pipeline.sh debug  the tests on the debug kernel (VARIANT=debug, its
#                      own build directories), then its reports
#                      ('make test-debug')
#   pipeline.sh regress build as 'run' does and the pristine base
#                      (VARIANT=pristine), then run all of test_progs,
#                      test_verifier and veristat over 6.1's own selftest
#                      objects on each kernel, then compare ('make regress')
#   pipeline.sh bench  build as 'run' does, plus bench and veristat, then
#                      the benchmarks in three boots ('make bench')
#   pipeline.sh fuzz   build as 'run' does plus the fuzzer, then only the
#                      fuzzer in the guest (FUZZ_ONLY, FUZZ_RUN_SECONDS; with
#                      VARIANT=debug, 'make fuzz', then its reports)
#   pipeline.sh stress build as 'run' does, then the stress tests
#                      STRESS_RUNS times in one boot ('make stress'; with
#                      VARIANT=debug on the debug kernel, 'make
#                      stress-debug', then its reports)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

what=${1:-run}
"$TOP/scripts/reset-results.sh"

stages=(scripts/install-deps.sh scripts/fetch.sh scripts/unpack.sh scripts/apply.sh)
[ "$what" = test ] && stages+=(scripts/hygiene.sh)
# make bench also builds the selftests' bench runner and veristat
build_selftests=scripts/build-selftests.sh
[ "$what" = bench ] && build_selftests="env BUILD_BENCH=1 scripts/build-selftests.sh"
# VARIANT=distro: Debian's own config instead of allnoconfig + fragments
if [ "$VARIANT" = distro ]; then
	stages+=(scripts/fetch-distro-config.sh scripts/config-distro.sh)
else
	stages+=(scripts/config.sh)
fi
stages+=(scripts/build-kernel.sh "$build_selftests" scripts/mkinitramfs.sh)
[ "$what" = test ] && stages+=(selftests/harness/run.sh)
if [ "$what" = test ] || [ "$what" = fuzz ] || [ "$what" = distro ]; then
	stages+=(scripts/build-fuzz.sh)
fi
if [ "$what" = bench ]; then
	stages+=(scripts/run-bench.sh)
elif [ "$what" = regress ]; then
	# both kernels first: each guest runs veristat over the pristine
	# tree's own selftest objects, built by the pristine variant
	for s in prepare-pristine config build-kernel; do
		stages+=("env VARIANT=pristine scripts/$s.sh")
	done
	stages+=("env VARIANT=pristine BUILD_VERISTAT=1 scripts/build-selftests.sh"
		"env FULL_RUN=1 scripts/run-tests.sh"
		"env VARIANT=pristine FULL_RUN=1 scripts/run-tests.sh"
		scripts/regress-compare.sh)
elif [ "$what" = test ] || [ "$what" = distro ]; then
	# a short fixed-seed fuzzer run in the same boot as the tests
	stages+=("env FUZZ_RUN_SECONDS=$FUZZ_TEST_SECONDS scripts/run-tests.sh")
else
	stages+=(scripts/run-tests.sh)
fi
[ "$VARIANT" = debug ] && stages+=(scripts/scan-debug-log.sh)
if [ "$what" = stress ]; then
	[ "${STRESS_RUNS:-0}" -gt 0 ] || die "pipeline.sh stress needs STRESS_RUNS > 0"
fi

for s in "${stages[@]}"; do
	# "env VAR=value ... script": the script is the last word
	read -r -a words <<< "$s"
	script=${words[-1]}
	words[-1]=$TOP/$script
	if ! "${words[@]}"; then
		echo "FAIL stage $(basename "$script" .sh): see the messages above and $LOGS" >> "$RESULTS/stages.res"
		break
	fi
done
exec "$TOP/scripts/summary.sh"
