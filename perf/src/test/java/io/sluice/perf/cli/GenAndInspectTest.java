package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gen --sf 0.01}, then {@code inspect} in text and JSON, checked against the TPC-H specification. */
class GenAndInspectTest {
    /** Rows at SF 0.01, from the TPC-H specification (lineitem: dbgen's count). */
    static final Map<String, Long> SPEC_ROWS = new LinkedHashMap<>();

    static {
        SPEC_ROWS.put("region", 5L);
        SPEC_ROWS.put("nation", 25L);
        SPEC_ROWS.put("supplier", 100L);
        SPEC_ROWS.put("customer", 1500L);
        SPEC_ROWS.put("part", 2000L);
        SPEC_ROWS.put("partsupp", 8000L);
        SPEC_ROWS.put("orders", 15000L);
        SPEC_ROWS.put("lineitem", 60175L);
    }

    @TempDir
    static Path dir;
    static Path store;
    static Cli.Result gen;

    @BeforeAll
    static void generate() {
        store = dir.resolve("sf0.01");
        gen = Cli.run("gen", "--sf", "0.01", "--out", store.toString());
    }

    @Test
    void genSucceedsAndReportsCountsTimeAndMemory() {
        assertThat(gen.exitCode()).as(gen.toString()).isZero();
        for (final Map.Entry<String, Long> e : SPEC_ROWS.entrySet()) {
            assertThat(gen.out()).as(e.getKey()).containsPattern("(?m)^\\s+" + e.getKey() + "\\s+" + e.getValue() + "\\s");
        }
        assertThat(gen.out()).contains("generated 8 tables at SF 0.01").containsPattern("in \\d+\\.\\d s \\(wall time\\)")
                .containsPattern("peak (RSS|heap) \\d+ MiB");
        // Not a terminal here: progress comes as separate lines, the last one at 100%.
        assertThat(gen.err()).doesNotContain("\r").contains("gen 100%");
        assertThat(gen.err().lines().count()).isBetween(2L, 12L);
    }

    @Test
    void inspectTextShowsTheSpecificationsRowCounts() {
        final Cli.Result r = Cli.run("inspect", "--store", store.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).startsWith("store " + store + ": 8 tables");
        for (final Map.Entry<String, Long> e : SPEC_ROWS.entrySet()) {
            assertThat(r.out()).containsPattern("(?m)^" + e.getKey() + ": " + e.getValue() + " rows in \\d+ blocks?, ");
        }
        assertThat(columnLine(r.out(), "l_orderkey")).containsExactly("l_orderkey", "int64", "1", "60000", "0");
        assertThat(columnLine(r.out(), "l_quantity")).containsExactly("l_quantity", "decimal(15,2)", "1.00", "50.00", "0");
        assertThat(columnLine(r.out(), "l_discount")).containsExactly("l_discount", "decimal(15,2)", "0.00", "0.10", "0");
        assertThat(columnLine(r.out(), "n_name")).containsExactly("n_name", "string", "\"ALGERIA\"", "\"VIETNAM\"", "0");
        assertThat(columnLine(r.out(), "c_name")).containsExactly("c_name", "string", "\"Customer\"+", "\"Customer\"+",
                "0");
        assertThat(r.out()).contains("\"...\"+ is a string prefix");
        assertThat(r.out()).containsPattern("(?m)^lineitem: .* sorted by l_orderkey$");
    }

