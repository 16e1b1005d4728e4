package io.sluice.perf.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.Session;
import io.sluice.perf.duckdb.DuckDbLoader;
import io.sluice.perf.tpcds.TpcdsLoader;
import io.sluice.perf.tpcds.TpcdsTable;
import io.sluice.shuffle.Topology;
import io.sluice.sql.SqlPlanner;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import io.sluice.storage.Table;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The TPC-DS queries as a regression suite: TPC-DS at SF 0.01 is generated once into a Sluice store
 * and loaded from it into DuckDB, and each query {@code tpcds/queries.txt} lists without a reason
 * must give DuckDB's answer on embedded 1x2 and 3x2 clusters ({@link CorpusRunner}'s comparison).
 * A query listed with a reason is reported as skipped with that reason.
 *
 * <p>The query texts are DuckDB's ({@code extension/tpcds/dsdgen/queries/NN.sql} in its repository,
 * the standard texts with the qualification substitutions), which the repository does not carry:
 * they come from a folder of {@code NN.sql} files named by {@code -Dsluice.tpcds.queries=DIR} (or
 * the environment variable {@value #QUERIES_ENV}), or else from DuckDB's own {@code tpcds}
 * extension where it is installed ({@code INSTALL tpcds} in DuckDB). Without either, the queries are
 * skipped, saying so.
 */
class TpcdsQueriesTest {
    private static final double SCALE_FACTOR = 0.01;
    private static final String QUERIES_PROPERTY = "sluice.tpcds.queries";
    private static final String QUERIES_ENV = "SLUICE_TPCDS_QUERIES";
    private static final String LIST = "/tpcds/queries.txt";

    @TempDir
    static Path dir;

    private static StoreCatalog catalog;
    private static SqlPlanner planner;
    private static Session oneByTwo;
    private static Session threeByTwo;
    private static Connection duck;
    private static Map<Integer, String> texts;

    @BeforeAll
    static void generate() throws Exception {
        duck = DuckDbLoader.openInMemory(2);
        texts = queryTexts(duck);
        if (texts.isEmpty()) {
            return;
        }
        final Store store = Store.create(dir.resolve("store"));
        final List<String> names = new ArrayList<>();
        for (final TpcdsTable t : TpcdsTable.values()) {
            try (Table ignored = TpcdsLoader.load(store, t, SCALE_FACTOR, false, rows -> { })) {
                names.add(t.tableName());
            }
        }
        catalog = new StoreCatalog(store);
        planner = new SqlPlanner(catalog, store.tableNames());
        oneByTwo = new Session(store, Topology.parse("1x2"));
        threeByTwo = new Session(store, Topology.parse("3x2"));
        DuckDbLoader.load(store, names, duck);
    }

    @AfterAll
    static void close() {
        CloseHelper.closeAll(oneByTwo, threeByTwo, catalog, duck);
    }

    /** One line of the list: a query number, and why it is not run, or null when it must pass. */
    record Listed(int query, String reason) {
    }

    static List<Listed> listed() throws IOException {
        final List<Listed> out = new ArrayList<>();
        try (InputStream in = TpcdsQueriesTest.class.getResourceAsStream(LIST)) {
            assertThat(in).as(LIST).isNotNull();
            for (final String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                final String l = line.strip();
                if (l.isEmpty() || l.startsWith("#")) {
                    continue;
                }
                final int space = l.indexOf(' ');
                out.add(space < 0 ? new Listed(Integer.parseInt(l), null)
                        : new Listed(Integer.parseInt(l.substring(0, space)), l.substring(space + 1).strip()));
            }
        }
        return out;
    }

    @Test
    void theListNamesEachOfThe99QueriesOnce() throws IOException {
        final List<Integer> numbers = listed().stream().map(Listed::query).toList();
        final List<Integer> all = new ArrayList<>();
        for (int q = 1; q <= 99; q++) {
            all.add(q);
        }
        assertThat(numbers).containsExactlyElementsOf(all);
    }

    @TestFactory
    Stream<DynamicTest> eachListedQueryGivesDuckDbsAnswerOn1x2And3x2() throws IOException {
        final CorpusRunner runner = texts.isEmpty() ? null
                : new CorpusRunner(catalog, planner, List.of(oneByTwo, threeByTwo), false, duck);
        final List<DynamicTest> tests = new ArrayList<>();
        for (final Listed q : listed()) {
            final String name = String.format("q%02d", q.query());
            tests.add(DynamicTest.dynamicTest(name, () -> {
                Assumptions.assumeTrue(runner != null, "no TPC-DS query texts: name a folder of DuckDB's NN.sql"
                        + " texts with -D" + QUERIES_PROPERTY + "=DIR (or " + QUERIES_ENV + "), or install DuckDB's"
                        + " tpcds extension (INSTALL tpcds)");
                Assumptions.assumeTrue(q.reason() == null, q.reason());
                final String sql = texts.get(q.query());
                assertThat(sql).as("the text of TPC-DS query %d", q.query()).isNotNull();
                runner.check(new CorpusRunner.Case(name + ".sql", 1, sql, null));
            }));
        }
        return tests.stream();
    }

    /** The query texts by number, from the folder the property or variable names, else DuckDB's extension; or none. */
    private static Map<Integer, String> queryTexts(final Connection duck) throws IOException {
        final Map<Integer, String> out = new TreeMap<>();
        String folder = System.getProperty(QUERIES_PROPERTY);
        if (folder == null || folder.isBlank()) {
            folder = System.getenv(QUERIES_ENV);
        }
        if (folder != null && !folder.isBlank()) {
            final Path root = Path.of(folder);
            for (int q = 1; q <= 99; q++) {
                final Path file = root.resolve(String.format("%02d.sql", q));
                if (Files.exists(file)) {
                    out.put(q, Files.readString(file, StandardCharsets.UTF_8).strip());
                }
            }
            assertThat(out).as("TPC-DS query texts NN.sql in %s (-D%s)", root, QUERIES_PROPERTY).isNotEmpty();
            return out;
        }
        try (Statement s = duck.createStatement()) {
            s.execute("LOAD tpcds");
            try (ResultSet rs = s.executeQuery("SELECT query_nr, query FROM tpcds_queries()")) {
                while (rs.next()) {
                    out.put(rs.getInt(1), rs.getString(2).strip());
                }
            }
        } catch (final SQLException notInstalled) {
            // DuckDB's tpcds extension is not installed here: no texts, and the queries are skipped.
            out.clear();
        }
        return out;
    }
}
