package io.sluice.zonemap;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.format.Block;
import io.sluice.format.ColumnType;
import io.sluice.format.Field;
import io.sluice.format.Schema;
import io.sluice.format.ZoneMap;
import io.sluice.format.spi.BlockFiles;
import io.sluice.format.spi.BlockTable;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

/**
 * Pruning a table that keeps bounds for whole files: files ruled out by their own zonemaps are skipped without
 * reading their blocks' zonemaps, the blocks of the files kept are pruned by theirs, and the answer is the one
 * pruning by the blocks' zonemaps alone gives.
 */
class BlockPrunerFilesTest {
    /** Three files: blocks 0-1 in [0, 99], blocks 2-4 in [100, 199], block 5 in [200, 299]. */
    private static final int[] FIRST_BLOCK = {0, 2, 5, 6};
    private static final ZoneMap[] BLOCKS = {
        new ZoneMap(0, 49, 0, 10), new ZoneMap(50, 99, 0, 10),
        new ZoneMap(100, 129, 0, 10), new ZoneMap(130, 159, 0, 10), new ZoneMap(160, 199, 0, 10),
        new ZoneMap(200, 299, 0, 10)};
    private static final ZoneMap[] FILES = {
        new ZoneMap(0, 99, 0, 20), new ZoneMap(100, 199, 0, 30), new ZoneMap(200, 299, 0, 10)};

    /** A table of those files that records which blocks' zonemaps were read. */
    private static final class FileTable implements BlockTable {
        final List<Integer> zoneMapsRead = new ArrayList<>();
        private final boolean withFiles;

        FileTable(final boolean withFiles) {
            this.withFiles = withFiles;
        }

        @Override
        public String name() {
            return "t";
        }

        @Override
        public Schema schema() {
            return new Schema(List.of(new Field("c", ColumnType.INT64)));
        }

        @Override
        public int blockCount() {
            return BLOCKS.length;
        }

        @Override
        public int blockRowCount(final int block) {
            return BLOCKS[block].rowCount();
        }

        @Override
        public ZoneMap zoneMap(final int block, final int column) {
            zoneMapsRead.add(block);
            return BLOCKS[block];
        }

        @Override
        public Block readBlock(final int block, final int... projection) {
            throw new UnsupportedOperationException("pruning reads no block");
        }

        @Override
        public BlockFiles blockFiles() {
            if (!withFiles) {
                return null;
            }
            return new BlockFiles() {
                @Override
                public int fileCount() {
                    return FILES.length;
                }

                @Override
                public int firstBlock(final int file) {
                    return FIRST_BLOCK[file];
                }

                @Override
                public ZoneMap zoneMap(final int file, final int column) {
                    return FILES[file];
                }
            };
        }
    }

    @Test
    void aFileOutsideThePredicateIsSkippedWithoutReadingItsBlocksZoneMaps() {
        final FileTable table = new FileTable(true);
        assertThat(BlockPruner.prune(Predicate.between("c", 140, 170), table)).isEqualTo(RoaringBitmap.bitmapOf(3, 4));
        assertThat(table.zoneMapsRead).containsExactly(2, 3, 4);
    }

    @Test
    void noFileMatchingReadsNoBlockZoneMapAndKeepsNothing() {
        final FileTable table = new FileTable(true);
        assertThat(BlockPruner.prune(Predicate.gt("c", 1000), table)).isEqualTo(new RoaringBitmap());
        assertThat(table.zoneMapsRead).isEmpty();
    }

    @Test
    void pruningFilesFirstKeepsTheBlocksPruningBlocksAloneKeeps() {
        final List<Predicate> predicates = List.of(Predicate.eq("c", 150), Predicate.lt("c", 100), Predicate.ge("c", 99),
                Predicate.in("c", 10, 210, 500), Predicate.between("c", -5, 1000), Predicate.le("c", -1));
        for (final Predicate p : predicates) {
            assertThat(BlockPruner.prune(p, new FileTable(true))).as(p.toString())
                    .isEqualTo(BlockPruner.prune(p, new FileTable(false)));
        }
    }
}
