/**
 * Bucketing (range and hash), the shuffle operator that tags batches with a {@code shuffleIdx},
 * the planner that chooses strategies, boundaries and colocated scan assignments, and the
 * operators and pipelines a query runs.
 *
 * <p>Depends on zonemap and storage.
 */
package io.sluice.shuffle;
