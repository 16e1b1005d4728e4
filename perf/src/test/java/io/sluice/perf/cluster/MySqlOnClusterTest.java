package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.dispatch.control.ControlMessage.Status;
import io.sluice.perf.mysql.JdbcAnswers;
import io.sluice.perf.mysql.MariadbClient;
import io.sluice.perf.mysql.PyMySql;
import io.sluice.perf.tpch.TpchSql;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code sluice coordinator --mysql} with two CN processes at SF 0.01: the 22 TPC-H texts through MySQL
 * Connector/J, MariaDB Connector/J, the {@code mariadb} command-line client and PyMySQL give DuckDB's answers, columns
 * that share a name keep it as their label, and a client that drops its connection has its query cancelled on every
 * CN.
 */
class MySqlOnClusterTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @TempDir
    static Path dir;

    private static OracleCluster fixture;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        fixture = OracleCluster.onLoopbackWithCoordinatorArgs(dir, 0.01, 2, 1, "-Xmx384m",
                List.of("--mysql", "127.0.0.1:0"));
        final String line = fixture.cluster().coordinator().awaitLine(l -> l.startsWith("mysql listening on "),
                ProcessCluster.START);
        final String address = line.substring("mysql listening on ".length()).split(" ")[0];
        port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    }

    @AfterAll
    static void stop() throws Exception {
        if (fixture != null) {
            fixture.close();
        }
    }

    static IntStream queries() {
        return IntStream.rangeClosed(1, TpchSql.COUNT);
    }

    private static Connection mysql() throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + port + "/sluice?sslMode=DISABLED", "sluice", "");
    }

    private static Connection mariadb() throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port + "/sluice", "sluice", "");
    }

    @ParameterizedTest(name = "q{0}")
    @MethodSource("queries")
    void tpchThroughBothJdbcDriversGivesDuckDbsAnswer(final int q) throws Exception {
        final String sql = TpchSql.text(q);
        synchronized (fixture) {
            try (Connection c = mysql()) {
                JdbcAnswers.assertSame("q" + q + " (Connector/J)", fixture.oracle().duckDb(), c, sql);
            }
            try (Connection c = mariadb()) {
                JdbcAnswers.assertSame("q" + q + " (MariaDB Connector/J)", fixture.oracle().duckDb(), c, sql);
            }
        }
    }

    @Test
    void columnsThatShareANameKeepItAsTheirLabelThroughBothJdbcDrivers() throws Exception {
        final String sql = "select a.n_nationkey, b.n_nationkey, a.n_name, b.n_name from nation a join nation b"
                + " on a.n_regionkey = b.n_nationkey order by a.n_nationkey";
        synchronized (fixture) {
            try (Statement s = fixture.oracle().duckDb().createStatement(); ResultSet rs = s.executeQuery(sql)) {
                assertThat(JdbcAnswers.read(rs).get(0)).containsExactly("n_nationkey", "n_nationkey", "n_name",
                        "n_name");
            }
            try (Connection c = mysql()) {
                JdbcAnswers.assertSame("shared names (Connector/J)", fixture.oracle().duckDb(), c, sql);
            }
            try (Connection c = mariadb()) {
                JdbcAnswers.assertSame("shared names (MariaDB Connector/J)", fixture.oracle().duckDb(), c, sql);
            }
        }
    }

    @Test
    void tpchThroughTheMariadbClientPrintsDuckDbsAnswers() throws Exception {
        final Path mariadb = MariadbClient.find();
        for (int q = 1; q <= TpchSql.COUNT; q++) {
            final String sql = TpchSql.text(q);
            final List<String> printed = MariadbClient.run(mariadb, port, sql);
            final List<List<Object>> expected;
            synchronized (fixture) {
                try (Statement s = fixture.oracle().duckDb().createStatement(); ResultSet rs = s.executeQuery(sql)) {
                    expected = JdbcAnswers.read(rs);
                }
            }
            assertThat(printed).as("q%d lines", q).hasSize(expected.size());
            assertThat(List.of(printed.get(0).split("\t", -1))).as("q%d header", q).isEqualTo(expected.get(0));
            for (int r = 1; r < expected.size(); r++) {
                final String[] cells = printed.get(r).split("\t", -1);
                assertThat(cells).as("q%d row %d", q, r).hasSize(expected.get(r).size());
                for (int c = 0; c < cells.length; c++) {
                    assertPrinted(expected.get(r).get(c), cells[c], "q" + q + " row " + r + " column " + c);
                }
            }
        }
    }

    @Test
    void tpchThroughPyMySqlGivesDuckDbsAnswersWithTheirPythonTypes() throws Exception {
        final PyMySql python = PyMySql.find(dir);
        for (int q = 1; q <= TpchSql.COUNT; q++) {
            final String sql = TpchSql.text(q);
            final List<List<Object>> expected;
            synchronized (fixture) {
                try (Statement s = fixture.oracle().duckDb().createStatement(); ResultSet rs = s.executeQuery(sql)) {
                    expected = JdbcAnswers.read(rs);
                }
            }
            PyMySql.assertSame("q" + q, expected, python.run(port, sql));
        }
    }

    /** A cell as mariadb --batch prints it: NULL, numbers as written, doubles within 1e-9 relative. */
    private static void assertPrinted(final Object expected, final String printed, final String where) {
        if (expected == null) {
            assertThat(printed).as(where).isEqualTo("NULL");
        } else if (expected instanceof Double d) {
            assertThat(Math.abs(Double.parseDouble(printed) - d)).as(where + ": " + printed + " vs " + d)
                    .isLessThanOrEqualTo(1e-9 * Math.abs(d));
        } else if (expected instanceof BigDecimal b) {
            assertThat(new BigDecimal(printed)).as(where).isEqualByComparingTo(b);
        } else {
            assertThat(printed).as(where).isEqualTo(expected.toString());
        }
    }

    /** Every lineitem row paired with every other, counted: runs until it is stopped. */
    private static final String ENDLESS = "select count(*) as pairs from (select 1 as ka from lineitem) a"
            + " join (select 1 as kb from lineitem) b on a.ka = b.kb";

    @Test
    void aClientThatDropsItsConnectionHasItsQueryCancelledOnEveryCn() throws Exception {
        synchronized (fixture) {
            final Connection c = mysql();
            final CompletableFuture<Object> running = CompletableFuture.supplyAsync(() -> {
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(ENDLESS)) {
                    return rs.next();
                } catch (final SQLException e) {
                    return e;
                }
            });
            awaitStatus(s -> {
                assertThat(running).as("the endless query ended by itself").isNotDone();
                return s.runningQueries() == 1 && s.members().stream().allMatch(m -> m.activeQueries() == 1);
            }, "the query running on both CNs");
            c.abort(Runnable::run);
            final Status after = awaitStatus(s -> s.runningQueries() == 0 && s.queuedQueries() == 0
                    && s.members().stream().allMatch(m -> m.activeQueries() == 0), "no query on the coordinator or any CN");
            assertThat(after.members()).hasSize(2).extracting(MemberStatus::activeQueries).containsOnly(0);
            assertThat(running.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isInstanceOf(SQLException.class);
            fixture.cluster().coordinator().awaitLine(l -> l.contains("disconnected"), DEADLINE);
        }
    }

    @Test
    void sessionVariablesChooseTheCnsAndTheTimeLimit() throws Exception {
        synchronized (fixture) {
            try (Connection c = mysql(); Statement s = c.createStatement()) {
                s.execute("set sluice_cn = 3");
                assertThatThrownBy(() -> s.executeQuery("select count(*) from orders")).isInstanceOf(SQLException.class)
                        .hasMessageContaining("asks for 3 CNs but 2 are alive");
                s.execute("set sluice_cn = 1, sluice_cores = 1, sluice_strategy = 'shuffle-hash'");
                try (ResultSet rs = s.executeQuery("select count(*) from orders")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(1)).isEqualTo(15000);
                }
                s.execute("set sluice_cn = 0, sluice_timeout_ms = 300");
                assertThatThrownBy(() -> s.executeQuery(ENDLESS)).isInstanceOfSatisfying(SQLException.class, e -> {
                    assertThat(e.getErrorCode()).isEqualTo(1105);
                    assertThat(e.getMessage()).contains("reached its timeout of 300 ms");
                });
            }
            awaitStatus(st -> st.runningQueries() == 0 && st.members().stream().allMatch(m -> m.activeQueries() == 0),
                    "no query left running");
        }
    }

    private static Status awaitStatus(final Predicate<Status> condition, final String what) {
        final long deadline = System.nanoTime() + DEADLINE.toNanos();
        Status status = null;
        while (System.nanoTime() - deadline < 0) {
            status = fixture.cluster().session().clusterStatus();
            if (condition.test(status)) {
                return status;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
        throw new AssertionError("waited " + DEADLINE.toSeconds() + " s for " + what + "; last status " + status
                + "\n" + fixture.cluster().diagnostics());
    }
}
