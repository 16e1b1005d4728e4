package io.sluice.parquet;

import io.sluice.format.Decimal128Vector;
import io.sluice.format.StringKey;
import io.sluice.format.ZoneMap;
import java.nio.ByteBuffer;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.io.api.Binary;

/**
 * A row group's column statistics as zonemaps. Statistics that do not bound the values for certain
 * (absent, no null count, no min and max while some rows have values) give no zonemap: the table
 * computes it from the column's values instead, since a zonemap narrower than the values gives wrong
 * answers.
 */
final class ParquetZoneMaps {
    private ParquetZoneMaps() {
    }

    /**
     * The zonemap of rows {@code [first, first + rows)} of a row group of {@code groupRows} rows, from the row
     * group's statistics of {@code column}; null when they do not bound the values.
     */
    static ZoneMap of(final ParquetColumn column, final Statistics<?> stats, final long groupRows, final int rows) {
        if (stats == null || stats.isEmpty() || !stats.isNumNullsSet()) {
            return null;
        }
        final long nulls = stats.getNumNulls();
        if (nulls < 0 || nulls > groupRows) {
            return null;
        }
        if (nulls == groupRows) {
            return new ZoneMap(0, 0, rows, rows);
        }
        if (!stats.hasNonNullValue()) {
            return null;
        }
        // A block that is part of a larger row group shares its bounds; its own nulls are unknown, so it
        // claims some (a harmless overstatement) but never all, which would prune it.
        final int blockNulls = nulls == 0 ? 0 : (int) Math.min(nulls, rows - 1L);
        final Object min = stats.genericGetMin();
        final Object max = stats.genericGetMax();
        return new ZoneMap(key(column, min), key(column, max), blockNulls, rows);
    }

    private static long key(final ParquetColumn column, final Object value) {
        return switch (column.decoding()) {
            case INT32, INT32_AS_LONG -> (Integer) value;
            case INT64 -> (Long) value;
            case DECIMAL_BYTES -> {
                final byte[] b = ((Binary) value).getBytes();
                yield ParquetDecimals.toLong(b, 0, b.length);
            }
            case DECIMAL128_BYTES -> {
                final byte[] b = ((Binary) value).getBytes();
                yield Decimal128Vector.saturate(ParquetDecimals.high(b, 0, b.length), ParquetDecimals.low(b, 0, b.length));
            }
            case STRING -> {
                final ByteBuffer buffer = ((Binary) value).toByteBuffer();
                final byte[] prefix = new byte[Math.min(8, buffer.remaining())];
                buffer.get(prefix);
                yield StringKey.of(prefix, 0, prefix.length);
            }
        };
    }
}
