package io.sluice.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.format.Block;
import io.sluice.format.BlockDecoder;
import io.sluice.format.ColumnVector;
import io.sluice.format.CorruptBlockException;
import io.sluice.format.Schema;
import io.sluice.format.StringVector;
import java.io.IOException;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import org.agrona.ExpandableArrayBuffer;

/**
 * Reading some rows of a block's columns straight from its file ({@link Table#readRows}) and reading
 * whole columns into reused vectors ({@link Table#readColumns}) give the rows written: every kind, with
 * NULLs, dictionary and plain strings, any ascending choice of rows from none to all, in full and partial
 * blocks; a row outside the block is an error and a damaged byte is caught or harmless.
 */
class BlockRowsPropertyTest {
    private static final Schema SCHEMA = MixedTable.SCHEMA;
    /** Two full blocks and a partial one. */
    private static final int ROWS = 2 * Block.MAX_ROWS + 777;
    private static final MixedTable.Stored STORED = MixedTable.create("block-rows", ROWS, 1201L);
    private static final List<Object[]> ROWS_WRITTEN = STORED.rows();
    private static final Table TABLE = STORED.table();

    @AfterContainer
    static void removeTable() throws IOException {
        STORED.close();
    }

    /** Ascending rows of a block, each kept with probability {@code percent} / 100. */
    private static int[] choose(final int rowCount, final int percent, final long seed) {
        final Random random = new Random(seed);
        final int[] rows = new int[rowCount];
        int n = 0;
        for (int r = 0; r < rowCount; r++) {
            if (random.nextInt(100) < percent) {
                rows[n++] = r;
            }
        }
        return java.util.Arrays.copyOf(rows, n);
    }

    @Property(tries = 300)
    void rowsReadAloneAreTheRowsWritten(@ForAll @IntRange(min = 0, max = 2) final int block,
                                        @ForAll @IntRange(min = 0, max = 6) final int column,
                                        @ForAll @IntRange(min = 0, max = 100) final int percent,
                                        @ForAll final long seed) {
        final int[] rows = choose(TABLE.blockRowCount(block), percent, seed);
        final ColumnVector[] out = new ColumnVector[1];
        assertThat(TABLE.readRows(block, new int[] {column}, rows, rows.length, out)).isTrue();
        assertThat(out[0].rowCount()).isEqualTo(rows.length);
        assertThat(out[0].type()).isEqualTo(SCHEMA.type(column));
        for (int i = 0; i < rows.length; i++) {
            assertThat(MixedTable.value(out[0], i)).as("column %d row %d of block %d", column, rows[i], block)
                    .isEqualTo(ROWS_WRITTEN.get(block * Block.MAX_ROWS + rows[i])[column]);
        }
    }

    @Property(tries = 100)
    void columnsReadIntoReusedVectorsAreTheRowsWritten(@ForAll @IntRange(min = 0, max = 2) final int first,
                                                       @ForAll @IntRange(min = 0, max = 2) final int second) {
        final int[] columns = {6, 0, 3, 4, 5, 1, 2};
        final ColumnVector[] vectors = new ColumnVector[columns.length];
        for (final int block : new int[] {first, second}) {
            TABLE.readColumns(block, columns, vectors);
            for (int i = 0; i < columns.length; i++) {
                assertThat(vectors[i].rowCount()).isEqualTo(TABLE.blockRowCount(block));
                for (int r = 0; r < vectors[i].rowCount(); r++) {
                    assertThat(MixedTable.value(vectors[i], r)).as("column %d row %d of block %d", columns[i], r, block)
                            .isEqualTo(ROWS_WRITTEN.get(block * Block.MAX_ROWS + r)[columns[i]]);
                }
            }
        }
    }

    @Example
    void theLowCardinalityStringsStayDictionaryEncodedWhenReadAlone() {
        final ColumnVector[] out = new ColumnVector[1];
        TABLE.readRows(0, new int[] {4}, new int[] {3, 10, 8000}, 3, out);
        assertThat(((StringVector) out[0]).isDictionary()).isTrue();
    }

    @Example
    void aRowOutsideTheBlockIsAnError() {
        final ColumnVector[] out = new ColumnVector[1];
        final int last = TABLE.blockRowCount(2);
        assertThatThrownBy(() -> TABLE.readRows(2, new int[] {0}, new int[] {1, last}, 2, out))
                .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("row " + last);
        assertThatThrownBy(() -> TABLE.readRows(0, new int[] {5}, new int[] {-1}, 1, out))
                .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("row -1");
    }

    @Property(tries = 300)
    void aDamagedByteIsCaughtOrHarmless(@ForAll @IntRange(min = 0, max = 2) final int block,
                                        @ForAll @IntRange(min = 0, max = 6) final int column,
                                        @ForAll @IntRange(min = 0, max = Integer.MAX_VALUE - 1) final int where,
                                        @ForAll @IntRange(min = 1, max = 255) final int mask,
                                        @ForAll final long seed) {
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64);
        final int length = TABLE.storedBlock(block).copyTo(buffer, 0);
        final int[] rows = choose(TABLE.blockRowCount(block), 30, seed);
        final ColumnVector intact = new BlockDecoder().wrap(buffer, 0, length, "frame", 4)
                .rows(column, SCHEMA.type(column), true, rows, rows.length);
        final int position = where % length;
        buffer.putByte(position, (byte) (buffer.getByte(position) ^ mask));
        try {
            final ColumnVector read = new BlockDecoder().wrap(buffer, 0, length, "frame", 4)
                    .rows(column, SCHEMA.type(column), true, rows, rows.length);
            for (int i = 0; i < rows.length; i++) {
                assertThat(MixedTable.value(read, i)).as("byte %d changed without detection", position)
                        .isEqualTo(MixedTable.value(intact, i));
            }
        } catch (final CorruptBlockException e) {
            assertThat(e.getMessage()).contains("block 4").contains("frame");
        }
    }
}
