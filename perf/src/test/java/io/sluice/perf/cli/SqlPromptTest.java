package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.duckdb.DuckDbLoader;
import io.sluice.perf.tpch.TpchOracle;
import io.sluice.sql.SqlPlanner;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.jline.terminal.Terminal;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code sluice sql} prompt typed into through a dumb JLine terminal over piped streams: what it prints
 * for each statement is what DuckDB returns for it over the same SF 0.01 rows, statements span lines and
 * share one, an error is printed and the next statement still runs, the end of input leaves, and the
 * history file keeps what was typed.
 */
class SqlPromptTest {
    private static final String BY_STATUS = "select o_orderstatus, count(*) as orders, sum(o_totalprice) as total"
            + " from orders group by o_orderstatus order by o_orderstatus";
    private static final String SMALL_LINES = "select l_linestatus, count(*) as n from lineitem where l_quantity < 5"
            + " group by l_linestatus order by l_linestatus";
    private static final String COUNT = "select count(*) as c from orders where o_orderdate < date '1995-01-01'";

    @TempDir
    static Path dir;

    private static TpchOracle oracle;
    private static Connection duck;

    @BeforeAll
    static void generate() throws Exception {
        oracle = TpchOracle.generate(dir, 0.01);
        duck = DuckDbLoader.openInMemory(1);
        DuckDbLoader.load(oracle.store(), List.of("lineitem", "orders"), duck);
    }

    @AfterAll
    static void close() throws Exception {
        if (duck != null) {
            duck.close();
        }
        if (oracle != null) {
            oracle.close();
        }
    }

    /** What the prompt printed: rows on one writer, errors, counts and times on the other. */
    private record Session(String out, String err) {
    }

    private static Session type(final String input, final Path history) throws Exception {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final ByteArrayOutputStream echo = new ByteArrayOutputStream();
        final RunOptions run = new RunOptions();
        run.format = ResultFormat.csv;
        try (Terminal terminal = new DumbTerminal("test", Terminal.TYPE_DUMB,
                new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), echo, StandardCharsets.UTF_8);
             QueryTarget target = QueryTarget.local(oracle.catalog(), 2, StrategyConfig.defaults())) {
            final SqlStatementRunner runner = new SqlStatementRunner(
                    new SqlPlanner(oracle.catalog(), oracle.store().tableNames()), target, ResultFormat.csv, null,
                    new ClusterOptions());
            new SqlPrompt(terminal, runner, history, new PrintWriter(out, true), new PrintWriter(err, true),
                    "sluice sql: error: ", ResultFormat.csv).run();
        }
        return new Session(out.toString(), err.toString());
    }

    /** DuckDB's rows for a statement as CSV lines, its column labels first. */
    private static List<String> duckDbCsv(final String sql) throws Exception {
        return DuckDbCsv.of(duck, sql);
    }

    private static List<String> lines(final String printed) {
        return printed.isEmpty() ? List.of() : List.of(printed.split("\r\n"));
    }

    @Test
    void statementsOverSeveralLinesAndSeveralOnOneLineEachPrintDuckDbsRowsThenTheirCount() throws Exception {
        final String multiLine = BY_STATUS.replace(" from ", "\n  from ").replace(" group by ", "\n group by ");
        final Session s = type(multiLine + ";\n" + SMALL_LINES + "; " + COUNT + ";\n\\q\n" + COUNT + ";\n", null);
        final List<String> expected = new ArrayList<>(duckDbCsv(BY_STATUS));
        expected.addAll(duckDbCsv(SMALL_LINES));
        expected.addAll(duckDbCsv(COUNT));
        assertThat(lines(s.out())).as(s.err()).isEqualTo(expected);
        assertThat(s.err().lines().toList()).as("one count per statement, none after \\q").hasSize(3)
                .allMatch(l -> l.matches("\\(\\d+ rows?, (planned in [0-9.]+ ms|plan cached), ran in [0-9.]+ ms\\)"));
        assertThat(s.err()).startsWith("(" + (duckDbCsv(BY_STATUS).size() - 1) + " rows, ");
        assertThat(s.err().lines().toList().get(2)).startsWith("(1 row, ");
    }

    @Test
    void anErrorIsPrintedAsTheCommandPrintsItAndTheNextStatementRuns() throws Exception {
        final Session s = type("select o_orderkey,\n       soundex(o_comment) from orders;\n" + COUNT + ";\nquit\n",
                null);
        assertThat(lines(s.out())).isEqualTo(duckDbCsv(COUNT));
        final List<String> err = s.err().lines().toList();
        assertThat(err).hasSize(2);
        assertThat(err.get(0)).startsWith("sluice sql: error: the statement: SQL not supported at line 2, column 8:")
                .contains("soundex");
        assertThat(err.get(1)).startsWith("(1 row, ");
    }

    @Test
    void theEndOfInputLeavesWithoutRunningAnUnfinishedStatement() throws Exception {
        final Session s = type(COUNT + ";\n" + "select count(*)\n  from orders", null);
        assertThat(lines(s.out())).as(s.err()).isEqualTo(duckDbCsv(COUNT));
        assertThat(s.err().lines().toList()).singleElement().asString().startsWith("(1 row, ");
    }

    @Test
    void theHistoryFileKeepsWhatWasTyped() throws Exception {
        final Path history = dir.resolve("history");
        type(COUNT + ";\nselect count(*) as n\n  from orders;\nexit\n", history);
        assertThat(Files.readString(history)).contains(COUNT + ";");
        assertThat(Files.readAllLines(history)).as("a statement over two lines is one entry")
                .anyMatch(l -> l.contains("select count(*) as n") && l.contains("  from orders;"))
                .noneMatch(l -> l.endsWith("exit"));
        final Session again = type(SMALL_LINES + ";\n", history);
        assertThat(lines(again.out())).isEqualTo(duckDbCsv(SMALL_LINES));
        assertThat(Files.readString(history)).contains(COUNT + ";", SMALL_LINES + ";");
    }
}
