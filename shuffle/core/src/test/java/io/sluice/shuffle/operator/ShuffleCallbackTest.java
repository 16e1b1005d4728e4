package io.sluice.shuffle.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.format.LongVector;
import io.sluice.format.Schema;
import io.sluice.format.TypeKind;
import io.sluice.shuffle.RangeBucketFunction;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A storage engine runs the shuffle operator over batches of its own, push-style with a callback. */
class ShuffleCallbackTest {
    @Test
    void shuffleOwnBatchesWithACallback() {
        // Two batches of (key, value) rows from the engine; the second knows it is sorted by key.
        final Schema schema = Schema.parse("k:int64,v:int64");
        final Batch mixed = Batch.of(LongVector.ofInt64(5, 250, 120, 7), LongVector.ofInt64(1, 2, 3, 4));
        final Batch sorted = Batch.of(LongVector.ofInt64(300, 301, 302), LongVector.ofInt64(5, 6, 7))
                .withSortedBy(0);

        // Three buckets: keys below 100, [100, 200), 200 and above.
        final RangeBucketFunction buckets = new RangeBucketFunction(TypeKind.INT64, new long[] {100, 200});
        final List<String> received = new ArrayList<>();
        final ShuffleCounters counters = ShuffleOperator.run(schema, new int[] {0}, buckets,
                ShuffleOptions.defaults(), List.of(mixed, sorted), batch -> {
                    // Called once per emitted bucket batch; copy what you keep, the memory is pooled.
                    final long[] keys = ((LongVector) batch.column(0)).values();
                    for (int row = 0; row < batch.rowCount(); row++) {
                        received.add("bucket " + batch.shuffleIdx() + ": " + keys[row]);
                    }
                });

        assertThat(received).containsExactlyInAnyOrder("bucket 0: 5", "bucket 0: 7", "bucket 1: 120",
                "bucket 2: 250", "bucket 2: 300", "bucket 2: 301", "bucket 2: 302");
        assertThat(counters.wholeBatchRoutes()).isEqualTo(1); // the sorted batch moved without per-row work
        assertThat(counters.rowsOut()).isEqualTo(7);
    }
}
