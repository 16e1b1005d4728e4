package io.sluice.perf.duckdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.format.Schema;
import io.sluice.perf.tpch.TpchLoader;
import io.sluice.perf.tpch.TpchTable;
import io.sluice.storage.Store;
import io.sluice.storage.TableSpec;
import io.sluice.storage.TableWriter;
import io.trino.tpch.Order;
import io.trino.tpch.OrderGenerator;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DuckDbLoaderTest {
    @TempDir
    Path dir;

    @Test
    void tpchRowsArriveWithExactTypes() throws Exception {
        final Store store = Store.create(dir);
        TpchLoader.load(store, TpchTable.ORDERS, 0.01, rows -> { });
        try (Connection c = DuckDbLoader.openInMemory(1); Statement s = c.createStatement()) {
            DuckDbLoader.load(store, List.of("orders"), c);
            try (ResultSet rs = s.executeQuery("SELECT count(*), min(o_orderdate), max(o_orderkey), "
                    + "any_value(typeof(o_totalprice)) FROM orders")) {
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(15000);
                assertThat(rs.getString(2)).isEqualTo("1992-01-01");
                assertThat(rs.getLong(3)).isEqualTo(60000);
                assertThat(rs.getString(4)).isEqualTo("DECIMAL(15,2)");
            }
            // Every order as the generator itself prints it, compared field by field.
            try (ResultSet rs = s.executeQuery("SELECT o_orderkey, o_custkey, o_orderstatus, o_totalprice, "
                    + "o_orderdate, o_orderpriority, o_clerk, o_shippriority, o_comment FROM orders ORDER BY o_orderkey")) {
                for (final Order order : new OrderGenerator(0.01, 1, 1)) {
                    assertThat(rs.next()).isTrue();
                    final String[] expected = order.toLine().split("\\|");
                    for (int i = 0; i < 9; i++) {
                        final String actual = i == 3 ? rs.getBigDecimal(i + 1).toPlainString() : rs.getString(i + 1);
                        assertThat(actual).as("order %d field %d", order.getOrderKey(), i).isEqualTo(expected[i]);
                    }
                }
                assertThat(rs.next()).isFalse();
            }
        }
    }

    @Test
    void aDatabaseFileKeepsTheTablesOfTheSameVersionAndLoadsAReplacedOneAgain() throws Exception {
        final Store store = Store.create(dir.resolve("store"));
        writeKeys(store, 3, false);
        final Path file = dir.resolve("duck.db");
        try (Connection c = DuckDbLoader.openFile(file, 1)) {
            assertThat(DuckDbLoader.loadChanged(store, List.of("t"), c)).containsExactly("t");
        }
        try (Connection c = DuckDbLoader.openFile(file, 1)) {
            assertThat(DuckDbLoader.loadChanged(store, List.of("t"), c)).isEmpty();
            assertThat(count(c)).isEqualTo(3);
        }
        writeKeys(store, 5, true);
        try (Connection c = DuckDbLoader.openFile(file, 1)) {
            assertThat(DuckDbLoader.loadChanged(store, List.of("t"), c)).containsExactly("t");
            assertThat(count(c)).isEqualTo(5);
        }
        // A load that stopped halfway left no record: the table is loaded again.
        try (Connection c = DuckDbLoader.openFile(file, 1); Statement s = c.createStatement()) {
            s.execute("DELETE FROM " + DuckDbLoader.LOADED);
            s.execute("DELETE FROM t WHERE k > 1");
        }
        try (Connection c = DuckDbLoader.openFile(file, 1)) {
            assertThat(DuckDbLoader.loadChanged(store, List.of("t"), c)).containsExactly("t");
            assertThat(count(c)).isEqualTo(5);
        }
    }

    @Test
    void aDatabaseFileInAMissingDirectoryNamesTheDirectory() {
        final Path file = dir.resolve("absent").resolve("duck.db");
        assertThatThrownBy(() -> DuckDbLoader.openFile(file, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(file.getParent().toString()).hasMessageContaining("mkdir -p");
    }

    /** Writes table t with keys 1..rows, as a new table or replacing the one there. */
    private static void writeKeys(final Store store, final int rows, final boolean replace) {
        try (TableWriter w = store.write(TableSpec.of("t", Schema.parse("k:int64")).replacing(replace))) {
            for (int k = 1; k <= rows; k++) {
                w.column(0).appendLong(k);
                w.endRow();
            }
            w.finish().close();
        }
    }

    private static long count(final Connection c) throws Exception {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void nullsAndEmptyStringsSurvive() throws Exception {
        final Store store = Store.create(dir);
        try (TableWriter w = store.createTable("t", Schema.parse("k:int64,s:string,d:decimal(10,3)"), null)) {
            w.column(0).appendLong(1);
            w.column(1).appendString("");
            w.column(2).appendLong(-12345);
            w.endRow();
            w.column(0).appendNull();
            w.column(1).appendNull();
            w.column(2).appendNull();
            w.endRow();
            w.finish().close();
        }
        try (Connection c = DuckDbLoader.openInMemory(1); Statement s = c.createStatement()) {
            DuckDbLoader.load(store, List.of("t"), c);
            try (ResultSet rs = s.executeQuery("SELECT count(k), count(s), sum(length(s)), sum(d) FROM t")) {
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(1);
                assertThat(rs.getLong(2)).isEqualTo(1);
                assertThat(rs.getLong(3)).isZero();
                assertThat(rs.getBigDecimal(4)).isEqualByComparingTo(new BigDecimal("-12.345"));
            }
        }
    }
}
