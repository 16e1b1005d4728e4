package io.sluice.engine.exec;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.expr.Expr;
import io.sluice.format.ColumnVector;
import io.sluice.format.Schema;
import io.sluice.format.TypeKind;
import io.sluice.shuffle.RangeBoundaries;
import io.sluice.shuffle.RangeBucketFunction;
import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.Batch;
import io.sluice.shuffle.operator.ShuffleCounters;
import io.sluice.shuffle.operator.ShuffleOperator;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import io.sluice.storage.TableSpec;
import io.sluice.storage.TableWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scan of a table stored in key order marks its batches sorted by the key, a filter and a
 * projection passing the key on keep the mark, and a range shuffle on the key then routes a filtered batch that lies in one bucket whole
 * by its first and last keys (no per-row bucketing) and splits the others by runs of the sorted
 * keys; every row still reaches the bucket the per-row bucket function gives it.
 */
class SortedScanTest {
    private static final int BLOCK_ROWS = 1000;
    private static final int ROWS = 8 * BLOCK_ROWS;

    @TempDir
    static Path dir;

    /** A store of table t: k = 0, 3, 6, ... ascending (stored by k), v = row % 10, in blocks of {@link #BLOCK_ROWS}. */
    private static Store sortedStore(final String name) {
        final Store store = Store.create(dir.resolve(name));
        final TableSpec spec = TableSpec.of("t", Schema.parse("k:int64,v:int64")).withPresortedKey("k")
                .withBlockRows(BLOCK_ROWS);
        try (TableWriter writer = store.write(spec)) {
            for (int k = 0; k < ROWS; k++) {
                writer.column(0).appendLong(3L * k);
                writer.column(1).appendLong(k % 10);
                writer.endRow();
            }
            writer.finish().close();
        }
        return store;
    }

    private static List<Batch> scan(final StoreCatalog catalog, final List<String> columns, final Expr filter) {
        final TableScan scan = new TableScan(catalog.table("t"), columns, List.of(), filter);
        final List<Batch> out = new ArrayList<>();
        final Source.Reader reader = scan.openReader();
        for (int m = 0; m < scan.morselCount(); m++) {
            reader.produce(m, out::add);
        }
        return out;
    }

    @Test
    void filteredBatchesOfASortedTableStaySortedAndRouteWholeByTheirEnds() {
        final Store store = sortedStore("store");
        try (StoreCatalog catalog = new StoreCatalog(store)) {
            // The key second in the projection, and a filter keeping 3 rows of 10: the batches are copies.
            final List<Batch> batches = scan(catalog, List.of("v", "k"), Expr.lt(col("v"), Expr.lit(3)));
            assertThat(batches).hasSize(ROWS / BLOCK_ROWS);
            for (final Batch b : batches) {
                assertThat(b.rowCount()).isEqualTo(BLOCK_ROWS * 3 / 10);
                assertThat(b.sortedBy()).isEqualTo(1);
                for (int i = 1; i < b.rowCount(); i++) {
                    assertThat(b.column(1).key(i)).isGreaterThan(b.column(1).key(i - 1));
                }
            }
            assertThat(scan(catalog, List.of("v"), null)).allSatisfy(b -> assertThat(b.sortedBy())
                    .isEqualTo(Batch.NOT_SORTED));
            // A projection that passes the key on keeps the order, under the key's new position.
            final io.sluice.engine.expr.RowType scanned = new TableScan(catalog.table("t"), List.of("v", "k"), List.of(),
                    null).rowType();
            final List<Batch> projected = new ArrayList<>();
            final Operator projection = new Projection(scanned, List.of(new io.sluice.engine.expr.NamedExpr("twice",
                    Expr.mul(col("v"), Expr.lit(2))), io.sluice.engine.expr.NamedExpr.column("k")))
                    .create(projected::add);
            batches.forEach(projection::accept);
            assertThat(projected).hasSize(batches.size()).allSatisfy(b -> assertThat(b.sortedBy()).isEqualTo(1));
            final List<Batch> dropped = new ArrayList<>();
            final Operator dropping = new Projection(scanned, List.of(io.sluice.engine.expr.NamedExpr.column("v")))
                    .create(dropped::add);
            batches.forEach(dropping::accept);
            assertThat(dropped).allSatisfy(b -> assertThat(b.sortedBy()).isEqualTo(Batch.NOT_SORTED));

            // Cuts inside blocks 2 and 5 (keys 3 x 2000..2999 and 3 x 5000..5999): those two split, six route whole.
            final RangeBucketFunction range = new RangeBucketFunction(TypeKind.INT64, new long[] {3 * 2500, 3 * 5500});
            final Schema schema = Schema.parse("v:int64,k:int64");
            final ShuffleOperator shuffle = new ShuffleOperator(schema, 1, range);
            final long[] expected = new long[range.bucketCount()];
            final long[] received = new long[range.bucketCount()];
            final int[] buckets = new int[BLOCK_ROWS];
            for (final Batch b : batches) {
                range.buckets(new ColumnVector[] {b.column(1)}, b.rowCount(), buckets);
                for (int i = 0; i < b.rowCount(); i++) {
                    expected[buckets[i]]++;
                }
                shuffle.addInput(b);
                drain(shuffle, received);
            }
            shuffle.finish();
            drain(shuffle, received);
            final ShuffleCounters counters = shuffle.counters();
            assertThat(counters.wholeBatchRoutes()).isEqualTo(6);
            assertThat(counters.wholeAfterBucketing()).as("whole by first and last key, before any per-row work")
                    .isZero();
            assertThat(counters.splitBatches()).isEqualTo(2);
            assertThat(received).containsExactly(expected);
        }
    }

    @Test
    void aColocatedScanHandsEachBucketItsRowsInKeyOrderStraddlingBlocksIncluded() {
        final Store store = sortedStore("colocated");
        try (StoreCatalog catalog = new StoreCatalog(store)) {
            // Cuts inside blocks 2 and 5: bucket 1 reads the tail of block 2, blocks 3 and 4 whole, the head of 5.
            final long[] cuts = {3 * 2500, 3 * 5500};
            final ColocatedScan scan = new ColocatedScan(new TableScan(catalog.table("t"), List.of("k", "v"), List.of(),
                    null), 0, RangeBoundaries.of(TypeKind.INT64, cuts, Topology.parse("1x3")));
            final RangeBucketFunction range = new RangeBucketFunction(TypeKind.INT64, cuts);
            final Source.Reader reader = scan.openReader();
            long rows = 0;
            for (int morsel = 0; morsel < scan.morselCount(); morsel++) {
                final int m = morsel;
                final List<Long> keys = new ArrayList<>();
                reader.produce(m, b -> {
                    for (int i = 0; i < b.rowCount(); i++) {
                        keys.add(b.column(0).key(i));
                    }
                });
                assertThat(keys).as("bucket %d", m).isNotEmpty().isSorted().doesNotHaveDuplicates()
                        .allSatisfy(k -> assertThat(range.bucket(k)).isEqualTo(m));
                rows += keys.size();
            }
            assertThat(rows).isEqualTo(ROWS);
        }
    }

    private static void drain(final ShuffleOperator shuffle, final long[] received) {
        for (Batch out = shuffle.getOutput(); out != null; out = shuffle.getOutput()) {
            received[out.shuffleIdx()] += out.rowCount();
            out.release();
        }
    }
}
