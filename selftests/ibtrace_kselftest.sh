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
#
# "ibtrace_kselftest.sh --build DIR" only makes that tree in DIR/linux and
# builds the test programs with the tree's own make; make check does so on
# the host, where the compiler is not emulated, and passes the VM the tree
# as IBTRACE_KSFT_PREBUILT=DIR (kernel CI also builds its kselftests apart
# from the machine that runs them). A prebuilt tree whose copy of this
# directory differs from it is not used: the tree is made again here.

source "$(dirname "$0")/lib.sh"

KTREE_SRC=${IBTRACE_KTREE:-$IBT_ROOT/.ksrc}
# One test, run both ways, proves the drop-in; IBTRACE_SLOW=1 runs two.
SUBSET=ibtrace_load.sh
ibt_slow && SUBSET="ibtrace_load.sh ibtrace_sim_basic.sh"
SUBSET=${IBTRACE_KSFT_SUBSET:-$SUBSET}
PREBUILT=${IBTRACE_KSFT_PREBUILT:-}
KSFT_REL=tools/testing/selftests/drivers/infiniband/ibtrace
# What is copied from this directory into the tree (patterns, expanded there).
KSFT_FILES='Makefile config settings *.sh *.c *.h *.py topo vm vm-run bench'

# ksft_make_tree TREE: the kernel tree with this directory dropped in
ksft_make_tree()
{
	mkdir -p "$1" && cp -a "$KTREE_SRC/." "$1/" &&
		mkdir -p "$1/$KSFT_REL" &&
		(cd "$IBT_DIR" && cp -a $KSFT_FILES "$1/$KSFT_REL/" 2>/dev/null)
}

# ksft_same_sources TREE: its copy of this directory is this directory's
ksft_same_sources()
{
	local f

	[ -d "$1/$KSFT_REL" ] || return 1
	(cd "$IBT_DIR" && for f in $KSFT_FILES; do
		diff -rq "$f" "$1/$KSFT_REL/$f" > /dev/null || exit 1
	done)
}

if [ "${1:-}" = --build ]; then
	[ -n "${2:-}" ] || { echo "usage: $0 --build DIR" >&2; exit 2; }
	rm -rf "$2/linux"
	ksft_make_tree "$2/linux" &&
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u KSFT_DIR -u OUTPUT \
		make -s -C "$2/linux/tools/testing/selftests" \
		TARGETS=drivers/infiniband/ibtrace IBTRACE_ROOT="$IBT_ROOT"
	exit
fi

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
dst=$tree/$KSFT_REL
if [ -n "$PREBUILT" ] && ksft_same_sources "$PREBUILT/linux"; then
	echo "# the tree and its test programs were built in $PREBUILT"
	cp -a "$PREBUILT/linux" "$tree"
else
	[ -z "$PREBUILT" ] ||
		echo "# $PREBUILT/linux is not of these selftests: the tree is made here"
	ksft_make_tree "$tree"
fi
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
