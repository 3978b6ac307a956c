# SPDX-License-Identifier: GPL-2.0-only
#
# ibtrace - top-level build. See README.
#
#   make            modules (against the kernel the test VM boots), tool,
#                   selftest programs
#   make deps       install the Debian packages the project needs
#   make lint       checkpatch --strict and sparse on the kernel sources
#   make check      deps + build + lint + every test (boots VMs)
#   make check-debug  every test on a debug kernel (KASAN, lockdep, kmemleak,
#                   UBSAN...) built once per machine with both modules in its
#                   tree; hours, not part of make check (README)
#   make debug-kernel  only build (or find) that kernel; prints its directory
#   make in-tree KTREE=DIR  drop both modules (Kconfig, Kbuild), the uAPI
#                   headers and the selftests into the kernel tree DIR
#   make demo       deps + build + a VM showing what ibtrace does
#   make bench      benchmarks against the peer tools (prints figures)
#   make deb        Debian packages ibtrace-dkms and ibtracectl into .build/deb
#   make dkms-tarball  DKMS build of the packaged source for KVER (binaries-only tarball)
#   make man        man pages from Documentation/*.rst into Documentation/man
#   make install    module into /lib/modules/$(KVER)/updates, tool into
#                   $(PREFIX)/sbin, man pages, bash completion
#
# KVER= / KDIR= choose the kernel; default: the newest /lib/modules/*/build
# that has a matching /boot/vmlinuz-* (the kernel the VM boots), never the
# running kernel.

