package io.sluice.perf.tpch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.sluice.format.Block;
import io.sluice.format.LongVector;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Skewed TPC-H ({@link TpchSkew}): the TPC-H formulas it relies on hold for dbgen's own rows, its keys
 * still reference existing rows, its heaviest key takes the share Zipf's law gives, and it is the same
 * every time.
 */
class TpchSkewTest {
    private static final double SF = 0.01;

    @TempDir
    static Path dir;

    private static TpchOracle uniform;
    private static TpchOracle skewed;

    @BeforeAll
    static void generate() throws Exception {
        uniform = TpchOracle.generate(dir.resolve("uniform"), SF);
        skewed = TpchOracle.generate(dir.resolve("skewed"), SF, TpchSkew.of(1.5));
    }

    @AfterAll
    static void close() throws Exception {
        for (final TpchOracle o : new TpchOracle[] {uniform, skewed}) {
            if (o != null) {
                o.close();
            }
        }
    }

    @Test
    void dbgensLineItemsFollowThePartSupplierAndRetailPriceFormulas() throws Exception {
        final long suppliers = TpchTable.SUPPLIER.expectedRows(SF);
        long rows = 0;
        try (Table lineitem = uniform.store().table("lineitem")) {
            for (int b = 0; b < lineitem.blockCount(); b++) {
                final Block block = lineitem.readBlock(b, lineitem.schema().indexOf("l_partkey"),
                        lineitem.schema().indexOf("l_suppkey"));
                final LongVector part = (LongVector) block.column(0);
                final LongVector supp = (LongVector) block.column(1);
                for (int r = 0; r < block.rowCount(); r++) {
                    final Set<Long> candidates = new HashSet<>();
                    for (int i = 0; i < 4; i++) {
                        candidates.add(TpchSkew.supplierOf(part.get(r), i, suppliers));
                    }
                    assertThat(candidates).as("suppliers of part %d", part.get(r)).contains(supp.get(r));
                    rows++;
                }
            }
        }
        assertThat((double) rows).isEqualTo(lineitem());
        assertThat(uniform.scalar("select count(*) from lineitem join part on l_partkey = p_partkey"
                + " where l_extendedprice <> l_quantity * p_retailprice")).isZero();
        for (final long p : new long[] {1, 9, 10, 999, 1_000, 1_999}) {
            assertThat(TpchSkew.retailPriceCents(p) / 100.0)
                    .isEqualTo(uniform.scalar("select p_retailprice from part where p_partkey = " + p));
        }
    }

    @Test
    void dbgensOrdersNeverReferenceACustomerKeyDivisibleByThree() throws Exception {
        assertThat(uniform.scalar("select count(*) from orders where o_custkey % 3 = 0")).isZero();
        assertThat(skewed.scalar("select count(*) from orders where o_custkey % 3 = 0")).isZero();
    }

    @Test
    void skewedKeysStillReferenceExistingRows() throws Exception {
        assertThat(skewed.scalar("select count(*) from orders where o_custkey not in (select c_custkey from customer)"))
                .isZero();
        assertThat(skewed.scalar("select count(*) from lineitem where (l_partkey, l_suppkey) not in"
                + " (select (ps_partkey, ps_suppkey) from partsupp)")).isZero();
        assertThat(skewed.scalar("select count(*) from lineitem join part on l_partkey = p_partkey"
                + " where l_extendedprice <> l_quantity * p_retailprice")).isZero();
        assertThat(skewed.scalar("select count(*) from lineitem")).isEqualTo(uniform.scalar("select count(*) from lineitem"));
    }

    @Test
    void theHeaviestKeysTakeTheSharesZipfsLawGives() throws Exception {
        final TpchSkew skew = TpchSkew.of(1.5);
        final double orders = skewed.scalar("select count(*) from orders");
        final double topCustomer = skewed.scalar("select max(c) from (select count(*) c from orders group by o_custkey)");
        assertThat(topCustomer / orders).isCloseTo(skew.topShare(TpchTable.ORDERS, SF), within(0.02));
        final double topPart = skewed.scalar("select max(c) from (select count(*) c from lineitem group by l_partkey)");
        assertThat(topPart / lineitem()).isCloseTo(skew.topShare(TpchTable.LINEITEM, SF), within(0.02));
        // Uniform keys: no customer has more than a fraction of a percent.
        assertThat(uniform.scalar("select max(c) from (select count(*) c from orders group by o_custkey)") / orders)
                .isLessThan(0.01);
    }

    @Test
    void theHeaviestKeyIsNotTheFirstOfTheDomain() throws Exception {
        final double heaviest = skewed.scalar("select o_custkey from orders group by o_custkey order by count(*) desc limit 1");
        assertThat(heaviest).isGreaterThan(TpchTable.CUSTOMER.expectedRows(SF) / 4.0);
    }

    @Test
    void theSameSkewGivesTheSameRows() throws Exception {
        final Store again = Store.create(dir.resolve("again"));
        try (Table orders = TpchLoader.load(again, TpchTable.ORDERS, SF, false, TpchSkew.of(1.5), rows -> { })) {
            assertThat(orders.manifest().attributes()).containsEntry(TpchSkew.ATTRIBUTE, "1.5");
            double sum = 0;
            for (int b = 0; b < orders.blockCount(); b++) {
                final Block block = orders.readBlock(b, orders.schema().indexOf("o_orderkey"),
                        orders.schema().indexOf("o_custkey"));
                final LongVector order = (LongVector) block.column(0);
                final LongVector cust = (LongVector) block.column(1);
                for (int r = 0; r < block.rowCount(); r++) {
                    sum += cust.get(r) * (double) (order.get(r) % 97 + 1);
                }
            }
            assertThat(sum).isEqualTo(skewed.scalar("select sum(o_custkey * (o_orderkey % 97 + 1)) from orders"));
        }
    }

    @Test
    void anExponentOutsideTheRangeIsRefusedWithTheRange() {
        for (final double z : new double[] {0, -1, 4.5, Double.NaN}) {
            assertThatThrownBy(() -> TpchSkew.of(z)).hasMessageContaining("(0, 4]").hasMessageContaining("e.g. 1");
        }
    }

    @Property(tries = 50)
    void ranksMapOneToOneOntoTheIndexes(@ForAll @LongRange(min = 1, max = 5_000) final long count,
                                        @ForAll @DoubleRange(min = 0.1, max = 4) final double z) {
        final ZipfKeys keys = new ZipfKeys(count, z, 1);
        final Set<Long> seen = new HashSet<>();
        for (long rank = 1; rank <= count; rank++) {
            final long index = keys.indexOfRank(rank);
            assertThat(index).isBetween(0L, count - 1);
            seen.add(index);
        }
        assertThat(seen).hasSize((int) count);
    }

    @Property(tries = 50)
    void customerIndexesMapOntoTheKeysNotDivisibleByThree(@ForAll @LongRange(min = 0, max = 1_000_000) final long i) {
        final long key = TpchSkew.customerKey(i);
        assertThat(key % 3).isNotZero();
        // Exactly i keys below it are not divisible by 3.
        assertThat(key - 1 - (key - 1) / 3).isEqualTo(i);
    }

    private static double lineitem() throws Exception {
        return uniform.scalar("select count(*) from lineitem");
    }
}
