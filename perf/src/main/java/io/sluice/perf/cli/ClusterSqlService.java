package io.sluice.perf.cli;

import io.aeron.Aeron;
import io.sluice.dispatch.cluster.ClusterClient;
import io.sluice.dispatch.cluster.ClusterContext;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.format.Schema;
import io.sluice.perf.mysql.RunSettings;
import io.sluice.perf.mysql.SqlService;
import io.sluice.perf.mysql.StatementResult;
import io.sluice.sql.PlannedQuery;
import io.sluice.sql.SqlPlanner;
import io.sluice.transport.Endpoint;
import io.sluice.transport.TransportContext;
import java.util.List;

/**
 * The SQL of the MySQL server in a coordinator process, run as {@code sluice sql --coordinator --store}
 * (or {@code --parquet}) runs it: planned by one {@link SqlPlanner} over the coordinator's tables, and shipped to the coordinator
 * by a {@link ClusterClient} of each MySQL connection (on the coordinator's own media driver), so every
 * statement passes the coordinator's admission line, runs on the CNs, cores and strategy its connection's
 * {@link RunSettings} say (every CN alive by default), and is cancelled alone.
 */
final class ClusterSqlService implements SqlService {
    private final TableSource tables;
    private final SqlPlanner planner;
    private final Aeron aeron;
    private final Endpoint coordinator;
    private final ClusterContext context;
    private final TransportContext transport;
    private final StrategyConfig config;

    ClusterSqlService(final TableSource tables, final Aeron aeron, final Endpoint coordinator, final ClusterContext context,
                      final TransportContext transport, final StrategyConfig config) {
        this.tables = tables;
        this.planner = new SqlPlanner(tables.catalog(), tables.names());
        this.aeron = aeron;
        this.coordinator = coordinator;
        this.context = context;
        this.transport = transport;
        this.config = config;
    }

    @Override
    public List<String> tables() {
        return tables.names().stream().sorted().toList();
    }

    @Override
    public Schema columns(final String table) {
        for (final String t : tables.names()) {
            if (t.equalsIgnoreCase(table)) {
                return tables.catalog().table(t).schema();
            }
        }
        return null;
    }

    @Override
    public Statements open(final String client) {
        final ClusterClient cluster = ClusterClient.udp(aeron, coordinator, context, transport);
        try {
            cluster.awaitReachable();
        } catch (final RuntimeException e) {
            cluster.close();
            throw e;
        }
        return new Statements() {
            @Override
            public StatementResult execute(final String sql, final RunSettings settings) {
                final PlannedQuery planned = planner.plan(sql);
                return new StatementResult(cluster.execute(client, planned.plan(),
                        config.withStrategy(Strategy.parse(settings.strategy())), settings.cnCount(), settings.cores(),
                        settings.timeoutMillis()).result(), planned.columns());
            }

            @Override
            public void cancel(final String reason) {
                cluster.cancelAll(reason);
            }

            @Override
            public void close() {
                cluster.close();
            }
        };
    }

    @Override
    public void close() {
        tables.close();
    }
}
