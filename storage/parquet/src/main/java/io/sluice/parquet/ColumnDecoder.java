package io.sluice.parquet;

import io.sluice.format.ColumnType;
import io.sluice.format.ColumnVector;
import io.sluice.format.Decimal128Vector;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.format.StringVector;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.io.api.Binary;

/**
 * Reads rows of one column chunk, value by value from parquet-java's column reader, into a Sluice
 * vector: primitive arrays filled in one loop, a null bitmap from the definition levels, strings copied
 * into one byte array with offsets. No object per row but the string readers' {@link Binary} views.
 */
final class ColumnDecoder {
    private ColumnDecoder() {
    }

    /** Skips {@code rows} rows of {@code reader}. */
    static void skip(final ColumnReader reader, final int maxDefinition, final long rows) {
        for (long i = 0; i < rows; i++) {
            if (reader.getCurrentDefinitionLevel() == maxDefinition) {
                reader.skip();
            }
            reader.consume();
        }
    }

    /** The next {@code rows} rows of {@code reader} as a vector of {@code column}'s type. */
    static ColumnVector read(final ParquetColumn column, final ColumnReader reader, final int rows) {
        final int maxDefinition = column.descriptor().getMaxDefinitionLevel();
        final ColumnType type = column.field().type();
        long[] nulls = null;
        switch (column.decoding()) {
            case INT32 -> {
                final int[] values = new int[rows];
                for (int r = 0; r < rows; r++) {
                    if (reader.getCurrentDefinitionLevel() == maxDefinition) {
                        values[r] = reader.getInteger();
                    } else {
                        nulls = setNull(nulls, rows, r);
                    }
                    reader.consume();
                }
                return new IntVector(type, values, rows, nulls);
            }
            case INT32_AS_LONG, INT64 -> {
                final boolean int32 = column.decoding() == Decoding.INT32_AS_LONG;
                final long[] values = new long[rows];
                for (int r = 0; r < rows; r++) {
                    if (reader.getCurrentDefinitionLevel() == maxDefinition) {
                        values[r] = int32 ? reader.getInteger() : reader.getLong();
                    } else {
                        nulls = setNull(nulls, rows, r);
                    }
                    reader.consume();
                }
                return new LongVector(type, values, rows, nulls);
            }
            case DECIMAL_BYTES -> {
                final long[] values = new long[rows];
                byte[] scratch = new byte[16];
                for (int r = 0; r < rows; r++) {
                    if (reader.getCurrentDefinitionLevel() == maxDefinition) {
                        final ByteBuffer b = reader.getBinary().toByteBuffer();
                        final int n = b.remaining();
                        scratch = n > scratch.length ? new byte[n] : scratch;
                        b.get(scratch, 0, n);
                        values[r] = ParquetDecimals.toLong(scratch, 0, n);
                    } else {
                        nulls = setNull(nulls, rows, r);
                    }
                    reader.consume();
                }
                return new LongVector(type, values, rows, nulls);
            }
            case DECIMAL128_BYTES -> {
                final long[] high = new long[rows];
                final long[] low = new long[rows];
                final byte[] scratch = new byte[16];
                for (int r = 0; r < rows; r++) {
                    if (reader.getCurrentDefinitionLevel() == maxDefinition) {
                        final ByteBuffer b = reader.getBinary().toByteBuffer();
                        final int n = Math.min(16, b.remaining());
                        b.position(b.limit() - n).get(scratch, 0, n);
                        high[r] = ParquetDecimals.high(scratch, 0, n);
                        low[r] = ParquetDecimals.low(scratch, 0, n);
                    } else {
                        nulls = setNull(nulls, rows, r);
                    }
                    reader.consume();
                }
                return new Decimal128Vector(type, high, low, rows, nulls);
            }
            case STRING -> {
                final int[] offsets = new int[rows + 1];
                byte[] bytes = new byte[Math.max(64, rows * 16)];
                int end = 0;
                for (int r = 0; r < rows; r++) {
                    if (reader.getCurrentDefinitionLevel() == maxDefinition) {
                        final ByteBuffer b = reader.getBinary().toByteBuffer();
                        final int n = b.remaining();
                        if (end + n > bytes.length) {
                            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, end + n));
                        }
                        b.get(bytes, end, n);
                        end += n;
                    } else {
                        nulls = setNull(nulls, rows, r);
                    }
                    offsets[r + 1] = end;
                    reader.consume();
                }
                return StringVector.plain(offsets, bytes, rows, nulls);
            }
            default -> throw new IllegalStateException("no decoder for " + column.decoding());
        }
    }

    private static long[] setNull(final long[] nulls, final int rows, final int row) {
        final long[] mask = nulls == null ? new long[NullMask.words(rows)] : nulls;
        NullMask.setNull(mask, row);
        return mask;
    }
}
