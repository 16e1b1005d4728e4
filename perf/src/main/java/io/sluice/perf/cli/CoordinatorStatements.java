package io.sluice.perf.cli;

import io.sluice.dispatch.cluster.QueryFailedException;
import io.sluice.dispatch.cluster.Session;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.text.Plural;
import io.sluice.transport.Endpoint;
import java.io.PrintWriter;
import java.util.List;

/**
 * {@code sluice sql --coordinator} without {@code --store}: sends each statement's text to the coordinator, which
 * plans it from its own store and decides it for its CNs; this process reads no store.
 */
final class CoordinatorStatements {
    private CoordinatorStatements() {
    }

    /**
     * Runs the statements one after the other, printing each one's rows; a statement that fails stops the rest.
     *
     * @return null when all ran, else the message of the first that failed
     */
    static String run(final ClusterOptions cluster, final RunOptions run, final StrategyConfig config,
                      final List<String> statements, final PrintWriter out, final PrintWriter err) {
        final long timeoutMillis = cluster.timeoutMillis();
        cluster.checkStatsPath();
        try (Session session = Session.connect(Endpoint.parse(cluster.coordinator, false), Session.defaultTransport(),
                cluster.secret.context())) {
            session.shape(run.cn == null ? 0 : run.cn, run.cores == null ? 0 : run.cores);
            final boolean several = statements.size() > 1;
            for (int i = 0; i < statements.size(); i++) {
                final Session.Execution ran;
                try {
                    ran = session.executeSql("sql", statements.get(i), config, timeoutMillis);
                } catch (final QueryFailedException e) {
                    return e.getMessage();
                }
                cluster.writeStats(ran.stats());
                out.print(several && i > 0 ? ResultPrinter.separator(run.format) : "");
                out.print(ResultPrinter.format(ran.result(), ran.columns(), run.format));
                out.flush();
                if (several && run.format == ResultFormat.csv) {
                    // The count goes beside the rows, not among them: stdout stays CSV.
                    err.println("(" + Plural.of(ran.result().rowCount(), "row") + ")");
                    err.flush();
                }
            }
            return null;
        }
    }
}
