package io.sluice.parquet;

import io.sluice.format.ColumnType;
import io.sluice.format.Field;
import io.sluice.format.StorageException;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DateLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.EnumLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.JsonLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.StringLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * One top-level Parquet column as a Sluice column: its field, where it lies in the file, and how its
 * values are decoded.
 *
 * @param field      the Sluice name and type
 * @param descriptor the Parquet column (path, physical type, definition level)
 * @param decoding   how values become a vector's values
 */
record ParquetColumn(Field field, ColumnDescriptor descriptor, Decoding decoding) {
    /** The Parquet types Sluice reads, as an error lists them. */
    static final String SUPPORTED = "INT32 and INT64 (plain or signed INT annotations), DATE, DECIMAL(p,s) with p up to"
            + " 38 and s up to 18 (stored as INT32, INT64, FIXED_LEN_BYTE_ARRAY or BINARY), and BINARY as STRING, ENUM,"
            + " JSON or unannotated; each a required or optional top-level column";

    /** Whether a row may be null (the column is optional). */
    boolean nullable() {
        return descriptor.getMaxDefinitionLevel() > 0;
    }

    /**
     * Maps a top-level column of {@code file}.
     *
     * @throws StorageException when Sluice has no type for it or it is nested or repeated, naming the file, the
     *                          column, its type and what Sluice reads
     */
    static ParquetColumn of(final String file, final Type type, final ColumnDescriptor descriptor) {
        final String name = type.getName();
        if (!type.isPrimitive() || type.isRepetition(Type.Repetition.REPEATED)) {
            throw unsupported(file, name, type.toString().trim(), "nested and repeated columns are not read");
        }
        final PrimitiveType p = type.asPrimitiveType();
        final LogicalTypeAnnotation logical = p.getLogicalTypeAnnotation();
        final String shown = p.getPrimitiveTypeName() + (logical == null ? "" : " (" + logical + ")");
        final ColumnType sluiceType;
        final Decoding decoding;
        if (logical instanceof DecimalLogicalTypeAnnotation d) {
            if (d.getPrecision() > ColumnType.MAX_DECIMAL128_PRECISION || d.getScale() > ColumnType.MAX_DECIMAL_PRECISION
                    || d.getScale() < 0 || d.getScale() > d.getPrecision()) {
                throw unsupported(file, name, shown, "the precision or scale is out of range");
            }
            sluiceType = ColumnType.decimal(d.getPrecision(), d.getScale());
            decoding = switch (p.getPrimitiveTypeName()) {
                case INT32 -> Decoding.INT32_AS_LONG;
                case INT64 -> Decoding.INT64;
                case FIXED_LEN_BYTE_ARRAY, BINARY -> d.getPrecision() > ColumnType.MAX_DECIMAL_PRECISION
                        ? Decoding.DECIMAL128_BYTES : Decoding.DECIMAL_BYTES;
                default -> throw unsupported(file, name, shown, "a decimal must be stored as INT32, INT64,"
                        + " FIXED_LEN_BYTE_ARRAY or BINARY");
            };
            if (d.getPrecision() > ColumnType.MAX_DECIMAL_PRECISION && decoding != Decoding.DECIMAL128_BYTES) {
                throw unsupported(file, name, shown, "a decimal of more than 18 digits must be stored as bytes");
            }
        } else {
            switch (p.getPrimitiveTypeName()) {
                case INT32 -> {
                    if (logical instanceof DateLogicalTypeAnnotation) {
                        sluiceType = ColumnType.DATE;
                    } else if (logical == null || logical instanceof IntLogicalTypeAnnotation i && i.isSigned()) {
                        sluiceType = ColumnType.INT32;
                    } else {
                        throw unsupported(file, name, shown, null);
                    }
                    decoding = Decoding.INT32;
                }
                case INT64 -> {
                    if (logical == null || logical instanceof IntLogicalTypeAnnotation i && i.isSigned()) {
                        sluiceType = ColumnType.INT64;
                    } else {
                        throw unsupported(file, name, shown, null);
                    }
                    decoding = Decoding.INT64;
                }
                case BINARY -> {
                    if (logical == null || logical instanceof StringLogicalTypeAnnotation
                            || logical instanceof EnumLogicalTypeAnnotation || logical instanceof JsonLogicalTypeAnnotation) {
                        sluiceType = ColumnType.STRING;
                    } else {
                        throw unsupported(file, name, shown, null);
                    }
                    decoding = Decoding.STRING;
                }
                default -> throw unsupported(file, name, shown, null);
            }
        }
        final Field field;
        try {
            field = new Field(name, sluiceType);
        } catch (final IllegalArgumentException e) {
            throw new StorageException("parquet file " + file + " has column '" + name + "', a name Sluice cannot use ("
                    + e.getMessage() + "); rename the column when writing the file");
        }
        return new ParquetColumn(field, descriptor, decoding);
    }

    private static StorageException unsupported(final String file, final String column, final String type,
                                                final String why) {
        return new StorageException("parquet file " + file + " column '" + column + "' has type " + type
                + ", which Sluice does not read" + (why == null ? "" : " (" + why + ")") + ": it reads " + SUPPORTED
                + "; cast the column to one of them when writing the file, or leave it out");
    }
}
