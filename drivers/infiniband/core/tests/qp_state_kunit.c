// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite for the QP state machine of ib_core.
 *
 * The expected machine is qp_state_vectors.h, written from the IBTA tables
 * independently of qp_state.c; the host GoogleTest suite checks the same
 * vectors against the same file compiled as C++.
 */
#include <kunit/test.h>
#include <rdma/ib_verbs.h>

#include "qp_state_vectors.h"

#define QP_ATTR_BITS	26

/* every QP type x current state x next state */
#define for_each_qp_combo(type, cur, next)			\
	for (type = 0; type < IB_QPT_MAX; type++)		\
		for (cur = 0; cur < IB_QPS_COUNT; cur++)	\
			for (next = 0; next < IB_QPS_COUNT; next++)

static const struct qp_state_vector *find_vector(unsigned int type,
						 unsigned int cur,
						 unsigned int next)
{
	unsigned int i;

	for (i = 0; i < QP_STATE_VECTOR_COUNT; i++) {
		const struct qp_state_vector *v = &qp_state_vectors[i];

		if (v->type == type && v->cur == cur && v->next == next)
			return v;
	}
	return NULL;
}

static bool edge_is_legal(unsigned int cur, unsigned int next)
{
	return qp_state_legal_next[cur] & (1u << next);
}

/* Every (type, cur, next): legality and attribute sets match the vectors. */
static void qp_state_table_matches_vectors(struct kunit *test)
{
	unsigned int type, cur, next;

	for_each_qp_combo(type, cur, next) {
				const struct qp_state_vector *v;
				u32 req, opt;
				bool legal;

				v = find_vector(type, cur, next);
				legal = ib_qp_transition_attrs(
					(enum ib_qp_state)cur,
					(enum ib_qp_state)next,
					(enum ib_qp_type)type, &req, &opt);
				KUNIT_EXPECT_EQ_MSG(test, legal,
						    edge_is_legal(cur, next),
						    "%s %s->%s",
						    ib_qp_type_str((enum ib_qp_type)type),
						    ib_qp_state_str((enum ib_qp_state)cur),
						    ib_qp_state_str((enum ib_qp_state)next));
				KUNIT_EXPECT_EQ_MSG(test, req, v ? v->req : 0u,
						    "req %u %u->%u", type, cur, next);
				KUNIT_EXPECT_EQ_MSG(test, opt, v ? v->opt : 0u,
						    "opt %u %u->%u", type, cur, next);
			}
}

/* Each legal edge accepts exactly the masks between req and req|opt. */
static void qp_state_legal_transitions_accepted(struct kunit *test)
{
	unsigned int type, cur, next;

	for_each_qp_combo(type, cur, next) {
				const struct qp_state_vector *v;
				u32 req, opt;

				if (!edge_is_legal(cur, next))
					continue;
				v = find_vector(type, cur, next);
				req = v ? v->req : 0;
				opt = v ? v->opt : 0;
				KUNIT_EXPECT_TRUE_MSG(test, ib_modify_qp_is_ok(
					(enum ib_qp_state)cur, (enum ib_qp_state)next,
					(enum ib_qp_type)type,
					(enum ib_qp_attr_mask)(req | IB_QP_STATE)),
					"req only: type %u %u->%u", type, cur, next);
				KUNIT_EXPECT_TRUE_MSG(test, ib_modify_qp_is_ok(
					(enum ib_qp_state)cur, (enum ib_qp_state)next,
					(enum ib_qp_type)type,
					(enum ib_qp_attr_mask)(req | opt | IB_QP_STATE)),
					"req|opt: type %u %u->%u", type, cur, next);
			}
}

/* Dropping any required attribute is refused and the bit is named. */
static void qp_state_missing_attr_refused(struct kunit *test)
{
	unsigned int i, bit;

	for (i = 0; i < QP_STATE_VECTOR_COUNT; i++) {
		const struct qp_state_vector *v = &qp_state_vectors[i];

		for (bit = 0; bit < QP_ATTR_BITS; bit++) {
			u32 b = 1u << bit, bad = 0;

			if (!(v->req & b))
				continue;
			KUNIT_EXPECT_EQ_MSG(test,
				(int)ib_qp_transition_check(
					(enum ib_qp_state)v->cur,
					(enum ib_qp_state)v->next,
					(enum ib_qp_type)v->type,
					(v->req | v->opt | IB_QP_STATE) & ~b, &bad),
				(int)IB_QP_TRANSITION_MISSING,
				"row %u bit %u", i, bit);
			KUNIT_EXPECT_EQ(test, bad, b);
		}
	}
}

/* Adding any attribute outside req|opt|STATE is refused. */
static void qp_state_extra_attr_refused(struct kunit *test)
{
	unsigned int type, cur, next, bit;

	for_each_qp_combo(type, cur, next) {
				const struct qp_state_vector *v;
				u32 allowed;

				if (!edge_is_legal(cur, next))
					continue;
				v = find_vector(type, cur, next);
				allowed = (v ? v->req | v->opt : 0) | IB_QP_STATE;
				for (bit = 0; bit < QP_ATTR_BITS; bit++) {
					u32 b = 1u << bit;
					u32 mask = (v ? v->req : 0) | b;

					if (allowed & b)
						continue;
					KUNIT_EXPECT_FALSE_MSG(test, ib_modify_qp_is_ok(
						(enum ib_qp_state)cur,
						(enum ib_qp_state)next,
						(enum ib_qp_type)type,
						(enum ib_qp_attr_mask)mask),
						"type %u %u->%u bit %u",
						type, cur, next, bit);
				}
			}
}

/* Pairs that are not edges are refused whatever the mask. */
static void qp_state_illegal_edges_refused(struct kunit *test)
{
	unsigned int type, cur, next;

	for_each_qp_combo(type, cur, next) {
				if (edge_is_legal(cur, next))
					continue;
				KUNIT_EXPECT_EQ(test, (int)ib_qp_transition_check(
					(enum ib_qp_state)cur, (enum ib_qp_state)next,
					(enum ib_qp_type)type, IB_QP_STATE, NULL),
					(int)IB_QP_TRANSITION_ILLEGAL);
			}
	/* the classic mistakes */
	KUNIT_EXPECT_FALSE(test, ib_modify_qp_is_ok(IB_QPS_RESET, IB_QPS_RTR,
			   IB_QPT_RC, IB_QP_STATE));
	KUNIT_EXPECT_FALSE(test, ib_modify_qp_is_ok(IB_QPS_RESET, IB_QPS_ERR,
			   IB_QPT_RC, IB_QP_STATE));
	KUNIT_EXPECT_FALSE(test, ib_modify_qp_is_ok(IB_QPS_ERR, IB_QPS_RTS,
			   IB_QPT_UD, IB_QP_STATE));
}

/* CUR_STATE may only be asserted from RTR, RTS, SQD and SQE. */
static void qp_state_cur_state_rule(struct kunit *test)
{
	u32 bad = 0;

	KUNIT_EXPECT_EQ(test, (int)ib_qp_transition_check(IB_QPS_INIT,
			IB_QPS_INIT, IB_QPT_UD, IB_QP_STATE | IB_QP_CUR_STATE,
			&bad), (int)IB_QP_TRANSITION_CUR_STATE);
	KUNIT_EXPECT_EQ(test, bad, (u32)IB_QP_CUR_STATE);
	KUNIT_EXPECT_TRUE(test, ib_modify_qp_is_ok(IB_QPS_SQE, IB_QPS_RTS,
			  IB_QPT_UD, (enum ib_qp_attr_mask)(IB_QP_STATE | IB_QP_CUR_STATE)));
	/* allowed source state, but not optional on this edge */
	KUNIT_EXPECT_EQ(test, (int)ib_qp_transition_check(IB_QPS_RTS,
			IB_QPS_SQD, IB_QPT_RC, IB_QP_STATE | IB_QP_CUR_STATE,
			&bad), (int)IB_QP_TRANSITION_EXTRA);
	/* CUR_STATE is judged before legality */
	KUNIT_EXPECT_EQ(test, (int)ib_qp_transition_check(IB_QPS_RESET,
			IB_QPS_RTS, IB_QPT_RC, IB_QP_CUR_STATE, NULL),
			(int)IB_QP_TRANSITION_CUR_STATE);
}

