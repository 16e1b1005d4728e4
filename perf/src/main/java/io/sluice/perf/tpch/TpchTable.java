package io.sluice.perf.tpch;

import io.sluice.format.ColumnType;
import io.sluice.format.Field;
import io.sluice.format.Schema;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchColumnType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The eight TPC-H tables with their standard schemas (keys as int64, other integers as int32,
 * money and quantities as decimal(15,2), dates, strings) and the column each is stored sorted by.
 */
public enum TpchTable {
    REGION(io.trino.tpch.TpchTable.REGION, "r_regionkey", 5, 0),
    NATION(io.trino.tpch.TpchTable.NATION, "n_nationkey", 25, 0),
    SUPPLIER(io.trino.tpch.TpchTable.SUPPLIER, "s_suppkey", 0, 10_000),
    CUSTOMER(io.trino.tpch.TpchTable.CUSTOMER, "c_custkey", 0, 150_000),
    PART(io.trino.tpch.TpchTable.PART, "p_partkey", 0, 200_000),
    PARTSUPP(io.trino.tpch.TpchTable.PART_SUPPLIER, "ps_partkey", 0, 800_000),
    ORDERS(io.trino.tpch.TpchTable.ORDERS, "o_orderkey", 0, 1_500_000),
    LINEITEM(io.trino.tpch.TpchTable.LINE_ITEM, "l_orderkey", 0, 6_001_215);

    private final io.trino.tpch.TpchTable<?> generator;
    private final String sortKey;
    private final long fixedRows;
    private final long rowsPerScale;
    private final Schema schema;

    TpchTable(final io.trino.tpch.TpchTable<?> generator, final String sortKey, final long fixedRows,
              final long rowsPerScale) {
        this.generator = generator;
        this.sortKey = sortKey;
        this.fixedRows = fixedRows;
        this.rowsPerScale = rowsPerScale;
        final List<Field> fields = new ArrayList<>();
        for (final TpchColumn<?> column : generator.getColumns()) {
            fields.add(new Field(column.getColumnName(), typeOf(column.getType())));
        }
        this.schema = new Schema(fields);
    }

    private static ColumnType typeOf(final TpchColumnType type) {
        return switch (type.getBase()) {
            case IDENTIFIER -> ColumnType.INT64;
            case INTEGER -> ColumnType.INT32;
            case DATE -> ColumnType.DATE;
            case DOUBLE -> ColumnType.decimal(15, 2);
            case VARCHAR -> ColumnType.STRING;
        };
    }

    /** The table's name in a store ({@code lineitem}, {@code orders}, ...). */
    public String tableName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The standard schema. */
    public Schema schema() {
        return schema;
    }

    /** The primary-key column the generator emits rows in order of. */
    public String sortKey() {
        return sortKey;
    }

    /** Rows at a scale factor (exact, except lineitem, which is within a fraction of a percent). */
    public long expectedRows(final double scaleFactor) {
        return fixedRows > 0 ? fixedRows : (long) (rowsPerScale * scaleFactor);
    }

    io.trino.tpch.TpchTable<?> generator() {
        return generator;
    }

    /** The table of a store name; the error lists the names. */
    public static TpchTable of(final String name) {
        for (final TpchTable t : values()) {
            if (t.tableName().equals(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown TPC-H table '" + name + "': use one of "
                + java.util.Arrays.stream(values()).map(TpchTable::tableName).toList());
    }
}
