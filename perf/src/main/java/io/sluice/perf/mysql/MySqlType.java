package io.sluice.perf.mysql;

import io.sluice.engine.expr.DataType;
import io.sluice.format.ColumnType;

/**
 * How a Sluice type appears to a MySQL client: the column type code of a result set's column
 * definition, its display length and decimals, and the type name DESCRIBE prints. Exact decimals are
 * NEWDECIMAL with their scale (a decimal held as a scaled long has up to 18 digits, a 128-bit one up to
 * 38), averages DOUBLE, dates DATE, 64-bit integers BIGINT (LONGLONG), strings VARCHAR (VAR_STRING in
 * utf8mb4).
 */
enum MySqlType {
    TINY(0x01), LONG(0x03), DOUBLE(0x05), LONGLONG(0x08), DATE(0x0A), NEWDECIMAL(0xF6), VAR_STRING(0xFD);

    /** utf8mb4_general_ci, which MySQL and MariaDB clients both know. */
    static final int UTF8MB4 = 45;
    /** The "binary" character set of numbers and dates. */
    static final int BINARY = 63;
    /** MySQL's NOT_FIXED_DEC: a floating-point column has no fixed number of decimals. */
    static final int NOT_FIXED_DECIMALS = 31;
    private static final int BINARY_FLAG = 128;
    private static final int NUM_FLAG = 32768;
    /** Display length given for strings: MySQL's 64 KiB VARCHAR limit in utf8mb4 characters (4 bytes each). */
    private static final int STRING_LENGTH = 65535 * 4;

    private final int code;

    MySqlType(final int code) {
        this.code = code;
    }

    int code() {
        return code;
    }

    /** The MySQL type of a result column of this Sluice type. */
    static MySqlType of(final DataType type) {
        return switch (type.kind()) {
            case INT64 -> LONGLONG;
            case INT32 -> LONG;
            case DECIMAL, DECIMAL128 -> NEWDECIMAL;
            case DOUBLE -> DOUBLE;
            case DATE -> DATE;
            case STRING -> VAR_STRING;
            case BOOLEAN -> TINY;
        };
    }

    /** The character set id of a column of this type. */
    int charset() {
        return this == VAR_STRING ? UTF8MB4 : BINARY;
    }

    /** The column's flags: numbers and dates are binary, numbers also NUM. */
    int flags() {
        return switch (this) {
            case VAR_STRING -> 0;
            case DATE -> BINARY_FLAG;
            default -> BINARY_FLAG | NUM_FLAG;
        };
    }

    /** The display length MySQL reports for a column of {@code type}. */
    static long length(final DataType type) {
        return switch (type.kind()) {
            case INT64 -> 20;
            case INT32 -> 11;
            case DECIMAL -> 18 + 2;
            case DECIMAL128 -> 38 + 2;
            case DOUBLE -> 22;
            case DATE -> 10;
            case STRING -> STRING_LENGTH;
            case BOOLEAN -> 1;
        };
    }

    /** The decimals MySQL reports for a column of {@code type}. */
    static int decimals(final DataType type) {
        return switch (type.kind()) {
            case DECIMAL, DECIMAL128 -> type.scale();
            case DOUBLE -> NOT_FIXED_DECIMALS;
            default -> 0;
        };
    }

    /** The column type DESCRIBE prints for a stored column: bigint, int, decimal(15,2), date, varchar(65535). */
    static String describe(final ColumnType type) {
        return switch (type.kind()) {
            case INT64 -> "bigint";
            case INT32 -> "int";
            case DECIMAL, DECIMAL128 -> "decimal(" + type.precision() + "," + type.scale() + ")";
            case DATE -> "date";
            case STRING -> "varchar(65535)";
        };
    }
}
