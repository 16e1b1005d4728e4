package io.sluice.perf.sql;

import io.sluice.dispatch.cluster.Session;
import io.sluice.format.Schema;
import io.sluice.perf.csv.CsvImporter;
import io.sluice.shuffle.Topology;
import io.sluice.sql.SqlPlanner;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import io.sluice.storage.Table;
import io.sluice.storage.TableSpec;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.agrona.CloseHelper;

/**
 * The NULL corpus: every statement of every {@code *.sql} file in {@code null-corpus/} is one test,
 * named {@code file:line}. The tables {@code t} and {@code u} are imported from that directory's
 * CSV files into a Sluice store and, by DuckDB's own CSV reader, into an in-memory DuckDB; each
 * statement is checked by {@link CorpusRunner} against DuckDB.
 */
class NullCorpusTest {
    private static final String CORPUS = "/null-corpus";
    private static final Schema T = Schema.parse("id:int64,k:int64,i:int32,d:decimal(12,2),dt:date,s:string");
    private static final Schema U = Schema.parse("id:int64,k:int64,d:decimal(12,2),s:string");
    /** Rows per block: small, so that both tables span several blocks, workers and CNs. */
    private static final int BLOCK_ROWS = 8;

    @TempDir
    static Path dir;

    private static Path corpus;
    private static StoreCatalog catalog;
    private static SqlPlanner planner;
    private static Session session;
    private static Connection duck;

    @BeforeAll
    static void load() throws Exception {
        corpus = Path.of(NullCorpusTest.class.getResource(CORPUS).toURI());
        final Store store = Store.create(dir.resolve("store"));
        for (final String table : List.of("t", "u")) {
            final Schema schema = table.equals("t") ? T : U;
            try (Table ignored = CsvImporter.importFile(store, corpus.resolve(table + ".csv"),
                    TableSpec.of(table, schema).withBlockRows(BLOCK_ROWS), true, rows -> { })) {
                // imported; the catalog opens it
            }
        }
        catalog = new StoreCatalog(store);
        planner = new SqlPlanner(catalog, store.tableNames());
        session = new Session(store, Topology.parse("3x2"));
        duck = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement s = duck.createStatement()) {
            s.execute("SET threads TO 2");
            s.execute(duckTable("t", "id BIGINT, k BIGINT, i INTEGER, d DECIMAL(12,2), dt DATE, s VARCHAR"));
            s.execute(duckTable("u", "id BIGINT, k BIGINT, d DECIMAL(12,2), s VARCHAR"));
        }
    }

    /** DuckDB reads the CSV itself: an empty unquoted field is NULL, a quoted one ({@code ""}) the empty string. */
    private static String duckTable(final String name, final String columns) {
        final StringBuilder types = new StringBuilder();
        for (final String column : columns.split(", ")) {
            final String[] parts = column.split(" ", 2);
            types.append(types.length() == 0 ? "" : ", ").append('\'').append(parts[0]).append("': '")
                    .append(parts[1]).append('\'');
        }
        final String path = corpus.resolve(name + ".csv").toString().replace("'", "''");
        return "CREATE TABLE " + name + " AS SELECT * FROM read_csv('" + path + "', header = true,"
                + " allow_quoted_nulls = false, columns = {" + types + "})";
    }

    @AfterAll
    static void close() {
        // In order, each also when one before it fails; null when setup failed before it.
        CloseHelper.closeAll(session, catalog, duck);
    }

    @TestFactory
    Stream<DynamicTest> everyStatementGivesDuckDbsAnswer() throws IOException, URISyntaxException {
        return new CorpusRunner(catalog, planner, session, duck)
                .tests(Path.of(NullCorpusTest.class.getResource(CORPUS).toURI()));
    }
}
