#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Drop-in proof: these selftests run from inside a kernel tree as kernel CI
# runs them. A minimal kernel tree (the kselftest framework and the make
# files it includes, extracted from Debian's linux-source-6.1 by
# "make ksrc" into .ksrc/) is copied to /tmp, this directory is copied to
# tools/testing/selftests/drivers/infiniband/ibtrace/, and
#   make -C tools/testing/selftests TARGETS=drivers/infiniband/ibtrace run_tests
# builds the test programs there and runs a subset of the tests (the module
# itself is built out of tree; IBTRACE_ROOT points at it). Each test must
# report the same KTAP results as when run directly from this directory.

source "$(dirname "$0")/lib.sh"

KTREE_SRC=${IBTRACE_KTREE:-$IBT_ROOT/.ksrc}
SUBSET=${IBTRACE_KSFT_SUBSET:-"ibtrace_load.sh ibtrace_sim_basic.sh"}
ibt_tmpdir

ibt_require_root
ibt_require_cmd make
ibt_require_cmd gcc
[ -e "$KTREE_SRC/tools/testing/selftests/Makefile" ] ||
	ibt_skip_all "no kernel tree in $KTREE_SRC (make ksrc)"
# Inside a kernel tree already: nothing to prove twice.
case $IBT_DIR in
*/tools/testing/selftests/drivers/infiniband/ibtrace)
	ibt_skip_all "already running from a kernel tree" ;;
esac

tree=$TMP/linux
mkdir -p "$tree" && cp -a "$KTREE_SRC/." "$tree/"
dst=$tree/tools/testing/selftests/drivers/infiniband/ibtrace
mkdir -p "$dst"
(cd "$IBT_DIR" && cp -a Makefile config settings ./*.sh ./*.c ./*.h ./*.py topo \
	vm vm-run bench "$dst"/ 2>/dev/null)
ibt_check "selftests copied into the kernel tree" test -e "$dst/Makefile"

# kselftest runs every test with its own output prefixed "# ". Run as one
# of our own kselftests, this script inherits the outer make's variables:
# its command-line ones (KSFT_DIR, which would make the tree's Makefile
# include our lib.mk, and the runner name the tests by their full path)
# are in the environment as well as in MAKEFLAGS. The inner make is
# started as a user would start it.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u KSFT_DIR -u TEST_PROGS -u OUTPUT \
	make -s -C "$tree/tools/testing/selftests" TARGETS=drivers/infiniband/ibtrace \
	IBTRACE_ROOT="$IBT_ROOT" TEST_PROGS="$SUBSET" run_tests \
	> "$TMP/ksft.out" 2>&1
rc=$?
sed 's/^/# /' "$TMP/ksft.out"
ibt_expect "make run_tests from the kernel tree exits 0" 0 "$rc"
n=$(echo $SUBSET | wc -w)
ibt_expect "kselftest ran the $n tests as drivers/infiniband/ibtrace" "$n" \
	"$(grep -c '^ok [0-9]* selftests: drivers/infiniband/ibtrace: ' "$TMP/ksft.out")"
for t in ibtrace_mad ibtrace_nlraw ibtrace_sim_ctl ibtrace_sim_smp ibtrace_rnr_cm; do
	ibt_check "  $t built inside the tree" test -x "$dst/$t"
done

# The same tests run directly: the same result lines, in the same order.
for t in $SUBSET; do
	"$IBT_DIR/$t" > "$TMP/direct.$t" 2>&1
	grep -E '^(not )?ok [0-9]+ ' "$TMP/direct.$t" > "$TMP/want.$t"
	awk -v t="$t" '
		$0 ~ "selftests: drivers/infiniband/ibtrace: " t "$" { inside = 0 }
		inside && /^# (not )?ok [0-9]+ / { sub(/^# /, ""); print }
		$0 ~ "^# selftests: drivers/infiniband/ibtrace: " t "$" { inside = 1 }
	' "$TMP/ksft.out" > "$TMP/got.$t"
	if [ -s "$TMP/want.$t" ] && cmp -s "$TMP/want.$t" "$TMP/got.$t"; then
		ibt_ok "$t: same $(wc -l < "$TMP/want.$t") KTAP results in the tree as directly"
	else
		ibt_fail "$t: same KTAP results in the tree as directly"
		diff "$TMP/want.$t" "$TMP/got.$t" | sed 's/^/#   /' | head -20
	fi
done
ibt_done
