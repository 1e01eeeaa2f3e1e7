#!/usr/bin/env bash
# The harness's own tests: bad input must fail with a clear error naming
# the problem, and lose nothing.  Each test runs the real scripts against a
# small fake project under a scratch directory and is one counted check.
# The guest timeout test needs a built kernel and is skipped without one.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
stage_begin harness-tests
# The fake projects build in their own build/, and the project's scripts
# run on scratch input log to a scratch one (real_script): a BUILD_DIR in
# the environment (make test BUILD_DIR=... exports it) would send their
# results and logs to the real one.
unset BUILD_DIR

mkdir -p "$RESULTS"
res=$RESULTS/harness.res
: > "$res"
work=$(mktemp -d "$BUILD/harness-tests.XXXXXX")
trap '[ -n "${KEEP_WORK:-}" ] || rm -rf "$work"' EXIT
ver=$KERNEL_DEB_VERSION

# real_script NAME ARGS...: scripts/NAME of this project on scratch input,
# its logs under the scratch directory
real_script()
{
	mkdir -p "$work/build/logs"
	BUILD_DIR=$work/build "$TOP/scripts/$1" "${@:2}"
}

# fake_top NAME: a copy of the project without patches, build dir empty.
fake_top()
{
	local top=$work/$1

	mkdir -p "$top/patches" "$top/build"
	cp -r "$TOP/scripts" "$TOP/qemu" "$TOP/selftests" "$TOP/settings.mk" \
		"$TOP/kconfig-fragment" "$top/"
	: > "$top/series"
	echo "$top"
}

# fake_pristine TOP: a three-line "kernel tree", stamped as unpacked.
fake_pristine()
{
	local p=$1/build/src/linux-$ver

	mkdir -p "$p"
	printf 'one\ntwo\nthree\n' > "$p/a.txt"
	touch -d 2000-01-01 "$p/a.txt"
	echo fake > "$p/.harness-unpacked"
}

# write_patch FILE FROM TO: a format-patch style patch of a.txt line 2.
write_patch()
{
	cat > "$1" <<PATCH
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Local Kptrs Project <local-kptrs@localhost>
Date: Thu, 1 Jan 2026 00:00:00 +0000
Subject: [PATCH] test: Change line two

Change the second line.

Signed-off-by: Local Kptrs Project <local-kptrs@localhost>
---
 a.txt | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/a.txt b/a.txt
--- a/a.txt
+++ b/a.txt
@@ -1,3 +1,3 @@
 one
-$2
+$3
 three
PATCH
}

expect_in()
{
	grep -qF -- "$1" "$2" || { echo "expected in $2: $1"; return 1; }
}

# --- tests -------------------------------------------------------------------

apply_names_rejected_hunk()
{
	local top out=$work/out
	top=$(fake_top reject)
	fake_pristine "$top"
	mkdir -p "$top/build/linux"
	echo previous > "$top/build/linux/a.txt"
	write_patch "$top/patches/0001-bad.patch" zwei two
	echo 0001-bad.patch > "$top/series"
	if "$top/scripts/apply.sh" > "$out" 2>&1; then
		echo "apply.sh succeeded on a patch that does not apply"
		return 1
	fi
	expect_in "patch '0001-bad.patch' does not apply" "$out" &&
		expect_in "rejected in a.txt: Hunk #1 FAILED" "$out" &&
		[ "$(cat "$top/build/linux/a.txt")" = previous ]
}

apply_revert_touches_file()
{
	local top
	top=$(fake_top revert)
	fake_pristine "$top"
	write_patch "$top/patches/0001-good.patch" two TWO
	echo 0001-good.patch > "$top/series"
	"$top/scripts/apply.sh" > /dev/null 2>&1 || return 1
	grep -qx TWO "$top/build/linux/a.txt" || return 1
	: > "$top/series"
	"$top/scripts/apply.sh" > /dev/null 2>&1 || return 1
	# back to pristine content, but newer than the pristine file's mtime
	cmp -s "$top/build/linux/a.txt" "$top/build/src/linux-$ver/a.txt" &&
		[ "$top/build/linux/a.txt" -nt "$top/build/src/linux-$ver/a.txt" ]
}

fetch_missing_version_lists_offers()
{
	local top out=$work/out
	top=$(fake_top fetch)
	if KERNEL_DEB_VERSION=0.0.0-0 "$top/scripts/fetch.sh" > "$out" 2>&1; then
		echo "fetch.sh succeeded for version 0.0.0-0"
		return 1
	fi
	expect_in "linux-source-6.1=0.0.0-0 is not in the apt archive (offered: 6.1." "$out" &&
		expect_in "make KERNEL_DEB_VERSION=" "$out"
}

