/**
 * JMH benchmarks of the hot paths: the shuffle operator (range and hash splits next to a plain
 * copy of the same bytes, whole-batch routes against per-row splits on sorted input) and the
 * bucket functions (ns per row). Run them from the runnable jar:
 * {@code java -cp perf/target/sluice.jar org.openjdk.jmh.Main Shuffle}.
 *
 * <p>Depends on shuffle and storage; nothing depends on it.
 */
package io.sluice.perf.jmh;
