package io.sluice.perf.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.QueryStats;
import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.filter.RuntimeFilterMode;
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
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shuffle joins on a key that is mostly NULL and has no heavy value: the rows of a null key, which match
 * nothing, are dropped before the shuffle where nothing emits them (both sides of an inner join, the build side
 * of a left join) instead of filling bucket 0, the probe side of a left join still delivers them, and every
 * answer is DuckDB's, under forced range and hash shuffles on 1x2 and 3x2.
 */
class NullKeyDispatchTest {
    private static final int PROBE_ROWS = 60_000;
    private static final int BUILD_ROWS = 10_000;
    private static final String INNER = "select count(*) as n, sum(t.id) as si, sum(u.uid) as su"
            + " from t join u on t.tk = u.uk";
    private static final String LEFT = "select count(*) as n, count(u.uid) as matched, sum(t.id) as si"
            + " from t left join u on t.tk = u.uk";
    private static final List<String> STATEMENTS = List.of(INNER, LEFT,
            "select count(*) as n, sum(id) as si from t where exists (select 1 from u where u.uk = t.tk)",
            "select count(*) as n, sum(id) as si from t where not exists (select 1 from u where u.uk = t.tk)",
            "select count(*) as n, sum(id) as si from t where tk in (select uk from u)",
            "select case when t.tk is null then 1 else 0 end as nk, count(*) as n, count(u.uid) as m"
                    + " from t left join u on t.tk = u.uk group by case when t.tk is null then 1 else 0 end",
            "select t.tk, count(*) as n from t join u on t.tk = u.uk group by t.tk having count(*) > 4");

    @TempDir
    static Path dir;

    private static Store store;
    private static StoreCatalog catalog;
    private static Connection duck;
    private static SqlPlanner planner;
    private static Session oneCn;
    private static Session threeCns;

    @BeforeAll
    static void load() throws Exception {
        store = Store.create(dir.resolve("store"));
        final SplittableRandom random = new SplittableRandom(32);
        // The probe key is NULL in two rows of five, else spread over the build's keys and beyond them.
        try (TableWriter writer = store.write(TableSpec.of("t", Schema.parse("id:int64,tk:int64"))
                .withBlockRows(4096))) {
            for (int r = 0; r < PROBE_ROWS; r++) {
                writer.column(0).appendLong(r);
                if (random.nextInt(5) < 2) {
                    writer.column(1).appendNull();
                } else {
                    writer.column(1).appendLong(random.nextInt(2 * BUILD_ROWS));
                }
                writer.endRow();
            }
            writer.finish().close();
        }
        try (TableWriter writer = store.write(TableSpec.of("u", Schema.parse("uid:int64,uk:int64"))
                .withBlockRows(4096))) {
            for (int r = 0; r < BUILD_ROWS; r++) {
                writer.column(0).appendLong(r);
                if (random.nextInt(10) == 0) {
                    writer.column(1).appendNull();
                } else {
                    writer.column(1).appendLong(r);
                }
                writer.endRow();
            }
            writer.finish().close();
        }
        catalog = new StoreCatalog(store);
        duck = DuckDbLoader.openInMemory(1);
        DuckDbLoader.load(store, List.of("t", "u"), duck);
        planner = new SqlPlanner(catalog, List.of("t", "u"));
        oneCn = new Session(store, Topology.parse("1x2"));
        threeCns = new Session(store, Topology.parse("3x2"));
    }

    @AfterAll
    static void close() {
        CloseHelper.closeAll(threeCns, oneCn, duck, catalog);
    }

