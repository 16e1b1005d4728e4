package io.sluice.parquet;

import io.sluice.format.Field;
import io.sluice.format.StorageException;
import io.sluice.format.TypeKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.io.api.Binary;

/**
 * A Parquet file's column bounds over the whole file, merged from its row groups' statistics, as values (not
 * zonemap keys: strings whole): what a table format records for a file in its manifests.
 *
 * @param rows    the file's rows
 * @param columns the bounds of each column, in the file's column order
 */
public record ParquetFileBounds(long rows, List<Column> columns) {
    /**
     * One column's bounds.
     *
     * @param field     the column as Sluice reads it
     * @param bounded   whether every row group has statistics that bound it; when false the rest is unknown
     * @param nullCount null rows
     * @param min       the least value, or null when every row is null: a {@link Long} (INT64), {@link Integer}
     *                  (INT32, DATE as days), {@link BigDecimal} (decimals) or {@link String}
     * @param max       the greatest value, of the same class
     */
    public record Column(Field field, boolean bounded, long nullCount, Object min, Object max) {
    }

    /**
     * Reads the footer of {@code path} and merges its statistics.
     *
     * @throws StorageException when the file cannot be read or has a column Sluice does not read, naming it
     */
    public static ParquetFileBounds read(final Path path) {
        try (ParquetFile file = ParquetFile.open(path)) {
            long rows = 0;
            for (final BlockMetaData g : file.rowGroups()) {
                rows += g.getRowCount();
            }
            final List<Column> columns = new ArrayList<>();
            for (final ParquetColumn c : file.columns()) {
                columns.add(column(file, c));
            }
            return new ParquetFileBounds(rows, List.copyOf(columns));
        }
    }

    private static Column column(final ParquetFile file, final ParquetColumn column) {
        final ColumnPath path = ColumnPath.get(column.descriptor().getPath());
        long nulls = 0;
        Object min = null;
        Object max = null;
        for (final BlockMetaData g : file.rowGroups()) {
            Statistics<?> stats = null;
            for (final ColumnChunkMetaData chunk : g.getColumns()) {
                if (chunk.getPath().equals(path)) {
                    stats = chunk.getStatistics();
                }
            }
            if (stats == null || stats.isEmpty() || !stats.isNumNullsSet()
                    || !stats.hasNonNullValue() && stats.getNumNulls() < g.getRowCount()) {
                return new Column(column.field(), false, 0, null, null);
            }
            nulls += stats.getNumNulls();
            if (stats.hasNonNullValue()) {
                final Object lo = value(column, stats.genericGetMin());
                final Object hi = value(column, stats.genericGetMax());
                min = min == null || compare(lo, min) < 0 ? lo : min;
                max = max == null || compare(hi, max) > 0 ? hi : max;
            }
        }
        return new Column(column.field(), true, nulls, min, max);
    }

    private static Object value(final ParquetColumn column, final Object stat) {
        final int scale = column.field().type().scale();
        return switch (column.decoding()) {
            case INT32 -> (Integer) stat;
            case INT64 -> column.field().type().kind() == TypeKind.DECIMAL ? BigDecimal.valueOf((Long) stat, scale) : stat;
            case INT32_AS_LONG -> BigDecimal.valueOf((Integer) stat, scale);
            case DECIMAL_BYTES, DECIMAL128_BYTES -> new BigDecimal(new BigInteger(((Binary) stat).getBytes()), scale);
            case STRING -> ((Binary) stat).toStringUsingUTF8();
        };
    }

    @SuppressWarnings("unchecked")
    private static int compare(final Object a, final Object b) {
        if (a instanceof String s) {
            // Parquet orders strings by their UTF-8 bytes, unsigned; String.compareTo orders UTF-16 units.
            return Arrays.compareUnsigned(s.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    ((String) b).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        return ((Comparable<Object>) a).compareTo(b);
    }
}
