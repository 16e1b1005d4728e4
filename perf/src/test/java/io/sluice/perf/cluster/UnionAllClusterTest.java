package io.sluice.perf.cluster;

import static io.sluice.engine.expr.Expr.col;
import static io.sluice.engine.expr.Expr.lit;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.Session;
import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.exec.SortKey;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.QueryRunner;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.format.Schema;
import io.sluice.shuffle.Topology;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import io.sluice.storage.TableSpec;
import io.sluice.storage.TableWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.agrona.CloseHelper;

/**
 * UNION ALL plans from the Plan builder on one CN's three workers and on an embedded cluster of
 * three CNs of two cores, under every strategy, against the same rows unioned, grouped, joined and
 * sorted in plain Java: unions of two and three inputs, an INT32 column unioned with an INT64 one,
 * a union grouped (its rows cross CNs), a union as a join's build and probe side, unions of inputs
 * gathered on the coordinator with and without inputs spread over the CNs, and a top-N over a union.
 */
class UnionAllClusterTest {
    @TempDir
    static Path dir;

    private static Store store;
    private static StoreCatalog catalog;
    private static Session session;
    /** The rows of t(id, k, i) and u(id, k) as written: id, k (null or a key), i (t only). */
    private static final List<Long[]> T = new ArrayList<>();
    private static final List<Long[]> U = new ArrayList<>();

    @BeforeAll
    static void load() throws Exception {
        store = Store.create(dir.resolve("store"));
        final Random random = new Random(7);
        write("t", "id:int64,k:int64,i:int32", 50, random, T);
        write("u", "id:int64,k:int64", 23, random, U);
        catalog = new StoreCatalog(store);
        session = new Session(store, Topology.parse("3x2"));
    }

    @AfterAll
    static void close() {
        // In order, each also when one before it fails; null when setup failed before it.
        CloseHelper.closeAll(session, catalog);
    }

    /** Small blocks; k is NULL in about one row of five, i in about one of four. */
    private static void write(final String name, final String schema, final int rows, final Random random,
                              final List<Long[]> kept) {
        final boolean wide = schema.contains(",i:");
        try (TableWriter writer = store.write(TableSpec.of(name, Schema.parse(schema)).withBlockRows(5))) {
            for (int r = 0; r < rows; r++) {
                final Long id = (long) r + 1;
                final Long k = random.nextInt(5) == 0 ? null : (long) random.nextInt(6);
                final Long i = !wide || random.nextInt(4) == 0 ? null : (long) (random.nextInt(9) - 4);
                writer.column(0).appendLong(id);
                if (k == null) {
                    writer.column(1).appendNull();
                } else {
                    writer.column(1).appendLong(k);
                }
                if (wide) {
                    if (i == null) {
                        writer.column(2).appendNull();
                    } else {
                        writer.column(2).appendInt(i.intValue());
                    }
                }
                writer.endRow();
                kept.add(new Long[] {id, k, i});
            }
            writer.finish().close();
        }
    }

    /** A plan and the rows it must give, computed in Java. */
    private record Case(String name, Plan plan, Supplier<List<List<Long>>> expected, boolean ordered) {
    }

    private static List<Case> cases() {
        final List<Case> cases = new ArrayList<>();
        cases.add(new Case("t union all u", Plan.scan("t", "id", "k").unionAll(Plan.scan("u", "id", "k")),
                () -> concat(columns(T, 0, 1), columns(U, 0, 1)), false));
        cases.add(new Case("three inputs, NULL k in none of the filtered ones",
                Plan.scan("t", "id", "k").filter(Expr.lt(col("k"), lit(3)))
                        .unionAll(Plan.scan("t", "id", "k").filter(Expr.ge(col("k"), lit(3))),
                                Plan.scan("u", "k", "id").select("id", "k")),
                () -> {
                    final List<List<Long>> out = new ArrayList<>();
                    for (final List<Long> r : columns(T, 0, 1)) {
                        if (r.get(1) != null) {
                            out.add(r);
                        }
                    }
                    return concat(out, columns(U, 0, 1));
                }, false));
        cases.add(new Case("INT32 i union all INT64 k", Plan.scan("t", "i").unionAll(Plan.scan("u", "k")),
                () -> concat(columns(T, 2), columns(U, 1)), false));
        cases.add(new Case("grouped by k",
                Plan.scan("t", "k").unionAll(Plan.scan("u", "k"), Plan.scan("t", "k"))
                        .aggregate(Plan.groupBy("k"), Plan.count("n")),
                () -> {
                    final Map<Long, Long> counts = new HashMap<>();
                    for (final List<Long> r : concat(columns(T, 1), columns(U, 1), columns(T, 1))) {
                        counts.merge(r.get(0), 1L, Long::sum);
                    }
                    final List<List<Long>> out = new ArrayList<>();
                    counts.forEach((k, n) -> out.add(Arrays.asList(k, n)));
                    return out;
                }, false));
        cases.add(new Case("as a join build side: NULL keys match nothing",
                Plan.scan("t", "id", "k").join(JoinType.INNER,
                        Plan.scan("u", "k").project(new NamedExpr("bk", col("k")))
                                .unionAll(Plan.scan("t", "k").filter(Expr.eq(col("k"), lit(1)))
                                        .project(new NamedExpr("bk", col("k")))),
                        List.of("k"), List.of("bk")),
                () -> join(columns(T, 0, 1), concat(columns(U, 1), onlyKey(columns(T, 1), 1L))), false));
        cases.add(new Case("as a join probe side",
                Plan.scan("t", "id", "k").unionAll(Plan.scan("u", "id", "k"))
                        .join(JoinType.INNER, Plan.scan("u", "k").project(new NamedExpr("bk", col("k"))),
                                List.of("k"), List.of("bk")),
                () -> join(concat(columns(T, 0, 1), columns(U, 0, 1)), columns(U, 1)), false));
        cases.add(new Case("inputs all on the coordinator",
                Plan.scan("t", "id").aggregate(Plan.noKeys(), Plan.count("n"))
                        .unionAll(Plan.scan("u", "id").aggregate(Plan.noKeys(), Plan.count("n"))),
                () -> List.of(List.of((long) T.size()), List.of((long) U.size())), false));
        cases.add(new Case("an input on the coordinator and one on every CN",
                Plan.scan("t", "id").aggregate(Plan.noKeys(), Plan.count("n")).unionAll(Plan.scan("u", "id")),
                () -> concat(List.of(List.of((long) T.size())), columns(U, 0)), false));
        cases.add(new Case("top 7 ids over a union",
                Plan.scan("t", "id").unionAll(Plan.scan("u", "id").project(
                        new NamedExpr("id", Expr.add(col("id"), lit(1000))))).orderBy(SortKey.desc("id")).limit(7),
                () -> {
                    final List<List<Long>> all = new ArrayList<>(columns(T, 0));
                    for (final List<Long> r : columns(U, 0)) {
                        all.add(List.of(r.get(0) + 1000));
                    }
                    all.sort(Comparator.comparing((List<Long> r) -> r.get(0)).reversed());
                    return all.subList(0, 7);
                }, true));
        return cases;
    }

