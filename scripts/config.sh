#!/usr/bin/env bash
# Configure the kernel: allnoconfig + the tree's selftests/bpf/config +
# kconfig-fragment (later wins).  allnoconfig keeps the build small: only
# what the guest and the BPF selftests need is built.  .config is replaced
# only when it changes, so a re-run does not trigger a rebuild.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stage_begin config

[ -f "$TREE/Makefile" ] || die "no source tree at $TREE" "run 'make apply' first"
mkdir -p "$KBUILD"
selftests_config=$TREE/tools/testing/selftests/bpf/config
merged=$KBUILD/.harness-allconfig
# Our fragment: kconfig-fragment, plus kconfig-debug-fragment for the
# debug kernel (make test-debug)
fragment=$KBUILD/.harness-fragment
cat "$TOP/kconfig-fragment" > "$fragment"
fragment_name=kconfig-fragment
if [ "$VARIANT" = debug ]; then
	cat "$TOP/kconfig-debug-fragment" >> "$fragment"
	fragment_name="kconfig-fragment or kconfig-debug-fragment"
fi
cat "$selftests_config" "$fragment" > "$merged"

log "allnoconfig + $(grep -c '^CONFIG_' "$selftests_config") options of selftests/bpf/config + $(grep -c '^CONFIG_' "$fragment") of $fragment_name"
make -s -C "$TREE" O="$KBUILD" KCONFIG_CONFIG=.config.new \
	KCONFIG_ALLCONFIG="$merged" allnoconfig > "$LOGS/config${VARIANT:+-$VARIANT}.log" 2>&1 ||
	die "allnoconfig failed (log: $LOGS/config${VARIANT:+-$VARIANT}.log)"

# Every requested value must have survived; kconfig drops what a dependency
# forbids without failing.
want_value()
{
	local opt=$1 val=$2 cfg=$3

	if [ "$val" = n ]; then
		! grep -q "^$opt=" "$cfg"
	else
		grep -qx "$opt=$val" "$cfg"
	fi
}

dropped=()
declare -A ours=()
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*) ours[${line%%=*}]=${line#*=} ;;
	'# CONFIG_'*' is not set')
		opt=${line#\# }
		ours[${opt%% *}]=n
		;;
	esac
done < "$fragment"
for opt in "${!ours[@]}"; do
	want_value "$opt" "${ours[$opt]}" "$KBUILD/.config.new" ||
		dropped+=("$opt=${ours[$opt]} ($fragment_name)")
done
while IFS= read -r line; do
	case "$line" in CONFIG_*=*) ;; *) continue ;; esac
	opt=${line%%=*}
	[ -n "${ours[$opt]+x}" ] && continue
	want_value "$opt" "${line#*=}" "$KBUILD/.config.new" ||
		dropped+=("$line (selftests/bpf/config)")
done < "$selftests_config"
if [ ${#dropped[@]} -gt 0 ]; then
	printf '[config]   dropped: %s\n' "${dropped[@]}" >&2
	die "${#dropped[@]} requested option(s) did not survive the merge" \
		"add the options they depend on to kconfig-fragment"
fi

install_config "$KBUILD/.config.new"
stage_end
