package io.sluice.perf.cluster;

import io.sluice.dispatch.cluster.ClusterContext;
import io.sluice.dispatch.cluster.Session;
import io.sluice.engine.exec.JoinType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.transport.ClusterSecret;
import io.sluice.transport.Endpoint;
import java.nio.file.Path;
import java.util.List;

/**
 * A query that runs until it is stopped: every lineitem row paired with every other (3.6 billion pairs
 * at SF 0.01, 360 billion at SF 0.1), counted. As a program, a client that runs it on the coordinator
 * given as its first argument (with the secret file given as its second, if any), for tests that end
 * a client process.
 */
public final class EndlessQuery {
    /** The line the program prints once it has sent the query. */
    public static final String RUNNING = "endless query sent";

    private EndlessQuery() {
    }

    /** The plan. */
    public static Plan plan() {
        return Plan.scan("lineitem", "l_quantity").project(new NamedExpr("one", Expr.lit(1)))
                .join(JoinType.INNER, Plan.scan("lineitem", "l_linenumber").project(new NamedExpr("k", Expr.lit(1))),
                        List.of("one"), List.of("k"))
                .aggregate(Plan.noKeys(), Plan.count("pairs"));
    }

    /** Broadcast, so every CN of the query reads and probes its share at once. */
    public static StrategyConfig config() {
        return StrategyConfig.defaults().withStrategy(Strategy.BROADCAST);
    }

    public static void main(final String[] args) {
        final ClusterContext context = new ClusterContext()
                .secret(args.length > 1 ? ClusterSecret.read(Path.of(args[1])) : null);
        try (Session session = Session.connect(Endpoint.parse(args[0], false), Session.defaultTransport(), context)) {
            new Thread(() -> {
                try {
                    Thread.sleep(300);
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                System.out.println(RUNNING);
            }).start();
            session.execute("endless", plan(), config());
        }
    }
}