    static Stream<Arguments> casesAndStrategies() {
        final List<Arguments> out = new ArrayList<>();
        for (final Case c : cases()) {
            for (final Strategy s : Strategy.values()) {
                out.add(Arguments.of(c.name(), s));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} on one CN")
    @MethodSource("casesAndStrategies")
    void onOneCnTheSameAsJava(final String name, final Strategy strategy) {
        final Case c = byName(name);
        try (QueryRunner runner = new QueryRunner(catalog, 3, StrategyConfig.defaults().withStrategy(strategy))) {
            check(c, runner.run(c.plan()));
        }
    }

    @ParameterizedTest(name = "{0} {1} on 3x2")
    @MethodSource("casesAndStrategies")
    void onThreeCnsTheSameAsJava(final String name, final Strategy strategy) {
        final Case c = byName(name);
        check(c, session.execute("union-" + name.hashCode(), c.plan(),
                StrategyConfig.defaults().withStrategy(strategy)).result());
    }

    private static void check(final Case c, final QueryResult result) {
        final List<List<Long>> actual = new ArrayList<>();
        for (final List<Object> row : result.rows()) {
            final List<Long> cells = new ArrayList<>();
            for (final Object v : row) {
                cells.add(v == null ? null : ((Number) v).longValue());
            }
            actual.add(cells);
        }
        if (c.ordered()) {
            assertThat(actual).as(c.name()).isEqualTo(c.expected().get());
        } else {
            assertThat(multiset(actual)).as(c.name()).isEqualTo(multiset(c.expected().get()));
        }
    }

    private static Case byName(final String name) {
        for (final Case c : cases()) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        throw new IllegalArgumentException("no case '" + name + "'");
    }

    private static List<List<Long>> columns(final List<Long[]> rows, final int... columns) {
        final List<List<Long>> out = new ArrayList<>();
        for (final Long[] r : rows) {
            final List<Long> row = new ArrayList<>();
            for (final int c : columns) {
                row.add(r[c]);
            }
            out.add(row);
        }
        return out;
    }

    @SafeVarargs
    private static List<List<Long>> concat(final List<List<Long>>... parts) {
        final List<List<Long>> out = new ArrayList<>();
        for (final List<List<Long>> p : parts) {
            out.addAll(p);
        }
        return out;
    }

    private static List<List<Long>> onlyKey(final List<List<Long>> rows, final long key) {
        final List<List<Long>> out = new ArrayList<>();
        for (final List<Long> r : rows) {
            if (Objects.equals(r.get(0), key)) {
                out.add(r);
            }
        }
        return out;
    }

    /** Probe rows (id, k) joined with build keys on k = key, NULL matching nothing: (id, k, key). */
    private static List<List<Long>> join(final List<List<Long>> probe, final List<List<Long>> build) {
        final List<List<Long>> out = new ArrayList<>();
        for (final List<Long> p : probe) {
            for (final List<Long> b : build) {
                if (p.get(1) != null && p.get(1).equals(b.get(0))) {
                    out.add(Arrays.asList(p.get(0), p.get(1), b.get(0)));
                }
            }
        }
        return out;
    }

    private static Map<List<Long>, Integer> multiset(final List<List<Long>> rows) {
        final Map<List<Long>, Integer> out = new HashMap<>();
        for (final List<Long> r : rows) {
            out.merge(r, 1, Integer::sum);
        }
        return out;
    }
}
