/**
 * Runtime filters (seed 004): what a join's build side learns about its keys while it builds, in a
 * form a probe scan can test blocks and rows against before it reads, shuffles or sends them. One
 * kind per file: {@link io.sluice.engine.filter.MinMaxRange} (always), {@link io.sluice.engine.filter.InList}
 * (small builds, for zonemaps), {@link io.sluice.engine.filter.ExactBitmap} (integer keys, no false positives;
 * what partials merge and send) tested on rows as a {@link io.sluice.engine.filter.KeyBitset}, and
 * {@link io.sluice.engine.filter.SplitBlockBloomFilter} (everything else, merged by OR). A
 * {@link io.sluice.engine.filter.FilterPartial} collects one bucket's keys and merges with others;
 * {@link io.sluice.engine.filter.FilterPartial#finish} chooses the kinds of the
 * {@link io.sluice.engine.filter.RuntimeFilter} probes test; {@link io.sluice.engine.filter.RuntimeFilterCodec}
 * carries both across processes.
 *
 * <p>Works on primitive arrays of key values and key hashes only (no batches, no expressions); depends
 * on RoaringBitmap and {@code io.sluice.engine.wire}.
 */
package io.sluice.engine.filter;
