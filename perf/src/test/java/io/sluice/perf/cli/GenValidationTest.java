package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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

    @Test
    void aNonEmptyOutputDirectoryNeedsForceAndIsLeftAlone() throws IOException {
        final Path out = dir.resolve("out");
        Files.createDirectories(out.resolve("sub"));
        Files.writeString(out.resolve("notes.txt"), "keep me", StandardCharsets.UTF_8);
        final Map<String, String> before = snapshot(out);
        final Cli.Result r = Cli.run("gen", "--sf", "0.01", "--out", out.toString(), "--tables", "region");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).startsWith("sluice gen: error: output directory " + out + " is not empty")
                .contains("notes.txt").contains("use --force").contains("choose another directory");
        assertThat(snapshot(out)).isEqualTo(before);
    }

    @Test
    void forceRefusesADirectoryWithForeignFiles() throws IOException {
        final Path out = dir.resolve("out");
        assertThat(Cli.run("gen", "--sf", "0.01", "--out", out.toString(), "--tables", "region").exitCode()).isZero();
        Files.writeString(out.resolve("thesis.tex"), "years of work", StandardCharsets.UTF_8);
        final Map<String, String> before = snapshot(out);
        final Cli.Result r = Cli.run("gen", "--sf", "0.01", "--out", out.toString(), "--tables", "nation", "--force");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).startsWith("sluice gen: error: refusing to --force output directory " + out)
                .contains("thesis.tex").doesNotContain("region,");
        assertThat(snapshot(out)).isEqualTo(before);
    }

    @Test
    void forceRefusesATableDirectoryWithForeignFiles() throws IOException {
        final Path out = dir.resolve("out");
        assertThat(Cli.run("gen", "--sf", "0.01", "--out", out.toString(), "--tables", "region").exitCode()).isZero();
        Files.writeString(out.resolve("region").resolve("mine.csv"), "a,b\n", StandardCharsets.UTF_8);
        final Map<String, String> before = snapshot(out);
        final Cli.Result r = Cli.run("gen", "--sf", "0.01", "--out", out.toString(), "--tables", "region", "--force");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("refusing to --force").contains("region");
        assertThat(snapshot(out)).isEqualTo(before);
    }

    @Test
    void forceReplacesSluiceTablesAndLeftoverPartialWrites() throws IOException {
        final Path out = dir.resolve("out");
        assertThat(Cli.run("gen", "--sf", "0.01", "--out", out.toString(), "--tables", "region,nation").exitCode())
                .isZero();
        final Path partial = Files.createDirectories(out.resolve(".supplier.partial"));
        Files.write(partial.resolve("block-000000.sbk"), new byte[10]);
        final Cli.Result r = Cli.run("gen", "--sf", "0.01", "--out", out.toString(), "--tables", "region", "--force");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.err()).contains("removed 3 old tables");
        try (Stream<Path> entries = Files.list(out)) {
            assertThat(entries.map(p -> p.getFileName().toString())).containsExactly("region");
        }
        assertThat(Cli.run("inspect", "--store", out.toString()).out()).contains("region: 5 rows");
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
