package io.sluice.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's type system with DuckDB's decimal limits: decimals of up to 38 digits, and SUM of a
 * DECIMAL(p,s) a DECIMAL(38,s), the exact 128-bit sum the engine computes. Public only because
 * Calcite instantiates its type system by reflection.
 */
public final class DecimalTypeSystem extends RelDataTypeSystemImpl {
    /** The one instance; Calcite also makes its own by reflection, hence the public constructor. */
    public static final DecimalTypeSystem INSTANCE = new DecimalTypeSystem();
    private static final int MAX_DECIMAL_PRECISION = 38;

    /** The type system; use {@link #INSTANCE}. */
    public DecimalTypeSystem() {
    }

    @Override
    public int getMaxPrecision(final SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? MAX_DECIMAL_PRECISION : super.getMaxPrecision(typeName);
    }

    @Override
    public RelDataType deriveSumType(final RelDataTypeFactory typeFactory, final RelDataType argumentType) {
        if (argumentType.getSqlTypeName() == SqlTypeName.DECIMAL) {
            return typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.DECIMAL,
                    MAX_DECIMAL_PRECISION, argumentType.getScale()), argumentType.isNullable());
        }
        return super.deriveSumType(typeFactory, argumentType);
    }
}
