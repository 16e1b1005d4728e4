package io.sluice.perf.jmh;

import io.sluice.format.Block;
import io.sluice.format.ColumnVector;
import io.sluice.format.LongVector;
import io.sluice.shuffle.operator.Batch;
import java.util.SplittableRandom;

/** Input batches for the benchmarks: a long key and three long payload columns, 8192 rows each. */
final class BenchmarkData {
    static final int ROWS = Block.MAX_ROWS;
    static final int COLUMNS = 4;
    /** Keys are drawn from {@code [0, KEY_SPAN)}; range cut points split that span evenly. */
    static final long KEY_SPAN = 1L << 30;

    private BenchmarkData() {
    }

    /** Batches whose keys are uniform over the whole span: every batch splits. */
    static Batch[] uniform(final int batches, final long seed) {
        final SplittableRandom random = new SplittableRandom(seed);
        final Batch[] out = new Batch[batches];
        for (int b = 0; b < batches; b++) {
            final long[] keys = new long[ROWS];
            for (int r = 0; r < ROWS; r++) {
                keys[r] = random.nextLong(KEY_SPAN);
            }
            out[b] = batch(keys, random);
        }
        return out;
    }

    /**
     * Batches of unsorted keys without zonemaps, each batch's keys drawn from one of {@code buckets}
     * equal parts of the span in turn: every batch lies in one range bucket, but only bucketing its
     * rows shows it.
     */
    static Batch[] clustered(final int batches, final int buckets, final long seed) {
        final SplittableRandom random = new SplittableRandom(seed);
        final long part = KEY_SPAN / buckets;
        final Batch[] out = new Batch[batches];
        for (int b = 0; b < batches; b++) {
            final long low = (b % buckets) * part;
            final long[] keys = new long[ROWS];
            for (int r = 0; r < ROWS; r++) {
                keys[r] = low + random.nextLong(part);
            }
            out[b] = batch(keys, random);
        }
        return out;
    }

    /** Batches of ascending keys {@code b * ROWS + r}, carrying their zonemaps as a scan of sorted blocks would. */
    static Batch[] sorted(final int batches, final long seed) {
        final SplittableRandom random = new SplittableRandom(seed);
        final Batch[] out = new Batch[batches];
        for (int b = 0; b < batches; b++) {
            final long[] keys = new long[ROWS];
            for (int r = 0; r < ROWS; r++) {
                keys[r] = (long) b * ROWS + r;
            }
            final Batch batch = batch(keys, random);
            final ColumnVector[] columns = new ColumnVector[COLUMNS];
            for (int c = 0; c < COLUMNS; c++) {
                columns[c] = batch.column(c);
            }
            out[b] = Batch.of(Block.of(columns)).withSortedBy(0);
        }
        return out;
    }

    private static Batch batch(final long[] keys, final SplittableRandom random) {
        final ColumnVector[] columns = new ColumnVector[COLUMNS];
        columns[0] = LongVector.ofInt64(keys);
        for (int c = 1; c < COLUMNS; c++) {
            final long[] values = new long[ROWS];
            for (int r = 0; r < ROWS; r++) {
                values[r] = random.nextLong();
            }
            columns[c] = LongVector.ofInt64(values);
        }
        return Batch.of(columns);
    }

    /** {@code bucketCount - 1} cut points splitting {@code [0, span)} into equal ranges. */
    static long[] equalCuts(final int bucketCount, final long span) {
        final long[] cuts = new long[bucketCount - 1];
        for (int i = 1; i < bucketCount; i++) {
            cuts[i - 1] = span / bucketCount * i;
        }
        return cuts;
    }
}