# fetch-distro-config.sh: a Debian kernel image version apt does not offer
fetch_distro_config_missing_version_lists_offers()
{
	local top out=$work/out-distro
	top=$(fake_top fetch-distro)
	if DISTRO_DEB_VERSION=0.0.0-0 "$top/scripts/fetch-distro-config.sh" > "$out" 2>&1; then
		echo "fetch-distro-config.sh succeeded for version 0.0.0-0"
		return 1
	fi
	expect_in "no Debian amd64 kernel image of version 0.0.0-0 in the apt archive (offered: 6.1." "$out" &&
		expect_in "DISTRO_DEB_VERSION=<one offered>" "$out"
}

# config-distro.sh: a line of kconfig-distro-fragment that olddefconfig
# drops is named (needs the patched tree and Debian's config)
config_distro_names_dropped_option()
{
	local top out=$work/out-config-distro
	top=$(fake_top config-distro)
	echo 'CONFIG_HARNESS_NO_SUCH_OPTION=y' >> "$top/kconfig-distro-fragment"
	mkdir -p "$top/build/cache"
	cp "$CACHE/config-distro" "$top/build/cache/config-distro"
	ln -s "$TREE" "$top/build/linux"
	if VARIANT=distro "$top/scripts/config-distro.sh" > "$out" 2>&1; then
		echo "config-distro.sh accepted an unknown option"
		return 1
	fi
	expect_in "dropped: CONFIG_HARNESS_NO_SUCH_OPTION=y (kconfig-distro-fragment)" "$out"
}

hygiene_flags_bad_patches()
{
	local top r
	top=$(fake_top hygiene)
	mkdir -p "$top/build/src"
	ln -s "$PRISTINE" "$top/build/src/linux-$ver"
	write_patch "$top/patches/0001-nosob.patch" two TWO
	sed -i '/^Signed-off-by/d' "$top/patches/0001-nosob.patch"
	write_patch "$top/patches/0002-ws.patch" two 'TWO  '
	write_patch "$top/patches/0003-stray.patch" two TWO
	write_patch "$top/patches/0004-fixes.patch" two TWO
	sed -i 's/^Signed-off-by/Fixes: 1234abcd ("too short")\nSigned-off-by/' \
		"$top/patches/0004-fixes.patch"
	write_patch "$top/patches/0005-follows.patch" two TWO
	sed -i 's/^Signed-off-by/Follows upstream commit 0123456789ab (no quotes)\nSigned-off-by/' \
		"$top/patches/0005-follows.patch"
	write_patch "$top/patches/0006-credits.patch" two TWO
	sed -i 's/^Signed-off-by/Fixes: 0123456789ab ("bpf: A subject")\nFollows upstream commit 0123456789abcdef ("bpf: Another").\nSigned-off-by/' \
		"$top/patches/0006-credits.patch"
	printf '0001-nosob.patch\n0002-ws.patch\n0004-fixes.patch\n0005-follows.patch\n0006-credits.patch\n' \
		> "$top/series"
	"$top/scripts/hygiene.sh" > /dev/null 2>&1 || return 1
	r=$top/build/results/hygiene.res
	expect_in "FAIL series matches patches/: patches/0003-stray.patch not in series" "$r" &&
		expect_in "FAIL format 0001-nosob.patch: missing Signed-off-by" "$r" &&
		expect_in "FAIL credits 0004-fixes.patch: malformed: Fixes: 1234abcd" "$r" &&
		expect_in "FAIL credits 0005-follows.patch: malformed: Follows upstream commit 0123456789ab (no quotes)" "$r" &&
		expect_in "PASS credits 0006-credits.patch" "$r" &&
		expect_in "PASS format 0002-ws.patch" "$r" &&
		expect_in "FAIL checkpatch 0002-ws.patch: total: 1 errors" "$r" &&
		expect_in "FAIL series applies with zero fuzz" "$r"
}

config_names_dropped_option()
{
	local top out=$work/out
	[ -f "$TREE/Makefile" ] || { echo "no $TREE"; return 1; }
	top=$(fake_top config)
	ln -s "$TREE" "$top/build/linux"
	# 9P_FS needs NETWORK_FILESYSTEMS, which allnoconfig leaves off.
	grep -v NETWORK_FILESYSTEMS "$TOP/kconfig-fragment" > "$top/kconfig-fragment"
	if "$top/scripts/config.sh" > "$out" 2>&1; then
		echo "config.sh accepted a fragment whose option is dropped"
		return 1
	fi
	expect_in "dropped: CONFIG_9P_FS=y (kconfig-fragment)" "$out" &&
		[ ! -f "$top/build/kbuild/.config" ]
}

