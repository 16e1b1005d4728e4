package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.perf.tpch.TpchSkew;
import io.sluice.storage.Store;
import io.sluice.storage.StoreLock;
import io.sluice.storage.Table;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code gen} checks its arguments and its output directory before doing any work. */
class GenValidationTest {
    @TempDir
    Path dir;

    /** Every file under a directory with its content, to show that nothing changed. */
    static Map<String, String> snapshot(final Path root) throws IOException {
        final Map<String, String> files = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (final Path p : paths.toList()) {
                files.put(root.relativize(p).toString(), Files.isRegularFile(p)
                        ? Integer.toHexString(java.util.Arrays.hashCode(Files.readAllBytes(p))) : "dir");
            }
        }
        return files;
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "abc", "1001", "NaN", "", "-0.5"})
    void badScaleFactorsAreUsageErrors(final String sf) {
        final Path out = dir.resolve("out");
        final Cli.Result r = Cli.run("gen", "--sf", sf, "--out", out.toString());
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("Invalid value for option '--sf'").contains("(0, 1000]")
                .contains("Usage: sluice gen").doesNotContain("\tat ");
        assertThat(out).doesNotExist();
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "abc", "4.5", "NaN"})
    void badSkewsAreUsageErrors(final String z) {
        final Path out = dir.resolve("out");
        final Cli.Result r = Cli.run("gen", "--sf", "0.01", "--skew", z, "--out", out.toString());
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("Invalid value for option '--skew'").contains("(0, 4]")
                .contains("Usage: sluice gen").doesNotContain("\tat ");
        assertThat(out).doesNotExist();
    }

    @Test
    void aSkewedStoreSaysHowHeavyItsTopKeysAreAndRecordsItsSkew() throws IOException {
        final Path out = dir.resolve("skewed");
        final Cli.Result r = Cli.run("gen", "--sf", "0.01", "--skew", "1.5", "--out", out.toString(), "--tables",
                "orders,customer");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("skew Zipf(1.5): the top customer places 39.2% of the orders");
        try (Table orders = Store.open(out).table("orders"); Table customer = Store.open(out).table("customer")) {
            assertThat(orders.manifest().attributes()).containsEntry(TpchSkew.ATTRIBUTE, "1.5");
            assertThat(customer.manifest().attributes()).doesNotContainKey(TpchSkew.ATTRIBUTE);
        }
    }

    @Test
    void aNonNumberSaysSo() {
        final Cli.Result r = Cli.run("gen", "--sf", "abc", "--out", dir.resolve("out").toString());
        assertThat(r.err()).contains("'abc' is not a number");
    }

    @Test
    void missingOptionsAreUsageErrors() {
        final Cli.Result r = Cli.run("gen", "--sf", "0.01");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("Missing required option: '--out=<dir>'");
    }

    @Test
    void unknownTablesAreAllListed() {
        final Path out = dir.resolve("out");
        final Cli.Result r = Cli.run("gen", "--sf", "0.01", "--out", out.toString(), "--tables", "lineitem,items,foo");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).startsWith("sluice gen: error: unknown TPC-H tables 'items', 'foo' in --tables: use region,")
                .doesNotContain("\tat ");
        assertThat(out).doesNotExist();
    }

    @Test
    void threadsMustBePositive() {
        final Cli.Result r = Cli.run("gen", "--sf", "0.01", "--out", dir.resolve("out").toString(), "--threads", "0");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("--threads 0 is not valid");
    }

    /** The names in a store directory, without its lock file. */
    static List<String> entries(final Path store) throws IOException {
        try (Stream<Path> entries = Files.list(store)) {
            return entries.map(p -> p.getFileName().toString()).filter(n -> !n.equals(StoreLock.FILE)).sorted().toList();
        }
    }

    @Test
    void aDirectoryOfOtherFilesIsRefusedWithOrWithoutForceAndLeftAlone() throws IOException {
        final Path out = dir.resolve("out");
        Files.createDirectories(out.resolve("sub"));
        Files.writeString(out.resolve("notes.txt"), "keep me", StandardCharsets.UTF_8);
        final Map<String, String> before = snapshot(out);
        for (final String force : new String[] {"--threads=2", "--force"}) {
            final Cli.Result r = Cli.run("gen", "--sf", "0.01", "--out", out.toString(), "--tables", "region", force);
            assertThat(r.exitCode()).isEqualTo(1);
            assertThat(r.err()).startsWith("sluice gen: error: output directory " + out + " is not a Sluice store")
                    .contains("notes.txt, sub").contains("choose another directory");
            assertThat(snapshot(out)).isEqualTo(before);
        }
    }

    @Test
    void aStoreWithAForeignFileIsRefusedToo() throws IOException {
        final Path out = dir.resolve("out");
        assertThat(Cli.run("gen", "--sf", "0.01", "--out", out.toString(), "--tables", "region").exitCode()).isZero();
        Files.writeString(out.resolve("thesis.tex"), "years of work", StandardCharsets.UTF_8);
        final Map<String, String> before = snapshot(out);
        final Cli.Result r = Cli.run("gen", "--sf", "0.01", "--out", out.toString(), "--tables", "nation", "--force");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("is not a Sluice store").contains("thesis.tex").doesNotContain("region");
        assertThat(snapshot(out)).isEqualTo(before);
    }

    @Test
    void genAddsListedTablesToAStoreOfTheSameScaleFactorAndTouchesNoOther() throws IOException {
        final Path out = dir.resolve("out");
        assertThat(Cli.run("gen", "--sf", "0.01", "--out", out.toString(), "--tables", "region,supplier").exitCode())
                .isZero();
        final Map<String, String> before = snapshot(out.resolve("supplier"));
        final Cli.Result r = Cli.run("gen", "--sf", "0.01", "--out", out.toString(), "--tables", "nation");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("generated 1 table at SF").contains("left as they were: region, supplier");
        assertThat(entries(out)).containsExactly("nation", "region", "supplier");
        assertThat(snapshot(out.resolve("supplier"))).isEqualTo(before);
        assertThat(Cli.run("inspect", "--store", out.toString(), "--verify").exitCode()).isZero();
    }

    @Test
    void forceWithTablesReplacesOnlyThoseKeepsTheOthersAndRemovesLeftovers() throws IOException {
        final Path out = dir.resolve("out");
        assertThat(Cli.run("gen", "--sf", "0.01", "--out", out.toString(), "--tables", "region,nation,supplier")
                .exitCode()).isZero();
        final Map<String, String> nation = snapshot(out.resolve("nation"));
        final Map<String, String> supplier = snapshot(out.resolve("supplier"));
        final Path partial = Files.createDirectories(out.resolve(".customer.partial").resolve("v1"));
        Files.write(partial.resolve("block-000000.sbk"), new byte[10]);
        final Cli.Result r = Cli.run("gen", "--sf", "0.01", "--out", out.toString(), "--tables", "region", "--force");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.err()).contains("removed what an unfinished write left in " + out + ": .customer.partial");
        assertThat(r.out()).contains("replaced region; left as they were: nation, supplier");
        assertThat(entries(out)).containsExactly("nation", "region", "supplier");
        assertThat(snapshot(out.resolve("nation"))).isEqualTo(nation);
        assertThat(snapshot(out.resolve("supplier"))).isEqualTo(supplier);
        try (Stream<Path> regionFiles = Files.list(out.resolve("region"))) {
            assertThat(regionFiles.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder(
                    "manifest.properties", "v2");
        }
        final Cli.Result inspect = Cli.run("inspect", "--store", out.toString(), "--verify");
        assertThat(inspect.exitCode()).as(inspect.toString()).isZero();
        assertThat(inspect.out()).contains("region: 5 rows").contains("nation: 25 rows").contains("supplier: 100 rows");
    }

    @Test
    void forceReplacesATableButNotAFileSluiceDidNotWriteInItsDirectory() throws IOException {
        final Path out = dir.resolve("out");
        assertThat(Cli.run("gen", "--sf", "0.01", "--out", out.toString(), "--tables", "region").exitCode()).isZero();
        Files.writeString(out.resolve("region").resolve("mine.csv"), "a,b\n", StandardCharsets.UTF_8);
        final Cli.Result r = Cli.run("gen", "--sf", "0.01", "--out", out.toString(), "--tables", "region", "--force");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(out.resolve("region").resolve("mine.csv")).hasContent("a,b");
        assertThat(Cli.run("inspect", "--store", out.toString(), "--verify").exitCode()).isZero();
    }

    @Test
    void anExistingTableNeedsForceAndTheErrorGivesTheCommandsThatWork() throws IOException {
        final Path out = dir.resolve("out");
        assertThat(Cli.run("gen", "--sf", "0.01", "--out", out.toString(), "--tables", "region").exitCode()).isZero();
        final Map<String, String> before = snapshot(out);
        final Cli.Result r = Cli.run("gen", "--sf", "0.01", "--out", out.toString(), "--tables", "region,nation");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("sluice gen: error: store " + out + " already has table region: replace it with"
                + " `sluice gen --sf 0.01 --out " + out + " --tables region --force`, or add only the others with"
                + " `sluice gen --sf 0.01 --out " + out + " --tables nation`\n");
        assertThat(snapshot(out)).isEqualTo(before);
        for (final String command : Hints.commands(r.err())) {
            final Cli.Result hinted = Hints.run(command);
            assertThat(hinted.exitCode()).as(command + ": " + hinted).isZero();
        }
        assertThat(entries(out)).containsExactly("nation", "region");
    }

    @Test
    void anotherScaleFactorIsRefusedSayingWhichAndTheHintsWork() throws IOException {
        final Path out = dir.resolve("sf0.01");
        assertThat(Cli.run("gen", "--sf", "0.01", "--out", out.toString(), "--tables", "supplier,region").exitCode())
                .isZero();
        final Map<String, String> before = snapshot(out);
        final Cli.Result r = Cli.run("gen", "--sf", "0.02", "--out", out.toString(), "--tables", "nation");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).startsWith("sluice gen: error: store " + out + " holds TPC-H tables of another scale factor"
                + " (supplier at SF 0.01), which SF 0.02 tables would not match: generate into another directory (`sluice"
                + " gen --sf 0.02 --out " + dir.toAbsolutePath().resolve("sf0.02") + " --tables nation`) or use the"
                + " store's scale factor (`sluice gen --sf 0.01 --out " + out + " --tables nation`)");
        assertThat(snapshot(out)).isEqualTo(before);
        final List<String> hints = Hints.commands(r.err());
        assertThat(hints).hasSize(2);
        for (final String command : hints) {
            final Cli.Result hinted = Hints.run(command);
            assertThat(hinted.exitCode()).as(command + ": " + hinted).isZero();
        }
        assertThat(entries(out)).containsExactly("nation", "region", "supplier");
        assertThat(entries(dir.resolve("sf0.02"))).containsExactly("nation");
    }

    @Test
    void aListedTableOfAnotherScaleFactorIsRefusedForItsScaleFirstAndBothHintsWork() throws IOException {
        final Path out = dir.resolve("sf0.01");
        assertThat(Cli.run("gen", "--sf", "0.01", "--out", out.toString(), "--tables", "supplier,customer").exitCode())
                .isZero();
        final Cli.Result r = Cli.run("gen", "--sf", "0.02", "--out", out.toString(), "--tables", "supplier");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).startsWith("sluice gen: error: store " + out + " holds TPC-H tables of another scale factor"
                + " (customer at SF 0.01)");
        final List<String> hints = Hints.commands(r.err());
        assertThat(hints).containsExactly(
                "sluice gen --sf 0.02 --out " + dir.toAbsolutePath().resolve("sf0.02") + " --tables supplier",
                "sluice gen --sf 0.01 --out " + out + " --tables supplier --force");
        for (final String command : hints) {
            final Cli.Result hinted = Hints.run(command);
            assertThat(hinted.exitCode()).as(command + ": " + hinted).isZero();
        }
        assertThat(entries(out)).containsExactly("customer", "supplier");
        assertThat(entries(dir.resolve("sf0.02"))).containsExactly("supplier");
    }

    @Test
    void outMustBeADirectory() throws IOException {
        final Path file = Files.writeString(dir.resolve("file"), "x");
        final Cli.Result r = Cli.run("gen", "--sf", "0.01", "--out", file.toString(), "--force");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("exists and is not a directory");
        assertThat(Files.readString(file)).isEqualTo("x");
    }

    @Test
    void helpOnEverySubcommand() {
        for (final String command : new String[] {"gen", "import", "inspect"}) {
            final Cli.Result r = Cli.run(command, "--help");
            assertThat(r.exitCode()).isZero();
            assertThat(r.out()).startsWith("Usage: sluice " + command).contains("Example");
        }
        final Cli.Result none = Cli.run();
        assertThat(none.exitCode()).isEqualTo(2);
        assertThat(none.err()).contains("gen").contains("import").contains("inspect");
    }
}
