#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `make check` after the build: host-side checks, then every kselftest in
# one pair of VMs (booted once), then one line "N passed, N failed,
# N skipped" counting every check and subtest.

set -u
cd "$(dirname "$0")/.." || exit 1
root=$PWD
work=$(mktemp -d /tmp/ibtrace-check.XXXXXX)
trap 'rm -rf "$work"' EXIT

passed=0
failed=0
skipped=0

# host_check NAME COMMAND...
host_check()
{
	local name=$1

	shift
	if "$@" > "$work/host.log" 2>&1; then
		echo "ok - host: $name"
		passed=$((passed + 1))
	else
		echo "not ok - host: $name"
		sed 's/^/#   /' "$work/host.log" | tail -40
		failed=$((failed + 1))
	fi
}

host_check "checkpatch --strict on kernel sources" make -s checkpatch
host_check "sparse (C=2) and W=1 build clean" make -s sparse
host_check "kernel-doc clean" make -s kerneldoc
host_check "tool unit tests" make -s -C tool test
host_check "uAPI header and YAML spec agree" selftests/ibtrace_spec.sh
host_check "man pages and bash completion cover the tool" selftests/ibtrace_docs.sh
# The VM shares this root: ibtrace_install.sh checks what this installed.
host_check "make install (module into updates/, depmod, tool)" make -s install
# ibtrace_deb.sh installs these in the VM; DKMS's build of the packaged
# source for the VM's kernel runs here, where the CPU is not emulated.
host_check "make deb (ibtrace-dkms, ibtracectl) and DKMS builds it" \
	make -s dkms-tarball

# vm-run's boot watchdog: a VM that does not reach its command in time is
# booted again, then vm-run gives up with 125 (here no boot can be that fast).
vmrun_boot_watchdog()
{
	local out rc

	out=$(selftests/vm-run --boot-timeout 1 -- true 2>&1)
	rc=$?
	printf '%s\n' "$out"
	[ "$rc" = 125 ] && grep -q 'within 1 s of boot (try 3 of 3)' <<< "$out" &&
		grep -q 'no boot within 1 s in 3 tries' <<< "$out"
}
host_check "vm-run boots a hung VM again, 3 tries, then exits 125" vmrun_boot_watchdog