judge_counts_skip_fail_missing()
{
	local job=$work/judge r=$work/judge.res
	mkdir -p "$job"
	cat > "$job/job.env" <<ENV
SELFTESTS_DIR=/nonexistent
TEST_PROGS_ALLOW='a,b,c,d'
TEST_PROGS_DENY=''
RUN_TEST_VERIFIER=1
ENV
	cat > "$job/test_progs.log" <<LOG
#1/1    a/x:OK
#1      a:OK
#2      b:SKIP
#3/1    c/y:FAIL
#3      c:FAIL
Summary: 1/1 PASSED, 1 SKIPPED, 1 FAILED

All error logs:
#3/1    c/y:FAIL
#3      c:FAIL
Summary: 1/1 PASSED, 1 SKIPPED, 1 FAILED
LOG
	echo 1 > "$job/test_progs.rc"
	echo 'Summary: 1 PASSED, 0 SKIPPED, 1 FAILED' > "$job/test_verifier.log"
	echo 1 > "$job/test_verifier.rc"
	real_script judge.sh "$job" "$r" > /dev/null 2>&1 || return 1
	[ "$(grep -c '^PASS' "$r")" = 2 ] && [ "$(grep -c '^FAIL' "$r")" = 5 ] &&
		expect_in "FAIL test_progs b: skipped" "$r" &&
		expect_in "FAIL test_progs c/y: failed" "$r" &&
		expect_in "FAIL test_progs d: did not run" "$r" &&
		expect_in "FAIL test_verifier: Summary: 1 PASSED, 0 SKIPPED, 1 FAILED" "$r" ||
		return 1
	# the parallel run: one check, failed by a failure or a missing log
	printf "TEST_PROGS_ALLOW='a'\nTEST_PROGS_DENY=''\nRUN_TEST_VERIFIER=0\nTEST_PROGS_PARALLEL=1\n" \
		> "$job/job.env"
	printf '#1      a:OK\nSummary: 1/0 PASSED, 0 SKIPPED, 0 FAILED\n' > "$job/test_progs.log"
	echo 0 > "$job/test_progs.rc"
	printf '#1      a:FAIL\nSummary: 0/0 PASSED, 0 SKIPPED, 1 FAILED\n' > "$job/test_progs_parallel.log"
	echo 1 > "$job/test_progs_parallel.rc"
	real_script judge.sh "$job" "$r" > /dev/null 2>&1 || return 1
	expect_in "PASS test_progs a" "$r" &&
		expect_in "FAIL test_progs -j: Summary: 0/0 PASSED, 0 SKIPPED, 1 FAILED, exit code 1" "$r" ||
		return 1
	rm "$job/test_progs_parallel.log" "$job/test_progs_parallel.rc"
	real_script judge.sh "$job" "$r" > /dev/null 2>&1 || return 1
	expect_in "FAIL test_progs -j: no summary line, exit code none" "$r" || return 1
	# the Debian-libbpf loader: a check per line, a missing log fails
	printf "TEST_PROGS_ALLOW=''\nTEST_PROGS_DENY=''\nRUN_TEST_VERIFIER=0\nRUN_DEBIAN_LIBBPF=1\n" \
		> "$job/job.env"
	printf '# libbpf v1.1\nok load\nnot ok sum: got 3, want 45\n' > "$job/debian_libbpf.log"
	echo 1 > "$job/debian_libbpf.rc"
	real_script judge.sh "$job" "$r" > /dev/null 2>&1 || return 1
	[ "$(grep -c '^PASS' "$r")" = 1 ] && [ "$(grep -c '^FAIL' "$r")" = 1 ] &&
		expect_in "PASS debian-libbpf load" "$r" &&
		expect_in "FAIL debian-libbpf sum: got 3, want 45" "$r" || return 1
	rm "$job/debian_libbpf.log"
	real_script judge.sh "$job" "$r" > /dev/null 2>&1 || return 1
	expect_in "FAIL debian-libbpf: left no log" "$r"
}

