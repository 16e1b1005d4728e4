package io.sluice.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.format.Block;
import io.sluice.format.BlockDecoder;
import io.sluice.format.BlockEncoder;
import io.sluice.format.ColumnBuilder;
import io.sluice.format.ColumnVector;
import io.sluice.format.CorruptBlockException;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.Schema;
import io.sluice.format.StringVector;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Any single damaged byte or any truncation of an encoded block is either reported as a
 * {@link CorruptBlockException} or leaves every value intact (a byte of alignment padding): never
 * wrong rows and never another exception.
 */
class BlockDamagePropertyTest {
    static final Schema SCHEMA = TableRoundTripTest.SCHEMA;

    static Block block(final int rows, final long seed) {
        final List<TableRoundTripTest.Row> data = TableRoundTripTest.rows(rows, seed);
        final ColumnBuilder[] builders = new ColumnBuilder[SCHEMA.size()];
        for (int c = 0; c < builders.length; c++) {
            builders[c] = new ColumnBuilder(SCHEMA.type(c));
        }
        for (final TableRoundTripTest.Row row : data) {
            append(builders, row);
        }
        final ColumnVector[] columns = new ColumnVector[builders.length];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = builders[c].build(0, rows);
        }
        return Block.of(columns);
    }

    private static void append(final ColumnBuilder[] b, final TableRoundTripTest.Row row) {
        if (row.i64() == null) b[0].appendNull(); else b[0].appendLong(row.i64());
        if (row.i32() == null) b[1].appendNull(); else b[1].appendInt(row.i32());
        if (row.dec() == null) b[2].appendNull(); else b[2].appendLong(row.dec());
        if (row.d() == null) b[3].appendNull(); else b[3].appendInt(row.d());
        if (row.low() == null) b[4].appendNull(); else b[4].appendString(row.low());
        if (row.high() == null) b[5].appendNull(); else b[5].appendString(row.high());
    }

    static UnsafeBuffer encode(final Block block) {
        final BlockEncoder encoder = new BlockEncoder();
        final int length = encoder.prepare(block);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[length]);
        encoder.writeTo(buffer, 0);
        return buffer;
    }

    /** Every value of a decoded block, as text, for comparison with the original. */
    static String render(final Block block) {
        final StringBuilder sb = new StringBuilder();
        for (int c = 0; c < block.columns().length; c++) {
            final ColumnVector v = block.column(c);
            for (int r = 0; r < block.rowCount(); r++) {
                if (v.isNull(r)) {
                    sb.append("null");
                } else if (v instanceof LongVector lv) {
                    sb.append(lv.get(r));
                } else if (v instanceof IntVector iv) {
                    sb.append(iv.get(r));
                } else {
                    sb.append('"').append(((StringVector) v).getString(r)).append('"');
                }
                sb.append(',');
            }
            sb.append(block.zoneMaps()[c]).append('\n');
        }
        return sb.toString();
    }

    @Property(tries = 300)
    void aFlippedByteIsDetectedOrHarmless(@ForAll @IntRange(min = 1, max = 300) final int rows,
                                          @ForAll final long seed,
                                          @ForAll @IntRange(min = 0, max = Integer.MAX_VALUE - 1) final int where,
                                          @ForAll @IntRange(min = 1, max = 255) final int mask) {
        final Block original = block(rows, seed);
        final UnsafeBuffer buffer = encode(original);
        final int position = where % buffer.capacity();
        buffer.putByte(position, (byte) (buffer.getByte(position) ^ mask));
        try {
            final Block decoded = new BlockDecoder().wrap(buffer, 0, buffer.capacity(), "frame", 7).decode(SCHEMA, null);
            assertThat(render(decoded)).as("bytes at %d changed without detection", position).isEqualTo(render(original));
        } catch (final CorruptBlockException e) {
            assertThat(e.getMessage()).contains("block 7").contains("frame");
        }
    }

    @Property(tries = 200)
    void aTruncatedBlockIsAlwaysDetected(@ForAll @IntRange(min = 1, max = 300) final int rows, @ForAll final long seed,
                                         @ForAll @IntRange(min = 0, max = Integer.MAX_VALUE - 1) final int cut) {
        final UnsafeBuffer buffer = encode(block(rows, seed));
        final int length = cut % buffer.capacity();
        try {
            new BlockDecoder().wrap(buffer, 0, length, "frame", 3).decode(SCHEMA, null);
            throw new AssertionError("a block cut to " + length + " of " + buffer.capacity() + " bytes was accepted");
        } catch (final CorruptBlockException e) {
            assertThat(e.getMessage()).contains("block 3");
        }
    }
}
