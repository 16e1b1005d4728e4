package io.sluice.perf.tpch;

import io.sluice.engine.plan.Plan;
import io.sluice.format.spi.Catalog;
import io.sluice.sql.SqlPlanner;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import java.util.List;

/**
 * A TPC-H query planned from its SQL text ({@link TpchSql}) over a store or another catalog (Parquet
 * files), for the queries the registry has no hand-written plan for ({@code sluice query --tpch N}).
 */
public final class TpchSqlQuery implements Query {
    private final int number;
    private final Store store;
    private final Catalog catalog;
    private final List<String> tableNames;

    /** TPC-H query {@code number} (1 to 22) over the tables of {@code store}. */
    public TpchSqlQuery(final int number, final Store store) {
        TpchSql.text(number);
        this.number = number;
        this.store = store;
        this.catalog = null;
        this.tableNames = null;
    }

    /** TPC-H query {@code number} (1 to 22) over the tables {@code tableNames} of {@code catalog}, which the caller owns. */
    public TpchSqlQuery(final int number, final Catalog catalog, final List<String> tableNames) {
        TpchSql.text(number);
        this.number = number;
        this.store = null;
        this.catalog = catalog;
        this.tableNames = List.copyOf(tableNames);
    }

    @Override
    public String name() {
        return "q" + number;
    }

    @Override
    public String sql() {
        return TpchSql.text(number);
    }

    /** The TPC-H tables the text names. */
    @Override
    public List<String> tables() {
        return TpchSql.tables(number);
    }

    /** Plans the text against the store's (or the catalog's) tables now. */
    @Override
    public Plan plan() {
        if (catalog != null) {
            return new SqlPlanner(catalog, tableNames).plan(sql()).plan();
        }
        try (StoreCatalog catalog = new StoreCatalog(store)) {
            return new SqlPlanner(catalog, store.tableNames()).plan(sql()).plan();
        }
    }
}
