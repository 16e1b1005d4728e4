package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.storage.StoreLock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code import} of a CSV file, then {@code inspect} of what it stored. */
class ImportAndInspectTest {
    static final String SCHEMA = "k:int64,v:decimal(15,2),d:date,s:string";

    @TempDir
    Path dir;

    Path csv(final String text) throws IOException {
        return Files.writeString(dir.resolve("in.csv"), text, StandardCharsets.UTF_8);
    }

    Cli.Result importCsv(final Path file, final String... extra) {
        final String[] base = {"import", "--csv", file.toString(), "--store", dir.resolve("store").toString(),
            "--table", "sales", "--schema", SCHEMA};
        final String[] args = java.util.Arrays.copyOf(base, base.length + extra.length);
        System.arraycopy(extra, 0, args, base.length, extra.length);
        return Cli.run(args);
    }

    @Test
    void importedMinMaxAndNullsShowFormattedByType() throws IOException {
        final Path file = csv("k,v,d,s\n"
                + "3,901.00,1998-12-01,\"Customer#000000001\"\n"
                + "-7,-0.05,1992-01-02,\"he said \"\"hi\"\"\"\n"
                + "12,,,Abe\n"
                + ",1234.5,2000-02-29,\n");
        final Cli.Result imported = importCsv(file, "--sort-by", "k");
        assertThat(imported.exitCode()).as(imported.toString()).isZero();
        assertThat(imported.out()).startsWith("imported 4 rows into table sales of store ").contains("sorted by k");

        final Cli.Result text = Cli.run("inspect", "--store", dir.resolve("store").toString());
        assertThat(text.exitCode()).as(text.toString()).isZero();
        assertThat(text.out()).contains("sales: 4 rows in 1 block").contains("sorted by k");
        assertThat(GenAndInspectTest.columnLine(text.out(), "k")).containsExactly("k", "int64", "-7", "12", "1");
        assertThat(GenAndInspectTest.columnLine(text.out(), "v"))
                .containsExactly("v", "decimal(15,2)", "-0.05", "1234.50", "1");
        assertThat(GenAndInspectTest.columnLine(text.out(), "d"))
                .containsExactly("d", "date", "1992-01-02", "2000-02-29", "1");
        assertThat(GenAndInspectTest.columnLine(text.out(), "s"))
                .containsExactly("s", "string", "\"Abe\"", "\"he said \"+", "1");

        final Cli.Result json = Cli.run("inspect", "--store", dir.resolve("store").toString(), "--json");
        final Map<?, ?> sales = (Map<?, ?>) ((List<?>) ((Map<?, ?>) MiniJson.parse(json.out())).get("tables")).get(0);
        assertThat(sales.get("sort_key")).isEqualTo("k");
        final Map<?, ?> v = GenAndInspectTest.column(sales, "v");
        assertThat(v.get("min")).isEqualTo(new MiniJson.Num("-0.05"));
        assertThat(v.get("max")).isEqualTo(new MiniJson.Num("1234.50"));
        final Map<?, ?> s = GenAndInspectTest.column(sales, "s");
        assertThat(s.get("max")).isEqualTo("he said ");
        assertThat(s.get("max_is_prefix")).isEqualTo(true);
        assertThat(s.get("nulls")).isEqualTo(new MiniJson.Num("1"));
    }

    @Test
    void anAllNullColumnHasNoMinOrMax() throws IOException {
        final Cli.Result imported = importCsv(csv("k,v,d,s\n1,,,x\n2,,,y\n"));
        assertThat(imported.exitCode()).as(imported.toString()).isZero();
        final Cli.Result text = Cli.run("inspect", "--store", dir.resolve("store").toString());
        assertThat(GenAndInspectTest.columnLine(text.out(), "v")).containsExactly("v", "decimal(15,2)", "-", "-", "2");
        final Cli.Result json = Cli.run("inspect", "--store", dir.resolve("store").toString(), "--json");
        final Map<?, ?> sales = (Map<?, ?>) ((List<?>) ((Map<?, ?>) MiniJson.parse(json.out())).get("tables")).get(0);
        final Map<?, ?> v = GenAndInspectTest.column(sales, "v");
        assertThat(v.containsKey("min")).isTrue();
        assertThat(v.get("min")).isNull();
        assertThat(v.get("max")).isNull();
    }

