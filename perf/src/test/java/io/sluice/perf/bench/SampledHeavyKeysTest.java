package io.sluice.perf.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.QueryStats;
import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.plan.DecidedPlan;
import io.sluice.engine.plan.PhysicalPlanner;
import io.sluice.engine.plan.PlanNode;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.format.Schema;
import io.sluice.perf.duckdb.DuckDbLoader;
import io.sluice.shuffle.Topology;
import io.sluice.sql.SqlPlanner;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import io.sluice.storage.TableSpec;
import io.sluice.storage.TableWriter;
import io.sluice.zonemap.HeavyKey;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Heavy keys of a table that keeps no sketch (written without statistics, in random key order, so that its
 * zonemaps all span the whole key range): the planner samples the key column, finds the keys DuckDB counts with
 * about their shares, dispatches them apart, and the probe shuffle's fullest bucket falls to within the issue's
 * goal of the mean, with the answers DuckDB's.
 */
class SampledHeavyKeysTest {
    private static final Topology THREE_BY_TWO = Topology.parse("3x2");
    private static final int FACT_ROWS = 200_000;
    private static final int DIMENSION_ROWS = 20_000;
    private static final String JOIN = "select count(*) as n, sum(f.v) as sv, sum(d.w) as sw"
            + " from f join d on f.fk = d.dk";

    @TempDir
    static Path dir;

    private static Store store;
    private static StoreCatalog catalog;
    private static Connection duck;
    private static SqlPlanner planner;
    private static Session session;

    @BeforeAll
    static void load() throws Exception {
        store = Store.create(dir.resolve("store"));
        final SplittableRandom random = new SplittableRandom(4);
        // 30% of the fact rows on one key and 10% on another, the rest uniform over the dimension's keys.
        try (TableWriter writer = store.write(TableSpec.of("f", Schema.parse("fk:int64,v:int64")))) {
            for (int r = 0; r < FACT_ROWS; r++) {
                final double u = random.nextDouble();
                writer.column(0).appendLong(u < 0.3 ? 4242 : u < 0.4 ? 777 : random.nextInt(DIMENSION_ROWS));
                writer.column(1).appendLong(r);
                writer.endRow();
            }
            writer.finish().close();
        }
        try (TableWriter writer = store.write(TableSpec.of("d", Schema.parse("dk:int64,w:int64")))) {
            for (int r = 0; r < DIMENSION_ROWS; r++) {
                writer.column(0).appendLong(r);
                writer.column(1).appendLong(3L * r);
                writer.endRow();
            }
            writer.finish().close();
        }
        catalog = new StoreCatalog(store);
        duck = DuckDbLoader.openInMemory(1);
        DuckDbLoader.load(store, List.of("f", "d"), duck);
        planner = new SqlPlanner(catalog, List.of("f", "d"));
        session = new Session(store, THREE_BY_TWO);
    }

    @AfterAll
    static void close() {
        CloseHelper.closeAll(session, duck, catalog);
    }

    @Test
    void theTableKeepsNoSketch() {
        assertThat(store.table("f").statistics()).isNull();
    }

    @Test
    void theSampleFindsTheKeysDuckDbCountsWithAboutTheirShares() throws Exception {
        for (final Strategy strategy : List.of(Strategy.SHUFFLE_RANGE, Strategy.SHUFFLE_HASH)) {
            final DecidedPlan decided = PhysicalPlanner.plan(planner.plan(JOIN).plan(),
                    StrategyConfig.defaults().withStrategy(strategy), catalog, THREE_BY_TWO, true);
            final Map<PlanNode, List<HeavyKey>> heavy = decided.heavyKeys();
            assertThat(heavy).as(strategy.cliName()).hasSize(1);
            final List<HeavyKey> keys = heavy.values().iterator().next();
            final List<long[]> top = duckDbTopKeys(2);
            assertThat(keys).as(strategy.cliName()).hasSizeGreaterThanOrEqualTo(2);
            for (int i = 0; i < 2; i++) {
                assertThat(keys.get(i).key()).isEqualTo(top.get(i)[0]);
                assertThat(keys.get(i).share()).isCloseTo((double) top.get(i)[1] / FACT_ROWS, offset(0.03));
            }
        }
    }

    @Test
    void theProbeShuffleBalancesWithinTheGoalAndAnswersAsDuckDb() throws Exception {
        for (final Strategy strategy : List.of(Strategy.SHUFFLE_RANGE, Strategy.SHUFFLE_HASH)) {
            final StrategyConfig config = StrategyConfig.defaults().withStrategy(strategy);
            final Session.Execution owner = session.execute("owner", planner.plan(JOIN).plan(),
                    config.withHeavyKeys(false));
            final Session.Execution perKey = session.execute("per key", planner.plan(JOIN).plan(), config);
            assertThat(cells(owner.result())).isEqualTo(duckDb(JOIN));
            assertThat(cells(perKey.result())).isEqualTo(duckDb(JOIN));
            final double before = probeShuffle(owner);
            final double after = probeShuffle(perKey);
            System.out.printf("probe shuffle max/mean on 3x2, %s, sampled heavy keys: %.3f -> %.3f%n",
                    strategy.cliName(), before, after);
            // Without dispatch apart the 30% key alone fills 1.8 mean buckets of six; the goal is 1.15.
            assertThat(before).isGreaterThan(0.3 * THREE_BY_TWO.bucketCount());
            assertThat(after).isLessThanOrEqualTo(1.15);
        }
    }

    private static double probeShuffle(final Session.Execution run) {
        for (final QueryStats.ExchangeStats e : run.stats().exchanges()) {
            if (e.mode().equals("TO_OWNER") && e.keys().equals(List.of("fk"))) {
                long most = 0;
                long all = 0;
                for (final long r : e.bucketRows()) {
                    most = Math.max(most, r);
                    all += r;
                }
                return (double) most * e.bucketRows().length / all;
            }
        }
        throw new AssertionError("no shuffle by fk in " + run.stats().exchanges());
    }

    /** The most frequent keys of f with their row counts, heaviest first. */
    private static List<long[]> duckDbTopKeys(final int n) throws Exception {
        final List<long[]> top = new ArrayList<>();
        try (Statement s = duck.createStatement();
             ResultSet rs = s.executeQuery("select fk, count(*) from f group by fk order by 2 desc limit " + n)) {
            while (rs.next()) {
                top.add(new long[] {rs.getLong(1), rs.getLong(2)});
            }
        }
        return top;
    }

    private static List<String> duckDb(final String sql) throws Exception {
        final List<String> row = new ArrayList<>();
        try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            for (int c = 1; c <= rs.getMetaData().getColumnCount(); c++) {
                row.add(new BigDecimal(rs.getObject(c).toString()).stripTrailingZeros().toPlainString());
            }
        }
        return row;
    }

    private static List<String> cells(final QueryResult result) {
        assertThat(result.rows()).hasSize(1);
        final List<String> row = new ArrayList<>();
        for (final Object v : result.rows().get(0)) {
            row.add(new BigDecimal(v.toString()).stripTrailingZeros().toPlainString());
        }
        return row;
    }
}
