package io.sluice.perf.cli;

import io.sluice.dispatch.cluster.ClusterContext;
import io.sluice.dispatch.cluster.Session;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.transport.ClusterSecret;
import io.sluice.transport.Endpoint;
import java.nio.file.Path;

/**
 * A client program with no store: sends the SQL text given as its third argument to the coordinator given as
 * its first (with the secret file given as its second) and prints the answer as CSV, headed by the columns' names
 * as SQL gives them, for tests that a client
 * needs no copy of the store.
 */
public final class StorelessSqlClient {
    private StorelessSqlClient() {
    }

    public static void main(final String[] args) {
        final ClusterContext context = new ClusterContext().secret(ClusterSecret.read(Path.of(args[1])));
        try (Session session = Session.connect(Endpoint.parse(args[0], false), Session.defaultTransport(), context)) {
            final Session.Execution ran = session.executeSql("storeless", args[2], StrategyConfig.defaults(), 120_000);
            System.out.print(ResultPrinter.format(ran.result(), ran.columns(), ResultFormat.csv));
            System.out.flush();
        }
    }
}
