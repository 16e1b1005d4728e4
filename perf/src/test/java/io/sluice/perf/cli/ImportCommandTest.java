package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice import} onto a table the store has: refused with the command that replaces it, which
 * works; {@code --replace} swaps the table whole (a bad file leaves the old one); the type aliases
 * {@code --help} lists; progress on stderr; counts in the right number.
 */
class ImportCommandTest {
    static final String SCHEMA = "k:int64,v:decimal(15,2),d:date,s:string";

    @TempDir
    Path dir;

    Path csv(final String name, final String text) throws IOException {
        return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
    }

    Cli.Result importCsv(final Path file, final String... extra) {
        final List<String> args = new ArrayList<>(List.of("import", "--csv", file.toString(), "--store",
                dir.resolve("store").toString(), "--table", "sales", "--schema", SCHEMA));
        args.addAll(List.of(extra));
        return Cli.run(args.toArray(String[]::new));
    }

    String inspect() {
        final Cli.Result r = Cli.run("inspect", "--store", dir.resolve("store").toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return r.out();
    }

    /** The words a POSIX shell makes of a command line, as the user who pastes it gets them. */
    static List<String> shellWords(final String command) throws IOException, InterruptedException {
        final Process p = new ProcessBuilder("sh", "-c", "for a in " + command + "; do printf '%s\\n' \"$a\"; done")
                .redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        return out.lines().toList();
    }

    @Test
    void anExistingTableIsRefusedWithTheCommandThatReplacesItAndThatCommandReplacesIt() throws Exception {
        assertThat(importCsv(csv("one.csv", "k,v,d,s\n1,1.00,2020-01-01,a\n")).exitCode()).isZero();
        final Path two = csv("two.csv", "k,v,d,s\n2,2.00,2021-01-01,b\n3,3.00,2022-01-01,c\n");
        final Cli.Result refused = importCsv(two);
        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(1);
        assertThat(refused.err()).startsWith("sluice import: error: store " + dir.resolve("store")
                + " already has a table sales: replace it with `sluice import ");
        final String suggested = refused.err().substring(refused.err().indexOf('`') + 1, refused.err().lastIndexOf('`'));
        final List<String> words = shellWords(suggested);
        assertThat(words.get(0)).isEqualTo("sluice");
        assertThat(words).contains(SCHEMA, "--replace");
        assertThat(inspect()).contains("sales: 1 row in 1 block");

        final Cli.Result replaced = Cli.run(words.subList(1, words.size()).toArray(String[]::new));
        assertThat(replaced.exitCode()).as(replaced.toString()).isZero();
        assertThat(replaced.out()).startsWith("imported 2 rows into table sales of store " + dir.resolve("store")
                + ", replacing its previous version: 1 block, ");
        assertThat(inspect()).contains("sales: 2 rows in 1 block");
    }

    @Test
    void aReplaceThatFailsLeavesTheOldTable() throws IOException {
        assertThat(importCsv(csv("one.csv", "k,v,d,s\n1,1.00,2020-01-01,a\n")).exitCode()).isZero();
        final Cli.Result bad = importCsv(csv("bad.csv", "k,v,d,s\n2,2.00,2021-01-01,b\n3,x,2022-01-01,c\n"),
                "--replace");
        assertThat(bad.exitCode()).as(bad.toString()).isEqualTo(1);
        assertThat(bad.err()).contains("bad.csv:3: column 'v'");
        final String text = inspect();
        assertThat(text).contains("sales: 1 row in 1 block");
        assertThat(GenAndInspectTest.columnLine(text, "k")).containsExactly("k", "int64", "1", "1", "0");
    }

    @Test
    void replaceMakesANewTableWhenThereIsNone() throws IOException {
        final Cli.Result r = importCsv(csv("one.csv", "k,v,d,s\n1,1.00,2020-01-01,a\n"), "--replace");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).startsWith("imported 1 row into table sales of store " + dir.resolve("store") + ": 1 block, ");
    }

    @Test
    void theTypeAliasesAreListedInHelpAndAccepted() throws IOException {
        final Cli.Result help = Cli.run("import", "--help");
        assertThat(help.out().replaceAll("\\s+", " ")).contains("int64 (alias bigint, long), int32 (int, integer)",
                "string (varchar, text)", "--replace");
        final Cli.Result r = Cli.run("import", "--csv", csv("one.csv", "k,n,s,t\n1,2,a,b\n").toString(), "--store",
                dir.resolve("store").toString(), "--table", "aliased", "--schema",
                "k:BIGINT,n:integer,s:varchar,t:text");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        final String text = inspect();
        assertThat(GenAndInspectTest.columnLine(text, "k")).startsWith("k", "int64");
        assertThat(GenAndInspectTest.columnLine(text, "n")).startsWith("n", "int32");
        assertThat(GenAndInspectTest.columnLine(text, "t")).startsWith("t", "string");
    }

    @Test
    void progressGoesToStderrEndingAtAHundredPercent() throws IOException {
        final StringBuilder sb = new StringBuilder("k,v,d,s\n");
        for (int i = 0; i < 50_000; i++) {
            sb.append(i).append(",1.00,2020-01-01,row").append(i).append('\n');
        }
        final Cli.Result r = importCsv(csv("big.csv", sb.toString()), "--sort-by", "k");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        final List<String> lines = r.err().lines().toList();
        assertThat(lines.size()).as(r.err()).isGreaterThan(1);
        assertThat(lines.get(0)).matches("import +\\d+% \\d+ rows, .* of .* rows/s {2}ETA .*");
        assertThat(lines.get(lines.size() - 1)).startsWith("import 100% 50000 rows, ").contains("done in");
        assertThat(r.out()).startsWith("imported 50000 rows into table sales");
    }
}
