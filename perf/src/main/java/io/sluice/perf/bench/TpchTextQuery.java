package io.sluice.perf.bench;

import io.sluice.engine.plan.Plan;
import io.sluice.perf.tpch.Query;
import io.sluice.perf.tpch.TpchSql;
import io.sluice.sql.SqlPlanner;
import java.util.ArrayList;
import java.util.List;

/**
 * A TPC-H query as {@code sluice bench} and {@code sluice query-bench} time it: from its standard SQL
 * text ({@link TpchSql}), the text DuckDB runs too, handed to {@link SqlPlanner} on every run, so that
 * each of q1..q22 is measured the same way and its planning is inside the timed run as DuckDB's is (the
 * planner plans a text once and keeps its plan for the runs after, unless its plan cache is off). The
 * hand-written Java plans of some queries stay the examples and tests of the plan builder; the benches
 * do not time them. A query named in a spec is bound to the bench's store by {@link #over} before it runs.
 */
public final class TpchTextQuery implements TextQuery {
    private final int number;
    private final String text;
    private final SqlPlanner planner;

    /** TPC-H query {@code number} (1 to 22), not yet bound to a store. */
    public TpchTextQuery(final int number) {
        this(number, null);
    }

    private TpchTextQuery(final int number, final SqlPlanner planner) {
        this.number = number;
        this.text = TpchSql.text(number);
        this.planner = planner;
    }

    @Override
    public TpchTextQuery over(final SqlPlanner sqlPlanner) {
        return new TpchTextQuery(number, sqlPlanner);
    }

    /** The queries, those planned from their text ({@link TextQuery}) bound to {@code sqlPlanner}, the others as they are. */
    public static List<Query> bind(final List<Query> queries, final SqlPlanner sqlPlanner) {
        final List<Query> bound = new ArrayList<>(queries.size());
        for (final Query q : queries) {
            bound.add(q instanceof TextQuery t ? t.over(sqlPlanner) : q);
        }
        return bound;
    }

    @Override
    public String name() {
        return "q" + number;
    }

    @Override
    public String sql() {
        return text;
    }

    @Override
    public List<String> tables() {
        return TpchSql.tables(number);
    }

    @Override
    public List<String> columns() {
        if (planner == null) {
            throw new IllegalStateException(name() + " is planned from its text over the bench's store: bind it with"
                    + " TpchTextQuery.bind(queries, planner) first");
        }
        return planner.plan(text).columns();
    }

    /**
     * Plans the text now.
     *
     * @throws IllegalStateException when the query was not bound to a store with {@link #over}
     */
    @Override
    public Plan plan() {
        if (planner == null) {
            throw new IllegalStateException(name() + " is planned from its text over the bench's store: bind it with"
                    + " TpchTextQuery.bind(queries, planner) first");
        }
        return planner.plan(text).plan();
    }
}