KVER ?= $(shell for b in $$(ls -d /lib/modules/*/build 2>/dev/null | sort -V -r); do \
	v=$$(basename $$(dirname $$b)); \
	[ -e /boot/vmlinuz-$$v ] && { echo $$v; break; }; done)
KDIR ?= /lib/modules/$(KVER)/build
PREFIX ?= /usr/local
W ?= 1

# Kernel files used at build time only (never committed), from Debian's
# linux-source-6.1 tarball.
KSRC_TARBALL ?= $(firstword $(wildcard /usr/src/linux-source-6.1.tar.xz))
KSRC := $(CURDIR)/.ksrc
KSRC_FILES := scripts/checkpatch.pl scripts/spelling.txt scripts/kernel-doc \
	scripts/const_structs.checkpatch \
	tools/testing/selftests/lib.mk tools/testing/selftests/kselftest.h \
	tools/testing/selftests/kselftest_harness.h \
	tools/testing/selftests/kselftest

# Documentation/*.rst with a ":Manual section:" field are man pages.
MAN_RST := $(shell grep -l '^:Manual section:' Documentation/*.rst)
MAN_OUT := $(foreach f,$(MAN_RST),Documentation/man/$(basename $(notdir $(f))).$(shell sed -n 's/^:Manual section: *//p' $(f)))

KERNEL_SRCS := $(filter-out %.mod.c,$(wildcard kmod/*/*.[ch])) \
	uapi/linux/ibtrace.h uapi/linux/ibtrace_sim.h

DEPS := build-essential pkg-config kmod iproute2 xz-utils cpio \
	qemu-system-x86 linux-image-amd64 linux-headers-amd64 \
	busybox-static rdma-core ibverbs-utils infiniband-diags opensm \
	perftest ibsim-utils libibverbs-dev librdmacm-dev libnl-3-dev libnl-genl-3-dev libibumad-dev \
	libjson-c-dev sparse linux-source-6.1 jq python3 bc python3-docutils \
	man-db bash-completion dkms debhelper dh-dkms python3-yaml procps \
	openssl tshark pdsh curl time

# What building a kernel needs besides DEPS (make check-debug only).
DEBUG_DEPS := flex bison libelf-dev libssl-dev
# What make bench needs besides DEPS: dapltest, the peer of bench/dapl.sh.
BENCH_DEPS := dapl2-utils

export KVER KDIR

.PHONY: all modules tool selftests deps ksrc lint checkpatch kerneldoc sparse \
	check check-debug debug-kernel deps-debug in-tree man deb dkms-tarball \
	demo bench install clean prom-tools

all: modules tool selftests

modules:
	@test -n "$(KVER)" -a -d "$(KDIR)" || { \
		echo "No kernel build tree found (run 'make deps', or set KDIR=)" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=$(W) modules

tool:
	$(MAKE) -C tool

selftests: ksrc
	$(MAKE) -C selftests KSFT_DIR=$(KSRC)/tools/testing/selftests

deps:
	@missing=$$(for p in $(DEPS); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
		grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing:" $$missing; \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get update -q && \
		apt-get install -y -q --no-install-recommends $$missing; \
	else echo "All packages present."; fi

# The parts of a kernel tree that "make -C tools/testing/selftests
# TARGETS=..." needs, for the kselftest drop-in test; extracted into the
# same directory, which thus is a minimal kernel tree.
KSRC_TREE_FILES := tools/testing/selftests/Makefile \
	tools/testing/selftests/run_kselftest.sh \
	tools/testing/selftests/kselftest_deps.sh \
	tools/scripts/Makefile.include tools/scripts/Makefile.arch \
	scripts/subarch.include

ksrc: $(KSRC)/.stamp $(KSRC)/.stamp-tree

$(KSRC)/.stamp: $(KSRC_TARBALL)
	@test -n "$(KSRC_TARBALL)" || { echo "linux-source-6.1 missing (make deps)" >&2; exit 1; }
	rm -rf $(KSRC) && mkdir -p $(KSRC)
	tar -xJf $(KSRC_TARBALL) -C $(KSRC) --strip-components=1 \
		$(addprefix linux-source-6.1/,$(KSRC_FILES))
	touch $@

$(KSRC)/.stamp-tree: $(KSRC)/.stamp
	tar -xJf $(KSRC_TARBALL) -C $(KSRC) --strip-components=1 \
		$(addprefix linux-source-6.1/,$(KSRC_TREE_FILES))
	touch $@

checkpatch: ksrc
	$(KSRC)/scripts/checkpatch.pl --strict --no-tree --terse \
		--show-types -f $(KERNEL_SRCS)

kerneldoc: ksrc
	@out=$$($(KSRC)/scripts/kernel-doc -none $(KERNEL_SRCS) 2>&1); \
	if [ -n "$$out" ]; then echo "$$out"; exit 1; fi; echo "kernel-doc: clean"

sparse:
	@$(MAKE) -s -C $(KDIR) M=$(CURDIR) clean >/dev/null
	@out=$$($(MAKE) -s -C $(KDIR) M=$(CURDIR) C=2 W=1 modules 2>&1 | \
		grep -E 'warning|error' ); \
	if [ -n "$$out" ]; then echo "$$out"; exit 1; fi; echo "sparse: clean"

lint: checkpatch kerneldoc sparse

check: deps prom-tools
	$(MAKE) all
	selftests/check.sh

# node_exporter and promtool for the metrics test (ibtrace_sim_audit_fleet),
# from Debian's packages unpacked into .build/prom, not installed: installed,
# their services would start on this machine.
PROM_DIR := $(CURDIR)/.build/prom
PROM_DEBS := prometheus-node-exporter prometheus

prom-tools: $(PROM_DIR)/.stamp

$(PROM_DIR)/.stamp:
	rm -rf $(PROM_DIR) && mkdir -p $(PROM_DIR)/deb
	cd $(PROM_DIR)/deb && { apt-get download -q $(PROM_DEBS) || \
		{ apt-get update -q && apt-get download -q $(PROM_DEBS); }; }
	for d in $(PROM_DIR)/deb/*.deb; do dpkg-deb -x "$$d" $(PROM_DIR) || exit 1; done
	rm -rf $(PROM_DIR)/deb
	touch $@

deps-debug: deps
	@$(MAKE) -s deps DEPS="$(DEBUG_DEPS)"

debug-kernel: deps-debug
	selftests/debug-kernel

check-debug: deps-debug
	$(MAKE) tool
	selftests/check-debug

in-tree:
	@test -n "$(KTREE)" || { echo "usage: make in-tree KTREE=<kernel tree>" >&2; exit 1; }
	kmod/in-tree $(KTREE)

demo: deps
	$(MAKE) all
	selftests/vm-run --vms 2 --peer-cmd selftests/peer.sh -- \
		selftests/demo.sh

bench: deps
	@$(MAKE) -s deps DEPS="$(BENCH_DEPS)"
	$(MAKE) all
	selftests/vm-run --cpus 1 --vms 2 --peer-cmd selftests/bench/ping-peer.sh -- \
		selftests/bench/ping.sh
	selftests/vm-run --vms 2 --peer-cmd selftests/bench/ping-peer.sh -- \
		selftests/bench/ping.sh
	selftests/vm-run -- selftests/bench/sim_ping.sh
	selftests/vm-run -- selftests/bench/mad_path.sh
	selftests/vm-run -- env IBTRACE_BENCH_FABRIC=rxe selftests/bench/mad_path.sh
	selftests/vm-run -- selftests/bench/mad.sh
	selftests/vm-run -- selftests/bench/audit.sh
	selftests/vm-run -- selftests/bench/sim_opensm.sh
	selftests/vm-run -- selftests/bench/sim_traffic.sh
	IBTRACE_BENCH_MAD_RQ=64 IBTRACE_BENCH_MEM_ONLY=1 \
		selftests/vm-run -- selftests/bench/sim_opensm.sh
	selftests/vm-run -- selftests/bench/trace.sh
	$(CC) -O2 -Wall -Wextra -std=gnu11 -o selftests/bench/rnr_user \
		selftests/bench/rnr_user.c -libverbs
	selftests/vm-run --vms 2 --peer-cmd selftests/peer.sh -- \
		selftests/bench/rnr.sh
	selftests/vm-run --vms 2 --peer-cmd selftests/bench/perf-peer.sh -- \
		selftests/bench/perf.sh
	selftests/vm-run --vms 2 --peer-cmd selftests/bench/dapl-peer.sh -- \
		selftests/bench/dapl.sh

man: $(MAN_OUT)

Documentation/man/%: FORCE
	@mkdir -p Documentation/man
	@src=Documentation/$(basename $*).rst; \
	[ $@ -nt $$src ] || { echo "  RST2MAN $@"; \
		rst2man --exit-status=2 --report=2 $$src $@; }

# Debian packages, built by dpkg-buildpackage from a copy of the committed
# tree (or of every file, outside git) so that local build products stay out.
DEB_VERSION := $(shell dpkg-parsechangelog -l debian/changelog -S Version 2>/dev/null)
DEB_STAGE := .build/deb/ibtrace-$(DEB_VERSION)
deb: deps
	rm -rf .build/deb && mkdir -p $(DEB_STAGE)
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
		git ls-files -z | xargs -0 cp --parents -t $(DEB_STAGE); \
	else \
		tar -c --exclude=./.build --exclude=./.git . | tar -x -C $(DEB_STAGE); \
	fi
	cd $(DEB_STAGE) && dpkg-buildpackage -b -us -uc -j$$(nproc) >../build.log 2>&1 || \
		{ tail -30 ../build.log; exit 1; }
	@ls .build/deb/*.deb

# What DKMS does on a user's machine after "dpkg -i ibtrace-dkms", done
# here for KVER in private trees under .build/deb: build both modules from
# the packaged source, then pack them as a binaries-only DKMS tarball.
# ibtrace_deb.sh gives it to the package's postinst (which loads such a
# tarball instead of compiling) so that the test VM, which emulates its
# CPU, does not spend a quarter of an hour in the compiler.
DKMS_TREES := --sourcetree $(CURDIR)/.build/deb/root/usr/src \
	--dkmstree $(CURDIR)/.build/deb/dkms --installtree $(CURDIR)/.build/deb/inst
dkms-tarball: deb
	rm -rf .build/deb/root .build/deb/dkms .build/deb/inst
	dpkg-deb -x .build/deb/ibtrace-dkms_$(DEB_VERSION)_all.deb .build/deb/root
	mkdir -p .build/deb/dkms .build/deb/inst
	dkms build ibtrace/$(DEB_VERSION) -k $(KVER) $(DKMS_TREES) \
		>.build/deb/dkms.log 2>&1 || { tail -30 .build/deb/dkms.log; exit 1; }
	dkms mktarball ibtrace/$(DEB_VERSION) -k $(KVER) --binaries-only \
		$(DKMS_TREES) --archive ibtrace-$(DEB_VERSION).dkms.tar.gz \
		>>.build/deb/dkms.log 2>&1 || { tail -30 .build/deb/dkms.log; exit 1; }
	mv .build/deb/dkms/ibtrace/$(DEB_VERSION)/tarball/ibtrace-$(DEB_VERSION).dkms.tar.gz \
		.build/deb/ibtrace-$(DEB_VERSION)-$(KVER).dkms.tar.gz
	@ls .build/deb/*.dkms.tar.gz

install: deps all man
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=updates modules_install
	depmod -a $(KVER)
	$(MAKE) -C tool install PREFIX=$(PREFIX)
	for m in $(MAN_OUT); do s=$${m##*.}; \
		install -d $(DESTDIR)$(PREFIX)/share/man/man$$s && \
		install -m 0644 $$m $(DESTDIR)$(PREFIX)/share/man/man$$s/ || exit 1; \
	done

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C tool clean
	-$(MAKE) -C selftests clean KSFT_DIR=$(KSRC)/tools/testing/selftests
	rm -rf $(KSRC) Documentation/man .build

.PHONY: FORCE
FORCE:
