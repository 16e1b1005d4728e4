package io.sluice.engine.plan;

import static io.sluice.engine.plan.LocalExchangeType.ADAPTIVE_PASSTHROUGH;
import static io.sluice.engine.plan.LocalExchangeType.BROADCAST;
import static io.sluice.engine.plan.LocalExchangeType.BUCKET_HASH_SHUFFLE;
import static io.sluice.engine.plan.LocalExchangeType.HASH_SHUFFLE;
import static io.sluice.engine.plan.LocalExchangeType.NOOP;
import static io.sluice.engine.plan.LocalExchangeType.PASSTHROUGH;
import static io.sluice.engine.plan.LocalExchangeType.PASS_TO_ONE;

/**
 * Seed 000's per-operator tables, one constant per row: the local exchange an operator needs in front
 * of each input, before the {@link GeneralRule general rules} (which take precedence) apply. Joins have
 * a build and a probe input; the other operators one input, in {@link #input}.
 *
 * <p>Four rows have no plan in this engine: a window sorts its partitions itself and is never
 * colocated ({@link #ANALYTIC_PARTITION_COLOCATE}, {@link #ANALYTIC_OTHER}), a union's inputs are not
 * stored buckets ({@link #SET_OPERATION_COLOCATE}), and NOT IN is a hash join
 * ({@link #NL_JOIN_NULL_AWARE_ANTI}).
 */
public enum LocalExchangeRule {
    /** Hash join rule 1: a broadcast join. */
    HASH_JOIN_BROADCAST("hash join", 1, "broadcast", PASS_TO_ONE, PASSTHROUGH),
    /** Hash join rule 2: a null-aware left anti join (NOT IN). */
    HASH_JOIN_NULL_AWARE_ANTI("hash join", 2, "null-aware left anti join", NOOP, NOOP),
    /** Hash join rule 3: a bucket shuffle join: one side keeps its buckets, the other is shuffled to them (PKEY). */
    HASH_JOIN_BUCKET_SHUFFLE("hash join", 3, "bucket shuffle join", BUCKET_HASH_SHUFFLE, BUCKET_HASH_SHUFFLE),
    /** Hash join rule 4: a colocate join (both sides in the same buckets). */
    HASH_JOIN_COLOCATE("hash join", 4, "colocate join", BUCKET_HASH_SHUFFLE, BUCKET_HASH_SHUFFLE),
    /** Hash join rule 5: any other (shuffled) join. */
    HASH_JOIN_OTHER("hash join", 5, "other", HASH_SHUFFLE, HASH_SHUFFLE),
    /** Aggregation rule 1: a colocated group-by. */
    AGG_COLOCATE("aggregation", 1, "colocate agg", null, BUCKET_HASH_SHUFFLE),
    /** Aggregation rule 2: a streaming (partial, per-core) aggregation: each core's table, merged after. */
    AGG_STREAMING("aggregation", 2, "streaming agg", null, NOOP),
    /** Aggregation rule 3: a distinct streaming aggregation (a COUNT DISTINCT's sets per group). */
    AGG_DISTINCT_STREAMING("aggregation", 3, "distinct streaming agg", null, HASH_SHUFFLE),
    /** Aggregation rule 4: a blocking aggregation without group keys. */
    AGG_BLOCKING_NO_KEYS("aggregation", 4, "blocking agg without group by key", null, PASSTHROUGH),
    /** Aggregation rule 5: a blocking aggregation with group keys. */
    AGG_BLOCKING_KEYS("aggregation", 5, "blocking agg with group by key", null, HASH_SHUFFLE),
    /** Analytic rule 1: a window without PARTITION BY. */
    ANALYTIC_NO_PARTITION("analytic", 1, "no partition by", null, PASSTHROUGH),
    /** Analytic rule 2, colocated: PARTITION BY without ORDER BY over colocated input. */
    ANALYTIC_PARTITION_COLOCATE("analytic", 2, "partition by, no order by, colocate", null, BUCKET_HASH_SHUFFLE),
    /** Analytic rule 2, not colocated: PARTITION BY without ORDER BY. */
    ANALYTIC_PARTITION("analytic", 2, "partition by, no order by, not colocate", null, HASH_SHUFFLE),
    /** Analytic rule 3: any other window. */
    ANALYTIC_OTHER("analytic", 3, "other", null, NOOP),
    /** Sort rule 1: a partial sort whose runs a merge exchange merges (MERGE SORT). */
    SORT_PARTIAL("sort", 1, "partial sort merged after the shuffle", null, PASSTHROUGH),
    /** Sort rule 2: any other sort. */
    SORT_OTHER("sort", 2, "other", null, NOOP),
    /** Set operation rule 1: colocated inputs. */
    SET_OPERATION_COLOCATE("set operation", 1, "colocate", null, BUCKET_HASH_SHUFFLE),
    /** Set operation rule 2: any other set operation. */
    SET_OPERATION_OTHER("set operation", 2, "other", null, HASH_SHUFFLE),
    /** Nested-loop join rule 2: a null-aware left anti join. */
    NL_JOIN_NULL_AWARE_ANTI("nested-loop join", 2, "null-aware left anti join", NOOP, NOOP),
    /** Nested-loop join rule 5: any other nested-loop join. */
    NL_JOIN_OTHER("nested-loop join", 5, "other", BROADCAST, ADAPTIVE_PASSTHROUGH),
    /** The assert-rows rule. */
    ASSERT_ROWS("assert rows", 1, "assert rows num", null, PASSTHROUGH);

    private final String operator;
    private final int number;
    private final String when;
    private final LocalExchangeType build;
    private final LocalExchangeType input;

    LocalExchangeRule(final String operator, final int number, final String when, final LocalExchangeType build,
                      final LocalExchangeType input) {
        this.operator = operator;
        this.number = number;
        this.when = when;
        this.build = build;
        this.input = input;
    }

    /** The operator the row is for, as the seed names its table. */
    public String operator() {
        return operator;
    }

    /** The row's number in the seed's table. */
    public int number() {
        return number;
    }

    /** The case the row covers, in the seed's words. */
    public String when() {
        return when;
    }

    /** A join's build side; null for one-input operators. */
    public LocalExchangeType build() {
        return build;
    }

    /** A join's probe side, or the one input of the other operators. */
    public LocalExchangeType input() {
        return input;
    }

    @Override
    public String toString() {
        return operator + " rule " + number + " (" + when + ")";
    }

    /** Seed 000's general rules, which take precedence over the tables. */
    public enum GeneralRule {
        /**
         * 1: after an exchange or a scan reading by storage distribution, a HASH_SHUFFLE or
         * BUCKET_HASH_SHUFFLE is a NOOP (the exchange or the storage already bucketed the rows).
         */
        AFTER_EXCHANGE_OR_STORAGE_SCAN,
        /** 2: when the input's distribution already satisfies the operator (an earlier shuffle), NOOP. */
        ALREADY_SATISFIED,
        /** 3: right after a scan that does not read by storage distribution, a PASSTHROUGH. */
        AFTER_PLAIN_SCAN
    }
}
