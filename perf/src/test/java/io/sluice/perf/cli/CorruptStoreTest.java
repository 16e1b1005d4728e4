package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.format.BlockLayout;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A damaged store makes {@code inspect} fail with a message naming the file (and block). */
class CorruptStoreTest {
    @TempDir
    Path dir;
    Path store;

    @BeforeEach
    void importTwoBlocks() throws IOException {
        final StringBuilder sb = new StringBuilder("k,v\n");
        for (int i = 0; i < 10_000; i++) {
            sb.append(i).append(',').append(i % 100).append(".25\n");
        }
        final Path csv = Files.writeString(dir.resolve("in.csv"), sb, StandardCharsets.UTF_8);
        store = dir.resolve("store");
        final Cli.Result r = Cli.run("import", "--csv", csv.toString(), "--store", store.toString(), "--table", "t",
                "--schema", "k:int64,v:decimal(15,2)");
        assertThat(r.exitCode()).as(r.toString()).isZero();
    }

    static void flipByte(final Path file, final long position) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(position);
            final int b = raf.read();
            raf.seek(position);
            raf.write(b ^ 0x40);
        }
    }

    /** The middle of column 1's data, found from the block's directory. */
    static long middleOfColumnData(final Path blockFile) throws IOException {
        final UnsafeBuffer buffer = new UnsafeBuffer(Files.readAllBytes(blockFile));
        final int entry = BlockLayout.directoryEntry(1);
        return buffer.getLong(entry + BlockLayout.ENTRY_OFFSET, ByteOrder.LITTLE_ENDIAN)
                + buffer.getInt(entry + BlockLayout.ENTRY_LENGTH, ByteOrder.LITTLE_ENDIAN) / 2;
    }

    @Test
    void verifyNamesTheDamagedFileAndBlock() throws IOException {
        final Path block1 = store.resolve("t").resolve("v1").resolve("block-000001.sbk");
        flipByte(block1, middleOfColumnData(block1));

        final Cli.Result plain = Cli.run("inspect", "--store", store.toString());
        assertThat(plain.exitCode()).as("the zonemap index is intact: " + plain).isZero();

        final Cli.Result verified = Cli.run("inspect", "--store", store.toString(), "--verify");
        assertThat(verified.exitCode()).isEqualTo(1);
        assertThat(verified.err()).startsWith("sluice inspect: error: corrupt block 1 in " + block1)
                .contains("checksum mismatch").doesNotContain("\tat ");
        assertThat(verified.err().lines().count()).isEqualTo(1);
        assertThat(verified.out()).contains("verified 2 blocks: 1 block damaged");
    }

    @Test
    void aDamagedHeaderIsFoundToo() throws IOException {
        final Path block0 = store.resolve("t").resolve("v1").resolve("block-000000.sbk");
        flipByte(block0, BlockLayout.zoneMapEntry(2, 0) + 2);
        final Cli.Result r = Cli.run("inspect", "--store", store.toString(), "--verify", "--json");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("corrupt block 0 in " + block0);
        MiniJson.parse(r.out());
    }

    @Test
    void aDamagedZonemapIndexFailsPlainInspect() throws IOException {
        final Path index = store.resolve("t").resolve("v1").resolve("zonemaps.bin");
        flipByte(index, 40);
        final Cli.Result r = Cli.run("inspect", "--store", store.toString());
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).startsWith("sluice inspect: error: table 't' is damaged: zonemap index " + index
                + " is corrupt: its checksum is").doesNotContain("\tat ");
    }

    @Test
    void verifyListsEveryDamagedAndMissingBlockNotJustTheFirst() throws IOException {
        final Path block0 = store.resolve("t").resolve("v1").resolve("block-000000.sbk");
        final Path block1 = store.resolve("t").resolve("v1").resolve("block-000001.sbk");
        flipByte(block0, middleOfColumnData(block0));
        Files.delete(block1);
        final Cli.Result r = Cli.run("inspect", "--store", store.toString(), "--verify");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err().lines().toList()).containsExactly(
                "sluice inspect: error: corrupt block 0 in " + block0 + ": column 1 checksum mismatch (the data is"
                        + " damaged; regenerate or re-import the table)",
                "sluice inspect: error: block 1 of 2 of table 't' is missing: no file " + block1
                        + "; regenerate or re-import the table");
        assertThat(r.out()).contains("verified 2 blocks: 2 blocks damaged");
    }

    @Test
    void aTableDirectoryWithoutAManifestIsListedAsDamaged() throws IOException {
        final Path other = Files.createDirectories(store.resolve("u").resolve("v1"));
        Files.write(other.resolve("block-000000.sbk"), new byte[64]);
        final Cli.Result r = Cli.run("inspect", "--store", store.toString());
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.out()).startsWith("store " + store + ": 1 table").contains("\nt: 10000 rows")
                .contains("\nu: damaged");
        assertThat(r.err()).isEqualTo("sluice inspect: error: table 'u' is damaged: directory " + store.resolve("u")
                + " has no manifest.properties: it is not a complete table; regenerate or re-import it\n");
    }

    @Test
    void aMissingBlockFileIsNamed() throws IOException {
        final Path block1 = store.resolve("t").resolve("v1").resolve("block-000001.sbk");
        Files.delete(block1);
        final Cli.Result r = Cli.run("inspect", "--store", store.toString());
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains(block1.toString()).contains("block 1 of 2");
    }
}
