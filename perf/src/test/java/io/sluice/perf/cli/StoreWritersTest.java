package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.perf.cluster.JavaProcess;
import io.sluice.storage.StoreContents;
import io.sluice.storage.StoreLock;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers of one store in separate processes: real {@code sluice gen} and {@code sluice import} JVMs.
 * Each test makes its interleaving certain instead of racing: the first writer is stopped (SIGSTOP)
 * while it is seen holding the lock or writing a partial table, so the second writer, or the signal,
 * meets it there.
 */
class StoreWritersTest {
    private static final Duration DEADLINE = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    static JavaProcess sluice(final String... args) {
        return JavaProcess.of(SluiceCommand.class).jvmArgs("-Xmx1g").args(args).start();
    }

    static void await(final String what, final BooleanSupplier condition, final Supplier<String> state) {
        final long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no " + what + " within " + DEADLINE.toSeconds() + " s: " + state.get());
            }
            LockSupport.parkNanos(10_000_000L);
        }
    }

    static boolean lockedBy(final Path store, final JavaProcess process) {
        return Files.isDirectory(store) && StoreLock.recorded(store).map(h -> h.pid() == process.pid()).orElse(false);
    }

    /** Waits until a gen child has printed a progress line (so its largest tables are being written), then stops it. */
    static void stopWhileWriting(final JavaProcess gen, final Path store) {
        await("progress line", () -> gen.stderr().stream().anyMatch(l -> l.startsWith("gen ")), gen::toString);
        gen.signal("STOP");
        assertThat(lockedBy(store, gen)).as("stopped while holding the lock").isTrue();
        assertThat(StoreContents.of(store).leftovers()).as("stopped while writing").isNotEmpty();
    }

    @Test
    void aSecondWriterFailsAtOnceNamingTheFirstAndTheStoreVerifiesAfterwards() throws Exception {
        final Path store = dir.resolve("sf0.05");
        try (JavaProcess first = sluice("gen", "--sf", "0.05", "--out", store.toString())) {
            await("lock held by the first gen", () -> lockedBy(store, first), first::toString);
            first.signal("STOP");
            assertThat(lockedBy(store, first)).isTrue();

            final Cli.Result second = Cli.run("gen", "--sf", "0.05", "--out", store.toString(), "--tables", "nation");
            assertThat(second.exitCode()).isEqualTo(1);
            assertThat(second.err()).startsWith("sluice gen: error: store " + store
                    + " is locked by another writer in another process: pid " + first.pid() + " on ")
                    .contains("(sluice gen --sf 0.05 --out " + store + ")")
                    .contains("wait until it has finished");
            final Path csv = Files.writeString(dir.resolve("t.csv"), "k\n1\n", StandardCharsets.UTF_8);
            final Cli.Result importer = Cli.run("import", "--csv", csv.toString(), "--store", store.toString(),
                    "--table", "t", "--schema", "k:int64");
            assertThat(importer.exitCode()).isEqualTo(1);
            assertThat(importer.err()).contains("is locked by another writer in another process: pid " + first.pid());

            first.signal("CONT");
            assertThat(first.awaitExit(DEADLINE)).as(first.stderr().toString()).isZero();
        }
        assertThat(StoreLock.recorded(store)).isEmpty();
        final Cli.Result verify = Cli.run("inspect", "--store", store.toString(), "--verify");
        assertThat(verify.exitCode()).as(verify.toString()).isZero();
        assertThat(verify.out()).startsWith("store " + store + ": 8 tables").doesNotContain("damaged");
    }

    @Test
    void sigtermDuringGenRemovesItsUnfinishedTablesAndSaysWhatItKept() throws Exception {
        final Path store = dir.resolve("store");
        final String stopped;
        try (JavaProcess gen = sluice("gen", "--sf", "0.05", "--out", store.toString())) {
            stopWhileWriting(gen, store);
            gen.signal("TERM");
            gen.signal("CONT");
            assertThat(gen.awaitExit(DEADLINE)).isEqualTo(128 + 15);
            stopped = String.join("\n", gen.stderr());
        }
        assertThat(stopped).contains("sluice gen: error: stopped by a signal: lineitem")
                .contains("did not finish and nothing of them is left; the store " + store + " keeps its complete tables");
        final StoreContents contents = StoreContents.of(store);
        assertThat(contents.leftovers()).isEmpty();
        assertThat(contents.tables()).doesNotContain("lineitem");
        final String kept = stopped.substring(stopped.indexOf("keeps its complete tables ") + 26).lines().findFirst()
                .orElseThrow();
        assertThat(kept.equals("(none)") ? List.of() : List.of(kept.split(", "))).isEqualTo(contents.tables());
        assertThat(Files.size(store.resolve(StoreLock.FILE))).as("lock released").isZero();
        final Cli.Result verify = Cli.run("inspect", "--store", store.toString(), "--verify");
        assertThat(verify.exitCode()).as(verify.toString()).isZero();
        assertThat(verify.out()).doesNotContain("unfinished write");
    }

    /**
     * Whether this JVM started with SIGINT ignored (a background job of a shell without job control): the
     * processes it starts inherit that, so no SIGINT can reach them.
     */
    private static boolean sigintIgnored() throws IOException {
        for (final String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16) & (1L << 1)) != 0;
            }
        }
        return false;
    }

    /** This JVM's ignored and caught signal masks, for a failure message. */
    private static String signalMasks() throws IOException {
        final List<String> masks = new java.util.ArrayList<>();
        for (final String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:") || line.startsWith("SigCgt:")) {
                masks.add(line.replace('\t', ' '));
            }
        }
        return String.join(", ", masks);
    }

    @Test
    void sigintDuringImportRemovesThePartialTable() throws Exception {
        Assumptions.assumeFalse(sigintIgnored(), "this JVM ignores SIGINT (started in the background), and so would"
                + " the importer it starts: run the tests in the foreground to test SIGINT");
        final Path csv = dir.resolve("big.csv");
        // Enough rows that the import is still writing blocks when the signals arrive (one that lands while it
        // finishes the table lets the complete table stand), written as a stream: a file built in memory first
        // would leave this JVM collecting garbage while the importer runs on.
        try (BufferedWriter text = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
            text.write("k,s\n");
            for (int i = 0; i < 5_000_000; i++) {
                text.write(i + ",row number " + i + "\n");
            }
        }
        final Path store = dir.resolve("store");
        final Path partial = store.resolve(".big.partial").resolve("v1");
        try (JavaProcess importer = sluice("import", "--csv", csv.toString(), "--store", store.toString(), "--table",
                "big", "--schema", "k:int64,s:string")) {
            await("a block in the partial table", () -> Files.exists(partial.resolve("block-000001.sbk")),
                    importer::toString);
            importer.signal("STOP");
            assertThat(Files.isDirectory(partial)).as("stopped before the table was complete").isTrue();
            importer.signal("INT");
            importer.signal("CONT");
            assertThat(importer.awaitExit(DEADLINE)).as("exit code after SIGINT (this JVM's %s): %s", signalMasks(),
                    importer).isEqualTo(128 + 2);
            assertThat(String.join("\n", importer.stderr())).contains("sluice import: error: stopped by a signal:"
                    + " removed the unfinished table big; the store " + store + " keeps its tables []");
        }
        assertThat(StoreContents.of(store).leftovers()).isEmpty();
        assertThat(StoreContents.of(store).tables()).isEmpty();
    }

    @Test
    void aKilledWriterLeavesAStaleLockAndLeftoversThatInspectReportsAndTheNextWriterRemoves() throws IOException {
        final Path store = dir.resolve("store");
        final long pid;
        try (JavaProcess gen = sluice("gen", "--sf", "0.05", "--out", store.toString())) {
            stopWhileWriting(gen, store);
            pid = gen.pid();
            gen.signal("KILL");
            gen.awaitExit(DEADLINE);
        }
        final List<Path> leftovers = StoreContents.of(store).leftovers();
        assertThat(leftovers).contains(store.resolve(".lineitem.partial"));
        final Cli.Result inspect = Cli.run("inspect", "--store", store.toString());
        assertThat(inspect.out()).contains("an unfinished write by pid " + pid + " on ")
                .contains("which ended without releasing the store's lock, left .lineitem.partial")
                .contains("the next sluice gen or sluice import into this store removes it");

        final Cli.Result next = Cli.run("gen", "--sf", "0.05", "--out", store.toString(), "--tables", "lineitem");
        assertThat(next.exitCode()).as(next.toString()).isZero();
        assertThat(next.err()).contains("sluice gen: took over the lock of store " + store + " from pid " + pid)
                .contains("which ended without releasing it")
                .contains("sluice gen: removed what an unfinished write left in " + store + ": ")
                .contains(".lineitem.partial");
        assertThat(StoreContents.of(store).leftovers()).isEmpty();
        final Cli.Result verify = Cli.run("inspect", "--store", store.toString(), "--verify");
        assertThat(verify.exitCode()).as(verify.toString()).isZero();
        assertThat(verify.out()).contains("lineitem: ").doesNotContain("unfinished write");
    }
}