    @Test
    void aBadRowFailsWithItsLineAndLeavesNoTable() throws IOException {
        final Path file = csv("k,v,d,s\n1,1.00,2020-01-01,a\n2,1.005,2020-01-01,b\n");
        final Cli.Result r = importCsv(file);
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).startsWith("sluice import: error: " + file + ":3: column 'v' (decimal(15,2)): value \"1.005\"")
                .contains("3 fractional digits").doesNotContain("\tat ");
        try (Stream<Path> entries = Files.list(dir.resolve("store"))) {
            assertThat(entries).containsExactly(dir.resolve("store").resolve(StoreLock.FILE));
        }
        assertThat(dir.resolve("store").resolve(StoreLock.FILE)).isEmptyFile();
    }

    @Test
    void userErrorsAreOneLine() throws IOException {
        final Path file = csv("k,v,d,s\n1,1.00,2020-01-01,a\n");
        final Cli.Result badSchema = Cli.run("import", "--csv", file.toString(), "--store", dir.resolve("s").toString(),
                "--table", "t", "--schema", "k:int65");
        assertThat(badSchema.exitCode()).isEqualTo(1);
        assertThat(badSchema.err()).isEqualTo("sluice import: error: --schema is not valid: unknown column type"
                + " 'int65': use int64 (also bigint, long), int32 (int, integer), decimal(p,s), date or string (varchar, text),"
                + " in any case\n");
        assertThat(dir.resolve("s")).doesNotExist();

        final Cli.Result badSort = importCsv(file, "--sort-by", "zz");
        assertThat(badSort.exitCode()).isEqualTo(1);
        assertThat(badSort.err()).contains("--sort-by zz is not a column").contains("[k, v, d, s]");

        final Cli.Result missing = importCsv(dir.resolve("missing.csv"));
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.err()).contains("missing.csv does not exist");

        assertThat(importCsv(file).exitCode()).isZero();
        final Cli.Result again = importCsv(file);
        assertThat(again.exitCode()).isEqualTo(1);
        assertThat(again.err()).contains("already has a table sales: replace it with `sluice import", " --replace`");

        final Cli.Result usage = Cli.run("import", "--csv", file.toString());
        assertThat(usage.exitCode()).isEqualTo(2);
        assertThat(usage.err()).contains("Missing required options");
    }

    @Test
    void headerColumnsInAnotherOrderGiveEachColumnItsOwnValues() throws IOException {
        final Cli.Result imported = importCsv(csv("D,s,k,V\n2001-05-06,x,-3,12.50\n1990-01-01,y,40,-1.00\n"));
        assertThat(imported.exitCode()).as(imported.toString()).isZero();
        final Cli.Result text = Cli.run("inspect", "--store", dir.resolve("store").toString());
        assertThat(GenAndInspectTest.columnLine(text.out(), "k")).containsExactly("k", "int64", "-3", "40", "0");
        assertThat(GenAndInspectTest.columnLine(text.out(), "v"))
                .containsExactly("v", "decimal(15,2)", "-1.00", "12.50", "0");
        assertThat(GenAndInspectTest.columnLine(text.out(), "d"))
                .containsExactly("d", "date", "1990-01-01", "2001-05-06", "0");
        assertThat(GenAndInspectTest.columnLine(text.out(), "s")).containsExactly("s", "string", "\"x\"", "\"y\"", "0");
    }

    @Test
    void noHeaderTakesTheFieldsInSchemaOrder() throws IOException {
        final Cli.Result imported = importCsv(csv("5,1.00,2020-01-01,a\n6,2.00,2020-01-02,b\n"), "--no-header");
        assertThat(imported.exitCode()).as(imported.toString()).isZero();
        assertThat(imported.out()).startsWith("imported 2 rows");
        final Cli.Result withHeader = Cli.run("import", "--csv", dir.resolve("in.csv").toString(), "--store",
                dir.resolve("other").toString(), "--table", "sales", "--schema", SCHEMA);
        assertThat(withHeader.exitCode()).isEqualTo(1);
        assertThat(withHeader.err()).contains(":1: the header's columns [5, 1.00, 2020-01-01, a] do not match the"
                + " schema's [k, v, d, s]: missing k, v, d, s; unknown 5, 1.00, 2020-01-01, a;").contains("--no-header");
    }
}
