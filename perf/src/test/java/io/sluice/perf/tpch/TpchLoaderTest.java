package io.sluice.perf.tpch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.format.Block;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.StringVector;
import io.sluice.format.ZoneMap;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TpchLoaderTest {
    @TempDir
    static Path dir;
    static Store store;

    /** Row counts at SF 0.01 from the TPC-H specification. */
    static final Map<TpchTable, Long> SPEC_ROWS = Map.of(TpchTable.REGION, 5L, TpchTable.NATION, 25L,
            TpchTable.SUPPLIER, 100L, TpchTable.CUSTOMER, 1500L, TpchTable.PART, 2000L, TpchTable.PARTSUPP, 8000L,
            TpchTable.ORDERS, 15000L, TpchTable.LINEITEM, 60175L);

    @BeforeAll
    static void generate() {
        store = Store.create(dir);
        for (final TpchTable t : TpchTable.values()) {
            TpchLoader.load(store, t, 0.01, rows -> { });
        }
    }

    @Test
    void rowCountsMatchTheSpecification() {
        for (final TpchTable t : TpchTable.values()) {
            try (Table table = store.table(t.tableName())) {
                assertThat(table.rowCount()).as(t.tableName()).isEqualTo(SPEC_ROWS.get(t));
                long sum = 0;
                for (int b = 0; b < table.blockCount(); b++) {
                    sum += table.readBlock(b, 0).rowCount();
                }
                assertThat(sum).as(t.tableName() + " rows read back").isEqualTo(SPEC_ROWS.get(t));
            }
        }
    }

    @Test
    void firstLineitemRowIsDbgensFirstRow() {
        // dbgen's first lineitem line at every scale: 1|1552|93|1|17|24710.35|0.04|0.02|N|O|1996-03-13|...
        try (Table lineitem = store.table("lineitem")) {
            final Block block = lineitem.readBlock(0);
            assertThat(((LongVector) block.column(0)).get(0)).isEqualTo(1);
            assertThat(((LongVector) block.column(4)).get(0)).isEqualTo(1700);
            assertThat(((LongVector) block.column(5)).get(0)).isEqualTo(2471035);
            assertThat(((StringVector) block.column(8)).getString(0)).isEqualTo("N");
            assertThat(LocalDate.ofEpochDay(((IntVector) block.column(10)).get(0))).isEqualTo(LocalDate.of(1996, 3, 13));
            assertThat(((StringVector) block.column(13)).getString(0)).isEqualTo("DELIVER IN PERSON");
        }
    }

    @Test
    void ordersAndLineitemAreClusteredByOrderkey() {
        for (final String name : new String[] {"orders", "lineitem"}) {
            try (Table table = store.table(name)) {
                assertThat(table.sortKey()).endsWith("_orderkey");
                for (int b = 1; b < table.blockCount(); b++) {
                    final ZoneMap previous = table.zoneMap(b - 1, 0);
                    assertThat(table.zoneMap(b, 0).min()).isGreaterThanOrEqualTo(previous.max());
                }
            }
        }
    }

    @Test
    void badScaleFactorsAreRejected() {
        for (final double sf : new double[] {0, -1, Double.NaN, 1e9}) {
            assertThatThrownBy(() -> TpchLoader.checkScaleFactor(sf)).hasMessageContaining("scale factor");
        }
        assertThatThrownBy(() -> TpchTable.of("lineitems")).hasMessageContaining("lineitem");
    }
}
