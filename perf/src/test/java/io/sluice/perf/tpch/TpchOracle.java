package io.sluice.perf.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.plan.Strategy;
import io.sluice.perf.duckdb.DuckDbCells;
import io.sluice.perf.duckdb.DuckDbLoader;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import io.sluice.storage.Table;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The oracle of the query tests: a TPC-H store generated at a scale, the same rows loaded into an
 * in-memory DuckDB, and a check that a Sluice result has DuckDB's column names and the same rows in
 * the same order: exact for integers, decimals, dates and strings, within 1e-9 relative for doubles.
 */
public final class TpchOracle implements AutoCloseable {
    private final Store store;
    private final StoreCatalog catalog;
    private final Connection duck;

    private TpchOracle(final Store store, final Connection duck) {
        this.store = store;
        this.catalog = new StoreCatalog(store);
        this.duck = duck;
    }

    /** Generates every table at scale {@code sf} into {@code dir} and loads them into DuckDB. */
    public static TpchOracle generate(final Path dir, final double sf) throws Exception {
        return generate(dir, sf, null);
    }

    /** As {@link #generate(Path, double)}, with the foreign keys drawn as {@code skew} says (null: uniform). */
    public static TpchOracle generate(final Path dir, final double sf, final TpchSkew skew) throws Exception {
        final Store store = Store.create(dir.resolve("store"));
        final List<String> names = new ArrayList<>();
        for (final TpchTable t : TpchTable.values()) {
            try (Table ignored = TpchLoader.load(store, t, sf, false, skew, rows -> { })) {
                names.add(t.tableName());
            }
        }
        final Connection duck = DuckDbLoader.openInMemory(2);
        DuckDbLoader.load(store, names, duck);
        return new TpchOracle(store, duck);
    }

    /** The generated tables, opened once for every query of the test. */
    public StoreCatalog catalog() {
        return catalog;
    }

    public Store store() {
        return store;
    }

    /** The DuckDB holding the same rows, for tests that compare what a client read; one thread at a time. */
    public Connection duckDb() {
        return duck;
    }

    /** Every registered query under every strategy: (query name, strategy), for parameterized tests. */
    public static Stream<Arguments> queriesAndStrategies() {
        final List<Arguments> cases = new ArrayList<>();
        for (final Query q : Queries.all()) {
            for (final Strategy strategy : Strategy.values()) {
                cases.add(Arguments.of(q.name(), strategy));
            }
        }
        return cases.stream();
    }

    public static Query query(final String name) {
        return Queries.all().stream().filter(q -> q.name().equals(name)).findFirst().orElseThrow();
    }

    @Override
    public void close() throws Exception {
        catalog.close();
        duck.close();
    }

    /** The one number DuckDB answers {@code sql} with over the same rows (a count, a sum). */
    public synchronized double scalar(final String sql) throws Exception {
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            assertThat(rs.next()).as("a row from %s", sql).isTrue();
            return rs.getDouble(1);
        }
    }

    /** Runs the query's SQL on DuckDB and compares; any thread (DuckDB's connection is used by one at a time). */
    public void assertSameAsDuckDb(final Query query, final QueryResult actual) throws Exception {
        assertSameAsDuckDb(query.name(), query.sql(), actual);
    }

    /** As {@link #assertSameAsDuckDb(Query, QueryResult)} for a named SQL text DuckDB runs as it is. */
    public synchronized void assertSameAsDuckDb(final String name, final String sql, final QueryResult actual)
            throws Exception {
        assertThat(assertSameRowsAsDuckDb(name, sql, actual)).as("%s returns rows at SF 0.01", name).isPositive();
    }

    /**
     * As {@link #assertSameAsDuckDb(String, String, QueryResult)}, also when DuckDB returns no rows (skewed data
     * empties some of TPC-H's selective queries); returns the rows compared.
     */
    public synchronized int assertSameRowsAsDuckDb(final String name, final String sql, final QueryResult actual)
            throws Exception {
        return assertSameRows(duck, name, sql, actual);
    }

    /** As {@link #assertSameAsDuckDb(String, String, QueryResult)} on another DuckDB connection, used by one thread. */
    public static void assertSameAsDuckDb(final Connection duck, final String name, final String sql,
                                          final QueryResult actual) throws Exception {
        assertThat(assertSameRows(duck, name, sql, actual)).as("%s returns rows at SF 0.01", name).isPositive();
    }

    private static int assertSameRows(final Connection duck, final String name, final String sql,
                                      final QueryResult actual) throws Exception {
        try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            final ResultSetMetaData meta = rs.getMetaData();
            final List<String> expectedNames = new ArrayList<>();
            for (int c = 1; c <= meta.getColumnCount(); c++) {
                expectedNames.add(meta.getColumnLabel(c));
            }
            assertThat(actual.rowType().names()).as("column names").isEqualTo(expectedNames);
            int row = 0;
            while (rs.next()) {
                assertThat(row).as("%s returned fewer rows than DuckDB", name).isLessThan(actual.rowCount());
                for (int c = 0; c < expectedNames.size(); c++) {
                    DuckDbCells.assertSameCell(rs.getObject(c + 1), actual.value(row, c), name + " row " + row + " column "
                            + expectedNames.get(c));
                }
                row++;
            }
            assertThat(actual.rowCount()).as("%s row count", name).isEqualTo(row);
            return row;
        }
    }
}