/* An RC connection brought up the way rdma-core does it. */
static void qp_state_rc_bringup(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, ib_modify_qp_is_ok(IB_QPS_RESET, IB_QPS_INIT,
		IB_QPT_RC, (enum ib_qp_attr_mask)(IB_QP_STATE |
		IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_ACCESS_FLAGS)));
	KUNIT_EXPECT_TRUE(test, ib_modify_qp_is_ok(IB_QPS_INIT, IB_QPS_RTR,
		IB_QPT_RC, (enum ib_qp_attr_mask)(IB_QP_STATE | IB_QP_AV |
		IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN |
		IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER)));
	/* RoCE: the address vector is required on connected QPs */
	KUNIT_EXPECT_FALSE(test, ib_modify_qp_is_ok(IB_QPS_INIT, IB_QPS_RTR,
		IB_QPT_RC, (enum ib_qp_attr_mask)(IB_QP_STATE |
		IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN |
		IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER)));
	KUNIT_EXPECT_TRUE(test, ib_modify_qp_is_ok(IB_QPS_RTR, IB_QPS_RTS,
		IB_QPT_RC, (enum ib_qp_attr_mask)(IB_QP_STATE | IB_QP_TIMEOUT |
		IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | IB_QP_SQ_PSN |
		IB_QP_MAX_QP_RD_ATOMIC)));
}

/* Out-of-range arguments are refused, never used as table indexes. */
static void qp_state_bad_args(struct kunit *test)
{
	u32 req = 1, opt = 1;

	KUNIT_EXPECT_FALSE(test, ib_modify_qp_is_ok((enum ib_qp_state)IB_QPS_COUNT,
			   IB_QPS_RESET, IB_QPT_RC, IB_QP_STATE));
	KUNIT_EXPECT_FALSE(test, ib_modify_qp_is_ok(IB_QPS_RESET,
			   (enum ib_qp_state)-1, IB_QPT_RC, IB_QP_STATE));
	KUNIT_EXPECT_FALSE(test, ib_modify_qp_is_ok(IB_QPS_RESET, IB_QPS_RESET,
			   IB_QPT_MAX, IB_QP_STATE));
	KUNIT_EXPECT_FALSE(test, ib_modify_qp_is_ok(IB_QPS_RESET, IB_QPS_RESET,
			   IB_QPT_DRIVER, IB_QP_STATE));
	KUNIT_EXPECT_FALSE(test, ib_qp_transition_attrs(IB_QPS_RESET,
			   IB_QPS_INIT, IB_QPT_MAX, &req, &opt));
	KUNIT_EXPECT_EQ(test, req, 0u);
	KUNIT_EXPECT_EQ(test, opt, 0u);
	KUNIT_EXPECT_STREQ(test, ib_qp_state_str((enum ib_qp_state)99), "?");
	KUNIT_EXPECT_STREQ(test, ib_qp_type_str(IB_QPT_XRC_TGT), "XRC_TGT");
}

static struct kunit_case qp_state_cases[] = {
	KUNIT_CASE(qp_state_table_matches_vectors),
	KUNIT_CASE(qp_state_legal_transitions_accepted),
	KUNIT_CASE(qp_state_missing_attr_refused),
	KUNIT_CASE(qp_state_extra_attr_refused),
	KUNIT_CASE(qp_state_illegal_edges_refused),
	KUNIT_CASE(qp_state_cur_state_rule),
	KUNIT_CASE(qp_state_rc_bringup),
	KUNIT_CASE(qp_state_bad_args),
	{}
};

static struct kunit_suite qp_state_suite = {
	.name = "ib_core_qp_state",
	.test_cases = qp_state_cases,
};
kunit_test_suite(qp_state_suite);

MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("KUnit tests for the ib_core QP state machine");
