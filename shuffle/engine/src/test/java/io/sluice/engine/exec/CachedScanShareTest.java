package io.sluice.engine.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.format.Schema;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import io.sluice.storage.TableSpec;
import io.sluice.storage.TableWriter;
import io.sluice.zonemap.Predicate;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

/**
 * A CN's share of a scan no colocation pins: round-robin without caches, the blocks its cache holds with them, and
 * the CNs' shares together every block the zonemaps leave in, once.
 */
class CachedScanShareTest {
    private static final int BLOCK_ROWS = 100;
    private static final int BLOCKS = 9;

    @TempDir
    Path dir;

    /** Table t: k = 0, 1, 2, ... in blocks of {@link #BLOCK_ROWS}. */
    private Store store() {
        final Store store = Store.create(dir.resolve("store"));
        final TableSpec spec = TableSpec.of("t", Schema.parse("k:int64")).withPresortedKey("k")
                .withBlockRows(BLOCK_ROWS);
        try (TableWriter writer = store.write(spec)) {
            for (int k = 0; k < BLOCKS * BLOCK_ROWS; k++) {
                writer.column(0).appendLong(k);
                writer.endRow();
            }
            writer.finish().close();
        }
        return store;
    }

    private static int[] share(final StoreCatalog catalog, final List<Predicate> pruning, final int cn,
                               final RoaringBitmap[] cached) {
        return new TableScan(catalog.table("t"), List.of("k"), pruning, null, cn, 3, cached).blocks();
    }

    @Test
    void eachCnReadsTheBlocksItsCacheHoldsInsteadOfItsRoundRobinShare() {
        try (StoreCatalog catalog = new StoreCatalog(store())) {
            assertThat(share(catalog, List.of(), 0, null)).containsExactly(0, 3, 6);
            assertThat(share(catalog, List.of(), 1, null)).containsExactly(1, 4, 7);
            final RoaringBitmap[] cached = {RoaringBitmap.bitmapOf(0, 1, 2), RoaringBitmap.bitmapOf(3, 4, 5),
                RoaringBitmap.bitmapOf(6, 7, 8)};
            assertThat(share(catalog, List.of(), 0, cached)).containsExactly(0, 1, 2);
            assertThat(share(catalog, List.of(), 1, cached)).containsExactly(3, 4, 5);
            assertThat(share(catalog, List.of(), 2, cached)).containsExactly(6, 7, 8);
        }
    }

    @Test
    void theSharesOfAPrunedScanCoverTheBlocksLeftInOnce() {
        try (StoreCatalog catalog = new StoreCatalog(store())) {
            // k >= 250 leaves blocks 2..8; CN 0 caches all of them, CN 2 nothing is known of.
            final List<Predicate> pruning = List.of(Predicate.ge("k", 250));
            final RoaringBitmap[] cached = {RoaringBitmap.bitmapOfRange(0, BLOCKS), RoaringBitmap.bitmapOf(8), null};
            final RoaringBitmap all = new RoaringBitmap();
            int total = 0;
            for (int cn = 0; cn < 3; cn++) {
                final int[] blocks = share(catalog, pruning, cn, cached);
                // 7 blocks: a fair share of 3, plus a slack of 1.
                assertThat(blocks.length).as("blocks of CN %d", cn).isLessThanOrEqualTo(4);
                all.add(blocks);
                total += blocks.length;
            }
            assertThat(all.toArray()).containsExactly(2, 3, 4, 5, 6, 7, 8);
            assertThat(total).isEqualTo(7);
            assertThat(share(catalog, pruning, 0, cached)).containsExactly(2, 3, 4, 5);
            assertThat(share(catalog, pruning, 1, cached)).contains(8);
        }
    }
}
