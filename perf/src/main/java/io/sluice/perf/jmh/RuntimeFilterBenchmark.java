package io.sluice.perf.jmh;

import io.sluice.engine.filter.FilterKind;
import io.sluice.engine.filter.FilterPartial;
import io.sluice.engine.filter.RuntimeFilter;
import io.sluice.engine.filter.RuntimeFilterConfig;
import io.sluice.engine.filter.RuntimeFilterMode;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The runtime filter kinds' row tests on one core, in nanoseconds per probe row: each invocation tests
 * one 8192-row batch of integer keys drawn uniformly from the build's key range, a {@code passRate}
 * share of which are build keys, through the selection a probe scan uses
 * ({@link RuntimeFilter#retainValues}). {@code kind=bitset} is the exact bitset over the range, {@code bloom}
 * the split-block Bloom filter at 1% false positives (what keys too far apart for a bitset get), both of
 * {@code buildKeys} keys. A binary search of a 1,000-key IN list, which rows were tested by before, was
 * several times slower than either (measurements in CHANGELOG.md).
 * Compare with {@code HashJoinBenchmark.probe}: a filter pays when it is several times cheaper per
 * row than the join probe it saves.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
        "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "-Dchronicle.analytics.disable=true"})
public class RuntimeFilterBenchmark {
    static final int ROWS = 8192;
    static final int BATCHES = 16;

    /** Which kind tests the rows. */
    @Param({"bitset", "bloom"})
    String kind;

    /** Distinct build keys. */
    @Param({"1000", "100000"})
    int buildKeys;

    /** Share of probe rows whose key is a build key. */
    @Param({"0.1", "0.5"})
    double passRate;

    RuntimeFilter filter;
    long[][] batches;
    int[] rows;
    int next;

    @Setup
    public void setUp() {
        final long span = (long) (buildKeys / passRate);
        final SplittableRandom random = new SplittableRandom(42);
        final long[] keys = new long[buildKeys];
        for (int i = 0; i < buildKeys; i++) {
            // Every build key in its own slot of the range: distinct, a passRate share of all values.
            final long slot = span / buildKeys;
            keys[i] = i * slot + random.nextLong(slot);
        }
        final FilterPartial partial = FilterPartial.integerKey(1024);
        partial.addValues(keys, keys.length);
        final RuntimeFilterConfig defaults = RuntimeFilterConfig.defaults();
        final RuntimeFilterConfig config = new RuntimeFilterConfig(RuntimeFilterMode.GLOBAL, 0,
                0, kind.equals("bitset") ? 1 << 20 : 0, 0.01,
                defaults.bloomMinBytes(), 1 << 20, defaults.sampleRows(), defaults.minRejection());
        filter = partial.finish(config);
        final FilterKind expected = kind.equals("bitset") ? FilterKind.BITMAP : FilterKind.BLOOM;
        if (!filter.kinds().contains(expected)) {
            throw new IllegalStateException("kind " + kind + " made " + filter);
        }
        batches = new long[BATCHES][ROWS];
        for (final long[] batch : batches) {
            for (int i = 0; i < ROWS; i++) {
                batch[i] = random.nextLong(span);
            }
        }
        rows = new int[ROWS];
    }

    /** Tests one batch: every row selected, the kept ones compacted to the front. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public int retain() {
        final long[] values = batches[next];
        next = (next + 1) & (BATCHES - 1);
        for (int i = 0; i < ROWS; i++) {
            rows[i] = i;
        }
        return filter.retainValues(values, rows, ROWS);
    }
}