# lib.sh's kernel-log gate: a test whose begin marker the kernel's ring
# buffer dropped (it overflowed) fails, since a report may have gone with
# it; one whose marker is there judges only the lines after it. A stand-in
# dmesg prints the log each case needs.
kmsg_gate()
{
	local d=$work/kmsg out

	mkdir -p "$d"
	# shellcheck disable=SC2016 # expanded by the stand-in, not here
	printf '#!/bin/sh\ncat "$IBT_FAKE_KMSG"\n' > "$d/dmesg"
	chmod +x "$d/dmesg"
	out=$(PATH=$d:$PATH IBT_FAKE_KMSG=$d/log bash -c '
		. selftests/lib.sh
		ibt_kmsg_marked=1
		printf "[1.0] rxe: a line\n[1.1] another\n" > "$IBT_FAKE_KMSG"
		ibt_done' 2>&1)
	printf '%s\n' "$out"
	grep -q '^not ok 1 - kernel log clean during bash' <<< "$out" &&
		grep -q 'lost the begin marker' <<< "$out" || return 1
	out=$(PATH=$d:$PATH IBT_FAKE_KMSG=$d/log bash -c '
		. selftests/lib.sh
		ibt_kmsg_marked=1
		printf "[0.9] KASAN: before\n[1.0] ibtrace-selftest: begin %s %s\n[1.1] after\n" \
			"$IBT_TEST" "$$" > "$IBT_FAKE_KMSG"
		ibt_kmsg_since' 2>&1)
	printf '%s\n' "$out"
	[ "$(grep -v '^TAP version' <<< "$out")" = "[1.1] after" ]
}
host_check "a test whose kernel log overflowed (marker lost) fails" kmsg_gate

# The drop-in test's kernel tree and test programs, built here where the
# compiler is not emulated (ibtrace_kselftest.sh runs them in the VM).
host_check "kselftest tree for the drop-in test built" \
	selftests/ibtrace_kselftest.sh --build "$root/.build/ksft"

ksft=$root/.ksrc/tools/testing/selftests
echo "# booting two VMs for the kselftests"
selftests/vm-run --vms 2 --peer-cmd selftests/peer.sh --mem 4096 --timeout 4500 \
	--log "$work/console.log" -- \
	make -s -C selftests run_tests KSFT_DIR="$ksft" \
	IBTRACE_KSFT_PREBUILT="$root/.build/ksft" | tee "$work/ktap.out"
vm_rc=${PIPESTATUS[0]}

# Where the VM run's time went: each suite's seconds, from its begin
# marker in the first VM's kernel log to the next one (the last to the
# log's end). Comment lines, not results.
awk '/ibtrace-selftest: begin / {
		t = $0; sub(/^\[ */, "", t); sub(/\].*/, "", t)
		n = $0; sub(/.*begin /, "", n); sub(/ .*/, "", n); sub(/^ibtrace_/, "", n)
		if (name != "") out = out sprintf(" %s %.0f,", name, t - start)
		name = n; start = t
	}
	/^\[ *[0-9]+\.[0-9]+\]/ { last = $0; sub(/^\[ */, "", last); sub(/\].*/, "", last) }
	END {
		if (name == "") exit
		out = out sprintf(" %s %.0f", name, last - start)
		print "# seconds per suite (first VM, kernel log):"
		while (length(out) > 76) {
			i = 76; while (i > 1 && substr(out, i, 1) != ",") i--
			print "#" substr(out, 1, i); out = substr(out, i + 1)
		}
		print "#" out
	}' "$work/console.log" 2>/dev/null

# Subtests are the nested "# ok N" lines; a script that failed or was
# skipped without reporting subtests counts once.
eval "$(awk '
	/^# (not )?ok [0-9]+ / {
		sub_seen = 1
		if ($0 ~ /# SKIP/) s++
		else if ($0 ~ /^# not ok/) { f++; sub_fail = 1 }
		else p++
		next
	}
	/^(not )?ok [0-9]+ selftests:/ {
		if ($0 ~ /# SKIP/) { if (!sub_seen) s++ }
		else if ($0 ~ /^not ok/ && !sub_fail) f++
		sub_seen = 0; sub_fail = 0
	}
	END { printf "p=%d f=%d s=%d\n", p, f, s }' "$work/ktap.out")"
passed=$((passed + p))
failed=$((failed + f))
skipped=$((skipped + s))

# A suite the VM run never reached (it ended first: timeout, crash) is a
# failure by name, not a silence.
for t in $(make -s -C selftests --no-print-directory KSFT_DIR="$ksft" print-progs); do
	grep -qE "^(not )?ok [0-9]+ selftests: drivers/infiniband/ibtrace: $t( |\$)" \
		"$work/ktap.out" && continue
	echo "not ok - $t did not run (the VM run ended first, vm-run exit $vm_rc)"
	failed=$((failed + 1))
done

if [ "$vm_rc" -ne 0 ] && [ "$f" -eq 0 ]; then
	echo "not ok - VM run (vm-run exit $vm_rc: kernel log or VM failure)"
	failed=$((failed + 1))
elif [ "$vm_rc" -eq 0 ]; then
	echo "ok - VM kernel logs clean"
	passed=$((passed + 1))
fi
# $work goes at exit: a failed run's console logs stay where CI keeps /tmp.
if [ "$vm_rc" -ne 0 ]; then
	keep=$(mktemp -d /tmp/ibtrace-console.XXXXXX) &&
		cp "$work"/console.log* "$keep"/ 2>/dev/null &&
		echo "# console logs kept in $keep"
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
