package io.sluice.perf.tpch;

import io.sluice.engine.plan.Plan;
import java.time.LocalDate;
import java.util.List;

/**
 * A query Sluice answers: its name on the command line, its SQL text (what DuckDB runs to check
 * it), the tables it reads, and the physical plan that implements the SQL.
 */
public interface Query {
    /** The name used by {@code sluice query} ({@code q1}, {@code join_lo}, ...). */
    String name();

    /** The SQL text, with the specification's validation parameters substituted. */
    String sql();

    /** The tables the query reads. */
    List<String> tables();

    /** The physical plan. */
    Plan plan();

    /** A date as the zonemap key of a date column (days since epoch), for block pruning. */
    static long day(final String isoDate) {
        return LocalDate.parse(isoDate).toEpochDay();
    }
}
