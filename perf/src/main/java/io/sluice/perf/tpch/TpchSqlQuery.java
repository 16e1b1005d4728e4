package io.sluice.perf.tpch;

import io.sluice.engine.plan.Plan;
import io.sluice.sql.SqlPlanner;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import java.util.List;

/**
 * A TPC-H query planned from its SQL text ({@link TpchSql}) over a store, for the queries the
 * registry has no hand-written plan for ({@code sluice query --tpch N}).
 */
public final class TpchSqlQuery implements Query {
    private final int number;
    private final Store store;

    /** TPC-H query {@code number} (1 to 22) over the tables of {@code store}. */
    public TpchSqlQuery(final int number, final Store store) {
        TpchSql.text(number);
        this.number = number;
        this.store = store;
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

    /** Plans the text against the store's tables now. */
    @Override
    public Plan plan() {
        try (StoreCatalog catalog = new StoreCatalog(store)) {
            return new SqlPlanner(catalog, store.tableNames()).plan(sql()).plan();
        }
    }
}