    @Test
    void inspectJsonIsWellFormedAndHasTheCounts() {
        final Cli.Result r = Cli.run("inspect", "--store", store.toString(), "--json");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        final Map<?, ?> doc = (Map<?, ?>) MiniJson.parse(r.out());
        assertThat(doc.get("store")).isEqualTo(store.toString());
        final List<?> tables = (List<?>) doc.get("tables");
        assertThat(tables).hasSize(8);
        for (final Object o : tables) {
            final Map<?, ?> t = (Map<?, ?>) o;
            final String name = (String) t.get("name");
            assertThat(t.get("rows")).as(name).isEqualTo(new MiniJson.Num(SPEC_ROWS.get(name).toString()));
            assertThat(t.get("sort_key")).isInstanceOf(String.class);
            assertThat(((MiniJson.Num) t.get("blocks")).text()).matches("[1-9][0-9]*");
        }
        final Map<?, ?> lineitem = table(tables, "lineitem");
        final Map<?, ?> quantity = column(lineitem, "l_quantity");
        assertThat(quantity.get("type")).isEqualTo("decimal(15,2)");
        assertThat(quantity.get("min")).isEqualTo(new MiniJson.Num("1.00"));
        assertThat(quantity.get("max")).isEqualTo(new MiniJson.Num("50.00"));
        assertThat(quantity.get("nulls")).isEqualTo(new MiniJson.Num("0"));
        final Map<?, ?> orderdate = column(table(tables, "orders"), "o_orderdate");
        // TPC-H: order dates lie between STARTDATE (1992-01-01) and ENDDATE - 151 days (1998-08-02).
        assertThat((String) orderdate.get("min")).matches("\\d{4}-\\d{2}-\\d{2}").isGreaterThanOrEqualTo("1992-01-01");
        assertThat((String) orderdate.get("max")).isLessThanOrEqualTo("1998-08-02");
        final Map<?, ?> rName = column(table(tables, "region"), "r_name");
        assertThat(rName.get("min")).isEqualTo("AFRICA");
        assertThat(rName.get("max")).isEqualTo("MIDDLE E");
        assertThat(rName.get("max_is_prefix")).isEqualTo(true);
        assertThat(rName.get("min_is_prefix")).isEqualTo(false);
    }

    @Test
    void inspectOneTableAndVerifyIt() {
        final Cli.Result r = Cli.run("inspect", "--store", store.toString(), "--table", "orders", "--verify");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("store " + store + ": 1 table\n").contains("orders: 15000 rows")
                .doesNotContain("lineitem").containsPattern("verified \\d+ blocks?: all checksums match");
        final Cli.Result json = Cli.run("inspect", "--store", store.toString(), "--table", "orders", "--verify", "--json");
        final Map<?, ?> orders = (Map<?, ?>) ((List<?>) ((Map<?, ?>) MiniJson.parse(json.out())).get("tables")).get(0);
        assertThat(orders.get("damaged_blocks")).isEqualTo(new MiniJson.Num("0"));
        assertThat(orders.get("verified_blocks")).isEqualTo(orders.get("blocks"));
    }

    @Test
    void unknownTableListsTheTables() {
        final Cli.Result r = Cli.run("inspect", "--store", store.toString(), "--table", "lineitems");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).startsWith("sluice inspect: error: no table 'lineitems'")
                .contains("customer, lineitem, nation, orders, part, partsupp, region, supplier").doesNotContain("\tat ");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void missingStoreIsAnError() {
        final Cli.Result r = Cli.run("inspect", "--store", dir.resolve("nowhere").toString());
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).startsWith("sluice inspect: error: store ").contains("does not exist");
    }

    @Test
    void genOfSomeTablesWithOneThread() {
        final Path out = dir.resolve("some");
        final Cli.Result r = Cli.run("gen", "--sf", "0.01", "--out", out.toString(), "--tables", "nation,REGION",
                "--threads", "1");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("generated 2 tables");
        assertThat(Files.isDirectory(out.resolve("nation"))).isTrue();
        assertThat(Files.isDirectory(out.resolve("region"))).isTrue();
        assertThat(out.resolve("lineitem")).doesNotExist();
    }

    /** The cells of the text report's row for a column. */
    static String[] columnLine(final String report, final String column) {
        final Matcher m = Pattern.compile("(?m)^  " + column + " .*$").matcher(report);
        assertThat(m.find()).as("row of column " + column).isTrue();
        return m.group().trim().split("\\s{2,}");
    }

    static Map<?, ?> table(final List<?> tables, final String name) {
        return (Map<?, ?>) tables.stream().filter(t -> name.equals(((Map<?, ?>) t).get("name"))).findFirst().orElseThrow();
    }

    static Map<?, ?> column(final Map<?, ?> table, final String name) {
        return (Map<?, ?>) ((List<?>) table.get("columns")).stream()
                .filter(c -> name.equals(((Map<?, ?>) c).get("name"))).findFirst().orElseThrow();
    }
}
