/**
 * JMH benchmarks of the hot paths: the shuffle operator (range and hash splits next to a plain
 * copy of the same bytes, whole-batch routes against per-row splits on sorted input), the
 * bucket functions (ns per row), hash join build and probe, hash aggregation, the LIKE and date
 * comparison predicates next to the loops they replaced, the block scan,
 * and the transport (frames over Aeron ipc and udp next to bare Aeron moving the same bytes).
 * Run them all from the runnable jar with {@code java -cp perf/target/sluice.jar
 * org.openjdk.jmh.Main io.sluice.perf.jmh}, or one by a name pattern (e.g. {@code HashJoin}).
 *
 * <p>Depends on shuffle, storage and transport; nothing depends on it.
 */
package io.sluice.perf.jmh;
