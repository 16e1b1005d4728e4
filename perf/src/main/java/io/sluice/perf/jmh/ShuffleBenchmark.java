package io.sluice.perf.jmh;

import io.sluice.format.LongVector;
import io.sluice.format.Schema;
import io.sluice.format.TypeKind;
import io.sluice.shuffle.HashBucketFunction;
import io.sluice.shuffle.HeavyKeyBucketFunction;
import io.sluice.shuffle.HeavyKeySet;
import io.sluice.shuffle.RangeBucketFunction;
import io.sluice.shuffle.operator.Batch;
import io.sluice.shuffle.operator.BatchHandler;
import io.sluice.shuffle.operator.ShuffleOperator;
import io.sluice.shuffle.operator.ShuffleOptions;
import io.sluice.shuffle.operator.WholeBatchRouting;
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
 * The shuffle operator on one core, in rows per second: 8192-row batches of a long key and three
 * long payload columns, split by range or hash into {@code buckets} buckets, next to a plain copy of
 * the same bytes (the ceiling a split cannot beat); and, on sorted input whose batches each lie in
 * one bucket, the whole-batch route against the per-row split of the same rows (batches stripped
 * of zonemaps and sort order) and against the run split (sort order kept, whole routes off); and, on
 * unsorted batches without zonemaps that each lie in one bucket, the whole route found by bucketing
 * the rows against the copy into bucket buffers of the same rows (whole routes off).
 *
 * <p>The operators stream without end: bucket buffers fill and are emitted to a handler that only
 * counts rows, as a dispatch that hands batches on would.
 *
 * <p>Run: {@code java -cp perf/target/sluice.jar org.openjdk.jmh.Main 'ShuffleBenchmark.(rangeShuffle|hashShuffle|plainCopy)$'}.
 * Its past measurements, and a profile of where the split spends its time, are in CHANGELOG.md.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
        "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "-Dchronicle.analytics.disable=true"})
public class ShuffleBenchmark {
    static final int UNIFORM_BATCHES = 16;
    /** Enough sorted batches that every bucket (up to 64) gets whole batches. */
    static final int SORTED_BATCHES = 128;
    static final Schema SCHEMA = Schema.parse("k:int64,a:int64,b:int64,c:int64");

    @Param({"6", "64"})
    int buckets;

    Batch[] uniform;
    Batch[] sorted;
    Batch[] sortedUnmarked;
    Batch[] clustered;
    ShuffleOperator range;
    ShuffleOperator hash;
    ShuffleOperator rangePerKey;
    ShuffleOperator sortedWhole;
    ShuffleOperator sortedPerRow;
    ShuffleOperator sortedRuns;
    ShuffleOperator clusteredWhole;
    ShuffleOperator clusteredCopied;
    long[][] copyTargets;
    long[][][] rotatingTargets;
    int nextTarget;
    long rowsSeen;
    final BatchHandler handler = batch -> rowsSeen += batch.rowCount();

    @Setup
    public void setup() {
        uniform = BenchmarkData.uniform(UNIFORM_BATCHES, 42);
        sorted = BenchmarkData.sorted(SORTED_BATCHES, 43);
        sortedUnmarked = new Batch[SORTED_BATCHES];
        for (int b = 0; b < SORTED_BATCHES; b++) {
            sortedUnmarked[b] = Batch.of(sorted[b].column(0), sorted[b].column(1), sorted[b].column(2), sorted[b].column(3));
        }
        final int[] key = {0};
        final ShuffleOptions options = ShuffleOptions.defaults();
        final RangeBucketFunction equal = new RangeBucketFunction(TypeKind.INT64,
                BenchmarkData.equalCuts(buckets, BenchmarkData.KEY_SPAN));
        range = new ShuffleOperator(SCHEMA, key, equal, options);
        hash = new ShuffleOperator(SCHEMA, key, new HashBucketFunction(buckets, TypeKind.INT64), options);
        // Per-key dispatch with four heavy keys inside the key range (rare in uniform data): what the set lookup
        // per row and the split it forces cost.
        final long span = BenchmarkData.KEY_SPAN;
        rangePerKey = new ShuffleOperator(SCHEMA, key, HeavyKeyBucketFunction.localFirst(equal, TypeKind.INT64,
                HeavyKeySet.of(span / 5, 2 * span / 5, 3 * span / 5, 4 * span / 5), 0, buckets, true), options);
        // Cut points on batch boundaries, so that every sorted batch lies inside one bucket.
        final long[] sortedCuts = new long[buckets - 1];
        for (int i = 1; i < buckets; i++) {
            sortedCuts[i - 1] = (long) (i * SORTED_BATCHES / buckets) * BenchmarkData.ROWS;
        }
        final RangeBucketFunction sortedFunction = new RangeBucketFunction(TypeKind.INT64, sortedCuts);
        sortedWhole = new ShuffleOperator(SCHEMA, key, sortedFunction, options.withRouting(WholeBatchRouting.WHEN_PROVEN));
        sortedPerRow = new ShuffleOperator(SCHEMA, key, sortedFunction, options);
        sortedRuns = new ShuffleOperator(SCHEMA, key, sortedFunction, options.withRouting(WholeBatchRouting.NEVER));
        clustered = BenchmarkData.clustered(UNIFORM_BATCHES, buckets, 44);
        clusteredWhole = new ShuffleOperator(SCHEMA, key, equal, options.withRouting(WholeBatchRouting.WHEN_PROVEN));
        clusteredCopied = new ShuffleOperator(SCHEMA, key, equal, options.withRouting(WholeBatchRouting.NEVER));
        copyTargets = new long[BenchmarkData.COLUMNS][BenchmarkData.ROWS];
        rotatingTargets = new long[buckets][BenchmarkData.COLUMNS][BenchmarkData.ROWS];
    }

