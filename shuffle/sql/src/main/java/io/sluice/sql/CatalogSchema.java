package io.sluice.sql;

import io.sluice.format.spi.Catalog;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

/** The tables of a {@link Catalog} as one Calcite schema, so statements name them without a prefix. */
final class CatalogSchema extends AbstractSchema {
    private final Map<String, Table> tables = new LinkedHashMap<>();

    /** A schema of the named tables of {@code catalog}, each opened once here. */
    CatalogSchema(final Catalog catalog, final Collection<String> names) {
        for (final String name : names) {
            tables.put(name, new CatalogTable(catalog.table(name)));
        }
    }

    @Override
    protected Map<String, Table> getTableMap() {
        return tables;
    }
}
