package io.sluice.perf.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.sluice.perf.duckdb.DuckDbLoader;
import io.sluice.perf.tpch.TpchLoader;
import io.sluice.perf.tpch.TpchTable;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import java.io.IOException;
import java.math.BigDecimal;
import java.io.OutputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MySQL protocol server with real clients (MySQL Connector/J, MariaDB Connector/J) and a client
 * written from the protocol for what drivers never send, over a store of TPC-H tables at SF 0.01 whose
 * statements run in this JVM: rows, column types and NULLs as DuckDB answers them, the statements
 * clients send about the session, ERR packets with MySQL's codes and SQL states, who may log in, and
 * what a broken or vanished client costs (its own connection, its own statement).
 */
class MySqlProtocolTest {
    @TempDir
    static Path dir;

    private static Store store;
    private static LocalSqlService service;
    private static MySqlServer server;
    private static Connection duck;
    private static final List<String> LOG = Collections.synchronizedList(new ArrayList<>());

    @BeforeAll
    static void start() throws Exception {
        store = Store.create(dir.resolve("store"));
        final List<String> names = new ArrayList<>();
        for (final TpchTable t : List.of(TpchTable.NATION, TpchTable.REGION, TpchTable.ORDERS)) {
            try (Table ignored = TpchLoader.load(store, t, 0.01, rows -> { })) {
                names.add(t.tableName());
            }
        }
        duck = DuckDbLoader.openInMemory(1);
        DuckDbLoader.load(store, names, duck);
        service = new LocalSqlService(store);
        server = MySqlServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), service,
                MySqlUsers.anyWithoutPassword(), 16, LOG::add);
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (service != null) {
            service.shutdown();
        }
        if (duck != null) {
            duck.close();
        }
    }

    private static Connection mysql(final int port, final String user, final String password) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + port + "/sluice?sslMode=DISABLED", user, password);
    }

    private static Connection mariadb(final int port, final String user, final String password) throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port + "/sluice", user, password);
    }

    private static final String TYPES = "select o_orderkey, o_orderstatus, o_totalprice, o_orderdate, o_comment"
            + " from orders where o_orderkey < 200 order by o_orderkey";
    private static final String AGGREGATES = "select o_orderpriority, count(*) as n, sum(o_totalprice) as total,"
            + " avg(o_totalprice) as mean, min(o_orderdate) as first from orders group by o_orderpriority"
            + " order by o_orderpriority";
    private static final String NULLS = "select max(o_orderkey) as k, sum(o_totalprice) as s, avg(o_totalprice) as a,"
            + " min(o_orderdate) as d from orders where o_orderkey < 0";
    private static final String STRING_NULLS = "select o_orderkey, case when o_orderkey < 5 then null else o_orderstatus"
            + " end as s from orders where o_orderkey < 10 order by o_orderkey";

    private static void assertTypes(final Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(TYPES)) {
            final ResultSetMetaData m = rs.getMetaData();
            assertThat(m.getColumnType(1)).isEqualTo(Types.BIGINT);
            assertThat(m.getColumnType(2)).isEqualTo(Types.VARCHAR);
            assertThat(m.getColumnType(3)).isEqualTo(Types.DECIMAL);
            assertThat(m.getScale(3)).isEqualTo(2);
            assertThat(m.getColumnType(4)).isEqualTo(Types.DATE);
            assertThat(m.getColumnType(5)).isEqualTo(Types.VARCHAR);
        }
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(AGGREGATES)) {
            assertThat(rs.getMetaData().getColumnType(4)).isEqualTo(Types.DOUBLE);
        }
    }

    @Test
    void connectorJReadsDuckDbsRowsWithTheirTypesAndNulls() throws Exception {
        try (Connection c = mysql(server.port(), "sluice", "")) {
            JdbcAnswers.assertSame("types", duck, c, TYPES);
            JdbcAnswers.assertSame("aggregates", duck, c, AGGREGATES);
            JdbcAnswers.assertSame("nulls", duck, c, NULLS);
            JdbcAnswers.assertSame("string nulls", duck, c, STRING_NULLS);
            assertTypes(c);
        }
    }

    @Test
    void mariaDbConnectorJReadsDuckDbsRowsWithTheirTypesAndNulls() throws Exception {
        try (Connection c = mariadb(server.port(), "sluice", "")) {
            JdbcAnswers.assertSame("types", duck, c, TYPES);
            JdbcAnswers.assertSame("aggregates", duck, c, AGGREGATES);
            JdbcAnswers.assertSame("nulls", duck, c, NULLS);
            JdbcAnswers.assertSame("string nulls", duck, c, STRING_NULLS);
            assertTypes(c);
        }
    }

    /** Two result columns named alike: DuckDB and MySQL label both {@code n_nationkey}. */
    private static final String SHARED_NAMES = "select a.n_nationkey, b.n_nationkey, a.n_name, b.n_name as n_name"
            + " from nation a join nation b on a.n_regionkey = b.n_nationkey order by a.n_nationkey";

    @Test
    void columnsThatShareANameKeepItAsTheirLabelInBothDriversTextAndBinaryRows() throws Exception {
        try (Connection my = mysql(server.port(), "sluice", "");
             Connection maria = mariadb(server.port(), "sluice", "");
             Connection prepared = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + server.port()
                     + "/sluice?sslMode=DISABLED&useServerPrepStmts=true&emulateUnsupportedPstmts=false", "sluice",
                     "")) {
            JdbcAnswers.assertSame("shared names (Connector/J)", duck, my, SHARED_NAMES);
            JdbcAnswers.assertSame("shared names (MariaDB Connector/J)", duck, maria, SHARED_NAMES);
            final List<List<Object>> expected;
            try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(SHARED_NAMES)) {
                expected = JdbcAnswers.read(rs);
            }
            assertThat(expected.get(0)).containsExactly("n_nationkey", "n_nationkey", "n_name", "n_name");
            try (PreparedStatement ps = prepared.prepareStatement(SHARED_NAMES); ResultSet rs = ps.executeQuery()) {
                JdbcAnswers.assertSame("shared names (server-prepared, binary rows)", expected, JdbcAnswers.read(rs));
            }
        }
    }

    private static List<String> column(final Connection c, final String sql, final int column) throws SQLException {
        final List<String> values = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                values.add(rs.getString(column));
            }
        }
        return values;
    }

    private static final String PREPARED = "select o_orderkey, o_orderstatus, o_totalprice, o_orderdate, o_comment"
            + " from orders where o_orderkey < ? and o_orderstatus = ? and o_totalprice > ? and o_orderdate >= ?"
            + " order by o_orderkey";

    @Test
    void serverPreparedStatementsOfBothDriversBindTheirParametersAndReadBinaryRows() throws Exception {
        try (Connection my = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + server.port()
                + "/sluice?sslMode=DISABLED&useServerPrepStmts=true&emulateUnsupportedPstmts=false", "sluice", "");
             Connection maria = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + server.port()
                     + "/sluice?useServerPrepStmts=true", "sluice", "")) {
            for (final Connection c : List.of(my, maria)) {
                try (PreparedStatement ps = c.prepareStatement(PREPARED)) {
                    assertThat(ps.getClass().getSimpleName()).isEqualTo("ServerPreparedStatement");
                    for (final Object[] p : new Object[][] {{2000L, "O", "1000.50", "1995-01-01"},
                        {6000L, "F", "150000", "1992-06-30"}}) {
                        ps.setLong(1, (Long) p[0]);
                        ps.setString(2, (String) p[1]);
                        ps.setBigDecimal(3, new BigDecimal((String) p[2]));
                        ps.setDate(4, Date.valueOf((String) p[3]));
                        final List<List<Object>> got;
                        try (ResultSet rs = ps.executeQuery()) {
                            got = JdbcAnswers.read(rs);
                        }
                        final String literal = PREPARED.replaceFirst("\\?", p[0].toString())
                                .replaceFirst("\\?", "'" + p[1] + "'").replaceFirst("\\?", p[2].toString())
                                .replaceFirst("\\?", "DATE '" + p[3] + "'");
                        final List<List<Object>> expected;
                        try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(literal)) {
                            expected = JdbcAnswers.read(rs);
                        }
                        assertThat(expected.size()).as("DuckDB finds rows for %s", literal).isGreaterThan(2);
                        JdbcAnswers.assertSame(c.getClass().getName() + " " + literal, expected, got);
                    }
                }
                for (final String sql : List.of(AGGREGATES, NULLS, STRING_NULLS, "select @@version_comment limit 1")) {
                    final List<List<Object>> got;
                    try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
                        got = JdbcAnswers.read(rs);
                    }
                    final List<List<Object>> expected;
                    try (Statement s = (sql.contains("@@") ? c : duck).createStatement();
                         ResultSet rs = s.executeQuery(sql)) {
                        expected = JdbcAnswers.read(rs);
                    }
                    JdbcAnswers.assertSame(c.getClass().getName() + " " + sql, expected, got);
                }
            }
        }
    }

    @Test
    void placeholdersInQuotesAndCommentsAreNotParameters() {
        assertThat(PreparedStatements.placeholders("select '?', \"?\", `?` /* ? */ from t -- ?\n where a = ? # ?\n"
                + " and b = ?")).isEqualTo(2);
    }

    @Test
    void theStatementsClientsSendAboutTheSessionAreAnswered() throws Exception {
        try (Connection c = mysql(server.port(), "sluice", "")) {
            assertThat(column(c, "SHOW DATABASES", 1)).containsExactly("sluice");
            assertThat(column(c, "show tables", 1)).containsExactly("nation", "orders", "region");
            assertThat(column(c, "SHOW TABLES LIKE 'n%'", 1)).containsExactly("nation");
            assertThat(column(c, "describe orders", 1)).startsWith("o_orderkey", "o_custkey", "o_orderstatus",
                    "o_totalprice");
            assertThat(column(c, "SHOW COLUMNS FROM orders", 2)).contains("bigint", "decimal(15,2)", "date");
            assertThat(column(c, "select @@version", 1)).containsExactly(MySqlServer.VERSION);
            assertThat(column(c, "SELECT @@version_comment LIMIT 1", 1)).containsExactly("Sluice");
            assertThat(column(c, "select database(), 1 as one", 1)).containsExactly("sluice");
            c.createStatement().execute("SET NAMES utf8mb4");
            c.createStatement().execute("set session sql_select_limit = 1000");
            assertThat(column(c, "select @@session.sql_select_limit as l", 1)).containsExactly("1000");
            c.createStatement().execute("use sluice");
            c.setCatalog("sluice");
            assertThat(c.getCatalog()).isEqualTo("sluice");
            assertThat(c.isValid(10)).isTrue();
            assertThatThrownBy(() -> c.createStatement().execute("use other"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(1049);
                        assertThat(e.getSQLState()).isEqualTo("42000");
                        assertThat(e.getMessage()).contains("Unknown database 'other'");
                    });
            assertThatThrownBy(() -> c.createStatement().executeQuery("describe nope"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1146));
        }
    }

    @Test
    void connectorJsDatabaseMetaDataListsTheTablesAndTheirColumns() throws Exception {
        // Without information_schema, Connector/J reads the catalogue with SHOW statements when told so.
        try (Connection c = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + server.port()
                + "/sluice?sslMode=DISABLED&useInformationSchema=false", "sluice", "")) {
            final List<String> tables = new ArrayList<>();
            try (ResultSet rs = c.getMetaData().getTables("sluice", null, "%", new String[] {"TABLE"})) {
                while (rs.next()) {
                    tables.add(rs.getString("TABLE_NAME"));
                }
            }
            assertThat(tables).containsExactly("nation", "orders", "region");
            final List<String> columns = new ArrayList<>();
            try (ResultSet rs = c.getMetaData().getColumns("sluice", null, "orders", "%")) {
                while (rs.next()) {
                    columns.add(rs.getString("COLUMN_NAME") + " " + rs.getString("TYPE_NAME") + " "
                            + rs.getInt("DATA_TYPE") + " " + rs.getInt("DECIMAL_DIGITS"));
                }
            }
            assertThat(columns).contains("o_orderkey BIGINT " + Types.BIGINT + " 0",
                    "o_totalprice DECIMAL " + Types.DECIMAL + " 2", "o_orderdate DATE " + Types.DATE + " 0");
        }
    }

    @Test
    void sluiceSessionVariablesSetTheStrategyShapeAndTimeLimitOfTheStatements() throws Exception {
        try (Connection c = mariadb(server.port(), "sluice", "")) {
            service.settingsSeen.clear();
            c.createStatement().execute("select count(*) from region");
            assertThat(service.settingsSeen.poll(60, TimeUnit.SECONDS)).isEqualTo(RunSettings.DEFAULTS);
            c.createStatement().execute("SET sluice_strategy = 'colocate', sluice_cn = 2");
            c.createStatement().execute("set @@session.sluice_cores = 1, session sluice_timeout_ms = 5000");
            assertThat(column(c, "select @@sluice_strategy, @@sluice_cn", 1)).containsExactly("colocate");
            c.createStatement().execute("select count(*) from region");
            assertThat(service.settingsSeen.poll(60, TimeUnit.SECONDS))
                    .isEqualTo(new RunSettings("colocate", 2, 1, 5000));
            for (final String wrong : List.of("set sluice_strategy = 'sideways'", "set sluice_cn = -1",
                    "set sluice_timeout_ms = 'soon'")) {
                assertThatThrownBy(() -> c.createStatement().execute(wrong)).as(wrong)
                        .isInstanceOfSatisfying(SQLException.class, e -> {
                            assertThat(e.getErrorCode()).isEqualTo(1231);
                            assertThat(e.getSQLState()).isEqualTo("42000");
                        });
            }
            c.createStatement().execute("set sluice_strategy = default, sluice_cn = default, sluice_cores = default,"
                    + " sluice_timeout_ms = default");
            c.createStatement().execute("select count(*) from region");
            assertThat(service.settingsSeen.poll(60, TimeUnit.SECONDS)).isEqualTo(RunSettings.DEFAULTS);
        }
    }

    @Test
    void aStatementSluiceCannotRunIsAnErrPacketWithItsCodeAndSqlState() throws Exception {
        try (Connection c = mariadb(server.port(), "sluice", "")) {
            assertThatThrownBy(() -> c.createStatement().executeQuery("selec 1 from orders"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(1064);
                        assertThat(e.getSQLState()).isEqualTo("42000");
                    });
            assertThatThrownBy(() -> c.createStatement().executeQuery("select x from no_such_table"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(1146);
                        assertThat(e.getSQLState()).isEqualTo("42S02");
                        assertThat(e.getMessage()).contains("no_such_table");
                    });
            assertThatThrownBy(() -> c.createStatement().executeQuery("select no_such_column from orders"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(1054);
                        assertThat(e.getSQLState()).isEqualTo("42S22");
                    });
            // The connection goes on after an error.
            assertThat(column(c, "select count(*) from nation", 1)).containsExactly("25");
        }
    }

    @Test
    void withoutAUsersFileAPasswordIsRefused() {
        assertThatThrownBy(() -> mysql(server.port(), "sluice", "secret").close())
                .isInstanceOfSatisfying(SQLException.class, e -> {
                    assertThat(e.getErrorCode()).isEqualTo(1045);
                    assertThat(e.getSQLState()).isEqualTo("28000");
                });
    }

    @Test
    void aUsersFileAdmitsItsUsersWithTheirPasswordsOnly() throws Exception {
        final Path file = Files.writeString(dir.resolve("users"), "# who may log in\nalice:wonderland\nbob:"
                + NativePassword.storedText(NativePassword.stored("builder")) + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        try (MySqlServer withUsers = MySqlServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                service, MySqlUsers.read(file), 4, LOG::add)) {
            try (Connection c = mysql(withUsers.port(), "alice", "wonderland")) {
                assertThat(column(c, "select count(*) from region", 1)).containsExactly("5");
            }
            try (Connection c = mariadb(withUsers.port(), "bob", "builder")) {
                assertThat(column(c, "select count(*) from region", 1)).containsExactly("5");
            }
            for (final String[] wrong : new String[][] {{"alice", "builder"}, {"bob", ""}, {"carol", "x"}}) {
                assertThatThrownBy(() -> mysql(withUsers.port(), wrong[0], wrong[1]).close())
                        .as("%s with %s", wrong[0], wrong[1])
                        .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1045));
                assertThatThrownBy(() -> mariadb(withUsers.port(), wrong[0], wrong[1]).close())
                        .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1045));
            }
        }
    }

    @Test
    void aUsersFileOtherUsersCanReadIsRefused() throws Exception {
        final Path file = Files.writeString(dir.resolve("open-users"), "alice:wonderland\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        assertThatThrownBy(() -> MySqlUsers.read(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("can be read or written by other users").hasMessageContaining("chmod 600 " + file);
    }

    @Test
    void aClientAnsweringForCachingSha2IsSwitchedToNativePassword() throws Exception {
        final Path file = Files.writeString(dir.resolve("switch-users"), "alice:wonderland\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        try (MySqlServer withUsers = MySqlServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                service, MySqlUsers.read(file), 4, LOG::add); RawClient client = new RawClient(withUsers.port())) {
            client.greeting();
            client.respond("alice", new byte[32], "caching_sha2_password");
            final PacketReader switchRequest = new PacketReader(client.read());
            assertThat(switchRequest.int1("status")).isEqualTo(0xFE);
            assertThat(switchRequest.nulString("plugin")).isEqualTo("mysql_native_password");
            final byte[] scramble = switchRequest.bytes(20, "scramble");
            final byte[] answer = NativePassword.answer("wonderland", scramble);
            client.channel.write(answer, answer.length);
            client.channel.flush();
            assertThat(client.read()[0]).as("OK").isEqualTo((byte) 0);
        }
    }

    @Test
    void malformedPacketsCloseTheirConnectionAndNothingElse() throws Exception {
        try (Connection kept = mariadb(server.port(), "sluice", "")) {
            // Cut short: a header promising 100 bytes, 3 sent, then the client half-closes.
            try (RawClient c = new RawClient(server.port())) {
                c.login("sluice");
                final OutputStream out = c.socket.getOutputStream();
                out.write(new byte[] {100, 0, 0, 0, 3, 's', 'e'});
                out.flush();
                c.socket.shutdownOutput();
                assertThat(c.closedByServer()).isTrue();
            }
            // Oversized: a packet of 2^24 - 1 bytes that goes on, past max_allowed_packet.
            try (RawClient c = new RawClient(server.port())) {
                c.login("sluice");
                final OutputStream out = c.socket.getOutputStream();
                out.write(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0, 3});
                out.flush();
                assertThat(c.closedByServer()).isTrue();
            }
            // Random bytes, before and after the handshake, and a command out of sequence.
            final Random random = new Random(36);
            for (int i = 0; i < 20; i++) {
                try (RawClient c = new RawClient(server.port())) {
                    if (i % 2 == 0) {
                        c.login("sluice");
                    } else {
                        c.greeting();
                    }
                    final byte[] junk = new byte[1 + random.nextInt(64)];
                    random.nextBytes(junk);
                    junk[3] = (byte) (1 + random.nextInt(200));
                    c.socket.getOutputStream().write(junk);
                    c.socket.getOutputStream().flush();
                    c.socket.shutdownOutput();
                    drain(c);
                }
            }
            assertThat(column(kept, "select count(*) from region", 1)).containsExactly("5");
        }
        try (Connection fresh = mysql(server.port(), "sluice", "")) {
            assertThat(column(fresh, "select count(*) from nation", 1)).containsExactly("25");
        }
        assertThat(LOG).anyMatch(l -> l.contains("closed:") && l.contains("max_allowed_packet"));
    }

    @Test
    void aClientThatNeverLogsInIsClosedAfterTheConnectTimeout() throws Exception {
        try (RawClient c = new RawClient(server.port())) {
            c.greeting();
            // Silent from here on: the server closes the connection once its connect timeout passes.
            assertThat(c.closedByServer()).isTrue();
        }
        assertThat(LOG).anyMatch(l -> l.contains("did not log in within " + MySqlConnection.CONNECT_TIMEOUT_MILLIS));
    }

    /** Reads what the server still sends (an ERR packet, at most) until it closes the connection. */
    private static void drain(final RawClient c) throws IOException {
        final byte[] buffer = new byte[4096];
        try {
            while (c.socket.getInputStream().read(buffer) >= 0) {
                // An ERR for a random command, or nothing.
            }
        } catch (final SocketException e) {
            // Reset by the server: closed too.
        }
    }

    @Test
    void aClientThatDisconnectsHasItsStatementCancelled() throws Exception {
        try (RawClient c = new RawClient(server.port())) {
            c.login("sluice");
            service.started.clear();
            service.cancelled.clear();
            c.query(LocalSqlService.BLOCKING);
            assertThat(service.started.poll(60, TimeUnit.SECONDS)).isEqualTo(LocalSqlService.BLOCKING);
        }
        final String reason = service.cancelled.poll(60, TimeUnit.SECONDS);
        assertThat(reason).as("cancel reason").isNotNull().contains("disconnected");
    }

    @Test
    void killQueryFromAnotherConnectionStopsTheStatementWithError1317() throws Exception {
        try (RawClient c = new RawClient(server.port()); Connection other = mysql(server.port(), "sluice", "")) {
            final PacketReader greeting = new PacketReader(c.greeting());
            greeting.int1("protocol");
            greeting.nulString("version");
            final long id = greeting.int4("connection id");
            c.respond("sluice", new byte[0], NativePassword.PLUGIN);
            assertThat(c.read()[0]).isEqualTo((byte) 0);
            service.started.clear();
            c.query(LocalSqlService.BLOCKING);
            assertThat(service.started.poll(60, TimeUnit.SECONDS)).isEqualTo(LocalSqlService.BLOCKING);
            other.createStatement().execute("KILL QUERY " + id);
            final byte[] reply = c.read();
            assertThat(reply[0]).isEqualTo((byte) 0xFF);
            assertThat(RawClient.errorCode(reply)).isEqualTo(1317);
            // The connection itself goes on.
            c.query("select count(*) from region");
            assertThat(c.read()[0]).as("a column count").isEqualTo((byte) 1);
        }
    }

    @Test
    void withoutASecretAClientFromAnotherHostIsRefused() throws Exception {
        final InetAddress own = nonLoopbackAddress();
        assumeThat(own).as("this host has a non-loopback IPv4 address").isNotNull();
        try (MySqlServer any = MySqlServer.start(new InetSocketAddress("0.0.0.0", 0), service,
                MySqlUsers.anyWithoutPassword(), 4, LOG::add); RawClient c = new RawClient(own, own, any.port())) {
            final byte[] first = c.read();
            assertThat(first[0]).as("an ERR in place of the greeting").isEqualTo((byte) 0xFF);
            assertThat(RawClient.errorCode(first)).isEqualTo(1130);
            assertThat(RawClient.text(first)).contains("loopback clients only");
        }
        assertThatThrownBy(() -> MySqlServer.start(new InetSocketAddress(own, 0), service,
                MySqlUsers.anyWithoutPassword(), 4, LOG::add)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("without a cluster secret").hasMessageContaining("--mysql 127.0.0.1:0");
    }

    private static InetAddress nonLoopbackAddress() throws IOException {
        for (final NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nic.isUp() || nic.isLoopback()) {
                continue;
            }
            for (final InetAddress a : Collections.list(nic.getInetAddresses())) {
                if (a instanceof Inet4Address && !a.isLoopbackAddress()) {
                    return a;
                }
            }
        }
        return null;
    }

    @Test
    void theMariadbCommandLineClientPrintsDuckDbsRows() throws Exception {
        final Path mariadb = MariadbClient.find();
        final String sql = "select n_nationkey, n_name, n_regionkey from nation where n_nationkey < 5 order by n_nationkey";
        final List<String> printed = MariadbClient.run(mariadb, server.port(), sql);
        final List<String> expected = new ArrayList<>();
        try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            expected.add("n_nationkey\tn_name\tn_regionkey");
            while (rs.next()) {
                expected.add(rs.getString(1) + "\t" + rs.getString(2) + "\t" + rs.getString(3));
            }
        }
        assertThat(printed).isEqualTo(expected);
        assertThat(MariadbClient.run(mariadb, server.port(), "show tables"))
                .containsExactly("Tables_in_sluice", "nation", "orders", "region");
    }
}
