package io.sluice.dispatch.explain;

import io.sluice.shuffle.BucketFunction;
import java.util.Set;

/**
 * How an operator's output rows are bucketed where the plan keeps them in the buckets an earlier
 * colocated scan or shuffle put them in: the columns holding the key, the buckets, and whether they
 * were read in place (a colocated scan) rather than shuffled.
 */
record Bucketing(Set<String> columns, BucketFunction function, boolean colocated) {
}