    static Stream<Arguments> cases() {
        final List<Arguments> cases = new ArrayList<>();
        for (int q = 0; q < STATEMENTS.size(); q++) {
            for (final Strategy strategy : List.of(Strategy.SHUFFLE_RANGE, Strategy.SHUFFLE_HASH)) {
                for (final String topology : List.of("1x2", "3x2")) {
                    cases.add(Arguments.of(q, strategy, topology));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "statement {0} {1} on {2}")
    @MethodSource("cases")
    void answersAsDuckDb(final int q, final Strategy strategy, final String topology) throws Exception {
        final String sql = STATEMENTS.get(q);
        final Session.Execution run = execute(sql, strategy, topology);
        assertThat(sorted(run.result())).as(sql).isEqualTo(duckDb(sql));
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("strategiesAndTopologies")
    void anInnerJoinDropsTheNullKeysOfBothSidesBeforeTheShuffle(final Strategy strategy, final String topology)
            throws Exception {
        final Session.Execution run = unfiltered(INNER, strategy, topology);
        assertThat(delivered(run, "tk")).isEqualTo(count("select count(tk) from t"));
        assertThat(delivered(run, "uk")).isEqualTo(count("select count(uk) from u"));
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("strategiesAndTopologies")
    void aLeftJoinDeliversEveryProbeRowButDropsTheNullKeysOfItsBuild(final Strategy strategy,
                                                                    final String topology) throws Exception {
        final Session.Execution run = unfiltered(LEFT, strategy, topology);
        assertThat(delivered(run, "tk")).isEqualTo(count("select count(*) from t"));
        assertThat(delivered(run, "uk")).isEqualTo(count("select count(uk) from u"));
    }

    static Stream<Arguments> strategiesAndTopologies() {
        return Stream.of(Arguments.of(Strategy.SHUFFLE_RANGE, "1x2"), Arguments.of(Strategy.SHUFFLE_RANGE, "3x2"),
                Arguments.of(Strategy.SHUFFLE_HASH, "1x2"), Arguments.of(Strategy.SHUFFLE_HASH, "3x2"));
    }

    private static Session.Execution execute(final String sql, final Strategy strategy, final String topology)
            throws Exception {
        return execute(sql, StrategyConfig.defaults().withStrategy(strategy), topology);
    }

    /** Without runtime filters, which would thin the probe side before its shuffle too. */
    private static Session.Execution unfiltered(final String sql, final Strategy strategy, final String topology)
            throws Exception {
        return execute(sql, StrategyConfig.defaults().withStrategy(strategy).withRuntimeFilters(RuntimeFilterMode.OFF),
                topology);
    }

    private static Session.Execution execute(final String sql, final StrategyConfig config, final String topology)
            throws Exception {
        final Session session = topology.equals("1x2") ? oneCn : threeCns;
        return session.execute("null-keys", planner.plan(sql).plan(), config);
    }

    /** Rows the shuffle by {@code key} delivered to its buckets, all together. */
    private static long delivered(final Session.Execution run, final String key) {
        for (final QueryStats.ExchangeStats e : run.stats().exchanges()) {
            if (e.mode().equals("TO_OWNER") && e.keys().equals(List.of(key))) {
                long rows = 0;
                for (final long r : e.bucketRows()) {
                    rows += r;
                }
                return rows;
            }
        }
        throw new AssertionError("no shuffle by " + key + " in " + run.stats().exchanges());
    }

    private static long count(final String sql) throws Exception {
        try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static List<List<String>> duckDb(final String sql) throws Exception {
        final List<List<String>> rows = new ArrayList<>();
        try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            final int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                final List<String> row = new ArrayList<>();
                for (int c = 1; c <= columns; c++) {
                    row.add(cell(rs.getObject(c)));
                }
                rows.add(row);
            }
        }
        rows.sort((a, b) -> a.toString().compareTo(b.toString()));
        return rows;
    }

    private static List<List<String>> sorted(final QueryResult result) {
        final List<List<String>> rows = new ArrayList<>();
        for (final List<Object> row : result.rows()) {
            final List<String> cells = new ArrayList<>();
            for (final Object v : row) {
                cells.add(cell(v));
            }
            rows.add(cells);
        }
        rows.sort((a, b) -> a.toString().compareTo(b.toString()));
        return rows;
    }

    /** A cell as text both engines agree on: numbers by value, booleans as text, NULL as NULL. */
    private static String cell(final Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof Number n) {
            return new BigDecimal(n.toString()).stripTrailingZeros().toPlainString();
        }
        return v.toString();
    }
}
