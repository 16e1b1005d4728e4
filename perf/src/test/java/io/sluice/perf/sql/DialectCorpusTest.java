package io.sluice.perf.sql;

import io.sluice.dispatch.cluster.Session;
import io.sluice.perf.duckdb.DuckDbLoader;
import io.sluice.perf.tpch.TpchLoader;
import io.sluice.perf.tpch.TpchTable;
import io.sluice.shuffle.Topology;
import io.sluice.sql.SqlPlanner;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import io.sluice.storage.Table;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dialect corpus: every statement of every {@code *.sql} file in {@code dialect-corpus/} (one
 * file per feature of the SQL dialect) is one test, named {@code file:line}, run by
 * {@link CorpusRunner} over TPC-H SF 0.01, generated into a Sluice store and loaded from it into
 * DuckDB, and compared with DuckDB's answer.
 */
class DialectCorpusTest {
    private static final String CORPUS = "/dialect-corpus";

    @TempDir
    static Path dir;

    private static StoreCatalog catalog;
    private static SqlPlanner planner;
    private static Session session;
    private static Connection duck;

    @BeforeAll
    static void generate() throws Exception {
        final Store store = Store.create(dir.resolve("store"));
        final List<String> names = new ArrayList<>();
        for (final TpchTable t : TpchTable.values()) {
            try (Table ignored = TpchLoader.load(store, t, 0.01, rows -> { })) {
                names.add(t.tableName());
            }
        }
        catalog = new StoreCatalog(store);
        planner = new SqlPlanner(catalog, store.tableNames());
        session = new Session(store, Topology.parse("3x2"));
        duck = DuckDbLoader.openInMemory(2);
        DuckDbLoader.load(store, names, duck);
    }

    @AfterAll
    static void close() {
        CloseHelper.closeAll(session, catalog, duck);
    }

    @TestFactory
    Stream<DynamicTest> everyStatementGivesDuckDbsAnswer() throws IOException, URISyntaxException {
        return new CorpusRunner(catalog, planner, session, duck)
                .tests(Path.of(DialectCorpusTest.class.getResource(CORPUS).toURI()));
    }
}