# A stress run that failed a subtest, one that died, one that passed
judge_stress_counts_runs()
{
	local job=$work/stress r=$work/stress.res
	mkdir -p "$job"
	cat > "$job/job.env" <<ENV
STRESS_RUNS=3
STRESS_TESTS='s,l'
ENV
	printf '#1/1 s/a:OK\n#1 s:OK\n#2/1 l/b:OK\n#2 l:OK\n' > "$job/stress-1.log"
	echo 0 > "$job/stress-1.rc"
	printf '#1/1 s/a:FAIL\n#1 s:FAIL\n#2/1 l/b:OK\n#2 l:OK\n' > "$job/stress-2.log"
	echo 1 > "$job/stress-2.rc"
	real_script judge-stress.sh "$job" "$r" > /dev/null 2>&1 || return 1
	[ "$(grep -c '^PASS' "$r")" = 1 ] && [ "$(grep -c '^FAIL' "$r")" = 2 ] &&
		expect_in "PASS stress run 1/3 (s,l): 2 subtests OK" "$r" &&
		expect_in "FAIL stress run 2/3 (s,l): exit code 1, not OK: s s/a" "$r" &&
		expect_in "FAIL stress run 3/3 (s,l): left no log" "$r"
}

# regress-compare.sh: OK -> FAIL and OK -> gone are regressions, FAIL -> OK
# is not; test_verifier results count too
regress_compare_finds_regressions()
{
	local top out=$work/regress.out
	top=$(fake_top regress)
	mkdir -p "$top/build/regress/pristine" "$top/build/regress/patched"
	printf '#1/1 a/x:OK\n#1 a:OK\n#2 b:OK\n#3 c:FAIL\n#4 d:OK\n' \
		> "$top/build/regress/pristine/test_progs.log"
	printf '#1/1 a/x:FAIL\n#1 a:FAIL\n#3 c:OK\n#4 d:OK\n#5 e:OK\n' \
		> "$top/build/regress/patched/test_progs.log"
	printf '#0/u one OK\n#0/p one OK\n' > "$top/build/regress/pristine/test_verifier.log"
	printf '#0/u one OK\n#0/p one FAIL\n' > "$top/build/regress/patched/test_verifier.log"
	veristat_csv "$top/build/regress/pristine/veristat.csv" success,100 success,200
	veristat_csv "$top/build/regress/patched/veristat.csv" success,130 failure,200
	REGRESS_CONFIRM=0 "$top/scripts/regress-compare.sh" > "$out" 2>&1 || return 1
	local r=$top/build/results/regress.res
	# a and a/x, b, test_verifier 0/p, veristat p2
	[ "$(grep -c '^FAIL' "$r")" = 5 ] && ! grep -q '^PASS' "$r" &&
		expect_in "FAIL regress test_progs:a/x: OK on pristine, FAIL patched" "$r" &&
		expect_in "FAIL regress test_progs:b: OK on pristine, none patched" "$r" &&
		expect_in "FAIL regress test_verifier:0/p: OK on pristine, FAIL patched" "$r" &&
		expect_in "FAIL regress veristat o.bpf.o p2: accepted by the pristine kernel, failure patched" "$r" &&
		expect_in "test_progs:c FAIL OK" "$out"
}

# veristat_csv FILE VERDICT,INSNS...: a veristat -o csv output, programs
# p1, p2, ... of o.bpf.o, with as many states as a tenth of the insns
veristat_csv()
{
	local f=$1 i=0 v
	shift
	echo 'file_name,prog_name,verdict,duration,total_insns,total_states,peak_states' > "$f"
	for v in "$@"; do
		i=$((i + 1))
		echo "o.bpf.o,p$i,${v%,*},10,${v#*,},$((${v#*,} / 10)),1" >> "$f"
	done
}

# veristat-compare.sh: totals over the programs both kernels accept; a
# program only the patched kernel accepts is no regression; no output on
# one side is a failure
veristat_compare_totals()
{
	local d=$work/veristat out=$work/veristat.out
	mkdir -p "$d"
	veristat_csv "$d/p.csv" success,100 success,300 failure,50
	veristat_csv "$d/x.csv" success,150 success,300 success,60
	real_script veristat-compare.sh "$d/p.csv" "$d/x.csv" "$d/table" "$d/res" > "$out" 2>&1 || return 1
	expect_in "veristat: 3 programs, 2 accepted by both kernels" "$out" &&
		expect_in "verified instructions: 400 pristine, 450 patched (+12.50%)" "$out" &&
		expect_in "more than 10% more instructions: 1," "$out" &&
		expect_in "o.bpf.o p1 success success 100 150 +50.0% 10 15" "$d/table" &&
		expect_in "PASS regress veristat: 3 programs, none refused that the pristine kernel accepts but those expected (instructions +12.50%)" "$d/res" &&
		! grep -q '^FAIL' "$d/res" || return 1
	# a refusal listed as expected is a passed check with its reason
	veristat_csv "$d/x2.csv" success,150 failure,300 success,60
	printf '# comment\no.bpf.o\tp2\tupstream changed the test\n' > "$d/expected"
	: > "$d/res2"
	real_script veristat-compare.sh "$d/p.csv" "$d/x2.csv" "$d/table2" "$d/res2" "$d/expected" > "$out" 2>&1 || return 1
	expect_in "PASS regress veristat o.bpf.o p2: refused patched as expected (upstream changed the test)" "$d/res2" &&
		! grep -q '^FAIL' "$d/res2" || return 1
	# no veristat output: regress-compare.sh fails the check
	local top
	top=$(fake_top veristat-missing)
	mkdir -p "$top/build/regress/pristine" "$top/build/regress/patched"
	for v in pristine patched; do
		echo '#1 a:OK' > "$top/build/regress/$v/test_progs.log"
		echo '#0/u one OK' > "$top/build/regress/$v/test_verifier.log"
	done
	REGRESS_CONFIRM=0 "$top/scripts/regress-compare.sh" > "$out" 2>&1 || return 1
	expect_in "FAIL regress veristat: no output" "$top/build/results/regress.res"
}

