package io.sluice.iceberg;

import io.sluice.format.ColumnType;
import io.sluice.format.StringKey;
import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;

/**
 * A data file's column bounds from an Iceberg manifest (lower and upper bound, null count, record count) as a
 * zonemap over the whole file. Bounds a writer left out (or truncated: Iceberg keeps a string's first 16
 * characters, its upper bound rounded up) give a zonemap at least as wide as the values, never narrower.
 */
final class FileBounds {
    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private FileBounds() {
    }

    /** The zonemap of the column of field {@code fieldId}, Iceberg type {@code type}, Sluice type {@code column}. */
    static ZoneMap of(final DataFile file, final int fieldId, final Type type, final ColumnType column) {
        final int rows = (int) Math.min(Integer.MAX_VALUE, file.recordCount());
        final Long nulls = value(file.nullValueCounts(), fieldId);
        if (nulls != null && nulls >= file.recordCount()) {
            return new ZoneMap(0, 0, rows, rows);
        }
        // Unknown or partial nulls: claim some (harmless) but never all, which would prune the file.
        final int claimedNulls = nulls == null || nulls == 0 ? 0 : (int) Math.min(nulls, rows - 1L);
        final ByteBuffer lower = bound(file.lowerBounds(), fieldId);
        final ByteBuffer upper = bound(file.upperBounds(), fieldId);
        final TypeKind kind = column.kind();
        if (lower == null || upper == null) {
            return unbounded(kind, claimedNulls, rows);
        }
        final Object min = Conversions.fromByteBuffer(type, lower.duplicate());
        final Object max = Conversions.fromByteBuffer(type, upper.duplicate());
        return new ZoneMap(key(kind, column, min, false), key(kind, column, max, true), claimedNulls, rows);
    }

    private static ZoneMap unbounded(final TypeKind kind, final int nulls, final int rows) {
        return kind == TypeKind.STRING ? new ZoneMap(0, -1L, nulls, rows)
                : new ZoneMap(Long.MIN_VALUE, Long.MAX_VALUE, nulls, rows);
    }

    private static Long value(final Map<Integer, Long> counts, final int fieldId) {
        return counts == null ? null : counts.get(fieldId);
    }

    private static ByteBuffer bound(final Map<Integer, ByteBuffer> bounds, final int fieldId) {
        return bounds == null ? null : bounds.get(fieldId);
    }

    private static long key(final TypeKind kind, final ColumnType column, final Object value, final boolean upper) {
        return switch (kind) {
            case INT32, INT64, DATE -> ((Number) value).longValue();
            case DECIMAL, DECIMAL128 -> decimalKey((BigDecimal) value, column.scale(), upper);
            case STRING -> {
                final byte[] utf8 = value.toString().getBytes(StandardCharsets.UTF_8);
                yield StringKey.of(utf8, 0, Math.min(8, utf8.length));
            }
        };
    }

    /** A decimal as a key scaled to the column's scale, rounded outwards, saturated to the long range. */
    private static long decimalKey(final BigDecimal value, final int scale, final boolean upper) {
        final BigInteger unscaled = value.setScale(scale, upper ? java.math.RoundingMode.CEILING
                : java.math.RoundingMode.FLOOR).unscaledValue();
        if (unscaled.compareTo(LONG_MAX) > 0) {
            return Long.MAX_VALUE;
        }
        if (unscaled.compareTo(LONG_MIN) < 0) {
            return Long.MIN_VALUE;
        }
        return unscaled.longValue();
    }
}
