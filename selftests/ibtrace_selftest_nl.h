/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The generic netlink helpers ibtrace_nlraw and ibtrace_nlsweep share
 * (libnl). Include it after ibtrace_selftest.h and the program's
 * EXIT_LOCAL (the exit code of a local failure).
 */
#ifndef IBTRACE_SELFTEST_NL_H
#define IBTRACE_SELFTEST_NL_H

#include <string.h>

#include <netlink/msg.h>

/*
 * The last message @nlh of an answer (an error, a done or a reply): its
 * error (a negative errno, 0: none; a reply has none) into *@err, and
 * the attributes of its extended ACK into @tb (NLMSGERR_ATTR_MAX + 1
 * slots, left as they are when it has none). Returns 0, or
 * nlmsg_parse()'s error when the extended ACK is malformed; exits
 * (fail()) on a short NLMSG_ERROR.
 */
static inline int st_nl_ack(struct nlmsghdr *nlh, struct nlattr **tb,
			    int *err)
{
	struct nlmsgerr *e = nlmsg_data(nlh);
	int tlv_off = sizeof(*err);

	*err = 0;
	if (nlh->nlmsg_type == NLMSG_ERROR) {
		if (nlmsg_datalen(nlh) < (int)sizeof(*e))
			fail(EXIT_LOCAL, "short NLMSG_ERROR");
		*err = e->error;
		tlv_off = sizeof(*e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))	/* request echoed */
			tlv_off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	} else if (nlh->nlmsg_type == NLMSG_DONE &&
		   nlmsg_datalen(nlh) >= (int)sizeof(*err)) {
		memcpy(err, nlmsg_data(nlh), sizeof(*err));
	}
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return 0;
	return nlmsg_parse(nlh, tlv_off, tb, NLMSGERR_ATTR_MAX, NULL);
}

#endif /* IBTRACE_SELFTEST_NL_H */
