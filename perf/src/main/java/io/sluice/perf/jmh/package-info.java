/**
 * JMH benchmarks of the hot paths: the shuffle operator (range and hash splits next to a plain
 * copy of the same bytes, whole-batch routes against per-row splits on sorted input), the
 * bucket functions (ns per row) and the transport (frames over Aeron ipc and udp next to bare
 * Aeron moving the same bytes). Run them from the runnable jar:
 * {@code java -cp perf/target/sluice.jar org.openjdk.jmh.Main Shuffle} (or {@code Transport}).
 *
 * <p>Depends on shuffle, storage and transport; nothing depends on it.
 */
package io.sluice.perf.jmh;
