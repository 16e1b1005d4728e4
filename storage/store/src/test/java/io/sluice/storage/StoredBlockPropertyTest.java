package io.sluice.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.format.Block;
import io.sluice.format.BlockDecoder;
import io.sluice.format.BlockEncoder;
import io.sluice.format.BlockProjection;
import io.sluice.format.ColumnBuilder;
import io.sluice.format.ColumnType;
import io.sluice.format.ColumnVector;
import io.sluice.format.CorruptBlockException;
import io.sluice.format.Decimal128Vector;
import io.sluice.format.Field;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.Schema;
import io.sluice.format.StoredBlock;
import io.sluice.format.StringVector;
import io.sluice.format.ZoneMap;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The stored columns of a block ({@link Table#storedBlock}, {@link BlockProjection}) are a block the
 * {@link BlockDecoder} reads as it reads a file: any choice of columns, in any order, of any block of a
 * table with NULLs, dictionary and plain strings, decimals of 64 and 128 bits and a last partial block,
 * decodes to the rows written (compared with the rows kept as objects, not with another read); every
 * column keeps its stored checksum and zonemap; a damaged byte is caught or harmless (padding); all
 * columns in stored order are the file byte for byte.
 */
class StoredBlockPropertyTest {
    private static final Schema SCHEMA = MixedTable.SCHEMA;
    /** Two full blocks and a partial one. */
    private static final int ROWS = 2 * Block.MAX_ROWS + 1234;
    private static final MixedTable.Stored STORED = MixedTable.create("stored-block", ROWS, 20261201L);
    private static final List<Object[]> ROWS_WRITTEN = STORED.rows();
    private static final Table TABLE = STORED.table();

    @AfterContainer
    static void removeTable() throws IOException {
        STORED.close();
    }

    private static Schema projected(final int[] projection) {
        final List<Field> fields = new ArrayList<>();
        for (final int c : projection) {
            fields.add(new Field(SCHEMA.field(c).name() + fields.size(), SCHEMA.type(c)));
        }
        return new Schema(fields);
    }

    @Provide
    Arbitrary<int[]> projections() {
        return Arbitraries.integers().between(0, SCHEMA.size() - 1).array(int[].class).ofMinSize(1).ofMaxSize(9);
    }

    @Property(tries = 200)
    void anyChoiceOfColumnsDecodesToTheRowsWritten(@ForAll("projections") final int[] projection,
                                                   @ForAll @IntRange(min = 0, max = 2) final int block) {
        final StoredBlock stored = TABLE.storedBlock(block, projection);
        assertThat(stored.rowCount()).isEqualTo(TABLE.blockRowCount(block));
        assertThat(stored.columnCount()).isEqualTo(projection.length);
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64);
        final int at = 24;
        final int length = stored.copyTo(buffer, at);
        final BlockDecoder decoder = new BlockDecoder().wrap(buffer, at, length, "frame", 5);
        final Block decoded = decoder.decode(projected(projection), null);
        final int first = block * Block.MAX_ROWS;
        assertThat(decoded.rowCount()).isEqualTo(Math.min(Block.MAX_ROWS, ROWS - first));
        for (int i = 0; i < projection.length; i++) {
            final int c = projection[i];
            int nulls = 0;
            for (int r = 0; r < decoded.rowCount(); r++) {
                final Object expected = ROWS_WRITTEN.get(first + r)[c];
                nulls += expected == null ? 1 : 0;
                assertThat(MixedTable.value(decoded.column(i), r)).as("column %d row %d of block %d", c, r, block)
                        .isEqualTo(expected);
            }
            final ZoneMap zoneMap = decoded.zoneMaps()[i];
            assertThat(zoneMap).isEqualTo(TABLE.zoneMap(block, c));
            assertThat(zoneMap.nullCount()).isEqualTo(nulls);
        }
        try (BlockFileCache.Handle handle = TABLE.acquire(block)) {
            for (int i = 0; i < projection.length; i++) {
                assertThat(columnChecksum(buffer, at, i)).as("column %d keeps its stored checksum", projection[i])
                        .isEqualTo(columnChecksum(handle.file().buffer(), 0, projection[i]));
            }
        }
    }

    private static long columnChecksum(final org.agrona.DirectBuffer block, final int offset, final int column) {
        return block.getLong(offset + io.sluice.format.BlockLayout.directoryEntry(column)
                + io.sluice.format.BlockLayout.ENTRY_CHECKSUM, java.nio.ByteOrder.LITTLE_ENDIAN);
    }

    @Property(tries = 300)
    void aDamagedByteOfStoredColumnsIsCaughtOrHarmless(@ForAll("projections") final int[] projection,
                                                       @ForAll @IntRange(min = 0, max = 2) final int block,
                                                       @ForAll @IntRange(min = 0, max = Integer.MAX_VALUE - 1) final int where,
                                                       @ForAll @IntRange(min = 1, max = 255) final int mask) {
        final StoredBlock stored = TABLE.storedBlock(block, projection);
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64);
        final int length = stored.copyTo(buffer, 0);
        final Schema schema = projected(projection);
        final Block intact = new BlockDecoder().wrap(buffer, 0, length, "frame", 9).decode(schema, null);
        final int position = where % length;
        buffer.putByte(position, (byte) (buffer.getByte(position) ^ mask));
        try {
            final Block decoded = new BlockDecoder().wrap(buffer, 0, length, "frame", 9).decode(schema, null);
            for (int i = 0; i < projection.length; i++) {
                for (int r = 0; r < decoded.rowCount(); r++) {
                    assertThat(MixedTable.value(decoded.column(i), r)).as("byte %d changed without detection", position)
                            .isEqualTo(MixedTable.value(intact.column(i), r));
                }
            }
            assertThat(decoded.zoneMaps()).isEqualTo(intact.zoneMaps());
        } catch (final CorruptBlockException e) {
            assertThat(e.getMessage()).contains("block 9").contains("frame");
        }
    }

    @Example
    void everyColumnInStoredOrderIsTheFileByteForByte() throws IOException {
        for (int block = 0; block < TABLE.blockCount(); block++) {
            final byte[] file = Files.readAllBytes(TABLE.blockPath(block));
            final ExpandableArrayBuffer all = new ExpandableArrayBuffer(64);
            final int length = TABLE.storedBlock(block).copyTo(all, 0);
            assertThat(Arrays.copyOf(all.byteArray(), length)).isEqualTo(file);
            final ExpandableArrayBuffer inOrder = new ExpandableArrayBuffer(64);
            TABLE.storedBlock(block, 0, 1, 2, 3, 4, 5, 6).copyTo(inOrder, 0);
            assertThat(Arrays.copyOf(inOrder.byteArray(), length)).isEqualTo(file);
        }
    }

    @Example
    void anEmptyBlockProjectsToAnEmptyBlock() {
        final ColumnVector[] columns = new ColumnVector[SCHEMA.size()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = new ColumnBuilder(SCHEMA.type(c)).build(0, 0);
        }
        final BlockEncoder encoder = new BlockEncoder();
        final UnsafeBuffer source = new UnsafeBuffer(new byte[encoder.prepare(Block.of(columns))]);
        encoder.writeTo(source, 0);
        new BlockDecoder().wrap(source, 0, source.capacity(), "source", 0);
        final int[] projection = {6, 4, 0};
        final UnsafeBuffer target = new UnsafeBuffer(new byte[BlockProjection.length(source, 0, projection)]);
        assertThat(BlockProjection.copy(source, 0, projection, target, 0)).isEqualTo(target.capacity());
        final Block decoded = new BlockDecoder().wrap(target, 0, target.capacity(), "frame", 0)
                .decode(projected(projection), null);
        assertThat(decoded.rowCount()).isZero();
        assertThat(decoded.columns()).hasSize(3);
        assertThat(decoded.column(0)).isInstanceOf(Decimal128Vector.class);
        assertThat(decoded.column(1)).isInstanceOf(StringVector.class);
    }

    @Example
    void theStoredLowCardinalityStringsStayDictionaryEncoded() {
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64);
        final int length = TABLE.storedBlock(2, 4).copyTo(buffer, 0);
        final Block decoded = new BlockDecoder().wrap(buffer, 0, length, "frame", 0).decode(projected(new int[] {4}), null);
        assertThat(((StringVector) decoded.column(0)).isDictionary()).isTrue();
    }
}