tree_export_round_trip()
{
	local top gt out=$work/out
	top=$(fake_top tree)
	fake_pristine "$top"
	"$top/scripts/tree.sh" > "$out" 2>&1 || return 1
	gt=$top/build/tree
	sed -i 's/two/TWO/' "$gt/a.txt"
	git -C "$gt" -c user.name="Local Kptrs Project" -c user.email=local-kptrs@localhost \
		commit -q -a -s -m "test: Change line two" -m "Body." || return 1
	"$top/scripts/export.sh" > "$out" 2>&1 || return 1
	cp -r "$top/patches" "$work/patches.first"
	# a dirty tree is never replaced
	echo dirty >> "$gt/a.txt"
	if "$top/scripts/tree.sh" > "$out" 2>&1; then
		echo "tree.sh replaced a tree with uncommitted changes"
		return 1
	fi
	expect_in "has uncommitted changes" "$out" || return 1
	grep -qx dirty "$gt/a.txt" || return 1
	git -C "$gt" checkout -q a.txt
	# re-create from the exported patches and export again: no diff
	FORCE=1 "$top/scripts/tree.sh" > "$out" 2>&1 || return 1
	"$top/scripts/export.sh" > "$out" 2>&1 || return 1
	diff -r "$work/patches.first" "$top/patches" &&
		[ "$(cat "$top/series")" = "$(ls "$top/patches")" ]
}


# other_pristine TOP VERSION LINE2: a fake pristine tree of another version
# whose second line is LINE2.
other_pristine()
{
	local p=$1/build/src/linux-$2

	mkdir -p "$p"
	printf 'one\n%s\nthree\n' "$3" > "$p/a.txt"
	echo fake > "$p/.harness-unpacked"
}

rebase_stops_at_conflict_then_exports()
{
	local top gt out=$work/out
	top=$(fake_top rebase)
	fake_pristine "$top"
	write_patch "$top/patches/0001-test-Change-line-two.patch" two TWO
	echo 0001-test-Change-line-two.patch > "$top/series"
	"$top/scripts/tree.sh" > "$out" 2>&1 || return 1
	"$top/scripts/export.sh" > "$out" 2>&1 || return 1
	gt=$top/build/tree
	cp -r "$top/patches" "$work/patches.before"
	other_pristine "$top" 9.9.9-1 deux
	if KERNEL_DEB_VERSION=9.9.9-1 "$top/scripts/rebase.sh" > "$out" 2>&1; then
		echo "rebase.sh succeeded over a conflicting base"
		return 1
	fi
	expect_in 'patch 0001 "test: Change line two" does not apply to 9.9.9-1' "$out" &&
		expect_in "conflicts in: a.txt" "$out" || return 1
	# nothing exported while the conflict is open, the pin stays
	diff -r "$work/patches.before" "$top/patches" || return 1
	if "$top/scripts/export.sh" > "$out" 2>&1; then
		echo "export.sh exported during a rebase"
		return 1
	fi
	expect_in "a git rebase is in progress" "$out" || return 1
	grep -qx "KERNEL_DEB_VERSION ?= $ver" "$top/settings.mk" || return 1
	# resolve with plain git, export: the patch is for 9.9.9-1, pin moved
	printf 'one\nTWO\nthree\n' > "$gt/a.txt"
	git -C "$gt" add a.txt
	GIT_EDITOR=true git -C "$gt" -c user.name=t -c user.email=t@t rebase --continue \
		> "$out" 2>&1 || return 1
	"$top/scripts/export.sh" > "$out" 2>&1 || return 1
	expect_in "moved the pin in settings.mk: $ver -> 9.9.9-1" "$out" &&
		grep -qx "KERNEL_DEB_VERSION ?= 9.9.9-1" "$top/settings.mk" &&
		grep -qx -- "-deux" "$top/patches/0001-test-Change-line-two.patch" || return 1
	KERNEL_DEB_VERSION=9.9.9-1 "$top/scripts/apply.sh" > "$out" 2>&1 &&
		grep -qx TWO "$top/build/linux/a.txt"
}

