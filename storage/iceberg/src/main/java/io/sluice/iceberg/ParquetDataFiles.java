package io.sluice.iceberg;

import io.sluice.format.ColumnType;
import io.sluice.format.Field;
import io.sluice.format.StorageException;
import io.sluice.parquet.ParquetFileBounds;
import io.sluice.parquet.ParquetTable;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

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
        final ParquetFileBounds bounds = ParquetFileBounds.read(file);
        final long size;
        try {
            size = Files.size(file);
        } catch (final IOException e) {
            throw new StorageException("parquet file " + file + " cannot be read: " + e.getMessage(), e);
        }
        return DataFiles.builder(PartitionSpec.unpartitioned())
                .withPath("file:" + file)
                .withFormat(FileFormat.PARQUET)
                .withFileSizeInBytes(size)
                .withMetrics(metrics(schema, bounds, file))
                .build();
    }

    private static Metrics metrics(final Schema schema, final ParquetFileBounds bounds, final Path file) {
        final Map<Integer, Long> valueCounts = new HashMap<>();
        final Map<Integer, Long> nullCounts = new HashMap<>();
        final Map<Integer, ByteBuffer> lower = new HashMap<>();
        final Map<Integer, ByteBuffer> upper = new HashMap<>();
        for (final ParquetFileBounds.Column c : bounds.columns()) {
            final Types.NestedField field = schema.findField(c.field().name());
            if (field == null) {
                throw new StorageException("parquet file " + file + " has column '" + c.field().name() + "', which"
                        + " the iceberg table's schema " + schema.columns().stream().map(Types.NestedField::name).toList()
                        + " lacks: add files with the table's columns only");
            }
            if (!c.bounded()) {
                continue;
            }
            valueCounts.put(field.fieldId(), bounds.rows());
            nullCounts.put(field.fieldId(), c.nullCount());
            if (c.min() != null) {
                final Type.PrimitiveType type = field.type().asPrimitiveType();
                lower.put(field.fieldId(), Conversions.toByteBuffer(type, value(type, c.min())));
                upper.put(field.fieldId(), Conversions.toByteBuffer(type, value(type, c.max())));
            }
        }
        return new Metrics(bounds.rows(), null, valueCounts, nullCounts, null, lower, upper);
    }

    /** A bound as the Java value Iceberg's conversions take for {@code type}. */
    private static Object value(final Type.PrimitiveType type, final Object bound) {
        return switch (type.typeId()) {
            case INTEGER, DATE -> ((Number) bound).intValue();
            case LONG -> ((Number) bound).longValue();
            case DECIMAL -> ((BigDecimal) bound).setScale(((Types.DecimalType) type).scale());
            case STRING -> bound.toString();
            default -> throw new StorageException("iceberg column type " + type + " has no bounds Sluice records");
        };
    }
}
