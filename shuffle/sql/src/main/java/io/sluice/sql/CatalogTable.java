package io.sluice.sql;

import io.sluice.format.ColumnType;
import io.sluice.format.Schema;
import io.sluice.format.ZoneMap;
import io.sluice.format.spi.BlockTable;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A {@link BlockTable} as Calcite's validator sees it: its columns with SQL types, nullable
 * exactly where a zonemap counts a null. Calcite never scans it; Sluice's plan does.
 */
final class CatalogTable extends AbstractTable {
    private final BlockTable table;

    CatalogTable(final BlockTable table) {
        this.table = table;
    }

    /** The table behind this one. */
    BlockTable table() {
        return table;
    }

    @Override
    public RelDataType getRowType(final RelDataTypeFactory types) {
        final Schema schema = table.schema();
        final RelDataTypeFactory.Builder row = types.builder();
        for (int c = 0; c < schema.size(); c++) {
            final RelDataType type = types.createTypeWithNullability(sqlType(types, schema.type(c)), hasNulls(c));
            row.add(schema.field(c).name(), type);
        }
        return row.build();
    }

    private boolean hasNulls(final int column) {
        for (final ZoneMap z : table.zoneMaps(column)) {
            if (z.nullCount() > 0) {
                return true;
            }
        }
        return false;
    }

    private static RelDataType sqlType(final RelDataTypeFactory types, final ColumnType type) {
        return switch (type.kind()) {
            case INT64 -> types.createSqlType(SqlTypeName.BIGINT);
            case INT32 -> types.createSqlType(SqlTypeName.INTEGER);
            case DECIMAL, DECIMAL128 -> types.createSqlType(SqlTypeName.DECIMAL, type.precision(), type.scale());
            case DATE -> types.createSqlType(SqlTypeName.DATE);
            case STRING -> types.createSqlType(SqlTypeName.VARCHAR);
        };
    }
}