rebase_drops_patch_in_base_refuses_unexported()
{
	local top gt out=$work/out
	top=$(fake_top rebase-drop)
	fake_pristine "$top"
	write_patch "$top/patches/0001-test-Change-line-two.patch" two TWO
	echo 0001-test-Change-line-two.patch > "$top/series"
	"$top/scripts/tree.sh" > "$out" 2>&1 || return 1
	"$top/scripts/export.sh" > "$out" 2>&1 || return 1
	gt=$top/build/tree
	other_pristine "$top" 9.9.9-1 TWO
	# a commit not exported yet: refused, tree untouched
	echo four >> "$gt/a.txt"
	git -C "$gt" -c user.name=t -c user.email=t@t commit -q -a -m "test: Add line four" || return 1
	if KERNEL_DEB_VERSION=9.9.9-1 "$top/scripts/rebase.sh" > "$out" 2>&1; then
		echo "rebase.sh ran over unexported work"
		return 1
	fi
	expect_in "has commits that differ from patches/" "$out" || return 1
	[ "$(git -C "$gt" log -1 --format=%s base)" = "linux-source-6.1 $ver (pristine base)" ] || return 1
	git -C "$gt" reset -q --hard HEAD~1
	# the base already has the change: the patch is dropped, said so
	KERNEL_DEB_VERSION=9.9.9-1 "$top/scripts/rebase.sh" > "$out" 2>&1 || return 1
	expect_in "test: Change line two" "$out" && expect_in "dropped" "$out" || return 1
	"$top/scripts/export.sh" > "$out" 2>&1 || return 1
	[ ! -s "$top/series" ] && grep -qx "KERNEL_DEB_VERSION ?= 9.9.9-1" "$top/settings.mk"
}

# fake_deb TOP VERSION LINE2: a linux-source-6.1 .deb in TOP's cache whose
# tarball holds a.txt with LINE2; prints its SHA256.
fake_deb()
{
	local d=$work/deb-$2

	mkdir -p "$d/pkg/DEBIAN" "$d/pkg/usr/src" "$d/src/linux-source-6.1" "$1/build/cache"
	printf 'one\n%s\nthree\n' "$3" > "$d/src/linux-source-6.1/a.txt"
	tar -cJf "$d/pkg/usr/src/linux-source-6.1.tar.xz" -C "$d/src" linux-source-6.1
	printf 'Package: linux-source-6.1\nVersion: %s\nArchitecture: all\nMaintainer: t <t@t>\nDescription: fake\n' \
		"$2" > "$d/pkg/DEBIAN/control"
	dpkg-deb -Zxz --build "$d/pkg" "$1/build/cache/linux-source-6.1_$2_all.deb" > /dev/null
	sha256sum "$1/build/cache/linux-source-6.1_$2_all.deb" | cut -d' ' -f1
}

check_bases_table()
{
	local top bin=$work/fake-apt out=$work/out table
	top=$(fake_top bases)
	write_patch "$top/patches/0001-test-Change-line-two.patch" two TWO
	echo 0001-test-Change-line-two.patch > "$top/series"
	mkdir -p "$bin"
	{
		echo "$ver $(fake_deb "$top" "$ver" two)"
		echo "9.9.9-1 $(fake_deb "$top" 9.9.9-1 deux)"
		echo "9.9.9-2 0000000000000000000000000000000000000000000000000000000000000000"
	} > "$bin/index"
	# apt as seen by the scripts: three versions, downloads fail
	cat > "$bin/apt-cache" <<FAKE
#!/bin/sh
case "\$1" in
madison) awk '{ print "linux-source-6.1 | " \$1 " | fake" }' "$bin/index" ;;
show) v=\${2#*=}; awk -v v="\$v" '\$1 == v { print "SHA256: " \$2 }' "$bin/index" ;;
esac
FAKE
	printf '#!/bin/sh\n[ "$1" = update ] && exit 0\necho "E: Failed to fetch (fake)"; exit 100\n' \
		> "$bin/apt-get"
	chmod +x "$bin/apt-cache" "$bin/apt-get"
	PATH=$bin:$PATH "$top/scripts/check-bases.sh" > "$out" 2>&1 || { cat "$out"; return 1; }
	table=$top/build/logs/check-bases.txt
	expect_in "applies (1 patches, zero fuzz) (pinned)" "$table" &&
		expect_in "fails at 0001-test-Change-line-two.patch: a.txt: Hunk #1 FAILED" "$table" &&
		expect_in "not checked: apt-get download linux-source-6.1=9.9.9-2 failed" "$table" || return 1
	[ "$(wc -l < "$table")" = 4 ] || return 1
	# the pinned version failing is the one error
	if PATH=$bin:$PATH KERNEL_DEB_VERSION=9.9.9-1 "$top/scripts/check-bases.sh" > "$out" 2>&1; then
		echo "check-bases.sh passed with a pinned version that does not apply"
		return 1
	fi
	expect_in "the pinned version 9.9.9-1 does not apply" "$out"
}

