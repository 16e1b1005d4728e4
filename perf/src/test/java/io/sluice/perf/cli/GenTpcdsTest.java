package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.plan.QueryRunner;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.tpcds.TpcdsTable;
import io.sluice.sql.SqlPlanner;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import io.trino.tpcds.Results;
import io.trino.tpcds.Session;
import io.trino.tpcds.column.Column;
import java.io.BufferedWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice gen --benchmark tpcds}: the tables it writes hold the generator's rows. DuckDB reads
 * the generator's own text (as dsdgen writes it, '|' between fields, NULL as an empty field) with
 * the standard types, and each table's row count, NULLs, sums, date ranges and distinct strings
 * must be what Sluice's SQL answers over the store.
 */
class GenTpcdsTest {
    private static final double SF = 0.01;
    private static final List<String> TABLES = List.of("store_sales", "store_returns", "catalog_returns", "web_sales",
            "date_dim", "item", "customer", "customer_address", "promotion", "call_center", "store", "warehouse");

    @TempDir
    static Path dir;

    private static Cli.Result gen;
    private static StoreCatalog catalog;
    private static SqlPlanner planner;
    private static Connection duck;

    @BeforeAll
    static void generate() throws Exception {
        final Path store = dir.resolve("store");
        gen = Cli.run("gen", "--benchmark", "tpcds", "--sf", "0.01", "--out", store.toString(), "--tables",
                String.join(",", TABLES));
        assertThat(gen.exitCode()).as(gen.err()).isZero();
        final Store opened = Store.open(store);
        catalog = new StoreCatalog(opened);
        planner = new SqlPlanner(catalog, opened.tableNames());
        duck = DriverManager.getConnection("jdbc:duckdb:");
        for (final String table : TABLES) {
            loadGeneratorText(TpcdsTable.byName(table));
        }
    }

    @AfterAll
    static void close() throws Exception {
        if (catalog != null) {
            catalog.close();
        }
        if (duck != null) {
            duck.close();
        }
    }

    /** The generator's rows as text, read by DuckDB's CSV reader into a table with the standard types. */
    private static void loadGeneratorText(final TpcdsTable table) throws Exception {
        final io.trino.tpcds.Table generator = io.trino.tpcds.Table.getTable(table.tableName());
        final Path file = dir.resolve(table.tableName() + ".dat");
        final Session session = Session.getDefaultSession().withScale(SF).withParallelism(1).withChunkNumber(1)
                .withTable(generator).withNoSexism(false);
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (final List<List<String>> rows : Results.constructResults(generator, session)) {
                final List<String> row = rows.get(0);
                for (int c = 0; c < row.size(); c++) {
                    w.write(c == 0 ? "" : "|");
                    w.write(row.get(c) == null ? "" : row.get(c));
                }
                w.write('\n');
            }
        }
        final StringBuilder columns = new StringBuilder();
        for (final Column c : generator.getColumns()) {
            final String type = switch (c.getType().getBase()) {
                case IDENTIFIER -> "BIGINT";
                case INTEGER -> "INTEGER";
                case DATE -> "DATE";
                case DECIMAL -> "DECIMAL(" + c.getType().getPrecision().orElseThrow() + ","
                        + c.getType().getScale().orElseThrow() + ")";
                default -> "VARCHAR";
            };
            columns.append(columns.length() == 0 ? "" : ", ").append('\'').append(c.getName()).append("': '")
                    .append(type).append('\'');
        }
        try (Statement s = duck.createStatement()) {
            s.execute("CREATE TABLE " + table.tableName() + " AS SELECT * FROM read_csv('" + file + "', delim = '|',"
                    + " header = false, quote = '', escape = '', columns = {" + columns + "})");
        }
    }

    @Test
    void genReportsEveryTableItWrote() {
        for (final String table : TABLES) {
            assertThat(gen.out()).contains(table);
        }
        assertThat(gen.out()).contains("generated 12 tables at SF 0.01");
    }

    @ParameterizedTest
    @ValueSource(strings = {"store_sales", "store_returns", "catalog_returns", "web_sales", "date_dim", "item",
            "customer", "customer_address", "promotion", "call_center", "store", "warehouse"})
    void eachTableHoldsTheGeneratorsRows(final String name) throws Exception {
        final TpcdsTable table = TpcdsTable.byName(name);
        final List<String> aggregates = new ArrayList<>(List.of("count(*)"));
        for (final Column c : io.trino.tpcds.Table.getTable(name).getColumns()) {
            final String n = c.getName();
            aggregates.add("count(" + n + ")");
            switch (c.getType().getBase()) {
                case IDENTIFIER, INTEGER, DECIMAL -> aggregates.add("sum(" + n + ")");
                case DATE -> {
                    aggregates.add("min(" + n + ")");
                    aggregates.add("max(" + n + ")");
                }
                default -> aggregates.add("count(distinct " + n + ")");
            }
        }
        final String sql = "select " + String.join(", ", aggregates) + " from " + table.tableName();
        final List<Object> expected = new ArrayList<>();
        try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            for (int c = 1; c <= aggregates.size(); c++) {
                expected.add(normal(rs.getObject(c)));
            }
        }
        final QueryResult actual;
        try (QueryRunner runner = new QueryRunner(catalog, 2, StrategyConfig.defaults())) {
            actual = runner.run(planner.plan(sql).plan());
        }
        assertThat(actual.rows()).hasSize(1);
        final List<Object> got = new ArrayList<>();
        for (final Object v : actual.rows().get(0)) {
            got.add(normal(v));
        }
        for (int c = 0; c < aggregates.size(); c++) {
            assertThat(got.get(c)).as(name + ": " + aggregates.get(c)).isEqualTo(expected.get(c));
        }
        assertThat((BigDecimal) got.get(0)).as(name + " rows").isPositive();
    }

    private static Object normal(final Object v) {
        if (v == null) {
            return null;
        }
        if (v instanceof BigDecimal b) {
            return b.stripTrailingZeros();
        }
        if (v instanceof Number n) {
            return new BigDecimal(n.toString()).stripTrailingZeros();
        }
        return v.toString();
    }
}
