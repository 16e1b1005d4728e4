/**
 * Bucketing: the {@link io.sluice.shuffle.Topology} of a query (CNs x cores = buckets) and the
 * {@link io.sluice.shuffle.BucketFunction}s that map keys to buckets, range (ordered, can colocate,
 * can place a whole zonemap) and hash (needs no statistics). The planner that chooses strategies,
 * boundaries and colocated scan assignments lives here too; the operators that use the functions
 * are in {@code io.sluice.shuffle.operator}.
 *
 * <p>Depends on zonemap and storage.
 */
package io.sluice.shuffle;
