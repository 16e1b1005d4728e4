package io.sluice.perf.cluster;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.Session;
import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.SortKey;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.tpch.Query;
import io.sluice.perf.tpch.TpchOracle;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exchanges stream with bounded memory: three CN processes whose heap is capped at 32 MiB each run a
 * hash-shuffled query at SF 0.1 whose exchanges move about 600 MiB (about 200 MiB into each CN), and
 * answer as DuckDB does. Holding a CN's share of an exchange before consuming it, as a materializing
 * receiver would, cannot fit.
 */
class BoundedExchangeMemoryTest {
    private static final long HEAP_CAP = 32L << 20;

    @TempDir
    static Path dir;

    private static OracleCluster fixture;
    private static TpchOracle oracle;
    private static ProcessCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        fixture = OracleCluster.onLoopback(dir, 0.1, 3, 2, "-Xmx" + (HEAP_CAP >> 20) + "m");
        oracle = fixture.oracle();
        cluster = fixture.cluster();
    }

    @AfterAll
    static void stop() throws Exception {
        if (fixture != null) {
            fixture.close();
        }
    }

    /** Every lineitem row once per nation (15 million rows), grouped by supplier after a hash shuffle. */
    private static final Query EVERY_ROW_PER_NATION = new Query() {
        @Override
        public String name() {
            return "lineitem_x_nation";
        }

        @Override
        public String sql() {
            return "SELECT l_suppkey, count(*) AS n, sum(l_quantity) AS q, sum(n_nationkey) AS s"
                    + " FROM lineitem, nation GROUP BY l_suppkey ORDER BY l_suppkey";
        }

        @Override
        public List<String> tables() {
            return List.of("lineitem", "nation");
        }

        @Override
        public Plan plan() {
            return Plan.scan("lineitem", "l_suppkey", "l_quantity")
                    .project(NamedExpr.column("l_suppkey"), NamedExpr.column("l_quantity"),
                            new NamedExpr("one", Expr.lit(1)))
                    .join(JoinType.INNER, Plan.scan("nation", "n_nationkey")
                                    .project(NamedExpr.column("n_nationkey"), new NamedExpr("k", Expr.lit(1))),
                            List.of("one"), List.of("k"))
                    .aggregate(Plan.groupBy("l_suppkey"), Plan.count("n"), Plan.sum(col("l_quantity"), "q"),
                            Plan.sum(col("n_nationkey"), "s"))
                    .orderBy(SortKey.asc("l_suppkey"));
        }
    };

    @Test
    void aHashShuffleMovingManyTimesEachCnsHeapStreamsThroughCnsCappedAt32MiB() throws Exception {
        final Session session = cluster.session();
        session.shape(3, 2);
        final Session.Execution execution = session.execute(EVERY_ROW_PER_NATION.name(), EVERY_ROW_PER_NATION.plan(),
                StrategyConfig.defaults().withStrategy(Strategy.SHUFFLE_HASH));
        oracle.assertSameAsDuckDb(EVERY_ROW_PER_NATION, execution.result());
        final long moved = execution.stats().bytesRemote() + execution.stats().bytesLocal();
        assertThat(moved / 3).as("bytes into each CN on average, against a heap of %d", HEAP_CAP)
                .isGreaterThan(5 * HEAP_CAP);
        assertThat(execution.stats().bytesRemote()).as("bytes between the CN processes").isGreaterThan(10 * HEAP_CAP);
    }
}
