package io.sluice.perf.cli;

import io.sluice.perf.text.Plural;
import io.sluice.sql.PlannedQuery;
import io.sluice.sql.SqlException;
import io.sluice.sql.SqlPlanner;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * What {@code sluice sql} does with one statement, in one-shot and at the prompt alike: plans it with
 * {@link SqlPlanner} (whose zonemap statistics it keeps from one statement to the next), runs the plan on
 * the {@link QueryTarget}, prints the rows, with --explain the estimates and the plan on stderr, and with
 * --stats-json writes what crossed CNs.
 */
final class SqlStatementRunner {
    /**
     * What one statement did.
     *
     * @param rows          the rows of its result
     * @param planningNanos the time SqlPlanner took to plan it
     * @param cached        whether the planner had kept its plan from an earlier run of the same text
     * @param runNanos      the time the plan took to run, its rows in memory
     */
    record Ran(int rows, long planningNanos, boolean cached, long runNanos) {
        /**
         * {@code (4 rows, planned in 2.1 ms, ran in 30.5 ms)} or {@code (4 rows, plan cached, ran in 30.5 ms)},
         * without the count when the rows printed it.
         */
        String describe(final boolean withCount) {
            return String.format(Locale.ROOT, "(%s%s, ran in %.1f ms)",
                    withCount ? Plural.of(rows, "row") + ", " : "",
                    cached ? "plan cached" : String.format(Locale.ROOT, "planned in %.1f ms", planningNanos / 1e6),
                    runNanos / 1e6);
        }
    }

    private final SqlPlanner planner;
    private final QueryTarget target;
    private final ResultFormat format;
    private final ExplainMode explain;
    private final ClusterOptions cluster;

    /** @param explain what --explain asked for; null without it */
    SqlStatementRunner(final SqlPlanner planner, final QueryTarget target, final ResultFormat format,
                       final ExplainMode explain, final ClusterOptions cluster) {
        this.planner = planner;
        this.target = target;
        this.format = format;
        this.explain = explain;
        this.cluster = cluster;
    }

    /**
     * Plans and runs one statement and prints its rows on {@code out}.
     *
     * @throws SqlException when the statement is not SQL Sluice can plan over the store's tables
     */
    Ran run(final String sql, final PrintWriter out, final PrintWriter err) {
        return run(sql, out, err, "");
    }

    /**
     * As {@link #run(String, PrintWriter, PrintWriter)}, printing {@code before} just before the rows: what
     * separates them from an earlier statement's, printed only once this one has rows to show.
     */
    Ran run(final String sql, final PrintWriter out, final PrintWriter err, final String before) {
        final PlannedQuery planned = planner.plan(sql);
        if (explain != null) {
            err.printf(Locale.ROOT, planned.cached() ? "plan cached (planned before, found in %.1f ms)%n"
                    : "planned in %.1f ms%n", planned.planningNanos() / 1e6);
            for (final String line : planned.estimates()) {
                err.println("estimate " + line);
            }
            err.println("plan " + planned.plan());
        }
        if (explain == ExplainMode.PLAN) {
            err.print(target.explain("sql", planned.plan()).render());
            err.flush();
            return new Ran(0, planned.planningNanos(), planned.cached(), 0);
        }
        final long start = System.nanoTime();
        final QueryTarget.Outcome outcome = explain == ExplainMode.ANALYZE ? target.analyze("sql", planned.plan())
                : target.run("sql", planned.plan());
        final long runNanos = System.nanoTime() - start;
        if (explain != null) {
            err.print(outcome.explain());
        }
        cluster.writeStats(outcome.stats());
        out.print(before);
        out.print(ResultPrinter.format(outcome.result(), planned.columns(), format));
        out.flush();
        err.flush();
        return new Ran(outcome.result().rowCount(), planned.planningNanos(), planned.cached(), runNanos);
    }

    /** Stops the statement running now (from another thread); its {@link #run} fails. */
    void cancel(final String reason) {
        target.cancel(reason);
    }
}
