package io.sluice.perf.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.QueryStats;
import io.sluice.engine.exec.QueryResult;
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
import io.sluice.zonemap.TableSketch;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A range shuffle join whose probe's heavy keys are dispatched apart balances its build side as well as its
 * probe side. The fact table's key is Zipf(1) over a random permutation of the dimension's keys (as
 * {@code gen --skew 1} draws {@code l_partkey}), in random order, with a sketch; the dimension holds one row
 * per key. Cut at the probe's quantiles alone, the dimension's rows per bucket reached 1.24x their mean on 3x2 (the keys just
 * below the heavy share make the ranges holding them narrow); the boundaries now balance both sides, and every
 * shuffle of the join is within the goal (max/mean 1.15), with DuckDB's answers.
 */
class SkewedJoinBothSidesTest {
    private static final int FACT_ROWS = 400_000;
    private static final int DIMENSION_ROWS = 20_000;
    private static final double GOAL = 1.15;
    private static final String JOIN = "select count(*) as n, sum(f.v) as sv, sum(d.w) as sw"
            + " from f join d on f.fk = d.dk";

    @TempDir
    static Path dir;

    private static Store store;
    private static StoreCatalog catalog;
    private static Connection duck;
    private static SqlPlanner planner;

    @BeforeAll
    static void load() throws Exception {
        store = Store.create(dir.resolve("store"));
        final SplittableRandom random = new SplittableRandom(32);
        final long[] keyOfRank = permutation(DIMENSION_ROWS, random);
        final double[] cumulative = new double[DIMENSION_ROWS];
        double sum = 0;
        for (int r = 0; r < DIMENSION_ROWS; r++) {
            sum += 1.0 / (r + 1);
            cumulative[r] = sum;
        }
        final Schema facts = Schema.parse("fk:int64,v:int64");
        try (TableWriter writer = store.write(TableSpec.of("f", facts))) {
            writer.gather(TableSketch.builder(facts));
            for (int row = 0; row < FACT_ROWS; row++) {
                final int at = Arrays.binarySearch(cumulative, random.nextDouble() * sum);
                writer.column(0).appendLong(keyOfRank[Math.min(DIMENSION_ROWS - 1, at < 0 ? -at - 1 : at)]);
                writer.column(1).appendLong(row);
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
    }

    @AfterAll
    static void close() {
        CloseHelper.closeAll(duck, catalog);
    }

    /** Keys 0..n-1 in a random order: the key of each Zipf rank. */
    private static long[] permutation(final int n, final SplittableRandom random) {
        final long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            final int j = random.nextInt(i + 1);
            final long t = keys[i];
            keys[i] = keys[j];
            keys[j] = t;
        }
        return keys;
    }

    @Test
    void bothShufflesOfARangeJoinWithHeavyKeysAreWithinTheGoal() throws Exception {
        final List<String> expected = duckDb(JOIN);
        for (final String shape : List.of("3x2", "7x2")) {
            final Topology topology = Topology.parse(shape);
            try (Session session = new Session(store, topology)) {
                final Session.Execution run = session.execute("both sides", planner.plan(JOIN).plan(),
                        StrategyConfig.defaults().withStrategy(Strategy.SHUFFLE_RANGE).withHeavyKeys(true));
                assertThat(cells(run.result())).as(shape).isEqualTo(expected);
                final double probe = maxOverMean(run, "fk");
                final double build = maxOverMean(run, "dk");
                System.out.printf("range join on %s with heavy keys: probe shuffle max/mean %.3f, build %.3f%n",
                        shape, probe, build);
                assertThat(probe).as(shape + " probe").isLessThanOrEqualTo(GOAL);
                assertThat(build).as(shape + " build").isLessThanOrEqualTo(GOAL);
            }
        }
    }

    private static double maxOverMean(final Session.Execution run, final String key) {
        for (final QueryStats.ExchangeStats e : run.stats().exchanges()) {
            if (e.mode().equals("TO_OWNER") && e.keys().equals(List.of(key))) {
                long most = 0;
                long all = 0;
                for (final long r : e.bucketRows()) {
                    most = Math.max(most, r);
                    all += r;
                }
                return (double) most * e.bucketRows().length / all;
            }
        }
        throw new AssertionError("no shuffle by " + key + " in " + run.stats().exchanges());
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