judge_fuzz_names_findings_and_hangs()
{
	local top job res
	top=$(fake_top judge-fuzz)
	job=$work/fuzz-job
	res=$work/fuzz.res
	mkdir -p "$job/fuzz"
	echo "fuzz-summary privileges=root seed=1 generated=10 accepted=4 rejected=6 per_second=1.0 soundness=1 fuzzer_bugs=0 completeness_gaps=0 model_unknown=0 test_runs=8 seconds=10" \
		> "$job/fuzz-root.log"
	echo 77 > "$job/fuzz/last-seed-unpriv"	# the unpriv run never finished
	echo "kind: soundness" > "$job/fuzz/soundness-3.txt"
	"$top/scripts/judge-fuzz.sh" "$job" "$res" > /dev/null 2>&1 || return 1
	expect_in "FAIL fuzz root: 1 programs accepted that the model calls unsafe" "$res" &&
		expect_in "PASS fuzz root: no malformed program" "$res" &&
		expect_in "FAIL fuzz unpriv: did not finish (last program: seed 77" "$res" &&
		[ -f "$top/build/fuzz/findings/soundness-3.txt" ] || return 1
	# a test run that failed is a runner bug
	echo "fuzz-summary privileges=root seed=1 generated=10 accepted=4 rejected=6 per_second=1.0 soundness=0 fuzzer_bugs=0 completeness_gaps=0 model_unknown=0 test_runs=8 seconds=10 test_run_errors=2" \
		> "$job/fuzz-root.log"
	FUZZ_PRIVS=root "$top/scripts/judge-fuzz.sh" "$job" "$res" > /dev/null 2>&1 || return 1
	expect_in "FAIL fuzz root: 2 BPF_PROG_TEST_RUN calls failed: a runner bug" "$res"
}

# bench-report: quartiles, the 20% spread flag and the ratios of rounds
bench_report_quartiles_and_round_ratios()
{
	local top dir=$work/bench out=$work/bench-report.txt i v
	top=$(fake_top bench-report)
	mkdir -p "$dir/smp1"
	i=0
	for v in 100 110 120 200; do	# BPF: median 115, q1 107.5, q3 140
		i=$((i + 1))
		printf 'Summary: throughput 1 M ops/s, latency %s ns/op\n' "$v" \
			> "$dir/smp1/bench-local-kptr-list-p1-$i.log"
		# native: 50 each round but the last (100): ratios 2 2.2 2.4 2
		printf 'Summary: throughput 1 M ops/s, latency %s ns/op\n' \
			"$([ $i = 4 ] && echo 100 || echo 50)" > "$dir/smp1/bench-native-list-p1-$i.log"
	done
	BENCH_ACCEL=tcg "$top/scripts/bench-report.sh" "$dir" > "$out" 2>&1 || return 1
	expect_in "| 115 [108-140] !" "$out" &&
		expect_in "| 50 [50-62] !" "$out" &&
		expect_in "b/native b = 2.10 [2.00-2.25]" "$out" &&
		expect_in "goal <= 1.5 not met" "$out" &&
		expect_in "c/d = n/a" "$out"
}

