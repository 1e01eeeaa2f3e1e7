#!/usr/bin/env bash
# make test-distro: configure the distro kernel (VARIANT=distro) from
# Debian's own config of the pinned version ($CACHE/config-distro, from
# fetch-distro-config.sh).  Every built-in option stays; modules are off,
# but those the guest (kconfig-fragment) or the selftests
# (selftests/bpf/config) need are built in; kconfig-distro-fragment adds the
# rest, each line argued there; olddefconfig decides what follows.  The
# difference to Debian's config is written to $KBUILD/distro-config.diff
# and summed up here.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stage_begin config-distro

[ "$VARIANT" = distro ] || die "run with VARIANT=distro"
[ -f "$TREE/Makefile" ] || die "no source tree at $TREE" "run 'make apply' first"
debian=$CACHE/config-distro
[ -s "$debian" ] || die "no Debian config at $debian" "run scripts/fetch-distro-config.sh"
mkdir -p "$KBUILD"
new=$KBUILD/.config.new
selftests_config=$TREE/tools/testing/selftests/bpf/config
fragment=$TOP/kconfig-distro-fragment

# value OPTION FILE: y, m, a string or number, or n when unset
value()
{
	local v
	v=$(grep -m 1 "^$1=" "$2" | cut -d= -f2- || true)
	echo "${v:-n}"
}

# options the guest or the tests ask to have built in that Debian builds
# as modules: built in here (what they ask for as a module, e.g. test_bpf,
# stays off: the guest loads no module but bpf_testmod)
declare -A want=() promote=()
while IFS= read -r line; do
	# kconfig-fragment after selftests/bpf/config: the later value wins
	case "$line" in CONFIG_*=*) want[${line%%=*}]=${line#*=} ;; esac
done < <(cat "$selftests_config" "$TOP/kconfig-fragment")
for opt in "${!want[@]}"; do
	[ "${want[$opt]}" = y ] && [ "$(value "$opt" "$debian")" = m ] && promote[$opt]=1
done

{
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=m)
			opt=${line%%=*}
			if [ -n "${promote[$opt]+x}" ]; then
				echo "$opt=y"
			else
				echo "# $opt is not set"
			fi
			;;
		*) echo "$line" ;;
		esac
	done < "$debian"
	cat "$fragment"
} > "$new"
log "Debian's config ($(grep -c '=y$' "$debian") built in, $(grep -c '=m$' "$debian") modules): modules off, ${#promote[@]} of them built in for the guest and the tests, $(grep -c '^[#]* *CONFIG_' "$fragment") lines of kconfig-distro-fragment"
make -s -C "$TREE" O="$KBUILD" KCONFIG_CONFIG=.config.new olddefconfig \
	> "$LOGS/config-distro.log" 2>&1 ||
	die "olddefconfig failed (log: $LOGS/config-distro.log)"

# what we asked for must have stuck
dropped=()
for opt in "${!promote[@]}"; do
	[ "$(value "$opt" "$new")" = y ] || dropped+=("$opt=y (built in for the guest or the tests)")
done
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		opt=${line%%=*}
		[ "$(value "$opt" "$new")" = "${line#*=}" ] || dropped+=("$line (kconfig-distro-fragment)")
		;;
	'# CONFIG_'*' is not set')
		opt=${line#\# }
		opt=${opt%% *}
		[ "$(value "$opt" "$new")" = n ] || dropped+=("$line (kconfig-distro-fragment)")
		;;
	esac
done < "$fragment"
if [ ${#dropped[@]} -gt 0 ]; then
	printf '[config-distro]   dropped: %s\n' "${dropped[@]}" >&2
	die "${#dropped[@]} requested option(s) did not survive olddefconfig" \
		"see $LOGS/config-distro.log"
fi

# the difference to Debian's config, option by option: "OPTION debian new"
diff=$KBUILD/distro-config.diff
export LC_ALL=C
join -a 1 -a 2 -e n -o 0,1.2,2.2 \
	<(sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)$/\1 \2/p' "$debian" | sort) \
	<(sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)$/\1 \2/p' "$new" | sort) |
	awk '$2 != $3' > "$diff"
log "against Debian's config: $(awk '$2 == "m" && $3 == "y"' "$diff" | wc -l) modules built in, $(awk '$2 == "m" && $3 == "n"' "$diff" | wc -l) modules off, $(awk '$2 != "m" && $2 != "y"' "$diff" | wc -l) other values (all: $diff)"
# Bool options of Debian's that olddefconfig turned off: features of a
# module now off (XFS_POSIX_ACL) or libraries only modules select
# (SG_POOL).  Counted by the directory of the Kconfig defining them.
lost=$(awk '$2 == "y" && $3 != "y" { print $1 }' "$diff")
if [ -n "$lost" ]; then
	grep -rE --include='Kconfig*' '^[[:space:]]*(menu)?config [A-Za-z0-9_]+' "$TREE" 2> /dev/null |
		sed -E "s|^$TREE/([^/]+)/[^:]*:[[:space:]]*(menu)?config ([A-Za-z0-9_]+).*|CONFIG_\3 \1|" |
		sort -u -k1,1 > "$KBUILD/.kconfig-dirs"
	log "$(grep -c . <<< "$lost") bool options of Debian's went with the modules they belong to, by directory: $(sort <<< "$lost" |
		join - "$KBUILD/.kconfig-dirs" | awk '{ n[$2]++ } END { for (d in n) printf "%s %d, ", d, n[d] }' | sed 's/, $//')"
fi
# What the series and its measurements depend on must be Debian's value.
debian_values=(DEBUG_LIST BUG_ON_DATA_CORRUPTION PARAVIRT PARAVIRT_XXL
	PARAVIRT_SPINLOCKS XEN_PV INIT_ON_ALLOC_DEFAULT_ON HARDENED_USERCOPY
	SLAB_FREELIST_HARDENED PREEMPT_DYNAMIC PREEMPT_VOLUNTARY
	BPF_UNPRIV_DEFAULT_OFF BPF_SYSCALL BPF_JIT BPF_JIT_ALWAYS_ON BPF_LSM
	DEBUG_INFO_BTF SLUB SMP NR_CPUS HZ)
changed=()
for opt in "${debian_values[@]}"; do
	[ "$(value "CONFIG_$opt" "$debian")" = "$(value "CONFIG_$opt" "$new")" ] ||
		changed+=("CONFIG_$opt: Debian $(value "CONFIG_$opt" "$debian"), here $(value "CONFIG_$opt" "$new")")
done
if [ ${#changed[@]} -gt 0 ]; then
	printf '[config-distro]   changed: %s\n' "${changed[@]}" >&2
	die "options the series depends on differ from Debian's" "see $diff"
fi
log "as Debian has them: $(for o in "${debian_values[@]}"; do printf '%s=%s ' "$o" "$(value "CONFIG_$o" "$new")"; done)"

install_config "$new"
stage_end
