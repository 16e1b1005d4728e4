package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.Session;
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
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.agrona.CloseHelper;

/**
 * NULL group keys, aggregates of NULLs, NULL join keys and NOT IN on an embedded cluster of three
 * CNs of two cores, under every join strategy, against DuckDB over the same small tables: group
 * keys and partial states cross CNs, NULL keys are shuffled by hash and by range, and a NOT IN
 * build with a NULL on one CN decides for the probe rows of every CN.
 */
class NullKeysClusterTest {
    private static final List<String> STATEMENTS = List.of(
            "select k, count(*) as n, count(d) as nd, sum(d) as sd, min(i) as mn, max(dt) as mx from t group by k",
            "select k, s, count(*) as n, sum(i) as si, avg(d) as ad from t group by k, s",
            "select s, count(*) as n, count(s) as ns, max(d) as mx from t group by s",
            "select k, sum(d) as sd, avg(d) as ad, min(d) as mn, count(d) as nd from t where d is null group by k",
            "select sum(d) as sd, avg(i) as ai, count(*) as n, count(k) as nk from t where id < 0",
            "select count(distinct k) as dk, count(distinct d) as dd, count(i) as ni from t",
            "select k, count(distinct i) as di from t group by k",
            "select t.id, u.id as uid from t join u on t.k = u.k",
            "select t.id, u.id as uid from t join u on t.s = u.s and t.k = u.k",
            "select t.id, t.k, u.id as uid from t left join u on t.k = u.k",
            "select t.id, u.id as uid, u.k as uk from t right join u on t.k = u.k",
            "select t.k, count(u.id) as matched, count(*) as n from t left join u on t.k = u.k group by t.k",
            "select id from t where exists (select 1 from u where u.k = t.k)",
            "select id from t where not exists (select 1 from u where u.k = t.k)",
            "select id from t where k in (select k from u)",
            "select id from t where k not in (select k from u)",
            "select id from t where k not in (select k from u where k is not null)",
            "select id from t where id not in (select k from u where k is not null)",
            "select id from t where k not in (select k from u where id < 0)",
            "select id from t where s not in (select s from u where s is not null)");

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
        final Random random = new Random(42);
        write("t", "id:int64,k:int64,i:int32,d:decimal(12,2),dt:date,s:string", 40, random, true);
        write("u", "id:int64,k:int64,d:decimal(12,2),s:string", 15, random, false);
        catalog = new StoreCatalog(store);
        duck = DuckDbLoader.openInMemory(1);
        DuckDbLoader.load(store, List.of("t", "u"), duck);
        planner = new SqlPlanner(catalog, List.of("t", "u"));
        session = new Session(store, Topology.parse("3x2"));
    }

    @AfterAll
    static void close() {
        // In order, each also when one before it fails; null when setup failed before it.
        CloseHelper.closeAll(session, duck, catalog);
    }

    /**
     * Rows of small blocks with NULLs in every column but id: keys 0..5 (u's up to 7, so some are
     * not in t), NULL in about one row of five, strings '' among them.
     */
    private static void write(final String name, final String schema, final int rows, final Random random,
                              final boolean wide) {
        final String[] strings = {"", "a", "b", "c"};
        try (TableWriter writer = store.write(TableSpec.of(name, Schema.parse(schema)).withBlockRows(6))) {
            for (int r = 0; r < rows; r++) {
                int c = 0;
                writer.column(c++).appendLong(r + 1);
                if (random.nextInt(5) == 0) {
                    writer.column(c++).appendNull();
                } else {
                    writer.column(c++).appendLong(random.nextInt(wide ? 6 : 8));
                }
                if (wide) {
                    if (random.nextInt(4) == 0) {
                        writer.column(c++).appendNull();
                    } else {
                        writer.column(c++).appendInt(random.nextInt(5) - 2);
                    }
                }
                if (random.nextInt(4) == 0) {
                    writer.column(c++).appendNull();
                } else {
                    writer.column(c++).appendLong(random.nextInt(20_001) - 10_000);
                }
                if (wide) {
                    if (random.nextInt(4) == 0) {
                        writer.column(c++).appendNull();
                    } else {
                        writer.column(c++).appendInt(19_000 + random.nextInt(5));
                    }
                }
                if (random.nextInt(5) == 0) {
                    writer.column(c).appendNull();
                } else {
                    writer.column(c).appendString(strings[random.nextInt(strings.length)]);
                }
                writer.endRow();
            }
            writer.finish().close();
        }
    }

    static Stream<Arguments> statementsAndStrategies() {
        final List<Arguments> cases = new ArrayList<>();
        for (int q = 0; q < STATEMENTS.size(); q++) {
            for (final Strategy strategy : Strategy.values()) {
                cases.add(Arguments.of(q, strategy));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "statement {0} {1} on 3x2")
    @MethodSource("statementsAndStrategies")
    void onThreeCnsTheSameAsDuckDb(final int q, final Strategy strategy) throws Exception {
        final String sql = STATEMENTS.get(q);
        final Session.Execution execution = session.execute("null-keys-" + q, planner.plan(sql).plan(),
                StrategyConfig.defaults().withStrategy(strategy));
        assertThat(multiset(execution.result())).as(sql).isEqualTo(duckDb(sql));
    }

    private static Map<List<String>, Integer> duckDb(final String sql) throws Exception {
        final Map<List<String>, Integer> rows = new HashMap<>();
        try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            final int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                final List<String> row = new ArrayList<>();
                for (int c = 1; c <= columns; c++) {
                    row.add(cell(rs.getObject(c)));
                }
                rows.merge(row, 1, Integer::sum);
            }
        }
        return rows;
    }

    private static Map<List<String>, Integer> multiset(final QueryResult result) {
        final Map<List<String>, Integer> rows = new HashMap<>();
        for (final List<Object> row : result.rows()) {
            final List<String> cells = new ArrayList<>();
            for (final Object v : row) {
                cells.add(cell(v));
            }
            rows.merge(cells, 1, Integer::sum);
        }
        return rows;
    }

    /** A cell as text both engines agree on: numbers by value (doubles to 12 digits), NULL as NULL. */
    private static String cell(final Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof Double d) {
            return new BigDecimal(d).round(new MathContext(12)).stripTrailingZeros().toPlainString();
        }
        if (v instanceof Number n) {
            return new BigDecimal(n.toString()).stripTrailingZeros().toPlainString();
        }
        return v.toString();
    }
}