# two reports side by side (make bench-distro): medians, ratios, goal lines
bench_compare_side_by_side()
{
	local top dir out=$work/bench-compare.txt i v scale
	top=$(fake_top bench-compare)
	for scale in 1 2; do
		dir=$work/bench-$scale
		mkdir -p "$dir/smp1"
		i=0
		for v in 100 110 120 200; do
			i=$((i + 1))
			printf 'Summary: throughput 1 M ops/s, latency %s ns/op\n' "$((v * scale))" \
				> "$dir/smp1/bench-local-kptr-list-p1-$i.log"
			printf 'Summary: throughput 1 M ops/s, latency %s ns/op\n' 50 \
				> "$dir/smp1/bench-native-list-p1-$i.log"
		done
		BENCH_ACCEL=tcg "$top/scripts/bench-report.sh" "$dir" > "$dir/report.txt" 2>&1 ||
			return 1
	done
	"$top/scripts/bench-compare.sh" one "$work/bench-1/report.txt" two \
		"$work/bench-2/report.txt" > "$out" 2>&1 || return 1
	grep -q '^| b    | lock, pop_front, unlock, lock, add_tail, unlock  *| 115  *| 230  *| 50  *| 50  *| 2.30  *| 4.60  *|$' "$out" &&
		expect_in "b/native b: one 2.30 (2 vCPUs: n/a): goal <= 1.5 not met; two 4.60" "$out" &&
		! "$top/scripts/bench-compare.sh" one "$work/bench-1/report.txt" two \
			"$work/no-such-report.txt" > "$out" 2>&1 &&
		expect_in "bench-compare: no report $work/no-such-report.txt" "$out"
}

# A setting on make's command line stays in the harness: a make that a
# script runs keeps its own variable of the same name (the selftests
# Makefile's BUILD_DIR against make test BUILD_DIR=...)
make_settings_stay_in_harness()
{
	local top out=$work/make-settings.txt

	top=$(fake_top make-settings)
	printf 'BUILD_DIR := its-own\nall:\n\t@echo "inner BUILD_DIR=$(BUILD_DIR)"\n' \
		> "$top/inner.mk"
	cat > "$top/run-inner.sh" <<'SH'
#!/usr/bin/env bash
set -euo pipefail
. "$(dirname "$0")/scripts/lib.sh"
make -s -f "$TOP/inner.mk"
SH
	chmod +x "$top/run-inner.sh"
	printf 'all:\n\t@./run-inner.sh\n' > "$top/Makefile"
	make -s -C "$top" BUILD_DIR="$top/build" > "$out" 2>&1 &&
		expect_in "inner BUILD_DIR=its-own" "$out"
}

guest_timeout_keeps_log()
{
	local top out=$work/out
	top=$(fake_top timeout)
	ln -s "$KBUILD" "$top/build/kbuild"
	ln -s "$STOUT" "$top/build/selftests"
	ln -s "$BUILD/initramfs.cpio.gz" "$top/build/initramfs.cpio.gz"
	if QEMU_ACCEL=tcg QEMU_TIMEOUT=1 "$top/scripts/run-tests.sh" > "$out" 2>&1; then
		echo "run-tests.sh succeeded with a 1 s guest timeout"
		return 1
	fi
	expect_in "guest did not finish within 1s (serial log: $top/build/logs/serial-" "$out" &&
		[ -f "$top/build/logs/serial.log" ]
}

# --- run ---------------------------------------------------------------------
tests=(apply_names_rejected_hunk apply_revert_touches_file
	fetch_missing_version_lists_offers fetch_distro_config_missing_version_lists_offers
	hygiene_flags_bad_patches
	judge_counts_skip_fail_missing judge_stress_counts_runs
	regress_compare_finds_regressions veristat_compare_totals tree_export_round_trip
	rebase_stops_at_conflict_then_exports rebase_drops_patch_in_base_refuses_unexported
	check_bases_table judge_fuzz_names_findings_and_hangs
	bench_report_quartiles_and_round_ratios bench_compare_side_by_side
	make_settings_stay_in_harness)
if [ -f "$KBUILD/arch/x86/boot/bzImage" ] && [ -x "$STOUT/test_progs" ]; then
	tests+=(config_names_dropped_option guest_timeout_keeps_log)
fi
if [ -s "$CACHE/config-distro" ] && [ -f "$TREE/Makefile" ]; then
	tests+=(config_distro_names_dropped_option)
else
	log "no built kernel: config and guest timeout tests not run"
fi
# HARNESS_ONLY="test ...": only these (while working on one)
[ -n "${HARNESS_ONLY:-}" ] && read -r -a tests <<< "$HARNESS_ONLY"
for t in "${tests[@]}"; do
	if (set -e; "$t") > "$LOGS/harness-$t.log" 2>&1; then
		echo "PASS harness $t" >> "$res"
	else
		echo "FAIL harness $t: see $LOGS/harness-$t.log" >> "$res"
		log "FAIL $t: $(tail -n 1 "$LOGS/harness-$t.log")"
	fi
done
log "$(grep -c '^PASS' "$res" || true) passed, $(grep -c '^FAIL' "$res" || true) failed"
stage_end
