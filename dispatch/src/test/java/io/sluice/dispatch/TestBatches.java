package io.sluice.dispatch;

import io.sluice.format.ColumnType;
import io.sluice.format.Field;
import io.sluice.format.LongVector;
import io.sluice.format.Schema;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Batches of (id, value) rows whose ids name their sender and whose value is a function of the id. */
final class TestBatches {
    static final Schema SCHEMA = Schema.of(new Field("id", ColumnType.INT64), new Field("v", ColumnType.INT64));

    private TestBatches() {
    }

    /** The value column for an id: a received row whose value differs was corrupted. */
    static long valueOf(final long id) {
        return id * 31 + 7;
    }

    /** A batch of the given ids, tagged with {@code shuffleIdx} (or untagged when negative). */
    static Batch batch(final long[] ids, final int shuffleIdx) {
        final long[] values = new long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            values[i] = valueOf(ids[i]);
        }
        final Batch batch = Batch.of(LongVector.ofInt64(ids), LongVector.ofInt64(values));
        return shuffleIdx < 0 ? batch : batch.withShuffleIdx(shuffleIdx);
    }

    /**
     * Random batches for sender {@code sender}: 0 to {@code maxRows} rows each (empty ones included),
     * shuffleIdx uniform over {@code buckets}; ids are {@code sender * 10^9 + n}, unique cluster-wide.
     */
    static List<Batch> random(final int sender, final int batches, final int maxRows, final int buckets,
            final SplittableRandom random) {
        final List<Batch> out = new ArrayList<>(batches);
        long next = sender * 1_000_000_000L;
        for (int b = 0; b < batches; b++) {
            final long[] ids = new long[random.nextInt(maxRows + 1)];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = next++;
            }
            out.add(batch(ids, random.nextInt(buckets)));
        }
        return out;
    }

    /** The ids of a batch's rows, checking each value on the way. */
    static void collectIds(final Batch batch, final List<Long> into) {
        final LongVector ids = (LongVector) batch.column(0);
        final LongVector values = (LongVector) batch.column(1);
        for (int r = 0; r < batch.rowCount(); r++) {
            final long id = ids.get(r);
            if (values.get(r) != valueOf(id)) {
                throw new AssertionError("row " + id + " arrived with value " + values.get(r) + ", sent " + valueOf(id));
            }
            into.add(id);
        }
    }
}
