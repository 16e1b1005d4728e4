package io.sluice.zonemap;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.format.Block;
import io.sluice.format.Schema;
import io.sluice.format.StringKey;
import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import io.sluice.storage.TableWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

/** Pruning on hand-made zonemaps and on a sorted table, with the blocks to keep worked out by hand. */
class BlockPrunerTest {
    /** Blocks [0,9], [10,19], all null, [20,29]. */
    private static final ZoneMap[] INTS = {
        new ZoneMap(0, 9, 0, 10), new ZoneMap(10, 19, 2, 10), new ZoneMap(0, 0, 10, 10), new ZoneMap(20, 29, 0, 10)};

    @TempDir
    Path dir;

    private static RoaringBitmap ints(final Predicate p) {
        return BlockPruner.prune(p, TypeKind.INT64, INTS);
    }

    @Test
    void comparisonsKeepTheBlocksWhoseRangeCanMatch() {
        assertThat(ints(Predicate.eq("c", 15))).isEqualTo(RoaringBitmap.bitmapOf(1));
        assertThat(ints(Predicate.eq("c", 30))).isEqualTo(RoaringBitmap.bitmapOf());
        assertThat(ints(Predicate.lt("c", 10))).isEqualTo(RoaringBitmap.bitmapOf(0));
        assertThat(ints(Predicate.le("c", 10))).isEqualTo(RoaringBitmap.bitmapOf(0, 1));
        assertThat(ints(Predicate.gt("c", 19))).isEqualTo(RoaringBitmap.bitmapOf(3));
        assertThat(ints(Predicate.ge("c", 19))).isEqualTo(RoaringBitmap.bitmapOf(1, 3));
        assertThat(ints(Predicate.lt("c", 0))).isEqualTo(RoaringBitmap.bitmapOf());
    }

    @Test
    void betweenAndInKeepOverlappingBlocks() {
        assertThat(ints(Predicate.between("c", 5, 12))).isEqualTo(RoaringBitmap.bitmapOf(0, 1));
        assertThat(ints(Predicate.between("c", 12, 5))).isEqualTo(RoaringBitmap.bitmapOf());
        assertThat(ints(Predicate.between("c", Long.MIN_VALUE, Long.MAX_VALUE))).isEqualTo(RoaringBitmap.bitmapOf(0, 1, 3));
        assertThat(ints(Predicate.in("c", 100, 25, -4))).isEqualTo(RoaringBitmap.bitmapOf(3));
        assertThat(ints(Predicate.in("c", 9, 10, 29))).isEqualTo(RoaringBitmap.bitmapOf(0, 1, 3));
        assertThat(ints(Predicate.in("c"))).isEqualTo(RoaringBitmap.bitmapOf());
    }

    @Test
    void strictComparisonsAtTheEndsOfTheKeySpaceDoNotOverflow() {
        final ZoneMap[] extremes = {new ZoneMap(Long.MIN_VALUE, Long.MIN_VALUE, 0, 1),
            new ZoneMap(Long.MAX_VALUE, Long.MAX_VALUE, 0, 1)};
        assertThat(BlockPruner.prune(Predicate.lt("c", Long.MIN_VALUE), TypeKind.INT64, extremes)).isEqualTo(RoaringBitmap.bitmapOf());
        assertThat(BlockPruner.prune(Predicate.gt("c", Long.MAX_VALUE), TypeKind.INT64, extremes)).isEqualTo(RoaringBitmap.bitmapOf());
        assertThat(BlockPruner.prune(Predicate.le("c", Long.MIN_VALUE), TypeKind.INT64, extremes)).isEqualTo(RoaringBitmap.bitmapOf(0));
        assertThat(BlockPruner.prune(Predicate.ge("c", Long.MAX_VALUE), TypeKind.INT64, extremes)).isEqualTo(RoaringBitmap.bitmapOf(1));
    }

    @Test
    void stringsSharingAPrefixKeyAreNotPrunedByStrictComparisons() {
        // Block 0 really holds "prefix00b", which is < "prefix00c", yet both have the key of "prefix00".
        final ZoneMap[] strings = {
            new ZoneMap(StringKey.of("prefix00b"), StringKey.of("prefix00y"), 0, 2),
            new ZoneMap(StringKey.of("q"), StringKey.of("r"), 0, 2)};
        assertThat(BlockPruner.prune(Predicate.lt("s", StringKey.of("prefix00c")), TypeKind.STRING, strings))
                .isEqualTo(RoaringBitmap.bitmapOf(0));
        assertThat(BlockPruner.prune(Predicate.gt("s", StringKey.of("prefix00c")), TypeKind.STRING, strings))
                .isEqualTo(RoaringBitmap.bitmapOf(0, 1));
        assertThat(BlockPruner.prune(Predicate.lt("s", StringKey.of("prefix")), TypeKind.STRING, strings))
                .isEqualTo(RoaringBitmap.bitmapOf());
    }

    @Test
    void stringKeysCompareUnsigned() {
        // The key of "\u00ff" has its top bit set: a signed comparison would put it below "a".
        final ZoneMap[] strings = {
            new ZoneMap(StringKey.of("a"), StringKey.of("b"), 0, 2),
            new ZoneMap(StringKey.of("\u00ff"), StringKey.of("\u00ff\u00ff"), 0, 2)};
        assertThat(BlockPruner.prune(Predicate.gt("s", StringKey.of("c")), TypeKind.STRING, strings))
                .isEqualTo(RoaringBitmap.bitmapOf(1));
        assertThat(BlockPruner.prune(Predicate.lt("s", StringKey.of("c")), TypeKind.STRING, strings))
                .isEqualTo(RoaringBitmap.bitmapOf(0));
    }

    @Test
    void aSortedTableIsPrunedToTheBlocksOfTheKeyRange() {
        // Keys 0..n-1 inserted shuffled and sorted by the writer: block b holds [b * 8192, (b + 1) * 8192).
        final int n = 6 * Block.MAX_ROWS + 100;
        final List<Long> keys = new ArrayList<>();
        for (long k = 0; k < n; k++) {
            keys.add(k);
        }
        Collections.shuffle(keys, new Random(7));
        final Table table;
        try (TableWriter writer = Store.create(dir).createTable("t", Schema.parse("k:int64,v:int32"), "k")) {
            for (final long k : keys) {
                writer.column(0).appendLong(k);
                writer.column(1).appendInt((int) (k % 3));
                writer.endRow();
            }
            table = writer.finish();
        }
        try (table) {
            final long block = Block.MAX_ROWS;
            assertThat(table.blockCount()).isEqualTo(7);
            assertThat(BlockPruner.prune(Predicate.eq("k", 2 * block + 5), table)).isEqualTo(RoaringBitmap.bitmapOf(2));
            assertThat(BlockPruner.prune(Predicate.between("k", 2 * block - 1, 3 * block), table))
                    .isEqualTo(RoaringBitmap.bitmapOf(1, 2, 3));
            assertThat(BlockPruner.prune(Predicate.lt("k", block), table)).isEqualTo(RoaringBitmap.bitmapOf(0));
            assertThat(BlockPruner.prune(Predicate.ge("k", 6 * block), table)).isEqualTo(RoaringBitmap.bitmapOf(6));
            assertThat(BlockPruner.prune(Predicate.in("k", 5, 5 * block + 1, n + 10), table))
                    .isEqualTo(RoaringBitmap.bitmapOf(0, 5));
            assertThat(BlockPruner.prune(Predicate.eq("v", 2), table).getCardinality()).isEqualTo(7);
        }
    }
}
