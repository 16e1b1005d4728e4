package io.sluice.perf.tpch;

import io.sluice.dispatch.cluster.Session;
import io.sluice.engine.plan.PlanNode;
import io.sluice.engine.plan.QueryRunner;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.shuffle.Topology;
import io.sluice.sql.SqlPlanner;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.stream.Stream;
import org.agrona.CloseHelper;
import org.junit.jupiter.params.provider.Arguments;

/**
 * TPC-H SF 0.01 in a store and in DuckDB, a SQL planner over it and an embedded cluster session:
 * what the DuckDB-checked tests of one SQL operator share. A statement runs on one CN's three
 * workers or on a cluster shape under a strategy and must return DuckDB's rows for the same text
 * (in order: each statement orders its result completely).
 */
final class SqlOracle implements AutoCloseable {
    /** The embedded cluster shapes every statement runs on. */
    static final List<String> TOPOLOGIES = List.of("1x1", "3x2");

    private final TpchOracle oracle;
    private final SqlPlanner planner;
    private final Session session;

    private SqlOracle(final TpchOracle oracle) {
        this.oracle = oracle;
        this.planner = new SqlPlanner(oracle.catalog(), oracle.store().tableNames());
        this.session = new Session(oracle.store(), new Topology(1, 1));
    }

    /** Generates the tables into {@code dir}; close it when done. */
    static SqlOracle generate(final Path dir) throws Exception {
        final TpchOracle oracle = TpchOracle.generate(dir, 0.01);
        try {
            return new SqlOracle(oracle);
        } catch (final RuntimeException | Error e) {
            oracle.close();
            throw e;
        }
    }

    TpchOracle oracle() {
        return oracle;
    }

    SqlPlanner planner() {
        return planner;
    }

    /** The session, on the given shape. */
    Session session(final String topology) {
        session.topology(Topology.parse(topology));
        return session;
    }

    /** Runs a statement on one CN's three workers and compares it with DuckDB. */
    void assertOnOneCn(final String name, final String sql, final Strategy strategy) throws Exception {
        try (QueryRunner runner = new QueryRunner(oracle.catalog(), 3, StrategyConfig.defaults().withStrategy(strategy))) {
            oracle.assertSameAsDuckDb(name, sql, runner.run(planner.plan(sql).plan()));
        }
    }

    /** Runs a statement on an embedded cluster of the given shape and compares it with DuckDB. */
    Session.Execution assertOnCluster(final String topology, final String name, final String sql,
                                      final Strategy strategy) throws Exception {
        final Session.Execution execution = session(topology).execute("q-" + Math.abs(name.hashCode()),
                planner.plan(sql).plan(), StrategyConfig.defaults().withStrategy(strategy));
        oracle.assertSameAsDuckDb(name, sql, execution.result());
        return execution;
    }

    /** (name, strategy) for every name and strategy. */
    static Stream<Arguments> withStrategies(final Collection<String> names) {
        final List<Arguments> cases = new ArrayList<>();
        for (final String n : names) {
            for (final Strategy s : Strategy.values()) {
                cases.add(Arguments.of(n, s));
            }
        }
        return cases.stream();
    }

    /** (topology, name, strategy) for every shape of {@link #TOPOLOGIES}, name and strategy. */
    static Stream<Arguments> withTopologiesAndStrategies(final Collection<String> names) {
        final List<Arguments> cases = new ArrayList<>();
        for (final String t : TOPOLOGIES) {
            withStrategies(names).forEach(a -> cases.add(Arguments.of(t, a.get()[0], a.get()[1])));
        }
        return cases.stream();
    }

    /** Nodes of a class in a plan tree, found through the records' node-valued components. */
    static int count(final Object node, final Class<?> type) {
        if (node instanceof List<?> list) {
            int n = 0;
            for (final Object o : list) {
                n += count(o, type);
            }
            return n;
        }
        if (!(node instanceof PlanNode)) {
            return 0;
        }
        int n = type.isInstance(node) ? 1 : 0;
        for (final RecordComponent c : node.getClass().getRecordComponents()) {
            try {
                n += count(c.getAccessor().invoke(node), type);
            } catch (final ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
        return n;
    }

    @Override
    public void close() {
        CloseHelper.closeAll(session, () -> oracle.close());
    }
}