    @Benchmark
    @OperationsPerInvocation(UNIFORM_BATCHES * BenchmarkData.ROWS)
    public long rangeShuffle() {
        for (final Batch batch : uniform) {
            range.push(batch, handler);
        }
        return rowsSeen;
    }

    /** {@link #rangeShuffle} with heavy keys dispatched apart (none occurring): the cost of the per-row lookup. */
    @Benchmark
    @OperationsPerInvocation(UNIFORM_BATCHES * BenchmarkData.ROWS)
    public long rangeShufflePerKey() {
        for (final Batch batch : uniform) {
            rangePerKey.push(batch, handler);
        }
        return rowsSeen;
    }

    @Benchmark
    @OperationsPerInvocation(UNIFORM_BATCHES * BenchmarkData.ROWS)
    public long hashShuffle() {
        for (final Batch batch : uniform) {
            hash.push(batch, handler);
        }
        return rowsSeen;
    }

    /** The same bytes copied column by column into one batch's worth of arrays: the ceiling. */
    @Benchmark
    @OperationsPerInvocation(UNIFORM_BATCHES * BenchmarkData.ROWS)
    public long plainCopy() {
        for (final Batch batch : uniform) {
            for (int c = 0; c < BenchmarkData.COLUMNS; c++) {
                System.arraycopy(((LongVector) batch.column(c)).values(), 0, copyTargets[c], 0, BenchmarkData.ROWS);
            }
        }
        return copyTargets[0][BenchmarkData.ROWS - 1];
    }

    /**
     * The same bytes copied into {@code buckets} batch-sized destinations in turn: a plain copy with
     * the shuffle's buffer footprint, so that the destination misses the cache as the shuffle's do.
     */
    @Benchmark
    @OperationsPerInvocation(UNIFORM_BATCHES * BenchmarkData.ROWS)
    public long plainCopyIntoBucketSizedBuffers() {
        for (final Batch batch : uniform) {
            final long[][] target = rotatingTargets[nextTarget];
            nextTarget = nextTarget + 1 == buckets ? 0 : nextTarget + 1;
            for (int c = 0; c < BenchmarkData.COLUMNS; c++) {
                System.arraycopy(((LongVector) batch.column(c)).values(), 0, target[c], 0, BenchmarkData.ROWS);
            }
        }
        return rotatingTargets[0][0][0];
    }

    @Benchmark
    @OperationsPerInvocation(SORTED_BATCHES * BenchmarkData.ROWS)
    public long sortedWholeBatch() {
        for (final Batch batch : sorted) {
            sortedWhole.push(batch, handler);
        }
        return rowsSeen;
    }

    @Benchmark
    @OperationsPerInvocation(SORTED_BATCHES * BenchmarkData.ROWS)
    public long sortedPerRow() {
        for (final Batch batch : sortedUnmarked) {
            sortedPerRow.push(batch, handler);
        }
        return rowsSeen;
    }

    /** Sorted batches split without whole routes: each bucket's rows are one run, copied in bulk. */
    @Benchmark
    @OperationsPerInvocation(SORTED_BATCHES * BenchmarkData.ROWS)
    public long sortedRuns() {
        for (final Batch batch : sorted) {
            sortedRuns.push(batch, handler);
        }
        return rowsSeen;
    }

    /** Batches in one bucket each, without zonemaps: bucketed, then passed on whole. */
    @Benchmark
    @OperationsPerInvocation(UNIFORM_BATCHES * BenchmarkData.ROWS)
    public long clusteredWholeAfterBucketing() {
        for (final Batch batch : clustered) {
            clusteredWhole.push(batch, handler);
        }
        return rowsSeen;
    }

    /** The same batches with whole routes off: bucketed and copied into bucket buffers. */
    @Benchmark
    @OperationsPerInvocation(UNIFORM_BATCHES * BenchmarkData.ROWS)
    public long clusteredCopied() {
        for (final Batch batch : clustered) {
            clusteredCopied.push(batch, handler);
        }
        return rowsSeen;
    }
}
