package io.sluice.iceberg;

import io.sluice.format.ColumnType;
import io.sluice.format.Field;
import io.sluice.format.StorageException;
import io.sluice.parquet.ParquetFooters;
import io.sluice.parquet.ParquetTable;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Adds existing Parquet files to an Iceberg table, as Iceberg's {@code add_files} does: each file's record count,
 * null counts and column bounds come from its footer (the row groups' statistics merged), so that readers prune by
 * them. Hadoop-free. The files must have the table's columns, by name.
 */
public final class ParquetDataFiles {
    private ParquetDataFiles() {
    }

    /**
     * The Iceberg schema of a Parquet file's columns, all optional, with the Iceberg types of their Sluice types.
     *
     * @throws StorageException when the file cannot be read or has a column Sluice does not read
     */
    public static Schema schemaOf(final Path parquet) {
        try (ParquetTable t = ParquetTable.open(parquet.getFileName().toString(), List.of(parquet))) {
            final List<Types.NestedField> fields = new ArrayList<>();
            int id = 1;
            for (final Field f : t.schema().fields()) {
                fields.add(Types.NestedField.optional(id++, f.name(), icebergType(f.type())));
            }
            return new Schema(fields);
        }
    }

    private static Type icebergType(final ColumnType type) {
        return switch (type.kind()) {
            case INT32 -> Types.IntegerType.get();
            case INT64 -> Types.LongType.get();
            case DATE -> Types.DateType.get();
            case DECIMAL, DECIMAL128 -> Types.DecimalType.of(type.precision(), type.scale());
            case STRING -> Types.StringType.get();
        };
    }

    /**
     * Appends {@code files} to {@code table} in one commit.
     *
     * @throws StorageException when a file cannot be read
     */
    public static void append(final Table table, final List<Path> files) {
        final AppendFiles append = table.newAppend();
        for (final Path f : files) {
            append.appendFile(dataFile(table.schema(), f));
        }
        append.commit();
    }

    /** A data file of an unpartitioned table of {@code schema}, its metrics read from the footer. */
    public static DataFile dataFile(final Schema schema, final Path parquet) {
        final Path file = parquet.toAbsolutePath();
        final ParquetMetadata footer = ParquetFooters.read(file);
        long rows = 0;
        for (final BlockMetaData g : footer.getBlocks()) {
            rows += g.getRowCount();
        }
        final long size;
        try {
            size = Files.size(file);
        } catch (final IOException e) {
            throw new StorageException("parquet file " + file + " cannot be read: " + e.getMessage(), e);
        }
        return DataFiles.builder(org.apache.iceberg.PartitionSpec.unpartitioned())
                .withPath("file:" + file)
                .withFormat(FileFormat.PARQUET)
                .withFileSizeInBytes(size)
                .withMetrics(metrics(schema, footer, rows))
                .build();
    }

    private static Metrics metrics(final Schema schema, final ParquetMetadata footer, final long rows) {
        final Map<Integer, Long> valueCounts = new HashMap<>();
        final Map<Integer, Long> nullCounts = new HashMap<>();
        final Map<Integer, ByteBuffer> lower = new HashMap<>();
        final Map<Integer, ByteBuffer> upper = new HashMap<>();
        for (final Types.NestedField field : schema.columns()) {
            final Type.PrimitiveType type = field.type().asPrimitiveType();
            final Comparator<Object> order = Comparators.forType(type);
            long nulls = 0;
            boolean bounded = true;
            Object min = null;
            Object max = null;
            for (final BlockMetaData g : footer.getBlocks()) {
                final ColumnChunkMetaData chunk = chunk(g, field.name());
                final Statistics<?> stats = chunk == null ? null : chunk.getStatistics();
                if (stats == null || stats.isEmpty() || !stats.isNumNullsSet()) {
                    bounded = false;
                    break;
                }
                nulls += stats.getNumNulls();
                if (stats.hasNonNullValue()) {
                    final PrimitiveType physical = chunk.getPrimitiveType();
                    final Object lo = value(type, physical, stats.genericGetMin());
                    final Object hi = value(type, physical, stats.genericGetMax());
                    min = min == null || order.compare(lo, min) < 0 ? lo : min;
                    max = max == null || order.compare(hi, max) > 0 ? hi : max;
                } else if (stats.getNumNulls() < g.getRowCount()) {
                    bounded = false;
                    break;
                }
            }
            if (!bounded) {
                continue;
            }
            valueCounts.put(field.fieldId(), rows);
            nullCounts.put(field.fieldId(), nulls);
            if (min != null) {
                lower.put(field.fieldId(), Conversions.toByteBuffer(type, min));
                upper.put(field.fieldId(), Conversions.toByteBuffer(type, max));
            }
        }
        return new Metrics(rows, null, valueCounts, nullCounts, null, lower, upper);
    }

    private static ColumnChunkMetaData chunk(final BlockMetaData group, final String column) {
        for (final ColumnChunkMetaData c : group.getColumns()) {
            if (c.getPath().size() == 1 && c.getPath().toArray()[0].equals(column)) {
                return c;
            }
        }
        return null;
    }

    /** A Parquet statistic as the Java value Iceberg's conversions take for {@code type}. */
    private static Object value(final Type.PrimitiveType type, final PrimitiveType physical, final Object stat) {
        return switch (type.typeId()) {
            case INTEGER, DATE -> ((Number) stat).intValue();
            case LONG -> ((Number) stat).longValue();
            case DECIMAL -> {
                final int scale = ((Types.DecimalType) type).scale();
                yield stat instanceof Binary b ? new BigDecimal(new BigInteger(b.getBytes()), scale)
                        : BigDecimal.valueOf(((Number) stat).longValue(), scale);
            }
            case STRING -> ((Binary) stat).toStringUsingUTF8();
            default -> throw new StorageException("column type " + type + " (parquet " + physical + ") has no bounds"
                    + " Sluice records");
        };
    }
}
